"""The `wordle` program in a terminal: the original game's statistics (played, win %, streaks, the
guess distribution) with -t, kept across runs by the state file, the emoji share grid after each
game, NO_COLOR, and no colour (and the plain test mode, unchanged) when output is not a terminal.

The terminal is faked: standard output is a StringIO whose isatty() is True, so `run` picks the
terminal UI by itself (as for a real terminal) and rich writes colour to it unless NO_COLOR is set.
"""
from __future__ import annotations

import io
import json
import random
import re

import pytest
from rich.color import ColorSystem
from rich.style import Style

from solver.analysis.review import review
from solver.core.registry import get_game
from solver.games import wordle
from solver.games.wordle import feedback
from solver.games.wordlists import builtin_answers, builtin_guesses
from solver.wordle_program.program import run
from solver.wordle_program.play import random_answers
from solver.wordle_program.records import Records, compute_stats
from solver.wordle_program.rounds import Round, share_text
from solver.wordle_program.terminal import RichUI, bar_lengths
from tests.helpers import ANSI, keys, plain
from tests.terminal import FakeTerminal, colour_terminal, play_terminal  # noqa: F401 (colour_terminal: an autouse fixture)

# SGR parameters that set a colour: 30-39/40-49 (38/48 extended), 90-97/100-107 bright
COLOUR_SGR = re.compile(r"\x1b\[(?:[0-9]+;)*(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9]+)*m")
SQUARE = {"G": "\U0001F7E9", "Y": "\U0001F7E8", "R": "\u2B1B"}  # the original's dark theme
BLOCK, POINTER = "\u2588", "\u25C0"




def games_input(*games: tuple[str, list[str]]) -> str:
    """Return the input of answer-from-input games: answer, guesses, then y (n after the last)."""
    lines = []
    for number, (answer, guesses) in enumerate(games, start=1):
        lines += [answer, *guesses, "y" if number < len(games) else "n"]
    return "\n".join(lines) + "\n"


WIN_2 = ("CRANE", ["SLATE", "CRANE"])
WIN_3 = ("CRANE", ["SLATE", "TRACE", "CRANE"])
WIN_4 = ("CRANE", ["SLATE", "TRACE", "BRACE", "CRANE"])
LOSS = ("TITAN", ["SLATE", "CRANE", "BRAKE", "FLAME", "PLACE", "GRACE"])


def stats_blocks(output: str) -> list[tuple[dict[str, int], list[str]]]:
    """Return each statistics display of an output: ({label: number}, the 6 chart lines)."""
    lines = plain(output).splitlines()
    blocks = []
    for index, line in enumerate(lines):
        if line == "Statistics":
            numbers = [int(value) for value in lines[index + 1].split()]
            labels = ["Played", "Win %", "Current streak", "Max streak"]
            assert lines[index + 2].split() == " ".join(labels).split()
            assert lines[index + 4] == "Guess distribution"
            blocks.append((dict(zip(labels, numbers)), lines[index + 5:index + 11]))
    return blocks


def chart_rows(chart: list[str]) -> list[tuple[int, int, int, bool]]:
    """Return (row, bar length, count, pointed at) of each line of a no-colour chart."""
    rows = []
    for line in chart:
        match = re.fullmatch(rf"  ([1-6]) ({BLOCK}*) ([0-9]+)( {POINTER})?", line)
        assert match, line
        rows.append((int(match[1]), len(match[2]), int(match[3]), match[4] is not None))
    return rows


def share_blocks(output: str) -> list[tuple[str, list[str]]]:
    """Return each share grid of an output: (its "Wordle N S/6" line, its rows of squares)."""
    lines = plain(output).splitlines()
    blocks = []
    for index, line in enumerate(lines):
        if line.startswith("Wordle ") and "/6" in line:
            assert lines[index + 1] == ""
            rows = []
            for row in lines[index + 2:]:
                if not row:
                    break
                rows.append(row)
            blocks.append((line, rows))
    return blocks


# ----------------------------------------------------------------------------- terminal detection


