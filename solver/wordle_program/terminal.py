"""The `wordle` program's two faces on a terminal: the specification's test mode and the interactive game."""
from __future__ import annotations

import sys
from typing import Sequence, TextIO

from solver.wordle_program.play import Session
from solver.wordle_program.records import Statistics
from solver.wordle_program.review_line import review_line
from solver.wordle_program.rounds import MAX_GUESSES, WORD_LENGTH, MultiRound, Round

# ----------------------------------------------------------------------------- test mode


class TestModeUI:
    """The plain output of the specification, for standard output that is not a terminal.

    With several boards, a guess prints the marks of every board separated by spaces ("....."
    for a board solved by an earlier guess), then the keyboard of the first board it was scored
    on; a lost game prints FAILED and every answer, in board order.
    """

    __test__ = False  # not a pytest class
    retry_bad_answer = False
    SOLVED_EARLIER = "." * WORD_LENGTH  # a board's place in a guess's line once it is solved

    def __init__(self, stdin: TextIO, stdout: TextIO):
        self.stdin, self.stdout = stdin, stdout

    def _read(self, *_: object) -> str | None:
        line = self.stdin.readline()
        return line if line else None

    read_answer = read_guess = _read

    def _print(self, line: str) -> None:
        print(line, file=self.stdout, flush=True)

    def game_started(self, game: Round) -> None:
        pass

    def answer_rejected(self, line: str, reason: str) -> None:
        pass  # unreachable: retry_bad_answer is False

    def guess_rejected(self, game: Round, line: str, reason: str) -> None:
        self._print("INVALID")

    def guess_accepted(self, game: Round | MultiRound) -> None:
        if isinstance(game, MultiRound):
            marks = " ".join(self.SOLVED_EARLIER if mark is None else mark for mark in game.history[-1][1])
            self._print(f"{marks} {game.keyboard_line()}")
        else:
            self._print(f"{game.history[-1][1]} {game.keyboard_line()}")

    def game_over(self, game: Round | MultiRound) -> None:
        if isinstance(game, MultiRound) and not game.won:
            self._print("FAILED " + " ".join(game.answers))
        else:
            self._print(f"CORRECT {len(game.history)}" if game.won else f"FAILED {game.answer}")

    def show_stats(self, stats: Statistics) -> None:
        for line in stats.lines():
            self._print(line)

    def out_of_answers(self) -> None:
        pass

    def play_again(self) -> bool:
        line = self._read()
        return line is not None and line.strip().upper() == "Y"


# ----------------------------------------------------------------------------- interactive mode


