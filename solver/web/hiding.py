"""The hider's endpoint (/api/hide): a game against the adversarial hider replayed from its guesses
(`solver.analysis.hider`), in the shape of `models.HideResponse`; FieldError naming the field at fault."""
from __future__ import annotations

from typing import Any, Sequence

from solver.analysis.hider import HiderError, hide
from solver.web.service import FieldError, Key, feedback_out, game_of, parse_guess, parse_target


def hider_game(key: Key, guesses: Sequence[str], target: str | None) -> dict[str, Any]:
    """Return the hider's game against `guesses` (challenge mode when `target` is given): each guess with
    the hider's feedback and the answers it keeps, the answers left, whether it is won and, with a target,
    whether it is still possible and the guess that missed it."""
    game = game_of(key)
    goal = None if target is None else parse_target(game, target, "target")
    rows = [parse_guess(game, text, f"guesses[{i}]") for i, text in enumerate(guesses)]
    try:
        played = hide(game, rows, goal)
    except HiderError as err:
        raise FieldError(f"guesses[{err.index}]", err) from None
    return {"steps": [{"guess": game.labels[s.guess], "feedback": feedback_out(game, s.code), "remaining": s.remaining}
                      for s in played.steps],
            "remaining": played.remaining, "won": played.won,
            "target": None if goal is None else game.labels[goal],
            "target_possible": played.target_possible, "missed": played.missed}
