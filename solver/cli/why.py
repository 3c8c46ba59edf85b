"""The "Why GUESS:" block of `hint` and of `solve`'s `why` command (`solver.analysis.explain` computes it)."""
from __future__ import annotations

from itertools import groupby
from typing import Sequence

from solver.analysis import values
from solver.analysis.explain import Explanation, explain_state
from solver.analysis.notation import parse_guess, plural
from solver.analysis.values import ToGo, figure
from solver.analysis.walk import replay
from solver.core.game import Game
from solver.core.runtime import get_solver

QUALIFIERS = {values.PROVEN: "", values.APPROXIMATE: "at most ", values.BOUND: "at least ", values.ESTIMATE: "about "}
GROUPS_SHOWN = 10  # entries of the group list (after runs of one size are joined)


def group_list(sizes: Sequence[int], shown: int = GROUPS_SHOWN) -> str:
    """Return sizes (largest first) as "12, 9, 7, 3, 1 x4": runs of one size joined, at most `shown`
    entries, then "... and N more"."""
    runs = [(size, len(list(run))) for size, run in groupby(sizes)]
    text = ", ".join(f"{size} x{count}" if count > 1 else str(size) for size, count in runs[:shown])
    hidden = sum(count for _, count in runs[shown:])
    return text + (f" ... and {hidden} more" if hidden else "")


def why_lines(why: Explanation, limit: int | None = None) -> list[str]:
    """Return the lines explaining a guess: its groups, worst case, chance to win at once, what it cannot
    guarantee within the game's guess `limit`, and the candidates and guesses expected after it."""
    if why.identified and why.is_candidate:
        return [f"Why {why.guess}: it is the only candidate left: play it."]
    value: ToGo | None = why.value
    whose = "the solver's guess" if why.suggested else f"the solver would play {why.solver_guess}"
    worst = f"{plural(why.largest_group, 'candidate')} left"
    if why.worst_guesses is not None:
        worst += f", {plural(why.worst_guesses, 'guess', 'guesses')} from here, this one included"
    chance = (f"1 in {why.candidates} ({100 * why.win_chance:.3g}%)" if why.is_candidate
              else f"none ({why.guess} is not a candidate)")
    average = f"{why.expected_left:.2f} candidates left, "
    if value is None:
        average += "guesses from here not known"
    else:
        past = ", playing on past the limit" if value.lost else ""
        average += (f"{QUALIFIERS[value.kind]}{figure(value.expected)} guesses from here, this one included{past} "
                    f"({value.describe()})")
    lines = [f"Why {why.guess} ({whose}):",
             f"  groups: {group_list(why.groups)} ({plural(why.candidates, 'candidate')} in "
             f"{plural(len(why.groups), 'group')})",
             f"  worst case: {worst}",
             f"  chance to solve with it: {chance}"]
    if value is not None and value.lost and limit is not None:
        lines.append(f"  within the limit: {value.limit_text(limit)}")
    return lines + [f"  on average: {average}"]


def hint_lines(game: Game, steps: Sequence[tuple[int, int]], guess: str | None = None,
               ranked: Sequence[ToGo | None] = ()) -> list[str]:
    """Return the "Why" block of `hint` after `steps` of (guess row, code): for guess text `guess`,
    else for the solver's guess (no lines after a win), valued as in the hint's ranking (`ranked`: its
    values) when the guess is in it; ValueError for a bad or forbidden guess."""
    if guess is None and steps and steps[-1][1] == game.win_code:
        return []
    row = None if guess is None else parse_guess(game, guess)
    known = {value.row: value for value in ranked if value is not None}
    state = replay(get_solver(game), steps)
    explained = state.solver.guess_row(state) if row is None else row
    return why_lines(explain_state(state, row, known.get(explained)), game.max_guesses)
