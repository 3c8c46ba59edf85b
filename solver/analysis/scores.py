"""Ranking guesses (`hint`, the coach, `openers`): by guesses to go, and by the cheap figures.

The cheap figures describe the partition of the candidates by a guess's feedback: the expected
number of candidates left after it (sum of squared class sizes over the candidate count; the
solver's greedy criterion) and the entropy of the partition in bits; ties go to the other figure,
then to a guess that may itself win, then to the more common word, then to the earlier guess.
`rank` orders a pool of guesses (the solver's and the best by each cheap figure) by their expected
guesses to finish (`solver.analysis.values`), the figure the solver itself plays by.

`ranking` is what `hint` and the web page show: on the tree, or one guess in after a favourite opener,
with the defaults (DEFAULT_TOP guesses, the live budget), the ranking computed ahead for the state (the
hints artifact, `pipeline.builders.hint_table`: the same `rank`, so such a hint loads no kernel); else `rank`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solver.analysis import values
from solver.analysis.notation import label_list, plural
from solver.analysis.values import ToGo
from solver.analysis.walk import replay
from solver.core import strategy
from solver.core.runtime import get_solver
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
    positions: np.ndarray  # the candidates' positions in the target list

    note: str = ""  # how the scored guesses were chosen, when not every allowed guess was scored

    @classmethod
    def compute(cls, game: Game, positions: np.ndarray, history=(), every_guess: bool = False) -> "Scores":
        """Return the scores of the guesses allowed after `history` over the candidate positions: one
        per symmetry class (equivalent guesses score alike), and where that is still more than
        RANK_PAIRS (guess, candidate) pairs (cards n=4) the live solver's pool (`strategy.live_pool`);
        with `every_guess`, of every allowed guess."""
        allowed = strategy.allowed_guesses(game, history)
        rows = allowed if every_guess else strategy.symmetry_pool(game, history)
        note = (f"one guess per class of equivalent guesses: {rows.size} of {allowed.size}"
                if rows.size < allowed.size else "")
        allowed = allowed.size
        if not every_guess and rows.size * positions.size > RANK_PAIRS:
            rows = np.sort(strategy.live_pool(game, positions, history))
            note = f"{rows.size} of the {allowed} allowed guesses, the live solver's fixed-seed sample"
        return cls.of_rows(game, positions, rows, note)

    @classmethod
    def of_rows(cls, game: Game, positions: np.ndarray, rows: np.ndarray, note: str = "") -> "Scores":
        """Return the scores of guess `rows` over the candidate positions."""
        from solver.core import scoring  # defers Numba to this compute path

        sum_sq, entropy = scoring.partition_scores(game, rows, game.target_index[positions])
        return cls(game, rows, sum_sq, entropy, strategy.candidate_mask(game, positions, rows), int(positions.size),
                   positions, note)

    def top(self, k: int, by: str = "expected") -> list[Scored]:
        """Return the `k` best guesses by expected remaining candidates (lowest) or entropy (highest)."""
        if by not in BY:
            raise ValueError(f"rank by one of {', '.join(BY)}, not {by!r}")
        # entropies equal up to rounding count as ties; ties go to the other figure, then to a
        # possible answer, then to the earlier guess: fully tied guesses keep one order in both tables
        entropy = -np.round(self.entropy, 9)
        primary, secondary = (self.sum_sq, entropy) if by == "expected" else (entropy, self.sum_sq)
        common = values.commonness(self.game)[self.rows]
        order = np.lexsort((self.rows, common, ~self.possible, secondary, primary))[:k]
        return [self._scored(i) for i in order]

    def _scored(self, i: int) -> Scored:
        row = int(self.rows[i])
        return Scored(row, self.game.labels[row], float(self.sum_sq[i]) / self.candidates, float(self.entropy[i]),
                      bool(self.possible[i]))

    def figures(self, rows) -> dict[int, Scored]:
        """Return {guess row: Scored} for `rows`, scoring those this ranking left out (one guess per
        class of equivalent guesses, or a sample) against the same candidates."""
        index = {int(row): i for i, row in enumerate(self.rows)}
        out = {row: self._scored(index[row]) for row in rows if row in index}
        missing = [row for row in rows if row not in index]
        if missing:
            extra = Scores.of_rows(self.game, self.positions, np.array(missing, dtype=np.int64))
            out.update(extra.figures(missing))
        return out


@dataclass(frozen=True)
class Ranked:
    """A guess of the hint's ranking: its cheap figures and its guesses to go (None: not rated in time)."""

    scored: Scored
    to_go: ToGo | None
    solver: bool  # the solver's own guess in this state

    @property
    def label(self) -> str:
        return self.scored.label


