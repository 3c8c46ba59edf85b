"""Progress bars on standard error, shared by the CLI's long commands and the pipeline's builds."""
from __future__ import annotations

import sys
from contextlib import contextmanager
from functools import cache
from typing import Callable, Iterator


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
