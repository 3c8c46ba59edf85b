"""Line-by-line dialogues: the solving assistant (`solve`) and the adversarial hider (`hide`).

A session answers one input line at a time with output lines, and raises ValueError (one line)
for input it rejects; `converse` runs a session over any line source, so the same code serves a
terminal, piped standard input and the tests. Typing "list" (or "?") shows the first candidates and
"list all" every one, "undo" takes back the last line, "quit" (or Ctrl-D at a terminal) stops
(`COMMANDS`); in `solve`, "why" explains the proposed guess (`SOLVE_COMMANDS`, `solver.analysis.explain`).
"""
from __future__ import annotations

from typing import Callable, Iterator

import numpy as np

from solver.analysis.explain import explain_state
from solver.analysis.hider import hider_answer
from solver.analysis.notation import (
    check_allowed,
    check_win,
    label_list,
    parse_entry,
    parse_guess,
    plural,
    show_feedback,
    show_guess,
    show_label,
)
from solver.analysis.values import figure
from solver.analysis.walk import start_state, verdict
from solver.cli.why import why_lines
from solver.core.runtime import get_solver
from solver.core.game import Game

LIST_LIMIT = 20  # candidates shown by "list" ("list all": every one)
ENDED, QUIT, EOF, INTERRUPTED = 0, 0, 1, 130  # exit statuses of `converse` (see `solver.cli.main`)
COMMANDS = "Type list (or ?) for the candidates, undo to take back the last line, quit to stop."
# the hider never shows its candidates: list (or ?) says how many are left
HIDE_COMMANDS = "Type list (or ?) for how many answers are left, undo to take back the last line, quit to stop."
SOLVE_COMMANDS = ("Type why to explain the proposed guess, list (or ?) for the candidates, undo to take back "
                  "the last line, quit to stop.")


def shown(names: list[str], limit: int | None) -> tuple[list[str], str]:
    """Return (the first `limit` names, None: all, and what follows them: "" or " ... and 12 more
    (list all)")."""
    if limit is None or len(names) <= limit:
        return names, ""
    return names[:limit], f" ... and {len(names) - limit} more (list all)"


class SolveSession:
    """Proposes the solver's guess, reads its feedback (or GUESS=FEEDBACK), until identified."""

    def __init__(self, game: Game, symbols: bool = False):
        self.game, self.solver, self.symbols = game, get_solver(game), symbols  # symbols: suits as ♣♦♥♠
        self.state = start_state(self.solver)
        self.guess = self.solver.guess_row(self.state)
        self.done = False
        self._taken: list[tuple] = []  # (state, guess) before each accepted line, for `undo`

    def opening(self) -> list[str]:
        source = "from the precomputed tree" if self.solver.tree is not None else (
            f"computed live (tree file unusable: {self.solver.tree_error})" if self.solver.tree_error
            else "computed live (no precomputed tree file)")
        return [f"{self.game.title}: {self.state.remaining} candidates; guesses {source}.",
                "Type the feedback of each guess, or GUESS FEEDBACK if you played another guess.",
                f"Feedback: {self.game.feedback_help}.", SOLVE_COMMANDS,
                self._proposal()]

    def _proposal(self) -> str:
        return f"Guess #{len(self.state.history) + 1}: {self._show(self.guess)}"

    def _show(self, row: int) -> str:
        return show_guess(self.game, row, self.symbols)

    def prompt(self) -> str:
        fields = self.game.feedback_help.split(":")[0]
        return f"feedback ({fields}) for {self._show(self.guess)}> "

    def candidates(self, limit: int | None = LIST_LIMIT) -> list[str]:
        names, more = shown([show_label(self.game, name, self.symbols) for name in self.state.candidates], limit)
        return [f"{plural(self.state.remaining, 'candidate')}: {label_list(self.game, names)}{more}"]

    def why(self) -> list[str]:
        """Return the explanation of the proposed guess (`solver.analysis.explain`)."""
        return why_lines(explain_state(self.state, self.guess), self.state.solver.game.max_guesses)

    def handle(self, line: str) -> list[str]:
        game = self.game
        if line.strip().lower() == "why":
            return self.why()
        row, code = parse_entry(game, line)
        row = self.guess if row is None else row
        check_allowed(game, self.state.history, row)
        if code is None:  # a bare guess: the one played instead of the proposal; its feedback comes next
            self.guess = row
            return [f"You played {self._show(row)}: type its feedback."]
        check_win(game, row, code)
        was_on_tree = self.state.node is not None and self.solver.tree is not None
        state = self.solver.advance(self.state, row, code)
        self._taken.append((self.state, self.guess))
        self.state = state
        guesses = len(state.history)
        if code == game.win_code:
            self.done = True
            return [f"Solved in {guesses} guess{'es' if guesses > 1 else ''}!"]
        if state.identified:
            self.done = True
            answer = show_label(game, state.candidates[0], self.symbols)
            return [f"Identified: the answer is {answer}; play it as guess #{guesses + 1}."]
        lines = [f"{plural(state.remaining, 'candidate remains', 'candidates remain')}."]
        if was_on_tree and state.node is None:
            lines.append("(this leaves the precomputed tree)")
        self.guess = self.solver.guess_row(state)
        if state.node is None:
            lines.append(live_note(state))
        return lines + [self._proposal()]

    def undo(self) -> list[str]:
        """Take back the last feedback; ValueError when there is none."""
        if not self._taken:
            raise ValueError("nothing to undo")
        self.state, self.guess = self._taken.pop()
        self.done = False
        return [f"Taken back: {plural(self.state.remaining, 'candidate remains', 'candidates remain')}.",
                self._proposal()]


