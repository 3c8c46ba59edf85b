"""Mastermind: a secret code of 4 pegs in 6 colours (written 1-6), repetition allowed: 1296 codes.

Feedback ``(black, white)``: black pegs are right colour in the right place; white pegs are the
remaining colour matches (multiset intersection of colours minus black). Pegs and colours are
parameters of `game`. Encoded row: the peg colours 0-based. Code: ``black*(pegs+1) + white``.
"""
from __future__ import annotations

import inspect
from functools import lru_cache, partial
from itertools import product

import numpy as np

from solver.core.bounded_input import excerpt
from solver.core.runtime import State, get_solver, next_from
from solver.core.game import Game, check_feedback, digits, mixed_radix
from solver.core.symmetry import MAX_POSITIONS, canonical_guesses
from solver.games import FEEDBACK_NOTATION

PEGS = 4
COLOURS = 6


FEEDBACK_HELP = FEEDBACK_NOTATION["mastermind"]


def parse_code(text: str, pegs: int = PEGS, colours: int = COLOURS) -> str:
    """Return `text` if it is a code of `pegs` digits 1..colours; ValueError naming it otherwise."""
    allowed = "".join(str(c) for c in range(1, colours + 1))
    if not isinstance(text, str) or len(text) != pegs or any(ch not in allowed for ch in text):
        raise ValueError(f"not a code of {pegs} colours {allowed[0]}-{allowed[-1]}: {excerpt(text)}")
    return text


@lru_cache(maxsize=None)
def make_rule(pegs: int):
    """Return the rule for codes of `pegs` pegs (a closure: Numba compiles `pegs` as a constant)."""

    def rule(guess: np.ndarray, secret: np.ndarray) -> int:
        """Return the feedback code of one guess row against one secret row (Numba-compatible)."""
        black = 0
        for i in range(pegs):
            if guess[i] == secret[i]:
                black += 1
        matches = 0
        used = 0
        for i in range(pegs):
            for j in range(pegs):
                if not (used >> j) & 1 and guess[j] == secret[i]:
                    used |= 1 << j
                    matches += 1
                    break
        return black * (pegs + 1) + matches - black

    return rule


@lru_cache(maxsize=None)
def game(pegs: int = PEGS, colours: int = COLOURS) -> Game:
    """Return Mastermind with `pegs` pegs and `colours` colours (every code a target and a guess)."""
    if not (1 <= pegs <= 8 and 1 <= colours <= 9):
        raise ValueError(f"mastermind takes 1-8 pegs and 1-9 colours, got {pegs} and {colours}")
    codes = list(product(range(colours), repeat=pegs))
    base = pegs + 1
    rows = np.array(codes, dtype=np.int32).reshape(len(codes), pegs)
    return Game(
        name="mastermind",
        variant="default" if (pegs, colours) == (PEGS, COLOURS) else f"p{pegs}c{colours}",
        rows=rows,
        labels=tuple("".join(str(c + 1) for c in code) for code in codes),
        target_index=np.arange(len(codes), dtype=np.int64),
        n_codes=base * base,
        rule=make_rule(pegs),
        win_code=mixed_radix((pegs, 0), base),
        decode=lambda code: digits(code, base, 2),
        encode=lambda fb: mixed_radix(check_feedback(fb, 2, pegs, "mastermind"), base),
        rules_source=inspect.getsource(make_rule) + f"pegs={pegs}",
        # permuting pegs and colours keeps the feedback (solver.core.symmetry)
        canonical=partial(canonical_guesses, rows, colours) if pegs <= MAX_POSITIONS else None,
        feedback_help=FEEDBACK_HELP,
    ).made_by(game, pegs, colours)


def feedback(secret: str, guess: str) -> tuple[int, int]:
    """Return (black, white) for `guess` against `secret`, both strings like "1122"."""
    s = np.array([int(ch) - 1 for ch in parse_code(secret)], dtype=np.int32)
    g = np.array([int(ch) - 1 for ch in parse_code(guess)], dtype=np.int32)
    return digits(make_rule(PEGS)(g, s), PEGS + 1, 2)


def initial_guess() -> tuple[str, State]:
    """Return (first guess like "1122", state), from the precomputed tree."""
    return get_solver(game()).initial_guess()


def next_guess(previous: tuple[str, State], feedback: tuple[int, int]) -> tuple[str, State]:
    """Return (next guess, new state) after `previous` = (guess, state) received (black, white)."""
    return next_from(previous, feedback, _guess_text, str, "mastermind")


def _guess_text(guess: str) -> str:
    if not isinstance(guess, str):
        raise ValueError(f"mastermind guess must be a string like '1122', got {excerpt(guess)}")
    return guess
