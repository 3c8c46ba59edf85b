"""One opener's exact total on several cores: its classes searched by threads with a shared cut-off.

The kernel runs without the GIL, so plain threads run it in parallel, each with a workspace (and a
memo) of its own: a `Searcher` per thread, kept by the caller's `ThreadedTotals` so that what the
memos learn from one opener helps the next. The classes are handed out largest first, each thread
taking the next as it finishes one. With a cut-off `beta`, each class is searched with what is left
of it: `beta` minus the exact values of the classes done and the lower bounds of the others; the
first class that reaches its share proves the total at least `beta` (a fail-soft bound, as the
one-thread search returns), and the threads stop taking classes.
"""
from __future__ import annotations

import threading

import numpy as np

from solver.core.search import kernel
from solver.core.search.engine import INF, Searcher
from solver.core.search.watch import run_watched


class ThreadedTotals:
    """Opener totals of `searcher`'s game searched by `threads` threads (`searcher` is the first)."""

    def __init__(self, searcher: Searcher, threads: int = 2):
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        self.searchers = [searcher] + [Searcher(searcher.game, searcher.table, searcher.options)
                                       for _ in range(threads - 1)]

    def _run(self, work) -> None:
        """Run `work(searcher)` in one thread per searcher (`watch.run_watched`): Ctrl-C (or another
        error) stops the threads' kernels at once and is re-raised."""
        try:
            run_watched(self.searchers, work)
        finally:
            for searcher in self.searchers:
                searcher.ws.stats[kernel.ABORTED] = 0

    def opener_total(self, row: int, r: int | None = None, beta: int | None = None) -> int:
        """Return the least total over every target of a tree opening with guess `row` (within `r`
        guesses): exact below `beta`, else a proven lower bound of at least `beta`."""
        first = self.searchers[0]
        r = first.options.max_guesses if r is None else r
        limit = INF + 1 if beta is None else int(beta)
        positions = np.arange(first.game.n_targets, dtype=np.int64)
        classes = sorted(first.split(row, positions), key=lambda item: -item[1].size)
        wins = positions.size - sum(group.size for _, group in classes)  # 1 guess each (0 or 1 target)
        lbr = first.ws.lb[r - 1]
        bound = [int(group.size + lbr[group.size]) for _, group in classes]  # size: the opener itself
        state = {"next": 0, "done": wins, "open": sum(bound), "failed": False}
        lock = threading.Lock()

        def work(searcher: Searcher) -> None:
            while True:
                with lock:
                    if state["failed"] or state["next"] >= len(classes):
                        return
                    i = state["next"]
                    state["next"] += 1
                    code, group = classes[i]
                    state["open"] -= bound[i]
                    share = limit - state["done"] - state["open"]  # what this class may cost
                guesses, ghash = searcher.allowed_after(((row, code),))
                value, _ = searcher.value(group, r - 1, guesses, ghash, beta=max(share - group.size, 0))
                total = group.size + min(value, INF)
                with lock:
                    state["done"] += total
                    if total >= share:
                        state["failed"] = True

        self._run(work)
        return min(state["done"] + state["open"], INF)