def bar_lengths(counts: Sequence[int], width: int) -> list[int]:
    """Return the bar length (in cells) of each count: the largest count gets `width`, the others
    in proportion, rounded half up; at least 1 for a count above zero, 0 for zero."""
    largest = max(counts, default=0)
    if largest <= 0:
        return [0] * len(counts)
    return [max(1, (2 * count * width + largest) // (2 * largest)) if count > 0 else 0 for count in counts]


def stats_columns(stats: Statistics) -> list[tuple[str, str]]:
    """Return the original game's four statistics as (value, label): played, win %, streaks."""
    return [(str(stats.played), "Played"), (str(stats.win_percent), "Win %"),
            (str(stats.current_streak), "Current streak"), (str(stats.max_streak), "Max streak")]


class RichUI:
    """Coloured board and keyboard for a terminal (rich is imported only here); with -t the
    original game's statistics and guess distribution, and the emoji share grid after each game.
    Several boards are drawn side by side, at most 4 to a row (fewer in a narrow terminal), each
    unsolved board with a small keyboard of its own under it (a key one cell wide, in the board's
    colours: the terminal's take on the web page's keys split in one part per board)."""

    retry_bad_answer = True
    # G green, Y yellow, R absent (grey, as players know it), X a key not played yet
    STYLES = {"G": "bold white on green4", "Y": "bold black on yellow3", "R": "bold white on grey35",
              "X": "bold black on grey82"}
    # Without colour (NO_COLOR, a dumb terminal) the marks are drawn around the letters instead.
    PLAIN = {"G": "[{}]", "Y": "({})", "R": " {} ", "X": " {} "}
    # under each keyboard without colour, where the marks are used (each line within 40 columns)
    KEY_LEGEND = ("  [A] right place  (A) elsewhere", "  a not in the word  A not tried yet")
    KEYBOARD = ("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM")
    # a board's small keyboard without colour: each key's letter then its mark, within a board's width
    SMALL_PLAIN = {"G": "{}=", "Y": "{}+", "R": "{}.", "X": "{} "}
    SMALL_LEGEND = ("  A= right place  A+ elsewhere", "  a. not in the word  A not tried yet")
    BAR_WIDTH = 30  # cells of the longest bar of the guess distribution (less in a narrow terminal)
    BAR_STYLES = {True: "bold white on green4", False: "white on grey35"}  # the game just won, the others
    BOARD_WIDTH = 4 * WORD_LENGTH - 1  # cells of a board's row: tiles of 3 cells, 1 between them
    BOARD_GAP = 3  # cells between boards side by side
    BOARDS_PER_ROW = 4  # at most, fewer if the terminal is narrow
    SOLVED_STYLE = "bold green4"  # the heading of a solved board (bold only without colour)

    def __init__(self, stdout: TextIO, stdin: TextIO | None = None, session: Session | None = None):
        from rich.console import Console  # defers rich (0.1 s) until the terminal UI is drawn

        self.console = Console(file=stdout, highlight=False, emoji=False)
        self.plain = self.console.no_color or self.console.color_system is None
        self.stdin = stdin  # None: read the terminal through rich (line editing, hidden answer)
        self.session = session  # None: no welcome, no review line (a UI driven by tests)
        self.boards = session.boards if session is not None else 1
        if session is not None:
            self.welcome(session)

    def welcome(self, session: Session) -> None:
        modes = [name for name, on in (("hard mode", session.hard), ("random answers", session.order is not None))
                 if on]
        if session.boards > 1:
            n = session.boards
            self.console.print(f"[bold]Wordle[/bold] on {n} boards: guess the {n} 5-letter words in {n + 5} tries"
                               + (f" ({', '.join(modes)})" if modes else "") + ".")
            self.console.print("Each guess is played on every board not solved yet.")
        else:
            self.console.print(f"[bold]Wordle[/bold]: guess the 5-letter word in {MAX_GUESSES} tries"
                               + (f" ({', '.join(modes)})" if modes else "") + ".")

    def _ask(self, prompt: str, hidden: bool = False) -> str | None:
        if self.stdin is not None:
            self.console.print(prompt, end="", markup=False)
            line = self.stdin.readline()
            return line if line else None
        try:
            return self.console.input(prompt, markup=False, password=hidden and sys.stdin.isatty())
        except EOFError:
            self.console.print()
            return None

    def _tile(self, letter: str, mark: str) -> tuple[str, str]:
        """Return (text, style) of one tile: coloured, or with its mark drawn around it."""
        if self.plain:
            return self.PLAIN[mark].format(letter.lower() if mark == "R" else letter), ""
        return f" {letter} ", self.STYLES[mark]

    def _tiles(self, word: str, marks: str):
        from rich.text import Text  # defers rich (0.1 s) until the terminal UI is drawn

        row = Text("  ")
        for letter, mark in zip(word, marks):
            row.append(*self._tile(letter, mark))
            row.append(" ")
        return row

    def read_answer(self) -> str | None:
        if self.boards > 1:
            return self._ask(f"Answers for the next game ({self.boards}, separated by commas; hidden): ", hidden=True)
        return self._ask("Answer for the next game (hidden): ", hidden=True)

    def answer_rejected(self, line: str, reason: str) -> None:
        from rich.markup import escape  # defers rich (0.1 s) until the terminal UI is drawn

        self.console.print(f"[red]{escape(reason[:1].upper() + reason[1:])}[/red], try another.")

    def game_started(self, game: Round | MultiRound) -> None:
        self.console.rule(f"Game {game.number}")

    def read_guess(self, game: Round | MultiRound) -> str | None:
        return self._ask(f"Guess {len(game.history) + 1}/{game.limit}: ")

    def guess_rejected(self, game: Round | MultiRound, line: str, reason: str) -> None:
        from rich.markup import escape  # defers rich (0.1 s) until the terminal UI is drawn

        self.console.print(f"[red]Not counted[/red]: {escape(reason)}")

    def guess_accepted(self, game: Round | MultiRound) -> None:
        from rich.text import Text  # defers rich (0.1 s) until the terminal UI is drawn

        if isinstance(game, MultiRound):
            self._show_boards(game)
            return
        self.console.print()
        for word, marks in game.history:
            self.console.print(self._tiles(word, marks))
        for _ in range(MAX_GUESSES - len(game.history)):
            self.console.print(Text("  " + " ·  " * 5, "grey50"))
        self.console.print()
        self._show_keyboard(game.keyboard)
        self.console.print()

    def _show_keyboard(self, keyboard: dict[str, str]) -> None:
        from rich.text import Text  # defers rich (0.1 s) until the terminal UI is drawn

        for indent, keys in enumerate(self.KEYBOARD):
            line = Text(" " * (2 + 2 * indent))
            for key in keys:
                line.append(*self._tile(key, keyboard[key]))
                line.append(" ")
            self.console.print(line)
        if self.plain:
            for line in self.KEY_LEGEND:
                self.console.print(line, markup=False, style="grey50")

    def boards_per_row(self) -> int:
        """Return how many boards fit side by side in the terminal: 1 to BOARDS_PER_ROW."""
        widest = self.BOARD_WIDTH + self.plain  # a small keyboard without colour may end with a mark past it
        fit = (self.console.width - 2 + self.BOARD_GAP) // (widest + self.BOARD_GAP)
        return max(1, min(self.BOARDS_PER_ROW, fit))

    def _board_column(self, game: MultiRound, index: int) -> list:
        """Return the lines (rich Texts) of board `index`: its heading ("Board 2", "Board 2: solved"),
        a row per guess it took, then empty places (dots) up to the limit, blank once solved."""
        from rich.text import Text  # defers rich (0.1 s) until the terminal UI is drawn

        board = game.boards[index]
        if board.won:
            lines = [Text(f"Board {index + 1}: solved", "bold" if self.plain else self.SOLVED_STYLE)]
        else:
            lines = [Text(f"Board {index + 1}", "bold")]
        for word, marks in board.history:
            row = Text()
            for position, (letter, mark) in enumerate(zip(word, marks)):
                if position:
                    row.append(" ")
                row.append(*self._tile(letter, mark))
            lines.append(row)
        empty = Text("") if board.won else Text(" ".join([" \u00b7 "] * WORD_LENGTH), "grey50")
        lines += [empty.copy() for _ in range(game.limit - len(board.history))]
        return lines

    def _show_boards(self, game: MultiRound) -> None:
        """Print every board side by side (rows of `boards_per_row`), each unsolved board's keyboard under
        it (none once the game is over)."""
        per_row = self.boards_per_row()
        self.console.print()
        for start in range(0, len(game.boards), per_row):
            columns = [self._board_column(game, index)
                       for index in range(start, min(start + per_row, len(game.boards)))]
            self._print_columns(list(zip(*columns)))  # skips the places left on boards all solved
            self.console.print()
            if not game.over:
                keyboards = [self._small_keyboard(game.boards[index])
                             for index in range(start, min(start + per_row, len(game.boards)))]
                self._print_columns(list(zip(*keyboards)))
                self.console.print()
        if self.plain and not game.over:
            for line in self.SMALL_LEGEND:
                self.console.print(line, markup=False, style="grey50")
            self.console.print()

    def _print_columns(self, rows: list) -> None:
        """Print rows of cells (rich Texts, one per board) side by side in the boards' columns, skipping
        the rows where every cell is empty."""
        from rich.text import Text  # defers rich (0.1 s) until the terminal UI is drawn

        for cells in rows:
            if not any(cell.cell_len for cell in cells):
                continue
            line = Text("  ")
            for position, cell in enumerate(cells):
                line.append_text(cell)
                if position < len(cells) - 1:  # pad to the next board's column
                    line.append(" " * max(1, self.BOARD_WIDTH - cell.cell_len + self.BOARD_GAP))
            line.rstrip()
            self.console.print(line)

    def _small_keyboard(self, board) -> list:
        """Return the 3 lines (rich Texts) of a board's keyboard, as wide as the board: each key one cell
        in the colour of its best mark on that board, or its letter and mark without colour (lower case
        when not in the word); empty lines for a solved board."""
        from rich.text import Text  # defers rich (0.1 s) until the terminal UI is drawn

        if board.won:
            return [Text("") for _ in self.KEYBOARD]
        lines = []
        for indent, keys in enumerate(self.KEYBOARD):
            line = Text(" " * indent)
            for key in keys:
                mark = board.keyboard[key]
                if self.plain:
                    line.append(self.SMALL_PLAIN[mark].format(key.lower() if mark == "R" else key))
                else:
                    line.append(key, self.STYLES[mark])
                    line.append(" ")
            line.rstrip()
            lines.append(line)
        return lines

    def game_over(self, game: Round | MultiRound) -> None:
        if isinstance(game, MultiRound):
            self._boards_over(game)
            return
        if game.won:
            n = len(game.history)
            self.console.print(f"[bold green]Correct![/bold green] {game.answer} in {n} guess{'es' if n > 1 else ''}.")
        else:
            self.console.print(f"[bold red]Out of guesses.[/bold red] The answer was [bold]{game.answer}[/bold].")
        self.console.print()
        self.console.print(game.share(), markup=False)
        self.console.print()
        if self.session is not None:
            line = review_line(self.session, game)
            if line:
                self.console.print(line, markup=False, highlight=False, soft_wrap=True)
                self.console.print()

    def _boards_over(self, game: MultiRound) -> None:
        if game.won:
            self.console.print(f"[bold green]Correct![/bold green] All {len(game.boards)} boards solved "
                               f"in {len(game.history)} guesses.")
        else:
            missed = ", ".join(f"board {index}: {board.answer}" for index, board in enumerate(game.boards, start=1)
                               if not board.won)
            self.console.print(f"[bold red]Out of guesses.[/bold red] Not solved: [bold]{missed}[/bold].")
        self.console.print()
        self.console.print(game.share(), markup=False)
        self.console.print()

    def show_stats(self, stats: Statistics) -> None:
        from rich.text import Text  # defers rich (0.1 s) until the terminal UI is drawn

        columns = stats_columns(stats)
        widths = [max(len(value), len(label)) for value, label in columns]
        self.console.print("[bold]Statistics[/bold]")  # as the original: numbers above their labels
        per_row = len(columns) if 2 + sum(widths) + 3 * (len(columns) - 1) <= self.console.width else 2
        for start in range(0, len(columns), per_row):  # two rows of two in a narrow terminal
            row = list(zip(columns, widths))[start:start + per_row]
            self.console.print("  " + "   ".join(f"[bold]{value:^{w}}[/bold]" for (value, _), w in row))
            self.console.print("  " + "   ".join(f"{label:^{w}}" for (_, label), w in row))
        self.console.print()
        self.console.print("[bold]Guess distribution[/bold]")
        width = max(5, min(self.BAR_WIDTH, self.console.width - 16))
        for row, (count, length) in enumerate(zip(stats.distribution, bar_lengths(stats.distribution, width)), start=1):
            this_game = row == stats.last_won_in
            line = Text(f"  {row} ")
            if self.plain:  # no colour: a bar of blocks, this game's row pointed at
                line.append("\u2588" * length + f" {count}" + (" \u25C0" if this_game else ""))
            else:  # as the original: grey bars, this game's green, the count at the end
                line.append(" " * length, self.BAR_STYLES[this_game])
                line.append(f" {count}", "bold" if this_game else "")
            self.console.print(line)
        self.console.print()
        top = ", ".join(f"{word} ({count})" for word, count in stats.top) or "none"
        self.console.print(f"Won {stats.won} of {stats.played} ({stats.win_percent}%), "
                           f"{stats.average:.2f} guesses per win.")
        self.console.print(f"Most used guesses: {top}.")

    def out_of_answers(self) -> None:
        self.console.print("Every answer of the list has been played: that's all!")

    def play_again(self) -> bool:
        while True:
            line = self._ask("Play again? [y/n]: ")
            if line is None:
                return False
            answer = line.strip().lower()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
