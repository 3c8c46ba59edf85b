"""One opener's exact total on several cores: its classes searched by threads with a shared cut-off.

The kernel runs without the GIL, so plain threads run it in parallel, each with a workspace of its
own and one memo between them (its entries checked on reading: `kernel.memo_find`): a `Searcher` per
thread, kept by the caller's `ThreadedTotals` so that what the memo learns from one opener helps the
next. The classes are handed out largest first. With a cut-off `beta`, each class is searched with
what is left of it: `beta` minus the exact values of the classes done and the lower bounds of the
others; the first class that reaches its share proves the total at least `beta` (a fail-soft bound,
as the one-thread search returns), and the threads stop taking classes.

In prove mode a thread that finishes a class first joins one that has been searched for JOIN_AFTER
seconds (else takes the next class; with none left, joins any still searched): the threads then take
that class's guesses in turn from shared counters (`kernel.search`'s joint mode), cutting off at the
best total either has found. One class can hold most of an opener's time (SALET's RRRGR, 107 targets:
0.57 s of 0.84 s, nearly all of it refuting guesses worse than its best, which takes 9 ms), and the
other thread would otherwise wait for it.
"""
from __future__ import annotations

import threading
import time

import numpy as np

from solver.core.search import kernel
from solver.core.search.searcher import INF, Searcher
from solver.core.search.watch import run_watched


class ThreadedTotals:
    """Opener totals of `searcher`'s game searched by `threads` threads (`searcher` is the first)."""

    def __init__(self, searcher: Searcher, threads: int = 2):
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        # one memo: what a thread proves spares the others (entries checked on reading, kernel.memo_find)
        self.searchers = [searcher] + [Searcher(searcher.game, searcher.table, searcher.options, memo_of=searcher)
                                       for _ in range(threads - 1)]

    def _run_each(self, work) -> list:
        """Return [work(searcher)] over the searchers, each in a thread of its own (`watch.run_watched`):
        Ctrl-C (or another error) stops the threads' kernels at once and is re-raised."""
        try:
            return run_watched(self.searchers, work)
        finally:
            for searcher in self.searchers:
                searcher.ws.stats[kernel.S_ABORTED] = 0

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
        running: list[_Joint] = []
        lock = threading.Lock()
        joins = first.options.proves  # top-k's widening decides on a thread's own guesses

        def take() -> _Joint | None:
            """Return the class to search next (joined or new), None when none is left."""
            while True:
                with lock:
                    if state["failed"]:
                        return None
                    joinable = [job for job in running if job.left() > 0]
                    long = [job for job in joinable if job.age() >= JOIN_AFTER]
                    if long or (joinable and state["next"] >= len(classes)):
                        job = max(long, key=_Joint.age) if long else max(joinable, key=_Joint.left)
                    elif state["next"] < len(classes):
                        i = state["next"]
                        state["next"] += 1
                        code, group = classes[i]
                        state["open"] -= bound[i]
                        share = limit - state["done"] - state["open"]  # what this class may cost
                        job = _Joint(code, group, share, active=joins)
                        running.append(job)
                    elif not any(job.starting() for job in running):
                        return None
                    else:
                        job = None
                    if job is not None:
                        job.threads += 1
                        return job
                time.sleep(JOIN_WAIT)  # a class still making its first pass may have guesses to share

        def work(searcher: Searcher) -> None:
            while (job := take()) is not None:
                guesses, ghash = searcher.allowed_after(((row, job.code),))
                value, _ = searcher.value(job.group, r - 1, guesses, ghash, beta=job.beta, shared=job.shared)
                with lock:
                    job.values.append(value)
                    job.threads -= 1
                    if job.threads:
                        continue  # the last thread of the class counts it
                    running.remove(job)
                    total = job.group.size + min(min(job.values), INF)
                    state["done"] += total
                    if total >= job.share:
                        state["failed"] = True

        self._run_each(work)
        return min(state["done"] + state["open"], INF)


JOIN_WAIT = 0.001  # seconds an idle thread waits for a class to reach its guesses
JOIN_AFTER = 0.02  # seconds after which a thread joins a running class rather than take a new one


class _Joint:
    """A class of the opener searched by one thread or several together: its cut-off, the kernel's
    shared counters (`kernel.NEXT`...; inactive: each thread searches the whole class alone, which
    only the first does) and each thread's value (their least is the class's, fail-soft)."""

    def __init__(self, code: int, group: np.ndarray, share: int, active: bool):
        self.code, self.group, self.share = code, group, share
        self.beta = max(share - group.size, 0)
        self.shared = np.zeros(kernel.N_SHARED, np.int64)
        self.shared[kernel.BEST] = self.beta
        self.shared[kernel.ACTIVE] = int(active)
        self.threads = 0
        self.values: list[int] = []
        self.began = time.perf_counter()

    def age(self) -> float:
        """Return the seconds since its search began."""
        return time.perf_counter() - self.began

    def starting(self) -> bool:
        """Whether its search has not reached its guesses yet (nor ended)."""
        return bool(self.shared[kernel.ACTIVE]) and self.shared[kernel.COUNT] == 0 and not self.values

    def left(self) -> int:
        """Return how many of its guesses no thread has taken yet."""
        if not self.shared[kernel.ACTIVE] or self.shared[kernel.STOP]:
            return 0
        return int(self.shared[kernel.COUNT] - self.shared[kernel.NEXT])
