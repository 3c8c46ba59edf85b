"""Kernel searches that Ctrl-C stops at once: run in daemon threads while the calling thread waits.

The kernel holds no GIL and looks at no signal, so a search on the main thread would hear Ctrl-C only
when it returns, minutes later. `run_watched` runs each search in a thread of its own and waits,
waking every WATCH_SECONDS; on Ctrl-C (or an error of one search) it lowers every workspace's work
limit to 1, which each kernel checks at every node, and re-raises. A thread that has not stopped after
STOP_SECONDS is still compiling the kernel (a fresh install's first search: nothing interrupts the
compiler); the interrupt does not wait for it. It stays its searcher's `straggler`, with the work
limit kept at 1 so that its search stops at its first node, and the searcher's next run waits for it.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable, Protocol, Sequence

from solver.core.search import kernel

NO_LIMIT = 1 << 62  # a work limit never reached: the check is on, for another thread to lower
WATCH_SECONDS = 0.2  # how often the waiting thread wakes up to hear Ctrl-C
STOP_SECONDS = 2.0  # how long an interrupt waits for the stopped searches before it goes on


class Watched(Protocol):
    ws: kernel.Workspace
    straggler: threading.Thread | None


def wait_for_straggler(searcher: Watched) -> None:
    """Wait for the search an interrupt left running on `searcher` (if any), then restore its limit."""
    thread = searcher.straggler
    if thread is not None:
        thread.join()
        searcher.straggler = None
        searcher.ws.params[kernel.WORK_LIMIT] = thread.limit_before
        searcher.ws.stats[kernel.ABORTED] = 0


def run_watched(searchers: Sequence[Watched], work: Callable[[Watched], Any]) -> list:
    """Return [work(s) for s in searchers], each run in a daemon thread; the first error (Ctrl-C
    included, in the waiting thread) stops them all within STOP_SECONDS and is re-raised."""
    for searcher in searchers:
        wait_for_straggler(searcher)
    limits = [int(s.ws.params[kernel.WORK_LIMIT]) for s in searchers]
    for searcher, limit in zip(searchers, limits):
        if limit == 0:  # the per-node check on, never reached unless lowered below
            searcher.ws.params[kernel.WORK_LIMIT] = NO_LIMIT
    outcomes: list[dict] = [{} for _ in searchers]

    def run(searcher: Watched, outcome: dict) -> None:
        try:
            outcome["value"] = work(searcher)
        except BaseException as err:  # noqa: BLE001 - handed to the waiting thread
            outcome["error"] = err

    threads = [threading.Thread(target=run, args=(s, o), name="exact-search", daemon=True)
               for s, o in zip(searchers, outcomes)]
    for thread in threads:
        thread.start()
    try:
        while any(t.is_alive() for t in threads):
            if any("error" in o for o in outcomes):
                break
            for thread in threads:
                thread.join(WATCH_SECONDS / len(threads))
        errors = [o["error"] for o in outcomes if "error" in o]
        if errors:
            raise errors[0]
    except BaseException:
        for searcher in searchers:
            searcher.ws.params[kernel.WORK_LIMIT] = 1
        deadline = time.monotonic() + STOP_SECONDS
        for searcher, thread, limit in zip(searchers, threads, limits):
            thread.join(max(deadline - time.monotonic(), 0.0))
            if thread.is_alive():
                thread.limit_before = limit
                searcher.straggler = thread
            else:
                searcher.ws.params[kernel.WORK_LIMIT] = limit
                searcher.ws.stats[kernel.ABORTED] = 0
        raise
    for searcher, limit in zip(searchers, limits):
        searcher.ws.params[kernel.WORK_LIMIT] = limit  # ABORTED stays: a search that reached its limit
    return [o["value"] for o in outcomes]
