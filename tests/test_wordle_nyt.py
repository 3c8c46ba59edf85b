"""Wordle on the NYT's lists (`--lists nyt`): the data files with their source, the variants, the
command line's option, and the lists' optimal trees (replayed in `tests/test_trees.py`)."""
from __future__ import annotations

from importlib.resources import files

import pytest
from typer.testing import CliRunner

from solver.analysis.notation import select_game
from solver.cli.main import app
from solver.core import artifacts
from solver.core.registry import get_game
from solver.games import wordle
from solver.games.wordlists import builtin_guesses, nyt_answers, nyt_guesses
from tests import reference

runner = CliRunner()


def test_the_lists_are_data_files_that_name_their_source():
    for name, count in (("nyt-answers-2023-07-01.txt", 3158), ("nyt-guesses-2022-08-30.txt", 14855)):
        lines = files("solver.games").joinpath("data", name).read_text().splitlines()
        header = [line for line in lines if line.startswith("#")]
        assert any("github.com/alex1770/wordle" in line for line in header) and len(lines) - len(header) == count
    assert len(nyt_answers()) == 3158 and len(nyt_guesses()) == 14855
    assert set(nyt_answers()) <= set(nyt_guesses()) and set(builtin_guesses()) <= set(nyt_guesses())
    assert nyt_answers() == tuple(sorted(nyt_answers()))


def test_the_variants_and_their_games():
    normal, hard = get_game("wordle", "normal-nyt"), get_game("wordle", "hard-nyt")
    assert normal is wordle.game(lists="nyt") and hard is wordle.game(hard=True, lists="nyt")
    assert (normal.n_targets, normal.n_guesses) == (3158, 14855) and hard.allowed is not None
    assert normal.title == "wordle (NYT lists)" and hard.title == "wordle hard (NYT lists)"
    assert normal.fingerprint() != wordle.game().fingerprint()
    assert select_game("wordle", hard=True, lists="nyt") is hard
    with pytest.raises(ValueError, match="lists of their own"):
        wordle.game(size=6, lists="nyt")
    with pytest.raises(ValueError, match="original or nyt"):
        wordle.game(lists="times")


def test_the_command_line_plays_the_nyt_lists():
    result = runner.invoke(app, ["play", "wordle", "ABUZZ", "--lists", "nyt"])  # not one of the original answers
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Guess #1: TARSE" and "ABUZZ" in lines[-3] and lines[-1].startswith("You got it in")
    for args, fragment in ((["--lists", "nyt", "--size", "6"], "--lists nyt takes none of"),
                           (["--lists", "times"], "--lists is original or nyt"),
                           (["--lists", "nyt", "--all-words"], "--lists nyt takes none of")):
        bad = runner.invoke(app, ["play", "wordle", "CRANE", *args])
        assert bad.exit_code == 2 and fragment in bad.stderr, bad.stderr
    other = runner.invoke(app, ["play", "mastermind", "1234", "--lists", "nyt"])
    assert other.exit_code == 2 and "apply to wordle only" in other.stderr


@pytest.mark.parametrize("variant, total", [("normal-nyt", 11219), ("hard-nyt", 11627)])
def test_the_trees_are_optimal_by_the_published_values(variant, total):
    meta = artifacts.read(artifacts.TREE, get_game("wordle", variant))[1]
    assert int(meta["total_guesses"]) == total and meta["proven"] == "opener"
    assert meta["game_optimum"] == "published" and "results_" in meta["game_optimum_source"]
    guess, state = wordle.initial_guess(hard=variant.startswith("hard"), lists="nyt")
    assert guess == "TARSE" and state.exact


def test_the_library_plays_a_game_on_the_nyt_lists():
    guess, state = wordle.initial_guess(lists="nyt")
    for _ in range(6):
        if guess == "ABUZZ":
            break
        guess, state = wordle.next_guess((guess, state), reference.wordle("ABUZZ", guess))
    assert guess == "ABUZZ"
