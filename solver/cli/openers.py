"""`openers --exact`: the exact total guesses of chosen openers, or of the best ones by score.

The search itself is `pipeline.builders.opener_ranking` (the exact branch and bound of `pipeline.builders`),
imported on this path only. Openers come from `--words` (comma-separated guesses, any case) or
are the `--top` best by the greedy criterion (expected remaining candidates). `--all` ranks every
allowed opener (or a `--slice` of them) with a shared cut-off into the ranking file
(`rank_all`). `--backend dask` sends the tasks to a Dask cluster (`pipeline.cluster`).
"""
from __future__ import annotations

from typing import Callable

from solver.analysis.notation import parse_guess
from solver.analysis import values
from solver.analysis.values import opener_ranking, ordinal
from solver.analysis.walk import start_state
from solver.core.bounded_input import excerpt
from solver.core.runtime import get_solver
from solver.core.game import Game
from solver.core.progress import make_progress
from solver.core.registry import UsageError


def check_options(exact: bool, cutoff: int | None, every: bool = False, words: str | None = None,
                  selection: str | None = None, backend: str = "local", scheduler: str | None = None) -> None:
    """Raise ValueError for option combinations that make no sense."""
    if cutoff is not None and not exact:
        raise UsageError("--cutoff needs --exact")
    if cutoff is not None and cutoff < 1:
        raise UsageError(f"--cutoff must be at least 1, got {cutoff}")
    if every and not exact:
        raise UsageError("--all needs --exact")
    if every and words is not None:
        raise UsageError("--all and --words exclude each other")
    if selection is not None and not every:
        raise UsageError("--slice needs --all")
    if backend != "local" and not exact:
        raise UsageError("--backend needs --exact (the other rankings run in this process)")
    if selection is not None:
        parse_slice(selection)
    from pipeline.cluster import check_options as check_backend  # defers asyncio and multiprocessing (start-up)

    check_backend(backend, scheduler)


def parse_slice(text: str) -> tuple[int, int, int]:
    """Return (best, random, seed) of a slice ``best:N,random:M[,seed:S]`` (each part optional, at
    least one of best and random): the N best openers by the cheap score plus M of the others drawn
    with seed S (default `pipeline.builders.opener_ranking.SLICE_SEED`)."""
    seed = 20261130  # pipeline.builders.opener_ranking.SLICE_SEED (not imported here: no Numba for a usage error)
    values = {"best": 0, "random": 0, "seed": seed}
    seen = set()
    for part in text.split(","):
        name, _, value = part.strip().partition(":")
        name, value = name.strip().lower(), value.strip()
        if name not in values or name in seen or not value.isdigit():
            raise UsageError(f"--slice takes best:N,random:M (and seed:S), got {excerpt(text)}")
        seen.add(name)
        values[name] = int(value)
    if values["best"] + values["random"] < 1:
        raise UsageError(f"--slice selects no opener: {excerpt(text)}")
    return values["best"], values["random"], values["seed"]


