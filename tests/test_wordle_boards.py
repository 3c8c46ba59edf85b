"""The `wordle` program on several boards (-b/--boards N, as Dordle and Quordle): N answers, N + 5
guesses, every guess scored on each board not solved yet, in test mode (checked line by line
against `solver.games.wordle.feedback` by a model written here), in the terminal (side-by-side boards,
one share block per board), in random mode (N answers of the shuffled list per game), in the state
file (one record per game with "answers"), and the errors. One board stays exactly as before.
"""
from __future__ import annotations

import json
import random
import re

import pytest

from solver.games.wordle import feedback
from solver.games.wordlists import builtin_answers, builtin_guesses
from solver.wordle_program.records import compute_stats, load_state, parse_state
from solver.wordle_program.rounds import MultiRound, WordleError, share_boards_text, share_text
from solver.wordle_program.rustrand import shuffle
from tests.helpers import plain, play_lines
from tests.terminal import colour_terminal, play_terminal  # noqa: F401 (colour_terminal: an autouse fixture)

ANSWERS = builtin_answers()
ACCEPTABLE = frozenset(builtin_guesses())
COLOUR_SGR = re.compile(r"\x1b\[(?:[0-9]+;)*(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9]+)*m")
SQUARE = {"G": "\U0001F7E9", "Y": "\U0001F7E8", "R": "\u2B1B"}
RANK = {"X": 0, "R": 1, "Y": 2, "G": 3}


# ----------------------------------------------------------------------------- the model


def keyboard(answer: str, guesses: list[str]) -> str:
    """Return the 26-letter keyboard line of one board: each letter's best mark so far, X if unplayed."""
    best = dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "X")
    for guess in guesses:
        for letter, mark in zip(guess, feedback(answer, guess)):
            if RANK[mark] > RANK[best[letter]]:
                best[letter] = mark
    return "".join(best.values())


def expected_game(answers: list[str], lines: list[str]) -> tuple[list[str], int]:
    """Return the test-mode lines of one game on len(answers) boards fed `lines`, and how many lines
    it reads: per guess the marks of every board ("....." once solved by an earlier guess) and the
    keyboard of the first board the guess is scored on; INVALID for a bad line; CORRECT n, or FAILED
    and every answer after len(answers) + 5 guesses."""
    limit = len(answers) + 5
    solved = [False] * len(answers)
    scored: list[list[str]] = [[] for _ in answers]
    out, guesses = [], 0
    for read, line in enumerate(lines, start=1):
        word = line.strip().upper()
        if word not in ACCEPTABLE:
            out.append("INVALID")
            continue
        guesses += 1
        parts, first = [], None
        for index, answer in enumerate(answers):
            if solved[index]:
                parts.append(".....")
                continue
            first = index if first is None else first
            scored[index].append(word)
            parts.append(feedback(answer, word))
            solved[index] = word == answer
        out.append(" ".join(parts) + " " + keyboard(answers[first], scored[first]))
        if all(solved):
            return out + [f"CORRECT {guesses}"], read
        if guesses == limit:
            return out + ["FAILED " + " ".join(answers)], read
    raise AssertionError("the game did not end")


def test_the_model_agrees_with_the_specification_for_one_board():
    lines, _ = expected_game(["CRANE"], ["abuse", "wanna", "xyzzy", "crane"])
    status, out, _ = play_lines(["-w", "crane"], "abuse\nwanna\nxyzzy\ncrane\n")
    assert status == 0 and out.splitlines() == lines and lines[0].startswith("YRRRG ") and lines[1].startswith("RYRGR ")


# ----------------------------------------------------------------------------- test mode


def test_two_boards_every_line_follows_feedback():
    guesses = ["slate", "xyzzy", "crane", "sloth"]
    status, out, err = play_lines(["-b", "2", "-w", "crane,sloth"], "\n".join(guesses) + "\n")
    assert (status, err) == (0, "")
    assert out.splitlines() == expected_game(["CRANE", "SLOTH"], guesses)[0]
    assert out.splitlines()[0].split()[:2] == [feedback("CRANE", "SLATE"), feedback("SLOTH", "SLATE")]
    assert out.splitlines()[1:] == ["INVALID",
                                    f"GGGGG {feedback('SLOTH', 'CRANE')} {keyboard('CRANE', ['SLATE', 'CRANE'])}",
                                    f"..... GGGGG {keyboard('SLOTH', ['SLATE', 'CRANE', 'SLOTH'])}", "CORRECT 3"]


