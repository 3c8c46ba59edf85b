"""What a new user trips over (issue 23): games over the limit, answers outside the list, the openers
table, repeated board answers, output closed early, and the wording of a few messages."""
from __future__ import annotations

from typer.testing import CliRunner

from solver.cli.main import app

runner = CliRunner()


def deduce(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def ok(*args: str, input: str | None = None) -> str:
    result = deduce(*args, input=input)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


# -- 6. over the guess limit ------------------------------------------------------------------
def test_play_over_the_guess_limit_is_not_a_win():
    out = ok("play", "wordle", "WASTER", "--size", "6", "--hard").splitlines()
    assert out[-1] == "Not solved within 6 (took 9)."
    assert not any("You got it" in line for line in out)
    assert ok("play", "wordle", "CRANE").splitlines()[-1].startswith("You got it in ")


def test_bench_counts_the_games_over_the_limit():
    lines = ok("bench", "wordle", "--size", "6", "--hard").splitlines()
    counts = {int(g): int(n) for g, n, *_ in (line.split() for line in lines[2:]) if g.isdigit()}
    over = sum(n for g, n in counts.items() if g > 6)
    assert over > 0  # WASTER, WINDER, ... take more than 6
    assert f"over the limit of 6 guesses: {over} targets (not solved in the game)" in lines
    assert not any(line.startswith("over the limit") for line in ok("bench", "mastermind", "-s", "5").splitlines())
