"""Hints computed ahead: the `hint` ranking at every node of a tree and after each favourite opener of
the opener book (`solver.core.artifacts`, ``hints-*``).

A hint on the tree ranks the best guesses by their guesses to go, which takes the feedback kernels (the
cheap figures of every allowed guess) and the live search (the values of the guesses off the tree's
own): 0.6 s of a 1 s command. The ranking is a function of the state (`solver.analysis.scores.rank`
is sized by work, not time), so it is computed here once per state with two candidates or more (the
tree's nodes; the book's states after the openers people use, `opener_book.FAVOURITES`), with the
defaults a hint uses (DEFAULT_TOP guesses, the live budget), by the very function a hint calls
(`scores.ranking` with `ahead=False`); a hint on the tree then reads it (`scores.stored_ranking`).

    python -m pipeline.builders.hint_table wordle normal    # one variant; `make tables` builds them all

Build times per variant (seconds to a few minutes): the documentation's Trees page, "Hints computed ahead".
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Callable

import pyarrow as pa

from pipeline.builders.opener_book import FAVOURITES
from solver.analysis.scores import ranking
from solver.core.defaults import DEFAULT_TOP
from solver.analysis.walk import replay
from solver.core import artifacts
from solver.core.codeversion import advice_version
from solver.core.game import Game
from solver.core.registry import get_game
from solver.core.runtime import Solver, Tree, get_solver


def node_paths(tree: Tree) -> list[list[tuple[int, int]]]:
    """Return, per node of `tree`, the history of (guess row, feedback code) that reaches it."""
    paths: list[list[tuple[int, int]]] = [[]]
    for node in range(1, len(tree.parent)):  # a parent precedes its children (`artifacts.validate_tree`)
        parent = int(tree.parent[node])
        paths.append(paths[parent] + [(int(tree.guess[parent]), int(tree.feedback[node]))])
    return paths


def book_states(solver: Solver) -> list[tuple[int, int]]:
    """Return the (opener row, code) of the opener book's states after a favourite opener
    (`opener_book.FAVOURITES`) with two candidates or more, sorted; none after the tree's own first guess
    (those states are tree nodes)."""
    game, tree = solver.game, solver.tree
    favourites = {game.index_of(word) for word in FAVOURITES if word in game.labels} - {int(tree.guess[0])}
    return sorted(key for key, entry in solver.book.items() if key[0] in favourites and entry[1] >= 2)


def hints_table(solver: Solver, progress: Callable[[int, int], None] | None = None) -> pa.Table:
    """Return the hints of the solver's tree and opener book (schema `artifacts.HINTS_SCHEMA`), ranked by
    that solver as a hint ranks (its settings: the defaults for the shipped files); `progress(done, total)`
    after each state."""
    tree = solver.tree
    if tree is None:
        raise artifacts.MissingTableError(f"no usable tree for {solver.game.title}: build it first (`make tables`)")
    paths = node_paths(tree)
    states = [(-1, key, [key]) for key in book_states(solver)]
    states += [(node, (-1, -1), paths[node]) for node in range(len(tree.parent)) if tree.remaining[node] >= 2]
    columns: dict[str, list] = {field.name: [] for field in artifacts.HINTS_SCHEMA}
    for done, (node, (opener, code), history) in enumerate(states, start=1):
        ranked, note = ranking(replay(solver, history), DEFAULT_TOP, ahead=False)
        for r in ranked:
            s, to_go = r.scored, r.to_go
            for name, value in (("node", node), ("opener", opener), ("feedback", code), ("guess", s.row),
                                ("guess_text", s.label), ("to_go", to_go.expected),
                                ("worst", -1 if to_go.worst is None else to_go.worst), ("kind", to_go.kind),
                                ("source", to_go.source), ("lost", to_go.lost), ("lost_exact", to_go.lost_exact),
                                ("expected_left", s.expected), ("entropy", s.entropy),
                                ("possible", s.possible), ("solver", r.solver), ("note", note)):
                columns[name].append(value)
        if progress is not None:
            progress(done, len(states))
    return pa.table(columns, schema=artifacts.HINTS_SCHEMA)


def wanted(solver: Solver) -> dict[str, str]:
    """Return the metadata a current hints file of the solver's tree has: the ranking's settings, the
    tree's and the book's checksums and the advice version."""
    tree = solver.tree
    solver.book  # noqa: B018 - loads it (and its checksum)
    return {"top": str(DEFAULT_TOP), "budget": str(solver.budget),
            "tree_sha256": tree.metadata.get("content_sha256", "") if tree is not None else "",
            "book_sha256": solver.book_sha256, "advice_version": advice_version()}


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
    nodes = len(set(table.column("node").to_pylist()) - {-1})
    book = len(set(zip(table.column("opener").to_pylist(), table.column("feedback").to_pylist())) - {(-1, -1)})
    artifacts.write(artifacts.HINTS, game, table, {**expected, "nodes": nodes, "book_states": book,
                                                   "build_seconds": f"{seconds:.1f}"}, folder)
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