def test_four_boards_freeze_once_solved():
    answers = ["CRANE", "SLOTH", "PILOT", "BADGE"]
    guesses = ["sloth", "badge", "audio", "crane", "pilot"]
    status, out, _ = play_lines(["--boards", "4", "-w", ",".join(answers).lower()], "\n".join(guesses) + "\n")
    lines = out.splitlines()
    assert status == 0 and lines == expected_game(answers, guesses)[0]
    boards = [line.split()[:4] for line in lines[:-1]]
    assert [row[1] for row in boards] == ["GGGGG", ".....", ".....", ".....", "....."]  # board 2 solved first
    assert [row[3] for row in boards] == [feedback("BADGE", "SLOTH"), "GGGGG", ".....", ".....", "....."]
    assert [row[0] for row in boards] == (
        [feedback("CRANE", w) for w in ("SLOTH", "BADGE", "AUDIO")] + ["GGGGG", "....."])
    assert lines[-1] == "CORRECT 5"
    # the keyboard is the first board each guess was scored on: board 1 until it is solved, then board 3
    assert [line.split()[4] for line in lines[:-1]] == (
        [keyboard("CRANE", [w.upper() for w in guesses[:n]]) for n in (1, 2, 3, 4)]
        + [keyboard("PILOT", [w.upper() for w in guesses])])


@pytest.mark.parametrize("boards", [2, 3, 4, 8])
def test_random_games_match_the_model(boards):
    rng = random.Random(boards)
    words = sorted(ACCEPTABLE)
    for _ in range(12):
        answers = rng.sample(ANSWERS, boards)
        pool = answers + [rng.choice(words) for _ in range(boards + 3)] + ["xyzzy", "toolong", ""]
        guesses = [rng.choice(pool) for _ in range(4 * boards + 20)]
        lines, _ = expected_game(answers, guesses)
        separator = rng.choice([",", " ", ", "])
        status, out, err = play_lines(["-b", str(boards)], separator.join(answers) + "\n" + "\n".join(guesses) + "\n")
        assert (status, err) == (0, ""), err
        assert out.splitlines() == lines


def test_the_limit_is_boards_plus_five_and_a_loss_reveals_every_answer():
    status, out, _ = play_lines(["-b", "2", "-w", "crane,sloth"], "crane\n" + "slate\n" * 7)
    lines = out.splitlines()
    assert status == 0 and len(lines) == 8 and lines[-1] == "FAILED CRANE SLOTH"
    assert all(line.startswith(".....") for line in lines[1:7])
    status, out, _ = play_lines(["-b", "4", "-w", "crane,sloth,pilot,badge"], "audio\n" * 9 + "crane\n")
    assert status == 0 and out.splitlines()[-1] == "FAILED CRANE SLOTH PILOT BADGE" and len(out.splitlines()) == 10
    status, out, _ = play_lines(["-b", "2", "-w", "crane,sloth"], "audio\n" * 6 + "crane\nsloth\n")
    assert out.splitlines()[-1] == "FAILED CRANE SLOTH"  # the 8th guess is never read
    status, out, _ = play_lines(["-b", "2", "-w", "crane,sloth"], "audio\n" * 5 + "crane\nsloth\n")
    assert out.splitlines()[-1] == "CORRECT 7"  # a win on the last guess


def test_input_ending_mid_game_reveals_the_answers():
    status, out, err = play_lines(["-b", "2", "-w", "crane,sloth"], "crane\n")
    assert status == 1 and err == "error: input ended before the game was over; the answers were CRANE, SLOTH\n"


def test_answers_read_from_input_and_play_again_with_stats():
    stdin = "crane sloth\nsloth\ncrane\nY\nPILOT,  badge\n" + "audio\n" * 7 + "N\n"
    status, out, _ = play_lines(["-b", "2", "-t"], stdin)
    lines = out.splitlines()
    assert status == 0
    assert lines[:3] == expected_game(["CRANE", "SLOTH"], ["sloth", "crane"])[0]
    assert lines[3:5] == ["1 0 2.00", "CRANE 1 SLOTH 1"]
    assert lines[5:13] == expected_game(["PILOT", "BADGE"], ["audio"] * 7)[0]
    assert lines[13:] == ["1 1 2.00", "AUDIO 7 CRANE 1 SLOTH 1"]


def test_config_file_sets_the_boards(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"boards": 2, "word": "crane,sloth"}))
    status, out, _ = play_lines(["-c", str(config)], "crane\nsloth\n")
    assert status == 0 and out.splitlines()[-1] == "CORRECT 2"
    status, out, _ = play_lines(["-c", str(config), "-b", "1", "-w", "sloth"], "sloth\n")  # the command line wins
    assert status == 0 and out.splitlines() == [f"GGGGG {keyboard('SLOTH', ['SLOTH'])}", "CORRECT 1"]


