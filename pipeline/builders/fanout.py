"""A large root class solved by many parallel tasks instead of one: parallelism below the root.

Where the tree is unbalanced (Bulls and Cows: one root class holds 29% of the targets and most of
the work), one class per worker leaves the other workers idle. Such a class is valued guess by
guess instead, all with one fixed cut-off: its top-k value U (found first) plus one. The guess
that reached U (the lead, almost always optimal) is valued class by class, exactly: work the proof
needs anyway; every other guess is one task, cut off as the sequential search would once it has
found U. Each task grows the subtrees of its classes when they are exact. The class value is the
least guess total; its tree is the first guess in the search's own order with that total, over
the subtrees its tasks grew. Then, as `exact_tree.solve_class` does, the fewest guesses left with that
same value are found the same way (one task per guess). The tree is the one `solve_class` builds.

Splitting other guesses class by class was measured to cost far more: without the siblings'
values each class of a poor guess is cut off late, and one class that cannot be finished does not
stop its siblings.

Only for classes at a symmetric level (`Searcher.node_value` orders guesses as done here) of a
game without hard mode, in prove mode.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from solver.core.game import Game
from solver.core.search.searcher import INF, Searcher, SearchOptions, Stats
from solver.core.search.nodes import Nodes

ALONE_SHARE = 0.05  # a class of the lead guess with this share of the root class is a task of its own


@dataclass(frozen=True)
class Unit:
    """One task: classes `children` (codes) of `guess` at a root class with `r` guesses left.

    `budget` cuts off the sum of size + value over these classes (the class cut-off minus the
    guess's hits and the other classes' bounds): exact below it.
    """

    code: int
    r: int
    guess: int
    children: tuple[int, ...]
    budget: int


@dataclass
class UnitResult:
    unit: Unit
    total: int  # sum over the unit's classes of size + value (exact below the budget)
    nodes: dict[int, Nodes] | None  # child code -> its subtree, when exact
    stats: Stats
    seconds: float


def run_unit(searcher: Searcher, root: int, group: np.ndarray, unit: Unit) -> UnitResult:
    """Return the unit's total and, when exact, the subtrees of its classes (as `grow` makes them)."""
    start, before = time.perf_counter(), searcher.stats
    by_code = dict(searcher.split(unit.guess, group))
    groups = [by_code[c] for c in unit.children]
    total = searcher.children_value(groups, unit.r - 1, unit.budget, (root, unit.guess))
    nodes = None
    if total < unit.budget:
        nodes = {}
        for child, positions in zip(unit.children, groups):
            grown = searcher.grow(positions, unit.r - 1, ((root, unit.code), (unit.guess, child)))
            grown.feedback[0] = child
            nodes[child] = grown
    after = searcher.stats
    work = Stats(after.nodes - before.nodes, after.full - before.full, after.probes - before.probes,
                 after.hits - before.hits)
    return UnitResult(unit, total, nodes, work, time.perf_counter() - start)


