"""Every face refuses a history longer than the game's guess limit allows, and a budget
that is not a number of seconds: one line naming what is wrong, no advice past the limit."""
from __future__ import annotations


import pytest
from typer.testing import CliRunner

from solver.analysis.notation import GuessLimitError, check_guess_left, check_guess_limit, guess_limit
from solver.cli.main import app
from solver.core.registry import get_game

httpx = pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx: pip install '.[test]'")

runner = CliRunner()
MISS = "SALET=RRRRR"  # SALET all grey: a consistent step that never wins
STEP = {"guess": "SALET", "feedback": "RRRRR"}


def test_the_limit_comes_from_the_game():
    wordle = get_game("wordle")
    assert [guess_limit(wordle, boards) for boards in (1, 2, 4)] == [6, 7, 9]
    assert guess_limit(get_game("mastermind")) is None
    check_guess_left(wordle, 5)
    check_guess_left(wordle, 6, won=True)  # the sixth guess won: the history is whole
    for steps, won in ((6, False), (7, True), (10, False)):
        with pytest.raises(GuessLimitError, match="no guess is left"):
            check_guess_left(wordle, steps, won=won)
    check_guess_limit(wordle, 6)
    with pytest.raises(GuessLimitError, match="2 boards allow 7 guesses, got 8"):
        check_guess_limit(wordle, 8, boards=2)
    check_guess_left(get_game("mastermind"), 50)  # no limit, no refusal


@pytest.mark.parametrize("steps", [6, 7, 10])
def test_hint_refuses_a_history_with_no_guess_left(steps):
    out = runner.invoke(app, ["hint", "wordle", *[MISS] * steps])
    assert out.exit_code == 2, out.output
    assert f"wordle allows 6 guesses and this history has {steps}: no guess is left" in out.stderr
    assert "Traceback" not in out.output and "possible answers" not in out.stdout


def test_tree_path_refuses_a_path_past_the_limit():
    out = runner.invoke(app, ["tree", "wordle", "--path", ",".join([MISS] * 7)])
    assert out.exit_code == 2 and "no guess is left to advise" in out.stderr and out.stdout == ""


def test_a_sixth_guess_that_wins_is_a_whole_history():
    game = get_game("wordle")
    answer = game.index_of("VIVID")
    steps = [f"{word}={game.decode(game.code(game.index_of(word), answer))}"
             for word in ("SALET", "CRONY", "HUMPH", "WHIFF", "BIDDY", "VIVID")]
    out = runner.invoke(app, ["hint", "wordle", *steps])
    assert out.exit_code == 0, out.output
    assert "no guess is left" not in out.output


@pytest.mark.parametrize("steps", [6, 7, 10])
def test_api_next_refuses_past_the_limit(client, steps):
    response = client.post("/api/next", json={"game": "wordle", "history": [STEP] * steps})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == "history" and "no guess is left" in error["message"]


def test_api_tree_refuses_depth_seven(client):
    response = client.post("/api/tree", json={"game": "wordle", "path": [STEP] * 7})
    assert response.status_code == 422 and response.json()["error"]["field"] == "path"


def test_api_boards_next_refuses_more_steps_than_the_boards_allow(client):
    step = {"guess": "SALET", "feedback": ["RRRRR", "RRRRR"]}
    response = client.post("/api/boards/next", json={"boards": 2, "history": [step] * 100})
    assert response.status_code == 422, response.text
    assert "2 boards allow 7 guesses, got 100" in response.json()["error"]["message"]
    response = client.post("/api/boards/next", json={"boards": 2, "history": [step] * 7})
    assert response.status_code == 422 and "no guess is left" in response.json()["error"]["message"]


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_a_budget_that_is_not_seconds_is_named(value):
    out = runner.invoke(app, ["hint", "wordle", "--budget", value, "ADIEU=RRRRY"])
    assert out.exit_code == 2 and "'--budget'" in out.stderr and "not a number of seconds" in out.stderr
    assert "Traceback" not in out.output and "possible answers" not in out.stdout
