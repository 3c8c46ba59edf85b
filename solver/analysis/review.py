"""A review of a played game: each guess rated by the guesses it costs against the best guess.

`review(game, steps)` replays (guess row, code) steps and returns a `Review`. For each guess, in
the state before it:

* candidates before and after it, and the candidates it was expected to leave (sum of squared
  group sizes over the candidates: the greedy rule's figure);
* the expected guesses to finish (this one included) with the player's guess and with the best
  guess (`solver.analysis.values.rate`: the tree, the opener ranking, else the exact search within
  the budget), the best guess itself, and the cost: the difference (0 for an optimal guess; when the
  search found the player's guess no worse than the solver's, the player's is the best);
* luck: where the group the answer fell into stands among the groups the guess could have left,
  over equally likely answers: 100 x (the share of answers that would have left more candidates +
  half the share that would have left as many); 50 is an average draw, a win at once counts as
  leaving none.

Every guess has both values (`values.rate` falls back to a marked estimate), so every guess is rated.
A guess's skill is 100 x 2^(-cost / SKILL_HALF_COST): 100 for an optimal guess, 50 for one that loses
SKILL_HALF_COST guesses (a quarter of a guess), about 6 for one that loses a whole guess. The game's
summary: the total cost in guesses, a skill score (the mean of the guesses' skill over every guess
made while more than one candidate was left, the first included, and any guess that missed a
known answer) and a luck score (the mean luck of the guesses made with a choice left), both 0-100.
A game has at most the game's guess limit of guesses (`check_guess_limit`); one that ends unsolved
there is lost, and says so.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from solver.analysis import values
from solver.analysis.notation import show_feedback
from solver.analysis.values import ToGo
from solver.analysis.walk import feedback_codes, replay
from solver.core.runtime import get_solver
from solver.core.game import Game
from solver.core.registry import UsageError

TIE = 1e-9  # expected guesses closer than this are equal
SKILL_HALF_COST = 0.25  # expected guesses lost that halve a guess's skill


class ReviewError(ValueError):
    """A history that cannot be reviewed (empty); bad guesses and feedback raise ValueError too."""


class GuessLimitError(UsageError):
    """More guesses than the game allows: the game was lost before the last of them."""


def check_guess_limit(game: Game, guesses: int) -> None:
    """Raise GuessLimitError when `guesses` is more than the game allows (games without a limit: never)."""
    limit = game.max_guesses
    if limit is not None and guesses > limit:
        raise GuessLimitError(f"{game.title} allows {limit} guesses, got {guesses}: the game is lost after "
                              f"guess {limit}; review its first {limit}")


@dataclass(frozen=True)
class GuessReview:
    """One guess of a reviewed game."""

    number: int  # 1 for the first guess
    guess: str
    feedback: str  # as the game shows it
    before: int  # candidates before the guess
    after: int  # candidates after it (0 once it won)
    expected_after: float  # candidates it was expected to leave
    player: ToGo | None  # expected guesses to finish with the player's guess (None: not rated in time)
    best_guess: str
    best: ToGo | None  # with the best guess
    luck: float  # 0-100, 50 an average draw

    @property
    def optimal(self) -> bool:
        """Return True when the guess is the best one (or as good: its cost is 0)."""
        return self.cost == 0.0

    @property
    def cost(self) -> float | None:
        """Return the expected guesses lost by this guess against the best (0 for an optimal one), or
        None when either value is not known."""
        if self.guess == self.best_guess:
            return 0.0
        if self.player is None or self.best is None:
            return None
        return max(self.player.expected - self.best.expected, 0.0) if self.player.expected > self.best.expected + TIE \
            else 0.0

    @property
    def exact(self) -> bool:
        """Return True when the cost is proven (both values proven, or the player played the best guess
        of a proven value)."""
        if self.guess == self.best_guess:
            return self.best is not None and self.best.exact
        return self.player is not None and self.best is not None and self.player.exact and self.best.exact

    @property
    def cost_kind(self) -> str | None:
        """Return how far the cost is known: values.PROVEN, values.BOUND (at least this: the player's
        value is a lower bound) or values.APPROXIMATE; None when not known."""
        if self.cost is None:
            return None
        if self.exact:
            return values.PROVEN
        if values.ESTIMATE in (getattr(self.player, "kind", None), getattr(self.best, "kind", None)):
            return values.ESTIMATE
        if self.player is not None and self.player.kind == values.BOUND and self.best is not None and self.best.exact:
            return values.BOUND
        return values.APPROXIMATE

    @property
    def skill(self) -> float | None:
        """Return 100 x 2^(-cost / SKILL_HALF_COST): 100 for an optimal guess, 50 for one losing a quarter
        of a guess; None if the cost is not known."""
        if self.cost is None:
            return None
        return 100.0 * 2.0 ** (-self.cost / SKILL_HALF_COST)

    @property
    def decided(self) -> bool:
        """Return True when one candidate was left before the guess (no choice, no luck)."""
        return self.before == 1


@dataclass(frozen=True)
class Review:
    """A reviewed game: its guesses and the summary scores."""

    title: str
    guesses: tuple[GuessReview, ...]
    won: bool
    limit: int | None = None  # the game's guess limit (None: none)

    @property
    def lost(self) -> bool:
        """Return True when the game ended unsolved at its guess limit."""
        return not self.won and self.limit is not None and len(self.guesses) >= self.limit

    @property
    def cost(self) -> float:
        """Return the total expected guesses lost, over the guesses whose cost is known."""
        return sum(g.cost for g in self.guesses if g.cost is not None)

    @property
    def exact(self) -> bool:
        """Return True when every guess's cost is proven."""
        return all(g.exact for g in self.guesses)

    @property
    def skill(self) -> int | None:
        """Return the skill score, 0-100: the mean of the guesses' skill (None: none is known)."""
        scores = [g.skill for g in self.guesses if g.skill is not None and (not g.decided or g.cost)]
        return round(sum(scores) / len(scores)) if scores else (100 if self.guesses else None)

    @property
    def luck(self) -> int | None:
        """Return the luck score, 0-100: the mean luck of the guesses made with a choice left."""
        scores = [g.luck for g in self.guesses if not g.decided]
        return round(sum(scores) / len(scores)) if scores else None

    def share(self, limit: int | None = None) -> str:
        """Return a one-line summary to share: game, guesses (of `limit`), skill, luck and cost."""
        count = f"{len(self.guesses)}/{limit}" if limit else str(len(self.guesses))
        result = count if self.won else f"lost after {count}" if self.lost else f"not solved after {count}"
        approx = "" if self.exact else "~"
        parts = [f"{self.title} {result}", f"skill {self.skill}", f"luck {self.luck}" if self.luck is not None else "",
                 f"{approx}{self.cost:.2f} guesses lost"]
        return "deduce review: " + ", ".join(p for p in parts if p)


