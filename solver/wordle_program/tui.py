"""`wordle --tui`: the game full screen in a terminal, built on Textual (the `tui` extra), and its coach
(`wordle --tui --coach`).

The game is the program's own: `solver.wordle_program.play.play` runs the session (its answers, rounds,
state file and statistics) on a thread of its own through `ThreadUI`, a `play.UI` whose reads wait for
what the player types on the screen and whose other calls redraw it. The screen holds the board(s) (one
row of tiles a guess, the row being typed in place), an input line, a line of messages that never moves
the board, the keyboard coloured as the game goes (on several boards one keyboard, each key split in one
part per board, as the web page's), and a side panel: help, the hint (`?`, `advice.hint_lines`), then the
review of the game (`advice.review_lines`) and the statistics. Without colour (NO_COLOR) the marks are
drawn as characters, as the scrolling terminal UI draws them; F2 switches to the high-contrast colours.

The coach (`CoachApp`) takes the guesses and marks of a game played elsewhere (a tile's colour cycles on a
click or with keys 1-5) and shows the ranking `deduce hint` prints after them (`advice.Coach`).

`run_tui` runs either and gives the terminal back before anything is printed: leaving mid-game raises the
game's `InputEnded` (the program says Bye, naming the answer), Ctrl-C KeyboardInterrupt, SIGTERM the
program's own SIGTERM handling, and an error of the game (a state file that cannot be written) its
WordleError, so that `program.run` reports each as without --tui.
"""
from __future__ import annotations

import asyncio
import queue
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Static

from solver.wordle_program import advice
from solver.wordle_program.play import Session, play
from solver.wordle_program.records import Statistics, compute_stats
from solver.wordle_program.rounds import MAX_GUESSES, WORD_LENGTH, MultiRound, Round, WordleError, board_game_name
from solver.wordle_program.terminal import RichUI, bar_lengths

# ----------------------------------------------------------------------------- drawing

STYLES = RichUI.STYLES  # G right place, Y elsewhere, R not in the word, X a key not played yet
HIGH_CONTRAST = {**STYLES, "G": "bold white on dark_orange3", "Y": "bold white on dodger_blue3"}
PLAIN = RichUI.PLAIN  # without colour: [A] right place, (A) elsewhere, a not in the word
KEY_MARKS = {"G": "=", "Y": "+", "R": ".", "X": " "}  # without colour, a key's mark on each board
TYPED = "bold white on grey23"  # a letter typed, not played yet
EMPTY = "grey50"
SOLVED = "bold green4"
KEYBOARD = RichUI.KEYBOARD
BOARD_WIDTH = 4 * WORD_LENGTH - 1  # tiles of 3 cells, 1 between them
BOARD_GAP = 3  # cells between boards side by side
BOARDS_PER_ROW = 4
SIDE_WIDTH = 37  # the side panel's cells at least, its border and padding included (34 of text)
BAR_WIDTH = 26  # the longest bar of the guess distribution
JOIN_TIMEOUT = 10.0  # seconds the game's thread may take to finish (a state file being saved) once the screen closes


@dataclass(frozen=True)
class Look:
    """How marks are drawn: colours (high contrast or not), or characters without colour."""

    plain: bool = False
    high_contrast: bool = False

    def style(self, mark: str) -> str:
        """Return the Rich style of a mark (G, Y, R, or X for a key not played yet); "" without colour."""
        return "" if self.plain else (HIGH_CONTRAST if self.high_contrast else STYLES)[mark]

    def tile(self, letter: str, mark: str) -> tuple[str, str]:
        """Return (text, style) of a tile 3 cells wide."""
        if self.plain:
            return PLAIN[mark].format(letter.lower() if mark == "R" else letter), ""
        return f" {letter} ", self.style(mark)


def tiles_row(cells: Sequence[tuple[str, str]]) -> Text:
    """Return a row of tiles (text, style) separated by one cell."""
    row = Text()
    for position, (text, style) in enumerate(cells):
        if position:
            row.append(" ")
        row.append(text, style)
    return row


