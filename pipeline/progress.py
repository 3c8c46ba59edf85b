"""The pipeline's progress display: `solver.core.progress` on one stderr console shared by the builds."""
from __future__ import annotations

from rich.console import Console

from solver.core import progress as _progress

console = Console(stderr=True)  # the builds' bars and their messages share it


def make_progress(enabled: bool = True):
    """Return a Progress display on stderr (inert when `enabled` is False), kept after it ends."""
    return _progress.make_progress(enabled, console=console)
