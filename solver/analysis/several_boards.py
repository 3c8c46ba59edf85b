"""Several Wordle boards (`--boards N`): answers and feedback as people type them, and the solver played out.

Feedback for several boards is typed as the marks of each unsolved board in order, separated by
spaces, commas or slashes ("RYRGR GGRRR"), or as one run of squares pasted from a game (split
into boards by the word length); it is shown with board numbers ("1 RYRGR  2 GGRRR").
"""
from __future__ import annotations

import re
from typing import Sequence

from solver.analysis.notation import parse_answer, plural, show_feedback
from solver.core.bounded_input import excerpt
from solver.core.game import Game
from solver.core.registry import UsageError
from solver.games.boards import SOLVED, Boards, check_count, check_distinct

_SEPARATORS = re.compile(r"[\s,/;|]+")


def check_boards(game: Game, count: int) -> int:
    """Return `count` when several boards can be played on `game` (Wordle, normal or hard mode); UsageError
    otherwise."""
    if count != 1 and game.name != "wordle":
        raise UsageError("--boards applies to wordle only")
    try:
        return check_count(count)
    except ValueError as err:
        raise UsageError(str(err)) from None


def parse_answers(game: Game, parts: Sequence[str], count: int) -> list[int]:
    """Return the target rows of one different answer word per board (command-line arguments): UsageError
    unless there are `count` of them, all different (`check_distinct`, the `wordle` program's rule),
    ValueError if one is not an answer."""
    words = [w for part in parts for w in _SEPARATORS.split(part) if w]
    if len(words) != count:
        raise UsageError(f"{count} boards need {count} answers, got {len(words)}: {excerpt(' '.join(words))}")
    rows = [parse_answer(game, [word]) for word in words]
    try:
        check_distinct([game.labels[row] for row in rows])
    except ValueError as err:
        raise UsageError(str(err)) from None
    return rows


def parse_board_feedback(state: Boards, text: str) -> dict[int, int]:
    """Return {board index: code} from the marks of each unsolved board, in order; ValueError if
    the number of boards or a mark is wrong."""
    game, boards = state.game, state.open_boards
    length = len(game.labels[0])
    parts = [p for p in _SEPARATORS.split(text.strip()) if p]
    if len(parts) == 1 and len(boards) > 1:  # one run of pasted squares or letters
        squares = parts[0].replace("\ufe0f", "")
        if len(squares) == length * len(boards):
            parts = [squares[i:i + length] for i in range(0, len(squares), length)]
    if len(parts) != len(boards):
        raise ValueError(f"expected the marks of {plural(len(boards), 'unsolved board')} "
                         f"({', '.join(str(b + 1) for b in boards)}), got {len(parts)}: {excerpt(text)}")
    codes = {}
    for board, marks in zip(boards, parts):
        try:
            codes[board] = game.encode(marks.upper())
        except ValueError as err:
            raise ValueError(f"board {board + 1}: {err}") from None
    return codes


def show_board_feedback(game: Game, codes: Sequence[int]) -> str:
    """Return the feedback of one guess on every board not solved before it: "1 RYRGR  3 GGGGG"."""
    return "  ".join(f"{b + 1} {show_feedback(game, code)}" for b, code in enumerate(codes) if code != SOLVED)


def play(game: Game, answers: list[int], limit: int = 100, opener: int | None = None,
         hard: bool = False) -> list[tuple[int, tuple[int, ...]]]:
    """Return the (guess row, code per board) steps the solver plays until every answer is found, from
    guess row `opener` (default: the solver's own first guess). `hard` (or a hard variant of `game`): every
    guess satisfies the hard-mode rule of at least one unsolved board (`Boards.allowed`)."""
    state = Boards.start(game, len(answers), hard)
    while not state.done:
        if len(state.history) >= limit:
            raise ValueError(f"the boards were not all solved within {limit} guesses")
        row = opener if opener is not None and not state.history else state.choose()
        codes = {b: game.code(row, answers[b]) for b in state.open_boards}
        state = state.after(row, codes)
    return list(state.history)
