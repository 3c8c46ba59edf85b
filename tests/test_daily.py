"""The daily puzzle (`solver.analysis.daily`): a pure function of (game, boards, date), numbered from 2021-06-19."""
from __future__ import annotations

from datetime import date, timedelta

import pytest

from solver.analysis.daily import EPOCH, daily, day_number
from solver.core.registry import get_game


def test_days_are_numbered_from_the_epoch():
    assert EPOCH == date(2021, 6, 19)
    assert day_number(EPOCH) == 0
    assert day_number(date(2024, 1, 1)) == 926  # the published Wordle's number for that date
    with pytest.raises(ValueError, match="2021-06-19"):
        day_number(date(2021, 6, 18))


def test_the_same_answer_for_everyone_on_a_date():
    game = get_game("wordle")
    first = daily(game, date(2024, 1, 1))
    assert first == daily(get_game("wordle"), date(2024, 1, 1))  # repeatable, whatever else ran
    assert first.number == 926 and first.answers == ("SPINE",)  # fixed forever: the order is SHA-256's
    assert daily(get_game("wordle", "hard"), date(2024, 1, 1)).answers == first.answers  # same answers list
    assert first.rows[0] in set(game.target_index.tolist())


def test_no_answer_comes_back_before_every_answer_had_its_day():
    game = get_game("wordle")
    days = [daily(game, EPOCH + timedelta(days=d)).rows[0] for d in range(game.n_targets)]
    assert len(set(days)) == game.n_targets
    assert daily(game, EPOCH + timedelta(days=game.n_targets)).rows == (days[0],)


def test_boards_have_different_answers():
    game = get_game("wordle")
    for d in range(50):
        puzzle = daily(game, EPOCH + timedelta(days=d), 4)
        assert len(set(puzzle.rows)) == 4
    with pytest.raises(ValueError, match="boards"):
        daily(game, EPOCH, 0)


def test_other_games_too():
    game = get_game("mastermind")
    puzzle = daily(game, date(2024, 1, 1))
    assert puzzle.answers[0] == game.labels[puzzle.rows[0]] and len(puzzle.answers[0]) == 4