def board_lines(history: Sequence[tuple[str, str]], limit: int, look: Look, typed: str | None = None,
                typed_marks: str | None = None, gap: bool = False, closed: bool = False) -> list[Text]:
    """Return the lines of a board: a row of tiles a guess, then the row being typed (`typed`, its
    letters with `typed_marks` in the coach, else not marked yet), then empty places up to `limit`
    (blank once the board is `closed`); with `gap` a blank line between rows."""
    rows = [tiles_row([look.tile(letter, mark) for letter, mark in zip(word, marks)]) for word, marks in history]
    if typed is not None and not closed and len(rows) < limit:
        cells = []
        for position in range(WORD_LENGTH):
            if position < len(typed) and typed_marks is not None:
                text, style = look.tile(typed[position], typed_marks[position])
                cells.append((text, style + " underline" if style else text))
            elif position < len(typed):
                cells.append((f" {typed[position]} ", "" if look.plain else TYPED))
            else:
                cells.append((" _ " if look.plain else " \u00b7 ", EMPTY))
        rows.append(tiles_row(cells))
    empty = Text("") if closed else tiles_row([(" \u00b7 ", EMPTY)] * WORD_LENGTH)
    rows += [empty.copy() for _ in range(limit - len(rows))]
    lines = []
    for number, row in enumerate(rows):
        if gap and number:
            lines.append(Text(""))
        lines.append(row)
    return lines


def side_by_side(blocks: Sequence[Sequence[Text]], width: int, gap: int = BOARD_GAP) -> list[Text]:
    """Return blocks of lines side by side, each padded to `width` cells, `gap` cells between them."""
    out = []
    for cells in zip(*blocks):
        line = Text()
        for position, cell in enumerate(cells):
            line.append_text(cell)
            if position < len(cells) - 1:
                line.append(" " * (width - cell.cell_len + gap))
        line.rstrip()
        out.append(line)
    return out


def boards_text(game: Round | MultiRound | None, look: Look, typed: str | None, boards: int, limit: int,
                typed_marks: str | None = None, history: Sequence[tuple[str, str]] | None = None) -> Text:
    """Return the board(s) of `game` (empty boards before the first game), with the row being typed: one
    board with a blank line between rows; several side by side (BOARDS_PER_ROW a row), each headed."""
    if boards == 1:
        rows = history if history is not None else (game.history if game is not None else [])
        over = game is not None and game.over
        return Text("\n").join(board_lines(rows, limit, look, None if over else typed, typed_marks, gap=True))
    blocks = []
    for index in range(boards):
        board = game.boards[index] if game is not None else None
        won = board is not None and board.won
        if not won:
            heading = Text(f"Board {index + 1}", "bold")
        elif look.plain:
            heading = Text(f"Board {index + 1}: solved", "bold")
        else:
            heading = Text(f"Board {index + 1} \u2713", SOLVED)
        over = game is not None and game.over
        rows = board.history if board is not None else []
        blocks.append([heading] + board_lines(rows, limit, look, None if over else typed, closed=won))
    lines = []
    for start in range(0, boards, BOARDS_PER_ROW):
        if start:
            lines.append(Text(""))
        lines += side_by_side(blocks[start:start + BOARDS_PER_ROW], BOARD_WIDTH)
    return Text("\n").join(lines)


def key_width(boards: int) -> int:
    """Return the cells of a key: 3 on one board, else the letter and one cell a board."""
    return 3 if boards == 1 else boards + 1


def key_cell(key: str, marks: Sequence[str], look: Look) -> Text:
    """Return a key of the keyboard: on one board a tile; on several the letter with one cell a board in
    that board's colour around it (half the boards before it), or without colour the letter then each
    board's mark (= right place, + elsewhere, . not in the word); the letter lower-case when no board has it."""
    if len(marks) == 1:
        return Text(*look.tile(key, marks[0]))
    dead = all(mark == "R" for mark in marks)
    letter = key.lower() if dead else key
    if look.plain:
        return Text(letter + "".join(KEY_MARKS[mark] for mark in marks))
    before = (len(marks) + 1) // 2
    cell = Text()
    for mark in marks[:before]:
        cell.append(" ", look.style(mark))
    cell.append(key, look.style("R" if dead else "X"))
    for mark in marks[before:]:
        cell.append(" ", look.style(mark))
    return cell