def test_fake_terminal_gets_the_coloured_board():
    out = play_terminal(["-w", "crane"], "slate\ncrane\n")
    assert "\x1b[" in out and COLOUR_SGR.search(out) and "Correct! CRANE in 2 guesses." in plain(out)
    assert "CORRECT" not in out and "GGGGG" not in out


# ----------------------------------------------------------------------------- streaks


@pytest.mark.parametrize("results, current, best", [
    ("", 0, 0), ("W", 1, 1), ("L", 0, 0), ("WWLWWWLW", 1, 3), ("WWWLL", 0, 3), ("LWWWW", 4, 4), ("WLWLW", 1, 1),
])
def test_streaks_count_wins_in_a_row(results, current, best):
    games = [{"answer": "CRANE", "guesses": ["CRANE"] if result == "W" else ["SLATE"] * 6} for result in results]
    stats = compute_stats(games)
    assert (stats.current_streak, stats.max_streak) == (current, best)
    assert (stats.played, stats.won) == (len(results), results.count("W"))


def test_streaks_shown_after_each_game():
    out = play_terminal(["-t"], games_input(WIN_2, WIN_3, LOSS, WIN_4))
    shown = [numbers for numbers, _ in stats_blocks(out)]
    assert shown == [
        {"Played": 1, "Win %": 100, "Current streak": 1, "Max streak": 1},
        {"Played": 2, "Win %": 100, "Current streak": 2, "Max streak": 2},
        {"Played": 3, "Win %": 67, "Current streak": 0, "Max streak": 2},
        {"Played": 4, "Win %": 75, "Current streak": 1, "Max streak": 2},
    ]


def test_win_percent_rounds_half_up_like_the_original():
    games = [{"answer": "CRANE", "guesses": ["CRANE"]}] + [{"answer": "CRANE"}] * 7  # 1 of 8: 12.5%
    assert compute_stats(games).win_percent == 13
    assert compute_stats([]).win_percent == 0


def test_statistics_only_with_the_stats_option():
    out = play_terminal([], games_input(WIN_2))
    assert stats_blocks(out) == [] and len(share_blocks(out)) == 1


# ----------------------------------------------------------------------------- the chart


@pytest.mark.parametrize("counts, width, lengths", [
    ([0, 0, 0, 0, 0, 0], 30, [0, 0, 0, 0, 0, 0]),
    ([0, 1, 4, 2, 0, 0], 30, [0, 8, 30, 15, 0, 0]),  # 7.5 rounds up
    ([1, 100, 0, 0, 0, 50], 30, [1, 30, 0, 0, 0, 15]),  # a small count still shows
    ([3, 3, 3, 3, 3, 3], 10, [10] * 6),
])
def test_bar_lengths_scale_to_the_largest_count(counts, width, lengths):
    assert bar_lengths(counts, width) == lengths


def test_distribution_counts_won_games_by_guesses():
    games = [{"answer": "A", "guesses": ["A"] * n} for n in (3, 3, 4, 1, 3)] + [{"answer": "A", "guesses": ["B"] * 6}]
    stats = compute_stats(games)
    assert stats.distribution == (1, 0, 3, 1, 0, 0) and stats.last_won_in is None  # the last game was lost
    assert compute_stats(games[:-1]).last_won_in == 3


