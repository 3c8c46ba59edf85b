"""`deduce tables --game module:function`: a user's own game gets a tree that the solver then plays."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def run(args, cwd, env):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)


def test_a_users_game_is_built_into_a_tree_the_solver_plays(tmp_path):
    (tmp_path / "mygame.py").write_text(MODULE)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DEDUCE_ARTIFACTS": str(tmp_path / "art")}
    built = run([str(DEDUCE), "tables", "--game", "mygame:mymind", "--jobs", "1"], tmp_path, env)
    assert built.returncode == 0, built.stderr
    assert list((tmp_path / "art").glob("tree-mymind-*.parquet"))
    played = run([sys.executable, "-c", PLAY], tmp_path, env)
    assert played.returncode == 0, played.stderr
    assert int(played.stdout) >= 64  # every one of the 64 codes needs at least one guess


def test_bad_game_specs_are_one_line_errors(tmp_path):
    (tmp_path / "mygame.py").write_text(MODULE)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DEDUCE_ARTIFACTS": str(tmp_path / "art")}
    for spec, words in [("mygame", "module:function"), ("nomodule:f", "cannot import"),
                        ("mygame:missing", "no function"), ("mygame:not_a_game", "not a Game")]:
        result = run([str(DEDUCE), "tables", "--game", spec], tmp_path, env)
        assert result.returncode == 1, (spec, result.stderr)
        assert words in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
