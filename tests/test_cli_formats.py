"""Unit tests of `solver.analysis.notation`: command-line text of guesses, answers and feedback."""
from __future__ import annotations

import pytest

from solver.analysis.notation import (
    check_allowed,
    history_text,
    parse_answer,
    parse_feedback,
    parse_guess,
    parse_path,
    parse_step,
    select_game,
    show_feedback,
    tokens,
)
from solver.core.registry import UnknownGameError, get_game


@pytest.mark.parametrize("text, expected", [
    ("A1 A3 H1", ["A1", "A3", "H1"]),
    ("A1-A3-H1", ["A1", "A3", "H1"]),
    (" 2C+AS ", ["2C", "AS"]),
    ("2C + AS", ["2C", "AS"]),
])
def test_tokens(text, expected):
    assert tokens(text) == expected


@pytest.mark.parametrize("name, variant, text, label", [
    ("battleship", None, "h1-a3-A1", "A1 A3 H1"),
    ("cards", "n2", "as+2c", "2C AS"),
    ("wordle", None, "crane", "CRANE"),
    ("mastermind", None, " 1122 ", "1122"),
    ("bulls", None, "0123", "0123"),
])
def test_guesses_are_canonical(name, variant, text, label):
    game = get_game(name, variant)
    assert game.labels[parse_guess(game, text)] == label


@pytest.mark.parametrize("name, text, code_of", [
    ("battleship", "0,1,0", (0, 1, 0)),
    ("battleship", "(0, 1, 0)", (0, 1, 0)),
    ("mastermind", "(2,1)", (2, 1)),
    ("bulls", "1 2", (1, 2)),
    ("wordle", "gyrrr", "GYRRR"),
])
def test_feedback(name, text, code_of):
    game = get_game(name)
    code = parse_feedback(game, text)
    assert code == game.encode(code_of)
    assert parse_feedback(game, show_feedback(game, code)) == code


@pytest.mark.parametrize("name, text, fragment", [
    ("battleship", "0,1", "3 integers"),
    ("battleship", "0,1,x", "integers like (3,0,0)"),
    ("battleship", "0,1,-1", "integers like"),
    ("mastermind", "5,0", "0..4"),
    ("mastermind", "", "integers like"),
    ("wordle", "GYRRZ", "marks must be"),
    ("wordle", "GYRR", "marks must be 5 of"),
])
def test_bad_feedback(name, text, fragment):
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        parse_feedback(get_game(name), text)


def test_paths_split_between_steps():
    game = get_game("battleship")
    steps = parse_path(game, "A1-A3-H1=0,1,0,B2 C3 D4=(1,0,0);E1+F1+G1=0,0,0")
    assert [game.labels[g] for g, _ in steps] == ["A1 A3 H1", "B2 C3 D4", "E1 F1 G1"]
    assert [show_feedback(game, c) for _, c in steps] == ["(0,1,0)", "(1,0,0)", "(0,0,0)"]
    wordle = get_game("wordle")
    assert history_text(wordle, parse_path(wordle, "crane=ryrgr,burnt=rrygr")) == "CRANE=RYRGR, BURNT=RRYGR"


@pytest.mark.parametrize("text", ["1122", "1122=1,0=1", "=1,0", "1122="])
def test_bad_steps(text):
    with pytest.raises(ValueError):
        parse_step(get_game("mastermind"), text)


def test_answers_must_be_targets():
    game = get_game("wordle")
    assert game.labels[parse_answer(game, ["Crane"])] == "CRANE"
    with pytest.raises(ValueError, match="not one of the 2315 answers"):
        parse_answer(game, ["AAHED"])
    battleship = get_game("battleship")
    assert battleship.labels[parse_answer(battleship, ["B2", "A1-C3"])] == "A1 B2 C3"


def test_select_game():
    assert select_game("cards", "n3").key == "cards-n3"
    assert select_game("wordle", hard=True).key == "wordle-hard"
    assert select_game("wordle", every_word=True).n_targets == get_game("wordle").n_guesses
    with pytest.raises(UnknownGameError):
        select_game("wordle", "easy")
    with pytest.raises(ValueError, match="wordle only"):
        select_game("bulls", hard=True)


def test_hard_mode_check():
    game = get_game("wordle", "hard")
    history = [parse_step(game, "CRANE=GRRRR")]
    check_allowed(game, history, game.index_of("CLOTH"))
    with pytest.raises(ValueError, match="letter 1 must be C"):
        check_allowed(game, history, game.index_of("SLOTH"))
    check_allowed(get_game("wordle"), history, game.index_of("SLOTH"))  # normal mode: anything goes


@pytest.mark.parametrize("text", ["GYRRR", "gyrrr", "GYBBB", "gyxxx", "GY...", "GY---", "21000", " GYRRR ",
                                  "\U0001f7e9\U0001f7e8\u2b1b\u2b1b\u2b1b", "\U0001f7e9\U0001f7e8\u2b1c\u2b1c\u2b1c",
                                  "\U0001f7e7\U0001f7e6\u2b1b\u2b1b\u2b1b",  # high-contrast palette
                                  "\U0001f7e9\U0001f7e8\u2b1b\ufe0f\u2b1b\ufe0f\u2b1b\ufe0f"])  # pasted with selectors
def test_every_spelling_of_wordle_marks_reads_the_same(text):
    game = get_game("wordle")
    assert parse_feedback(game, text) == parse_feedback(game, "GYRRR")
