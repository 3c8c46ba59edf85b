"""Build an exact (or top-k) decision tree: the root, then its classes in parallel, resumably.

The root guess is either fixed (`Plan.opener`: the tree is optimal for that opener) or searched
(every first guess up to symmetry: the tree is optimal for the game). Each class below the root
is solved and grown on its own (joblib processes, largest first); a finished class is written to
a checkpoint file at once, so a killed build resumes where it stopped. The checkpoints of a game
are removed once its tree artifact is written.
"""
from __future__ import annotations

import hashlib
import pickle
import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import numba
import numpy as np
from joblib import Parallel, delayed

from pipeline import cluster
from pipeline.cluster.backend import SCRATCH
from pipeline.builders import fanout, split_class
from pipeline.builders.game_bound import game_lower_bound
from pipeline.builders.worst_case import WorstCase, least_worst_case
from pipeline.builders.feedback_tables import compute_table
from pipeline.builders.greedy_tree import max_guesses, to_arrow
from solver.core import artifacts, atomic
from solver.core.game import Game
from solver.core.registry import get_game, registered
from solver.core.search.searcher import INF, Searcher, SearchOptions, Stats
from solver.core.search.nodes import Nodes

NODE_FIELDS = ("parent", "feedback", "depth", "guess", "remaining", "subtree")


WORST_WORK = 3_000_000_000  # (guess, target) pairs each "one fewer guess?" question of `depth` may score


def source_metadata(plan: "Plan") -> dict[str, str]:
    """Return the tree metadata that records where a plan's fixed constants come from:
    `<what>_source` for each entry of `plan.sources`."""
    return {f"{what}_source": citation for what, citation in plan.sources.items()}


def _worst_work_text(work: int | None) -> str:
    """Return the strategy text of a worst-first plan's work limit ('' for the default)."""
    if work is None:
        return "-unlimited"
    return "" if work == WORST_WORK else f"-worstwork{work:.0e}".replace("e+", "e")


def _pairs(work: int) -> str:
    """Return a count of pairs as the strategy text writes it (1e09)."""
    return f"{work:.0e}".replace("e+", "e")


@dataclass(frozen=True)
class WorstFirst:
    """The worst case first: the tree keeps to the game's least worst case (`worst_case`: proven over every
    first guess within `work` pairs scored, an upper bound from a top-k search otherwise; at most the
    options' max_guesses), then the least total within it (the first guess: the plan's, else the best of its
    root_k leading ones and the one that search found, else that one); every level of a top-k search is
    widened, so no set that some guess finishes in time is given up on."""

    work: int | None = WORST_WORK  # None: no limit
    # levels of the tree search widened (0: all); a class that no tree of that search finishes in time is
    # searched again with one more, until one does
    widen: int = 0
    # each "one fewer?" first looks for a first guess that does, within this many pairs
    # (`worst_case.finishing_opener`; 0: not)
    find_work: int = 0

    def describe(self) -> str:
        """Return the strategy text of these settings."""
        return ("-worstfirst" + (f"-widen{self.widen}" if self.widen else "") + _worst_work_text(self.work)
                + (f"-find{_pairs(self.find_work)}" if self.find_work else ""))


@dataclass(frozen=True)
class Fallback:
    """Top-k only: a class whose search scores more than `work` (guess, target) pairs with the options'
    widening is searched again widened `widen` levels (more only where it gives up): deep widening gains
    where it is cheap and explodes on a few classes."""

    work: int = 0  # 0: no limit
    widen: int = 2

    def describe(self) -> str:
        """Return the strategy text of these settings ('' when off)."""
        return f"-widenwork{self.work:.0e}-then{self.widen}".replace("+", "") if self.work else ""


@dataclass(frozen=True)
class Refine:
    """Top-k only: a root class of at most `size` targets whose value stays above its proven lower bound is
    searched again with each k of `k`, the best tree kept (top-k is not monotone in k: which guesses are a
    node's k best depends on the cut-off it is reached with); a root class whose best guess is not among
    its k leading ones (none of them finished it: the order misjudges the set) is searched again from each
    of its `split` guesses with the most classes (`Searcher.splitting_guesses`), every level widened, the
    best tree kept."""

    k: tuple[int, ...] = ()
    size: int = 0
    split: int = 0

    def describe(self) -> str:
        """Return the strategy text of these settings ('' when off)."""
        text = f"-refine{'+'.join(map(str, self.k))}upto{self.size}" if self.k else ""
        return text + (f"-split{self.split}" if self.split else "")


@dataclass(frozen=True)
class Split:
    """Top-k only: a root class of more than `size` targets is solved below a first guess of its own
    (`split_class`): its allowed guesses probed for feasibility, most classes first, within probe_work[0]
    pairs each, those not refuted again within probe_work[1]; the first `tries` not refuted each valued
    class by class (a task per class; one that cannot be finished replaced by the next), the best kept."""

    size: int = 0  # 0: never
    tries: int = 2
    probe_work: tuple[int, int] = (1_000_000_000, 20_000_000_000)
    first: tuple[tuple[str, str], ...] = ()  # (feedback of a split class to the opener, its first guess): unprobed

    def describe(self) -> str:
        """Return the strategy text of these settings ('' when off)."""
        if not self.size:
            return ""
        work = "+".join(_pairs(w) for w in self.probe_work)
        return (f"-below{self.size}-tries{self.tries}-probe{work}"
                + "".join(f"-{marks}{guess}" for marks, guess in self.first))


