"""The rules of the `wordle` program: rounds (one board, or several as in Dordle and Quordle), the
keyboard and the share text of a finished game.

The marks themselves come from `solver.games.wordle` (`feedback`, `hard_mode_allows`).
"""
from __future__ import annotations

import string
from dataclasses import dataclass, field
from typing import Sequence

from solver.core.bounded_input import excerpt
from solver.games.boards import guesses_allowed
from solver.games.wordle import feedback, hard_mode_allows

MAX_GUESSES = 6
WORD_LENGTH = 5
LETTERS = string.ascii_uppercase
KEY_RANK = {"X": 0, "R": 1, "Y": 2, "G": 3}  # a letter's keyboard state is its best mark so far


class WordleError(Exception):
    """An unrecoverable error: the program prints its message as one line and exits non-zero."""


class InvalidGuess(ValueError):
    """A guess that does not count (printed as INVALID in test mode); the message says why."""


def normalise_word(line: str) -> str | None:
    """Return the upper-cased word on an input line, or None if it is not 5 letters a-z."""
    word = line.strip().upper()
    if len(word) == WORD_LENGTH and word.isascii() and word.isalpha():
        return word
    return None


@dataclass
class Round:
    """One game: the answer, the guesses so far with their marks, and the keyboard."""

    answer: str
    acceptable: frozenset[str]
    hard: bool = False
    history: list[tuple[str, str]] = field(default_factory=list)
    keyboard: dict[str, str] = field(default_factory=lambda: dict.fromkeys(LETTERS, "X"))
    number: int = 1  # the game's number as shared ("Wordle 817 3/6"): see `play`
    limit: int = MAX_GUESSES  # guesses allowed (a board of an N-board game: N + 5)

    @property
    def guesses(self) -> list[str]:
        return [word for word, _ in self.history]

    @property
    def won(self) -> bool:
        return bool(self.history) and self.history[-1][0] == self.answer

    @property
    def over(self) -> bool:
        return self.won or len(self.history) >= self.limit

    def check(self, line: str) -> str:
        """Return the guess on `line` upper-cased, or raise InvalidGuess saying why it does not count."""
        word = normalise_word(line)
        if word is None:
            raise InvalidGuess(f"not a {WORD_LENGTH}-letter word: {excerpt(line.strip())}")
        if word not in self.acceptable:
            raise InvalidGuess(f"{word} is not in the list of acceptable words")
        if self.hard:
            reason = hard_mode_allows(self.history, word)
            if reason is not None:
                raise InvalidGuess(f"hard mode: {reason}")
        return word

    def guess(self, line: str) -> str:
        """Play the guess on `line` and return its marks; InvalidGuess if it does not count."""
        if self.over:
            raise InvalidGuess("the game is over")
        word = self.check(line)
        marks = feedback(self.answer, word)
        self.history.append((word, marks))
        for letter, mark in zip(word, marks):
            if KEY_RANK[mark] > KEY_RANK[self.keyboard[letter]]:
                self.keyboard[letter] = mark
        return marks

    def keyboard_line(self) -> str:
        """Return the 26 keyboard states in A-Z order, e.g. "YXXRX...": G, Y, R or X (unknown)."""
        return "".join(self.keyboard[letter] for letter in LETTERS)

    def share(self, high_contrast: bool = False) -> str:
        """Return this game's share text (`share_text`): its number, score and squares, no letters."""
        return share_text(self.number, [marks for _, marks in self.history], self.hard, high_contrast)

    def to_record(self) -> dict:
        """Return the game as the state file stores it: {"answer": ..., "guesses": [...]}."""
        return {"answer": self.answer, "guesses": self.guesses}


