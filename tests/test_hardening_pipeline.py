"""Pipeline hardening (issue 22, items 2, 3 and 12): a user build never replaces a built-in tree and
a user game named like a built-in one is built as itself; a build goes on when a concurrent one
removed its checkpoint folder; bad --game specs are one-line errors. Two ranking runs into one folder:
tests/test_hardening_rankings.py; the Dask backend's failures (item 4): tests/test_hardening_cluster.py."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pipeline.builders import exact_tree as exact_build
from pipeline.builders.exact_tree import Plan, checkpoint_dir
from pipeline.builders.greedy_tree import GreedyOptions
from pipeline.builders.greedy_tree import build as build_greedy
from solver.core import artifacts, scoring
from solver.core.runtime import Solver
from solver.core.registry import get_game, registered
from solver.core.search.searcher import SearchOptions
from solver.games import mastermind
from solver.games.generic import from_function, score_bulls_cows
from tests.test_cli import assert_error, invoke, ok

CLASH = '''
from itertools import product

from solver.games.generic import from_function, score_bulls_cows


def mastermind_lookalike():
    """Mastermind of 3 pegs and 4 colours, named like the built-in Mastermind (4 pegs, 6 colours)."""
    codes = ["".join(c) for c in product("1234", repeat=3)]
    return from_function(codes, codes, score_bulls_cows, name="mastermind", variant="default")


def needs_an_argument(size):
    return size


def fails():
    raise RuntimeError("no game today")
'''

BROKEN = "def game(:\n"


@pytest.fixture
def user_folder(tmp_path, monkeypatch):
    """A folder with the user's game modules as the current folder, and artifacts of its own holding a
    copy of the committed Mastermind tree (as a checkout's artifacts/ does)."""
    (tmp_path / "clash22.py").write_text(CLASH)
    (tmp_path / "broken22.py").write_text(BROKEN)
    art = tmp_path / "art"
    art.mkdir()
    committed = artifacts.artifact_path(artifacts.TREE, mastermind.game(), artifacts.packaged_dir())
    shutil.copy(committed, art / committed.name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DEDUCE_ARTIFACTS", str(art))
    yield art
    for name in ("clash22", "broken22"):
        sys.modules.pop(name, None)


def lookalike():
    codes = ["".join(map(str, c)) for c in np.ndindex(4, 4, 4)]
    return from_function(codes, codes, score_bulls_cows, name="mastermind", variant="default")


# -- item 2: a user build and the built-in trees ------------------------------------------------
def test_a_built_in_game_given_to_game_is_refused_and_its_tree_kept(user_folder):
    tree = user_folder / "tree-mastermind-default.parquet"
    before = tree.read_bytes()
    for spec in ("solver.games.mastermind:game", "solver.mastermind:game"):
        assert_error(invoke("tables", "--game", spec, "--jobs", "1"), "never replaces a built-in tree", 2)
    assert tree.read_bytes() == before  # the committed exact tree, not a greedy one
    assert sorted(p.name for p in user_folder.iterdir()) == ["tree-mastermind-default.parquet"]


def test_a_user_game_named_like_a_built_in_one_is_built_as_itself(user_folder):
    tree = user_folder / "tree-mastermind-default.parquet"
    before = tree.read_bytes()
    out = ok("tables", "--game", "clash22:mastermind_lookalike", "--jobs", "2")  # workers: the user's game
    game = sys.modules["clash22"].mastermind_lookalike()
    path = Path(out.split("tree: ", 1)[1].strip())
    assert path.parent == user_folder and path != tree and path.name.startswith("tree-mastermind-default-")
    assert tree.read_bytes() == before
    # each solver finds its own tree: the user's plays its 64 codes, the built-in one its own
    assert Solver(game).tree.metadata["targets"] == "64"
    assert Solver(mastermind.game()).tree.metadata["targets"] == "1296"


def test_workers_build_a_lookalike_game_as_itself():
    game = lookalike()
    table = scoring.feedback_table(game)
    assert build_greedy(game, table, GreedyOptions(jobs=2)) == build_greedy(game, table, GreedyOptions(jobs=1))  # no IndexError
    assert registered(game) is None and registered(get_game("mastermind")) == ("mastermind", "default")
    assert artifacts.artifact_name(artifacts.TREE, game) != artifacts.artifact_name(artifacts.TREE, mastermind.game())
    assert artifacts.artifact_name(artifacts.TREE, get_game("mastermind")) == "tree-mastermind-default.parquet"


# -- item 12: --game specs that are no module:function -------------------------------------------
@pytest.mark.parametrize("spec, words", [
    ("../../etc:passwd", "is not a module name"),
    (".x:y", "is not a module name"),
    ("clash22:not a name", "is not a function name"),
    ("solver.generic:from_function", "needs arguments (targets, guesses, score)"),
    ("solver.games.generic:from_function", "needs arguments"),
    ("clash22:needs_an_argument", "needs arguments (size)"),
    ("clash22:fails", "fails() failed: RuntimeError: no game today"),
    ("broken22:game", "cannot import broken22: SyntaxError"),
    ("nomodule22.sub:game", "cannot import nomodule22.sub"),
])
def test_bad_game_specs_are_one_line_errors(user_folder, spec, words):
    assert_error(invoke("tables", "--game", spec, "--jobs", "1"), words, 1)


# -- item 3: a checkpoint folder removed by a concurrent build ------------------------------------
def test_a_build_goes_on_when_another_removed_its_checkpoint_folder(tmp_path):
    game = mastermind.game(4, 4)
    table = scoring.feedback_table(game)
    plan = Plan(SearchOptions(max_guesses=5, memo_bits=14))
    alone = exact_build.build(game, table, plan, jobs=1, folder=tmp_path / "alone")
    removed = []

    def progress(step, total):
        if step and not removed:  # the other build wrote its tree and cleared the checkpoints
            exact_build.clear_checkpoints(game, plan, tmp_path / "both")
            removed.append(True)

    built = exact_build.build(game, table, plan, jobs=1, folder=tmp_path / "both", progress=progress)
    assert removed and (built.total, built.nodes) == (alone.total, alone.nodes)
    assert list(checkpoint_dir(game, plan, tmp_path / "both").glob("class-*.npz"))


def test_sigterm_ends_deduce_tables_with_143_and_no_warnings(tmp_path):
    env = {**os.environ, "DEDUCE_ARTIFACTS": str(tmp_path)}
    build = subprocess.Popen([sys.executable, "-m", "solver", "tables", "bulls", "--force", "--jobs", "2"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 300
        while not (tmp_path / "table-bulls-default.parquet").exists():  # the tree's tasks start next
            assert build.poll() is None and time.monotonic() < deadline, build.communicate()
            time.sleep(0.1)
        build.send_signal(signal.SIGTERM)
        _, err = build.communicate(timeout=60)
    finally:
        if build.poll() is None:
            build.kill()
            build.communicate()
    assert build.returncode == 143, err
    assert "leaked" not in err and "Traceback" not in err and "Warning" not in err, err
