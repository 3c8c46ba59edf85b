"""Hints computed ahead: the `hint` ranking at every node of a tree (`solver.core.artifacts`, ``hints-*``).

A hint on the tree ranks the best guesses by their guesses to go, which takes the feedback kernels (the
cheap figures of every allowed guess) and the live search (the values of the guesses off the tree's
own): 0.6 s of a 1 s command. The ranking is a function of the state (`solver.analysis.scores.rank`
is sized by work, not time), so it is computed here once per node with two candidates or more, with the
defaults a hint uses (DEFAULT_TOP guesses, the live budget), by the very function a hint calls
(`scores.ranking` with `ahead=False`); a hint on the tree then reads it (`scores.stored_ranking`).

    python -m pipeline.builders.hint_table wordle normal    # one variant; `make tables` builds them all

Measured (one process, 2 cores): Wordle 283 nodes in 8 s, Mastermind 230 in 6 s, Bulls and Cows 875
in 25 s.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Callable

import numpy as np
import pyarrow as pa

from solver.analysis.scores import DEFAULT_TOP, ranking
from solver.analysis.walk import replay
from solver.core import artifacts
from solver.core.codeversion import advice_version
from solver.core.game import Game
from solver.core.registry import get_game
from solver.core.runtime import Solver, Tree, get_solver


def node_paths(tree: Tree) -> list[list[tuple[int, int]]]:
    """Return, per node of `tree`, the history of (guess row, feedback code) that reaches it."""
    code_of = np.empty(len(tree.parent), dtype=np.int64)
    for key, child in tree.children.items():
        code_of[child] = key % tree.n_codes
    paths: list[list[tuple[int, int]]] = [[]]
    for node in range(1, len(tree.parent)):  # a parent precedes its children (`artifacts.validate_tree`)
        parent = int(tree.parent[node])
        paths.append(paths[parent] + [(int(tree.guess[parent]), int(code_of[node]))])
    return paths


def hints_table(solver: Solver, progress: Callable[[int, int], None] | None = None) -> pa.Table:
    """Return the hints of the solver's tree (schema `artifacts.HINTS_SCHEMA`), ranked by that solver as a
    hint ranks (its settings: the defaults for the shipped files); `progress(done, total)` after each node."""
    tree = solver.tree
    if tree is None:
        raise artifacts.MissingTableError(f"no usable tree for {solver.game.title}: build it first (`make tables`)")
    nodes = [node for node in range(len(tree.parent)) if tree.remaining[node] >= 2]
    paths = node_paths(tree)
    columns: dict[str, list] = {field.name: [] for field in artifacts.HINTS_SCHEMA}
    for done, node in enumerate(nodes, start=1):
        ranked, note = ranking(replay(solver, paths[node]), DEFAULT_TOP, ahead=False)
        for r in ranked:
            s, to_go = r.scored, r.to_go
            for name, value in (("node", node), ("guess", s.row), ("guess_text", s.label), ("to_go", to_go.expected),
                                ("worst", -1 if to_go.worst is None else to_go.worst), ("kind", to_go.kind),
                                ("source", to_go.source), ("expected_left", s.expected), ("entropy", s.entropy),
                                ("possible", s.possible), ("solver", r.solver), ("note", note)):
                columns[name].append(value)
        if progress is not None:
            progress(done, len(nodes))
    return pa.table(columns, schema=artifacts.HINTS_SCHEMA)


def wanted(solver: Solver) -> dict[str, str]:
    """Return the metadata a current hints file of the solver's tree has: the ranking's settings, the
    tree's checksum and the advice version."""
    tree = solver.tree
    return {"top": str(DEFAULT_TOP), "budget": str(solver.budget),
            "tree_sha256": tree.metadata.get("content_sha256", "") if tree is not None else "",
            "advice_version": advice_version()}


def build_hints(game: Game, force: bool = False, progress: Callable[[int, int], None] | None = None,
                folder: Path | None = None) -> tuple[bool, float]:
    """Write the hints of the game's tree unless current (`force`: always); return (built, wall seconds).
    With `folder`, of the tree there, into it (by a solver of its own); else of the shared solver's tree
    (`get_solver`), into `artifacts.artifacts_dir`."""
    began = time.perf_counter()
    solver = get_solver(game) if folder is None else Solver(game, folder=folder)
    expected = wanted(solver)
    if not force and artifacts.is_current(artifacts.HINTS, game, folder, **expected):
        return False, 0.0
    table = hints_table(solver, progress)
    seconds = time.perf_counter() - began
    nodes = len(set(table.column("node").to_pylist()))
    artifacts.write(artifacts.HINTS, game, table, {**expected, "nodes": nodes, "build_seconds": f"{seconds:.1f}"},
                    folder)
    return True, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description="Compute the hints of a game variant's tree.")
    parser.add_argument("game")
    parser.add_argument("variant", nargs="?")
    parser.add_argument("--force", action="store_true", help="rebuild even if current")
    args = parser.parse_args()
    game = get_game(args.game, args.variant)
    built, seconds = build_hints(game, args.force)
    print(f"hints {game.key}: " + (f"built in {seconds:.1f} s" if built else "up to date"))


if __name__ == "__main__":
    main()