@dataclass
class MultiRound:
    """One game on several boards (Dordle, Quordle): one `Round` per answer, every guess scored on
    each board not solved yet (a board solved takes no more guesses), `guesses_allowed` in all. In hard
    mode a guess must satisfy the hard-mode rule of at least one board not solved yet."""

    answers: tuple[str, ...]
    acceptable: frozenset[str]
    number: int = 1  # as `Round.number`
    hard: bool = False
    boards: list[Round] = field(init=False)
    # each guess with the marks of every board: None on a board solved by an earlier guess
    history: list[tuple[str, tuple[str | None, ...]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        # each board scores in normal mode: the hard-mode rule of several boards is the game's (`check`)
        self.boards = [Round(answer, self.acceptable, False, number=self.number, limit=self.limit)
                       for answer in self.answers]

    @property
    def limit(self) -> int:
        """Return the number of guesses allowed."""
        return guesses_allowed(len(self.answers))

    @property
    def guesses(self) -> list[str]:
        return [word for word, _ in self.history]

    @property
    def won(self) -> bool:
        """True once every board is solved."""
        return all(board.won for board in self.boards)

    @property
    def over(self) -> bool:
        return self.won or len(self.history) >= self.limit

    def check(self, line: str) -> str:
        """Return the guess on `line` upper-cased, or raise InvalidGuess saying why it does not count (in
        hard mode: it keeps the rule of no unsolved board, each board's reason named)."""
        word = Round("", self.acceptable).check(line)
        if not self.hard:
            return word
        reasons = []
        for number, board in enumerate(self.boards, start=1):
            if board.won:
                continue
            reason = hard_mode_allows(board.history, word)
            if reason is None:
                return word
            reasons.append(f"board {number}: {reason}")
        raise InvalidGuess("hard mode, " + "; ".join(reasons))

    def guess(self, line: str) -> tuple[str | None, ...]:
        """Play the guess on `line` on every unsolved board and return the marks of each board (None
        on a board solved earlier); InvalidGuess if it does not count."""
        if self.over:
            raise InvalidGuess("the game is over")
        word = self.check(line)
        marks = tuple(None if board.won else board.guess(word) for board in self.boards)
        self.history.append((word, marks))
        return marks

    def solved_in(self, index: int) -> int | None:
        """Return the number of guesses that solved board `index` (from 0), or None if it is unsolved."""
        board = self.boards[index]
        return len(board.history) if board.won else None

    def keyboard_line(self) -> str:
        """Return the keyboard line (`Round.keyboard_line`) of the leftmost board the last guess was
        scored on, i.e. the first board still unsolved before it (test mode's line)."""
        _, marks = self.history[-1]
        first = next(index for index, mark in enumerate(marks) if mark is not None)
        return self.boards[first].keyboard_line()

    def share(self, high_contrast: bool = False) -> str:
        """Return this game's share text (`share_boards_text`): number, score, one block per board."""
        return share_boards_text(self.number, [[marks for _, marks in board.history] for board in self.boards],
                                 high_contrast, self.hard)

    def to_record(self) -> dict:
        """Return the game as the state file stores it: {"answers": [one per board], "guesses": [...]}."""
        return {"answers": list(self.answers), "guesses": self.guesses}


# ----------------------------------------------------------------------------- share text


SQUARES = {"G": "\U0001F7E9", "Y": "\U0001F7E8", "R": "\u2B1B"}  # green, yellow, black (dark theme)
HIGH_CONTRAST_SQUARES = {"G": "\U0001F7E7", "Y": "\U0001F7E6", "R": "\u2B1B"}  # orange, blue, black


def share_text(number: int, marks: Sequence[str], hard: bool = False, high_contrast: bool = False) -> str:
    """Return the original game's share text of a finished game, without the letters.

    `marks` are the feedback of each guess (G/Y/R, e.g. "RYRGR"); the game is won if the last is
    all G. The first line is "Wordle 817 3/6" ("X/6" when lost, "*" after the score in hard mode,
    the number with thousands separators), then a blank line and one row of squares per guess:
    green, yellow and black, or orange, blue and black with `high_contrast`. No final newline.
    ValueError if a mark is not G, Y or R.
    """
    won = bool(marks) and marks[-1] == "G" * len(marks[-1])
    score = len(marks) if won else "X"
    rows = _square_rows(marks, high_contrast, "share_text")
    return "\n".join([f"Wordle {number:,} {score}/{MAX_GUESSES}{'*' if hard else ''}", ""] + rows)


def _square_rows(marks: Sequence[str], high_contrast: bool, caller: str) -> list[str]:
    """Return one row of squares per marks string; ValueError naming `caller` if a mark is not G, Y or R."""
    squares = HIGH_CONTRAST_SQUARES if high_contrast else SQUARES
    rows = []
    for row in marks:
        if not row or set(row) - squares.keys():
            raise ValueError(f"{caller}: marks must be letters G, Y and R, got {excerpt(row)}")
        rows.append("".join(squares[mark] for mark in row))
    return rows


# the published games of several boards; another count is named "Wordle xN"
BOARD_GAME_NAMES = {1: "Wordle", 2: "Dordle", 4: "Quordle", 8: "Octordle", 16: "Sedecordle", 32: "Duotrigordle"}


def board_game_name(count: int) -> str:
    """Return the name a game of `count` boards is shared under: Dordle (2), Quordle (4), Octordle (8),
    Sedecordle (16), Duotrigordle (32), else "Wordle x3"."""
    return BOARD_GAME_NAMES.get(count, f"Wordle x{count}")


def share_boards_text(number: int, boards: Sequence[Sequence[str]], high_contrast: bool = False,
                      hard: bool = False) -> str:
    """Return the share text of a finished game on several boards, without the letters, as the web
    page's Dordle and Quordle share it.

    `boards` holds each board's marks, one string per guess it took (up to the guess that solved
    it). The first line is "Quordle 817 4&5&7&6/9": the game's name (`board_game_name`), its number,
    the guesses that solved each board ("X" for a board not solved) joined by "&", out of N + 5
    ("*" after it in hard mode); then, for each board in order, a blank line and its rows of squares
    (as `share_text`). No final newline. ValueError if a mark is not G, Y or R.
    """
    scores = "&".join(str(len(marks)) if marks and marks[-1] == "G" * len(marks[-1]) else "X" for marks in boards)
    lines = [f"{board_game_name(len(boards))} {number:,} {scores}/{guesses_allowed(len(boards))}{'*' if hard else ''}"]
    for marks in boards:
        lines += [""] + _square_rows(marks, high_contrast, "share_boards_text")
    return "\n".join(lines)
