"""A shared rich progress display for the pipeline's builds."""
from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

console = Console(stderr=True)


def make_progress(enabled: bool = True) -> Progress:
    """Return a Progress display on stderr (inert when `enabled` is False)."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not enabled,
        transient=False,
    )