@dataclass
class Hint:
    """What a history leaves: the candidates, and the best guesses ranked by guesses to go."""

    candidates: tuple[str, ...]
    ranked: list[Ranked] = field(default_factory=list)
    note: str = ""  # `Scores.note`
    solver_guess: str = ""


def hint(game: Game, steps, top: int, budget: float | None = None) -> Hint:
    """Return the candidates after `steps` of (guess row, code) and the `top` best guesses (`rank`)."""
    if top < 1:
        raise UsageError(f"--top must be at least 1, got {top}")
    state = replay(get_solver(game), steps)
    if state.identified:  # solved or one answer left: nothing to rank
        return Hint(state.candidates)
    ranked, note = ranking(state, top, budget)
    return Hint(state.candidates, ranked, note, game.labels[state.solver.guess_row(state)])


def ranking(state, top: int, budget: float | None = None, ahead: bool = True) -> tuple[list[Ranked], str]:
    """Return (`rank` of the `top` best guesses in `state`, `Scores.note`): the ranking computed ahead for
    the state (a tree node, or an opener book state) when there is one that fits (`stored_ranking`;
    `ahead` False: never, nor any value read from it: what computes the rankings ahead), else computed now."""
    stored = stored_ranking(state, top, budget) if ahead else None
    if stored is not None:
        return stored
    scores = Scores.compute(state.solver.game, state.candidate_positions, state.history)
    return rank(scores, state, top, budget, ahead), scores.note


def stored_ranking(state, top: int, budget: float | None = None) -> tuple[list[Ranked], str] | None:
    """Return (ranking, note) computed ahead for `state` (the hints artifact: a tree node, or the opener
    book's state after a favourite opener), or None when none fits: another state, another `top`, a budget
    or live mode other than the hints were computed with, hints of another tree or book, or no usable
    hints file."""
    solver = state.solver
    if solver.live != "exact" or (budget is not None and budget != solver.budget):
        return None
    found = values.stored_rows(state)
    if found is None:
        return None
    rows, meta, span = found
    if meta.get("top") != str(top) or meta.get("budget") != str(solver.budget):
        return None
    game = solver.game
    ranked = []
    for i in span:
        row, worst = int(rows.guess[i]), int(rows.worst[i])
        scored = Scored(row, game.labels[row], float(rows.expected_left[i]), float(rows.entropy[i]),
                        bool(rows.possible[i]))
        to_go = ToGo(row, float(rows.to_go[i]), worst if worst >= 0 else None, rows.kind[i],
                     values.ahead_source(rows.source[i]), state.remaining, int(rows.lost[i]), bool(rows.lost_exact[i]),
                     values.guesses_left(state))
        ranked.append(Ranked(scored, to_go, bool(rows.solver[i])))
    return ranked, rows.note[span.start]


def rank(scores: Scores, state, top: int, budget: float | None = None, ahead: bool = True) -> list[Ranked]:
    """Return the `top` best guesses by expected guesses to go (`solver.analysis.values`), drawn from
    the solver's guess and the `top` best by each cheap figure; the solver's guess is always in the
    list, first among equals. Other ties go to a possible answer, then the more common word, then the
    fewer candidates left.
    At the last guess the pool is the candidates (only they can win). Guesses whose value was not found within
    `budget` (default: the solver's) come after the rated; the solver's guess is rated alone
    (`values.rate_alone`, with the whole budget, as the "Why" of a hint rates it), so that both show the
    same value."""
    game = scores.game
    chosen = state.solver.guess_row(state)
    pool = list(dict.fromkeys([chosen] + [s.row for s in scores.top(top, "expected") + scores.top(top, "entropy")]))
    if values.guesses_left(state) == 1:  # the last guess: only a candidate can win, so the candidates are ranked
        possible = [s.row for s in scores.top(scores.rows.size, "expected") if s.possible]
        pool = list(dict.fromkeys([chosen] + possible[:max(top, 1)]))
    others = [row for row in pool if row != chosen]
    rated = values.rate(state, others, budget, ahead=ahead) if others else {}
    rated[chosen] = values.rate_alone(state, chosen, budget, ahead=ahead)  # as the Why rates it: one value for both
    figures = scores.figures(pool)
    ranked = sorted((Ranked(figures[row], rated.get(row), row == chosen) for row in pool),
                    key=lambda r: values.order_key(game, r.scored.row, r.to_go, r.scored.possible, r.scored.expected,
                                                   r.solver))
    shown = ranked[:top]
    if not any(r.solver for r in shown):
        shown.append(next(r for r in ranked if r.solver))
    return shown


