"""Why a guess: how it splits the remaining candidates and how many guesses it leads to.

`explain(game, steps, guess)` (or `explain_state(state, guess)` for a solver state at hand)
returns an `Explanation` of a guess in the state a history reaches: the solver's own guess by
default (the tree's while the history follows it, else the live solver's), or any allowed guess.
The group sizes come from the guess's feedback against every candidate. The guesses still needed
are the guess's `solver.analysis.values.ToGo`, the one value every face shows: the one a ranking
already holds for it when given (`known`), so that a hint's table and its Why agree, else
`values.rate_alone` (the tree, the rankings computed ahead, the opener book, the live search within the
solver's budget, else the solver's own play after it played out live in a small state, else the quick
estimate, each marked).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from solver.analysis import values
from solver.analysis.notation import check_allowed
from solver.analysis.values import ToGo
from solver.analysis.walk import feedback_codes, replay
from solver.core.runtime import Solver, State, get_solver
from solver.core.game import Game



@dataclass(frozen=True)
class Explanation:
    """A guess in one state: the groups its feedback splits the candidates into, and its value (`ToGo`)."""

    guess: str
    solver_guess: str  # the guess the solver plays in this state
    candidates: int
    groups: tuple[int, ...]  # sizes of the classes of candidates by feedback, largest first
    is_candidate: bool  # the guess may be the answer (its own group of 1 is in `groups`)
    value: ToGo | None  # the guesses still needed after it, this one included, and what it cannot guarantee

    @property
    def expected_guesses(self) -> float | None:
        return None if self.value is None else self.value.expected

    @property
    def worst_guesses(self) -> int | None:
        return None if self.value is None else self.value.worst

    @property
    def source(self) -> str | None:
        return None if self.value is None else self.value.source

    @property
    def proven(self) -> bool:
        return self.value is not None and self.value.exact

    @property
    def bound(self) -> bool:
        return self.value is not None and self.value.kind == values.BOUND

    @property
    def suggested(self) -> bool:
        """Return True when the guess is the solver's own."""
        return self.guess == self.solver_guess

    @property
    def identified(self) -> bool:
        """Return True when a single candidate is left."""
        return self.candidates == 1

    @property
    def largest_group(self) -> int:
        """Return the most candidates the guess can leave (its own group counts when it is one)."""
        return self.groups[0]

    @property
    def win_chance(self) -> float:
        """Return the chance that this guess is the answer: 1/candidates if it is a candidate, else 0."""
        return 1 / self.candidates if self.is_candidate else 0.0

    @property
    def expected_left(self) -> float:
        """Return the expected number of candidates left after the guess (sum of squared group
        sizes over the candidates: the greedy rule's criterion; the winning group counts as 1)."""
        return sum(size * size for size in self.groups) / self.candidates


def group_sizes(game: Game, row: int, positions: np.ndarray) -> tuple[int, ...]:
    """Return the sizes of the classes of candidate `positions` by the feedback of guess `row`,
    largest first."""
    counts = np.bincount(feedback_codes(game, row, game.target_index[positions]), minlength=game.n_codes)
    return tuple(sorted((int(c) for c in counts if c), reverse=True))


def explain_state(state: State, guess: int | None = None, known: ToGo | None = None) -> Explanation:
    """Return the explanation of guess row `guess` (default: the solver's guess) in `state`, valued by
    `known` when given (the guess's value in a ranking at hand), else by `values.rate`; ValueError after a
    win, or for a guess the rules forbid (Wordle hard mode)."""
    solver: Solver = state.solver
    game = solver.game
    if state.history and state.history[-1][1] == game.win_code:
        raise ValueError(f"nothing to explain: the game was won by {game.labels[state.history[-1][0]]}")
    suggested = solver.guess_row(state)
    row = suggested if guess is None else int(guess)
    if not 0 <= row < game.n_guesses:
        raise ValueError(f"guess row {row} is not a guess of {game.title} (0..{game.n_guesses - 1})")
    check_allowed(game, state.history, row)
    positions = state.candidate_positions
    is_candidate = bool(np.isin(row, game.target_index[positions]))
    groups = group_sizes(game, row, positions)
    value = known if known is not None and known.row == row else values.rate_alone(state, row)
    return Explanation(game.labels[row], game.labels[suggested], int(positions.size), groups, is_candidate, value)


def explain(game: Game, steps: Sequence[tuple[int, int]] = (), guess: int | None = None,
            known: ToGo | None = None) -> Explanation:
    """Return the explanation of guess row `guess` (default: the solver's guess) after `steps` of
    (guess row, code), valued by `known` when given; ValueError for a history the game refuses, after a
    win, or a forbidden guess."""
    return explain_state(replay(get_solver(game), steps), guess, known)