@dataclass(frozen=True)
class Polish:
    """Top-k only: once a class (a root class, or a class below a split class's first guess) is solved, each
    node of its tree below its first guess holding size[0] to size[1] targets is searched again on its own,
    with the `k` leading guesses of each node, every level widened, within `work` pairs (given up, the
    subtree kept, beyond), deepest first; a better subtree replaces the one grown (top-k is not monotone: a
    node searched on its own, without the cut-offs of the search above it, can find a tree that the class's
    search missed); with `Refine.k`, each k's own tree (searched without the cut-off of the best so far)
    is polished too, the best polished tree kept."""

    k: int = 0  # 0: never
    size: tuple[int, int] = (3, 0)
    work: int = 0

    def describe(self) -> str:
        """Return the strategy text of these settings ('' when off)."""
        return f"-polish{self.k}-{self.size[0]}to{self.size[1]}-work{_pairs(self.work)}" if self.k else ""


@dataclass(frozen=True)
class Rescan:
    """Top-k only: once a class of at most `size` targets is solved (after refine and polish) and its value
    stays above its lower bound, each of its allowed guesses is valued as its first guess (the plan's
    search, with the cut-off of its value + `margin`: top-k is not monotone in the cut-off, and a first
    guess valued against the cut-off of the best so far can be misjudged), the better trees grown (and
    polished with `Polish.k`) and the best kept; each first guess within `work` pairs (given up beyond: a
    few guesses that cannot finish cost most of a scan)."""

    size: int = 0  # 0: never
    margin: int = 0
    work: int = 0  # 0: no limit

    def describe(self) -> str:
        """Return the strategy text of these settings ('' when off)."""
        if not self.size:
            return ""
        return f"-rescan{self.size}+{self.margin}" + (f"-work{_pairs(self.work)}" if self.work else "")


@dataclass(frozen=True)
class Plan:
    """What to build: a fixed first guess (or None: search it), the search options, and the settings of
    each further step (each group off by default; the top-k ones apply to top-k searches only)."""

    options: SearchOptions
    opener: str | None = None
    # no opener: the first guess is the best of the `root_k` best by the search's order (each valued
    # by the plan's search below it) instead of the best of every first guess; 0: every first guess
    root_k: int = 0
    # prove mode: first find each class's top-`seed_k` value (an upper bound, fast), then prove
    # with that bound as the cut-off; 0: prove with no cut-off
    seed_k: int = 0
    bound_seconds: float = 60.0  # top-k only: time spent raising the proven lower bound per class
    # a root class with at least this share of the targets is solved by many tasks (`fanout`)
    fanout_share: float = 0.2
    # what the tree is checked against: also certify a lower bound of the whole game's optimum, over every
    # first guess (`game_bound`), for a tree that is not proven for the game (a fixed opener, or top-k);
    # (total, source) of a published optimum over every first guess that the opener's proven total must
    # equal: the tree is then optimal for the game by that publication (metadata `game_optimum`)
    game_bound: bool = False
    published: tuple[int, str] | None = None
    worst: WorstFirst | None = None  # the worst case first (None: the least total alone)
    fallback: Fallback = Fallback()
    refine: Refine = Refine()
    split: Split = Split()
    polish: Polish = Polish()
    rescan: Rescan = Rescan()
    # where the plan's constants that its build does not search come from: {what was taken ("opener",
    # "split_first", ...): the citation (a published result: author, repository URL, file; or this
    # project's own report that chose it)}, written into the tree's metadata as `<what>_source`;
    # provenance only: neither in `describe()` (the staleness check) nor in a plan's equality
    sources: dict[str, str] = field(default_factory=dict, compare=False)
    # top-k only: a budget of the run, not part of the tree: a class (root class, or a class below a split
    # class's first guess) whose search scores more than `class_work` (guess, target) pairs in all (the
    # widened pass, the fallback and the widening after it) is given up, not saved, and the build raises
    # ClassesGivenUp once every other class is done; a class that finishes within it is the one the plan
    # builds without it, so its checkpoint is shared (0: no limit; neither in `describe()` nor in equality)
    class_work: int = field(default=0, compare=False)

    def describe(self) -> str:
        """Return the strategy text of the tree's metadata."""
        text = self.options.describe() + (f"-opener{self.opener}" if self.opener else "")
        text += f"-root{self.root_k}" if self.root_k and not self.opener else ""
        text += self.worst.describe() if self.worst else ""
        if not self.options.proves:  # the top-k steps, in the order of the text before they were grouped
            text += "".join(step.describe() for step in (self.refine, self.rescan, self.fallback, self.split,
                                                         self.polish))
        return text + (f"-seed{self.seed_k}" if self.seed_k and self.options.proves else "")

    def within(self, guesses: int) -> "Plan":
        """Return this plan with every tree kept within `guesses` (top-k widened at every level)."""
        widen = 0 if self.options.proves else ((self.worst.widen if self.worst else 0) or guesses + 1)
        return replace(self, options=replace(self.options, max_guesses=guesses, widen=widen), worst=None)


@dataclass
class ClassResult:
    """One root class, solved: its subtree, exact (or top-k) value, proven lower bound, work."""

    code: int
    nodes: Nodes
    value: int
    lower: int
    stats: Stats
    seconds: float


class ClassesGivenUp(RuntimeError):
    """A build whose plan's `class_work` ran out on some classes: their feedback codes (root classes; a split
    class counts as given up when none of its first guesses finishes within the budget)."""

    def __init__(self, game: Game, codes: list[int], work: int):
        self.codes = codes
        marks = ", ".join(str(game.decode(code)) for code in codes)
        super().__init__(f"{game.key}: {len(codes)} classes given up after {work:.0e} pairs each ({marks})")


