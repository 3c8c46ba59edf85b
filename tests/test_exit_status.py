"""One exit-status convention for `deduce` and `wordle`: 2 usage, 1 data or runtime, 130 interrupted;
and help pages without Python type labels."""
from __future__ import annotations

import io

import pytest
from typer.testing import CliRunner

from solver.cli.main import app
from solver.wordle_program.program import run as run_wordle

COMMANDS = ["tree", "play", "solve", "hide", "bench", "openers", "hint", "tables"]


def deduce(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def wordle(*args: str, input: str = "") -> tuple[int, str]:
    err = io.StringIO()
    status = run_wordle(list(args), io.StringIO(input), io.StringIO(), err, interactive=False)
    return status, err.getvalue()


@pytest.mark.parametrize("args", [
    ["--bogus"], ["hint"], ["hint", "wordle", "--top", "many"], ["hint", "nogame"],
    ["tree", "cards", "--variant", "n9"], ["play", "wordle", "CRANE", "--hard", "--variant", "answers-only"],
    ["hint", "mastermind", "--hard"], ["nocommand"],
])
def test_deduce_usage_errors_exit_2(args):
    result = deduce(*args)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr


@pytest.mark.parametrize("args", [
    ["hint", "wordle", "CRANE=QQQQQ"], ["hint", "wordle", "QQQQQ=GGGGG"], ["play", "mastermind", "9999"],
    ["hint", "mastermind", "1122=4,0", "1122=0,0"], ["hint", "wordle", "--answers", "/no/such/file"],
    ["tables", "--game", "nomodule"],
])
def test_deduce_data_errors_exit_1(args):
    result = deduce(*args)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr


def test_interactive_end_of_input_is_a_data_error_even_after_a_rejected_line():
    assert deduce("solve", "bulls", input="0,1\n").exit_code == 1
    assert deduce("solve", "bulls", input="0,1\n7\n").exit_code == 1


def test_wordle_follows_the_same_convention(tmp_path):
    assert wordle("--bogus")[0] == 2
    assert wordle("-d", "minus")[0] == 2
    status, err = wordle("-w", "QQ")
    assert status == 1 and err.startswith("error: "), err
    status, err = wordle("-f", str(tmp_path / "missing.txt"), "-r")
    assert status == 1, err


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_shows_no_python_type_labels(command):
    result = deduce(*([command] if command else []), "--help")
    assert result.exit_code == 0
    for label in ("<bool>", "<str>", "<int", "<list[", "<path>"):
        assert label not in result.stdout, (command, label)
    if command == "hint":
        assert "N [x>=1]" in result.stdout and "VARIANT" in result.stdout
