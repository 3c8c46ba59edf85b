"""Wordle with 4- to 9-letter words (`--size`): the vendored lists, on-request trees, the live solver meanwhile."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver.cli.main import app
from solver.core import artifacts
from solver.core.runtime import get_solver
from solver.core.registry import all_variants, build_command, get_game, registered, size_variants
from solver.games import wordle
from solver.games.wordlists import WORD_LENGTHS, builtin_answers, builtin_guesses

runner = CliRunner()


DATA = Path(wordle.__file__).parent / "data"


def data_words(name: str) -> set[str]:
    """Return the words of a vendored list file, read here without the package's reader."""
    return {line.strip() for line in (DATA / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}


@pytest.mark.parametrize("length", list(WORD_LENGTHS))
def test_builtin_lists_of_every_length(length):
    answers, guesses = builtin_answers(length), builtin_guesses(length)
    assert all(len(w) == length and w.isalpha() and w.isupper() for w in guesses)
    assert set(answers) <= set(guesses) and list(guesses) == sorted(set(guesses))
    if length == 5:
        assert (len(answers), len(guesses)) == (2315, 12972)
    else:
        assert set(answers) == data_words(f"common-words-{length}.txt")
        assert set(guesses) == data_words(f"all-words-{length}.txt") | set(answers)


def test_size_variants_are_registered_on_request_only():
    game = get_game("wordle", "hard6")
    assert (game.variant, game.title, len(game.labels[0])) == ("hard6", "wordle hard (6 letters)", 6)
    assert registered(game) == ("wordle", "hard6") and wordle.game(size=6).key == "wordle-normal6"
    assert ("wordle", "normal6") not in all_variants()  # `make tables` does not build them
    assert size_variants(5) == [("wordle", "normal"), ("wordle", "hard")]
    assert build_command("wordle", "normal8") == "deduce tables wordle --size 8"
    with pytest.raises(ValueError, match="4 to 9 letters"):
        wordle.game(size=3)


def test_the_live_solver_plays_a_size_without_a_tree(tmp_path):
    # a process of its own: the warning is given once a process and variant, and a state or a solver kept by
    # another test of this worker would not give it again
    env = {**os.environ, "DEDUCE_ARTIFACTS": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "solver", "play", "wordle", "PLANET", "--size", "6"],
                            capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("guesses!") or "You got it" in result.stdout
    assert "deduce tables wordle --size 6" in result.stderr  # the warning says how to build the tree


def test_size_errors():
    assert runner.invoke(app, ["hint", "wordle", "--size", "3"]).exit_code == 2
    assert runner.invoke(app, ["hint", "cards", "--size", "6"]).exit_code == 2
    assert runner.invoke(app, ["tables", "cards", "--size", "6"]).exit_code == 2
    result = runner.invoke(app, ["hint", "wordle", "--size", "6", "CRANE=GGGGG"])
    assert result.exit_code == 1 and "CRANE" in result.stderr


def test_tables_size_builds_trees_the_solver_then_plays(tmp_path, monkeypatch):
    # the exact trees and their hints are committed and current (minutes of search; the hints' builder
    # has tests of its own): only the table is built, and the committed files are kept as they are
    committed = [artifacts.artifact_path(kind, get_game("wordle", v))
                 for v in ("normal4", "hard4") for kind in (artifacts.TREE, artifacts.HINTS)]
    for path in committed:
        shutil.copy2(path, tmp_path / path.name)
    monkeypatch.setenv("DEDUCE_ARTIFACTS", str(tmp_path))
    result = runner.invoke(app, ["tables", "wordle", "--size", "4"])
    assert result.exit_code == 0, result.stderr
    assert all((tmp_path / path.name).read_bytes() == path.read_bytes() for path in committed)
    names = {p.name for p in tmp_path.iterdir()}
    assert {"table-wordle-normal4.parquet", "tree-wordle-normal4.parquet", "tree-wordle-hard4.parquet"} <= names
    for variant in ("normal4", "hard4"):
        game = get_game("wordle", variant)
        solver = get_solver(game)
        assert solver.tree is not None
        for answer in builtin_answers(4)[::97]:  # every guess comes from the tree and the game ends
            guess, state = solver.initial_guess()
            for _ in range(20):
                if guess == answer:
                    break
                assert state.node is not None  # on the tree
                guess, state = solver.next_guess(guess, state, wordle.feedback(answer, guess))
            assert guess == answer


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.lists(st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=n, max_size=n),
                                                      min_size=1, max_size=20)))
def test_words_encoded_at_once_as_one_by_one(words):
    expected = np.array([wordle.encode_word(word) for word in words], dtype=np.int32)
    got = wordle.encode_words(words)
    assert got.dtype == np.int32 and np.array_equal(got, expected)