def report(game: Game, result: Hint, show: int = 0) -> list[str]:
    """Return the lines of a hint: the candidates (at most `show`, 0: all) and the ranking."""
    shown = result.candidates[:show] if show else result.candidates
    lines = [f"{plural(len(result.candidates), 'possible answer')}:"]
    lines += [label_list(game, shown[i:i + 10]) for i in range(0, len(shown), 10)]
    if len(shown) < len(result.candidates):
        lines.append(f"... and {len(result.candidates) - len(shown)} more (--candidates 0 lists them all)")
    if not result.ranked:
        return lines + [f"The answer is {result.candidates[0]}: nothing left to rank."]
    if result.note:
        lines += ["", f"Ranked: {result.note}."]
    lines += ["", "Best guesses by expected guesses to finish (this one included):", *table(result.ranked)]
    return lines + legend(result.ranked)


def table(ranked: list[Ranked]) -> list[str]:
    """Return the lines of the ranking table: rank, guess, guesses to go (with the candidates it cannot
    finish within the guess limit, `ToGo.short_limit`), worst case, expected candidates left, entropy
    (bits), possible answer, and which is the solver's guess; where a guess cannot guarantee the limit, a
    column of the chance of finishing within it (on the last guess: of winning)."""
    width = max([len(r.label) for r in ranked] + [5])
    cells = [(r.to_go.text() + (" " + r.to_go.short_limit() if r.to_go.lost else "")) if r.to_go is not None else "?"
             for r in ranked]
    go_width = max([len(c) for c in cells] + [7])
    limited = any(r.to_go is not None and r.to_go.lost for r in ranked)
    chance = (lambda value: "?" if value is None or value.chance is None else chance_text(value.chance)) \
        if limited else (lambda value: "")
    header = f"  {'chance':>6}" if limited else ""
    lines = [f"{'rank':>4}  {'guess':<{width}}  {'to go':>{go_width}}  {'worst':>5}{header}  {'expected left':>13}  "
             f"{'entropy':>7}  possible"]
    for number, (r, go) in enumerate(zip(ranked, cells), start=1):
        s, to_go = r.scored, r.to_go
        worst = str(to_go.worst) if to_go is not None and to_go.worst is not None else "-"
        mark = "  (the solver's guess)" if r.solver else ""
        odds = f"  {chance(to_go):>6}" if limited else ""
        lines.append(f"{number:>4}  {s.label:<{width}}  {go:>{go_width}}  {worst:>5}{odds}  {s.expected:>13.3f}  "
                     f"{s.entropy:>7.3f}  {'yes' if s.possible else 'no ':<3}{mark}".rstrip())
    return lines


def chance_text(chance: float) -> str:
    """Return a chance (0-1) as the tables show it: "100%", "91.7%", "0%"."""
    return "100%" if chance >= 1 else f"{100 * chance:.1f}%"


def legend(ranked: list[Ranked]) -> list[str]:
    """Return the notes below the table for the marks it uses, and where the values come from."""
    kinds = {r.to_go.kind for r in ranked if r.to_go is not None}
    notes = []
    if values.PROVEN in kinds:
        notes.append("a plain figure is proven optimal (within the game's guess limit)")
    if values.APPROXIMATE in kinds:
        notes.append("~ the best strategy found in the time allowed (not proven: the optimum is at most this)")
    if values.BOUND in kinds:
        notes.append(">= a proven lower bound")
    if values.ESTIMATE in kinds:
        notes.append("≈ a quick estimate from the groups the guess leaves, not a search's value")
    if any(r.to_go is None for r in ranked):
        notes.append("? not rated within the time allowed (--budget SECONDS or --exact to wait longer)")
    lost = [r.to_go for r in ranked if r.to_go is not None and r.to_go.lost]
    if lost:
        left = lost[0].left
        notes.append(f"-N: N answers cannot be finished within the {plural(left, 'guess', 'guesses')} left, whatever "
                     "is played after it (-N+: at least N), and the figure counts the game played on past the limit; "
                     "chance: the best chance of finishing within the limit (with one guess left, of winning)")
    sources = sorted({r.to_go.describe() for r in ranked if r.to_go is not None})
    out = ["", "To go: " + "; ".join(notes) + "."] if notes else []
    return out + (["From: " + "; ".join(sources) + "."] if sources else [])