@dataclass
class LargeClass:
    """One root class solved in batches of units: value at `r` guesses left, then fewer."""

    searcher: Searcher  # for splits and bounds only (the main process's)
    root: int
    code: int
    group: np.ndarray
    r: int
    guesses: np.ndarray  # candidate guesses at this class (one per symmetry class)
    beta: int = INF + 1
    lead: int = -1  # the guess valued class by class in the next batch (-1: none)
    value: int = INF
    chosen: dict = field(default_factory=dict)  # the last level with the class value: r, totals, nodes
    pending: dict = field(default_factory=dict)  # unit -> result of the current batch
    stats: Stats = field(default_factory=Stats)
    seconds: float = 0.0
    done: bool = False

    def seeded(self, upper: int, guess: int, stats: Stats, seconds: float) -> None:
        """Record the class's upper bound (top-k value) and the guess reaching it: the first batch's
        cut-off is one more, and that guess is valued class by class."""
        self.beta = INF + 1 if upper >= INF else upper + 1
        self.lead = guess
        self.stats, self.seconds = self.stats + stats, self.seconds + seconds

    def order(self, r: int) -> tuple[np.ndarray, np.ndarray]:
        """Return (candidate guesses in the search's order at `r` guesses left, their bounds)."""
        bounds, keys = self.searcher._guess_bounds(self.guesses, self.group, r)
        order = np.argsort(keys, kind="stable")
        return self.guesses[order], bounds[order]

    def units(self) -> list[Unit]:
        """Return the next batch: every guess that may beat the cut-off at `r` guesses left."""
        guesses, bounds = self.order(self.r)
        lbr = self.searcher.ws.lb[self.r - 1]
        wide, whole = [], []
        for guess, bound in zip(guesses.tolist(), bounds.tolist()):
            if bound >= self.beta:
                continue
            classes = self.searcher.split(guess, self.group)
            hit = self.group.size - sum(g.size for _, g in classes)
            weight = {c: g.size + int(lbr[g.size]) for c, g in classes}
            parts = [tuple(weight)]
            if guess == self.lead:
                alone = [c for c, g in classes if g.size >= ALONE_SHARE * self.group.size]
                rest = tuple(c for c in weight if c not in alone)
                parts = [(c,) for c in alone] + ([rest] if rest else [])
            for part in parts:
                others = sum(w for c, w in weight.items() if c not in part)
                unit = Unit(self.code, self.r, guess, part, self.beta - hit - others)
                (wide if guess == self.lead else whole).append((unit, max(weight[c] for c in part)))
        wide.sort(key=lambda item: -item[1])  # the longest tasks first
        out = [unit for unit, _ in wide + whole]
        self.pending = dict.fromkeys(out)
        return out

    def take(self, result: UnitResult) -> None:
        self.pending[result.unit] = result
        self.stats, self.seconds = self.stats + result.stats, self.seconds + result.seconds

    def advance(self) -> None:
        """Close a batch: keep its level if it reaches the class value, then try one guess fewer."""
        totals: dict[int, int] = {}
        nodes: dict[int, dict[int, Nodes]] = {}
        for unit, result in self.pending.items():
            hit = self.group.size - sum(g.size for _, g in self.searcher.split(unit.guess, self.group))
            totals[unit.guess] = totals.get(unit.guess, hit) + result.total
            if result.nodes is not None:
                nodes.setdefault(unit.guess, {}).update(result.nodes)
        best = min(totals.values(), default=INF)
        first_batch = self.value >= INF
        if first_batch and best >= min(self.beta, INF):
            raise RuntimeError(f"a class of {self.group.size} targets cannot be finished in {self.r} more guesses")
        if first_batch or best == self.value:
            self.value = best
            self.chosen = {"r": self.r, "totals": totals, "nodes": nodes}
        self.pending, self.lead = {}, -1
        if best == self.value and self.r > 1 and self.group.size > 1:
            self.r, self.beta = self.r - 1, self.value + 1  # shallowest: does one guess fewer still do?
        else:
            self.done = True

    def tree(self) -> Nodes:
        """Return the class subtree: the first guess in order with the class value, at the chosen level."""
        r, totals = self.chosen["r"], self.chosen["totals"]
        guesses, _ = self.order(r)
        guess = next(g for g in guesses.tolist() if totals.get(g) == self.value)
        children = self.chosen["nodes"][guess]
        nodes = Nodes()
        top = nodes.add(-1, self.code, 1, guess, int(self.group.size))
        total = int(self.group.size)
        for child, _ in self.searcher.split(guess, self.group):
            nodes.graft(children[child], top)
            total += children[child].subtree[0]
        nodes.subtree[top] = total
        return nodes


def candidates(searcher: Searcher, root: int) -> np.ndarray:
    """Return the guesses tried at a root class (one per symmetry class of guesses fixing `root`)."""
    return np.asarray(searcher.game.canonical([root]), dtype=np.int64)


def applies(game: Game, options: SearchOptions, seeded: bool, group_size: int, share: float) -> bool:
    """Return whether a root class of `group_size` targets is solved by units (see the module doc):
    without a seed (an upper bound) every guess would be valued without a cut-off."""
    return (game.canonical is not None and game.allowed is None and options.proves and seeded
            and options.symmetry_levels >= 2 and group_size >= share * game.n_targets)
