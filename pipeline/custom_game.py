"""`deduce tables --game module:function`: a user's own game, loaded from their module and built
where its solver finds it."""
from __future__ import annotations

import importlib
import inspect
import os
import sys
from pathlib import Path
from types import ModuleType

from pipeline.builders.greedy_tree import GreedyOptions, build_greedy_tree
from solver.core import artifacts
from solver.core.bounded_input import excerpt
from solver.core.game import Game
from solver.core.progress import make_progress
from solver.core.registry import UsageError, build_command, on_request, registered
from solver.core.scoring import feedback_table


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

        built, seconds = build_greedy_tree(game, feedback_table(game), GreedyOptions(jobs=jobs), force=force,
                                           progress=advance)
        status = f"built in {seconds:.1f} s" if built else "up to date"
        progress.update(task, description=f"tree {game.key}: {status}")
    return artifacts.artifact_path(artifacts.TREE, game)
