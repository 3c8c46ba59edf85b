"""Admission control: the web server's limits, and the bounded pool where live computations run.

A request is priced before it is queued (`api`): one whose answer is read from a precomputed tree, or
that only narrows candidates and checks a guess, costs milliseconds and is answered at once; one that
leaves the tree (or ranks alternatives off it, reviews a game, chooses a guess for several boards) runs
live work within a budget. The live ones run in `LivePool`: at most `live_workers` at once, at most
`live_queue` more waiting, and none admitted whose expected wait (the work ahead of it, each kind of
request priced at the running mean of its last computations, over the workers) passes MAX_WAIT; past
that a request is refused at once (`Busy`: 503 with a Retry-After of that expected wait). Waiting
requests are served fairly between clients (their address): a free worker takes the request of the
client that had the least live work lately (its seconds, halved every USAGE_HALF_LIFE), the oldest
first among equals, so one client's burst cannot hold the others' back; a request still waiting
MAX_WAIT after it came is refused then (503), not left to wait longer. A computation whose client goes
away is cancelled (`solver.core.search.live.Cancel`): its searches stop at their next node and it starts
no other, so the worker is free again at once; one still waiting is dropped. Budgets shrink under load:
a computation that starts with requests waiting behind it, or refused lately (their count halved every
REFUSED_HALF_LIFE), gets a share of its budget (`share`: half with one such request per worker, a
quarter with three, an eighth at most), so that the pool serves more of them; its answer says what it
is (an estimate, not proven) and is not memoised as the request's answer.

The pool also keeps the server's resident memory down on glibc (`Heap`): at most HEAP_ARENAS malloc
arenas (each thread would get its own, up to 8 a core, each keeping the memory its frees left), and the
free memory at the top of the heap handed back to the system (`malloc_trim`) whenever the pool falls
idle: a live computation's tables are hundreds of MB at their peak, and the allocator keeps them
otherwise. The server's live pool (`release_when_idle`) also drops the sub-games the live search keeps
(up to 80 MB of tables, `solver.core.search.live.SEARCHER_BYTES`) once it has been idle IDLE_RELEASE
seconds: after a burst the server goes back near its size at start. Measured by `make bench` (`servemem`).

The pool's limits (`solver.core.server_limits.Limits`, shared with `deduce serve`) are read from the
DEDUCE_WEB_* variables (`Limits.from_env`), where `deduce serve` puts its options, so that
`uvicorn --factory solver.web.app:create_app` honours them too.
"""
from __future__ import annotations

import asyncio
import ctypes
import itertools
import logging
import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from solver.core.search.live import Cancel, Stopped, drop_kept_subgames

SMOOTHING = 0.2  # weight of the last computation's seconds in the running mean of its kind (its price)
MAX_WAIT = 5.0  # seconds: no request is admitted to wait longer than this for a worker, nor kept waiting longer
SHARES = (1.0, 0.5, 0.25, 0.125)  # of the budget a computation gets as requests wait behind it (`share`)
USAGE_HALF_LIFE = 30.0  # seconds: how fast a client's record of live work fades (the fair share's memory)
REFUSED_HALF_LIFE = 10.0  # seconds: how fast the count of requests refused lately fades (the load's memory)
IDLE_RELEASE = 3.0  # seconds idle after which the live pool drops the kept sub-games (`release_when_idle`)
HEAP_ARENAS = 2  # glibc malloc arenas of the server (M_ARENA_MAX)
# the quick lane: a pool of its own for the quick answers (no budget: the greedy rule) of the live requests
# this pool refuses (a guess, several boards); its own refusals are the 503s
QUICK_WORKERS, QUICK_QUEUE = 1, 4
QUICK_SECONDS = 0.05  # a quick answer's price before any has run
QUICK_WAIT = 2.0  # seconds: at most this long in the quick lane's queue
M_ARENA_MAX = -8  # glibc's mallopt parameter number
log = logging.getLogger(__name__)


class Heap:
    """glibc's allocator, when the process has it (else every method does nothing)."""

    def __init__(self):
        try:
            self._libc = ctypes.CDLL("libc.so.6")
            self._libc.malloc_trim  # noqa: B018 - glibc only (musl has no malloc_trim)
        except (OSError, AttributeError) as err:
            log.debug("no glibc allocator (%s): the heap is left as it is", err)
            self._libc = None

    def limit_arenas(self, count: int) -> bool:
        """Return whether the allocator now makes at most `count` arenas (threads share them)."""
        return bool(self._libc is not None and self._libc.mallopt(M_ARENA_MAX, count))

    def trim(self) -> bool:
        """Return whether free memory was handed back to the system."""
        return bool(self._libc is not None and self._libc.malloc_trim(0))


