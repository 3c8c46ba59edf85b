"""Ranking guesses by expected remaining candidates and by entropy (`hint`, `openers`).

Both figures describe the partition of the candidates by a guess's feedback: the expected number
of candidates left after it (sum of squared class sizes over the candidate count; the solver's
greedy criterion) and the entropy of the partition in bits. Ties go to the other figure, then to a
guess that may itself win, then to the earlier guess (as in `solver.core.strategy`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solver.analysis.notation import label_list, plural
from solver.analysis.walk import replay
from solver.core import strategy
from solver.core.engine import get_solver
from solver.core.game import Game
from solver.core.registry import UsageError

BY = ("expected", "entropy")
RANK_PAIRS = 400_000_000  # (guess, candidate) pairs a ranking may score: about a second on 2 cores


@dataclass(frozen=True)
class Scored:
    """One guess with its figures over the current candidates."""

    row: int
    label: str
    expected: float  # expected candidates left after it
    entropy: float  # bits of information it is expected to give
    possible: bool  # it is itself a candidate (it may win at once)


@dataclass
class Scores:
    """Every allowed guess scored against a set of candidates (positions in the target list)."""

    game: Game
    rows: np.ndarray
    sum_sq: np.ndarray
    entropy: np.ndarray
    possible: np.ndarray
    candidates: int

    note: str = ""  # how the scored guesses were chosen, when not every allowed guess was scored

    @classmethod
    def compute(cls, game: Game, positions: np.ndarray, history=(), every_guess: bool = False) -> "Scores":
        """Return the scores of the guesses allowed after `history` over the candidate positions: one
        per symmetry class (equivalent guesses score alike), and where that is still more than
        RANK_PAIRS (guess, candidate) pairs (cards n=4) the live solver's pool (`strategy.live_pool`);
        with `every_guess`, of every allowed guess."""
        from solver.core import kernels  # defers Numba to this compute path

        allowed = strategy.allowed_guesses(game, history)
        rows = allowed if every_guess else strategy.symmetry_pool(game, history)
        note = f"one guess per class of equivalent guesses: {rows.size} of {allowed.size}" if rows.size < allowed.size else ""
        allowed = allowed.size
        if not every_guess and rows.size * positions.size > RANK_PAIRS:
            rows = np.sort(strategy.live_pool(game, positions, history))
            note = f"{rows.size} of the {allowed} allowed guesses, the live solver's fixed-seed sample"
        sum_sq, entropy = kernels.partition_scores(game, rows, game.target_index[positions])
        return cls(game, rows, sum_sq, entropy, strategy.candidate_mask(game, positions, rows), int(positions.size),
                   note)

    def top(self, k: int, by: str = "expected") -> list[Scored]:
        """Return the `k` best guesses by expected remaining candidates (lowest) or entropy (highest)."""
        if by not in BY:
            raise ValueError(f"rank by one of {', '.join(BY)}, not {by!r}")
        # entropies equal up to rounding count as ties; ties go to the other figure, then to a
        # possible answer, then to the earlier guess: fully tied guesses keep one order in both tables
        entropy = -np.round(self.entropy, 9)
        primary, secondary = (self.sum_sq, entropy) if by == "expected" else (entropy, self.sum_sq)
        order = np.lexsort((self.rows, ~self.possible, secondary, primary))[:k]
        return [Scored(int(self.rows[i]), self.game.labels[int(self.rows[i])], float(self.sum_sq[i]) / self.candidates,
                       float(self.entropy[i]), bool(self.possible[i])) for i in order]


def table(scored: list[Scored]) -> list[str]:
    """Return the lines of a ranking table: rank, guess, expected left, entropy, possible answer."""
    width = max([len(s.label) for s in scored] + [5])
    lines = [f"{'rank':>4}  {'guess':<{width}}  {'expected left':>13}  {'entropy':>7}  possible"]
    for rank, s in enumerate(scored, start=1):
        lines.append(f"{rank:>4}  {s.label:<{width}}  {s.expected:>13.3f}  {s.entropy:>7.3f}  {'yes' if s.possible else 'no'}")
    return lines


@dataclass
class Hint:
    """What a history leaves: the candidates, the best guesses by both figures, and the guesses to go."""

    candidates: tuple[str, ...]
    by_expected: list[Scored]
    by_entropy: list[Scored]
    note: str = ""  # `Scores.note`
    # (guess, expected guesses to finish with it, this one included), least first: the solver's guess
    # and the ranked ones whose value the exact search proved within the solver's budget
    to_go: list[tuple[Scored, float]] = field(default_factory=list)
    solver_guess: str = ""


def hint(game: Game, steps, top: int) -> Hint:
    """Return the candidates after `steps` of (guess row, code) and the `top` guesses both ways."""
    if top < 1:
        raise UsageError(f"--top must be at least 1, got {top}")
    state = replay(get_solver(game), steps)
    if state.identified:  # solved or one answer left: nothing to rank
        return Hint(state.candidates, [], [])
    scores = Scores.compute(game, state.candidate_positions, state.history)
    by_expected, by_entropy = scores.top(top, "expected"), scores.top(top, "entropy")
    return Hint(state.candidates, by_expected, by_entropy, scores.note,
                guesses_to_go(scores, state, by_expected + by_entropy), game.labels[state.solver.guess_row(state)])


def guesses_to_go(scores: Scores, state, ranked: list[Scored]) -> list[tuple[Scored, float]]:
    """Return (guess, expected guesses to finish with it) for the solver's guess and the `ranked`
    ones, as far as the exact search proves them within the solver's budget; least first, then a
    possible answer, then the earlier guess."""
    solver = state.solver
    chosen = solver.guess_row(state)
    index = {int(row): i for i, row in enumerate(scores.rows)}
    rows = list(dict.fromkeys([chosen] + [s.row for s in ranked]))
    totals = solver.exact_live.guess_totals(state.candidate_positions, state.history, rows, solver.budget)
    out = []
    for row, total in totals.items():
        i = index.get(row)
        scored = Scored(row, scores.game.labels[row], float(scores.sum_sq[i]) / scores.candidates if i is not None
                        else float("nan"), float(scores.entropy[i]) if i is not None else float("nan"),
                        bool(scores.possible[i]) if i is not None else False)
        out.append((scored, total / scores.candidates))
    out.sort(key=lambda item: (round(item[1], 9), not item[0].possible, item[0].row))
    return out


def report(game: Game, result: Hint, show: int = 0) -> list[str]:
    """Return the lines of a hint: the candidates (at most `show`, 0: all) and both rankings."""
    shown = result.candidates[:show] if show else result.candidates
    lines = [f"{plural(len(result.candidates), 'possible answer')}:"]
    lines += [label_list(game, shown[i:i + 10]) for i in range(0, len(shown), 10)]
    if len(shown) < len(result.candidates):
        lines.append(f"... and {len(result.candidates) - len(shown)} more (--candidates 0 lists them all)")
    if not result.by_expected:
        return lines + [f"The answer is {result.candidates[0]}: nothing left to rank."]
    if result.note:
        lines += ["", f"Ranked: {result.note}."]
    lines += ["", "Best guesses by expected remaining candidates:", *table(result.by_expected)]
    lines += ["", "Best guesses by entropy (bits):", *table(result.by_entropy)]
    if result.to_go:
        lines += ["", "Guesses to go (expected guesses to finish, this one included; proven by the exact search):",
                  *to_go_table(result.to_go, result.solver_guess)]
    return lines


def to_go_table(rows: list[tuple[Scored, float]], solver_guess: str) -> list[str]:
    """Return the lines of the guesses-to-go table: rank, guess, guesses to go, possible, the solver's."""
    width = max([len(s.label) for s, _ in rows] + [5])
    lines = [f"{'rank':>4}  {'guess':<{width}}  {'to go':>6}  possible"]
    for rank, (s, value) in enumerate(rows, start=1):
        mark = "  (the solver's guess)" if s.label == solver_guess else ""
        lines.append(f"{rank:>4}  {s.label:<{width}}  {value:>6.3f}  {'yes' if s.possible else 'no ':<3}{mark}".rstrip())
    return lines
