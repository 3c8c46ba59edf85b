"""The hints computed ahead (`pipeline.builders.hint_table`): the committed files fit their trees, a hint
on the tree reads them (and loads no kernel), and what they hold is what the ranking computes now."""
from __future__ import annotations

import logging
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.builders.hint_table import book_states, build_hints, node_paths, wanted
from pipeline.plans import NO_HINTS
from pipeline.restamp import committed_artifacts
from solver.analysis import values
from solver.analysis.scores import ranking, stored_ranking
from solver.analysis.values import ahead_source
from solver.core.defaults import DEFAULT_TOP
from solver.analysis.walk import replay
from solver.core import artifacts
from solver.core.codeversion import advice_version
from solver.core.registry import get_game
from solver.core.runtime import Solver, get_solver

ROOT = Path(__file__).resolve().parent.parent
TREES = [path for path in committed_artifacts() if path.name.startswith("tree-")
         and tuple(path.stem.split("-", 2)[1:]) not in NO_HINTS]


def _figures(ranked) -> list[tuple]:
    """The figures of a ranking, a value's source as read back from a ranking computed ahead (`ahead_source`:
    the live search's is "ahead" there)."""
    return [(r.scored.row, r.scored.expected, r.scored.entropy, r.scored.possible, r.solver, r.to_go.expected,
             r.to_go.worst, r.to_go.kind, ahead_source(r.to_go.source), r.to_go.lost, r.to_go.lost_exact)
            for r in ranked]


def _tree_only(tmp_path: Path, game) -> Path:
    """Return a folder holding the game's committed tree and nothing else (no hints: a solver there ranks live)."""
    shutil.copy(artifacts.artifact_path(artifacts.TREE, game), tmp_path)
    return tmp_path


@pytest.mark.parametrize("tree", TREES, ids=lambda path: path.name)
def test_every_committed_tree_has_current_hints(tree):
    """After a tree is rebuilt, or the ranking's sources change:
    `python -m pipeline.builders.hint_table GAME VARIANT`."""
    meta = artifacts.read_metadata(tree)
    game = get_game(meta["game"], meta["variant"])
    hints = artifacts.artifact_path(artifacts.HINTS, game, tree.parent)
    rows, hint_meta = artifacts.read_hints(game, tree.parent)
    assert hint_meta["tree_sha256"] == meta["content_sha256"], f"{hints.name} belongs to another tree: rebuild it"
    assert hint_meta["advice_version"] == advice_version(), f"{hints.name} was ranked by other sources: rebuild it"
    assert (hint_meta["top"], hint_meta["budget"]) == (str(DEFAULT_TOP), str(Solver(game).budget))
    remaining = pq.read_table(tree, columns=["remaining"]).column(0).to_numpy()
    assert sorted(set(rows.node.tolist()) - {-1}) == [n for n in range(remaining.size) if remaining[n] >= 2]


@pytest.mark.slow  # seconds a node of live ranking
@pytest.mark.parametrize("name, variant, sample", [("wordle", "normal", 8), ("wordle", "hard", 4),
                                                   ("mastermind", "default", 4), ("cards", "n2", 4)])
def test_the_stored_ranking_is_the_one_computed_now(tmp_path, name, variant, sample):
    """The root, the largest class of the first guess and random nodes (fixed seed): the shipped ranking
    equals the live one of a solver that has the tree but no hints."""
    game = get_game(name, variant)
    shipped = get_solver(game)
    live = Solver(game, folder=_tree_only(tmp_path, game))
    tree = shipped.tree
    paths = node_paths(tree)
    ranked_nodes = [n for n in range(len(paths)) if tree.remaining[n] >= 2]
    largest = max((n for n in ranked_nodes if tree.parent[n] == 0), key=lambda n: tree.remaining[n])
    nodes = [0, largest] + random.Random(7).sample(ranked_nodes, sample)
    for node in nodes:
        stored = stored_ranking(replay(shipped, paths[node]), DEFAULT_TOP)
        assert stored is not None, f"node {node} has no stored ranking"
        now = ranking(replay(live, paths[node]), DEFAULT_TOP, ahead=False)
        assert (_figures(stored[0]), stored[1]) == (_figures(now[0]), now[1]), f"node {node}"


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["normal", "hard"])
def test_the_stored_ranking_after_a_favourite_opener_is_the_one_computed_now(tmp_path, variant):
    """Book states (CRANE=RYRGR and random ones, fixed seed): the shipped ranking equals the live one of a
    solver with the tree and the book but no hints."""
    game = get_game("wordle", variant)
    shipped = get_solver(game)
    folder = _tree_only(tmp_path, game)
    shutil.copy(artifacts.artifact_path(artifacts.BOOK, game), folder)
    live = Solver(game, folder=folder)
    states = book_states(shipped)
    assert len(states) > 1000
    crane = (game.index_of("CRANE"), game.encode("RYRGR"))
    for key in [crane] + random.Random(3).sample(states, 6):
        stored = stored_ranking(replay(shipped, [key]), DEFAULT_TOP)
        assert stored is not None, f"{key} has no stored ranking"
        now = ranking(replay(live, [key]), DEFAULT_TOP, ahead=False)
        assert (_figures(stored[0]), stored[1]) == (_figures(now[0]), now[1]), f"{key}"


