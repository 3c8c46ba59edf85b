"""Several Wordle boards on the command line (`--boards N`): the `play` transcript and the `solve` dialogue."""
from __future__ import annotations

from solver.analysis.several_boards import check_boards, parse_board_feedback, show_board_feedback
from solver.analysis.notation import label_list, parse_entry, plural
from solver.cli.sessions import COMMANDS, LIST_LIMIT, shown
from solver.core.game import Game
from solver.games.boards import Boards, guesses_allowed


def transcript(game: Game, steps: list[tuple[int, tuple[int, ...]]]) -> list[str]:
    """Return the `play` lines: every guess, its feedback per board, and the summary."""
    lines = []
    for number, (row, codes) in enumerate(steps, start=1):
        lines += [f"Guess #{number}: {game.labels[row]}", f"Feedback: {show_board_feedback(game, codes)}"]
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
        mode = " (each guess keeps the hard-mode rule of at least one unsolved board)" if self.state.hard else ""
        return [f"{self.game.title} on {self.state.count} boards{mode}: {self.game.n_targets} candidates each; "
                f"guesses computed live, {guesses_allowed(self.state.count)} allowed.",
                "Type the marks of each unsolved board in order (RYRGR GGRRR), or GUESS MARKS MARKS if you "
                "played another guess.", f"Marks: {self.game.feedback_help}.", COMMANDS, self._proposal()]

    def _proposal(self) -> str:
        return f"Guess #{len(self.state.history) + 1}: {self.game.labels[self.guess]}"

    def prompt(self) -> str:
        boards = self.state.open_boards
        numbers = ", ".join(str(b + 1) for b in boards)
        return f"marks of board{'s' if len(boards) > 1 else ''} {numbers} for {self.game.labels[self.guess]}> "

    def candidates(self, limit: int | None = LIST_LIMIT) -> list[str]:
        lines = []
        for b in self.state.open_boards:
            names, more = shown([self.game.labels[self.game.target_index[p]] for p in self.state.candidates[b]], limit)
            lines.append(f"board {b + 1}: {plural(int(self.state.candidates[b].size), 'candidate')}: "
                         f"{label_list(self.game, names)}{more}")
        return lines

    def handle(self, line: str) -> list[str]:
        row, codes = parse_entry(self.game, line, lambda marks: parse_board_feedback(self.state, marks))
        row = self.guess if row is None else row
        if codes is None:  # a bare guess: the one played instead of the proposal; its marks come next
            self.guess = row
            return [f"You played {self.game.labels[row]}: type its marks."]
        state = self.state.after(row, codes)
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