def checkpoint_dir(game: Game, plan: Plan, folder: Path | None = None) -> Path:
    """Return the folder of a build's finished classes (one per game, fingerprint and plan)."""
    tag = hashlib.sha256(f"{game.fingerprint()}|{plan.describe()}|{artifacts.CODE_VERSION}".encode()).hexdigest()[:12]
    return (folder or artifacts.artifacts_dir(game)) / ".checkpoints" / f"{game.key}-{tag}"


CHECKPOINT_TRIES = 3  # writes of a checkpoint whose folder another build removed meanwhile


def _write_checkpoint(path: Path, write: Callable[[Path], None]) -> None:
    """Write one checkpoint file atomically (`write(temporary path)`), its folder made if missing: a
    concurrent build of the same tree (two `deduce tables --force` at once) removes the folder once
    its own artifact is written (`clear_checkpoints`), and this build then goes on in a new one."""
    for attempt in range(CHECKPOINT_TRIES):
        try:
            with atomic.replacing(path, parents=True) as tmp:
                write(tmp)
            return
        except FileNotFoundError:  # the folder (or the temporary file in it) was removed under us
            if attempt == CHECKPOINT_TRIES - 1:
                raise


def _save(path: Path, result: ClassResult) -> None:
    arrays = {name: np.asarray(getattr(result.nodes, name), np.int64) for name in NODE_FIELDS}
    meta = np.array([result.code, result.value, result.lower, result.stats.nodes, result.stats.full,
                     result.stats.probes, result.stats.hits], np.int64)

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as handle:
            np.savez(handle, meta=meta, seconds=np.float64(result.seconds), **arrays)

    _write_checkpoint(path, write)


def _load(path: Path) -> ClassResult | None:
    try:
        with np.load(path) as data:
            nodes = Nodes(**{name: data[name].tolist() for name in NODE_FIELDS})
            meta = data["meta"].tolist()
            seconds = float(data["seconds"])
    except (OSError, ValueError, KeyError):
        return None  # a damaged checkpoint is solved again
    return ClassResult(meta[0], nodes, meta[1], meta[2], Stats(*meta[3:7]), seconds)


_SEARCHERS: dict = {}
_KEEP = 2  # searchers kept per process (the proving one and its seeder)


def _searcher(game: Game, table: np.ndarray, options: SearchOptions) -> Searcher:
    # One searcher (and memo) per process, game and options: classes solved by the same worker
    # share what they memoised, and the workspace is allocated once.
    key = (game.key, game.fingerprint(), options)
    found = _SEARCHERS.get(key)
    if found is None:
        if len(_SEARCHERS) >= _KEEP:
            _SEARCHERS.clear()
        found = _SEARCHERS[key] = Searcher(game, table, options)
    return found


def _seed(game: Game, table: np.ndarray, plan: Plan, path: tuple[int, ...], group: np.ndarray, guesses,
          ghash) -> tuple[int, int]:
    """Return (the top-`seed_k` value of the class reached by guess rows `path`: an upper bound, INF if
    none within the guesses; the guess reaching it)."""
    seeder = _searcher(game, table, replace(plan.options, mode="top-k", k=plan.seed_k, memo_bits=20))
    return seeder.best(group, plan.options.max_guesses - len(path), None, path, guesses, ghash)


def _work(searcher: Searcher, before: Stats) -> Stats:
    after = searcher.stats
    return Stats(after.nodes - before.nodes, after.full - before.full, after.probes - before.probes,
                 after.hits - before.hits)


def _within(searcher: Searcher, group: np.ndarray, r: int, beta, path, guesses, ghash, left: int | None,
            work: int | None = None) -> tuple[tuple[int, int] | None, int | None]:
    """Return ((value, first guess) as `searcher.best` gives them, or None once the search has scored `work`
    pairs or the `left` of a class's budget; the pairs left after it (None: no budget))."""
    limit = work if left is None else min(work, left) if work is not None else left
    if limit is None:
        return searcher.best(group, r, beta, path, guesses, ghash), None
    if limit <= 0:
        return None, left
    done = searcher.work
    found = searcher.bounded_value(group, r, limit, guesses, ghash, beta=beta)
    return found, None if left is None else left - (searcher.work - done)


def _grow(searcher: Searcher, group: np.ndarray, r: int, value: int, history, guesses, ghash) -> Nodes:
    """Return the subtree of `value` just searched, the shallowest among equals if the options say so."""
    if searcher.options.shallow:
        r = searcher.shallowest(group, r, value, tuple(int(g) for g, _ in history), guesses, ghash)
    return searcher.grow(group, r, history, guesses, ghash)


def solve_class(game: Game, table: np.ndarray, plan: Plan, root: int, code: int, group: np.ndarray,
                checkpoint: Path | None = None) -> ClassResult:
    """Return the optimal subtree (top-k: the best found) of one root class, shallowest among equals."""
    save = checkpoint / f"class-{code}.npz" if checkpoint else None
    return solve_node(game, table, plan, ((root, code),), group, save)


