"""Messages name games as users typed them (`Game.title`), never by internal keys like wordle-normal-83349c3625."""
from __future__ import annotations

import re

from typer.testing import CliRunner

from solver.cli.main import app
from solver.games import cards, mastermind, wordle
from solver.games.wordlists import builtin_guesses

INTERNAL_KEY = re.compile(r"[a-z]+-[a-z0-9-]*[0-9a-f]{10}")


def test_titles():
    assert wordle.game().title == "wordle" and wordle.game(hard=True).title == "wordle hard"
    assert cards.game(3).title == "cards n3" and mastermind.game().title == "mastermind"
    assert wordle.game(guesses=builtin_guesses()).title == "wordle (every acceptable word a possible answer)"
    assert wordle.game(True, ("CRANE", "SLATE"), ("CRANE", "SLATE", "TRACE")).title == \
        "wordle hard (your lists: 2 answers, 3 guesses)"
    assert wordle.game(guesses=builtin_guesses()).key.startswith("wordle-normal-")  # files keep the key


def test_messages_about_custom_lists_show_no_internal_key(tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("crane\nslate\ntrace\n")
    runner = CliRunner()
    for args in (["hint", "wordle", "--answers", str(answers), "QQQQQ=GGGGG"],
                 ["hint", "wordle", "--all-words", "CRANE=RYRGR", "QQQQQ=GGGGG"],
                 ["solve", "wordle", "--answers", str(answers)]):
        result = runner.invoke(app, args, input="quit\n")
        text = result.stdout + result.stderr
        assert "wordle" in text and not INTERNAL_KEY.search(text), text
