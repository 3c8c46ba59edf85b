"""The two-board look-ahead kernel (`solver.core.search.board_chances`) against a plain recursive reference of its
definitions, on small random games drawn by hypothesis."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.search.board_chances import rate_guesses

WIN = 4  # codes 0..3 for the other feedback


def classes(table, row, cols):
    """Return {code: tuple of the columns of `cols` with that feedback to guess `row`}."""
    found: dict[int, list[int]] = {}
    for col in cols:
        found.setdefault(int(table[row, col]), []).append(col)
    return {code: tuple(members) for code, members in found.items()}


def reference(table, own, inner, win=WIN):
    """Return (q_solo, q_pair, rate): the definitions of the module docstring, plainly recursive, for feedback
    code `win` meaning solved."""
    inner = tuple(int(r) for r in inner)

    def pool(*boards):
        return sorted({int(own[c]) for board in boards for c in board} | set(inner))

    @lru_cache(maxsize=None)
    def q_solo(cols, k):
        if k == 0:
            return 0.0
        best = 0.0
        for row in pool(cols):
            total = 0.0
            for code, part in classes(table, row, cols).items():
                total += len(part) * (1.0 if code == win else q_solo(part, k - 1))
            best = max(best, total / len(cols))
        return best

    @lru_cache(maxsize=None)
    def q_pair(a, b, k):
        if k <= 1:
            return 0.0
        best = 0.0
        for row in pool(a, b):
            total = 0.0
            for code_a, part_a in classes(table, row, a).items():
                for code_b, part_b in classes(table, row, b).items():
                    if code_a == win and code_b == win:
                        value = 1.0
                    elif code_a == win:
                        value = q_solo(part_b, k - 1)
                    elif code_b == win:
                        value = q_solo(part_a, k - 1)
                    else:
                        value = q_pair(part_a, part_b, k - 1)
                    total += len(part_a) * len(part_b) * value
            best = max(best, total / (len(a) * len(b)))
        return best

    def rate(row, a, b, depth):
        total = 0.0
        for code_a, part_a in classes(table, row, a).items():
            for code_b, part_b in classes(table, row, b).items():
                if code_a == win and code_b == win:
                    value = float(depth)
                elif code_a == win or code_b == win:
                    rest = part_b if code_a == win else part_a
                    value = sum(q_solo(rest, k) for k in range(1, depth + 1))
                else:
                    value = sum(q_pair(part_a, part_b, k) for k in range(1, depth + 1))
                total += len(part_a) * len(part_b) * value
        return total / (len(a) * len(b))

    return q_solo, q_pair, rate


@st.composite
def small_games(draw):
    """Return (table, own, board_a, board_b, inner): targets' own words are rows 0..targets-1 and win only on
    themselves; a few more rows never win."""
    targets = draw(st.integers(2, 7))
    extra = draw(st.integers(0, 4))
    codes = draw(st.lists(st.integers(0, WIN - 1), min_size=(targets + extra) * targets,
                          max_size=(targets + extra) * targets))
    table = np.array(codes, dtype=np.uint8).reshape(targets + extra, targets)
    for t in range(targets):
        table[t, t] = WIN
    own = np.arange(targets, dtype=np.int64)
    subset = st.lists(st.integers(0, targets - 1), min_size=1, max_size=targets, unique=True).map(sorted)
    board_a, board_b = draw(subset), draw(subset)
    inner = draw(st.lists(st.integers(0, targets + extra - 1), max_size=4, unique=True).map(sorted))
    return table, own, np.array(board_a, np.int64), np.array(board_b, np.int64), np.array(inner, np.int64)


@settings(max_examples=150, deadline=None)
@given(small_games(), st.sampled_from([2, 3]))
def test_kernel_matches_the_reference(game, depth):
    table, own, board_a, board_b, inner = game
    _, _, rate = reference(table, own, inner)
    rows = np.arange(table.shape[0], dtype=np.int64)
    fast = rate_guesses(table, own, rows, board_a, board_b, inner, WIN, depth)
    slow = [rate(int(r), tuple(board_a.tolist()), tuple(board_b.tolist()), depth) for r in rows]
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-9)


def test_two_lone_candidates_finish_within_two():
    """Boards of one candidate each: a board's word wins it and leaves the other one sure try (Q_1 = Q_2 = 1);
    a guess that wins neither leaves two sure tries (Q_1 = 0, Q_2 = 1)."""
    table = np.array([[WIN, 0], [1, WIN], [2, 3]], dtype=np.uint8)
    own = np.array([0, 1], np.int64)
    rows = np.arange(3, dtype=np.int64)
    rated = rate_guesses(table, own, rows, np.array([0]), np.array([1]), np.array([], np.int64), WIN, 2)
    np.testing.assert_allclose(rated, [2.0, 2.0, 1.0])


@pytest.mark.parametrize("bad, message", [
    ({"depth": 4}, "depth must be 2 or 3"),
    ({"table": np.zeros((3, 2), np.int64)}, "2-D uint8"),
    ({"own": np.zeros(3, np.int64)}, "one row per target"),
    ({"board_a": np.array([], np.int64)}, "at least one candidate"),
])
def test_wrapper_names_what_is_wrong(bad, message):
    args = {"table": np.zeros((3, 2), np.uint8), "own": np.array([0, 1], np.int64),
            "rows": np.arange(3, dtype=np.int64), "board_a": np.array([0]), "board_b": np.array([1]),
            "inner": np.array([], np.int64), "win": WIN, "depth": 2}
    args.update(bad)
    with pytest.raises(ValueError, match=message):
        rate_guesses(**args)
