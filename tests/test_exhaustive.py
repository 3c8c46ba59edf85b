"""Sanity checks of the naive exact search in `tests.exhaustive` (hand-checked values first)."""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pytest

from solver.core.game import Game
from solver.games import bulls, mastermind, wordle
from solver.games.wordlists import builtin_answers, builtin_guesses
from tests.exhaustive import optimal_subtotal, optimal_total, small_word_lists, small_wordle

IGHT = ("BIGHT", "EIGHT", "FIGHT", "LIGHT", "MIGHT", "NIGHT", "RIGHT", "SIGHT", "TIGHT", "WIGHT")


def brute(game: Game, cap: int, hard: bool) -> float:
    """V straight from the definition: every guess tried, memo keyed on the whole history."""

    @lru_cache(maxsize=None)
    def value(h: tuple[int, ...], r: int, history: tuple[tuple[int, int], ...]) -> float:
        if r == 0:
            return math.inf
        guesses = np.flatnonzero(game.allowed(game, history)) if hard else range(game.n_guesses)
        best = math.inf
        for guess in map(int, guesses):
            classes: dict[int, list[int]] = {}
            for p in h:
                classes.setdefault(game.code(guess, int(game.target_index[p])), []).append(p)
            total = sum(
                1 if code == game.win_code else len(c) + value(tuple(c), r - 1, history + ((guess, code),))
                for code, c in classes.items()
            )
            best = min(best, total)
        return best

    return value(tuple(range(game.n_targets)), cap, ())


def test_one_two_three_targets_by_hand():
    # One peg: feedback is only "hit" or "miss", so targets are found one at a time: 1 + 2 + 3.
    assert optimal_total(mastermind.game(1, 1)) == 1
    assert optimal_total(mastermind.game(1, 2)) == 1 + 2
    assert optimal_total(mastermind.game(1, 3)) == 1 + 2 + 3
    assert optimal_total(mastermind.game(1, 3), max_guesses=3) == 6
    assert optimal_total(mastermind.game(1, 3), max_guesses=2) == math.inf
    assert optimal_total(mastermind.game(1, 2), max_guesses=1) == math.inf
    assert optimal_total(mastermind.game(1, 1), max_guesses=1) == 1


def test_bulls_one_digit_by_hand():
    # One digit: again only "hit" (1, 0) or "miss" (0, 0): 1 + 2 + ... + 10.
    assert optimal_total(bulls.game(1)) == 55
    assert optimal_total(bulls.game(1), max_guesses=9) == math.inf


def test_mastermind_2x2_by_hand():
    # Codes 11 12 21 22. Guess 12: 12 hit, 21 -> (0,2) alone, 11 and 22 both (1,0): 1 + 2 + (2 + 3) = 8.
    # 7 would need one guess separating the other three, but 11 gets (1,0) from both 12 and 21.
    assert optimal_total(mastermind.game(2, 2)) == 8
    assert optimal_total(mastermind.game(2, 2), max_guesses=2) == math.inf


def test_subtotal():
    game = mastermind.game(2, 3)
    assert optimal_subtotal(game, []) == 0
    assert optimal_subtotal(game, [4]) == 1
    assert optimal_subtotal(game, [4], max_guesses=0) == math.inf
    assert optimal_subtotal(game, [0, 1]) == 3


def test_small_games():
    # the naive search's values on small games (no wall-clock assert: speed goals live in `make bench`)
    assert optimal_total(mastermind.game(2, 3)) == 21
    assert optimal_total(mastermind.game(3, 2)) == 18
    assert optimal_total(mastermind.game(2, 4)) == 45
    assert optimal_total(mastermind.game(2, 4), max_guesses=3) == math.inf
    assert optimal_total(mastermind.game(2, 4), max_guesses=4) == 45
    game = bulls.game(2)  # all 90 targets take ~15 s: check 12 of them
    some = range(0, 90, 8)
    assert optimal_subtotal(game, some) == optimal_subtotal(game, some, max_guesses=4) == 34
    assert optimal_subtotal(game, some, max_guesses=3) == math.inf


@pytest.mark.parametrize("pegs, colours", [(1, 3), (2, 2), (2, 3)])
def test_matches_brute_force_mastermind(pegs, colours):
    game = mastermind.game(pegs, colours)
    for cap in (1, 2, 3):
        assert optimal_total(game, cap) == brute(game, cap, hard=False)


@pytest.mark.parametrize("hard", [False, True])
def test_matches_brute_force_wordle(hard):
    answers, guesses = small_word_lists(7, 0, 5)
    game = wordle.game(hard, answers, guesses)
    for cap in (1, 2, 3):
        assert optimal_total(game, cap, hard) == brute(game, cap, hard)


def test_hard_mode_costs_more():
    # Telling the -IGHT words apart needs clue words; hard mode forbids them once letters are found.
    guesses = tuple(sorted(IGHT + ("DOMES", "LIMBI", "TWEEN")))
    normal = wordle.game(False, IGHT, guesses)
    hard = wordle.game(True, IGHT, guesses)
    assert optimal_total(normal) == 29 and optimal_total(hard, hard=True) == 33
    assert optimal_total(hard) == 29  # hard=False ignores the game's hard-mode rule
    assert optimal_total(normal, 5) == 29 and optimal_total(hard, 5, hard=True) == math.inf
    assert optimal_total(normal, 4) == math.inf


def test_small_wordle_lists():
    answers, guesses = small_word_lists(30, 0, 30)
    assert len(answers) == 30 and len(guesses) == 60 and set(answers) <= set(guesses)
    assert list(answers) == sorted(answers) and set(answers) <= set(builtin_answers())
    assert set(guesses) <= set(builtin_guesses()) and list(guesses) == sorted(guesses)
    assert small_word_lists(30, 0, 30) == (answers, guesses)  # deterministic
    game = small_wordle(30)
    assert game.n_targets == game.n_guesses == 30 and game.allowed is None
    assert small_wordle(30, hard=True).allowed is not None
    assert optimal_total(game) == 67
