"""The "Why GUESS:" block of `hint` and of `solve`'s `why` command (`solver.analysis.explain` computes it)."""
from __future__ import annotations

from itertools import groupby
from typing import Sequence

from solver.analysis.explain import BOOK, ESTIMATE, LIVE, RANKING, SEARCH, TREE, Explanation, explain
from solver.analysis.notation import parse_guess, plural
from solver.core.game import Game

GROUPS_SHOWN = 10  # entries of the group list (after runs of one size are joined)
SOURCES = {TREE: "precomputed tree", LIVE: "the solver's play, computed live", RANKING: "the opener ranking",
           ESTIMATE: "a quick estimate from the groups it leaves, not a search's value",
           BOOK: "the opener book, computed ahead"}


def group_list(sizes: Sequence[int], shown: int = GROUPS_SHOWN) -> str:
    """Return sizes (largest first) as "12, 9, 7, 3, 1 x4": runs of one size joined, at most `shown`
    entries, then "... and N more"."""
    runs = [(size, len(list(run))) for size, run in groupby(sizes)]
    text = ", ".join(f"{size} x{count}" if count > 1 else str(size) for size, count in runs[:shown])
    hidden = sum(count for _, count in runs[shown:])
    return text + (f" ... and {hidden} more" if hidden else "")


def why_lines(why: Explanation) -> list[str]:
    """Return the lines explaining a guess: its groups, worst case, chance to win at once and the
    candidates and guesses expected after it."""
    if why.identified and why.is_candidate:
        return [f"Why {why.guess}: it is the only candidate left: play it."]
    whose = "the solver's guess" if why.suggested else f"the solver would play {why.solver_guess}"
    worst = f"{plural(why.largest_group, 'candidate')} left"
    if why.worst_guesses is not None:
        worst += f", {plural(why.worst_guesses, 'guess', 'guesses')} from here, this one included"
    chance = (f"1 in {why.candidates} ({100 * why.win_chance:.3g}%)" if why.is_candidate
              else f"none ({why.guess} is not a candidate)")
    average = f"{why.expected_left:.2f} candidates left, "
    if why.bound:
        average += (f"at least {why.expected_guesses:.3f} guesses from here, this one included (a proven lower "
                    f"bound: {SOURCES[why.source]})")
    elif why.expected_guesses is not None:
        about = "about " if why.source == ESTIMATE else ""
        average += f"{about}{why.expected_guesses:.3f} guesses from here, this one included ({_source(why)})"
    else:
        average += (f"guesses from here not known (off the precomputed tree, and {why.candidates} candidates "
                    "are too many to play out live)")
    return [f"Why {why.guess} ({whose}):",
            f"  groups: {group_list(why.groups)} ({plural(why.candidates, 'candidate')} in "
            f"{plural(len(why.groups), 'group')})",
            f"  worst case: {worst}",
            f"  chance to solve with it: {chance}",
            f"  on average: {average}"]


def _source(why: Explanation) -> str:
    if why.source == SEARCH:
        return "proven optimal by the exact search" if why.proven else \
            "the exact search's best strategy in the time allowed, not proven"
    if why.source == BOOK and not why.proven:
        return SOURCES[BOOK] + ": the best strategy found, not proven"
    proven = ", proven optimal" if why.proven and why.source != LIVE else ""
    return SOURCES[why.source] + proven


def hint_lines(game: Game, steps: Sequence[tuple[int, int]], guess: str | None = None) -> list[str]:
    """Return the "Why" block of `hint` after `steps` of (guess row, code): for guess text `guess`,
    else for the solver's guess (no lines after a win); ValueError for a bad or forbidden guess."""
    if guess is None and steps and steps[-1][1] == game.win_code:
        return []
    return why_lines(explain(game, steps, None if guess is None else parse_guess(game, guess)))
