"""Unit tests of the `wordle` program: game logic, statistics, state and config files, options,
both UIs, and the process-level promises (one-line errors, terminal detection, no Numba)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from solver.games.wordlists import builtin_answers, builtin_guesses
from solver.wordle_program.program import DEFAULT_SEED, ArgumentError, Options, resolve_options
from solver.wordle_program.play import random_answers
from solver.wordle_program.records import Records, compute_stats, load_state, parse_state
from solver.wordle_program.rounds import InvalidGuess, Round, WordleError
from solver.wordle_program.rustrand import shuffle
from solver.wordle_program.terminal import RichUI
from tests.helpers import keys, play_lines

ACCEPTABLE = frozenset(builtin_guesses())


# ----------------------------------------------------------------------------- rounds


def test_issue_example_marks_and_keyboard():
    game = Round("CRANE", ACCEPTABLE)
    assert game.guess("abuse") == "YRRRG"
    assert game.guess(" WANNA\n") == "RYRGR"
    keyboard = game.keyboard_line()
    assert len(keyboard) == 26
    # A: Y then Y; N: G; E: G; B, U, S, W: R; the rest unknown.
    assert {letter: keyboard[ord(letter) - 65] for letter in "ANEBUSWCRZ"} == dict(
        A="Y", N="G", E="G", B="R", U="R", S="R", W="R", C="X", R="X", Z="X"
    )


def test_keyboard_keeps_the_best_state():
    game = Round("CRANE", ACCEPTABLE)
    game.guess("NAVAL")  # N yellow, A yellow then red (surplus)
    assert game.keyboard["A"] == "Y" and game.keyboard["N"] == "Y"
    game.guess("CRANE")
    assert game.keyboard["A"] == "G" and game.keyboard["N"] == "G"
    assert game.won and game.over


def test_six_guesses_then_over():
    game = Round("CRANE", ACCEPTABLE)
    for _ in range(6):
        assert not game.over
        game.guess("SLATE")
    assert game.over and not game.won
    with pytest.raises(InvalidGuess):
        game.guess("CRANE")


@pytest.mark.parametrize("line", ["", "rust", "rustc!", "hello-rust", "zzzzz", "3.14x", "crané"])
def test_invalid_guesses_do_not_count(line):
    game = Round("CRANE", ACCEPTABLE)
    with pytest.raises(InvalidGuess):
        game.guess(line)
    assert game.history == []


def test_hard_mode_rules():
    game = Round("CRANE", ACCEPTABLE, hard=True)
    game.guess("TRACE")  # RGGYG
    for line, why in [("BRAKE", "contain C"), ("CREPT", "letter 3 must be A"), ("SLATE", "letter 2")]:
        with pytest.raises(InvalidGuess, match=why):
            game.guess(line)
    game.guess("TRACE")  # a red letter may be reused, a yellow one may stay in its wrong place
    assert game.guess("CRANE") == "GGGGG"


def test_hard_mode_counts_repeated_letters():
    game = Round("SHEEP", ACCEPTABLE, hard=True)
    assert game.guess("EERIE") == "YYRRR"
    with pytest.raises(InvalidGuess, match="E 2 times"):
        game.guess("STEAL")
    assert game.guess("ELDER") == "YRRGR"


# ----------------------------------------------------------------------------- statistics


def test_stats_ties_sort_by_word_and_keep_five():
    games = [
        {"answer": "CRANE", "guesses": ["SLATE", "TRACE", "CRANE"]},
        {"answer": "BUILD", "guesses": ["SLATE", "ZZZZZ", "AUDIO", "HELLO", "WORLD", "FIGHT"]},
    ]
    stats = compute_stats(games)
    assert (stats.won, stats.lost) == (1, 1)
    assert stats.lines() == ("1 1 3.00", "SLATE 2 AUDIO 1 CRANE 1 FIGHT 1 HELLO 1")


def test_stats_average_rounds_to_two_decimals():
    games = [{"answer": "A", "guesses": ["A"] * n} for n in (5, 5, 5, 5, 5, 6)]
    assert compute_stats(games).lines()[0] == "6 0 5.17"
    games = [{"answer": "A", "guesses": ["B", "C", "A"]}, {"answer": "A", "guesses": ["A"]},
             {"answer": "A", "guesses": ["D", "A"]}]
    assert compute_stats(games).lines()[0] == "3 0 2.00"


def test_stats_without_wins_or_guesses():
    assert compute_stats([]).lines() == ("0 0 0.00", "")
    assert compute_stats([{"answer": "CRANE"}, {"guesses": ["crane"]}]).lines() == ("0 2 0.00", "CRANE 1")


# ----------------------------------------------------------------------------- state file


def test_state_round_trip(tmp_path):
    state = parse_state('{"total_rounds": 2, "games": [{"answer": "POSER", "guesses": ["POSER"]}], "x": 1}')
    assert state.total_rounds == 2 and len(state.games) == 1
    game = Round("CRANE", ACCEPTABLE)
    game.guess("crane")
    state.record(game)
    assert json.loads(state.to_json()) == {
        "total_rounds": 3,
        "games": [{"answer": "POSER", "guesses": ["POSER"]}, {"answer": "CRANE", "guesses": ["CRANE"]}],
    }
    assert load_state(tmp_path / "absent.json") == Records()


@pytest.mark.parametrize("text, rounds, games",
                         [("{}", 0, 0), ('{"games": [{}, {}]}', 2, 2), ('{"total_rounds": 7}', 7, 0)])
def test_state_keys_are_optional(text, rounds, games):
    state = parse_state(text)
    assert (state.total_rounds, len(state.games)) == (rounds, games)


@pytest.mark.parametrize("text", [
    "", "{", "[]", "null", '"state"', '{"total_rounds": true}', '{"total_rounds": 1.0}', '{"total_rounds": -2}',
    '{"games": {}}', '{"games": ["CRANE"]}', '{"games": [{"answer": 1}]}', '{"games": [{"guesses": "CRANE"}]}',
    '{"games": [{"guesses": [null]}]}',
])
def test_state_shape_errors(text):
    with pytest.raises(WordleError):
        parse_state(text)


def test_bad_state_file_is_left_untouched(tmp_path):
    state = tmp_path / "state.json"
    state.write_text('{"total_rounds": "one"}')
    status, out, err = play_lines(["-w", "crane", "-S", str(state)], "crane\n")
    assert status != 0 and out == "" and len(err.splitlines()) == 1
    assert state.read_text() == '{"total_rounds": "one"}'


def test_unwritable_state_file_is_one_line_error_before_playing(tmp_path):
    (tmp_path / "file").write_text("")
    for path in (tmp_path / "file" / "state.json", tmp_path / "missing" / "state.json"):
        status, out, err = play_lines(["-w", "crane", "-S", str(path)], "crane\n")
        assert status == 1 and out == ""  # refused before the game, not after it
        assert err.startswith(f"error: cannot write state file {path}: ") and len(err.splitlines()) == 1
    assert not (tmp_path / "missing").exists()


def test_read_only_state_file_is_refused_before_playing(tmp_path):
    state = tmp_path / "state.json"
    state.write_text('{"total_rounds": 0, "games": []}')
    state.chmod(0o444)
    status, out, err = play_lines(["-w", "crane", "-S", str(state)], "crane\n")
    assert status == 1 and out == "" and "read-only" in err and len(err.splitlines()) == 1
    assert state.read_text() == '{"total_rounds": 0, "games": []}' and (state.stat().st_mode & 0o777) == 0o444


def test_state_file_keeps_its_mode(tmp_path):
    state = tmp_path / "state.json"
    state.write_text('{"total_rounds": 0, "games": []}')
    state.chmod(0o600)
    status, out, err = play_lines(["-w", "crane", "-S", str(state)], "crane\n")
    assert (status, err) == (0, "") and json.loads(state.read_text())["total_rounds"] == 1
    assert (state.stat().st_mode & 0o777) == 0o600 and [p.name for p in tmp_path.iterdir()] == ["state.json"]


# ----------------------------------------------------------------------------- answers and options


def test_random_answers_follow_rust_shuffle():
    answers = builtin_answers()
    order = random_answers(answers, 1, 42)
    assert order == shuffle(sorted(answers), 42) and sorted(order) == list(answers)
    later = random_answers(answers, 5, 42)
    assert later[0] == order[4] and later[-4:] == order[:4] and sorted(later) == list(answers)


def test_default_seed_is_fixed():
    status, out, _ = play_lines(["-r"], "crane\n" * 6)
    assert status == 0
    assert play_lines(["-r", "-s", str(DEFAULT_SEED)], "crane\n" * 6)[1] == out


def test_command_line_overrides_config(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"random": True, "day": 3, "seed": 9, "stats": True, "final_set": "x.txt"}))
    options = resolve_options(["-c", str(config), "--seed", "11", "-f", "y.txt", "-D"])
    assert options == Options(random=True, difficult=True, stats=True, day=3, seed=11, final_set="y.txt")


@pytest.mark.parametrize("argv", [
    ["-w", "crane", "-r"], ["-d", "2"], ["-s", "1"], ["-r", "-d", "x"], ["-r", "-s", "1e5"], ["-r", "-d", "0"],
    ["-r", "-s", str(2**64)], ["extra"], ["--word"], ["--wor", "crane"],
])
def test_bad_command_lines(argv):
    with pytest.raises(ArgumentError):
        resolve_options(argv)


@pytest.mark.parametrize("config", [
    "[]", '{"random": "yes"}', '{"day": true}', '{"seed": -1}', f'{{"seed": {2**64}}}', '{"word": 5}',
    '{"hints": true}',
])
def test_bad_config_files(tmp_path, config):
    path = tmp_path / "config.json"
    path.write_text(config)
    with pytest.raises(WordleError):
        resolve_options(["-c", str(path)])
    assert path.read_text() == config


# ----------------------------------------------------------------------------- test-mode runs


def test_test_mode_game_and_play_again():
    status, out, err = play_lines(["-t"], "crane\nabuse\nwanna\nxyzzy\ncrane\nY\nslate\nslate\nN\ncrane\n")
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "YRRRG " + keys(A="Y", B="R", U="R", S="R", E="G"),
        "RYRGR " + keys(A="Y", B="R", U="R", S="R", E="G", W="R", N="G"),
        "INVALID",
        "GGGGG " + keys(A="G", B="R", U="R", S="R", E="G", W="R", N="G", C="G", R="G"),
        "CORRECT 3",
        "1 0 3.00",
        "ABUSE 1 CRANE 1 WANNA 1",
        "GGGGG " + keys(S="G", L="G", A="G", T="G", E="G"),
        "CORRECT 1",
        "2 0 2.00",
        "ABUSE 1 CRANE 1 SLATE 1 WANNA 1",
    ]


def test_end_of_input_after_a_game_ends_the_run():
    assert play_lines([], "crane\ncrane\n") == (0, f"GGGGG {keys(C='G', R='G', A='G', N='G', E='G')}\nCORRECT 1\n", "")


# ----------------------------------------------------------------------------- interactive mode


def test_interactive_mode_board_prompts_and_retry():
    status, out, err = play_lines(["-t", "-D"], "xyzzy\ncrane\ntrace\nbrake\ncrane\nmaybe\nn\n", interactive=True)
    assert (status, err) == (0, "")
    assert "not in the answer list, try another" in out
    assert "Guess 2/6" in out and "Not counted: hard mode: guess must contain C" in out
    # no colour here (not a terminal): the marks are drawn around the letters, explained under the keyboard
    assert "  [A] right place  (A) elsewhere\n  a not in the word  A not tried yet\n" in out
    assert "   t  [R] [A] (C) [E] " in out and "  [C] [R] [A] [N] [E] " in out
    assert "   Q   W  [E] [R]  t   Y " in out and "(C)  V " in out
    assert "Correct! CRANE in 2 guesses." in out
    assert "Won 1 of 1 (100%), 2.00 guesses per win." in out and "Most used guesses: CRANE (1), TRACE (1)." in out
    assert out.count("Play again? [y/n]: ") == 2
    assert "INVALID" not in out and "GGGGG" not in out


def test_no_color_board_shows_the_marks_and_colour_board_greys_absent_letters(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("FORCE_COLOR", "1")  # a colour terminal, but the user asked for no colour
    _, out, _ = play_lines(["-w", "crane"], "slate\ncrane\n", interactive=True)
    assert "not tried yet" in out and "   s   l  [A]  t  [E] " in out  # bold may remain, colour not
    monkeypatch.delenv("NO_COLOR")
    _, out, _ = play_lines(["-w", "crane"], "slate\ncrane\n", interactive=True)
    assert "\x1b[" in out and "[A]" not in out and "not tried yet" not in out
    grey = RichUI.STYLES["R"]
    assert "grey" in grey and "red" not in grey


def test_interactive_mode_failed_game():
    status, out, _ = play_lines(["-w", "crane"], "slate\n" * 6, interactive=True)
    assert status == 0 and "The answer was CRANE." in out and "Play again" not in out


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_terminal_stdout_selects_interactive_mode():
    leader, follower = os.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "solver.wordle_program.program", "-w", "crane"], stdin=subprocess.PIPE,
            stdout=follower, stderr=subprocess.PIPE, start_new_session=True,
            env={**os.environ, "TERM": "xterm-256color"},
        )
        os.close(follower)
        follower = -1
        proc.stdin.write(b"crane\n")
        proc.stdin.close()
        output = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO once the program has exited
                break
            if not chunk:
                break
            output += chunk
        assert proc.wait(timeout=30) == 0, proc.stderr.read()
    finally:
        os.close(leader)
        if follower != -1:
            os.close(follower)
    text = output.decode()
    assert "\x1b[" in text and "Correct!" in text and "CORRECT 1" not in text


# ----------------------------------------------------------------------------- the process


def test_errors_are_one_line_without_traceback(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "solver.wordle_program.program", "-S", str(tmp_path)],
        input=b"", capture_output=True, timeout=30
    )
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.decode().startswith("error: cannot read state file") and result.stderr.count(b"\n") == 1


def test_closed_output_ends_quietly():
    """`wordle ... | head`: the reader is gone before the first line; no message, status 0."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        result = subprocess.run([sys.executable, "-m", "solver.wordle_program.program", "-w", "crane"],
                                input=b"slate\ncrane\n", stdout=writer, stderr=subprocess.PIPE, timeout=30)
    finally:
        os.close(writer)
    assert (result.returncode, result.stderr) == (0, b"")


def test_the_test_mode_loads_neither_numba_nor_textual():
    heavy = ["numba", "solver.core.scoring", "textual", "solver.wordle_program.tui"]
    code = ("import io, sys; from solver.wordle_program.program import run; "
            "run(['-w', 'crane'], io.StringIO('crane\\n'), io.StringIO(), io.StringIO(), interactive=False); "
            f"print(*[name in sys.modules for name in {heavy!r}])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=True)
    assert result.stdout.split() == ["False"] * len(heavy)


def test_the_answer_is_revealed_when_input_ends():
    status, _, err = play_lines(["-w", "crane"], "slate\n")
    assert status == 1 and "the answer was CRANE" in err
