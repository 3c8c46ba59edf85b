"""Wordle's answers-only variant: only the 2315 answers may be guessed (no tree yet: played live)."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from solver.analysis.notation import parse_guess, select_game
from solver.cli.main import app
from solver.core.registry import VARIANTS, get_game
from solver.games import wordle
from solver.games.wordlists import builtin_answers, builtin_guesses
from tests import reference


def test_guesses_are_the_answers():
    game = get_game("wordle", "answers-only")
    assert game.key == "wordle-answers-only"
    assert game.labels == builtin_answers() and len(game.labels) == 2315
    assert [game.labels[t] for t in game.target_index] == list(builtin_answers())
    assert game.allowed is None
    assert game is wordle.game(answers_only=True)


def test_registered_after_hard_and_other_variant_names_unchanged():
    assert list(VARIANTS["wordle"]) == ["normal", "hard", "answers-only", "normal-nyt", "hard-nyt", "normal-all-words",
                                        "hard-all-words"]
    assert wordle.game().variant == "normal" and wordle.game(hard=True).variant == "hard"
    own = wordle.game(answers=("ABC", "CAB"), guesses=("ABC", "BBB", "CAB"))
    assert own.variant.startswith("normal-")


def test_fingerprint_differs_from_normal():
    assert wordle.game(answers_only=True).fingerprint() != wordle.game().fingerprint()


@pytest.mark.parametrize("kwargs", [{"hard": True}, {"answers": ("ABC",)}, {"guesses": ("ABC",)}])
def test_answers_only_refuses_hard_mode_and_word_lists(kwargs):
    with pytest.raises(ValueError, match="answers-only"):
        wordle.game(answers_only=True, **kwargs)


@pytest.mark.parametrize("target", ["CRANE", "ABBEY", "ZESTY"])
def test_a_played_game_finishes_guessing_answers_only(target):
    answers = set(builtin_answers())
    guess, state = wordle.initial_guess(answers_only=True)
    played = [guess]
    while guess != target:
        assert len(played) < 10, played
        guess, state = wordle.next_guess((guess, state), reference.wordle(target, guess))
        played.append(guess)
    assert set(played) <= answers
    assert state.solver.game.key == "wordle-answers-only"


def test_a_guess_outside_the_answers_is_rejected():
    guess, state = wordle.initial_guess(answers_only=True)
    with pytest.raises(ValueError, match="SALET"):
        wordle.next_guess(("SALET", state), "RRRRR")
    game = select_game("wordle", "answers-only")
    with pytest.raises(ValueError, match="SALET"):
        parse_guess(game, "salet")


def test_select_game_and_cli_errors():
    assert select_game("wordle", "answers-only").key == "wordle-answers-only"
    assert select_game("wordle", "answers-only", every_word=True).key == "wordle-answers-only"
    with pytest.raises(ValueError, match="--hard contradicts --variant answers-only"):
        select_game("wordle", "answers-only", hard=True)
    runner = CliRunner()
    for extra, fragment, status in ((["--hard"], "--hard contradicts", 2),  # usage
                                    ([], "SALET is not one of the 2315 acceptable guesses", 1)):  # data
        word = "SALET" if not extra else "CRANE"
        result = runner.invoke(app, ["play", "wordle", word, "--variant", "answers-only", *extra])
        assert result.exit_code == status
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], result.stderr


def test_cli_play_and_tree():
    runner = CliRunner()
    result = runner.invoke(app, ["play", "wordle", "CRANE", "--variant", "answers-only"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-2] == "Feedback: GGGGG" and lines[-1].startswith("You got it in")
    guesses = [line.split(": ")[1] for line in lines if line.startswith("Guess #")]
    assert set(guesses) <= set(builtin_answers())
    result = runner.invoke(app, ["tree", "wordle", "--variant", "answers-only", "--path", "RAISE=YYRRG"])
    assert result.exit_code == 0, result.stderr
    assert "candidates: 26" in result.stdout


def test_every_word_a_possible_answer_is_one_variant_however_asked_for():
    game = wordle.game(all_words=True)
    assert game.key == "wordle-normal-all-words" and game.n_targets == game.n_guesses == 12972
    by_hand = wordle.game(guesses=builtin_guesses())  # the same lists given by hand
    assert (by_hand.key, by_hand.fingerprint()) == (game.key, game.fingerprint())
    assert get_game("wordle", "normal-all-words") is game
    assert select_game("wordle", every_word=True) is game
    assert select_game("wordle", variant="normal-all-words") is game
    assert select_game("wordle", every_word=True, hard=True).variant == "hard-all-words"
    assert wordle.game(size=6, all_words=True).variant == "normal6-all-words"


@pytest.mark.parametrize("kwargs", [{"answers": ("CRANE",)}, {"answers_only": True}, {"lists": "nyt"}])
def test_all_words_refuses_other_lists(kwargs):
    with pytest.raises(ValueError, match="all_words"):
        wordle.game(all_words=True, **kwargs)


def test_initial_guess_takes_users_lists_of_any_length_the_game_takes():
    # lists of 1 to 10 letters, as `wordle.game` takes them; `size` alone picks the built-in lists (4 to 9)
    for words in (["AB", "CD", "EF", "AC"], ["ABC", "ABD", "XYZ"], ["ABCDEFGHIJ", "ABCDEFGHIK", "KJIHGFEDCB"]):
        guess, state = wordle.initial_guess(guesses=words)
        assert guess in words and state.remaining == len(words)
    with pytest.raises(ValueError, match="4 to 9 letters, got 3"):
        wordle.initial_guess(size=3)