def solve_node(game: Game, table: np.ndarray, plan: Plan, history: tuple, group: np.ndarray,
               save: Path | None = None, finish: bool = True) -> ClassResult:
    """Return the optimal subtree (top-k: the best found) of the class reached by `history` ((guess row,
    code) pairs from the root), shallowest among equals, saved to `save`. A class that no tree
    finishes within the guesses left raises RuntimeError, or with `finish` False has the value INF
    (and no nodes)."""
    start = time.perf_counter()
    code = history[-1][1]
    options = plan.options
    searcher = _searcher(game, table, options)
    before = searcher.stats
    guesses, ghash = searcher.allowed_after(history)
    r = options.max_guesses - len(history)
    path = tuple(int(g) for g, _ in history)
    beta = None
    if plan.seed_k and options.proves:
        upper, _ = _seed(game, table, plan, path, group, guesses, ghash)
        beta = None if upper >= INF else upper + 1
    found = None
    left = plan.class_work if plan.class_work and not options.proves else None  # pairs left (None: no limit)
    if plan.fallback.work and not options.proves:
        found, left = _within(searcher, group, r, beta, path, guesses, ghash, left, plan.fallback.work)
        if found is None:  # out of work widened so deep: fewer levels
            options = replace(options, widen=min(options.widen, plan.fallback.widen))
            searcher = _searcher(game, table, options)
            before = searcher.stats
    if found is None:
        found, left = _within(searcher, group, r, beta, path, guesses, ghash, left)
    while found is not None and found[0] >= INF and not options.proves and 0 < options.widen <= r:
        options = replace(options, widen=options.widen + 1)  # widened one level more
        searcher = _searcher(game, table, options)
        before = searcher.stats
        found, left = _within(searcher, group, r, beta, path, guesses, ghash, left)
    if found is None:  # out of the class's budget: given up, not saved (another run may finish it)
        lower = searcher.lower_bound(group, r, INF, plan.bound_seconds, guesses, ghash)
        return ClassResult(code, Nodes(), INF, lower, _work(searcher, before), time.perf_counter() - start)
    value, first = found
    if value >= INF:
        if not finish:
            return ClassResult(code, Nodes(), INF, INF, _work(searcher, before), time.perf_counter() - start)
        raise RuntimeError(f"{game.key}: a class of {group.size} targets cannot be finished in {r} more guesses")
    nodes = _grow(searcher, group, r, value, history, guesses, ghash)
    lower = value
    work = _work(searcher, before)
    if not options.proves:
        lower = searcher.lower_bound(group, r, value, plan.bound_seconds, guesses, ghash)
        work = _work(searcher, before)
        refine = plan.refine.k if group.size <= plan.refine.size else ()
        polish = plan.polish.k and lower < value
        if polish:
            nodes, extra = _polish(game, table, plan, nodes, group, r, history, guesses, ghash)
            value, work = int(nodes.subtree[0]), work + extra
        for k in refine if lower < value else ():
            other = _searcher(game, table, replace(options, k=k))
            other_before = other.stats
            # polished, each k's own tree counts (searched without the cut-off of the best so far: a tree
            # above it may polish below it)
            found, _ = other.best(group, r, None if polish else value, path, guesses, ghash)
            if found < value or (polish and found < INF):
                tree = _grow(other, group, r, found, history, guesses, ghash)
                if polish:
                    tree.feedback[0] = code
                    tree, extra = _polish(game, table, plan, tree, group, r, history, guesses, ghash)
                    work = work + extra
                if tree.subtree[0] < value:
                    value, nodes = int(tree.subtree[0]), tree
            work = work + _work(other, other_before)
            if value <= lower:
                break
        if plan.refine.split and lower < value and first not in searcher.leading_guesses(group, r, options.k, guesses):
            value, nodes, extra = _refine_split(game, table, plan, group, r, value, nodes, first, history, guesses,
                                                ghash)
            work = work + extra
        if plan.rescan.size and lower < value and group.size <= plan.rescan.size:
            # the plan's own search, even where the class's ran out of `Fallback.work` and fell back: each
            # guess has its own `Rescan.work`
            value, nodes, extra = _rescan(game, table, plan, plan.options, group, r, value, nodes, history, guesses,
                                          ghash, polish)
            work = work + extra
    nodes.feedback[0] = code
    result = ClassResult(code, nodes, value, lower, work, time.perf_counter() - start)
    if save is not None:
        _save(save, result)
    return result


def _refine_split(game: Game, table: np.ndarray, plan: Plan, group: np.ndarray, r: int, value: int, nodes: Nodes,
                  first: int, history, guesses, ghash) -> tuple[int, Nodes, Stats]:
    """Return (value, tree, work) of a misjudged class after trying each of its `plan.refine.split` guesses
    with the most classes as its first guess, every level widened; the given tree where none is better."""
    wide = _searcher(game, table, replace(plan.options, widen=r + 1))
    before = wide.stats
    for row in wide.splitting_guesses(group, plan.refine.split, guesses):
        if row == first:
            continue
        found, _ = wide.value(group, r, guesses, ghash, beta=value, forced=int(row))
        if found < value:
            tree = wide.grow(group, r, history, guesses, ghash, first=int(row))
            if tree.subtree[0] < value:  # the tree grown is the value that counts (top-k: the cut-off matters)
                value, nodes = int(tree.subtree[0]), tree
    return value, nodes, _work(wide, before)


def _rescan(game: Game, table: np.ndarray, plan: Plan, options: SearchOptions, group: np.ndarray, r: int, value: int,
            nodes: Nodes, history, guesses, ghash, polish: bool) -> tuple[int, Nodes, Stats]:
    """Return (value, tree, work) of a solved class after `Plan.rescan`: each allowed guess valued as its
    first guess within the cut-off value + `Rescan.margin` (and `Rescan.work` pairs), those below it grown
    (and polished; unpolished: those below the value), the best tree kept; the given tree where none is better."""
    searcher = _searcher(game, table, options)
    before = searcher.stats
    extra = Stats(0, 0, 0, 0)
    first = int(nodes.guess[0])
    code = history[-1][1]
    for row in searcher.splitting_guesses(group, guesses.size, guesses):
        if row == first:
            continue
        beta = value + plan.rescan.margin
        if plan.rescan.work:
            found, _ = searcher.bounded_value(group, r, plan.rescan.work, guesses, ghash, forced=int(row),
                                              beta=beta) or (INF, -1)
        else:
            found, _ = searcher.value(group, r, guesses, ghash, beta=beta, forced=int(row))
        if found >= (beta if polish else value):
            continue
        tree = searcher.grow(group, r, history, guesses, ghash, first=int(row))
        tree.feedback[0] = code
        if polish:
            tree, more = _polish(game, table, plan, tree, group, r, history, guesses, ghash)
            extra = extra + more
        if tree.subtree[0] < value:  # the tree grown is the value that counts
            value, nodes = int(tree.subtree[0]), tree
    return value, nodes, _work(searcher, before) + extra


