"""Admission control: the web server's limits, and the bounded pool where live computations run.

A request whose answer is read from a precomputed tree costs milliseconds; one that leaves the tree
(or ranks alternatives, or reviews a game) runs the live search for up to the solver's budget. The live
ones run in `LivePool`: at most `live_workers` at once, at most `live_queue` more waiting; past that a
request is refused at once (`Busy`: 503 with Retry-After) instead of queueing behind work it would wait
seconds for. A computation whose client goes away is cancelled (`solver.core.search.live.Cancel`): its
searches stop at their next node and it starts no other, so the worker is free again at once. Tree
answers never enter the pool, so live work cannot starve them (`api` decides which is which, from
`service.on_tree`).

The pool also keeps the server's resident memory down on glibc (`Heap`): at most HEAP_ARENAS malloc
arenas (each thread would get its own, up to 8 a core, each keeping the memory its frees left), and the
free memory at the top of the heap handed back to the system (`malloc_trim`) whenever the pool falls
idle: a live computation's tables are hundreds of MB at their peak, and the allocator keeps them
otherwise. Measured by `make bench` (`servemem`).

The limits are read from the environment (`Limits.from_env`), where `deduce serve` puts its options, so
that `uvicorn --factory solver.web.app:create_app` honours them too:

    DEDUCE_WEB_LIVE_WORKERS   live computations at once (default: the CPU count)
    DEDUCE_WEB_LIVE_QUEUE     live requests waiting for a worker (default: 2 x the workers); more: 503
    DEDUCE_WEB_HEADER_TIMEOUT seconds for a request's headers to arrive (`server.Protocol`; default 10)
    DEDUCE_WEB_BODY_TIMEOUT   seconds for a request's body to arrive, else 408 (`app.BodyGuard`; default 10)
"""
from __future__ import annotations

import asyncio
import ctypes
import logging
import math
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from solver.core.search.live import Cancel, Stopped

ENV = "DEDUCE_WEB_"  # the prefix of the variables
QUEUE_PER_WORKER = 2  # the default queue: this many live requests waiting per worker
SMOOTHING = 0.2  # weight of the last computation's seconds in the running mean that Retry-After uses
HEADER_TIMEOUT = 10.0  # seconds
BODY_TIMEOUT = 10.0  # seconds
HEAP_ARENAS = 2  # glibc malloc arenas of the server (M_ARENA_MAX)
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


def _cpus() -> int:
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Limits:
    """The limits of one server process (see the module's docstring)."""

    live_workers: int = field(default_factory=_cpus)
    live_queue: int | None = None  # None: QUEUE_PER_WORKER x live_workers
    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT

    def __post_init__(self) -> None:
        if self.live_queue is None:
            object.__setattr__(self, "live_queue", QUEUE_PER_WORKER * self.live_workers)
        if self.live_workers < 1 or self.live_queue < 0:
            raise ValueError(f"live workers must be at least 1 and the queue at least 0, not {self.live_workers} "
                             f"and {self.live_queue}")
        if not (0 < self.header_timeout < math.inf and 0 < self.body_timeout < math.inf):
            raise ValueError(f"timeouts must be positive, finite seconds, not {self.header_timeout} and "
                             f"{self.body_timeout}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Limits":
        """Return the limits the DEDUCE_WEB_* variables set (the defaults for those unset);
        ValueError naming a variable that is not a number."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name, kind in (("live_workers", int), ("live_queue", int), ("header_timeout", float),
                           ("body_timeout", float)):
            text = environ.get(ENV + name.upper())
            if text is None or not text.strip():
                continue
            try:
                values[name] = kind(text)
            except ValueError:
                what = "a whole number" if kind is int else "a number of seconds"
                raise ValueError(f"{ENV + name.upper()} must be {what}, not {text[:40]!r}") from None
        return cls(**values)

    def environ(self) -> dict[str, str]:
        """Return the variables that give these limits (what `deduce serve` exports)."""
        return {ENV + name.upper(): str(getattr(self, name))
                for name in ("live_workers", "live_queue", "header_timeout", "body_timeout")}


class Busy(Exception):
    """The live pool is full: answered 503 with a Retry-After of `retry_after` seconds."""

    def __init__(self, admitted: int, retry_after: int):
        super().__init__(f"the server is busy with {admitted} live computations (running or waiting): retry in "
                         f"{retry_after} s; answers from the precomputed trees are still served")
        self.retry_after = retry_after


class LivePool:
    """At most `workers` live computations at once in threads of their own, at most `queue` waiting;
    past that `run` raises Busy at once. A computation counts until it ends, even when the request
    that asked for it has gone (its thread cannot be stopped), so the bound holds for the CPU."""

    def __init__(self, workers: int, queue: int, seconds: float = 1.0):
        self.workers, self.queue = workers, queue
        self.seconds = seconds  # a computation's running mean of seconds (at first: the solvers' budget)
        self.admitted = 0  # running or waiting
        self._lock = threading.Lock()
        self._heap = Heap()
        self._heap.limit_arenas(HEAP_ARENAS)  # before the pool's threads exist
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="deduce-live")

    def retry_after(self, admitted: int) -> int:
        """Return the seconds after which to ask again: about when the work admitted now is done, at
        the mean pace of the last computations."""
        return max(1, math.ceil(admitted / self.workers * self.seconds))

    async def run(self, compute: Callable[[], Any], cancel: Cancel | None = None) -> Any:
        """Return compute() run in the pool (its live work answering to `cancel`); Busy when `workers +
        queue` computations are admitted."""
        with self._lock:
            if self.admitted >= self.workers + self.queue:
                raise Busy(self.admitted, self.retry_after(self.admitted))
            self.admitted += 1
        try:
            future = self._executor.submit(self._timed, compute, cancel or Cancel())
        except BaseException:
            self._release()
            raise
        future.add_done_callback(self._release)
        return await asyncio.wrap_future(future)

    def _timed(self, compute: Callable[[], Any], cancel: Cancel) -> Any:
        began = time.perf_counter()
        try:
            if cancel.cancelled.is_set():  # its client left while it waited: not started at all
                raise Stopped("the request was cancelled before it started")
            with cancel.scope():
                return compute()
        finally:
            seconds = time.perf_counter() - began
            with self._lock:
                self.seconds += SMOOTHING * (seconds - self.seconds)

    def _release(self, _: Any = None) -> None:
        with self._lock:
            self.admitted -= 1
            idle = self.admitted == 0
        if idle:
            self._heap.trim()