def luck_of(sizes: np.ndarray, landed: int) -> float:
    """Return the luck of landing in a group of `landed` candidates (0: a win) when each answer's
    group has the size in `sizes` (one entry per candidate): 100 x (share of larger + half the equal)."""
    larger = float((sizes > landed).sum())
    equal = float((sizes == landed).sum())
    return 100.0 * (larger + 0.5 * equal) / sizes.size


def review(game: Game, steps: Sequence[tuple[int, int]], budget: float | None = None) -> Review:
    """Return the review of a game played as (guess row, code) `steps`; ValueError (one line) for a
    history the game refuses (ReviewError when empty). `budget`: seconds per rating (default: the
    solver's)."""
    if not steps:
        raise ReviewError("nothing to review: give the game's guesses (GUESS=FEEDBACK, or guesses with --answer)")
    check_guess_limit(game, len(steps))
    solver = get_solver(game)
    final = replay(solver, steps)  # checks the whole history first: one error before any work
    del final
    reviewed = []
    for number, (row, code) in enumerate(steps, start=1):
        state = replay(solver, steps[:number - 1])
        positions = state.candidate_positions
        codes = feedback_codes(game, row, game.target_index[positions])
        counts = np.bincount(codes, minlength=game.n_codes)
        sizes = counts[codes]
        sizes[codes == game.win_code] = 0  # the answer guessed: nothing left
        after = 0 if code == game.win_code else int(counts[code])
        expected_after = float((counts.astype(np.float64) ** 2).sum()) / positions.size
        best_row = solver.guess_row(state) if positions.size > 1 else int(game.target_index[positions[0]])
        rated = values.rate(state, [row, best_row], budget, large=True) if positions.size > 1 else {}
        player, best = rated.get(row), rated.get(best_row)
        if positions.size == 1:
            one = ToGo(best_row, 1.0, 1, values.PROVEN, "search")
            player, best = (one if row == best_row else None), one
            if row != best_row:
                player = ToGo(row, 2.0, 2, values.PROVEN, "search")  # a miss, then the answer
        if player is not None and best is not None and player.expected < best.expected - TIE:
            best_row, best = row, player  # the search found the player's guess better than the solver's
        reviewed.append(GuessReview(number, game.labels[row], show_feedback(game, code), int(positions.size), after,
                                    expected_after, player, game.labels[best_row], best, luck_of(sizes, after)))
    won = steps[-1][1] == game.win_code
    return Review(game.title, tuple(reviewed), won, game.max_guesses)
