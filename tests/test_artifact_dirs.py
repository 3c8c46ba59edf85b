"""Where artifacts are read and written: a checkout's artifacts/, the package data of an installed
wheel, the user cache, $DEDUCE_ARTIFACTS."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pyarrow as pa
import pytest

from solver.core import artifacts
from solver.core.registry import get_game
from solver.games import generic

GAME = get_game("mastermind")
OWN = generic.from_function([0, 1, 2], None, lambda secret, guess: int(secret == guess), name="digits")  # a user's game


def place(monkeypatch, packaged, checkout, cache) -> None:
    """Put the trees in `packaged`, the checkout's artifacts/ at `checkout` (None: an installed wheel)."""
    packaged.mkdir(parents=True)
    monkeypatch.delenv("DEDUCE_ARTIFACTS", raising=False)
    monkeypatch.setattr(artifacts, "packaged_dir", lambda: packaged)
    monkeypatch.setattr(artifacts, "checkout_dir", lambda: checkout)
    monkeypatch.setattr(artifacts, "cache_dir", lambda: cache)


@pytest.fixture()
def folders(tmp_path, monkeypatch):
    """An installed wheel: its trees in a writable site-packages, no checkout."""
    packaged, cache = tmp_path / "site-packages" / "solver" / "trees", tmp_path / "cache"
    place(monkeypatch, packaged, None, cache)
    return packaged, cache


@pytest.fixture()
def checkout(tmp_path, monkeypatch):
    folder, cache = tmp_path / "repo" / "artifacts", tmp_path / "cache"
    place(monkeypatch, folder, folder, cache)
    return folder, cache


def test_an_installed_program_builds_into_the_user_cache_never_site_packages(folders):
    packaged, cache = folders
    assert artifacts.artifacts_dir() == cache and artifacts.artifacts_dir(GAME) == cache
    assert artifacts.search_dirs() == [cache, packaged]
    name = artifacts.artifact_name(artifacts.TREE, GAME)
    (packaged / name).write_bytes(b"shipped")
    assert artifacts.artifact_path(artifacts.TREE, GAME) == packaged / name  # the shipped tree is found
    cache.mkdir()
    (cache / name).write_bytes(b"rebuilt")
    assert artifacts.artifact_path(artifacts.TREE, GAME) == cache / name  # a rebuild wins
    missing = artifacts.artifact_path(artifacts.TABLE, GAME)
    assert missing == cache / artifacts.artifact_name(artifacts.TABLE, GAME)  # and is written there


def test_a_checkout_builds_its_own_variants_into_artifacts(checkout):
    folder, cache = checkout
    assert artifacts.artifacts_dir() == folder and artifacts.artifacts_dir(GAME) == folder
    assert artifacts.search_dirs() == [folder, cache]


def test_a_users_own_game_builds_into_the_cache_even_in_a_checkout(checkout):
    folder, cache = checkout
    assert artifacts.artifacts_dir(OWN) == cache
    assert artifacts.artifact_path(artifacts.TREE, OWN).parent == cache
    written = artifacts.write(artifacts.TREE, OWN, pa.table({"x": [1]}), {})
    assert written.parent == cache and not list(folder.iterdir())  # nothing for git or the next wheel


def test_a_read_only_checkout_builds_into_the_user_cache(checkout, monkeypatch):
    folder, cache = checkout
    monkeypatch.setattr(artifacts, "_writable", lambda where: where != folder)
    assert artifacts.artifacts_dir(GAME) == cache
    assert artifacts.search_dirs() == [cache, folder]


def test_environment_variable_replaces_every_folder(folders, monkeypatch, tmp_path):
    monkeypatch.setenv("DEDUCE_ARTIFACTS", str(tmp_path / "mine"))
    assert artifacts.search_dirs() == [tmp_path / "mine"]
    assert artifacts.artifacts_dir() == tmp_path / "mine" == artifacts.artifacts_dir(OWN)


def test_this_checkout_is_recognised_as_one():
    assert artifacts.checkout_dir() is not None and (artifacts.checkout_dir().parent / "pyproject.toml").is_file()


def test_an_installed_copy_is_not_a_checkout(tmp_path):
    """The packages copied without pyproject.toml beside them (as in site-packages): the cache."""
    shutil.copytree(artifacts.checkout_dir().parent / "solver", tmp_path / "solver",
                    ignore=shutil.ignore_patterns("__pycache__"))
    code = "from solver.core import artifacts; print(artifacts.checkout_dir()); print(artifacts.artifacts_dir())"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "None" and lines[1].startswith(str(tmp_path / ".cache"))


def test_writable_looks_at_the_first_existing_folder(tmp_path):
    assert artifacts._writable(tmp_path / "not" / "yet" / "made")
