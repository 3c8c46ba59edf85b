"""Game logic of the `wordle` program: rounds (one board, or several as in Dordle and Quordle),
keyboard, statistics, the share text, the state file, the game loop.

Nothing here reads the terminal or the command line: `play` drives a session through a `UI` object
(the program has one for test mode and one for the interactive terminal; tests use their own).
The marks themselves come from `solver.wordle` (`feedback`, `hard_mode_allows`).
"""
from __future__ import annotations

import errno
import gc
import itertools
import json
import re
import string
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from sys import intern
from typing import Callable, Iterable, Iterator, Protocol, Sequence

from solver.limits import STATE_LIMIT, InputFileError, excerpt, read_text
from solver.rustrand import shuffle
from solver.boards import guesses_allowed
from solver.wordle import feedback, hard_mode_allows

MAX_GUESSES = 6
WORD_LENGTH = 5
LETTERS = string.ascii_uppercase
KEY_RANK = {"X": 0, "R": 1, "Y": 2, "G": 3}  # a letter's keyboard state is its best mark so far
TOP_WORDS = 5


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
    each board not solved yet (a board solved takes no more guesses), `guesses_allowed` in all."""

    answers: tuple[str, ...]
    acceptable: frozenset[str]
    number: int = 1  # as `Round.number`
    boards: list[Round] = field(init=False)
    # each guess with the marks of every board: None on a board solved by an earlier guess
    history: list[tuple[str, tuple[str | None, ...]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.boards = [Round(answer, self.acceptable, number=self.number, limit=self.limit) for answer in self.answers]

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
        """Return the guess on `line` upper-cased, or raise InvalidGuess saying why it does not count."""
        return self.boards[0].check(line)

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
        scored on, i.e. the first board still unsolved before it."""
        _, marks = self.history[-1]
        first = next(index for index, mark in enumerate(marks) if mark is not None)
        return self.boards[first].keyboard_line()

    def share(self, high_contrast: bool = False) -> str:
        """Return this game's share text (`share_boards_text`): number, score, one block per board."""
        return share_boards_text(self.number, [[marks for _, marks in board.history] for board in self.boards],
                                 high_contrast)

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


def share_boards_text(number: int, boards: Sequence[Sequence[str]], high_contrast: bool = False) -> str:
    """Return the share text of a finished game on several boards, without the letters.

    `boards` holds each board's marks, one string per guess it took (up to the guess that solved
    it). The first line is "Wordle 817 7/7": the guesses of the game (its longest board) out of
    N + 5, "X" unless every board ends all G; then, for each board in order, a blank line and its
    rows of squares (as `share_text`). No final newline. ValueError if a mark is not G, Y or R.
    """
    solved = [bool(marks) and marks[-1] == "G" * len(marks[-1]) for marks in boards]
    score = max((len(marks) for marks in boards), default=0) if boards and all(solved) else "X"
    lines = [f"Wordle {number:,} {score}/{guesses_allowed(len(boards))}"]
    for marks in boards:
        lines += [""] + _square_rows(marks, high_contrast, "share_boards_text")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class Stats:
    """Won and lost games, mean guesses of the won games, the most used guesses, and what the
    original game shows: win streaks and the guess distribution."""

    won: int
    lost: int
    average: float
    top: tuple[tuple[str, int], ...]
    current_streak: int = 0  # games won since the last loss
    max_streak: int = 0  # the longest run of games won in a row
    distribution: tuple[int, ...] = (0,) * MAX_GUESSES  # games won in 1, 2, ..., 6 guesses
    last_won_in: int | None = None  # guesses of the last game if it was won in at most 6, else None

    @property
    def played(self) -> int:
        """Return the number of games played."""
        return self.won + self.lost

    @property
    def win_percent(self) -> int:
        """Return the share of games won in percent, rounded half up as the original game does (0 if none)."""
        return (200 * self.won + self.played) // (2 * self.played) if self.played else 0

    def lines(self) -> tuple[str, str]:
        """Return the two test-mode lines: "WON LOST AVG" and "WORD COUNT WORD COUNT ..."."""
        return (
            f"{self.won} {self.lost} {self.average:.2f}",
            " ".join(f"{word} {count}" for word, count in self.top),
        )