_SHARE = threading.local()  # .value: the share of its budget the computation of this thread gets


def share() -> float:
    """Return the share of its budget the live computation running in this thread gets (1 outside the pool)."""
    return getattr(_SHARE, "value", 1.0)


def budget(seconds: float) -> float:
    """Return the budget, in seconds of work, of a computation of `seconds` running in this thread."""
    return seconds * share()


def share_for(waiting: int, workers: int) -> float:
    """Return the share of its budget a computation gets when it starts with `waiting` requests behind it:
    the largest of SHARES within 1 / (1 + waiting / workers)."""
    fair = 1.0 / (1.0 + waiting / workers)
    return next((s for s in SHARES if s <= fair + 1e-9), SHARES[-1])


class Busy(Exception):
    """The live pool is full: answered 503 with a Retry-After of `retry_after` seconds."""

    def __init__(self, admitted: int, retry_after: int, waited: float | None = None):
        what = (f"no live worker came free within {waited:.2g} s" if waited is not None else
                f"the server is busy with {admitted} live computations (running or waiting)")
        super().__init__(f"{what}: retry in {retry_after} s; answers from the precomputed trees are still served")
        self.retry_after = retry_after


@dataclass(eq=False)
class _Job:
    """A live computation admitted: waiting until a worker runs it, then running."""

    compute: Callable[[], Any]
    cancel: Cancel
    client: str
    kind: str
    price: float  # seconds expected (the running mean of its kind when it came)
    came: float  # time.monotonic() when admitted
    order: int  # arrival order: the oldest first among a client's equals
    future: Future = field(default_factory=Future)
    started: float | None = None
    share: float = 1.0  # of its budget (`share_for`, when it started)


