"""Progress bars on standard error, shared by the CLI's long commands and the pipeline's builds; and the one
notice a process gives when Numba must compile kernels before it can answer (`first_call_notice`)."""
from __future__ import annotations

import logging
import sys
import threading
import weakref
from contextlib import contextmanager
from functools import cache
from typing import Callable, Iterator

from solver.core.kernel_cache import must_compile

log = logging.getLogger(__name__)
_TOLD = threading.Event()  # the notice is given once a process
_TOLD_LOCK = threading.Lock()
_BEFORE: list[weakref.WeakMethod] = []  # what runs before the notice is given (`before_notice`)

# the kernels a notice names, and how long compiling them takes (measured on a 2-core machine: the game's
# table and scoring kernels 2.6 s, the exact search's 40-60 s for 8-bit tables and more for 16-bit ones,
# the several-boards look-ahead's 10 s)
GAME_KERNELS = "the game's kernels"
SEARCH_KERNELS = "the exact search's kernels"
BOARDS_KERNELS = "the several-boards look-ahead's kernels"
COMPILE_TIMES = {GAME_KERNELS: "seconds", SEARCH_KERNELS: "about a minute", BOARDS_KERNELS: "about 10 s"}


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
    """Return True to the first caller in this process (it gives the one notice on compiling kernels:
    `tell_compiling`, or the background warm-up's, `solver.core.coldstart`), False to later ones."""
    with _TOLD_LOCK:
        if _TOLD.is_set():
            return False
        _TOLD.set()
        return True


def before_notice(hook: Callable[[], object]) -> None:
    """Have `hook()` run before `tell_compiling` gives this process's notice: a bound method, held weakly
    (gone with its object). The stand-in of a command at a terminal (`coldstart.ColdStart.cold`) gives its
    own notice then, when the exact search's kernels are missing: they compile in the background."""
    _BEFORE[:] = [weakref.WeakMethod(hook)]


def tell_compiling(what: str, then: str = "") -> bool:
    """Log, once a process, a WARNING that `what` (a key of COMPILE_TIMES) is being compiled for this
    machine, and for how long (`then`: what may follow it, appended to the time); the CLI prints it as one
    ``warning: ...`` line on stderr, with a terminal or without. Return whether it was given now."""
    hook = _BEFORE[0]() if _BEFORE else None
    if hook is not None and not _TOLD.is_set():
        hook()  # may give the notice itself
    if not claim_notice():
        return False
    log.warning("compiling %s for this machine, once after an install or an upgrade (%s%s); later commands "
                "load them at once", what, COMPILE_TIMES[what], then)
    return True


def first_call_notice(dispatcher, what: str, args: tuple, then: Callable[[], str] | None = None) -> None:
    """Before calling the Numba `dispatcher` with `args`: when the call must compile it (`must_compile`:
    its cache is empty after an install, or stale after an upgrade), give the process's one notice at once
    (`tell_compiling`: `what` is compiled, and how long; `then()`, asked only then, what may follow)."""
    if not _TOLD.is_set() and must_compile(dispatcher, args):
        tell_compiling(what, then() if then is not None else "")