def game_won(game: dict) -> bool:
    """True if a recorded game's last guess is its answer (games from a state file may lack keys);
    for a game on several boards ("answers"), if every answer is among its guesses."""
    guesses = game.get("guesses") or []
    answers = game.get("answers")
    if answers:
        played = {word.upper() for word in guesses}
        return all(answer.upper() in played for answer in answers)
    answer = game.get("answer")
    return bool(guesses) and answer is not None and guesses[-1].upper() == answer.upper()


def compute_stats(games: Iterable[dict]) -> Stats:
    """Return the statistics of recorded games (dicts with optional "answer" and "guesses"), in
    the order played: streaks and the distribution come from the games themselves, so a state
    file (old ones too) carries them without keys of its own. A won game of more than 6 guesses
    (only a hand-edited file has one) counts for the streaks but has no row in the distribution."""
    won = lost = won_guesses = streak = max_streak = 0
    distribution = [0] * MAX_GUESSES
    last_won_in = None
    counts: Counter[str] = Counter()
    for game in games:
        guesses = [word.upper() for word in game.get("guesses") or []]
        counts.update(guesses)
        if game_won(game):
            won += 1
            won_guesses += len(guesses)
            streak += 1
            if streak > max_streak:
                max_streak = streak
            last_won_in = len(guesses) if len(guesses) <= MAX_GUESSES else None
            if last_won_in is not None:
                distribution[last_won_in - 1] += 1
        else:
            lost += 1
            streak = 0
            last_won_in = None
    top = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:TOP_WORDS]
    return Stats(won, lost, won_guesses / won if won else 0.0, tuple(top), streak, max_streak,
                 tuple(distribution), last_won_in)


# ----------------------------------------------------------------------------- state file


