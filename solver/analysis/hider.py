"""The adversarial hider (like Absurdle): it never commits to an answer, and its challenge mode.

The hider keeps every answer that fits the feedback given so far and answers each guess with the
feedback that keeps the most of them (`hider_answer`); it shows the win only when the guess is the one
answer left. In challenge mode (Absurdle's) the player is given a target and must force the hider into
it: the hider plays exactly as before, and the target is missed as soon as a feedback rules it out (the
player may take guesses back and try others). `hide` replays a whole game from its guesses: the hider
is deterministic, so a game is its list of guesses.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from solver.analysis.notation import check_allowed
from solver.analysis.walk import feedback_codes
from solver.core.game import Game


def hider_answer(game: Game, row: int, rows: np.ndarray) -> tuple[int, np.ndarray]:
    """Return (code, the candidate rows it keeps): the feedback keeping the most candidates.

    Ties go to a feedback other than the win, then to the lowest code.
    """
    codes = feedback_codes(game, row, rows)
    counts = np.bincount(codes, minlength=game.n_codes) * 2
    counts[game.win_code] -= 1  # a win only when nothing else is left
    code = int(np.argmax(counts))
    return code, rows[codes == code]


@dataclass(frozen=True)
class HiddenStep:
    """One guess of a hider's game: the guess row, the hider's feedback code, the answers still kept."""

    guess: int
    code: int
    remaining: int


@dataclass(frozen=True)
class HiddenGame:
    """A hider's game replayed (`hide`): its steps, the answers left, whether it is won; in challenge mode
    the target row, whether it is still possible and the 1-based guess that ruled it out (None: not missed)."""

    steps: tuple[HiddenStep, ...]
    remaining: int
    won: bool
    target: int | None = None
    target_possible: bool = True
    missed: int | None = None


class HiderError(ValueError):
    """A guess the hider refuses: `index` is its 0-based position in the game."""

    def __init__(self, index: int, message: str):
        super().__init__(message)
        self.index = index


def hide(game: Game, guesses: Sequence[int], target: int | None = None) -> HiddenGame:
    """Return the game the hider plays against `guesses` (guess rows), in challenge mode when `target` (a
    target row) is given; HiderError naming a guess the rules forbid (hard mode) or one after the win."""
    rows = game.target_index.copy()
    steps: list[HiddenStep] = []
    history: list[tuple[int, int]] = []
    missed = None
    for index, row in enumerate(guesses):
        if history and history[-1][1] == game.win_code:
            raise HiderError(index, f"guess {index + 1} comes after the win")
        try:
            check_allowed(game, history, row)
        except ValueError as err:
            raise HiderError(index, str(err)) from None
        code, rows = hider_answer(game, row, rows)
        history.append((row, code))
        steps.append(HiddenStep(row, code, int(rows.size)))
        if target is not None and missed is None and not np.any(rows == target):
            missed = index + 1
    won = bool(history) and history[-1][1] == game.win_code
    return HiddenGame(tuple(steps), int(rows.size), won, target, missed is None, missed)
