"""The installable library: a wheel built from this checkout carries the trees and plays from them.

Builds the wheel (no build isolation: setuptools and wheel come with the test extra), installs it
without dependencies into a fresh virtualenv that sees this environment's packages (a .pth line,
so numpy, numba, pyarrow... resolve without downloads, while `solver` is the installed copy), and
from a folder outside the checkout plays one game of every variant on its tree, never live.
"""
from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from solver.core.registry import all_variants

pytestmark = pytest.mark.slow  # tens of seconds in all: `make test` runs them, `make test-fast` does not

ROOT = Path(__file__).resolve().parent.parent

PLAY_EVERY_VARIANT = """
import sys
from pathlib import Path
import solver
from solver.core.runtime import get_solver
from solver.core.registry import all_variants, get_game

assert Path(solver.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()), solver.__file__
for name, variant in all_variants():
    game = get_game(name, variant)
    player = get_solver(game)
    assert player.tree is not None, f"{game.key}: no tree in the installed package ({player.tree_error})"
    target = int(game.target_index[game.n_targets // 2])
    guess, state = player.initial_guess()
    for _ in range(12):
        assert state.node is not None, f"{game.key}: left the tree (live fallback)"
        row = game.index_of(guess)
        code = int(game.rule(game.rows[row], game.rows[target]))
        state = player.advance(state, row, code)
        if code == game.win_code:
            break
        guess = game.labels[player.guess_row(state)]
    else:
        raise AssertionError(f"{game.key}: not solved")
    print(game.key, "solved in", len(state.history))
print("version", solver.__version__)
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """Return the python of a fresh virtualenv with this checkout's wheel installed (no deps)."""
    pytest.importorskip("build", reason="the wheel test needs the 'build' package (pip install .[test])")
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(ROOT)],
                   check=True, capture_output=True, text=True)
    wheel, = dist.glob("*.whl")  # the one wheel just built (deduce_solver-VERSION-...)
    env = tmp_path_factory.mktemp("venv")
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    # this environment's packages, after the venv's own (so `solver` is the installed wheel's)
    (site / "test-environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, text=True)
    return python


def test_installed_wheel_plays_every_variant_from_its_tree(installed, tmp_path):
    result = subprocess.run([str(installed), "-c", PLAY_EVERY_VARIANT], cwd=tmp_path, capture_output=True,
                            text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count("solved in") == len(all_variants())
    from solver import __version__

    assert f"version {__version__}" in result.stdout and __version__ != "0+unknown"


@pytest.mark.parametrize("program", ["deduce", "wordle"])
def test_installed_programs_answer_help(installed, tmp_path, program):
    result = subprocess.run([str(installed.parent / program), "--help"], cwd=tmp_path, capture_output=True,
                            text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "usage" in result.stdout.lower()


def test_installed_version_and_where(installed, tmp_path):
    deduce = str(installed.parent / "deduce")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    version = subprocess.run([deduce, "--version"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert version.returncode == 0 and version.stdout.startswith("deduce ")
    where = subprocess.run([deduce, "tables", "--where"], cwd=tmp_path, capture_output=True, text=True, env=env)
    folders = where.stdout.split()
    assert where.returncode == 0 and any(f.endswith("solver/trees") for f in folders), folders
    assert str(ROOT / "artifacts") not in folders


def test_installed_wheel_hints_from_its_shipped_hints(installed, tmp_path):
    """The wheel carries the hints: a hint on the tree and one after a favourite opener load no kernel."""
    code = ("import sys; from pathlib import Path; import solver; from typer.testing import CliRunner; "
            "from solver.cli.main import app; "
            "assert Path(solver.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()), solver.__file__; "
            "results = [CliRunner().invoke(app, argv) for argv in "
            "(['hint', 'wordle', 'SALET=RRRRR'], ['hint', 'wordle', 'CRANE=RYRGR', '--hard'])]; "
            "assert all(r.exit_code == 0 for r in results), [r.output for r in results]; "
            "assert 'numba' not in sys.modules, 'Numba was loaded'; print('ranked')")
    result = subprocess.run([str(installed), "-c", code], cwd=tmp_path, capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert result.returncode == 0 and "ranked" in result.stdout, result.stderr[-2000:]
