"""`make tables`: rebuild every stale artifact with a progress display, then the manifest."""
from __future__ import annotations

from solver import artifacts
from solver.games import VARIANTS, UnknownGameError

from pipeline.progress import console, make_progress
from pipeline.tables import build_table, table_games


def build_all(names: list[str] | None = None, jobs: int = 2, force: bool = False) -> None:
    """Build the tables (and trees) of `names` (default: every game) that are missing or stale."""
    for name in names or []:
        if name not in VARIANTS:
            raise UnknownGameError(f"unknown game {name!r}: choose from {', '.join(VARIANTS)}")
    with make_progress() as progress:
        for game in table_games(names):
            task = progress.add_task(f"table {game.key}", total=game.n_guesses)
            result = build_table(game, force=force, on_rows=lambda n, t=task: progress.advance(t, n))
            progress.update(task, completed=game.n_guesses,
                            description=f"table {game.key} " + (f"built in {result.seconds:.1f} s" if result.built else "up to date"))
    path = artifacts.write_manifest()
    console.print(f"manifest: {path}")