def parse_words(game: Game, text: str) -> list[int]:
    """Return the guess rows of comma-separated guesses (any case, duplicates dropped, order kept);
    ValueError naming every one that is not an allowed guess of `game`."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        raise UsageError("--words names no guess")
    rows, bad = [], []
    for part in parts:
        try:
            rows.append(parse_guess(game, part))
        except ValueError:
            bad.append(part.upper())
    if bad:
        what = "words" if game.name == "wordle" else "guesses"
        raise ValueError(f"unknown {what} for {game.title} in --words: {', '.join(bad)}")
    return list(dict.fromkeys(rows))


def exact(game: Game, rows: list[int] | None, top: int, cutoff: int | None = None, jobs: int = 2,
          progress: Callable | None = None, backend: str = "local", scheduler: str | None = None) -> tuple[list, set]:
    """Return (the `OpenerTotal`s of `rows` (default: the `top` best by score), best first; the rows
    answered from the ranking file). Their tasks run on `backend` (`pipeline.cluster`); an opener the
    ranking file holds exactly (or with a bound of at least `cutoff`) is not searched again."""
    # defers the pipeline (Numba, pyarrow, asyncio) to this command
    from pipeline.builders.opener_ranking import OpenerTotal, cheap_ranking, exact_openers, table_for
    from pipeline.cluster import open_backend  # defers asyncio and multiprocessing (start-up time)

    table = table_for(game)
    if rows is None:
        rows = cheap_ranking(game, table, top)
    held = opener_ranking(game)
    known = [OpenerTotal(row, game.labels[row], held[row][0], held[row][1], 0.0) for row in rows
             if row in held and (held[row][1] or (cutoff is not None and held[row][0] >= cutoff))]
    searched = [row for row in rows if row not in {r.row for r in known}]
    results = []
    if searched:
        with open_backend(backend, scheduler, jobs):
            results = exact_openers(game, table, searched, cutoff=cutoff, jobs=jobs, progress=progress)
    return sorted(results + known, key=lambda r: (r.total, not r.proven_exact, r.label)), {r.row for r in known}


def ranked_lines(game: Game, rows: list[int]) -> list[str]:
    """Return what the ranking file says of each of `rows` it holds, as every face shows an opener's value
    (`values.rate` at the start): its exact total, a proven lower bound, or that no tree opening with it
    finishes every answer within the guess limit (with the expected guesses of play going on past it);
    then how many of its openers are known to finish within the limit and how many cannot."""
    held = opener_ranking(game)
    limit = game.max_guesses
    shown = [row for row in rows if row in held]
    if not shown:
        return []
    rated = values.rate(start_state(get_solver(game)), shown, budget=0.0)
    out = []
    for row in shown:
        total, proven, _ = held[row]
        value = rated[row]
        if value.lost:
            out.append(f"  {game.labels[row]}: {value.limit_text(limit)} (proven), whatever is played after it; "
                       f"{value.text()} guesses a game playing on past it ({value.describe()})")
        else:
            what = "exact (the least total of a tree opening with it)" if proven else "a proven lower bound"
            out.append(f"  {game.labels[row]} {'' if proven else '>= '}{total} ({value.text()} a game): {what}")
    cannot = sum(total >= values.UNFINISHABLE for total, _, _ in held.values())
    exact = sum(proven for _, proven, _ in held.values())
    counts = (f"  of its {len(held)} openers, {exact} have an exact total (each finishes every answer within "
              f"{limit}), {cannot} are proven unable to guarantee {limit}, and the rest were cut off with a lower "
              "bound once they could not beat the best") if limit is not None else \
        f"  of its {len(held)} openers, {exact} have an exact total, the rest a lower bound"
    return ["In the exact opener ranking (deduce openers --exact --all):"] + out + [counts]


def rank_all(game: Game, keep: int = 1, cutoff: int | None = None, selection: str | None = None, jobs: int = 2,
             backend: str = "local", scheduler: str | None = None, show_progress: bool = False):
    """Rank every allowed opener (or the `selection`, a `--slice`) exactly with a shared cut-off
    (the `keep`-th best exact total so far, at most `cutoff`), best by the cheap score first, into
    the ranking file; resumes what the file holds. Return the `Ranking`."""
    # defers the pipeline (Numba, pyarrow, asyncio) to this command
    from pipeline.builders.opener_ranking import cheap_ranking, rank_openers, slice_rows, table_for
    from pipeline.cluster import open_backend  # defers asyncio and multiprocessing (start-up time)

    table = table_for(game)
    order = cheap_ranking(game, table, game.n_guesses)
    if selection is None:
        rows, described = order, "all"
    else:
        best, random, seed = parse_slice(selection)
        rows = slice_rows(order, best, random, seed)
        described = f"best:{best},random:{random},seed:{seed}"
    with open_backend(backend, scheduler, jobs), make_progress(show_progress, transient=True) as progress:
        task = progress.add_task(f"openers {game.title}", total=len(rows))
        best: list = []

        def advance(result, beta) -> None:
            if result.proven_exact and (not best or (result.total, result.label) < (best[0].total, best[0].label)):
                best[:] = [result]
            shown = f"best {line(game, best[0])}" if best else "no exact total yet"
            progress.update(task, advance=1, description=f"openers {game.title}: {shown}, "
                                                         f"cut-off {beta if beta is not None else 'none'}")

        ranking = rank_openers(game, table, rows, keep=keep, cutoff=cutoff, progress=advance, selection=described,
                               started=lambda todo, there: progress.update(task, completed=there))
        progress.update(task, completed=len(rows))
    return ranking


def summary(ranking) -> str:
    """Return the line saying where the ranking went and what it holds."""
    exact = sum(r.proven_exact for r in ranking.results)
    return (f"wrote {ranking.path}: {len(ranking.results)} openers, {exact} exact "
            f"({ranking.evaluated} evaluated now, {ranking.skipped} already there)")


def line(game: Game, result) -> str:
    """Return one opener's line: ``SALET 7920``, ``TRACE >= 7921`` (cut off), or that no tree
    opening with it finishes within the guess limit."""
    if not result.finishes:
        # defers the pipeline (Numba, pyarrow) to this command
        from pipeline.builders.opener_ranking import default_options

        limit = default_options(game).max_guesses
        return (f"{result.label}: cannot guarantee {limit} (proven): "
                f"at least 1 answer needs a {ordinal(limit + 1)} guess")
    return f"{result.label} {'' if result.proven_exact else '>= '}{result.total}"


def lines(game: Game, results: list, held: set = frozenset()) -> list[str]:
    """Return the output lines of `exact` results, one per opener; those of the rows `held` (read
    from the ranking file) say so."""
    return [line(game, r) + (" (from the opener ranking)" if r.row in held else "") for r in results]
