"""Where artifacts are read and written: the packaged folder, the user cache, $DEDUCE_ARTIFACTS."""
from __future__ import annotations

import pytest

from solver.core import artifacts
from solver.core.registry import get_game

GAME = get_game("mastermind")


@pytest.fixture()
def folders(tmp_path, monkeypatch):
    packaged, cache = tmp_path / "site-packages" / "solver" / "trees", tmp_path / "cache"
    packaged.mkdir(parents=True)
    monkeypatch.delenv("DEDUCE_ARTIFACTS", raising=False)
    monkeypatch.setattr(artifacts, "packaged_dir", lambda: packaged)
    monkeypatch.setattr(artifacts, "cache_dir", lambda: cache)
    return packaged, cache


def test_a_writable_package_folder_is_where_builds_write(folders):
    packaged, cache = folders
    assert artifacts.artifacts_dir() == packaged
    assert artifacts.search_dirs() == [packaged, cache]


def test_a_read_only_install_builds_into_the_user_cache_and_reads_both(folders, monkeypatch):
    packaged, cache = folders
    monkeypatch.setattr(artifacts, "_writable", lambda folder: folder != packaged)
    assert artifacts.artifacts_dir() == cache
    assert artifacts.search_dirs() == [cache, packaged]
    name = artifacts.artifact_name(artifacts.TREE, GAME)
    (packaged / name).write_bytes(b"shipped")
    assert artifacts.artifact_path(artifacts.TREE, GAME) == packaged / name  # the shipped tree is found
    cache.mkdir()
    (cache / name).write_bytes(b"rebuilt")
    assert artifacts.artifact_path(artifacts.TREE, GAME) == cache / name  # a rebuild wins
    missing = artifacts.artifact_path(artifacts.TABLE, GAME)
    assert missing == cache / artifacts.artifact_name(artifacts.TABLE, GAME)  # and is written there


def test_environment_variable_replaces_every_folder(folders, monkeypatch, tmp_path):
    monkeypatch.setenv("DEDUCE_ARTIFACTS", str(tmp_path / "mine"))
    assert artifacts.search_dirs() == [tmp_path / "mine"]
    assert artifacts.artifacts_dir() == tmp_path / "mine"


def test_writable_looks_at_the_first_existing_folder(tmp_path):
    assert artifacts._writable(tmp_path / "not" / "yet" / "made")
