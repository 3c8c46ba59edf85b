"""Unusable tree files: checked on load, one warning naming the file, then the live fallback.

Malformed trees are written with `artifacts.write` (so their metadata and content checksum are
right and only the tree checks can catch them), from a copy of the mastermind tree.
"""
from __future__ import annotations

import logging
import os
import pickle
import shutil
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from solver.cli.main import app
from solver.core import artifacts, runtime
from solver.core.runtime import Solver
from solver.games import mastermind
from tests import reference
from tests.helpers import logged_warnings

ROOT = Path(__file__).resolve().parents[1]
GAME = mastermind.game()
NAME = f"tree-{GAME.key}.parquet"
EXTRA = ("targets", "total_guesses", "max_guesses", "strategy")


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> tuple[pa.Table, dict[str, str]]:
    """The shipped mastermind tree (read from a copy): its columns, without metadata, and its metadata."""
    folder = tmp_path_factory.mktemp("good")
    shutil.copy(artifacts.artifact_path(artifacts.TREE, GAME), folder / NAME)
    table, meta = artifacts.read(artifacts.TREE, GAME, folder)
    return table.replace_schema_metadata(None), meta


def write_tree(folder: Path, table: pa.Table, meta: dict[str, str], **changes) -> Path:
    """Write `table` as the mastermind tree with `meta`'s tree keys, some changed (None: left out)."""
    extra = {key: meta[key] for key in EXTRA}
    extra.update(changes)
    return artifacts.write(artifacts.TREE, GAME, table, {k: v for k, v in extra.items() if v is not None}, folder)


def edit(name: str, change):
    """Return a mutation of a tree table: `change(values, table)` edits a copy of column `name`."""
    def apply(table: pa.Table) -> pa.Table:
        field = table.schema.field(name)
        values = table.column(name).to_numpy().copy()
        change(values, table)
        return table.set_column(table.schema.get_field_index(name), field, pa.array(values, type=field.type))
    return apply


def _children(table: pa.Table) -> np.ndarray:
    return np.bincount(table.column("parent").to_numpy()[1:], minlength=table.num_rows)


def leaf(table: pa.Table) -> int:
    """Return the first node without children."""
    return int(np.flatnonzero(_children(table) == 0)[0])


def siblings(table: pa.Table) -> tuple[int, int]:
    """Return two children of the same node."""
    parent = table.column("parent").to_numpy()
    first = int(np.flatnonzero(_children(table) >= 2)[0])
    a, b = np.flatnonzero(parent == first)[:2]
    return int(a), int(b)


def _set(index, value):
    def change(values, table):
        values[index(table) if callable(index) else index] = value(values, table) if callable(value) else value
    return change


def _add_column(table: pa.Table) -> pa.Table:
    return table.append_column("note", pa.array(["x"] * table.num_rows))


def _share_feedback(values, table):
    a, b = siblings(table)
    values[b] = values[a]


def _leaf_plus_one(values, table):
    values[leaf(table)] += 1


def _two_at_a_leaf(table: pa.Table) -> pa.Table:
    """A leaf claiming two candidates (and two guesses for them)."""
    table = edit("remaining", _leaf_plus_one)(table)
    return edit("subtree_guesses", _leaf_plus_one)(table)