def _polish(game: Game, table: np.ndarray, plan: Plan, nodes: Nodes, group: np.ndarray, r: int, history, guesses,
            ghash) -> tuple[Nodes, Stats]:
    """Return (tree, work) of a solved class after `Plan.polish`: each node below its first guess within
    `Polish.size` targets searched again on its own (`Polish.k` leading guesses, every level widened,
    within `Polish.work` pairs), deepest first, the better subtree kept; the class's first guess stays."""
    wide = _searcher(game, table, replace(plan.options, k=plan.polish.k, widen=plan.options.max_guesses + 1))
    before = wide.stats
    smallest, largest = plan.polish.size
    children: dict[int, dict[int, int]] = {}
    for i, parent in enumerate(nodes.parent):
        if parent >= 0:
            children.setdefault(parent, {})[nodes.feedback[i]] = i

    def walk(i: int, positions: np.ndarray, r: int, guesses, ghash, path: tuple[int, ...], code: int) -> Nodes:
        # the subtree of node i (root parent -1), its classes polished first
        out = Nodes()
        guess = nodes.guess[i]
        top = out.add(-1, code, len(path), guess, int(positions.size))
        total = int(positions.size)
        for child_code, sub in wide.split(guess, positions):
            child_guesses, child_hash = (wide.restrict_guesses(guesses, guess, child_code) if wide.hard
                                         else (guesses, ghash))
            tree = walk(children[i][child_code], sub, r - 1, child_guesses, child_hash, path + (guess,), child_code)
            out.graft(tree, top)
            total += tree.subtree[0]
        out.subtree[top] = total
        if path and smallest <= positions.size <= largest and total > int(wide.ws.lb[r, positions.size]):
            found = wide.bounded_value(positions, r, plan.polish.work, guesses, ghash)
            if found is not None and found[0] < total:
                tree = wide.grow(positions, r, tuple(zip(path, [0] * len(path))), guesses, ghash)
                if tree.subtree[0] < total:  # the tree grown is the value that counts
                    tree.feedback[0] = code
                    return tree
        return out

    path = tuple(int(g) for g, _ in history)
    tree = walk(0, group, r, guesses, ghash, path, nodes.feedback[0])
    return tree, _work(wide, before)


@dataclass
class Seeded:
    """A large root class's upper bound (the cut-off of its first batch of units)."""

    code: int
    upper: int
    guess: int  # the guess reaching it (-1: none)
    seconds: float


def seed_class(game: Game, table: np.ndarray, plan: Plan, root: int, code: int, group: np.ndarray,
               checkpoint: Path) -> Seeded:
    """Return the upper bound of a large class (INF without a seed), saved as a checkpoint."""
    start = time.perf_counter()
    upper, guess = INF, -1
    if plan.seed_k:
        upper, guess = _seed(game, table, plan, (root,), group, *_searcher(game, table, plan.options).allowed_after(()))
    result = Seeded(code, upper, guess, time.perf_counter() - start)
    _save_object(checkpoint / f"seed-{code}.pkl", result)
    return result


def solve_unit(game: Game, table: np.ndarray, plan: Plan, root: int, group: np.ndarray, unit: fanout.Unit,
               checkpoint: Path) -> fanout.UnitResult:
    """Return one unit of a large class (`fanout`), saved as a checkpoint."""
    result = fanout.run_unit(_searcher(game, table, plan.options), root, group, unit)
    _save_object(checkpoint / _unit_name(unit), result)
    return result


@dataclass
class SplitChild:
    """One class below a split class's candidate first guess `row`, solved (`solve_node`)."""

    code: int  # the split class
    row: int
    result: ClassResult


def probe_guesses(game: Game, table: np.ndarray, plan: Plan, history: tuple, group: np.ndarray,
                  probe: split_class.Probe, checkpoint: Path) -> split_class.ProbeResult:
    """Return the feasibility probes of one chunk of a split class's guesses, saved as a checkpoint."""
    searcher = _searcher(game, table, split_class.probe_options(plan.options))
    result = split_class.run_probe(searcher, history, group, probe)
    _save_object(checkpoint / _probe_name(probe), result)
    return result


def solve_split_child(game: Game, table: np.ndarray, plan: Plan, history: tuple, group: np.ndarray,
                      checkpoint: Path) -> SplitChild:
    """Return one class below a split class's candidate first guess (value INF if none finishes it)."""
    (_, code), (row, child) = history
    result = solve_node(game, table, plan, history, group, checkpoint / _split_name(code, row, child), finish=False)
    return SplitChild(code, row, result)


def _split_name(code: int, row: int, child: int) -> str:
    return f"split-{code}-{row}-{child}.npz"


def _probe_name(probe: split_class.Probe) -> str:
    text = f"{probe.code}|{probe.rows}|{probe.stage}|{probe.work}"
    return f"probe-{hashlib.sha256(text.encode()).hexdigest()[:16]}.pkl"


def _unit_name(unit: fanout.Unit) -> str:
    text = f"{unit.code}|{unit.r}|{unit.guess}|{unit.children}|{unit.budget}"
    return f"unit-{hashlib.sha256(text.encode()).hexdigest()[:16]}.pkl"


def _save_object(path: Path, value) -> None:
    data = pickle.dumps(value)
    _write_checkpoint(path, lambda tmp: tmp.write_bytes(data))


