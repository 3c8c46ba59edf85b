"""The daily puzzle: the same answer (or answers, one per board) for everyone on a date.

Days are numbered from EPOCH, 19 June 2021, day 0 (the first day of the published Wordle, so a
day's number here is the published game's number for that date: 2024-01-01 is day 926). The
answers are a pure function of (game, boards, date): the game's possible answers are put in a fixed
order, each sorted by the SHA-256 of "deduce daily <game> <boards>:<answer>", and day d takes the
answers at positions d x boards, d x boards + 1, ... (modulo their number), so an answer comes back
only after every other one has had its day, and the boards of a day have different answers. The
order depends on the answers' text only: Wordle's normal, hard and answers-only variants share their
2315 answers, hence their daily word.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from solver.core.game import Game

EPOCH = date(2021, 6, 19)  # day 0


@dataclass(frozen=True)
class Daily:
    """The puzzle of one date: its day number and the answers, one per board (guess rows and text)."""

    day: date
    number: int
    rows: tuple[int, ...]
    answers: tuple[str, ...]


def day_number(day: date) -> int:
    """Return the number of a date: days since EPOCH; ValueError before it."""
    number = (day - EPOCH).days
    if number < 0:
        raise ValueError(f"the daily puzzle starts on {EPOCH.isoformat()} (day 0), not {day.isoformat()}")
    return number


@lru_cache(maxsize=32)
def _order(game: Game, boards: int) -> tuple[int, ...]:
    """Return the game's answer rows in the fixed daily order for `boards` boards."""
    salt = f"deduce daily {game.name} {boards}:"
    rows = [int(r) for r in game.target_index]
    return tuple(sorted(rows, key=lambda r: hashlib.sha256((salt + game.labels[r]).encode()).digest()))


def daily(game: Game, day: date, boards: int = 1) -> Daily:
    """Return the puzzle of `day` on `boards` boards (1 to the number of answers); ValueError otherwise."""
    if not 1 <= boards <= game.n_targets:
        raise ValueError(f"a daily puzzle has 1 to {game.n_targets} boards, not {boards}")
    number, order = day_number(day), _order(game, boards)
    rows = tuple(order[(number * boards + k) % len(order)] for k in range(boards))
    return Daily(day, number, rows, tuple(game.labels[r] for r in rows))