def test_chart_rows_bars_and_the_row_of_the_game_just_won(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = play_terminal(["-t"], games_input(WIN_3, WIN_3, WIN_2, LOSS))
    charts = [chart_rows(chart) for _, chart in stats_blocks(out)]
    assert len(charts) == 4
    for chart in charts:
        assert [row for row, *_ in chart] == [1, 2, 3, 4, 5, 6]
        counts = [count for _, _, count, _ in chart]
        assert [length for _, length, _, _ in chart] == bar_lengths(counts, RichUI.BAR_WIDTH)
        assert max(length for _, length, _, _ in chart) == RichUI.BAR_WIDTH
    assert [count for _, _, count, _ in charts[-1]] == [0, 1, 2, 0, 0, 0]
    assert [[row for row, _, _, pointed in chart if pointed] for chart in charts] == [[3], [3], [2], []]
    assert [length for _, length, _, _ in charts[2]] == [0, 15, 30, 0, 0, 0]


def test_colour_chart_highlights_the_row_of_the_game_just_won():
    out = play_terminal(["-t"], games_input(WIN_3, WIN_2))
    chart = out.split("Guess distribution")[-1].splitlines()[1:7]
    green, grey = (Style.parse(RichUI.BAR_STYLES[this_game]).render("|", color_system=ColorSystem.EIGHT_BIT)
                   .split("|")[0] for this_game in (True, False))  # the escape codes that start each style
    assert green and grey and green != grey
    assert green + " " * 30 in chart[1] and grey not in chart[1]  # this game: 2 guesses, the largest bar
    assert grey + " " * 30 in chart[2] and green not in chart[2]
    assert all(green not in line and grey not in line for line in chart[:1] + chart[3:])  # no bar for 0
    assert [plain(line).split()[-1] for line in chart] == ["0", "1", "1", "0", "0", "0"]  # count after the bar


# ----------------------------------------------------------------------------- the state file


def test_streaks_and_distribution_persist_through_the_state_file(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    state = tmp_path / "state.json"
    play_terminal(["-t", "-S", str(state)], games_input(WIN_2, WIN_3))
    out = play_terminal(["-t", "-S", str(state)], games_input(WIN_4))
    (numbers, chart), = stats_blocks(out)
    assert numbers == {"Played": 3, "Win %": 100, "Current streak": 3, "Max streak": 3}
    assert [(count, pointed) for _, _, count, pointed in chart_rows(chart)] == [
        (0, False), (1, False), (1, False), (1, True), (0, False), (0, False)]
    out = play_terminal(["-t", "-S", str(state)], games_input(LOSS))
    (numbers, chart), = stats_blocks(out)
    assert numbers == {"Played": 4, "Win %": 75, "Current streak": 0, "Max streak": 3}
    assert not any(pointed for *_, pointed in chart_rows(chart))
    # the file keeps the specification's shape (compared key for key by the conformance tests)
    saved = json.loads(state.read_text())
    assert set(saved) == {"total_rounds", "games"} and saved["total_rounds"] == 4
    assert [game["answer"] for game in saved["games"]] == ["CRANE"] * 3 + ["TITAN"]
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]  # written atomically, no leftovers


def test_old_state_files_give_their_streaks(tmp_path, monkeypatch):
    """A state file of the specification, or with keys missing, has streaks: its games are in order."""
    monkeypatch.setenv("NO_COLOR", "1")
    state = tmp_path / "state.json"
    state.write_text('{"games": [{"answer": "POSER", "guesses": ["POSER"]}, {}, '
                     '{"answer": "HIPPY", "guesses": ["CRANE", "HIPPY"]}, {"answer": "SNEAK", "guesses": ["SNEAK"]}]}')
    out = play_terminal(["-t", "-S", str(state)], games_input(WIN_2))
    (numbers, chart), = stats_blocks(out)
    assert numbers == {"Played": 5, "Win %": 80, "Current streak": 3, "Max streak": 3}
    assert [count for _, _, count, _ in chart_rows(chart)] == [2, 2, 0, 0, 0, 0]
    assert json.loads(state.read_text())["total_rounds"] == 5


# ----------------------------------------------------------------------------- the share grid


def expected_rows(answer: str, guesses: list[str]) -> list[str]:
    return ["".join(SQUARE[mark] for mark in feedback(answer, guess)) for guess in guesses]


def test_share_text_follows_the_feedback_rule():
    rng = random.Random(20220123)
    answers, guesses = builtin_answers(), builtin_guesses()
    for _ in range(300):
        answer = rng.choice(answers)
        words = [rng.choice(guesses) for _ in range(rng.randint(1, 6))]
        if rng.random() < 0.5:
            words[-1] = answer
        game = Round(answer, frozenset(guesses), number=rng.randint(1, 3000))
        for word in words:
            if game.over:
                break
            game.guess(word)
        played = game.guesses
        header, blank, *rows = game.share().split("\n")
        assert blank == "" and rows == expected_rows(answer, played)
        score = str(len(played)) if game.won else "X"
        assert header == f"Wordle {game.number:,} {score}/6"
        for row, word in zip(rows, played):  # square by square
            for square, guess_letter, answer_letter in zip(row, word, answer):
                if guess_letter == answer_letter:
                    assert square == SQUARE["G"]
                elif guess_letter not in answer:
                    assert square == SQUARE["R"]
                else:
                    assert square in (SQUARE["Y"], SQUARE["R"])  # R when the answer's copies are used up


def test_share_text_header_hard_mode_and_high_contrast():
    assert share_text(1, ["RYRGR", "GGGGG"]) == (
        "Wordle 1 2/6\n\n\u2B1B\U0001F7E8\u2B1B\U0001F7E9\u2B1B\n" + "\U0001F7E9" * 5)
    assert share_text(1234, ["GGGGG"], hard=True).split("\n")[0] == "Wordle 1,234 1/6*"
    assert share_text(7, ["RRRRR"] * 6, hard=True).split("\n")[0] == "Wordle 7 X/6*"
    assert share_text(1, ["GYRRR", "GGGGG"], high_contrast=True).split("\n")[2:] == [
        "\U0001F7E7\U0001F7E6\u2B1B\u2B1B\u2B1B", "\U0001F7E7" * 5]
    with pytest.raises(ValueError, match="G, Y and R"):
        share_text(1, ["GYRXR"])


def test_share_grid_after_each_game_without_letters():
    out = play_terminal([], games_input(WIN_3, LOSS))
    (header_1, rows_1), (header_2, rows_2) = share_blocks(out)
    assert (header_1, rows_1) == ("Wordle 1 3/6", expected_rows(*WIN_3))
    assert (header_2, rows_2) == ("Wordle 2 X/6", expected_rows(*LOSS))
    assert not re.search("[A-Za-z]", "".join(rows_1 + rows_2))


def test_share_grid_numbers_random_days_and_marks_hard_mode():
    order = random_answers(builtin_answers(), 41, 7)
    stdin = f"{order[0]}\ny\n{order[1]}\nn\n"
    out = play_terminal(["-r", "-s", "7", "-d", "41", "-D"], stdin)
    assert [header for header, _ in share_blocks(out)] == ["Wordle 41 1/6*", "Wordle 42 1/6*"]
    assert "Game 41" in out and "Game 42" in out


def test_share_grid_numbers_continue_the_state_file(tmp_path):
    state = tmp_path / "state.json"
    state.write_text(Records(total_rounds=9).to_json())
    out = play_terminal(["-S", str(state)], games_input(WIN_2, WIN_3))
    assert [header for header, _ in share_blocks(out)] == ["Wordle 10 2/6", "Wordle 11 3/6"]


# ----------------------------------------------------------------------------- colour and test mode


def test_no_color_means_no_colour_codes(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = play_terminal(["-t"], games_input(WIN_3, LOSS))
    assert not COLOUR_SGR.search(out)  # bold may remain: NO_COLOR is about colour
    assert "not tried yet" in out and BLOCK in out and POINTER in out and len(share_blocks(out)) == 2


def test_no_escape_codes_when_output_is_not_a_terminal():
    out, err = io.StringIO(), io.StringIO()  # the terminal UI forced, but the output is a plain file
    assert run(["-t"], io.StringIO(games_input(WIN_3, LOSS)), out, err, interactive=True) == 0
    assert "\x1b" not in out.getvalue() and len(stats_blocks(out.getvalue())) == 2


def test_test_mode_output_is_unchanged():
    """Output that is not a terminal: the specification's plain lines only (no chart, no share grid)."""
    out, err = io.StringIO(), io.StringIO()
    assert run(["-t"], io.StringIO(games_input(WIN_2, LOSS)), out, err) == 0
    first = dict(S="R", L="R", A="G", T="R", E="G")
    second = dict(S="R", L="R", A="Y", T="Y", E="R", C="R", R="R", N="Y", B="R", K="R", F="R", M="R", P="R", G="R")
    assert (out.getvalue(), err.getvalue()) == ("\n".join([
        "RRGRG " + keys(**first),
        "GGGGG " + keys(**first, C="G", R="G", N="G"),
        "CORRECT 2",
        "1 0 2.00",
        "CRANE 1 SLATE 1",
        "RRYYR " + keys(S="R", L="R", A="Y", T="Y", E="R"),
        "RRYYR " + keys(S="R", L="R", A="Y", T="Y", E="R", C="R", R="R", N="Y"),
        "RRYRR " + keys(S="R", L="R", A="Y", T="Y", E="R", C="R", R="R", N="Y", B="R", K="R"),
        "RRYRR " + keys(S="R", L="R", A="Y", T="Y", E="R", C="R", R="R", N="Y", B="R", K="R", F="R", M="R"),
        "RRYRR " + keys(S="R", L="R", A="Y", T="Y", E="R", C="R", R="R", N="Y", B="R", K="R", F="R", M="R", P="R"),
        "RRYRR " + keys(**second),
        "FAILED TITAN",
        "1 1 2.00",
        "CRANE 2 SLATE 2 BRAKE 1 FLAME 1 GRACE 1",
    ]) + "\n", "")


# ----------------------------------------------------------------------------- the review line


def review_lines(out: str) -> list[str]:
    """Return each review of the output as one line: "Review: ..." and the "Each guess: ..." after it."""
    lines = ANSI.sub("", out).splitlines()
    return [f"{line} {lines[i + 1]}" for i, line in enumerate(lines) if line.startswith("Review: ")]


def test_a_review_line_after_each_game_with_the_command_for_each_guess():
    out = play_terminal([], games_input(WIN_3, LOSS))
    first, second = review_lines(out)
    game = get_game("wordle")
    answer = game.index_of("CRANE")
    steps = [(game.index_of(w), game.code(game.index_of(w), answer)) for w in WIN_3[1]]
    result = review(game, steps, 0.5)
    assert first.startswith(f"Review: skill {result.skill}, luck {result.luck}, ")
    assert first.endswith("Each guess: deduce review wordle SLATE TRACE CRANE --answer CRANE")
    assert second.endswith("Each guess: deduce review wordle " + " ".join(LOSS[1]) + " --answer TITAN")
    hard = play_terminal(["-D"], games_input(WIN_2))
    assert review_lines(hard)[0].endswith("deduce review wordle --hard SLATE CRANE --answer CRANE")


def test_the_review_line_plays_the_files_word_lists_and_skips_answers_outside_them(tmp_path):
    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("CRANE\nTRACE\nBRACE\nGRACE\n")
    guesses.write_text("CRANE\nTRACE\nBRACE\nGRACE\nSLATE\n")
    out = play_terminal(["-f", str(answers), "-a", str(guesses)], games_input(WIN_3))
    [line] = review_lines(out)
    assert "--answer CRANE" in line
    words = wordle.game(False, ("BRACE", "CRANE", "GRACE", "TRACE"), ("BRACE", "CRANE", "GRACE", "SLATE", "TRACE"))
    row = words.index_of("CRANE")
    steps = [(words.index_of(w), words.code(words.index_of(w), row)) for w in WIN_3[1]]
    assert line.startswith(f"Review: skill {review(words, steps, 0.5).skill}")


class TerminalInput(io.StringIO):
    """Standard input that says it is a terminal: its end is Ctrl-D."""

    def isatty(self) -> bool:
        return True


def test_ctrl_d_at_a_terminal_mid_game_leaves_with_status_0():
    out, err = FakeTerminal(), io.StringIO()
    status = run(["-w", "CRANE"], TerminalInput("SLATE\n"), out, err)
    assert (status, err.getvalue()) == (0, "") and "Bye: the answer was CRANE." in out.getvalue()
    piped = io.StringIO()
    assert run(["-w", "CRANE"], io.StringIO("SLATE\n"), FakeTerminal(), piped) == 1  # a script's input: an error
    assert "input ended before the game was over; the answer was CRANE" in piped.getvalue()
