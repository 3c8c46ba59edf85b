"""Hard mode on several Wordle boards: each guess must satisfy the hard-mode rule of at least
one board not yet solved, in the library (`Boards.start(..., hard=True)`,
`solver.analysis.several_boards.play(hard=True)`), the `deduce` boards commands and the `wordle` program
(-b N -D). Every board's rule at once would leave most games unwinnable (a letter yellow on one board, grey on
another); under one board's rule every game can be won."""
from __future__ import annotations

import io

import numpy as np
import pytest
from typer.testing import CliRunner

from solver.analysis.several_boards import check_boards, play
from solver.cli.main import app
from solver.core.registry import get_game
from solver.games import mastermind, wordle
from solver.games.boards import Boards
from solver.games.wordle import code_to_marks, hard_mode_allows
from solver.wordle_program.program import run
from solver.wordle_program.rounds import MultiRound

GAME = get_game("wordle", "normal")
HARD = get_game("wordle", "hard")
ACCEPTABLE = frozenset(GAME.labels)
runner = CliRunner()


def rule_breaks(boards: list[list[tuple[str, str]]], word: str) -> list[str]:
    """Return the hard-mode reasons `word` breaks on the boards given by their (guess, marks) histories."""
    return [reason for history in boards if (reason := hard_mode_allows(history, word)) is not None]


def test_the_mask_is_any_unsolved_boards_rule():
    state = Boards.start(GAME, 2, hard=True)
    crane, sloth = GAME.index_of("CRANE"), GAME.index_of("SLOTH")
    row = GAME.index_of("SALET")
    state = state.after(row, {0: GAME.code(row, crane), 1: GAME.code(row, sloth)})
    histories = [[("SALET", code_to_marks(GAME.code(row, answer), 5))] for answer in (crane, sloth)]
    mask = state.allowed()
    sample = np.random.default_rng(0).choice(GAME.n_guesses, 400, replace=False)
    for guess in sample.tolist() + [crane, sloth]:
        allowed_somewhere = any(hard_mode_allows(history, GAME.labels[guess]) is None for history in histories)
        assert bool(mask[guess]) == allowed_somewhere, GAME.labels[guess]
    assert not mask.all() and mask[crane] and mask[sloth]
    assert Boards.start(GAME, 2).allowed() is None  # normal mode: every guess


def test_a_guess_keeping_no_boards_rule_is_refused_naming_each_and_a_solved_boards_rule_lapses():
    crane, sloth = GAME.index_of("CRANE"), GAME.index_of("SLOTH")
    state = Boards.start(HARD, 2)  # a hard variant is hard mode on every board
    assert state.hard
    row = GAME.index_of("CLASH")  # board 1 (CRANE): C, A green; board 2 (SLOTH): S, H yellow
    state = state.after(row, {0: GAME.code(row, crane), 1: GAME.code(row, sloth)})
    puppy = GAME.index_of("PUPPY")
    with pytest.raises(ValueError, match="hard mode forbids PUPPY: board 1: .*; board 2: "):
        state.after(puppy, {0: GAME.code(puppy, crane), 1: GAME.code(puppy, sloth)})
    assert state.refusal(sloth) is None  # board 2's rule allows it, though board 1's does not
    assert rule_breaks([[("CLASH", code_to_marks(GAME.code(row, crane), 5))]], "SLOTH")
    after = state.after(sloth, {0: GAME.code(sloth, crane), 1: GAME.win_code})
    assert after.solved == (False, True)
    assert after.refusal(sloth) is not None  # board 2 solved: only board 1's rule is left


@pytest.mark.parametrize("words", [("CRANE", "SLOTH"), ("LANCE", "MAGMA"), ("ANGER", "VIGIL"),
                                   ("PROXY", "FLOOR", "CHEST", "ABBEY")])
def test_the_solver_wins_every_game_playing_only_allowed_guesses(words):
    answers = [GAME.index_of(word) for word in words]
    steps = play(GAME, answers, hard=True)
    histories: list[list[tuple[str, str]]] = [[] for _ in answers]
    for row, codes in steps:
        word = GAME.labels[row]
        open_boards = [history for history, code in zip(histories, codes) if code >= 0]
        assert len(rule_breaks(open_boards, word)) < len(open_boards), (word, histories)
        for history, code in zip(histories, codes):
            if code >= 0:
                history.append((word, code_to_marks(code, 5)))
    assert all(any(codes[b] == GAME.win_code for _, codes in steps) for b in range(len(words)))
    assert steps == play(HARD, answers)  # the hard variant is the same as hard=True


