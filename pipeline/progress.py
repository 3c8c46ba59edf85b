"""The pipeline's progress display: the CLI's (`solver.commands.progress`) on one stderr console."""
from __future__ import annotations

from rich.console import Console

from solver.commands import progress as _progress

console = Console(stderr=True)  # the builds' bars and their messages share it


def make_progress(enabled: bool = True):
    """Return a Progress display on stderr (inert when `enabled` is False), kept after it ends."""
    return _progress.make_progress(enabled, console=console)