def keyboard_text(keyboards: Sequence[dict[str, str]], look: Look) -> Text:
    """Return the keyboard: three rows of keys, each key showing its best mark on every board."""
    width = key_width(len(keyboards))
    lines = []
    for indent, keys in enumerate(KEYBOARD):
        line = Text(" " * ((width + 1) * indent // 2))
        for position, key in enumerate(keys):
            if position:
                line.append(" ")
            line.append_text(key_cell(key, [keyboard[key] for keyboard in keyboards], look))
        lines.append(line)
    return Text("\n").join(lines)


def needed_size(boards: int, limit: int) -> tuple[int, int]:
    """Return the (columns, lines) the screen needs for `boards` boards of `limit` rows."""
    per_row = min(boards, BOARDS_PER_ROW)
    if boards == 1:
        board_w, board_h = BOARD_WIDTH, 2 * limit - 1
    else:
        blocks = -(-boards // per_row)
        board_w, board_h = per_row * BOARD_WIDTH + (per_row - 1) * BOARD_GAP, blocks * (limit + 1) + blocks - 1
    keys_w = 10 * (key_width(boards) + 1) - 1
    return max(board_w, keys_w) + 2 + SIDE_WIDTH, board_h + 10


def stats_lines(stats: Statistics, look: Look) -> list[Text]:
    """Return the statistics panel: games played, won, the streaks and the guess distribution (the game
    just won marked)."""
    lines = [Text("Statistics", "bold"), Text(f"Played {stats.played}, won {stats.win_percent}%"),
             Text(f"Streak {stats.current_streak}, longest {stats.max_streak}")]
    for row, (count, length) in enumerate(zip(stats.distribution, bar_lengths(stats.distribution, BAR_WIDTH)), start=1):
        this_game = row == stats.last_won_in
        line = Text(f"{row} ")
        if look.plain:
            line.append("\u2588" * length + f" {count}" + (" \u25c0" if this_game else ""))
        else:
            line.append(" " * length, look.style("G") if this_game else "on grey35")
            line.append(f" {count}", "bold" if this_game else "")
        lines.append(line)
    return lines


# ----------------------------------------------------------------------------- the app


class Call(Message):
    """Run `fn` on the screen's thread (how the game's thread and the computations redraw it)."""

    def __init__(self, fn: Callable[[], None]):
        super().__init__()
        self.fn = fn


QUIT, AGAIN = object(), object()  # what the game's thread reads when the player leaves, or asks for a new game
SOLVER_LOCK = threading.Lock()  # one solver computation at a time (a hint, a review, the coach's advice)


class BoardsView(Static):
    """The board(s); a click on a tile goes to the app (the coach cycles its colour)."""

    def on_click(self, event: events.Click) -> None:
        self.app.tile_clicked(event.x, event.y)


class WordleScreen(App):
    """What the game and the coach share: the layout, the look, the keys that leave, resizing and the
    computations run off the screen's thread."""

    TITLE = "wordle"
    CSS = """
    #title { height: 1; background: $panel; text-style: bold; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: auto; padding: 0 1; }
    #boards { width: auto; height: auto; margin: 1 0 1 0; }
    #input { height: 1; width: 100%; }
    #message { height: 2; width: 100%; }
    #keyboard { width: auto; height: auto; }
    #side { width: 1fr; border-left: solid $panel-lighten-2; padding: 0 1; }
    #footer { dock: bottom; height: 1; background: $panel; padding: 0 1; }
    #small { display: none; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[Binding]] = [
        Binding("ctrl+c", "interrupt", show=False, priority=True),
        Binding("ctrl+q", "leave", show=False, priority=True),
        Binding("ctrl+d", "leave", show=False, priority=True),
        Binding("f2", "contrast", show=False, priority=True),
    ]

    def __init__(self, session: Session):
        super().__init__()
        self.session = session
        self.high_contrast = False
        self.outcome = "left"  # "interrupted" (Ctrl-C), "terminated" (SIGTERM)
        self.failure: BaseException | None = None  # an error of the screen itself
        self.inbox: queue.Queue = queue.Queue()  # what the player typed, for the game's thread
        self.message = ""
        self.panel: list = []
        self._panel_token = 0  # a computation's result is shown only if the panel has not changed since

    @property
    def look(self) -> Look:
        return Look(self.no_color, self.high_contrast)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BoardsView(id="boards")
                yield Static(id="input")
                yield Static(id="message")
                yield Static(id="keyboard")
            with VerticalScroll(id="side"):
                yield Static(id="panel")
        yield Static(id="footer")
        yield Static(id="small")

    def on_mount(self) -> None:
        try:  # SIGTERM ends the screen first, then the program as it would without --tui (`run_tui`)
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.action_terminate)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals here
            pass
        self.redraw()

    # the screen's parts

    def boards(self) -> int:
        return self.session.boards

    def limit(self) -> int:
        return MAX_GUESSES if self.boards() == 1 else self.boards() + 5

    def redraw(self) -> None:
        """Draw every part again from the state."""
        if not self.is_running:
            return
        self.query_one("#title", Static).update(self.title_text())
        self.query_one("#boards", Static).update(self.boards_text())
        self.query_one("#input", Static).update(self.input_text())
        self.query_one("#message", Static).update(Text(self.message))
        self.query_one("#keyboard", Static).update(keyboard_text(self.keyboards(), self.look))
        self.query_one("#panel", Static).update(Text("\n").join(
            [line if isinstance(line, Text) else Text(line) for line in self.panel]))
        self.query_one("#footer", Static).update(Text(self.footer_text(), "bold"))
        self.fit()

    def fit(self) -> None:
        """Show the game, or say how large a terminal it needs when this one is smaller."""
        width, height = needed_size(self.boards(), self.limit())
        self.query_one("#left").styles.width = width - SIDE_WIDTH
        size = self.size
        small = size.width < width or size.height < height
        self.query_one("#main").display = not small
        notice = self.query_one("#small", Static)
        notice.display = small
        if small:
            notice.update(f"{board_game_name(self.boards())} needs a terminal of at least {width}x{height}; this one "
                          f"is {size.width}x{size.height}. Enlarge it (or Ctrl-Q to leave).")

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.fit)

    def show_panel(self, lines: list) -> int:
        """Show `lines` in the side panel and return its token (`compute` shows a result only under it)."""
        self._panel_token += 1
        self.panel = list(lines)
        self.redraw()
        return self._panel_token

    def compute(self, work: Callable[[], list], title: str) -> None:
        """Show "title..." in the side panel, then the lines `work` returns, computed on a thread of their own
        (the screen keeps answering meanwhile); a ValueError or WordleError is shown as one line."""
        token = self.show_panel([Text(title, "bold"), "Thinking..."])

        def run() -> None:
            try:
                with SOLVER_LOCK:
                    lines = [Text(title, "bold")] + work()
            except (ValueError, WordleError) as err:
                lines = [Text(title, "bold"), f"None: {err}"]
            except Exception as err:  # noqa: BLE001 - a bug: one line in the panel, never a traceback on the screen
                lines = [Text(title, "bold"), f"internal error: {type(err).__name__}: {err}"]
            self.call_on_screen(lambda: self.show_panel(lines) if self._panel_token == token else None)

        threading.Thread(target=run, daemon=True).start()

    def call_on_screen(self, fn: Callable[[], object]) -> None:
        """Run `fn` on the screen's thread (from any thread); nothing once the screen is closed."""
        try:
            self.post_message(Call(fn))
        except RuntimeError:  # the screen's loop is closed
            pass

    def on_call(self, message: Call) -> None:
        message.fn()

    def _handle_exception(self, error: Exception) -> None:
        # an error of the screen's own code ends it; `run_tui` reports it as one line, never a traceback
        self.failure = error
        self.leave("failed")

    # leaving

    def leave(self, outcome: str = "left") -> None:
        """Close the screen; the game's thread reads QUIT (the player left)."""
        if self.outcome == "left":
            self.outcome = outcome
        self.inbox.put(QUIT)
        self.exit()

    def action_leave(self) -> None:
        self.leave()

    def action_interrupt(self) -> None:
        self.leave("interrupted")

    def action_terminate(self) -> None:
        self.leave("terminated")

    def action_contrast(self) -> None:
        self.high_contrast = not self.high_contrast
        self.redraw()

    def tile_clicked(self, x: int, y: int) -> None:
        pass

    # what the subclasses draw

    def title_text(self) -> Text:
        raise NotImplementedError

    def boards_text(self) -> Text:
        raise NotImplementedError

    def input_text(self) -> Text:
        raise NotImplementedError

    def keyboards(self) -> list[dict[str, str]]:
        raise NotImplementedError

    def footer_text(self) -> str:
        raise NotImplementedError


def _empty_keyboard() -> dict[str, str]:
    return dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "X")


class Left(Exception):
    """The player left between games (at the answer prompt or the end of a game): not an error."""


class ThreadUI:
    """The `play.UI` of the game's thread: each read waits for the player (None once they leave), each
    other call redraws the screen on its own thread."""

    retry_bad_answer = True

    def __init__(self, app: PlayApp):
        self.app = app

    def _take(self, ask: Callable[[], None]):
        self.app.call_on_screen(ask)
        item = self.app.inbox.get()
        return None if item is QUIT else item

    def read_answer(self) -> str | None:
        line = self._take(self.app.ask_answer)
        if line is None:
            raise Left
        return line

    def game_started(self, game: Round | MultiRound) -> None:
        self.app.call_on_screen(lambda: self.app.start_game(game))

    def answer_rejected(self, line: str, reason: str) -> None:
        self.app.call_on_screen(lambda: self.app.say(reason[:1].upper() + reason[1:] + ": try another."))

    def read_guess(self, game: Round | MultiRound) -> str | None:
        return self._take(self.app.ask_guess)

    def guess_rejected(self, game: Round | MultiRound, line: str, reason: str) -> None:
        self.app.call_on_screen(lambda: self.app.say(f"Not counted: {reason}"))

    def guess_accepted(self, game: Round | MultiRound) -> None:
        self.app.call_on_screen(self.app.accepted)

    def game_over(self, game: Round | MultiRound) -> None:
        self.app.call_on_screen(lambda: self.app.finished(game))

    def show_stats(self, stats: Statistics) -> None:
        self.app.call_on_screen(lambda: self.app.show_stats(stats))

    def out_of_answers(self) -> None:
        self.app.call_on_screen(lambda: self.app.say("Every answer of the list has been played: that's all!"))

    def play_again(self) -> bool:
        stats = compute_stats(self.app.session.state.games)  # the state file's, this game recorded
        item = self._take(lambda: self.app.ask_again(stats))
        return item is AGAIN


class PlayApp(WordleScreen):
    """`wordle --tui`: the program's game (`play.play`, on its own thread) full screen."""

    def __init__(self, session: Session):
        super().__init__(session)
        self.game: Round | MultiRound | None = None
        self.mode = "wait"  # "answer", "guess", "over" (a key for a new game), "done" (a key to leave), "wait"
        self.typed = ""
        self.review: list = []
        self.stats: Statistics | None = None
        self.game_error: BaseException | None = None  # what ended the game's thread (InputEnded: the player left)
        self.thread = threading.Thread(target=self._play, daemon=True)

    def on_mount(self) -> None:
        super().on_mount()
        self.panel = self.help_lines()
        self.redraw()
        self.thread.start()

    def _play(self) -> None:
        try:
            play(self.session, ThreadUI(self))
        except BaseException as err:  # noqa: BLE001 - handed to the main thread: `run_tui` raises it there
            self.game_error = err
        self.call_on_screen(self.ended)

    def help_lines(self) -> list:
        n = self.boards()
        goal = f"Guess the {WORD_LENGTH}-letter word in {MAX_GUESSES} tries." if n == 1 else \
            f"Guess the {n} words in {self.limit()} tries: each guess is played on every board not solved yet."
        lines = [Text("How to play", "bold"), goal, "Type a word and press Enter.", ""]
        if self.look.plain:
            lines += ["[A] right place  (A) elsewhere", "a not in the word", ""]
            if n > 1:
                lines += ["Keys: each board's mark after the", "letter: = right, + elsewhere, . not", "in the word.",
                          ""]
        elif n > 1:
            lines += ["Each key has a part a board, in", "that board's colour.", ""]
        return lines + ["? shows the solver's best guesses.", "F2: high-contrast colours."]

    # called through ThreadUI

    def start_game(self, game: Round | MultiRound) -> None:
        self.game, self.typed, self.review, self.message = game, "", [], ""
        self.panel = self.help_lines()
        self.redraw()

    def ask_answer(self) -> None:
        self.mode, self.typed = "answer", ""
        self.redraw()

    def ask_guess(self) -> None:
        self.mode = "guess"
        self.redraw()

    def say(self, message: str) -> None:
        self.message = message
        self.redraw()

    def accepted(self) -> None:
        self.typed, self.message = "", ""
        if self.panel and isinstance(self.panel[0], Text) and self.panel[0].plain == "Hint":
            self.panel = self.help_lines()  # the hint was for the guess before
        self.redraw()

    def finished(self, game: Round | MultiRound) -> None:
        self.mode, self.typed = "wait", ""
        if isinstance(game, MultiRound):
            if game.won:
                self.message = f"Correct! All {len(game.boards)} boards solved in {len(game.history)} guesses."
            else:
                missed = ", ".join(f"board {n}: {b.answer}" for n, b in enumerate(game.boards, start=1) if not b.won)
                self.message = f"Out of guesses. Not solved: {missed}."
        elif game.won:
            n = len(game.history)
            self.message = f"Correct! {game.answer} in {n} guess{'es' if n > 1 else ''}."
        else:
            self.message = f"Out of guesses. The answer was {game.answer}."
        self.review = [Text("Review", "bold"), "Reviewing..."]
        self.show_end()
        session = self.session

        def run() -> None:
            try:
                with SOLVER_LOCK:
                    lines = advice.review_lines(session, game)
            except Exception as err:  # noqa: BLE001 - a bug: one line in the panel, never a traceback on the screen
                lines = [f"No review: internal error: {type(err).__name__}: {err}"]
            self.call_on_screen(lambda: self.reviewed(game, lines))

        threading.Thread(target=run, daemon=True).start()

    def reviewed(self, game: Round | MultiRound, lines: list) -> None:
        if game is self.game:
            self.review = [Text("Review", "bold")] + lines
            self.show_end()

    def show_stats(self, stats: Statistics) -> None:
        self.stats = stats
        self.show_end()

    def ask_again(self, stats: Statistics) -> None:
        self.stats, self.mode = stats, "over"
        self.show_end()

    def ended(self) -> None:
        """The game's thread ended: leave at once on an error or when the player left, else wait for a key."""
        if self.game_error is not None or self.outcome != "left" or not self.is_running:
            self.exit()
            return
        self.mode = "done"
        if self.stats is None and self.session.state.games:
            self.stats = compute_stats(self.session.state.games)
        self.show_end()

    def show_end(self) -> None:
        stats = ([""] + stats_lines(self.stats, self.look)) if self.stats is not None else []
        self.show_panel(self.review + stats)

    # the player's keys

    def on_key(self, event: events.Key) -> None:
        key, char = event.key, event.character or ""
        if self.mode == "done":
            event.stop()
            self.exit()
        elif self.mode == "over":
            if key in ("enter", "n", "space"):
                self.mode = "wait"
                self.inbox.put(AGAIN)
            elif key in ("q", "escape"):
                self.leave()
            elif key == "c" and self.game is not None:
                self.copy_to_clipboard(self.game.share(self.high_contrast))
                self.say("The share text is copied (where the terminal allows it).")
        elif self.mode in ("guess", "answer"):
            self.typing(key, char)
        else:
            return
        event.stop()
        self.redraw()

    def typing(self, key: str, char: str) -> None:
        longest = WORD_LENGTH if self.mode == "guess" else self.boards() * (WORD_LENGTH + 1)
        if key == "enter":
            if self.mode == "answer":
                line, self.typed = self.typed, ""
            else:
                line = self.typed  # kept on the board until the game's thread takes or refuses it
            self.mode = "wait"
            self.inbox.put(line)
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif key == "question_mark" and self.mode == "guess":
            game, session = self.game, self.session
            self.compute(lambda: advice.hint_lines(session, game), "Hint")
        elif len(char) == 1 and char.isascii() and char.isalpha() and len(self.typed) < longest:
            self.typed += char.upper()
        elif self.mode == "answer" and char in (",", " ") and self.typed and len(self.typed) < longest:
            self.typed += ","

    # drawing

    def title_text(self) -> Text:
        name = board_game_name(self.boards())
        modes = [m for m, on in (("hard mode", self.session.hard), ("random", self.session.order is not None)) if on]
        number = f"  game {self.game.number}" if self.game is not None else ""
        return Text(f"{name}{number}" + "".join(f"  \u00b7 {m}" for m in modes))

    def boards_text(self) -> Text:
        typed = self.typed if self.mode in ("guess", "wait") else ""
        return boards_text(self.game, self.look, typed, self.boards(), self.limit())

    def input_text(self) -> Text:
        if self.mode == "answer":
            what = "Answer" if self.boards() == 1 else f"The {self.boards()} answers (commas between)"
            return Text(f"{what} for the next game (hidden): " + "*" * len(self.typed) + "_")
        if self.mode in ("guess", "wait") and self.game is not None and not self.game.over:
            return Text(f"Guess {len(self.game.history) + 1}/{self.game.limit}: {self.typed}_")
        return Text("")

    def keyboards(self) -> list[dict[str, str]]:
        if self.game is None:
            return [_empty_keyboard() for _ in range(self.boards())]
        return [self.game.keyboard] if isinstance(self.game, Round) else [board.keyboard for board in self.game.boards]

    def footer_text(self) -> str:
        if self.mode == "over":
            return "Enter: new game   c: copy the share text   q: leave"
        if self.mode == "done":
            return "Any key: leave"
        if self.mode == "answer":
            return "Enter: start   Ctrl-Q: leave"
        return "Enter: guess   Backspace: delete   ?: hint   F2: contrast   Ctrl-Q: leave"


class CoachApp(WordleScreen):
    """`wordle --tui --coach`: the guesses and marks of a game played elsewhere, and the best next guesses."""

    BINDINGS: ClassVar[list[Binding]] = [Binding("tab", "suggest", show=False, priority=True),
                Binding("ctrl+z", "undo", show=False, priority=True)]

    def __init__(self, session: Session):
        super().__init__(session)
        self.coach: advice.Coach | None = None
        self.typed = ""
        self.marks = ""
        self.busy = True
        self.suggestion = ""
        self.last_advice: list = []

    def on_mount(self) -> None:
        super().on_mount()
        self.message = "Loading the solver..."
        self.advise(start=True)

    def advise(self, word: str = "", marks: str = "", start: bool = False, undo: bool = False) -> None:
        """Take a row (or start, or take the last row back), then show the advice after it, computed off the
        screen's thread."""
        self.busy = True
        self.redraw()
        session = self.session
        token = self.show_panel([Text("Best next guesses", "bold"), "Thinking..."])

        def run() -> None:
            error, result = "", None
            try:
                with SOLVER_LOCK:
                    if start:
                        self.coach = advice.Coach(session)
                    elif undo:
                        self.coach.undo()
                    elif word:
                        self.coach.add(word, marks)
                    result = self.coach.advice()
            except (ValueError, WordleError) as err:
                error = str(err)
            except Exception as err:  # noqa: BLE001 - a bug: one line, never a traceback on the screen
                error = f"internal error: {type(err).__name__}: {err}"
            self.call_on_screen(lambda: self.advised(result, error, token, bool(word) and not error))

        threading.Thread(target=run, daemon=True).start()

    def advised(self, result: advice.Advice | None, error: str, token: int, taken: bool) -> None:
        self.busy = False
        if error:
            self.message = f"Not taken: {error}"
            if self._panel_token == token:
                self.show_panel(self.last_advice)
            return
        if taken:
            self.typed, self.marks = "", ""
        self.message = "Solved: Enter starts again." if result.solved else \
            ("Out of guesses: Enter starts again." if len(self.coach.history) >= self.limit() else
             "" if self.coach.history else "Type the guess you played, give each letter its colour (keys 1-5 or "
                                           "a click: grey, yellow, green), then Enter.")
        self.suggestion = next((line.split()[0] for line in result.lines if line.endswith(" *")), "")
        self.last_advice = [Text("Best next guesses", "bold")] + result.lines
        if self._panel_token == token:
            self.show_panel(self.last_advice)
        else:
            self.redraw()

    def finished(self) -> bool:
        coach = self.coach
        return coach is not None and (coach.solved or len(coach.history) >= self.limit())

    def on_key(self, event: events.Key) -> None:
        key, char = event.key, event.character or ""
        if self.busy:
            event.stop()
            return
        if self.finished():
            if key == "enter":
                self.typed, self.marks = "", ""
                self.advise(start=True)
        elif key == "enter":
            if len(self.typed) < WORD_LENGTH:
                self.message = f"Type the {WORD_LENGTH} letters of the guess, then its colours."
            else:
                self.advise(self.typed, self.marks)
                return
        elif key == "backspace":
            self.typed, self.marks = self.typed[:-1], self.marks[:-1]
        elif char in "12345" and len(char) == 1 and int(char) <= len(self.typed):
            self.cycle(int(char) - 1)
        elif len(char) == 1 and char.isascii() and char.isalpha() and len(self.typed) < WORD_LENGTH:
            self.typed += char.upper()
            self.marks += "R"
        else:
            return
        event.stop()
        self.redraw()

    def cycle(self, position: int) -> None:
        """Give the tile at `position` of the row being typed its next colour: grey, yellow, green."""
        following = {"R": "Y", "Y": "G", "G": "R"}
        self.marks = self.marks[:position] + following[self.marks[position]] + self.marks[position + 1:]

    def tile_clicked(self, x: int, y: int) -> None:
        if self.busy or self.coach is None or self.finished():
            return
        if y == 2 * len(self.coach.history) and x % 4 != 3 and x // 4 < len(self.typed):
            self.cycle(x // 4)
            self.redraw()

    def action_suggest(self) -> None:
        if not self.busy and self.suggestion and not self.finished():
            self.typed, self.marks = self.suggestion, "R" * WORD_LENGTH
            self.redraw()

    def action_undo(self) -> None:
        if not self.busy and self.coach is not None and self.coach.history:
            self.typed, self.marks, self.message = "", "", ""
            self.advise(undo=True)

    def title_text(self) -> Text:
        return Text("Wordle coach" + ("  \u00b7 hard mode" if self.session.hard else ""))

    def boards_text(self) -> Text:
        history = self.coach.history if self.coach is not None else []
        typed = None if self.finished() else self.typed
        return boards_text(None, self.look, typed, 1, self.limit(), self.marks, history=history)

    def input_text(self) -> Text:
        if self.finished():
            return Text("")
        number = len(self.coach.history) + 1 if self.coach is not None else 1
        return Text(f"Guess {number}: {self.typed}_")

    def keyboards(self) -> list[dict[str, str]]:
        keyboard = _empty_keyboard()
        rank = {"X": 0, "R": 1, "Y": 2, "G": 3}
        for word, marks in self.coach.history if self.coach is not None else []:
            for letter, mark in zip(word, marks):
                if rank[mark] > rank[keyboard[letter]]:
                    keyboard[letter] = mark
        return [keyboard]

    def footer_text(self) -> str:
        return "Enter: take  1-5/click: colour  Tab: solver's guess  Ctrl-Z: undo  Ctrl-Q: leave"


# ----------------------------------------------------------------------------- running it


def check_terminal(stdin, stdout) -> None:
    """Raise WordleError unless both streams are a terminal (the screen reads keys and draws in place)."""
    for name, stream in (("input", stdin), ("output", stdout)):
        try:
            ok = stream.isatty()
        except (AttributeError, ValueError):
            ok = False
        if not ok:
            raise WordleError(f"--tui needs a terminal: standard {name} is not one")


def run_tui(session: Session, coach: bool = False, stdin=None, stdout=None) -> None:
    """Run the full-screen game (or the coach) until the player leaves; raise what ended it, once the terminal
    is given back: the game's error (InputEnded when the player left mid-game), KeyboardInterrupt on Ctrl-C,
    SIGTERM again under the program's handler, a failure of the screen itself."""
    check_terminal(stdin or sys.stdin, stdout or sys.stdout)
    app = CoachApp(session) if coach else PlayApp(session)
    previous = signal.getsignal(signal.SIGTERM)
    try:
        app.run()
    finally:
        app.inbox.put(QUIT)  # the game's thread, waiting for a key, reads that the player left
        thread = getattr(app, "thread", None)
        if thread is not None and thread.is_alive():
            thread.join(JOIN_TIMEOUT)
        signal.signal(signal.SIGTERM, previous)
    finish(app)


def finish(app: WordleScreen) -> None:
    """Raise what ended `app` (see `run_tui`), or return when the player left."""
    if app.outcome == "terminated":
        signal.raise_signal(signal.SIGTERM)
    if app.outcome == "interrupted":
        raise KeyboardInterrupt
    if app.failure is not None:
        raise app.failure
    error = getattr(app, "game_error", None)
    if error is not None and not isinstance(error, Left):
        raise error
