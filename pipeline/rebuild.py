"""`make tables`: rebuild every stale table, tree, opener book and hints file with a progress display, then the
manifest; each tree is brought up to its committed proof campaigns (`pipeline.campaign.apply`: the root classes
proven better grafted, what is proven recorded in its metadata) before its hints are ranked."""
from __future__ import annotations

import time

import numpy as np

from pipeline import campaign
from pipeline.builders.exact_tree import build_exact_tree
from pipeline.builders.feedback_tables import build_table, load_table, table_games
from pipeline.builders.greedy_tree import build_greedy_tree
from pipeline.builders.hint_table import build_hints
from pipeline.builders.opener_book import BOOK_VARIANTS, BookPlan, build_book
from pipeline.builders.pooled_tree import build_pooled_tree
from pipeline.cleanup import remove_stale_build_temporaries
from pipeline.cluster import open_backend
from pipeline.plans import EXACT_PLANS, NO_HINTS, POOLED_PLANS, table_of, tree_options
from solver.core import artifacts
from solver.core.game import Game
from solver.core.progress import make_progress, stderr_console
from solver.core.registry import VARIANTS, UnknownGameError, UsageError, all_variants, get_game, size_variants
from solver.core.search.live import ExactLive
from solver.games import boards
from solver.games.wordlists import check_length


def build_all(names: list[str] | None = None, jobs: int = 2, force: bool = False, sizes: list[int] | None = None,
              backend: str = "local", scheduler: str | None = None) -> None:
    """Build the tables, trees, (Wordle) opener books and hints of `names` (default: every game) that are missing
    or stale; with `sizes`, those of Wordle with words of these lengths instead (built on request only).

    `backend` "dask" sends the trees' tasks to the Dask scheduler at `scheduler` (None: a LocalCluster
    of `jobs` workers); "local" keeps the current backend (`pipeline.cluster`, by default local).
    """
    if backend != "local" or scheduler is not None:
        with open_backend(backend, scheduler, jobs) as where:
            return build_all(names, where.jobs_for(jobs), force, sizes)
    for name in names or []:
        if name not in VARIANTS:
            raise UnknownGameError(f"unknown game {name!r}: choose from {', '.join(VARIANTS)}")
    if sizes:
        if names and names != ["wordle"]:
            raise UsageError("--size applies to wordle only")
        for size in sizes:
            check_length(size)
        variants = [pair for size in sizes for pair in size_variants(size)]
        tables = [get_game(*table_of(*pair)) for pair in variants if pair[1].startswith("normal")]
    else:
        variants = [(name, variant) for name, variant in all_variants() if not names or name in names]
        tables = table_games(names)
    remove_stale_build_temporaries()  # what a killed build left in artifacts/ (pipeline.cleanup)
    with make_progress() as progress:
        for game in tables:
            task = progress.add_task(f"table {game.key}", total=game.n_guesses)
            result = build_table(game, force=force, on_rows=lambda n, t=task: progress.advance(t, n))
            status = f"built in {result.seconds:.1f} s" if result.built else "up to date"
            progress.update(task, completed=game.n_guesses, description=f"table {game.key}: {status}")
        for name, variant in variants:
            game = get_game(name, variant)
            task = progress.add_task(f"tree {game.key}", total=None)

            def advance(step, total, task=task):
                if total is not None:
                    progress.update(task, total=total)
                progress.advance(task, step)

            pooled = POOLED_PLANS.get((name, variant))
            if pooled is not None:
                built, seconds = build_pooled_tree(game, pooled, jobs, force=force, progress=advance)
                status = f"built in {seconds:.1f} s" if built else "up to date"
                progress.update(task, total=1, completed=1, description=f"tree {game.key}: {status}")
                continue
            table_key = table_of(name, variant)
            plan = EXACT_PLANS.get((name, variant))
            if plan is not None:
                if not force and artifacts.is_current(artifacts.TREE, game, strategy=plan.describe()):
                    progress.update(task, total=1, completed=1, description=f"tree {game.key}: up to date")
                    continue
                _, seconds = build_exact_tree(game, load_table(get_game(*table_key)), plan, jobs, force=True,
                                              progress=advance)
                progress.update(task, description=f"tree {game.key}: built in {seconds:.1f} s")
                continue
            options = tree_options(name, variant, jobs)
            if not force and artifacts.is_current(artifacts.TREE, game, strategy=options.describe()):
                progress.update(task, total=1, completed=1, description=f"tree {game.key}: up to date")
                continue
            table = load_table(get_game(*table_key)) if table_key else None
            built, seconds = build_greedy_tree(game, table, options, force=True, progress=advance)
            del table
            progress.update(task, description=f"tree {game.key}: built in {seconds:.1f} s")
    with make_progress() as progress:  # each tree brought up to its proof campaigns, before its hints are ranked
        for name, variant in variants:
            game = get_game(name, variant)
            task = progress.add_task(f"proofs {game.key}", total=None)
            table_key = table_of(name, variant)
            done, grafted = campaign.apply(game, (lambda k=table_key: load_table(get_game(*k))) if table_key else None)
            status = (f"{len(grafted)} classes proven better grafted" if grafted else "recorded" if done
                      else "up to date")
            progress.update(task, total=1, completed=1, description=f"proofs {game.key}: {status}")
    books = [get_game(*pair) for pair in BOOK_VARIANTS if not sizes and pair in variants]
    if books:
        with make_progress() as progress:
            for game in books:
                task = progress.add_task(f"book {game.key}", total=None)

                def advance(done, total, task=task):
                    progress.update(task, completed=done, total=total)

                built, seconds = build_book(game, BookPlan(), jobs, force=force, progress=advance)
                progress.update(task, description=f"book {game.key}: " + (f"built in {seconds:.1f} s" if built
                                                                            else "up to date"))
    with make_progress() as progress:  # after the trees and the books: a hint's values may come from either
        for name, variant in (pair for pair in variants if pair not in NO_HINTS):
            game = get_game(name, variant)
            task = progress.add_task(f"hints {game.key}", total=None)

            def ranked(done, total, task=task):
                progress.update(task, completed=done, total=total)

            built, seconds = build_hints(game, force=force, progress=ranked)
            progress.update(task, description=f"hints {game.key}: " + (f"built in {seconds:.1f} s" if built
                                                                         else "up to date"))
    path = artifacts.write_manifest()
    stderr_console().print(f"manifest: {path}")
    warm_live_search([get_game(name, variant) for name, variant in variants])


