"""Symmetry groups given as permutations of the rows (`solver.core.symmetry.canonical_rows`): the suit
permutations of the card game and the mirrors (and, on a square board, rotations) of battleship.

The elements keep the feedback and are the symmetries they claim to be (checked on the text of the
guesses); the canonical guesses are one per orbit of the stabiliser of the history; the exact search
with them finds the value of the search without them and of brute force.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.builders.exact_tree import Plan, build
from solver.core import scoring, symmetry
from solver.core.search.searcher import SearchOptions
from solver.games import battleship, cards
from tests import exhaustive
from tests.test_exact_search import search_total, searched

BOARDS = {"default": (), "s2-4x2": (2, 4, 2), "s2-3x3": (2, 3, 3)}  # ships, columns, rows
SMALL_BOARDS = ["s2-4x2", "s2-3x3"]  # small enough for brute force; 3x3 is square: 8 symmetries
GROUPS = [f"cards-n{n}" for n in range(1, cards.MAX_CARDS + 1)] + [f"battleship-{b}" for b in BOARDS]


@lru_cache(maxsize=None)
def game_and_group(name: str):
    """Return (game, its group as row permutations) of a name of `GROUPS`."""
    kind, variant = name.split("-", 1)
    if kind == "cards":
        return cards.game(int(variant[1:])), cards.suit_permutations(int(variant[1:]))
    return battleship.game(*BOARDS[variant]), battleship.board_permutations(*BOARDS[variant])


def orbits(perms: np.ndarray, history=()) -> set[frozenset[int]]:
    """Return the orbits of the rows under the elements fixing every row of `history` (plain Python)."""
    kept = [p for p in perms.tolist() if all(p[h] == h for h in history)]
    return {frozenset(p[x] for p in kept) for x in range(perms.shape[1])}


# -- the elements: a group, keeping the feedback, the symmetries they claim to be ------------------
@pytest.mark.parametrize("name", GROUPS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_every_element_keeps_the_feedback(name, data):
    game, perms = game_and_group(name)
    guess, target = (data.draw(st.integers(0, game.n_guesses - 1)) for _ in range(2))
    for perm in perms:
        assert game.code(perm[guess], perm[target]) == game.code(guess, target)


@pytest.mark.parametrize("name", ["cards-n1", "cards-n2", "battleship-s2-4x2", "battleship-s2-3x3"])
def test_elements_form_a_group(name):
    _, perms = game_and_group(name)
    assert np.array_equal(perms[0], np.arange(perms.shape[1]))
    elements = {tuple(p) for p in perms.tolist()}
    assert len(elements) == len(perms)
    assert all(tuple(p[q]) in elements for p in perms for q in perms)  # closed under composition


def mapped_rows(game, relabel) -> tuple[int, ...]:
    """Return the row of every guess with each of its tokens (card or location text) relabelled."""
    def row_of(tokens):
        if game.name == "cards":
            return game.index_of(cards.label(cards.parse_cards(tokens)))
        return game.index_of(battleship.label(battleship.parse_locations(tokens, len(tokens))))
    return tuple(row_of([relabel(token) for token in text.split()]) for text in game.labels)


def test_card_elements_are_the_suit_permutations():
    game, perms = game_and_group("cards-n2")
    expected = {mapped_rows(game, lambda card, p=p: card[0] + p[cards.SUITS.index(card[1])])
                for p in permutations(cards.SUITS)}
    assert {tuple(p) for p in perms.tolist()} == expected


@pytest.mark.parametrize("board", list(BOARDS))
def test_board_elements_are_its_mirrors_and_rotations(board):
    game, perms = game_and_group(f"battleship-{board}")
    _, cols, rows = BOARDS[board] or (battleship.SHIPS, len(battleship.COLUMNS), battleship.ROWS)

    def move(flip_col, flip_row, transpose):
        def relabel(text):
            col, row = battleship.COLUMNS.index(text[0]), int(text[1]) - 1
            col, row = (cols - 1 - col if flip_col else col), (rows - 1 - row if flip_row else row)
            col, row = (row, col) if transpose else (col, row)
            return f"{battleship.COLUMNS[col]}{row + 1}"
        return relabel

    transposes = (False, True) if cols == rows else (False,)
    expected = {mapped_rows(game, move(*flips)) for flips in product((False, True), (False, True), transposes)}
    assert len(perms) == (8 if cols == rows else 4)
    assert {tuple(p) for p in perms.tolist()} == expected


# -- canonical guesses: one per orbit of the stabiliser ------------------------------------------
def expected_canonical(perms: np.ndarray, history=()) -> list[int]:
    return sorted(min(orbit) for orbit in orbits(perms, history))


# Distinct hands up to suits: 169 hold'em starting hands, 1755 flops, 16432 Omaha starting hands.
@pytest.mark.parametrize("n, count", [(1, 13), (2, 169), (3, 1755), (4, 16432)])
def test_card_first_guesses_are_the_hands_up_to_suits(n, count):
    game, perms = game_and_group(f"cards-n{n}")
    first = game.canonical([])
    assert first.size == count and first.dtype == np.int64
    assert np.array_equal(first, cards.suit_representatives(n))
    assert np.array_equal(np.unique(perms.min(axis=0)), first)  # the smallest row of each orbit
    if n <= 2:
        assert first.tolist() == expected_canonical(perms)


@pytest.mark.parametrize("name", ["cards-n1", "cards-n2", *(f"battleship-{b}" for b in BOARDS)])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_canonical_guesses_are_one_per_stabiliser_orbit(name, data):
    game, perms = game_and_group(name)
    history = data.draw(st.lists(st.integers(0, game.n_guesses - 1), max_size=3), label="history")
    rows = game.canonical(history)
    assert rows.dtype == np.int64 and np.all(np.diff(rows) > 0)
    assert rows.tolist() == expected_canonical(perms, history)


@pytest.mark.parametrize("n", [3, 4])
def test_card_canonical_guesses_after_a_history_need_only_its_stabiliser(n):
    """`symmetry.canonical_from_points` (the card game's `canonical`) computes the images under the elements
    fixing the history only: the same rows as `canonical_rows` over the whole group, after histories of hands
    of one or two suits (a larger stabiliser) and of any hands."""
    game, perms = game_and_group(f"cards-n{n}")
    rng = np.random.default_rng(n)
    for trial in range(12):
        history = []
        for _ in range(int(rng.integers(1, 3))):
            suits = rng.choice(len(cards.SUITS), size=int(rng.integers(1, 3)) if trial % 2 else 4, replace=False)
            ids = [c for c in range(cards.DECK_SIZE) if c // len(cards.RANKS) in suits]
            hand = [cards.Card(c % len(cards.RANKS), c // len(cards.RANKS)) for c in rng.choice(ids, n, replace=False)]
            history.append(game.index_of(cards.label(hand)))
        rows = game.canonical(history)
        assert rows.dtype == np.int64
        assert np.array_equal(rows, symmetry.canonical_rows(perms, history)), history


def test_board_first_guesses():
    assert battleship.game().canonical([]).size == 1240  # 4960 / 4: no set of 3 locations is symmetric
    game = battleship.game(*BOARDS["s2-3x3"])
    # corner with: next edge, corner on its side, centre, knight's move, opposite corner; edge with: next
    # edge, centre, opposite edge
    assert [game.labels[r] for r in game.canonical([])] == [
        "A1 A2", "A1 A3", "A1 B2", "A1 B3", "A1 C3", "A2 B1", "A2 B2", "A2 C2"]


def test_subset_permutations_refuses_rows_not_closed_under_the_group():
    subsets = np.array([[0, 1], [0, 2]])
    swap_1_2 = np.array([[0, 1, 2], [0, 2, 1]])
    assert symmetry.subset_permutations(subsets, swap_1_2).tolist() == [[0, 1], [1, 0]]
    with pytest.raises(ValueError, match="closed"):
        symmetry.subset_permutations(subsets, np.array([[0, 1, 2], [1, 0, 2]]))
    with pytest.raises(ValueError, match="identity"):
        symmetry.subset_permutations(subsets, swap_1_2[1:])


def test_canonical_from_group_takes_the_group_or_a_function_returning_it():
    _, perms = game_and_group("battleship-s2-4x2")
    for canonical in (symmetry.canonical_from_group(perms), symmetry.canonical_from_group(lambda: perms)):
        assert canonical([3, 5]).tolist() == expected_canonical(perms, [3, 5])


# -- the exact search: symmetry changes nothing, and matches brute force --------------------------
@pytest.mark.parametrize("name, caps", [("cards-n1", (3, 4)), *((f"battleship-{b}", (4, 6)) for b in SMALL_BOARDS)])
def test_symmetric_search_equals_plain_search(name, caps):
    game, _ = game_and_group(name)
    for cap in caps:
        assert search_total(searched(game, cap, symmetry_levels=2), cap) == \
            search_total(searched(game, cap, symmetry_levels=0), cap)


@pytest.mark.parametrize("board", SMALL_BOARDS)
@pytest.mark.parametrize("cap", [4, 5])
def test_symmetric_search_equals_brute_force_on_small_boards(board, cap):
    game, _ = game_and_group(f"battleship-{board}")
    assert search_total(searched(game, cap), cap) == exhaustive.optimal_total(game, cap)


def test_symmetric_build_is_proven_optimal(tmp_path):
    game, _ = game_and_group("battleship-s2-3x3")
    built = build(game, scoring.feedback_table(game), Plan(SearchOptions(max_guesses=6, memo_bits=12)), jobs=1,
                  folder=tmp_path)
    assert built.proof == "game" and built.lower == built.total == exhaustive.optimal_total(game)
