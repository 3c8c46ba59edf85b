"""Bulls and Cows: a secret of 4 distinct digits 0-9 (5040 codes); guesses are such codes too.

Feedback ``(bulls, cows)``: bulls are right digits in the right place, cows right digits elsewhere.
The number of digits is a parameter of `game`. Encoded row: the digits, then a bit mask of them.
Code: ``bulls*(digits+1) + cows``.
"""
from __future__ import annotations

import inspect
from functools import lru_cache, partial
from itertools import permutations

import numpy as np

from solver.core.bounded_input import excerpt
from solver.core.runtime import State, get_solver, next_from
from solver.core.game import Game, check_feedback, digits, mixed_radix
from solver.core.symmetry import MAX_POSITIONS, canonical_guesses
from solver.games import FEEDBACK_NOTATION

DIGITS = 4


FEEDBACK_HELP = FEEDBACK_NOTATION["bulls"]


def parse_code(text: str, length: int = DIGITS) -> str:
    """Return `text` if it is `length` distinct digits 0-9; ValueError naming it otherwise."""
    if not isinstance(text, str) or len(text) != length or not text.isdigit() or not text.isascii():
        raise ValueError(f"not a code of {length} digits 0-9: {excerpt(text)}")
    if len(set(text)) != length:
        raise ValueError(f"code repeats a digit: {excerpt(text)}")
    return text


@lru_cache(maxsize=None)
def make_rule(n: int):
    """Return the rule for codes of `n` digits (a closure: Numba compiles `n` as a constant)."""

    def rule(guess: np.ndarray, secret: np.ndarray) -> int:
        """Return the feedback code of one guess row against one secret row (Numba-compatible)."""
        bulls = 0
        cows = 0
        mask = secret[n]
        for i in range(n):
            if guess[i] == secret[i]:
                bulls += 1
            elif (mask >> guess[i]) & 1:
                cows += 1
        return bulls * (n + 1) + cows

    return rule


def _row(code: tuple[int, ...]) -> list[int]:
    return list(code) + [sum(1 << d for d in code)]


@lru_cache(maxsize=None)
def game(length: int = DIGITS) -> Game:
    """Return Bulls and Cows with secrets of `length` distinct digits."""
    if not 1 <= length <= 10:
        raise ValueError(f"bulls and cows takes 1-10 digits, got {length}")
    codes = list(permutations(range(10), length))
    base = length + 1
    rows = np.array([_row(c) for c in codes], dtype=np.int32)
    return Game(
        name="bulls",
        variant="default" if length == DIGITS else f"d{length}",
        rows=rows,
        labels=tuple("".join(map(str, c)) for c in codes),
        target_index=np.arange(len(codes), dtype=np.int64),
        n_codes=base * base,
        rule=make_rule(length),
        win_code=mixed_radix((length, 0), base),
        decode=lambda code: digits(code, base, 2),
        encode=lambda fb: mixed_radix(check_feedback(fb, 2, length, "bulls"), base),
        rules_source=inspect.getsource(make_rule) + f"n={length}",
        # permuting positions and digits keeps the feedback (solver.core.symmetry)
        canonical=partial(canonical_guesses, rows[:, :length].copy(), 10) if length <= MAX_POSITIONS else None,
        feedback_help=FEEDBACK_HELP,
    ).made_by(game, length)


def feedback(secret: str, guess: str) -> tuple[int, int]:
    """Return (bulls, cows) for `guess` against `secret`, both strings like "0123"."""
    s = _row(tuple(int(ch) for ch in parse_code(secret)))
    g = _row(tuple(int(ch) for ch in parse_code(guess)))
    return digits(make_rule(DIGITS)(np.array(g, dtype=np.int32), np.array(s, dtype=np.int32)), DIGITS + 1, 2)


def initial_guess() -> tuple[str, State]:
    """Return (first guess like "0123", state), from the precomputed tree."""
    return get_solver(game()).initial_guess()


def next_guess(previous: tuple[str, State], feedback: tuple[int, int]) -> tuple[str, State]:
    """Return (next guess, new state) after `previous` = (guess, state) received (bulls, cows)."""
    return next_from(previous, feedback, _guess_text, str, "bulls")


def _guess_text(guess: str) -> str:
    if not isinstance(guess, str):
        raise ValueError(f"bulls guess must be a string like '0123', got {excerpt(guess)}")
    return guess
