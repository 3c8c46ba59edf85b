"""`deduce tables`: a user's own game (`--game module:function`) gets a tree that the solver then plays; a
user build never replaces a built-in tree and a user game named like a built-in one is built as itself; bad
--game specs are one-line errors; a build goes on when a concurrent one removed its checkpoint folder; SIGTERM
ends a build with 143. Two ranking runs into one folder: tests/test_ranking_file.py; the Dask backend's
failures: tests/test_cluster.py."""
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
from tests.helpers import assert_error, invoke, ok

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


# -- a user build and the built-in trees ------------------------------------------------
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
    # no IndexError
    assert build_greedy(game, table, GreedyOptions(jobs=2)) == build_greedy(game, table, GreedyOptions(jobs=1))
    assert registered(game) is None and registered(get_game("mastermind")) == ("mastermind", "default")
    assert artifacts.artifact_name(artifacts.TREE, game) != artifacts.artifact_name(artifacts.TREE, mastermind.game())
    assert artifacts.artifact_name(artifacts.TREE, get_game("mastermind")) == "tree-mastermind-default.parquet"


# -- --game specs that are no module:function -------------------------------------------
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
def test_game_specs_that_name_no_module_function_are_one_line_errors(user_folder, spec, words):
    assert_error(invoke("tables", "--game", spec, "--jobs", "1"), words, 1)


# -- a checkpoint folder removed by a concurrent build ------------------------------------
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


# -- a user's own game, built and played ----------------------------------------------------------
DEDUCE = Path(sys.executable).parent / "deduce"


MODULE = '''
from itertools import product

from solver.core.game import Game
from solver.games.generic import from_function, score_bulls_cows


def mymind() -> Game:
    codes = ["".join(c) for c in product("1234", repeat=3)]  # Mastermind: 3 pegs, 4 colours
    return from_function(codes, codes, score_bulls_cows, name="mymind")


def not_a_game():
    return 42
'''


PLAY = '''
import mygame
from solver.core.runtime import get_solver
from solver.games.generic import play

game = mygame.mymind()
player = get_solver(game)
assert player.tree is not None, player.tree_error
history, secret = play(game, "342")
assert secret == "342" and len(history) <= 4, history
print(player.tree.metadata["total_guesses"])
'''


def run_command(args, cwd, env):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)


def test_a_users_game_is_built_into_a_tree_the_solver_plays(tmp_path):
    (tmp_path / "mygame.py").write_text(MODULE)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DEDUCE_ARTIFACTS": str(tmp_path / "art")}
    built = run_command([str(DEDUCE), "tables", "--game", "mygame:mymind", "--jobs", "1"], tmp_path, env)
    assert built.returncode == 0, built.stderr
    assert list((tmp_path / "art").glob("tree-mymind-*.parquet"))
    played = run_command([sys.executable, "-c", PLAY], tmp_path, env)
    assert played.returncode == 0, played.stderr
    assert int(played.stdout) >= 64  # every one of the 64 codes needs at least one guess


def test_bad_game_specs_are_one_line_errors(tmp_path):
    (tmp_path / "mygame.py").write_text(MODULE)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DEDUCE_ARTIFACTS": str(tmp_path / "art")}
    for spec, words in [("mygame", "module:function"), ("nomodule:f", "cannot import"),
                        ("mygame:missing", "no function"), ("mygame:not_a_game", "not a Game")]:
        result = run_command([str(DEDUCE), "tables", "--game", spec], tmp_path, env)
        assert result.returncode == 1, (spec, result.stderr)
        assert words in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