def test_no_answer_set_is_left_unwinnable_after_the_first_guess():
    rng = np.random.default_rng(59)
    trace = GAME.index_of("TRACE")
    for count in (2, 4):
        for _ in range(200):
            answers = rng.choice(GAME.target_index, count, replace=False)
            state = Boards.start(GAME, count, hard=True)
            state = state.after(trace, {b: GAME.code(trace, int(a)) for b, a in enumerate(answers)})
            mask = state.allowed()
            assert all(mask[int(a)] for b, a in enumerate(answers) if not state.solved[b])


def test_hard_mode_is_wordles_rule_only():
    assert check_boards(HARD, 2) == 2
    with pytest.raises(ValueError, match="hard mode is Wordle's rule"):
        Boards.start(mastermind.game(), 2, hard=True)
    assert wordle.game(hard=True).allowed is not None


def test_deduce_commands_accept_hard_mode_with_several_boards():
    for words in (("LANCE", "MAGMA"), ("CRANE", "SLOTH")):
        result = runner.invoke(app, ["play", "wordle", *words, "--boards", "2", "--hard"])
        assert result.exit_code == 0, result.stderr
        assert result.stdout.splitlines()[-1].startswith("You solved 2 boards in ")
    marks = " ".join(wordle.feedback(answer, "TRACE") for answer in ("LANCE", "MAGMA"))  # TRACE: the proposal
    solve = runner.invoke(app, ["solve", "wordle", "--boards", "2", "--hard"],
                          input=f"{marks}\nPUPPY={wordle.feedback('LANCE', 'PUPPY')} "
                                f"{wordle.feedback('MAGMA', 'PUPPY')}"
                                "\nquit\n")
    assert "hard mode forbids PUPPY: board 1: " in solve.stderr and "; board 2: " in solve.stderr
    assert "each guess keeps the hard-mode rule of at least one unsolved board" in solve.stdout
    review = runner.invoke(app, ["review", "wordle", "--boards", "2", "--hard", "TRACE", "DANCE", "LANCE", "GASPY",
                                 "MAGMA", "--answer", "LANCE,MAGMA"])
    assert review.exit_code == 0, review.stderr


def wordle_lines(argv: list[str], stdin: str) -> tuple[int, list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(argv, io.StringIO(stdin), out, err, interactive=False)
    return status, out.getvalue().splitlines(), err.getvalue()


def test_the_wordle_program_plays_hard_mode_on_several_boards():
    # TRACE: board 1 (LANCE) C and E green, A yellow; board 2 (MAGMA) A yellow: PUPPY keeps neither rule
    status, lines, err = wordle_lines(["-b", "2", "-D", "-w", "lance,magma"], "trace\npuppy\nmagma\nlance\n")
    assert status == 0, err
    assert lines[1] == "INVALID" and lines[-1] == "CORRECT 3"
    game = MultiRound(("LANCE", "MAGMA"), ACCEPTABLE, hard=True)
    game.guess("TRACE")
    with pytest.raises(ValueError, match="hard mode, board 1: .*; board 2: "):
        game.check("PUPPY")
    assert game.check("MAGMA") == "MAGMA"  # board 2's rule allows it
    assert MultiRound(("LANCE", "MAGMA"), ACCEPTABLE).check("PUPPY") == "PUPPY"


def test_the_wordle_program_lets_every_hard_game_be_won():
    status, lines, _ = wordle_lines(["-b", "2", "--difficult", "-w", "crane,sloth"], "trace\nsloth\ncrane\n")
    assert status == 0 and lines[-1] == "CORRECT 3"
    game = MultiRound(("CRANE", "SLOTH"), ACCEPTABLE, hard=True)
    for word in ("TRACE", "SLOTH", "CRANE"):
        game.guess(word)
    assert game.won and "Dordle 1 3&2/7*" in game.share()


def test_a_hard_review_allows_a_guess_keeping_one_boards_rule_and_names_one_keeping_none():
    review = runner.invoke(app, ["review", "wordle", "--hard", "--boards", "2", "SALET", "BALTI", "HELIX", "WALTZ",
                                 "--answer", "HELIX,WALTZ"])
    assert review.exit_code == 0, review.stderr  # BALTI keeps board 2's rule, not board 1's
    refused = runner.invoke(app, ["review", "wordle", "--hard", "--boards", "2", "SALET", "PUPPY", "HELIX", "WALTZ",
                                  "--answer", "HELIX,WALTZ"])
    assert refused.exit_code == 1 and "guess 2: hard mode forbids PUPPY: board 1: " in refused.stderr
