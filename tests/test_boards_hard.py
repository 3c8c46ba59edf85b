"""Hard mode on several Wordle boards (issue 59, item 3): each guess must satisfy the hard-mode rule of every
board not yet solved, in the library (`Boards.start(..., hard=True)`, `solver.analysis.boards.play(hard=True)`),
the `deduce` boards commands and the `wordle` program (-b N -D); a game the rules leave no way to win ends."""
from __future__ import annotations

import io

import numpy as np
import pytest
from typer.testing import CliRunner

from solver.analysis.boards import check_boards, play
from solver.cli.main import app
from solver.core.registry import get_game
from solver.games import mastermind, wordle
from solver.games.boards import Boards
from solver.games.wordle import code_to_marks, hard_mode_allows
from solver.wordle_program.app import run
from solver.wordle_program.rounds import MultiRound

GAME = get_game("wordle", "normal")
HARD = get_game("wordle", "hard")
ACCEPTABLE = frozenset(GAME.labels)
runner = CliRunner()


def rule_breaks(boards: list[list[tuple[str, str]]], word: str) -> list[str]:
    """Return the hard-mode reasons `word` breaks on the boards given by their (guess, marks) histories."""
    return [reason for history in boards if (reason := hard_mode_allows(history, word)) is not None]


def test_the_mask_is_every_unsolved_boards_rule():
    state = Boards.start(GAME, 2, hard=True)
    crane, sloth = GAME.index_of("CRANE"), GAME.index_of("SLOTH")
    row = GAME.index_of("SALET")
    state = state.after(row, {0: GAME.code(row, crane), 1: GAME.code(row, sloth)})
    histories = [[("SALET", code_to_marks(GAME.code(row, answer), 5))] for answer in (crane, sloth)]
    mask = state.allowed()
    sample = np.random.default_rng(0).choice(GAME.n_guesses, 400, replace=False)
    for guess in sample.tolist() + [crane, sloth]:
        assert bool(mask[guess]) == (not rule_breaks(histories, GAME.labels[guess])), GAME.labels[guess]
    assert Boards.start(GAME, 2).allowed() is None  # normal mode: every guess


def test_a_guess_breaking_another_boards_rule_is_refused_and_a_solved_boards_rule_lapses():
    crane, sloth = GAME.index_of("CRANE"), GAME.index_of("SLOTH")
    state = Boards.start(HARD, 2)  # a hard variant is hard mode on every board
    assert state.hard
    row = GAME.index_of("CLASH")  # board 1 (CRANE): C, A green; board 2 (SLOTH): S, H yellow
    state = state.after(row, {0: GAME.code(row, crane), 1: GAME.code(row, sloth)})
    with pytest.raises(ValueError, match="hard mode forbids SLOTH: board 1"):
        state.after(sloth, {0: GAME.code(sloth, crane), 1: GAME.win_code})
    assert state.refusal(crane).startswith("board 2: ")
    normal = Boards.start(GAME, 2).after(row, {0: GAME.code(row, crane), 1: GAME.code(row, sloth)})
    assert normal.after(sloth, {0: GAME.code(sloth, crane), 1: GAME.win_code}).solved == (False, True)


def test_stuck_when_every_unsolved_boards_answers_break_another_rule():
    crane, sloth = GAME.index_of("CRANE"), GAME.index_of("SLOTH")
    row = GAME.index_of("TRACE")  # CRANE needs R, A in place (SLOTH has neither); SLOTH needs a T (CRANE has none)
    state = Boards.start(GAME, 2, hard=True).after(row, {0: GAME.code(row, crane), 1: GAME.code(row, sloth)})
    assert state.stuck
    assert not Boards.start(GAME, 2).after(row, {0: GAME.code(row, crane), 1: GAME.code(row, sloth)}).stuck
    steps = play(GAME, [crane, sloth], hard=True)
    assert len(steps) == 1  # the solver stops: no board can be solved any more


