"""Progress bars on standard error, shared by the CLI's long commands and the pipeline's builds."""
from __future__ import annotations

import logging
import sys
import threading
from contextlib import contextmanager
from functools import cache
from typing import Callable, Iterator

log = logging.getLogger(__name__)
FIRST_CALL_NOTICE = 0.4  # seconds a kernel's first call may take before the user is told why (a load from its cache: 0.1-0.3 s); with the imports before it, told within 1 s of the start
_TOLD = threading.Event()  # the notice is given once a process
_TOLD_LOCK = threading.Lock()


@cache
def stderr_console():
    """Return the one rich Console on stderr that every bar and build message of a process shares."""
    from rich.console import Console  # defers rich (0.1 s) until a bar is shown

    return Console(stderr=True)


def make_progress(enabled: bool = True, transient: bool = False):
    """Return a rich Progress display on the shared stderr console, inert when `enabled` is False;
    `transient`: removed when it ends, else kept on screen."""
    from rich.progress import (  # defers rich (0.1 s) until a bar is shown
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )  # defers rich (0.1 s) until the terminal UI is drawn

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=stderr_console(), disable=not enabled, transient=transient)


@contextmanager
def terminal_progress(description: str, total: int | None) -> Iterator[Callable[[int], None]]:
    """Yield `advance(n)`: a bar on stderr while it is a terminal (removed at the end), else nothing."""
    if not sys.stderr.isatty():
        yield lambda n=1: None
        return
    with make_progress(transient=True) as progress:
        task = progress.add_task(description, total=total)
        yield lambda n=1: progress.advance(task, n)


def claim_notice() -> bool:
    """Return True to the first caller in this process (it gives the one notice on preparing kernels:
    `first_call_notice`, or the background warm-up's, `solver.core.coldstart`), False to later ones."""
    with _TOLD_LOCK:
        if _TOLD.is_set():
            return False
        _TOLD.set()
        return True


@contextmanager
def first_call_notice(dispatcher, what: str, after: float = FIRST_CALL_NOTICE) -> Iterator[None]:
    """Run the block (a call of the Numba `dispatcher`); if it is the dispatcher's first call in this
    process and it takes more than `after` seconds (Numba compiling the kernel: its cache is empty after
    an install, or stale after an upgrade), log a WARNING saying what is being prepared and for how
    long, while the call goes on, once a process (the CLI prints it as ``warning: ...`` on stderr). Only
    when standard error is a terminal: a person waits there; a script's output stays as it was."""
    if getattr(dispatcher, "signatures", True) or not sys.stderr.isatty():  # loaded already (or no Numba),
        yield  # or no person at a terminal to tell: the output of scripts and pipes stays what it was
        return
    done = threading.Event()

    def tell() -> None:
        if not done.wait(after) and claim_notice():
            log.warning("preparing %s for this machine: Numba compiles them once after an install or an upgrade "
                        "(seconds for a game's, about a minute for the exact search's); later runs start at once",
                        what)

    threading.Thread(target=tell, name="first-call-notice", daemon=True).start()
    try:
        yield
    finally:
        done.set()