@dataclass
class State:
    """The state file: games played so far (as stored, unchecked) and their count."""

    total_rounds: int = 0
    games: list[dict] = field(default_factory=list)

    def record(self, game: Round | MultiRound) -> None:
        self.games.append(game.to_record())
        self.total_rounds += 1

    def to_json(self) -> str:
        """Return the state file's text: compact JSON (no indentation), one line and a newline."""
        return json.dumps({"total_rounds": self.total_rounds, "games": self.games}, separators=(",", ":")) + "\n"


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block (as it was after it).

    Parsing a large state file builds millions of objects and no reference cycles: the collector
    would run over and over for nothing (it made loading a million games several times slower).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_json_object(text: str, name: str, object_hook: Callable[[dict], dict] | None = None) -> dict:
    """Return the JSON object in `text`; WordleError naming `name` if it is not valid JSON or not an object.

    Nesting too deep for the parser is invalid JSON too.
    """
    try:
        with gc_paused():
            data = json.loads(text, object_hook=object_hook)
    except ValueError as err:
        raise WordleError(f"{name} is not valid JSON: {err}") from None
    except RecursionError:
        raise WordleError(f"{name} is not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise WordleError(f"{name}: expected a JSON object")
    return data


_ABSENT = object()


def _game_words() -> tuple[Callable[[dict], dict], list]:
    """Return (hook, malformed): a JSON object hook for the state file, and what it noticed.

    The hook makes the equal words of games one string object (`sys.intern`): a long history
    repeats the same few thousand words millions of times, and sharing them while parsing nearly
    halves a large state file's memory, at its peak while loading too. It notes in `malformed`
    any object whose "answer" is not a string or whose "guesses" (or "answers", the answers of a
    game on several boards) is not a list of strings, so that `parse_state` looks for the first
    bad game only when there may be one.
    """
    malformed: list = []

    def intern_words(obj: dict, key: str) -> None:
        words = obj.get(key, _ABSENT)
        if words.__class__ is list:
            try:
                words[:] = map(intern, words)
            except TypeError:  # not all strings: left unchanged
                malformed.append(True)
        elif words is not _ABSENT:
            malformed.append(True)

    def hook(obj: dict) -> dict:
        intern_words(obj, "guesses")
        answer = obj.get("answer", _ABSENT)
        if answer.__class__ is str:
            obj["answer"] = intern(answer)
        elif answer is not _ABSENT:
            malformed.append(True)
        intern_words(obj, "answers")
        return obj

    return hook, malformed


def parse_state(text: str, name: str = "state file") -> State:
    """Return the State in JSON `text`; WordleError if it is not JSON of the state file's shape.

    Every key is optional; the words are not checked. A missing total_rounds counts the games.
    A game on several boards has "answers" (a list of strings) instead of "answer".
    """
    hook, malformed = _game_words()
    with gc_paused():
        data = parse_json_object(text, name, hook)
        games = data.get("games", [])
        if not isinstance(games, list):
            raise WordleError(f'{name}: "games" must be a list')
        well_formed = not malformed and set(map(type, games)) <= {dict}  # every object went through the hook
        for number, game in enumerate([] if well_formed else games, start=1):
            if not isinstance(game, dict):
                raise WordleError(f"{name}: game {number} must be an object")
            if "answer" in game and not isinstance(game["answer"], str):
                raise WordleError(f'{name}: game {number}: "answer" must be a string')
            guesses = game.get("guesses", [])
            if not isinstance(guesses, list) or not all(isinstance(word, str) for word in guesses):
                raise WordleError(f'{name}: game {number}: "guesses" must be a list of strings')
            answers = game.get("answers", [])
            if not isinstance(answers, list) or not all(isinstance(word, str) for word in answers):
                raise WordleError(f'{name}: game {number}: "answers" must be a list of strings')
    total = data.get("total_rounds", len(games))
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        raise WordleError(f'{name}: "total_rounds" must be a non-negative integer')
    return State(total, games)


def load_state(path: str | Path) -> State:
    """Return the state saved in `path`, or an empty State if the file does not exist.

    The file must be a regular file of at most 256 MB (`solver.limits.STATE_LIMIT`, some 4
    million games); WordleError otherwise.
    """
    try:
        text = read_text(path, STATE_LIMIT, "state file")
    except InputFileError as err:
        if err.errno in (errno.ENOENT, errno.ENOTDIR):  # no such file (yet)
            return State()
        raise WordleError(str(err)) from None
    return parse_state(text, f"state file {path}")


# ----------------------------------------------------------------------------- answers


def random_answers(answers: Sequence[str], day: int, seed: int, boards: int = 1) -> list[str]:
    """Return the answers of random mode in play order: the sorted list shuffled like Rust's
    ``StdRng::seed_from_u64(seed)`` + ``shuffle``, from index ``day - 1`` on, then wrapping round
    to the start, so a run never repeats an answer (it ends when all have been played).

    With several boards, game (day) d takes the `boards` answers from index ``(d - 1) * boards``
    of the shuffled list: the list is cut to a whole number of games (its last ``len % boards``
    answers are never played) and the play order starts at day `day`'s first answer."""
    order = shuffle(sorted(answers), seed)
    del order[len(order) - len(order) % boards:]
    start = (day - 1) * boards
    return order[start:] + order[:start]


def split_answers(line: str) -> list[str]:
    """Return the words of a line of several answers, separated by commas and/or white space."""
    return [word for word in re.split(r"[,\s]+", line.strip()) if word]


class NotAnAnswer(ValueError):
    """A word given as an answer that is not in the answer list (a data error, not a usage one)."""


def check_answers(line: str, count: int, answers: Sequence[str] | frozenset[str]) -> tuple[str, ...]:
    """Return the `count` answers on `line` upper-cased (in order); ValueError saying why if their
    number is wrong or one is given twice, NotAnAnswer if one is not in `answers`."""
    words = split_answers(line)
    if len(words) != count:
        raise ValueError(f"expected {count} answers (one per board, separated by commas), "
                         f"got {len(words)}: {excerpt(line.strip())}")
    chosen = []
    for word in words:
        answer = normalise_word(word)
        if answer is None or answer not in answers:
            raise NotAnAnswer(f"the answer {excerpt(word)} is not in the answer list")
        if answer in chosen:
            raise ValueError(f"the answers must all be different: {answer} is given twice")
        chosen.append(answer)
    return tuple(chosen)


# ----------------------------------------------------------------------------- the game loop


class UI(Protocol):
    """What `play` needs from a front end. The read_* methods return None at end of input."""

    retry_bad_answer: bool  # ask again for an answer not in the list (else it is an error)

    def read_answer(self) -> str | None: ...
    def game_started(self, game: Round | MultiRound) -> None: ...
    def answer_rejected(self, line: str, reason: str) -> None: ...
    def read_guess(self, game: Round | MultiRound) -> str | None: ...
    def guess_rejected(self, game: Round | MultiRound, line: str, reason: str) -> None: ...
    def guess_accepted(self, game: Round | MultiRound) -> None: ...
    def game_over(self, game: Round | MultiRound) -> None: ...
    def show_stats(self, stats: Stats) -> None: ...
    def out_of_answers(self) -> None: ...
    def play_again(self) -> bool: ...


@dataclass
class Session:
    """Everything a run needs once the options are resolved and the files loaded."""

    answers: tuple[str, ...]
    acceptable: frozenset[str]
    hard: bool = False
    stats: bool = False
    word: str | None = None  # -w: one game with this answer
    order: list[str] | None = None  # random mode: the answers in play order (`boards` per game)
    first_day: int = 1  # random mode: the day (-d) of order[0]
    boards: int = 1  # -b: boards (answers) per game
    words: tuple[str, ...] | None = None  # -w with several boards: one game with these answers
    state: State = field(default_factory=State)
    save: Callable[[State], None] | None = None  # called after every game


def read_answer(session: Session, ui: UI) -> str:
    """Return the answer read from the UI (answer-from-input mode)."""
    while True:
        line = ui.read_answer()
        if line is None:
            raise WordleError("input ended while reading the answer")
        word = normalise_word(line)
        if word is not None and word in session.answers:
            return word
        reason = f"the answer {excerpt(line.strip())} is not in the answer list"
        if not ui.retry_bad_answer:
            raise WordleError(reason)
        ui.answer_rejected(line, reason)


def read_answers(session: Session, ui: UI) -> tuple[str, ...]:
    """Return the `session.boards` answers read from one line of the UI (answer-from-input mode)."""
    while True:
        line = ui.read_answer()
        if line is None:
            raise WordleError("input ended while reading the answers")
        try:
            return check_answers(line, session.boards, session.answers)
        except ValueError as err:
            if not ui.retry_bad_answer:
                raise WordleError(str(err)) from None
            ui.answer_rejected(line, str(err))


def play_round(answer: str, session: Session, ui: UI, number: int = 1) -> Round:
    """Play one game (numbered `number`) to its end and return it."""
    game = Round(answer, session.acceptable, session.hard, number=number)
    _play_to_the_end(game, ui, f"the answer was {answer.upper()}")
    return game


def play_boards(answers: Sequence[str], session: Session, ui: UI, number: int = 1) -> MultiRound:
    """Play one game on several boards (numbered `number`) to its end and return it."""
    game = MultiRound(tuple(answers), session.acceptable, number=number)
    _play_to_the_end(game, ui, f"the answers were {', '.join(answers)}")
    return game


def _play_to_the_end(game: Round | MultiRound, ui: UI, reveal: str) -> None:
    """Play `game` through `ui` until it is over; WordleError (ending with `reveal`) if input ends."""
    ui.game_started(game)
    while not game.over:
        line = ui.read_guess(game)
        if line is None:
            raise WordleError(f"input ended before the game was over; {reveal}")
        try:
            game.guess(line)
        except InvalidGuess as err:
            ui.guess_rejected(game, line, str(err))
            continue
        ui.guess_accepted(game)
    ui.game_over(game)


def game_number(session: Session, index: int) -> int:
    """Return the number of the run's game `index` (from 0) as shared: in random mode its day (the
    1-based place of its answer in the shuffled list), else its place among the recorded games
    (the state file's total_rounds plus one; counted from 1 in each run without a state file)."""
    if session.order is not None:
        return (session.first_day - 1 + index) % (len(session.order) // session.boards) + 1
    return session.state.total_rounds + 1


def play(session: Session, ui: UI) -> None:
    """Play games until the user stops, the input ends, or (random mode) the answers run out."""
    boards = session.boards
    for number in itertools.count():
        if boards > 1:
            if session.words is not None:
                answers = session.words
            elif session.order is not None:
                answers = tuple(session.order[number * boards:(number + 1) * boards])
            else:
                answers = read_answers(session, ui)
            game = play_boards(answers, session, ui, game_number(session, number))
        else:
            if session.word is not None:
                answer = session.word
            elif session.order is not None:
                answer = session.order[number]
            else:
                answer = read_answer(session, ui)
            game = play_round(answer, session, ui, game_number(session, number))
        session.state.record(game)
        if session.save is not None:
            session.save(session.state)
        if session.stats:
            ui.show_stats(compute_stats(session.state.games))
        if session.word is not None or session.words is not None:
            return
        if session.order is not None and (number + 1) * boards >= len(session.order):
            ui.out_of_answers()
            return
        if not ui.play_again():
            return