class LivePool:
    """At most `workers` live computations at once in threads of their own, at most `queue` waiting, none
    admitted to wait more than `max_wait` seconds (the module's docstring); past that `run` raises Busy at
    once. A computation counts until it ends, even when the request that asked for it has gone (its
    thread cannot be stopped), so the bound holds for the CPU."""

    def __init__(self, workers: int, queue: int, seconds: float = 1.0, max_wait: float = MAX_WAIT,
                 release_when_idle: bool = False):
        self.workers, self.queue, self.max_wait = workers, queue, max_wait
        self.seconds = seconds  # a computation's price before any of its kind has run (the solvers' budget)
        self._prices: dict[str, float] = {}  # kind -> running mean of seconds
        self._usage: dict[str, tuple[float, float]] = {}  # client -> (seconds of live work, when last updated)
        self._waiting: list[_Job] = []
        self._running: set[_Job] = set()
        self._order = itertools.count()
        self._refused = (0.0, time.monotonic())  # (requests refused lately, when last updated)
        lock = threading.RLock()
        self._ready = threading.Condition(lock)  # a job came, for the workers
        self._fell_idle = threading.Condition(lock)  # the pool fell idle, for `_release_when_idle`
        self._heap = Heap()
        self._heap.limit_arenas(HEAP_ARENAS)  # before the pool's threads exist
        self._threads = [threading.Thread(target=self._work, name=f"deduce-live-{i}", daemon=True)
                         for i in range(workers)]
        self._idle_since: float | None = None  # when the pool last fell idle (None: busy, or released since)
        if release_when_idle:
            self._threads.append(threading.Thread(target=self._release_when_idle, daemon=True,
                                                  name=f"deduce-live-idle-{id(self):x}"))
        for thread in self._threads:
            thread.start()

    @property
    def admitted(self) -> int:
        """Return the computations running or waiting."""
        with self._ready:
            return len(self._waiting) + len(self._running)

    def price(self, kind: str) -> float:
        """Return the seconds a computation of `kind` is expected to take (the mean of the last ones)."""
        return self._prices.get(kind, self.seconds)

    def expected_wait(self) -> float:
        """Return the seconds a computation admitted now would wait for a worker: the work left of those
        running (each at least a tenth of its price) and the price of those waiting, over the workers
        (0 while a worker is free). Call it holding the lock."""
        if len(self._running) < self.workers and not self._waiting:
            return 0.0
        now = time.monotonic()
        ahead = sum(max(job.price - (now - job.started), 0.1 * job.price) for job in self._running)
        ahead += sum(job.price for job in self._waiting)
        return ahead / self.workers

    def retry_after(self, wait: float) -> int:
        """Return the whole seconds after which to ask again: when the work now ahead should be done."""
        return max(1, math.ceil(wait))

    async def run(self, compute: Callable[[], Any], cancel: Cancel | None = None, client: str = "",
                  kind: str = "live") -> Any:
        """Return compute() run in the pool (its live work answering to `cancel`) for `client` (an address:
        the fair share's unit); Busy when `workers + queue` computations are admitted, when the expected
        wait passes `max_wait`, or when no worker took it within `max_wait`."""
        with self._ready:
            wait = self.expected_wait()
            admitted = len(self._waiting) + len(self._running)
            price = self.price(kind)
            if admitted >= self.workers + self.queue or (wait > 0 and wait + price > self.max_wait):
                self._refuse()
                raise Busy(admitted, self.retry_after(wait))
            job = _Job(compute, cancel or Cancel(), client, kind, price, time.monotonic(), next(self._order))
            self._waiting.append(job)
            self._ready.notify()
        answer = asyncio.wrap_future(job.future)
        try:
            return await asyncio.wait_for(asyncio.shield(answer), self.max_wait)
        except TimeoutError:
            with self._ready:
                if job in self._waiting:  # no worker took it in time: refused now, not kept waiting
                    self._waiting.remove(job)
                    self._refuse()
                    raise Busy(0, self.retry_after(self.expected_wait()), self.max_wait) from None
            return await answer  # it runs: within its budget

    def _refused_lately(self, now: float) -> float:
        count, when = self._refused
        return count * 0.5 ** ((now - when) / REFUSED_HALF_LIFE)

    def _refuse(self) -> None:
        """Count a refusal (holding the lock)."""
        now = time.monotonic()
        self._refused = (self._refused_lately(now) + 1.0, now)

    def _usage_of(self, client: str, now: float) -> float:
        seconds, when = self._usage.get(client, (0.0, now))
        return seconds * 0.5 ** ((now - when) / USAGE_HALF_LIFE)

    def _next(self) -> _Job:
        """Return the waiting job to run next (the client with the least recent live work, then the oldest),
        waiting for one; the jobs cancelled or past `max_wait` meanwhile are answered and dropped. Call it
        holding the lock."""
        while True:
            while not self._waiting:
                self._ready.wait()
            now = time.monotonic()
            for job in list(self._waiting):
                late = now - job.came > self.max_wait
                if job.cancel.cancelled.is_set() or late:
                    self._waiting.remove(job)
                    job.future.set_exception(Stopped("the request was cancelled before it started") if not late
                                             else Busy(0, self.retry_after(self.expected_wait()), now - job.came))
            if self._waiting:
                job = min(self._waiting, key=lambda j: (self._usage_of(j.client, now), j.order))
                self._waiting.remove(job)
                job.started = now
                job.share = share_for(len(self._waiting) + int(self._refused_lately(now)), self.workers)
                self._running.add(job)
                return job

    def _release_when_idle(self) -> None:
        """Drop the kept sub-games and hand the memory back once the pool has stayed idle IDLE_RELEASE seconds
        (a burst's tables would otherwise stay with the server until the next burst)."""
        while True:
            with self._ready:
                while True:
                    idle = not self._running and not self._waiting and self._idle_since is not None
                    left = IDLE_RELEASE - (time.monotonic() - self._idle_since) if idle else None
                    if left is not None and left <= 0:
                        self._idle_since = None
                        break
                    self._fell_idle.wait(left)
            if drop_kept_subgames():
                self._heap.trim()

    def _work(self) -> None:
        while True:
            with self._ready:
                job = self._next()
            began = time.perf_counter()
            _SHARE.value = job.share
            try:
                with job.cancel.scope():
                    result = job.compute()
            except BaseException as err:  # noqa: BLE001 - handed to the request, which answers it
                outcome: tuple[bool, Any] = (False, err)
            else:
                outcome = (True, result)
            seconds = time.perf_counter() - began
            _SHARE.value = 1.0
            with self._ready:
                self._running.discard(job)
                mean = self._prices.get(job.kind)
                self._prices[job.kind] = seconds if mean is None else mean + SMOOTHING * (seconds - mean)
                now = time.monotonic()
                self._usage[job.client] = (self._usage_of(job.client, now) + seconds, now)
                if len(self._usage) > 4096:  # forget the clients whose share has faded
                    self._usage = {c: u for c, u in self._usage.items() if self._usage_of(c, now) > 0.01}
                idle = not self._running and not self._waiting
            if outcome[0]:
                job.future.set_result(outcome[1])
            else:
                job.future.set_exception(outcome[1])
            del job, outcome
            if idle:
                self._heap.trim()
                with self._ready:
                    self._idle_since = time.monotonic()
                    self._fell_idle.notify()
