"""SIGTERM as an exception: one handler for every face (`deduce`, `wordle`).

A process ended by SIGTERM outright skips its `finally` clauses (a state file's temporary copy is
left, the terminal not restored, the worker pools leak semaphores) and its status is -15. With
`raise_on_sigterm` the signal raises `Terminated` where the main thread is instead, so that every
`finally` runs, and the face ends with TERMINATED_EXIT, as a shell reports a process ended by it.
"""
from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

TERMINATED_EXIT = 128 + signal.SIGTERM  # 143


class Terminated(BaseException):
    """SIGTERM arrived (`raise_on_sigterm`); a BaseException, so that `except Exception` lets it through."""


def _terminate(signum, frame) -> None:
    raise Terminated(signum)


def raise_on_sigterm() -> bool:
    """Make SIGTERM raise `Terminated` in the main thread; return whether it does (False outside the
    main thread, where the signal's handling stays as it is)."""
    try:
        signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread
        return False
    return True


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """Within the block, SIGTERM raises `Terminated` (`raise_on_sigterm`); the handler before it is
    restored after."""
    previous = signal.getsignal(signal.SIGTERM)
    installed = raise_on_sigterm()
    try:
        yield
    finally:
        if installed and previous is not None:  # None: a handler not installed from Python
            signal.signal(signal.SIGTERM, previous)