def test_a_ranking_other_than_the_stored_ones_is_computed():
    game = get_game("wordle", "normal")
    solver = get_solver(game)
    state = replay(solver, [(game.index_of("SALET"), game.encode("RRRRR"))])
    assert stored_ranking(state, DEFAULT_TOP) is not None
    assert stored_ranking(state, DEFAULT_TOP + 1) is None  # another --top
    assert stored_ranking(state, DEFAULT_TOP, budget=solver.budget * 2) is None  # another --budget
    their = game.index_of("THEIR")
    off = replay(solver, [(game.index_of("CRANE"), game.encode("RYRGR")),
                          (their, game.code(their, game.index_of("ROUND")))])
    assert off.node is None and stored_ranking(off, DEFAULT_TOP) is None  # two guesses in, off the tree
    unusual = replay(solver, [(game.index_of("QAJAQ"), game.encode("RRRRR"))])
    assert stored_ranking(unusual, DEFAULT_TOP) is None  # not a favourite opener
    assert len(ranking(state, DEFAULT_TOP + 1)[0]) >= DEFAULT_TOP + 1


@pytest.mark.parametrize("argv", [["hint", "wordle", "SALET=RRRRR"], ["hint", "wordle", "SALET=RRRRR", "--hard"],
                                  ["hint", "wordle", "CRANE=RYRGR"], ["hint", "wordle", "AUDIO=YRRRR", "--hard"],
                                  ["review", "wordle", "SALET", "CRONY", "--answer", "CRONY"]])
def test_a_hint_or_review_on_the_tree_or_after_a_favourite_opener_loads_no_kernel(argv):
    code = ("import sys; from typer.testing import CliRunner; from solver.cli.main import app; "
            f"result = CliRunner().invoke(app, {argv!r}); print(result.output); "
            "assert result.exit_code == 0, result.output; "
            "assert 'numba' not in sys.modules, 'Numba was loaded'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(the solver's guess)" in done.stdout or "Review of wordle" in done.stdout


def _rewrite(path: Path, change) -> None:
    table = pq.read_table(path)
    meta = {k.decode(): v.decode() for k, v in table.schema.metadata.items()}
    table, meta = change(table, meta)
    pq.write_table(table.replace_schema_metadata(meta), path)


def test_book_states_of_another_book_are_not_used(tmp_path):
    game = get_game("wordle", "normal")
    folder = _tree_only(tmp_path, game)
    for kind in (artifacts.HINTS, artifacts.BOOK):
        shutil.copy(artifacts.artifact_path(kind, game), folder)
    crane = [(game.index_of("CRANE"), game.encode("RYRGR"))]
    assert stored_ranking(replay(Solver(game, folder=folder), crane), DEFAULT_TOP) is not None
    _rewrite(artifacts.artifact_path(artifacts.HINTS, game, folder),
             lambda table, meta: (table, {**meta, "book_sha256": "0" * 64}))
    other = Solver(game, folder=folder)
    assert stored_ranking(replay(other, crane), DEFAULT_TOP) is None
    assert stored_ranking(replay(other, [(game.index_of("SALET"), game.encode("RRRRR"))]), DEFAULT_TOP) is not None


def test_hints_of_another_tree_are_not_used(tmp_path):
    game = get_game("wordle", "normal")
    folder = _tree_only(tmp_path, game)
    shutil.copy(artifacts.artifact_path(artifacts.HINTS, game), folder)
    solver = Solver(game, folder=folder)
    state = replay(solver, [(game.index_of("SALET"), game.encode("RRRRR"))])
    assert stored_ranking(state, DEFAULT_TOP) is not None
    _rewrite(artifacts.artifact_path(artifacts.HINTS, game, folder),
             lambda table, meta: (table, {**meta, "tree_sha256": "0" * 64}))
    values._read_hints_at.cache_clear()
    other = Solver(game, folder=folder)
    assert stored_ranking(replay(other, state.history), DEFAULT_TOP) is None
    assert values.hints_of(other) is None


def test_a_bad_hints_file_is_refused_and_the_hint_ranks_live(tmp_path, caplog):
    game = get_game("wordle", "normal")
    folder = _tree_only(tmp_path, game)
    shutil.copy(artifacts.artifact_path(artifacts.HINTS, game), folder)
    path = artifacts.artifact_path(artifacts.HINTS, game, folder)

    def wrong_text(table, meta):  # a guess whose text is another word's, checksum made to match
        texts = table.column("guess_text").to_pylist()
        texts[0] = "ZZZZZ"
        table = table.set_column(table.schema.get_field_index("guess_text"), "guess_text", pa.array(texts))
        return table, {**meta, "content_sha256": artifacts.content_digest(table)}

    _rewrite(path, wrong_text)
    with pytest.raises(artifacts.ArtifactError, match="guess_text"):
        artifacts.read_hints(game, folder)
    values._read_hints_at.cache_clear()
    solver = Solver(game, folder=folder)
    state = replay(solver, [(game.index_of("SALET"), game.encode("RRRRR"))])
    with caplog.at_level(logging.WARNING):
        assert stored_ranking(state, DEFAULT_TOP) is None
    assert "hints computed ahead not used" in caplog.text
    assert ranking(state, 2)[0][0].solver  # still ranked, live


@pytest.mark.slow  # 12 s: ranks every node of a tree
def test_the_builder_writes_current_hints_that_the_solver_reads(tmp_path):
    game = get_game("cards", "n2")
    folder = _tree_only(tmp_path, game)
    built, _ = build_hints(game, folder=folder)
    assert built and build_hints(game, folder=folder) == (False, 0.0)  # current: not built again
    solver = Solver(game, folder=folder)
    _, meta = artifacts.read_hints(game, folder)
    assert {key: meta[key] for key in wanted(solver)} == wanted(solver)
    paths = node_paths(solver.tree)
    node = max(range(1, len(paths)), key=lambda n: solver.tree.remaining[n])
    assert stored_ranking(replay(solver, paths[node]), DEFAULT_TOP) is not None
