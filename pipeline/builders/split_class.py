"""A root class too large for one task, solved below a first guess of its own (top-k plans).

Hard mode with every word a possible answer: below CHOMP the class RRRRR holds 4841 of the 12972
targets, gives no hint, and no single search of it finished (docs, "Trees"). Most of its guesses
cannot finish it at all within the guesses left: a guess that pins down four letters of a family such
as -ARES leaves a class in which hard mode lets each later guess rule out one word at most. A
feasibility search refutes such a guess in milliseconds, where a guess that does finish takes minutes
to value. So the class's first guess is chosen in two steps:

1. probe: the allowed guesses, in the order of the most classes (`Searcher.splitting_guesses`), each
   get a feasibility search within `Plan.split.probe_work[0]` (guess, target) pairs scored: refuted (no
   tree below the guess finishes the class: a proof), or not (it finishes, or the probe ran out); a
   guess not refuted is probed again within `probe_work[1]` before it is valued (refuting a
   guess can take a minute, valuing one many);
2. value: the first `Plan.split.tries` guesses not refuted are each valued by solving their classes
   as tasks of their own (`exact_tree.solve_node`, as root classes are); a guess one of whose classes
   cannot be finished is dropped and the next guess not refuted taken instead (a probe out of work
   leaves such guesses: a refutation can take minutes); the least total is kept (the earlier guess
   among equals).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np

from solver.core.search.searcher import INF, Searcher, SearchOptions, Stats
from solver.core.search.nodes import Nodes

PROBE_CHUNK = 64  # guesses probed by one task


@dataclass(frozen=True)
class Probe:
    """One task: feasibility probes of `rows` at the split class `code`, each within `work` pairs
    (stage 0: every guess in order; stage 1: again, with more work, each guess stage 0 left)."""

    code: int
    rows: tuple[int, ...]
    stage: int = 0
    work: int = 0


@dataclass
class ProbeResult:
    probe: Probe
    refuted: tuple[bool, ...]  # per row: proven unable to finish the class
    stats: Stats
    seconds: float


def run_probe(searcher: Searcher, history: tuple, group: np.ndarray, probe: Probe) -> ProbeResult:
    """Return which of `probe.rows` cannot finish `group` (the class reached by `history`) within the
    guesses left, each probed within `probe.work` pairs by the feasibility `searcher` (every level widened)."""
    start, before = time.perf_counter(), searcher.stats
    guesses, ghash = searcher.allowed_after(history)
    r = searcher.options.max_guesses - len(history)
    refuted = []
    for row in probe.rows:
        found = searcher.bounded_value(group, r, probe.work, guesses, ghash, forced=int(row))
        refuted.append(found is not None and found[0] >= INF)
    after = searcher.stats
    work_done = Stats(after.nodes - before.nodes, after.full - before.full, after.probes - before.probes,
                      after.hits - before.hits)
    return ProbeResult(probe, tuple(refuted), work_done, time.perf_counter() - start)


@dataclass
class SplitClass:
    """One root class solved below a first guess of its own: probes, then each try's classes."""

    searcher: Searcher  # the main process's: splits and orders only
    root: int
    code: int
    group: np.ndarray
    order: list[int]  # its allowed guesses, most classes first
    tries: int
    work: tuple[int, int]  # pairs scored by each probe of stage 0 and of stage 1
    refuted: dict[int, bool] = field(default_factory=dict)  # row -> refuted by stage 0 (probed rows only)
    confirmed: dict[int, bool] = field(default_factory=dict)  # row -> not refuted by stage 1 either
    values: dict[int, dict[int, object]] = field(default_factory=dict)  # try row -> child code -> result
    stats: Stats = field(default_factory=Stats)
    seconds: float = 0.0

    @property
    def history(self) -> tuple:
        return ((self.root, self.code),)

    def candidates(self) -> list[int] | None:
        """Return the first `tries` rows refuted by neither stage, and one more for each of them that no
        tree finishes (`dropped`); None while the rows before them are not all probed."""
        wanted = self.tries + len(self.dropped())
        found = []
        for row in self.order:
            if row not in self.refuted or (not self.refuted[row] and row not in self.confirmed):
                return None
            if not self.refuted[row] and self.confirmed[row]:
                found.append(row)
                if len(found) == wanted:
                    break
        return found

    def dropped(self) -> list[int]:
        """Return the rows valued so far one of whose classes no tree finishes within the guesses left."""
        return [row for row, solved in self.values.items() if any(r.value >= INF for r in solved.values())]

    def pending(self, row: int) -> list[tuple[int, np.ndarray]]:
        """Return (code, positions) of the classes of candidate `row` still to solve (none once it is dropped)."""
        solved = self.values.get(row, {})
        if any(r.value >= INF for r in solved.values()):
            return []
        return [(c, g) for c, g in self.children(row) if c not in solved]

    def probes(self, batch: int) -> list[Probe]:
        """Return the next probe tasks, at most `batch` (none once the candidates are known): stage 1 for
        the rows stage 0 left, in order, as far as the candidates may reach, else more of stage 0."""
        if self.candidates() is not None:
            return []
        wanted = self.tries + len(self.dropped())
        left = [row for row in self.order if self.refuted.get(row) is False and self.confirmed.get(row) is not False]
        again = [row for row in left[:wanted] if row not in self.confirmed]
        if again:
            return [Probe(self.code, (row,), 1, self.work[1]) for row in again[:batch]]
        rows = [row for row in self.order if row not in self.refuted][:batch * PROBE_CHUNK]
        return [Probe(self.code, tuple(rows[i:i + PROBE_CHUNK]), 0, self.work[0])
                for i in range(0, len(rows), PROBE_CHUNK)]

    def take_probe(self, result: ProbeResult) -> None:
        if result.probe.stage == 0:
            self.refuted.update(zip(result.probe.rows, result.refuted))
        else:
            self.confirmed.update((row, not refuted) for row, refuted in zip(result.probe.rows, result.refuted))
        self.stats, self.seconds = self.stats + result.stats, self.seconds + result.seconds

    def children(self, row: int) -> list[tuple[int, np.ndarray]]:
        """Return (code, positions) of each class that guess `row` leaves of this class."""
        return self.searcher.split(row, self.group)

    def take_value(self, row: int, child: int, result) -> None:
        self.values.setdefault(row, {})[child] = result
        self.stats, self.seconds = self.stats + result.stats, self.seconds + result.seconds

    def totals(self) -> dict[int, int]:
        """Return the total of each candidate whose classes are all solved (INF: one cannot be finished)."""
        out = {}
        for row in self.candidates() or []:
            solved = self.values.get(row, {})
            children = self.children(row)
            if all(c in solved for c, _ in children):
                out[row] = int(self.group.size) + sum(solved[c].value for c, _ in children)
        return out

    def best(self) -> tuple[int, int]:
        """Return (least total, its row) over the candidates; (INF, -1) where none finishes."""
        totals = self.totals()
        row = min(totals, key=lambda g: (totals[g], self.order.index(g)), default=-1)
        value = min(totals[row], INF) if row >= 0 else INF
        return value, (row if value < INF else -1)

    def tree(self) -> Nodes:
        """Return the class subtree below its best candidate (parent -1, feedback the class code)."""
        value, row = self.best()
        if row < 0:
            tried = self.candidates() or []
            raise RuntimeError(f"a class of {self.group.size} targets cannot be finished: " + (
                f"none of its first {len(tried)} guesses not refuted finishes it" if tried
                else "every guess is refuted"))
        nodes = Nodes()
        top = nodes.add(-1, self.code, 1, row, int(self.group.size))
        for child, _ in self.children(row):
            nodes.graft(self.values[row][child].nodes, top)
        nodes.subtree[top] = value
        return nodes


def probe_options(options: SearchOptions) -> SearchOptions:
    """Return the search options of the probes: the plan's, stopping at each node's first guess that
    finishes, every level widened through every guess (so that a refutation is a proof)."""
    return replace(options, first=True, widen=options.max_guesses + 1)
