"""The `deduce` command line: thin commands over the library; errors end as one line and exit 2."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

app = typer.Typer(help="Deduction-game solvers played from precomputed decision trees.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)

ERROR_EXIT = 2

Jobs = Annotated[int, typer.Option("--jobs", "-j", help="Parallel worker processes for tree building.")]
Force = Annotated[bool, typer.Option("--force", help="Rebuild even when the artifact is up to date.")]


@app.callback()
def main() -> None:
    """Deduction-game solvers played from precomputed decision trees."""


def fail(message: str) -> None:
    """Print a one-line error on stderr and exit with status 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(ERROR_EXIT)


@app.command()
def tables(
    games: Annotated[Optional[list[str]], typer.Argument(help="Games to rebuild (default: all).")] = None,
    jobs: Jobs = 2,
    force: Force = False,
) -> None:
    """Rebuild the feedback tables and decision trees under artifacts/ that are missing or stale."""
    from pipeline.build import build_all
    from solver.games import UnknownGameError

    try:
        build_all(games or None, jobs=jobs, force=force)
    except (UnknownGameError, ValueError) as err:
        fail(str(err))


if __name__ == "__main__":
    app()