def live_note(state) -> str:
    """Return where an off-tree guess comes from and what it is worth, as `State.source` says: the opener
    book (computed ahead), a live proof, a live strategy found (top-k search or a large state's shortlist: a
    real strategy's value, at most this), the plain play of one or two candidates, or the greedy rule's."""
    value, source = state.value, state.source
    if source == "book":
        proof = "proven optimal" if state.exact else "the best strategy found, not proven"
        return f"(from the opener book, computed ahead: {proof}, {figure(value)} guesses expected from here, " \
               "this one included)"
    if source == "rule":
        return f"(proven optimal: {figure(value)} guesses expected from here, this one included)"
    if state.exact:
        return f"(a live proof: proven optimal, {figure(value)} guesses expected from here, this one included)"
    if value is not None:
        return f"(a live strategy found, not proven: {figure(value)} guesses expected from here at most)"
    if state.solver.live != "exact":
        return "(not proven: the greedy rule's guess, as --live greedy asks)"
    return "(not proven: the greedy rule's guess; the exact search did not finish in the time allowed)"


class HideSession:
    """An adversary that never commits to an answer: each feedback keeps the most candidates."""

    def __init__(self, game: Game):
        self.game = game
        self.rows = game.target_index.copy()
        self.history: list[tuple[int, int]] = []
        self.done = False
        self._taken: list[np.ndarray] = []  # the candidates before each guess, for `undo`

    def opening(self) -> list[str]:
        return [f"{self.game.title}: I am hiding one of {self.rows.size} answers and I may change my mind. Guess!",
                HIDE_COMMANDS]

    def prompt(self) -> str:
        return f"guess #{len(self.history) + 1}> "

    def candidates(self, limit: int | None = LIST_LIMIT) -> list[str]:
        return [f"{self.rows.size} candidates left (I am not telling which)."]

    def handle(self, line: str) -> list[str]:
        row = parse_guess(self.game, line)
        check_allowed(self.game, self.history, row)
        code, rows = hider_answer(self.game, row, self.rows)
        self._taken.append(self.rows)
        self.rows = rows
        self.history.append((row, code))
        lines = [f"My answer: {show_feedback(self.game, code)}"]
        if code == self.game.win_code:
            self.done = True
            return lines + [verdict(self.game, len(self.history))]
        return lines + [f"{plural(self.rows.size, 'candidate remains', 'candidates remain')}."]

    def undo(self) -> list[str]:
        """Take back the last guess; ValueError when there is none."""
        if not self._taken:
            raise ValueError("nothing to undo")
        self.rows = self._taken.pop()
        self.history.pop()
        self.done = False
        return [f"Taken back: {plural(self.rows.size, 'candidate remains', 'candidates remain')}."]


def converse(session, lines: Iterator[str], say: Callable[[str], None], warn: Callable[[str], None],
             prompt: Callable[[str], None], echo_input: bool = False, interactive: bool = False) -> int:
    """Run a session over input lines; return the exit status.

    0 when the session ends (or on "quit", or Ctrl-D when `interactive`: a person leaving); 1 when
    piped input ends before that (a script's input was short); 130 on Ctrl-C. Rejected lines are
    reported through `warn` and asked again. The prompt's line is ended before any message, so
    nothing lands on it.
    """
    for text in session.opening():
        say(text)
    while not session.done:
        prompt(session.prompt())
        try:
            line = next(lines, None)
        except KeyboardInterrupt:
            say("")
            warn("interrupted")
            return INTERRUPTED
        if line is None:
            say("")
            if interactive:
                say("Stopped before the game was over.")
                return QUIT
            warn("input ended before the game was over")
            return EOF
        line = line.strip()
        if echo_input:
            say(line)
        if not line:
            continue
        if line.lower() in ("quit", "exit", "q"):
            return QUIT
        if line.lower() in ("list", "?", "list all"):
            for text in session.candidates(None if line.lower() == "list all" else LIST_LIMIT):
                say(text)
            continue
        try:
            out = session.undo() if line.lower() == "undo" else session.handle(line)
        except ValueError as err:
            warn(f"{err} (try again)")
            continue
        for text in out:
            say(text)
    return ENDED
