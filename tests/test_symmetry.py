"""Symmetry reduction of Mastermind and Bulls and Cows (`solver.core.symmetry`): published class counts,
brute-force orbits on small games, and the group elements keeping the feedback partitions."""
from functools import lru_cache
from itertools import permutations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core import scoring, symmetry
from solver.games import bulls, mastermind


def labels(game, rows):
    return [game.labels[r] for r in rows]


def test_mastermind_first_guesses():
    game = mastermind.game()
    assert labels(game, game.canonical([])) == ["1111", "1112", "1122", "1123", "1234"]


# widmaN/mastermind-strategy: 12/53/39/130/57 second guesses after 0000/0001/0011/0012/0123 (0-based)
@pytest.mark.parametrize("first, count", [("1111", 12), ("1112", 53), ("1122", 39), ("1123", 130), ("1234", 57)])
def test_mastermind_second_guess_counts(first, count):
    game = mastermind.game()
    rows = game.canonical([game.index_of(first)])
    assert rows.size == count
    assert rows.dtype == np.int64 and np.all(np.diff(rows) > 0)


def test_bulls_first_and_second_guesses():
    game = bulls.game()
    assert labels(game, game.canonical([])) == ["0123"]
    second = game.canonical([game.index_of("0123")])
    assert second.size == 20
    assert game.labels[second[0]] == "0123" and "4567" in labels(game, second)


def test_canonical_is_not_part_of_the_fingerprint():
    game = mastermind.game()
    plain = type(game)(**{f: getattr(game, f) for f in ("name", "variant", "rows", "labels", "target_index",
                                                        "n_codes", "rule", "win_code", "decode", "encode",
                                                        "rules_source")})
    assert plain.canonical is None and plain.fingerprint() == game.fingerprint()


def test_games_beyond_the_position_limit_have_no_canonical():
    assert mastermind.game(symmetry.MAX_POSITIONS + 1, 2).canonical is None
    assert mastermind.game(symmetry.MAX_POSITIONS, 2).canonical is not None


# -- brute force: the orbits of the whole stabiliser ---------------------------------------------
@lru_cache(maxsize=None)
def small_codes(positions, symbols, distinct):
    make = permutations(range(symbols), positions) if distinct else product(range(symbols), repeat=positions)
    return np.array(list(make), dtype=np.int64)


@lru_cache(maxsize=None)
def group(positions, symbols):
    return [(pi, np.array(sigma)) for pi in permutations(range(positions)) for sigma in permutations(range(symbols))]


def brute_force_orbits(codes, symbols, history):
    """Return the orbit number of every code under the elements of S_P x S_S fixing `history`."""
    index = {tuple(c): i for i, c in enumerate(codes.tolist())}
    keep = [(pi, sigma) for pi, sigma in group(codes.shape[1], symbols)
            if np.array_equal(symmetry.act(pi, sigma, codes[history]), codes[history])]
    orbit = np.full(len(codes), -1)
    for start in range(len(codes)):
        if orbit[start] < 0:
            for pi, sigma in keep:
                orbit[index[tuple(symmetry.act(pi, sigma, codes[start]).tolist())]] = start
    return orbit


@pytest.mark.parametrize("positions, symbols, distinct", [(3, 3, False), (3, 4, False), (2, 5, False),
                                                          (3, 5, True), (4, 4, True)])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_classes_are_the_orbits_of_the_stabiliser(positions, symbols, distinct, data):
    codes = small_codes(positions, symbols, distinct)
    history = data.draw(st.lists(st.integers(0, len(codes) - 1), max_size=3), label="history")
    orbit = brute_force_orbits(codes, symbols, history)
    keys = symmetry.canonical_keys(codes, symbols, history)
    # same key <=> same orbit
    assert len(set(zip(orbit.tolist(), keys.tolist()))) == len(set(orbit.tolist())) == len(set(keys.tolist()))
    expected = sorted({int(np.flatnonzero(orbit == o).min()) for o in set(orbit.tolist())})
    assert symmetry.canonical_guesses(codes, symbols, history).tolist() == expected


# -- the games: group elements keep the candidates and the feedback --------------------------------
@lru_cache(maxsize=None)
def table(name):
    game = mastermind.game(3, 3) if name == "mastermind" else bulls.game(3)
    return game, scoring.feedback_table(game)


def positions_of(game):
    return game.rows[:, :3].astype(np.int64), (3 if game.name == "mastermind" else 10)


def draw_state(name, data):
    """Return (game, table, codes, symbols, history, candidates) for a drawn secret and history."""
    game, codes_table = table(name)
    codes, symbols = positions_of(game)
    secret = data.draw(st.integers(0, game.n_guesses - 1), label="secret")
    history = data.draw(st.lists(st.integers(0, game.n_guesses - 1), max_size=3), label="history")
    alive = np.ones(game.n_guesses, dtype=bool)
    for t in history:
        alive &= codes_table[t] == codes_table[t, secret]
    return game, codes_table, codes, symbols, history, np.flatnonzero(alive)


@pytest.mark.parametrize("name", ["mastermind", "bulls"])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_element_to_the_representative_keeps_candidates_and_feedback(name, data):
    game, codes_table, codes, symbols, history, candidates = draw_state(name, data)
    weights = symbols ** np.arange(2, -1, -1)
    index = np.full(symbols**3, -1)
    index[codes @ weights] = np.arange(game.n_guesses)  # row of a code, by its number
    reps = set(game.canonical(history).tolist())
    keys = symmetry.canonical_keys(codes, symbols, history)
    for a in range(game.n_guesses):
        pi, sigma = symmetry.to_canonical(codes[a], symbols, codes[history])
        assert sorted(sigma.tolist()) == list(range(symbols))
        assert np.array_equal(symmetry.act(pi, sigma, codes[history]), codes[history])
        b = index[symmetry.act(pi, sigma, codes[a]) @ weights]
        assert b in reps and keys[b] == keys[a]
        moved = index[symmetry.act(pi, sigma, codes[candidates]) @ weights]
        assert np.all(moved >= 0)
        assert np.array_equal(np.sort(moved), candidates)  # the candidate set is mapped onto itself
        assert np.array_equal(codes_table[b, moved], codes_table[a, candidates])  # fb(g.a, g.s) == fb(a, s)


@pytest.mark.parametrize("name", ["mastermind", "bulls"])
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_equivalent_guesses_split_the_candidates_alike(name, data):
    """Brute force: every guess and its class representative give the same sorted partition sizes."""
    game, codes_table, codes, symbols, history, candidates = draw_state(name, data)
    sizes = [tuple(sorted(np.bincount(codes_table[g, candidates], minlength=game.n_codes).tolist()))
             for g in range(game.n_guesses)]
    keys = symmetry.canonical_keys(codes, symbols, history)
    for rep in game.canonical(history):
        for a in np.flatnonzero(keys == keys[rep]):
            assert sizes[a] == sizes[rep], (game.labels[a], game.labels[rep])
