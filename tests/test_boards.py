"""Several Wordle boards at once (`solver.games.boards`, `deduce play/solve --boards N`)."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver.analysis.several_boards import parse_board_feedback, play
from solver.analysis.notation import select_game
from solver.cli.main import app
from solver.games import wordle
from solver.core import scoring
from solver.games.boards import SOLVED, SPREAD_WEIGHT, Boards, best_guess, greedy_order, guesses_allowed
from solver.games.wordlists import builtin_answers, builtin_guesses
from tests import reference
from tests.test_board_chances import reference as within_reference

GAME = wordle.game()
SMALL = wordle.game(answers=("ABC", "ABD", "ACB", "BCA", "CAB", "CBA", "DAB"),
                    guesses=("ABC", "ABD", "ACB", "BCA", "CAB", "CBA", "DAB", "DDD", "BAD", "ADC"))
runner = CliRunner()


def naive_best(game, boards: list[list[int]]) -> int:
    """The rule written out with fractions: least sum of expected candidates left, then a candidate, then row."""
    def key(guess: int):
        total, candidate = Fraction(0), False
        for rows in boards:
            sizes: dict[str, int] = {}
            for row in rows:
                marks = reference.wordle(game.labels[row], game.labels[guess])
                sizes[marks] = sizes.get(marks, 0) + 1
            won = "G" * len(game.labels[0])
            total += Fraction(sum(n * n for m, n in sizes.items() if m != won), len(rows))
            candidate |= guess in rows
        return total, not candidate, guess
    return min(range(game.n_guesses), key=key)


@given(st.lists(st.lists(st.integers(0, 6), min_size=1, max_size=7, unique=True), min_size=1, max_size=3))
def test_best_guess_matches_the_rule_written_out(boards):
    positions = [np.array(sorted(b), dtype=np.int64) for b in boards]
    rows = [[int(SMALL.target_index[p]) for p in b] for b in positions]
    assert best_guess(SMALL, positions) == naive_best(SMALL, rows)


def naive_spread(game, boards: list[list[int]]) -> int:
    """The spread rule written out: least sum of P(unsolved) + SPREAD_WEIGHT * E[log2 candidates left],
    then a candidate, then row."""
    won = "G" * len(game.labels[0])

    def key(guess: int):
        total, candidate = 0.0, False
        for rows in boards:
            sizes: dict[str, int] = {}
            for row in rows:
                marks = reference.wordle(game.labels[row], game.labels[guess])
                sizes[marks] = sizes.get(marks, 0) + 1
            unsolved = 1 - Fraction(sizes.get(won, 0), len(rows))
            log_left = sum(n * math.log2(n) for m, n in sizes.items() if m != won) / len(rows)
            total += float(unsolved) + SPREAD_WEIGHT * log_left
            candidate |= guess in rows
        return round(total, 9), not candidate, guess
    return min(range(game.n_guesses), key=key)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(0, 6), min_size=2, max_size=7, unique=True), min_size=3, max_size=4))
def test_three_boards_or_more_play_the_spread_rule_written_out(boards):
    positions = [np.array(sorted(b), dtype=np.int64) for b in boards]
    if all(p.size == SMALL.n_targets for p in positions):
        return  # the opening
    state = Boards(SMALL, tuple(positions), (False,) * len(positions))
    rows = [[int(SMALL.target_index[p]) for p in b] for b in positions]
    assert state.choose() == naive_spread(SMALL, rows)


@given(st.lists(st.integers(0, 6), min_size=2, max_size=7, unique=True))
def test_one_board_left_plays_the_greedy_rule(board):
    positions = np.array(sorted(board), dtype=np.int64)
    if positions.size == SMALL.n_targets:
        return  # the opening
    state = Boards(SMALL, (positions, np.array([0], np.int64)), (False, True))
    assert state.choose() == naive_best(SMALL, [[int(SMALL.target_index[p]) for p in positions]])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=2, max_size=7, unique=True),
       st.lists(st.integers(0, 6), min_size=2, max_size=7, unique=True))
def test_two_boards_play_the_lookahead_written_out(board_a, board_b):
    """On a game small enough for every guess to be rated at depth 3, the two-board choice is the guess of
    the highest depth-3 rating (ties: depth 2, then the greedy order), rated by the plain reference."""
    a, b = np.array(sorted(board_a), np.int64), np.array(sorted(board_b), np.int64)
    if a.size == SMALL.n_targets and b.size == SMALL.n_targets:
        return  # the opening, not the look-ahead
    table = scoring.feedback_table(SMALL, None, SMALL.target_index)  # every guess row on every target
    own = np.asarray(SMALL.target_index, dtype=np.int64)
    order = [int(r) for r in greedy_order(SMALL, [a, b])]
    _, _, rate = within_reference(table, own, order, SMALL.win_code)
    ta, tb = tuple(a.tolist()), tuple(b.tolist())

    def key(row):
        return (-round(rate(row, ta, tb, 3), 9), -round(rate(row, ta, tb, 2), 9), order.index(row))
    state = Boards(SMALL, (a, b), (False, False))
    assert state.choose() == min(range(SMALL.n_guesses), key=key)


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(0, GAME.n_targets - 1), min_size=2, max_size=4, unique=True))
def test_play_solves_every_board_with_true_feedback(positions):
    answers = [int(GAME.target_index[p]) for p in positions]
    steps = play(GAME, answers)
    solved_at = {}
    for number, (row, codes) in enumerate(steps, start=1):
        assert len(codes) == len(answers)
        for b, code in enumerate(codes):
            if b in solved_at:
                assert code == SOLVED  # a solved board takes no more guesses
            else:
                assert GAME.decode(code) == reference.wordle(GAME.labels[answers[b]], GAME.labels[row])
                if code == GAME.win_code:
                    solved_at[b] = number
    assert sorted(solved_at) == list(range(len(answers))) and max(solved_at.values()) == len(steps)


def test_after_keeps_exactly_the_consistent_candidates_and_names_bad_boards():
    state = Boards.start(GAME, 2)
    row = GAME.index_of("ROATE")
    crane, sloth = GAME.index_of("CRANE"), GAME.index_of("SLOTH")
    state = state.after(row, {0: GAME.code(row, crane), 1: GAME.code(row, sloth)})
    for b, answer in enumerate((crane, sloth)):
        marks = reference.wordle(GAME.labels[answer], "ROATE")
        expected = [p for p, t in enumerate(GAME.target_index)
                    if reference.wordle(GAME.labels[t], "ROATE") == marks]
        assert state.candidates[b].tolist() == expected
    with pytest.raises(ValueError, match="board 2: no answer gives"):
        state.after(row, {0: GAME.code(row, crane), 1: GAME.win_code})
    with pytest.raises(ValueError, match="unsolved boards 1, 2"):
        state.after(row, {0: GAME.code(row, crane)})
    assert Boards.start(wordle.game(hard=True), 2).hard and not Boards.start(GAME, 2).hard  # test_boards_hard.py
    assert guesses_allowed(1) == 6 and guesses_allowed(2) == 7 and guesses_allowed(4) == 9


def test_board_feedback_spellings():
    state = Boards.start(GAME, 2)
    expected = {0: GAME.encode("RYRGR"), 1: GAME.encode("GGRRR")}
    for text in ("RYRGR GGRRR", "RYRGR,GGRRR", "rYrGr/ggrrr", "⬛🟨⬛🟩⬛🟩🟩⬛⬛⬛", "0102022000"):
        assert parse_board_feedback(state, text) == expected, text
    with pytest.raises(ValueError, match="2 unsolved boards"):
        parse_board_feedback(state, "RYRGR")
    with pytest.raises(ValueError, match="board 2"):
        parse_board_feedback(state, "RYRGR GGRQR")


def test_cli_play_prints_each_board_and_the_summary():
    result = runner.invoke(app, ["play", "wordle", "CRANE", "SLOTH", "--boards", "2"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    guesses = [line.split(": ")[1] for line in lines if line.startswith("Guess #")]
    answers = [line.split(": ")[1] for line in lines if line.startswith("Feedback: ")]
    for guess, answer in zip(guesses, answers):
        parts = dict(zip(answer.split()[::2], answer.split()[1::2]))
        for board, word in (("1", "CRANE"), ("2", "SLOTH")):
            if board in parts:
                assert parts[board] == reference.wordle(word, guess)
    assert {"CRANE", "SLOTH"} <= set(guesses) and lines[-1].startswith("You solved 2 boards in ")


@pytest.mark.parametrize("args, status, fragment", [
    (["play", "wordle", "CRANE", "--boards", "2"], 2, "2 boards need 2 answers"),
    (["play", "cards", "2C", "AS", "--boards", "2"], 2, "--boards applies to wordle only"),
    (["solve", "wordle", "--boards", "33"], 2, "--boards"),
])
def test_cli_board_errors(args, status, fragment):
    result = runner.invoke(app, args)
    assert result.exit_code == status, (result.stdout, result.stderr)
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_cli_solve_reads_the_marks_of_each_unsolved_board():
    crane, sloth = "CRANE", "SLOTH"
    state, lines = Boards.start(GAME, 2), []
    while not state.done:  # the feedback a player of these two answers types
        row = state.choose()
        codes = {b: GAME.code(row, GAME.index_of(w)) for b, w in enumerate((crane, sloth)) if not state.solved[b]}
        lines.append(" ".join(GAME.decode(codes[b]) for b in sorted(codes)))
        state = state.after(row, codes)
    script = [lines[0], "RRRRR", "undo", lines[0], *lines[1:]]  # an inconsistent line, then a take-back
    result = runner.invoke(app, ["solve", "wordle", "--boards", "2"], input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "expected the marks of 2 unsolved boards" in result.stderr
    assert f"All 2 boards solved in {len(state.history)} guesses!" in result.stdout


def test_cli_bench_boards_prints_the_summary_of_the_sets_it_played(tmp_path):
    """`deduce bench wordle --boards 2 --sample K --seed S`: the histogram and the mean over K random sets of 2
    different answers, as the sets drawn with that seed give when played one by one (small word lists: the
    look-ahead's cost is not what this checks)."""
    answers = builtin_answers()[::60]
    (tmp_path / "answers.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "guesses.txt").write_text("\n".join(sorted(set(builtin_guesses()[::20]) | set(answers))) + "\n")
    lists = ["--answers", str(tmp_path / "answers.txt"), "--guesses", str(tmp_path / "guesses.txt")]
    result = CliRunner().invoke(app, ["bench", "wordle", "--boards", "2", "--sample", "12", "--seed", "5", *lists])
    assert result.exit_code == 0, result.output
    game = select_game("wordle", answers=tmp_path / "answers.txt", guesses=tmp_path / "guesses.txt")
    rng = np.random.default_rng(5)
    lengths = []
    for _ in range(12):
        answers = [int(game.target_index[i]) for i in rng.choice(game.n_targets, 2, replace=False)]
        assert len(set(answers)) == 2
        lengths.append(len(play(game, answers)))
    assert "12 answer sets" in result.output
    assert f"mean {np.mean(lengths):.4f} guesses" in result.output
    assert f"max {max(lengths)}, total {sum(lengths)}" in result.output


def test_play_from_a_given_first_guess():
    """`play(..., opener=row)` opens with that row, then plays on as the solver does."""
    answers = [GAME.index_of("CRANE"), GAME.index_of("SLOTH")]
    steps = play(GAME, answers, opener=GAME.index_of("SALET"))
    assert steps[0][0] == GAME.index_of("SALET")
    assert [code for code in steps[-1][1] if code != SOLVED] == [GAME.win_code]
    assert play(GAME, answers)[0][0] == GAME.index_of("TRACE")  # the solver's own first guess
