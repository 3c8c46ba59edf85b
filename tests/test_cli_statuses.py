"""One exit status per kind of mistake: a guess without the feedback it needs is a usage
error (2) in every command that reads guesses, as docs/pages/cli.md says; a guess or feedback the game refuses
is a data error (1) and names the game as the other messages do (its title, the list's size); `make install`
shows pip's progress."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli.main import app

ROOT = Path(__file__).resolve().parents[1]


def status_and_error(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, args)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return result.exit_code, lines[0]


@pytest.mark.parametrize("args", [
    ["hint", "wordle", "CRANE"],
    ["hint", "wordle", "CRANE=RYRGR", "SLOTH"],
    ["hint", "mastermind", "1122"],
    ["review", "wordle", "CRANE", "BURNT"],
    ["review", "wordle", "CRANE=RYRGR", "BURNT"],
    ["tree", "wordle", "--path", "CRANE"],
])
def test_a_guess_without_its_feedback_is_a_usage_error_everywhere(args):
    assert status_and_error(args)[0] == 2


@pytest.mark.parametrize("args", [
    ["hint", "wordle", "CRANE=QQQQQ"], ["review", "wordle", "CRANE=RYRG"], ["tree", "wordle", "--path", "CRANE=GGGGQ"],
    ["hint", "wordle", "QQQQQ=RRRRR"], ["review", "wordle", "QQQQQ", "--answer", "CRANE"],
])
def test_a_guess_or_feedback_the_game_refuses_is_a_data_error_everywhere(args):
    assert status_and_error(args)[0] == 1


@pytest.mark.parametrize("args, message", [
    (["hint", "wordle", "QQQQQ=RRRRR"], "QQQQQ is not one of the 12972 acceptable guesses of wordle"),
    (["hint", "wordle", "--hard", "QQQQQ=RRRRR"], "QQQQQ is not one of the 12972 acceptable guesses of wordle hard"),
    (["play", "wordle", "QQQQQ", "--lists", "nyt"],
     "QQQQQ is not one of the 14855 acceptable guesses of wordle (NYT lists)"),
    (["hint", "wordle", "AAHED=GGGGG"], "AAHED is not one of the 2315 answers of wordle"),
])
def test_words_not_in_a_list_name_the_game_and_the_list_as_the_answers_do(args, message):
    status, line = status_and_error(args)
    assert status == 1 and line.startswith(f"error: {message}"), line


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_install_says_what_it_installs_and_shows_pips_progress():
    recipe = subprocess.run(["make", "-n", "-B", "install"], cwd=ROOT, capture_output=True, text=True, check=True)
    lines = recipe.stdout.splitlines()
    install = next(line for line in lines if "pip install" in line and "-e" in line)
    assert " -q" not in install.split("pip install")[1]  # pip's normal output: what it collects and builds
    said = next(line for line in lines if line.startswith("echo "))
    assert lines.index(said) < lines.index(install) and "a minute or two" in said