@pytest.mark.parametrize("words", [("LANCE", "MAGMA"), ("ANGER", "VIGIL")])
def test_the_solver_plays_only_guesses_every_unsolved_board_allows(words):
    answers = [GAME.index_of(word) for word in words]
    steps = play(GAME, answers, hard=True)
    histories: list[list[tuple[str, str]]] = [[] for _ in answers]
    for row, codes in steps:
        word = GAME.labels[row]
        open_boards = [history for history, code in zip(histories, codes) if code >= 0]
        assert not rule_breaks(open_boards, word), (word, histories)
        for history, code in zip(histories, codes):
            if code >= 0:
                history.append((word, code_to_marks(code, 5)))
    assert all(any(code == GAME.win_code for _, codes in steps for code in [codes[b]]) for b in range(2))
    assert steps == play(HARD, answers)  # the hard variant is the same as hard=True


def test_hard_mode_is_wordles_rule_only():
    assert check_boards(HARD, 2) == 2
    with pytest.raises(ValueError, match="hard mode is Wordle's rule"):
        Boards.start(mastermind.game(), 2, hard=True)
    assert wordle.game(hard=True).allowed is not None


def test_deduce_commands_accept_hard_mode_with_several_boards():
    result = runner.invoke(app, ["play", "wordle", "LANCE", "MAGMA", "--boards", "2", "--hard"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("You solved 2 boards in ")
    stuck = runner.invoke(app, ["play", "wordle", "CRANE", "SLOTH", "--boards", "2", "--hard"])
    assert stuck.exit_code == 0 and "the game cannot be won" in stuck.stdout.splitlines()[-1]
    marks = " ".join(wordle.feedback(answer, "TRACE") for answer in ("LANCE", "MAGMA"))  # TRACE: the proposal
    solve = runner.invoke(app, ["solve", "wordle", "--boards", "2", "--hard"],
                          input=f"{marks}\nMAGMA={wordle.feedback('LANCE', 'MAGMA')} GGGGG\nquit\n")
    assert "hard mode forbids MAGMA: board 1: letter 4 must be C" in solve.stderr
    assert "each guess keeps the hard-mode rule of every unsolved board" in solve.stdout
    marks = " ".join(wordle.feedback(answer, "CLASH") for answer in ("CRANE", "SLOTH"))
    ended = runner.invoke(app, ["solve", "wordle", "--boards", "2", "--hard"], input=f"CLASH {marks}\n")
    assert ended.exit_code == 0 and "the game cannot be won" in ended.stdout
    review = runner.invoke(app, ["review", "wordle", "--boards", "2", "--hard", "TRACE", "DANCE", "LANCE", "GASPY",
                                 "MAGMA", "--answer", "LANCE,MAGMA"])
    assert review.exit_code == 0, review.stderr


def wordle_lines(argv: list[str], stdin: str) -> tuple[int, list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(argv, io.StringIO(stdin), out, err, interactive=False)
    return status, out.getvalue().splitlines(), err.getvalue()


def test_the_wordle_program_plays_hard_mode_on_several_boards():
    # TRACE: board 1 (LANCE) C and E green, A yellow; MAGMA then breaks board 1's rule until LANCE is found
    status, lines, err = wordle_lines(["-b", "2", "-D", "-w", "lance,magma"], "trace\nmagma\ndance\nlance\nmagma\n")
    assert status == 0, err
    assert lines[1] == "INVALID" and lines[3].startswith("GGGGG RGRRR ") and lines[4].startswith("..... GGGGG ")
    assert lines[-1] == "CORRECT 4"
    game = MultiRound(("LANCE", "MAGMA"), ACCEPTABLE, hard=True)
    game.guess("TRACE")
    with pytest.raises(ValueError, match="hard mode, board 1: letter 4 must be C"):
        game.check("MAGMA")
    game.guess("LANCE")
    assert game.check("MAGMA") == "MAGMA"
    assert MultiRound(("LANCE", "MAGMA"), ACCEPTABLE).check("CLASH") == "CLASH"


def test_the_wordle_program_ends_a_game_no_board_can_be_won():
    status, lines, _ = wordle_lines(["-b", "2", "--difficult", "-w", "crane,sloth"], "trace\n")
    assert status == 0 and lines[-1] == "FAILED CRANE SLOTH" and len(lines) == 2
    game = MultiRound(("CRANE", "SLOTH"), ACCEPTABLE, hard=True)
    game.guess("TRACE")
    assert game.blocked and game.over and not game.won
    assert "Dordle 1 X&X/7*" in game.share()
