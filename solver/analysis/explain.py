"""Why a guess: how it splits the remaining candidates and how many guesses it leads to.

`explain(game, steps, guess)` (or `explain_state(state, guess)` for a solver state at hand)
returns an `Explanation` of a guess in the state a history reaches: the solver's own guess by
default (the tree's while the history follows it, else the live solver's), or any allowed guess.
The group sizes come from the guess's feedback against every candidate. The guesses still
needed come from `solver.analysis.values.rate`: the precomputed tree when the state is on it and
the guess is the tree's (subtree totals, depth of the deepest leaf), the opener ranking at the
start, else the exact search within the solver's budget (proven, or the best strategy it found);
failing those the solver's play after the guess is played out live over every candidate, when
there are at most `play_out_limit` of them (EXPLAIN_PLAY_OUT: the live strategy's figures, as
`deduce tree` shows off the tree); above that the quick estimate, labelled as one. The play-out
is a live search at each state it meets, so its limit is what bounds an explanation's time (cards
n = 4 states of 500 to 1000 candidates took 15 s to play out).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from solver.analysis import values
from solver.analysis.notation import check_allowed
from solver.analysis.walk import feedback_codes, replay, walk
from solver.core.runtime import Solver, State, get_solver
from solver.core.game import Game

# where `Explanation.expected_guesses` comes from: the tree, the solver's play out, the exact search
# (`proven` says whether it finished), the opener ranking (a lower bound unless `proven`)
TREE, LIVE, SEARCH, RANKING, ESTIMATE, BOOK = "tree", "live", "search", "ranking", "estimate", "book"
EXPLAIN_PLAY_OUT = 200  # candidates: the most an explanation plays out live (a live search at each state met)


@dataclass(frozen=True)
class Explanation:
    """A guess in one state: the groups its feedback splits the candidates into, and the guesses
    still needed after it (this one included), None when not known."""

    guess: str
    solver_guess: str  # the guess the solver plays in this state
    candidates: int
    groups: tuple[int, ...]  # sizes of the classes of candidates by feedback, largest first
    is_candidate: bool  # the guess may be the answer (its own group of 1 is in `groups`)
    expected_guesses: float | None
    worst_guesses: int | None
    source: str | None  # TREE, BOOK, LIVE (played out live), SEARCH, RANKING, ESTIMATE (`solver.analysis.estimate`)
    proven: bool = False  # `expected_guesses` is the least possible after this guess (within the guess limit)
    bound: bool = False  # `expected_guesses` is a proven lower bound (the opener ranking), not a value

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


def explain_state(state: State, guess: int | None = None, play_out_limit: int = EXPLAIN_PLAY_OUT) -> Explanation:
    """Return the explanation of guess row `guess` (default: the solver's guess) in `state`;
    ValueError after a win, or for a guess the rules forbid (Wordle hard mode)."""
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
    rated = values.rate(state, [row], large=True).get(row)
    # a bound or an estimate gives way to the solver's own play played out, where that is small enough
    if rated.kind not in (values.BOUND, values.ESTIMATE) or positions.size > play_out_limit:
        worst = rated.worst
        if worst is None and positions.size <= play_out_limit:  # (the book's): the worst case of the play
            worst = walk(solver, state, first=row).worst(0)
        return Explanation(game.labels[row], game.labels[suggested], int(positions.size), groups, is_candidate,
                           rated.expected, worst, rated.source, rated.exact, rated.kind == values.BOUND)
    expected = worst = source = None
    if positions.size <= play_out_limit:
        nodes, source = walk(solver, state, first=row), LIVE
        expected, worst = nodes.expected(0), nodes.worst(0)
    return Explanation(game.labels[row], game.labels[suggested], int(positions.size), groups, is_candidate,
                       expected, worst, source)


def explain(game: Game, steps: Sequence[tuple[int, int]] = (), guess: int | None = None,
            play_out_limit: int = EXPLAIN_PLAY_OUT) -> Explanation:
    """Return the explanation of guess row `guess` (default: the solver's guess) after `steps` of
    (guess row, code); ValueError for a history the game refuses, after a win, or a forbidden guess."""
    return explain_state(replay(get_solver(game), steps), guess, play_out_limit)
