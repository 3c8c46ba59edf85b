"""`deduce prove GAME`: a proof campaign (`pipeline.campaign`), resumable, on this machine or on Dask."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from solver.cli.errors import domain_errors, terminated_as_exit
from solver.cli.lazy import lazy_module
from solver.cli.options import BackendName, Jobs, Scheduler, Variant
from solver.core.registry import UsageError, get_game

notation = lazy_module("solver.analysis.notation")  # loaded on first use: `deduce --help` needs no NumPy


def prove(
    game: Annotated[str, typer.Argument(metavar="GAME", show_default=False,
                                        help="battleship, cards, mastermind, bulls or wordle.")],
    variant: Variant = None,
    every_opener: Annotated[bool, typer.Option(
        "--every-opener", help="Bound the game's optimum: one task per first guess up to symmetry (a lower bound, "
                               "cut off at the best known total), instead of one per class of the opener.")] = False,
    opener: Annotated[Optional[str], typer.Option(
        "--opener", metavar="GUESS", show_default=False,
        help="The first guess whose classes are proven [default: the committed tree's].")] = None,
    seconds: Annotated[float, typer.Option(
        "--seconds-per-task", metavar="SECONDS", min=0.001,
        help="Each task's time limit; a class not proven in it spends a tenth more raising its lower bound.")] = 60.0,
    cutoff: Annotated[Optional[int], typer.Option(
        "--cutoff", metavar="TOTAL", min=1, show_default=False,
        help="With --every-opener: the total each first guess's bound is raised to [default: the committed "
             "tree's, the best known]; a lower one settles sooner (the tree's total / 1.01: a bound within "
             "1%).")] = None,
    sample: Annotated[Optional[int], typer.Option(
        "--sample", metavar="N", min=1, show_default=False,
        help="Run only N tasks spread over the campaign (to measure the cost of the rest).")] = None,
    tasks_named: Annotated[Optional[list[str]], typer.Option(
        "--task", metavar="NAME", show_default=False,
        help="Run only this task (repeatable): a class's feedback as 0,0,1 or a first guess as 'A1 A2 A3'; "
             "the report names them.")] = None,
    jobs: Jobs = 2,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
) -> None:
    """Prove a game's tree optimal for its opener, class by class, or bound the game's optimum over every
    first guess (--every-opener); each task's result is saved as it comes to
    artifacts/campaign-GAME-VARIANT-KIND.jsonl, so a run stopped and started again skips what is done (a
    task that timed out runs again when given more --seconds-per-task). Progress and the time left go to
    stderr; the findings, in the words of what was proven, to stdout (docs, "Trees", "Proof campaign").

    Example: `deduce prove battleship --seconds-per-task 120`
    """
    from pipeline import campaign  # defers the pipeline (Numba, pyarrow) to this command
    from pipeline.cluster import check_options, open_backend  # defers asyncio and multiprocessing (start-up time)

    with terminated_as_exit(), domain_errors():
        check_options(backend, scheduler)
        chosen = get_game(game, variant)
        if every_opener and opener is not None:
            raise UsageError("--opener is for one opener's classes: drop it or --every-opener")
        if cutoff is not None and not every_opener:
            raise UsageError("--cutoff needs --every-opener")
        row = notation.parse_guess(chosen, opener) if opener is not None else None
        kind = "game" if every_opener else "opener"

        def show(progress: "campaign.Progress") -> None:
            line = f"prove: {progress.done}/{progress.total} tasks, {progress.elapsed:.0f} s, " \
                   f"about {progress.left:.0f} s left (at most {progress.at_most:.0f} s)"
            if progress.result is not None:
                r = progress.result
                value = r.value if r.value is not None else f">= {r.lower}"
                line += f" ({r.task}: {r.targets} targets, {r.status}, {value}, {r.seconds:.1f} s)"
            typer.echo(line, err=True)

        with open_backend(backend, scheduler, jobs) as place:
            result, tasks = campaign.run(chosen, kind, row, seconds, place.jobs_for(jobs), cutoff=cutoff,
                                         count=sample, on_progress=show,
                                         only=tuple(tasks_named) if tasks_named else None)
        for line in campaign.report(chosen, result, tasks):
            typer.echo(line)
