"""The game loop of the `wordle` program: the answers of the day, and `play`, which drives a session.

Nothing here reads the terminal or the command line: `play` drives a session through a `UI` object
(the program has one for test mode and one for the interactive terminal, in `terminal`; tests use
their own).
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from solver.core.bounded_input import excerpt
from solver.games.boards import check_distinct
from solver.wordle_program.records import Records, Statistics, compute_stats
from solver.wordle_program.rounds import InvalidGuess, MultiRound, Round, WordleError, normalise_word
from solver.wordle_program.rustrand import shuffle

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
        chosen.append(answer)
    check_distinct(chosen)
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
    def show_stats(self, stats: Statistics) -> None: ...
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
    state: Records = field(default_factory=Records)
    # records each finished game in the state file (`program.record_game`) and returns the file's state
    save: Callable[[Round | MultiRound], Records] | None = None


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
    game = MultiRound(tuple(answers), session.acceptable, number=number, hard=session.hard)
    _play_to_the_end(game, ui, f"the answers were {', '.join(answers)}")
    return game


class InputEnded(WordleError):
    """Input ended in the middle of a game: an error for a script's input, the player leaving at a
    terminal (Ctrl-D). `reveal` names the answer(s)."""

    def __init__(self, reveal: str):
        super().__init__(f"input ended before the game was over; {reveal}")
        self.reveal = reveal


def _play_to_the_end(game: Round | MultiRound, ui: UI, reveal: str) -> None:
    """Play `game` through `ui` until it is over; InputEnded (naming `reveal`) if input ends."""
    ui.game_started(game)
    while not game.over:
        line = ui.read_guess(game)
        if line is None:
            raise InputEnded(reveal)
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
        if session.save is not None:
            session.state = session.save(game)  # the state file's, with every run's games
        else:
            session.state.record(game)
        if session.stats:
            ui.show_stats(compute_stats(session.state.games))
        if session.word is not None or session.words is not None:
            return
        if session.order is not None and (number + 1) * boards >= len(session.order):
            ui.out_of_answers()
            return
        if not ui.play_again():
            return