def _load_object(path: Path):
    # checkpoints are this build's own files; a missing, damaged or stale one is computed again
    try:
        return pickle.loads(path.read_bytes())
    except Exception:  # noqa: BLE001 - any unreadable checkpoint means "not done"
        return None


def _in_worker(task, key, table, *args):
    # Workers rebuild the game from the registry and run the kernel on one thread each.


    numba.set_num_threads(1)
    return task(get_game(*key), table, *args)


def _run(game: Game, table: np.ndarray, jobs: int, calls: list):
    """Yield the results of `calls` (task, args) as they finish: in worker processes when jobs > 1,
    on the cluster when the current backend is one (`pipeline.cluster`)."""
    if cluster.current().distributed:
        return _on_cluster(cluster.current(), game, table, calls)
    if jobs > 1 and registered(game) is not None:
        return Parallel(n_jobs=jobs, return_as="generator_unordered", max_nbytes="1M")(
            delayed(_in_worker)(task, (game.name, game.variant), table, *args) for task, args in calls)
    # one process (or a game the workers cannot rebuild from the registry)
    return (task(game, table, *args) for task, args in calls)


def _call(game: Game, table: np.ndarray, task, *args):
    return task(game, table, *args)


def _on_cluster(backend, game: Game, table: np.ndarray, calls: list):
    # Workers write their checkpoints into a temporary folder of theirs; this process keeps each
    # result as the local build's workers do (the same files, written here).
    folders = [a for _, args in calls for a in args if isinstance(a, Path)]
    for result in backend.imap_unordered(_call, [(task, *_swap(args)) for task, args in calls], game, table,
                                         make_table=compute_table):
        folder = folders[0]
        if isinstance(result, Seeded):
            _save_object(folder / f"seed-{result.code}.pkl", result)
        elif isinstance(result, ClassResult):
            _save(folder / f"class-{result.code}.npz", result)
        elif isinstance(result, SplitChild):
            _save(folder / _split_name(result.code, result.row, result.result.code), result.result)
        elif isinstance(result, split_class.ProbeResult):
            _save_object(folder / _probe_name(result.probe), result)
        else:
            _save_object(folder / _unit_name(result.unit), result)
        yield result


def _swap(args: tuple) -> tuple:
    return tuple(SCRATCH if isinstance(a, Path) else a for a in args)


@dataclass
class Built:
    """A finished tree and what its metadata reports."""

    nodes: Nodes
    total: int
    lower: int
    proof: str  # "game", "opener" or "none" (top-k: an upper bound)
    stats: Stats
    seconds: float  # search time summed over the root and its classes (the work, not the wall time)
    worst: WorstCase | None = None  # a worst-first plan's least worst case (the tree keeps to it)

    def metadata(self) -> dict:
        """Return the search figures stored in the tree artifact's metadata."""
        extra = {}
        if self.worst is not None:  # proven over every first guess (`depth`)
            # proven the least worst case when equal to the tree's max_guesses
            extra = {"worst_case_lower_bound": self.worst.lower, "worst_case_seconds": f"{self.worst.seconds:.1f}"}
        return {"lower_bound": self.lower, "proven": self.proof, "nodes_searched": self.stats.nodes,
                "full_nodes": self.stats.full, "memo_hit_rate": f"{self.stats.hit_rate:.4f}",
                "search_seconds": f"{self.seconds:.1f}", **extra}


def root_guess(game: Game, table: np.ndarray, plan: Plan, also: tuple[int, ...] = ()) -> tuple[int, Stats]:
    """Return (the first guess, work done): the plan's opener, or the best over every first guess (or
    over the plan's `root_k` leading ones and the guess rows `also`)."""
    if plan.opener is not None:
        return game.index_of(plan.opener), Stats()
    if game.canonical is not None and len(firsts := game.canonical([])) == 1:
        return int(firsts[0]), Stats()  # every first guess is equivalent to this one
    # widened top-k: the root's classes are widened as the build's own (its first level) are
    options = replace(plan.options, widen=plan.options.widen + 1) if plan.options.widen else plan.options
    searcher = Searcher(game, table, options)
    positions = np.arange(game.n_targets, dtype=np.int64)
    r = plan.options.max_guesses
    if plan.root_k:
        value, guess = INF, -1
        rows = [int(row) for row in searcher.leading_guesses(positions, r, plan.root_k)]
        for row in rows + [row for row in also if row not in rows]:
            total, _ = searcher.value(positions, r, beta=value, forced=row)
            if total < value:
                value, guess = total, int(row)
    else:
        value, guess = searcher.best(positions, r, None, ())
    if value >= INF or guess < 0:
        raise RuntimeError(f"{game.key}: no tree finishes every target within {plan.options.max_guesses} guesses")
    return guess, searcher.stats


