"""The `wordle` program's terminal on several boards: a small keyboard under each unsolved
board in that board's colours, within 80 columns; the share text as the web page's Dordle and Quordle give it
("Quordle 1 2&3&4&5/9", a blank line between boards)."""
from __future__ import annotations

import re

import pytest

from solver.games.wordle import feedback
from solver.wordle_program.rounds import MultiRound, board_game_name, share_boards_text
from tests.helpers import ANSI
from tests.terminal import colour_terminal, play_terminal  # noqa: F401 (colour_terminal: an autouse fixture)

WORDS = ["crane", "sloth", "pilot", "badge"]
PLAIN_MARK = {"G": "=", "Y": "+", "R": ".", "X": " "}


def small_keyboard(answer: str, guesses: list[str]) -> list[str]:
    """Return a board's keyboard as drawn without colour: each key's letter then its mark (= right place,
    + elsewhere, . not in the word, lower case), the best mark over the guesses."""
    rank = {"X": 0, "R": 1, "Y": 2, "G": 3}
    best = dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "X")
    for guess in guesses:
        for letter, mark in zip(guess, feedback(answer, guess)):
            best[letter] = max(best[letter], mark, key=rank.get)
    rows = []
    for indent, keys in enumerate(("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM")):
        rows.append((" " * indent + "".join((k.lower() if best[k] == "R" else k) + PLAIN_MARK[best[k]]
                                            for k in keys)).rstrip())
    return rows


def test_every_unsolved_board_has_its_own_keyboard_within_80_columns(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = ANSI.sub("", play_terminal(["-b", "4", "-w", ",".join(WORDS)], "audio\ncrane\nsloth\npilot\nbadge\n"))
    assert "Keyboard of board" not in out and max(len(line) for line in out.splitlines()) <= 80
    after_two = out.split("Guess 3/9: ")[0].split("Guess 2/9: ")[1]  # board 1 solved by CRANE
    keyboards = {answer: small_keyboard(answer.upper(), ["AUDIO", "CRANE"]) for answer in WORDS}
    top = [line for line in after_two.splitlines() if line.lstrip().startswith("Q")]
    assert len(top) == 2  # boards 2 and 3 on the first row of boards (3 fit in 80 columns), board 4 below
    assert top[0] == " " * 24 + keyboards["sloth"][0] + " " * (22 - len(keyboards["sloth"][0])) + keyboards["pilot"][0]
    assert top[1] == "  " + keyboards["badge"][0]
    assert "  A= right place  A+ elsewhere" in out


def test_colour_keys_take_each_boards_own_colour():
    out = play_terminal(["-b", "2", "-w", "crane,sloth"], "slate\ncrane\nsloth\n")
    first = out.split("Guess 2/7: ")[0]
    row = next(line for line in first.splitlines() if ANSI.sub("", line).strip().startswith("Q W E"))
    keys = re.findall(r"\x1b\[([0-9;]*)m(\w)\x1b\[0m", row)
    e_keys = [style for style, key in keys if key == "E"]
    t_keys = [style for style, key in keys if key == "T"]
    green, grey = "48;5;28", "48;5;240"  # SLATE: E green on CRANE, grey on SLOTH; T grey on CRANE, yellow on SLOTH
    assert green in e_keys[0] and grey in e_keys[1] and grey in t_keys[0] and grey not in t_keys[1]
    assert len(ANSI.sub("", row)) <= 80


def test_share_text_as_the_web_page_gives_it():
    out = ANSI.sub("", play_terminal(["-b", "4", "-w", ",".join(WORDS)], "audio\ncrane\nsloth\npilot\nbadge\n"))
    share = out.split("Quordle 1 2&3&4&5/9\n")[1].rstrip("\n").split("\n")
    assert [i for i, line in enumerate(share) if not line] == [0, 3, 7, 12] and len(share) == 4 + 2 + 3 + 4 + 5
    game = MultiRound(("CRANE", "SLOTH"), frozenset(["CRANE", "SLOTH", "AUDIO"]), number=3, hard=True)
    game.guess("CRANE")
    assert game.share().split("\n")[0] == "Dordle 3 1&X/7*"  # hard mode: a star, as one board's "Wordle 3 4/6*"


@pytest.mark.parametrize("count, name", [(2, "Dordle"), (4, "Quordle"), (8, "Octordle"), (16, "Sedecordle"),
                                         (32, "Duotrigordle"), (3, "Wordle x3")])
def test_names_of_the_games_of_several_boards(count, name):
    assert board_game_name(count) == name
    assert share_boards_text(7, [["GGGGG"]] * count).split("\n")[0] == f"{name} 7 {'&'.join(['1'] * count)}/{count + 5}"