def warm_live_search(games: list[Game]) -> None:
    """Load every kernel a command may run live on each game once (compiling them into Numba's cache the
    first time, about a minute in all for 8-bit tables and as much for 16-bit ones), so that no later
    command compiles: the game's, the exact search's and the greedy rule's (`ExactLive.warm`), and for a
    game played on several boards (Wordle in normal mode) the look-ahead's (`boards.lookahead_guess`)."""
    began = time.perf_counter()
    boards_game = next((game for game in games if game.name == "wordle" and game.allowed is None), None)
    with make_progress() as progress:  # a bar that moves (its clock ticks) while Numba compiles
        task = progress.add_task("live search kernels (compiled once after an install)",
                                 total=len(games) + (boards_game is not None))
        for game in games:
            progress.update(task, description=f"live search kernels: {game.key}")
            ExactLive(game).warm()
            progress.advance(task)
        if boards_game is not None:  # its kernels take any Wordle game's table: one game compiles them
            progress.update(task, description=f"live search kernels: {boards_game.key}, several boards")
            half = boards_game.n_targets // 2
            boards.lookahead_guess(boards_game, np.arange(min(30, half)), np.arange(half, min(half + 40, 2 * half)))
            progress.advance(task)
        progress.update(task, description="live search kernels")
    stderr_console().print(f"live search kernels: ready in {time.perf_counter() - began:.1f} s")