def build(game: Game, table: np.ndarray, plan: Plan, jobs: int = 2, progress=None, folder: Path | None = None) -> Built:
    """Return the tree of `plan`: root classes solved in parallel, finished ones read from checkpoints.

    Classes are tasks of their own, largest first; a class too large for one worker (`fanout`) is
    seeded in that first batch, then solved by batches of smaller tasks.
    """
    checkpoint = checkpoint_dir(game, plan, folder)
    checkpoint.mkdir(parents=True, exist_ok=True)
    plan, worst, root, stats, root_seconds = _first_guess(game, table, plan, checkpoint)
    positions = np.arange(game.n_targets, dtype=np.int64)
    searcher = Searcher(game, table, SearchOptions(max_guesses=plan.options.max_guesses, memo_bits=10))
    groups = sorted(searcher.split(root, positions), key=lambda item: -item[1].size)
    done = finished_classes(checkpoint)
    todo = [(code, group) for code, group in groups if code not in done]
    if progress:
        progress(0, len(groups))
        progress(len(groups) - len(todo), None)
    large = {code: fanout.LargeClass(searcher, root, code, group, plan.options.max_guesses - 1,
                                     fanout.candidates(searcher, root))
             for code, group in todo if jobs > 1 and fanout.applies(game, plan.options, plan.seed_k > 0, group.size,
                                                                     plan.fanout_share)}

    def finished(result: ClassResult) -> None:
        done[result.code] = result
        if progress:
            progress(1, None)

    given_up = _solve_classes(game, table, plan, jobs, searcher, root, todo, large, checkpoint, finished)
    _solve_large_classes(game, table, plan, jobs, root, large, checkpoint, finished)
    given_up |= {code for code, result in done.items() if _was_given_up(result)}
    if given_up:
        raise ClassesGivenUp(game, sorted(given_up), plan.class_work)
    return _assemble(game, plan, root, [code for code, _ in groups], done, stats, root_seconds, worst)


def _first_guess(game: Game, table: np.ndarray, plan: Plan, checkpoint: Path
                 ) -> tuple[Plan, WorstCase | None, int, Stats, float]:
    """Return (the plan the classes are solved with: a worst-first plan kept within its least worst case,
    that worst case or None, the first guess, the work and seconds spent finding them)."""
    worst, spent = None, 0.0
    if plan.worst is not None:  # its search time counts whether it ran now or in a run that stopped
        worst = _load_object(checkpoint / "worst.pkl")
        if not isinstance(worst, WorstCase):
            worst = least_worst_case(game, table, plan.options.max_guesses, plan.worst.work,
                                     find_work=plan.worst.find_work)
            _save_object(checkpoint / "worst.pkl", worst)
        plan, spent = plan.within(worst.guesses), worst.seconds
    start = time.perf_counter()
    if worst is not None and plan.opener is None and not plan.root_k:  # the feasibility search's first guess
        root, stats = worst.opener, Stats()
    else:
        root, stats = root_guess(game, table, plan, also=(worst.opener,) if worst else ())
    return plan, worst, root, stats, spent + time.perf_counter() - start


def _solve_classes(game: Game, table: np.ndarray, plan: Plan, jobs: int, searcher: Searcher, root: int, todo: list,
                   large: dict, checkpoint: Path, finished: Callable[[ClassResult], None]) -> set[int]:
    """Solve the root classes of `todo` ((code, positions)) but the large ones, which are only seeded, by
    rounds of tasks, largest first: `finished` is called with each; return the split classes given up (a
    child ran out of the plan's `class_work`)."""
    calls = []
    for code, lc in large.items():
        seeded = _load_object(checkpoint / f"seed-{code}.pkl")
        if isinstance(seeded, Seeded):
            lc.seeded(seeded.upper, seeded.guess, Stats(), seeded.seconds)
        else:
            calls.append((seed_class, (plan, root, code, lc.group, checkpoint)))
    splits = _split_classes(searcher, plan, root, [(c, g) for c, g in todo if c not in large])
    calls += [(solve_class, (plan, root, code, group, checkpoint)) for code, group in todo
              if code not in large and code not in splits]
    sizes = {code: group.size for code, group in todo}
    given_up: set[int] = set()
    while True:  # rounds: a split class's candidates that cannot be finished are replaced by the next ones
        _probe_splits(game, table, plan, jobs, splits, checkpoint)
        loaded = False
        for sc in splits.values():
            for row in sc.candidates():
                for child, sub in sc.pending(row):
                    known = _load(checkpoint / _split_name(sc.code, row, child))
                    if known is not None:
                        sc.take_value(row, child, known)
                        loaded = True
                    else:
                        sizes[(sc.code, row, child)] = sub.size
                        calls.append((solve_split_child, (plan, ((root, sc.code), (row, child)), sub, checkpoint)))
        if not calls:
            if loaded:
                continue
            break
        calls.sort(key=lambda call: -_task_size(call, sizes))  # the largest first
        for result in _run(game, table, jobs, calls):
            if isinstance(result, Seeded):
                large[result.code].seeded(result.upper, result.guess, Stats(), result.seconds)
            elif isinstance(result, SplitChild):
                if _was_given_up(result.result):
                    given_up.add(result.code)
                elif result.code in splits:
                    splits[result.code].take_value(result.row, result.result.code, result.result)
            else:
                finished(result)
        for code in given_up:
            splits.pop(code, None)
        calls = []
    for sc in splits.values():
        value, _ = sc.best()
        lower = int(searcher.ws.lb[plan.options.max_guesses - 1, sc.group.size])
        result = ClassResult(sc.code, sc.tree(), value, lower, sc.stats, sc.seconds)
        _save(checkpoint / f"class-{sc.code}.npz", result)
        finished(result)
    return given_up


def _solve_large_classes(game: Game, table: np.ndarray, plan: Plan, jobs: int, root: int, large: dict,
                         checkpoint: Path, finished: Callable[[ClassResult], None]) -> None:
    """Solve the seeded large classes (`fanout.LargeClass`) by batches of units: `finished` is called with each."""
    while active := [lc for lc in large.values() if not lc.done]:
        calls = []
        for lc in active:
            for unit in lc.units():
                known = _load_object(checkpoint / _unit_name(unit))
                if isinstance(known, fanout.UnitResult) and known.unit == unit:
                    lc.take(known)
                else:
                    calls.append((solve_unit, (plan, root, lc.group, unit, checkpoint)))
        for result in _run(game, table, jobs, calls):
            large[result.unit.code].take(result)
        for lc in active:
            lc.advance()
            if lc.done:
                result = ClassResult(lc.code, lc.tree(), lc.value, lc.value, lc.stats, lc.seconds)
                _save(checkpoint / f"class-{lc.code}.npz", result)
                finished(result)