def test_one_board_is_the_program_without_the_option():
    stdin = "crane\nabuse\nxyzzy\nwanna\ncrane\nY\nslate\n" + "crane\n" * 6 + "N\n"
    assert play_lines(["-b", "1", "-t"], stdin) == play_lines(["-t"], stdin)
    assert play_lines(["--boards", "1", "-r", "-s", "9"], "crane\n" * 7) == play_lines(["-r", "-s", "9"], "crane\n" * 7)
    assert play_lines(["-b", "1", "-w", "crane,sloth"]) == play_lines(["-w", "crane,sloth"])  # one answer, not two


# ----------------------------------------------------------------------------- errors


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("argv, stdin, status, fragment", [
    (["-b", "0"], "", 2, "--boards must be between 1 and 32, got 0"),
    (["--boards", "33"], "", 2, "--boards must be between 1 and 32, got 33"),
    (["-b", "two"], "", 2, "argument -b/--boards"),
    (["-b", "2", "-w", "crane"], "", 2, "expected 2 answers"),
    (["-b", "2", "-w", "crane,sloth,pilot"], "", 2, "expected 2 answers"),
    (["-b", "2", "-w", "crane,CRANE"], "", 2, "CRANE is given twice"),
    (["-b", "2", "-w", "crane,zzzzz"], "", 1, "the answer 'zzzzz' is not in the answer list"),
    (["-b", "2", "-r", "-d", str(len(ANSWERS) // 2 + 1)], "", 2, f"--day must be at most {len(ANSWERS) // 2}"),
    (["-b", "2"], "crane\n", 1, "expected 2 answers"),
    (["-b", "2"], "crane, crane\n", 1, "CRANE is given twice"),
    (["-b", "3"], "crane sloth xyzzy\n", 1, "the answer 'xyzzy' is not in the answer list"),
    (["-b", "2"], "", 1, "input ended while reading the answers"),
])
def test_errors_are_one_line_with_the_usual_statuses(argv, stdin, status, fragment):
    got, out, err = play_lines(argv, stdin)
    assert got == status and out == ""
    assert fragment in one_line(err)


@pytest.mark.parametrize("config, status", [
    ({"boards": 0}, 2), ({"boards": 33}, 2),  # as "day": 0 is
    ({"boards": "2"}, 1), ({"boards": True}, 1), ({"boards": 2.0}, 1),  # a wrong type, as for the other keys
])
def test_bad_boards_in_the_config_file(tmp_path, config, status):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    got, out, err = play_lines(["-c", str(path)], "crane,sloth\n")
    assert (got, out) == (status, "") and "boards" in one_line(err)


def test_more_boards_than_answers_is_a_data_error(tmp_path):
    final = tmp_path / "final.txt"
    final.write_text("crane\nsloth\n")
    status, out, err = play_lines(["-f", str(final), "-b", "3"], "crane,sloth\n")
    assert (status, out) == (1, "") and "has 2 words, fewer than the 3 boards" in one_line(err)


# ----------------------------------------------------------------------------- random mode


def test_random_mode_takes_the_next_boards_answers_of_the_shuffle_per_game(tmp_path):
    words = ["CRANE", "SLOTH", "PILOT", "BADGE", "AUDIO", "TRACE", "WORLD"]
    final, acceptable = tmp_path / "final.txt", tmp_path / "acceptable.txt"
    final.write_text("\n".join(words) + "\n")
    acceptable.write_text("\n".join(words) + "\n")
    order = shuffle(sorted(words), 11)[:6]  # 7 answers make 3 games of 2; the 7th is never played
    argv = ["-r", "-s", "11", "-d", "2", "-b", "2", "-f", str(final), "-a", str(acceptable)]
    stdin = "\n".join(order[2:4] + ["y"] + order[4:6] + ["y"] + order[0:2] + ["y"]) + "\n"
    status, out, err = play_lines(argv, stdin)  # days 2, 3, then 1; then out of answers
    assert (status, err) == (0, "")
    ends = [line for line in out.splitlines() if line.startswith(("CORRECT", "FAILED"))]
    assert ends == ["CORRECT 2"] * 3
    rows = [line.split()[:2] for line in out.splitlines() if line[0] in "GYR."]
    expected = []
    for first, second in [(order[2], order[3]), (order[4], order[5]), (order[0], order[1])]:
        expected += [["GGGGG", feedback(second, first)], [".....", "GGGGG"]]
    assert rows == expected
    assert play_lines(argv, stdin) == (status, out, err)  # deterministic


def test_random_mode_with_the_builtin_list_starts_at_day_times_boards():
    order = shuffle(sorted(ANSWERS), 7)
    status, out, _ = play_lines(["-r", "-s", "7", "-d", "5", "-b", "3"], "\n".join(order[12:18]) + "\n")
    assert status == 0  # day 5 of 3 boards: answers 12, 13 and 14; order[15] answers "play again?"
    assert out.splitlines() == expected_game(order[12:15], order[12:15])[0]


def test_random_game_numbers_count_games_in_the_share_grid(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    order = shuffle(sorted(ANSWERS), 3)
    stdin = "\n".join(order[8:10] + ["y"] + order[10:12] + ["n"]) + "\n"
    out = play_terminal(["-r", "-s", "3", "-d", "5", "-b", "2"], stdin)
    assert re.findall(r"^Dordle \d+ \S+$", plain(out), re.M) == ["Dordle 5 1&2/7", "Dordle 6 1&2/7"]


# ----------------------------------------------------------------------------- state file


def test_state_file_records_one_game_per_record_and_stays_loadable(tmp_path):
    state = tmp_path / "state.json"
    state.write_text('{"total_rounds": 1, "games": [{"answer": "POSER", "guesses": ["CRANE", "POSER"]}]}')
    assert play_lines(["-b", "2", "-w", "crane,sloth", "-S", str(state)], "sloth\ncrane\n")[0] == 0
    assert play_lines(["-b", "2", "-w", "pilot,badge", "-S", str(state)], "audio\n" * 7)[0] == 0
    status, out, _ = play_lines(["-w", "crane", "-S", str(state), "-t"], "crane\n")
    assert status == 0
    saved = json.loads(state.read_text())
    assert saved == {"total_rounds": 4, "games": [
        {"answer": "POSER", "guesses": ["CRANE", "POSER"]},
        {"answers": ["CRANE", "SLOTH"], "guesses": ["SLOTH", "CRANE"]},
        {"answers": ["PILOT", "BADGE"], "guesses": ["AUDIO"] * 7},
        {"answer": "CRANE", "guesses": ["CRANE"]},
    ]}
    # won 3 (POSER, the 2-board game, CRANE), lost 1; the mean counts each won game's guesses once
    assert out.splitlines()[-2:] == ["3 1 1.67", "AUDIO 7 CRANE 3 POSER 1 SLOTH 1"]
    loaded = load_state(state)
    stats = compute_stats(loaded.games)
    assert (stats.won, stats.lost, stats.current_streak, stats.max_streak) == (3, 1, 1, 2)
    assert stats.distribution == (1, 2, 0, 0, 0, 0)


@pytest.mark.parametrize("text", ['{"games": [{"answers": "CRANE"}]}', '{"games": [{"answers": ["CRANE", 1]}]}',
                                  '{"games": [{"answers": null}]}'])
def test_state_file_answers_must_be_a_list_of_strings(text):
    with pytest.raises(WordleError, match='"answers" must be a list of strings'):
        parse_state(text)


def test_multi_board_record_interns_and_round_trips():
    text = '{"total_rounds":1,"games":[{"answers":["CRANE","SLOTH"],"guesses":["SLOTH","CRANE"]}]}\n'
    state = parse_state(text)
    game = state.games[0]
    assert state.to_json() == text and game["answers"][0] is game["guesses"][1]


# ----------------------------------------------------------------------------- share text


def test_share_boards_text_blocks_per_board():
    game = MultiRound(("CRANE", "SLOTH"), ACCEPTABLE, number=1234)
    for word in ("SLATE", "CRANE", "SLOTH"):
        game.guess(word)
    def rows(answer, words):
        return ["".join(SQUARE[m] for m in feedback(answer, w)) for w in words]
    assert game.share() == "\n".join(["Dordle 1,234 2&3/7", ""] + rows("CRANE", ["SLATE", "CRANE"]) + [""]
                                     + rows("SLOTH", ["SLATE", "CRANE", "SLOTH"]))
    assert share_boards_text(5, [["GGGGG"], ["RRRRR"] * 7]).split("\n")[0] == "Dordle 5 1&X/7"
    assert share_boards_text(5, [["GGGGG"]] * 4).split("\n")[0] == "Quordle 5 1&1&1&1/9"
    assert share_boards_text(5, [["GGGGG"], ["GYRRR"]], high_contrast=True).split("\n")[4] == (
        "\U0001F7E7\U0001F7E6\u2B1B\u2B1B\u2B1B")
    with pytest.raises(ValueError, match="G, Y and R"):
        share_boards_text(1, [["GGGGG"], ["....."]])
    assert share_text(1, ["RYRGR", "GGGGG"]) == (
        "Wordle 1 2/6\n\n\u2B1B\U0001F7E8\u2B1B\U0001F7E9\u2B1B\n" + "\U0001F7E9" * 5)


# ----------------------------------------------------------------------------- terminal




def no_colour_row(word: str, marks: str) -> str:
    """Return a board row as the no-colour terminal draws it: [A] green, (A) yellow, a grey."""
    return " ".join({"G": f"[{c}]", "Y": f"({c})", "R": f" {c.lower()} "}[m] for c, m in zip(word, marks))


def test_no_color_boards_side_by_side_solved_marked_and_share_grid(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = plain(play_terminal(["-b", "2", "-w", "crane,sloth"], "slate\nxyzzy\ncrane\nsloth\n"))
    assert not COLOUR_SGR.search(out) and "Guess 1/7: " in out and "Guess 3/7: " in out
    assert "Wordle on 2 boards: guess the 2 5-letter words in 7 tries." in out
    assert "Not counted: XYZZY is not in the list of acceptable words" in out
    slate = [no_colour_row("SLATE", feedback(answer, "SLATE")) for answer in ("CRANE", "SLOTH")]
    gap = " " * (19 - len(slate[0]) + 3)
    assert re.search(r"^  Board 1 {15}Board 2$", out, re.M)
    assert f"  {slate[0]}{gap}{slate[1]}".rstrip() + "\n" in out  # the first guess on both boards, side by side
    assert re.search(r"^  Board 1: solved {7}Board 2$", out, re.M)
    assert (f"  {no_colour_row('CRANE', 'GGGGG')}   "
            f"{no_colour_row('CRANE', feedback('SLOTH', 'CRANE'))}").rstrip() + "\n" in out
    assert re.search(r"^  Board 1: solved {7}Board 2: solved$", out, re.M)
    # once solved, board 1 takes no more guesses: its place beside SLOTH's row is blank
    assert re.search(r"^ {24}\[S\] \[L\] \[O\] \[T\] \[H\]$", out, re.M)
    assert "Keyboard of board" not in out  # a keyboard under each unsolved board (test_wordle_boards_terminal.py)
    assert "Correct! All 2 boards solved in 3 guesses." in out
    share = out.split("Correct! All 2 boards solved in 3 guesses.\n\n")[1].rstrip("\n")  # the end of the output
    def squares(answer, words):
        return ["".join(SQUARE[m] for m in feedback(answer, w)) for w in words]
    assert share.split("\n") == (["Dordle 1 2&3/7", ""] + squares("CRANE", ["SLATE", "CRANE"]) + [""]
                                 + squares("SLOTH", ["SLATE", "CRANE", "SLOTH"]))


def test_colour_boards_and_a_loss_revealing_the_unsolved_answers():
    out = play_terminal(["-b", "2", "-w", "crane,sloth"], "crane\n" + "audio\n" * 6)
    assert COLOUR_SGR.search(out) and "[C]" not in out and "GGGGG" not in out
    text = plain(out)
    assert "Out of guesses. Not solved: board 2: SLOTH." in text and "board 1" not in text.split("Out of guesses.")[1]
    assert "Dordle 1 1&X/7" in text


@pytest.mark.parametrize("columns, rows",
                         [("80", [[1, 2, 3], [4]]), ("120", [[1, 2, 3, 4]]), ("40", [[1], [2], [3], [4]])])
def test_four_boards_wrap_to_the_terminal_width(monkeypatch, columns, rows):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", columns)
    out = plain(play_terminal(["-b", "4", "-w", "crane,sloth,pilot,badge"], "audio\ncrane\nsloth\npilot\nbadge\n"))
    first = out.split("Guess 2/9")[0]  # the boards after the first guess
    headings = [[int(n) for n in re.findall(r"Board (\d+)", line)] for line in first.splitlines() if "Board" in line]
    assert headings == rows
    assert all(len(line) <= int(columns) for line in out.splitlines() if "Board" in line or "[" in line)
    assert "Correct! All 4 boards solved in 5 guesses." in " ".join(out.split())  # wrapped in a narrow terminal
    assert len(re.findall(r"^Quordle 1 2&3&4&5/9$", out, re.M)) == 1


def test_terminal_reads_several_answers_and_asks_again():
    out = play_terminal(["-b", "2"], "crane\ncrane,crane\ncrane,sloth\ncrane\nsloth\nn\n")
    text = plain(out)
    assert text.count("Answers for the next game (2, separated by commas; hidden): ") == 3
    assert "Expected 2 answers" in text and "CRANE is given twice" in text
    assert "Correct! All 2 boards solved in 2 guesses." in text
