"""Several Wordle boards on the command line (`--boards N`): the `play` transcript and the `solve` dialogue.

Feedback for several boards is typed as the marks of each unsolved board in order, separated by
spaces, commas or slashes ("RYRGR GGRRR"), or as one run of squares pasted from a game (split
into boards by the word length); it is shown with board numbers ("1 RYRGR  2 GGRRR").
"""
from __future__ import annotations

import re
from typing import Sequence

from solver.boards import SOLVED, Boards, check_count, guesses_allowed
from solver.commands.formats import label_list, parse_answer, parse_guess, plural, show_feedback
from solver.commands.sessions import COMMANDS, LIST_LIMIT
from solver.game import Game
from solver.games import UsageError
from solver.limits import excerpt

_SEPARATORS = re.compile(r"[\s,/;|]+")


def check_boards(game: Game, count: int) -> int:
    """Return `count` when several boards can be played on `game` (Wordle, normal mode); UsageError otherwise."""
    if count != 1 and (game.name != "wordle" or game.allowed is not None):
        raise UsageError("--boards applies to wordle in normal mode only")
    try:
        return check_count(count)
    except ValueError as err:
        raise UsageError(str(err)) from None


def parse_answers(game: Game, parts: Sequence[str], count: int) -> list[int]:
    """Return the target rows of one answer word per board; ValueError unless there are `count`."""
    words = [w for part in parts for w in _SEPARATORS.split(part) if w]
    if len(words) != count:
        raise ValueError(f"{count} boards need {count} answers, got {len(words)}: {excerpt(' '.join(words))}")
    return [parse_answer(game, [word]) for word in words]


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


def play(game: Game, answers: list[int], limit: int = 100) -> list[tuple[int, tuple[int, ...]]]:
    """Return the (guess row, code per board) steps the solver plays until every answer is found."""
    state = Boards.start(game, len(answers))
    while not state.done:
        if len(state.history) >= limit:
            raise ValueError(f"the boards were not all solved within {limit} guesses")
        row = state.choose()
        codes = {b: game.code(row, answers[b]) for b in state.open_boards}
        state = state.after(row, codes)
    return list(state.history)


def transcript(game: Game, steps: list[tuple[int, tuple[int, ...]]]) -> list[str]:
    """Return the `play` lines: every guess, its feedback per board, and the summary."""
    lines = []
    for number, (row, codes) in enumerate(steps, start=1):
        lines += [f"Your guess #{number}: {game.labels[row]}", f"My answer: {show_board_feedback(game, codes)}"]
    allowed = guesses_allowed(len(steps[0][1]))
    verdict = "within" if len(steps) <= allowed else "over"
    lines.append(f"You solved {plural(len(steps[0][1]), 'board')} in {plural(len(steps), 'guess', 'guesses')} "
                 f"({verdict} the {allowed} the game allows)!")
    return lines


class BoardsSession:
    """`solve --boards N`: proposes one guess for every board, reads the marks of each unsolved board."""

    def __init__(self, game: Game, count: int):
        self.game, self.state = game, Boards.start(game, check_boards(game, count))
        self.guess = self.state.choose()
        self.done = False
        self._taken: list[tuple[Boards, int]] = []

    def opening(self) -> list[str]:
        return [f"{self.game.title} on {self.state.count} boards: {self.game.n_targets} candidates each; "
                f"guesses computed live, {guesses_allowed(self.state.count)} allowed.",
                "Type the marks of each unsolved board in order (RYRGR GGRRR), or GUESS=MARKS MARKS if you "
                "played another guess.", f"Marks: {self.game.feedback_help}.", COMMANDS, self._proposal()]

    def _proposal(self) -> str:
        return f"Guess #{len(self.state.history) + 1}: {self.game.labels[self.guess]}"

    def prompt(self) -> str:
        boards = ", ".join(str(b + 1) for b in self.state.open_boards)
        return f"marks of boards {boards} for {self.game.labels[self.guess]}> "

    def candidates(self) -> list[str]:
        lines = []
        for b in self.state.open_boards:
            names = [self.game.labels[self.game.target_index[p]] for p in self.state.candidates[b][:LIST_LIMIT]]
            more = " ..." if self.state.candidates[b].size > LIST_LIMIT else ""
            lines.append(f"board {b + 1}: {plural(int(self.state.candidates[b].size), 'candidate')}: "
                         f"{label_list(self.game, names)}{more}")
        return lines

    def handle(self, line: str) -> list[str]:
        guess, sep, marks = line.partition("=")
        row = parse_guess(self.game, guess) if sep else self.guess
        state = self.state.after(row, parse_board_feedback(self.state, marks if sep else line))
        self._taken.append((self.state, self.guess))
        self.state = state
        count = len(state.history)
        if state.done:
            self.done = True
            return [f"All {state.count} boards solved in {plural(count, 'guess', 'guesses')}!"]
        left = "; ".join(f"board {b + 1}: {n}" for b, n in enumerate(state.remaining()) if not state.solved[b])
        self.guess = state.choose()
        return [f"Candidates left: {left}.", self._proposal()]

    def undo(self) -> list[str]:
        """Take back the last feedback; ValueError when there is none."""
        if not self._taken:
            raise ValueError("nothing to undo")
        self.state, self.guess = self._taken.pop()
        self.done = False
        return ["Taken back.", self._proposal()]