CASES = {
    "missing column": (lambda t: t.drop_columns(["remaining"]), {}, "missing column remaining"),
    "wrong type": (lambda t: t.set_column(3, pa.field("depth", pa.int32()), t.column("depth").cast(pa.int32())),
                   {}, "column depth is int32, expected int16"),
    "extra column": (_add_column, {}, "unexpected column note"),
    "empty": (lambda t: t.slice(0, 0), {"total_guesses": "0"}, "no nodes"),
    "node ids": (edit("node", _set(1, 2)), {}, "node ids"),
    "root": (edit("parent", _set(0, 0)), {}, "node 0 is not the root"),
    "parent after child": (edit("parent", _set(5, 7)), {}, "parent"),
    "depth": (edit("depth", _set(lambda t: leaf(t), lambda v, t: v[leaf(t)] + 1)), {}, "depth"),
    "guess too big": (edit("guess", _set(7, GAME.n_guesses)), {}, "guess id out of range"),
    "negative guess": (edit("guess", _set(7, -1)), {}, "guess id out of range"),
    "feedback too big": (edit("feedback", _set(7, GAME.n_codes)), {}, "feedback code out of range"),
    "winning feedback": (edit("feedback", _set(7, GAME.win_code)), {}, "winning feedback"),
    "shared feedback": (edit("feedback", _share_feedback), {}, "share a feedback code"),
    "no candidate": (edit("remaining", _set(lambda t: leaf(t), 0)), {}, "no remaining candidate"),
    "root remaining": (edit("remaining", _set(0, GAME.n_targets - 1)), {}, "root has 1295 candidates"),
    "subtree below remaining": (edit("subtree_guesses", _set(lambda t: leaf(t), 0)), {}, "fewer guesses than"),
    "remaining not a partition": (_two_at_a_leaf, {}, "candidates of its children"),
    "subtree not a sum": (edit("subtree_guesses", _leaf_plus_one), {}, "subtree_guesses"),
    "targets wrong": (None, {"targets": "1295"}, "targets 1295"),
    "targets missing": (None, {"targets": None}, "metadata targets"),
    "total wrong": (None, {"total_guesses": "5"}, "total_guesses 5"),
    "total not a number": (None, {"total_guesses": "many"}, "metadata total_guesses"),
    "max wrong": (None, {"max_guesses": "2"}, "max_guesses 2"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_malformed_tree_is_an_artifact_error_and_the_live_fallback(case, good, tmp_path, caplog):
    mutate, changes, fragment = CASES[case]
    table, meta = good
    path = write_tree(tmp_path, mutate(table) if mutate else table, meta, **changes)
    with pytest.raises(artifacts.ArtifactError, match=NAME) as caught:
        artifacts.read(artifacts.TREE, GAME, tmp_path)
    assert fragment in str(caught.value) and "make tables" in str(caught.value)
    solver = Solver(GAME, folder=tmp_path)
    assert solver.tree is None and fragment in solver.tree_error
    assert Solver(GAME, folder=tmp_path).tree is None  # a second load does not warn again
    [warning] = logged_warnings(caplog)
    assert str(path) in warning and fragment in warning and "make tables" in warning


def test_nulls_or_odd_column_types_are_an_artifact_error(good, tmp_path, caplog):
    table, meta = good
    path = write_tree(tmp_path, table, meta)
    written = pq.read_table(path)  # keeps the metadata, checksum included
    guess = written.column("guess").to_pylist()
    guess[3] = None
    index = written.schema.get_field_index("guess")
    pq.write_table(written.set_column(index, written.schema.field("guess"), pa.array(guess, pa.int32())), path)
    with pytest.raises(artifacts.ArtifactError, match="null values in guess"):
        artifacts.read(artifacts.TREE, GAME, tmp_path)
    index = written.schema.get_field_index("guess_text")
    odd = written.set_column(index, pa.field("guess_text", pa.large_string()),
                             written.column(index).cast(pa.large_string()))
    pq.write_table(odd, path)
    with pytest.raises(artifacts.ArtifactError, match="column guess_text is large_string, expected string"):
        artifacts.read(artifacts.TREE, GAME, tmp_path)
    assert Solver(GAME, folder=tmp_path).tree is None and len(logged_warnings(caplog)) == 1


def test_a_tree_written_by_the_pipeline_passes(good, tmp_path, caplog):
    table, meta = good
    write_tree(tmp_path, table, meta, lower_bound="5600", proven="none")  # exact-search keys are optional
    solver = Solver(GAME, folder=tmp_path)
    assert solver.tree is not None and solver.tree_error is None and not logged_warnings(caplog)
    artifacts.validate_tree(table, meta, GAME)  # raises nothing (its speed is not asserted: `make bench`)


def test_truncated_tree_warns_once_and_is_played_live(tmp_path, caplog):
    data = artifacts.artifact_path(artifacts.TREE, GAME).read_bytes()[:5000]  # head -c 5000
    path = tmp_path / NAME
    path.write_bytes(data)
    caplog.set_level(logging.INFO, logger="solver.core.runtime")
    solver = Solver(GAME, folder=tmp_path)
    def fb(g):
        return reference.mastermind("4321", g)
    guess, state = solver.initial_guess()
    while guess != "4321":
        guess, state = solver.next_guess(guess, state, fb(guess))
    assert solver.tree is None and "not a readable Parquet file" in solver.tree_error
    assert Solver(GAME, folder=tmp_path).tree is None
    [warning] = logged_warnings(caplog)
    assert str(path) in warning and "make tables" in warning


@pytest.mark.parametrize("kind", ["directory", "fifo"])
def test_directory_or_fifo_in_place_of_a_tree_is_missing(kind, tmp_path, caplog):
    if kind == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = tmp_path / NAME
    path.mkdir() if kind == "directory" else os.mkfifo(path)
    with pytest.raises(artifacts.MissingTableError):
        artifacts.read(artifacts.TREE, GAME, tmp_path)
    caplog.set_level(logging.INFO, logger="solver.core.runtime")
    solver = Solver(GAME, folder=tmp_path)
    assert solver.tree is None and solver.tree_error is None
    assert not logged_warnings(caplog) and "no tree file" in caplog.text


class _Payload:
    """Unpickling this creates the file `marker`: the proof that a pickle ran."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


@pytest.mark.parametrize("protocol", [0, pickle.HIGHEST_PROTOCOL])
def test_pickle_in_parquet_metadata_never_runs(protocol, good, tmp_path, caplog):
    marker = tmp_path / "pickle-ran"
    payload = pickle.dumps(_Payload(marker), protocol=protocol)
    table, meta = good
    path = write_tree(tmp_path, table, meta)
    written = pq.read_table(path)
    field = written.schema.field("guess").with_metadata(
        {b"ARROW:extension:name": b"arrow.py_extension_type", b"ARROW:extension:metadata": payload})
    schema = written.schema.set(written.schema.get_field_index("guess"), field)
    schema = schema.with_metadata({**written.schema.metadata, b"pandas": payload, b"strategy": payload})
    pq.write_table(pa.Table.from_arrays(written.columns, schema=schema), path)
    solver = Solver(GAME, folder=tmp_path)
    if protocol == 0:  # ASCII: a metadata string like any other
        assert solver.tree is not None
    else:  # not text: the metadata is unusable
        assert solver.tree is None and "metadata" in solver.tree_error
        assert len(logged_warnings(caplog)) == 1
    solver.initial_guess()
    assert not marker.exists()


# -- the command line ---------------------------------------------------------------------------
@pytest.fixture
def fresh_solvers(monkeypatch, tmp_path):
    """Point the artifacts at `tmp_path` and forget the solvers (and trees) loaded so far."""
    monkeypatch.setenv("DEDUCE_ARTIFACTS", str(tmp_path))
    monkeypatch.setattr(runtime, "_SOLVERS", OrderedDict())
    return tmp_path


@pytest.mark.slow  # 10 s: plays live without the tree
def test_cli_warns_once_about_a_broken_tree_and_answers(fresh_solvers, good):
    table, meta = good
    path = write_tree(fresh_solvers, edit("guess", _set(7, GAME.n_guesses))(table), meta)
    runner = CliRunner()
    result = runner.invoke(app, ["tree", "mastermind"])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    [line] = result.stderr.splitlines()
    assert line.startswith("warning: ") and str(path) in line and "make tables" in line
    assert "tree file unusable" in result.stdout and "no precomputed tree file" not in result.stdout
    assert "guess id out of range" in result.stdout and "guess to play: " in result.stdout
    result = runner.invoke(app, ["bench", "mastermind", "-s", "3"])
    assert result.exit_code == 0 and result.stderr == ""  # once per process
    assert "live computation (tree file unusable: " in result.stdout
    result = runner.invoke(app, ["solve", "mastermind"], input="quit\n")
    assert result.exit_code == 0 and result.stderr == ""
    assert "guesses computed live (tree file unusable: " in result.stdout


def test_cli_missing_tree_is_no_warning(fresh_solvers):
    runner = CliRunner()
    result = runner.invoke(app, ["tree", "mastermind"])
    assert result.exit_code == 0 and result.stderr == ""
    assert "no precomputed tree file for this game: computed live" in result.stdout
    result = runner.invoke(app, ["bench", "mastermind", "-s", "2"])
    assert result.exit_code == 0 and result.stderr == "" and "live computation (no tree file)" in result.stdout
    result = runner.invoke(app, ["solve", "mastermind"], input="quit\n")
    assert result.exit_code == 0 and "computed live (no precomputed tree file)" in result.stdout


def test_cli_truncated_tree_end_to_end(tmp_path):
    (tmp_path / NAME).write_bytes(artifacts.artifact_path(artifacts.TREE, GAME).read_bytes()[:5000])
    done = subprocess.run([sys.executable, "-m", "solver", "tree", "mastermind"], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "DEDUCE_ARTIFACTS": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    # on a cold kernel cache playing the game out live first says, in a line of its own, that it compiles
    [line] = [line for line in done.stderr.splitlines() if not line.startswith("warning: compiling ")]
    assert line.startswith("warning: ") and str(tmp_path / NAME) in line and "make tables" in line
    assert "not a readable Parquet file" in line and "Traceback" not in done.stderr
    assert "tree file unusable" in done.stdout and "guess to play: " in done.stdout