def _assemble(game: Game, plan: Plan, root: int, codes: list[int], done: dict[int, ClassResult], stats: Stats,
              root_seconds: float, worst: WorstCase | None) -> Built:
    """Return the tree of the first guess `root` with the solved classes `codes` (largest first) grafted below."""
    nodes = Nodes()
    node = nodes.add(-1, -1, 0, root, game.n_targets)
    total = lower = game.n_targets
    for code in codes:
        result = done[code]
        nodes.graft(result.nodes, node)
        total += result.value
        lower += result.lower
        stats = stats + result.stats
    nodes.subtree[node] = total
    if plan.options.proves:
        proof = "opener" if plan.opener else "game"
    else:  # top-k: proven for its first guess where each class's lower bound reached its value
        proof = "opener" if lower >= total else "none"
    # search time: the root's plus each class's own (also those read from checkpoints)
    seconds = root_seconds + sum(done[code].seconds for code in codes)
    return Built(nodes, total, min(lower, total), proof, stats, seconds, worst)


def _was_given_up(result: ClassResult) -> bool:
    """Return whether a class ran out of its plan's `class_work` (unfinished, its lower bound finite)."""
    return result.value >= INF and result.lower < INF


def _task_size(call, sizes: dict) -> int:
    """Return the targets of a task of `build`'s first rounds (seeds first: they cut off the units after them)."""
    task, args = call
    if task is seed_class:
        return 1 << 40
    if task is solve_split_child:
        (_, code), (row, child) = args[1]
        return sizes[(code, row, child)]
    return sizes[args[2]]


def _split_classes(searcher: Searcher, plan: Plan, root: int, todo: list) -> dict[int, split_class.SplitClass]:
    """Return the root classes of `todo` ((code, positions)) that the plan solves below a first guess of their own."""
    if not plan.split.size or plan.options.proves:
        return {}
    game = searcher.game
    fixed = {int(game.encode(marks)): game.index_of(guess) for marks, guess in plan.split.first}
    out = {}
    for code, group in todo:
        if group.size > plan.split.size:
            guesses, _ = searcher.allowed_after(((root, code),))
            order = [int(row) for row in searcher.splitting_guesses(group, guesses.size, guesses)]
            sc = split_class.SplitClass(searcher, root, code, group, order, plan.split.tries, plan.split.probe_work)
            if code in fixed:  # the plan's guess: the one candidate, not probed
                sc.order, sc.tries = [fixed[code]], 1
                sc.refuted[fixed[code]], sc.confirmed[fixed[code]] = False, True
            out[code] = sc
    return out


def _probe_splits(game: Game, table: np.ndarray, plan: Plan, jobs: int, splits: dict, checkpoint: Path) -> None:
    """Probe the guesses of each split class, batch by batch, until its candidates are known."""
    while active := [sc for sc in splits.values() if sc.candidates() is None]:
        calls = []
        for sc in active:
            for probe in sc.probes(4 * max(jobs, 1)):
                known = _load_object(checkpoint / _probe_name(probe))
                if isinstance(known, split_class.ProbeResult) and known.probe == probe:
                    sc.take_probe(known)
                else:
                    calls.append((probe_guesses, (plan, sc.history, sc.group, probe, checkpoint)))
        for result in _run(game, table, jobs, calls):
            splits[result.probe.code].take_probe(result)


def finished_classes(checkpoint: Path) -> dict[int, ClassResult]:
    """Return the root classes already solved in a build's checkpoint folder, by feedback code."""
    done = {}
    for path in checkpoint.glob("class-*.npz"):
        result = _load(path)
        if result is not None:
            done[result.code] = result
    return done


def clear_checkpoints(game: Game, plan: Plan, folder: Path | None = None) -> None:
    """Remove a build's checkpoint folder (after its artifact is written)."""
    shutil.rmtree(checkpoint_dir(game, plan, folder), ignore_errors=True)


def build_exact_tree(game: Game, table: np.ndarray, plan: Plan, jobs: int = 2, folder: Path | None = None,
               force: bool = False, progress=None) -> tuple[bool, float]:
    """Build and write a game's exact tree artifact unless it is up to date; return (built, seconds)."""
    if not force and artifacts.is_current(artifacts.TREE, game, folder, strategy=plan.describe()):
        return False, 0.0
    built = build(game, table, plan, jobs, progress, folder)
    extra = {"targets": game.n_targets, "total_guesses": built.total, "max_guesses": max_guesses(built.nodes),
             "strategy": plan.describe(), **built.metadata()}
    if built.worst is not None and extra["max_guesses"] != built.worst.guesses:
        raise RuntimeError(f"the {game.title} tree needs {extra['max_guesses']} guesses, not its least worst case "
                           f"{built.worst.guesses}")
    if plan.published is not None:
        total, source = plan.published
        if built.proof != "opener" or built.total != total:
            raise RuntimeError(f"the {game.title} tree totals {built.total} ({built.proof}), not the published "
                               f"optimum {total} ({source})")
        extra.update(game_optimum="published", game_optimum_source=source)
    extra.update(source_metadata(plan))
    if plan.game_bound:
        bound, first, seconds = game_lower_bound(game, table, plan.options.max_guesses)
        extra.update(game_lower_bound=min(bound, built.total), game_lower_bound_opener=game.labels[first],
                     game_lower_bound_seconds=f"{seconds:.1f}")
    artifacts.write(artifacts.TREE, game, to_arrow(game, built.nodes), extra, folder)
    clear_checkpoints(game, plan, folder)
    return True, built.seconds
