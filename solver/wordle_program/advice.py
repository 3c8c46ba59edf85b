"""What the full-screen UI (`solver.wordle_program.tui`) shows beside the board, as plain text lines:
the hint panel (the ranking `deduce hint` prints, `solver.analysis.scores.hint`; on several boards the
guess `deduce solve --boards N` proposes), the review of a finished game (`deduce review`'s figures,
`solver.analysis.review`) and the coach (`wordle --tui --coach`), which follows the guesses and marks
a player got elsewhere as `deduce solve` does.

No Textual here: every function returns data or text, so the figures are tested without a terminal.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.analysis import scores
from solver.analysis.several_boards import play as boards_play
from solver.analysis.notation import check_allowed, check_win, parse_feedback, parse_guess, plural
from solver.analysis.review import BoardsReview, Review, review_boards
from solver.analysis.walk import start_state
from solver.core.defaults import DEFAULT_TOP
from solver.core.game import Game
from solver.core.runtime import get_solver
from solver.games.boards import Boards
from solver.wordle_program.play import Session
from solver.wordle_program.review_line import BUDGET, game_review, session_game
from solver.wordle_program.rounds import MultiRound, Round

CANDIDATES_SHOWN = 12  # candidates the hint panel lists (then "... and N more")


def listed(words, shown: int = CANDIDATES_SHOWN) -> str:
    """Return `words` joined by spaces, at most `shown` of them, then "... and N more"."""
    words = list(words)
    more = f" ... and {len(words) - shown} more" if len(words) > shown else ""
    return " ".join(words[:shown]) + more


def ranking_lines(result: scores.Hint) -> list[str]:
    """Return the hint panel's lines for a `scores.Hint`: the candidates left, then the ranking narrowed to
    a side panel (guess, expected guesses to finish with it, worst case, expected candidates left), the
    solver's guess marked *."""
    lines = [f"{plural(len(result.candidates), 'possible answer')}:", listed(result.candidates)]
    if not result.ranked:
        return lines + ["", f"The answer is {result.candidates[0]}."]
    lines += ["", "Best guesses (to go: guesses", "to finish, this one included):",
              f"{'guess':<6} {'to go':>7} {'worst':>5} {'left':>6}"]
    for r in result.ranked:
        to_go = r.to_go.text() if r.to_go is not None else "?"
        worst = str(r.to_go.worst) if r.to_go is not None and r.to_go.worst is not None else "-"
        lines.append(f"{r.label:<6} {to_go:>7} {worst:>5} {r.scored.expected:>6.1f}" + (" *" if r.solver else ""))
    return lines + ["* the solver's guess; ~ not proven"]


def steps_of(game: Game, history) -> list[tuple[int, int]]:
    """Return the (guess row, code) steps of (word, marks) pairs; ValueError for a word or marks the game
    refuses."""
    return [(parse_guess(game, word), parse_feedback(game, marks)) for word, marks in history]


def round_hint(session: Session, game: Round) -> list[str]:
    """Return the hint panel of a game on one board: `deduce hint`'s ranking after its guesses."""
    solver_game = session_game(session)
    return ranking_lines(scores.hint(solver_game, steps_of(solver_game, game.history), DEFAULT_TOP))


def boards_state(session: Session, game: MultiRound) -> Boards:
    """Return the solver's state of every board after the guesses of `game` (`solver.games.boards.Boards`)."""
    solver_game = session_game(session)
    state = Boards.start(solver_game, len(game.boards), session.hard)
    for word, marks in game.history:
        codes = {b: parse_feedback(solver_game, mark) for b, mark in enumerate(marks) if mark is not None}
        state = state.after(parse_guess(solver_game, word), codes)
    return state


def boards_hint(session: Session, game: MultiRound) -> list[str]:
    """Return the hint panel of a game on several boards: the candidates left on each unsolved board and
    the guess `deduce solve --boards N` proposes."""
    state = boards_state(session, game)
    solver_game = state.game
    lines = []
    for b in state.open_boards:
        words = [solver_game.labels[solver_game.target_index[p]] for p in state.candidates[b]]
        lines += [f"Board {b + 1}: {plural(len(words), 'possible answer')}:", listed(words, 6)]
    return lines + ["", f"The solver plays {solver_game.labels[state.choose()]}",
                    "(as deduce solve --boards does)."]


def hint_lines(session: Session, game: Round | MultiRound) -> list[str]:
    """Return the hint panel's lines for the game in play (`round_hint` or `boards_hint`)."""
    return boards_hint(session, game) if isinstance(game, MultiRound) else round_hint(session, game)


# ----------------------------------------------------------------------------- review


def review_table(result: Review) -> list[str]:
    """Return the review of a game on one board: its scores, then a row a guess (luck 0-100, the guesses
    lost against the best guess, and that best guess)."""
    luck = f", luck {result.luck}" if result.luck is not None else ""
    lines = [f"Skill {result.skill}{luck}: {result.cost_text()}", "guesses lost against the best play.", "",
             f"{'#':>2} {'guess':<6} {'luck':>4} {'lost':>6} best"]
    for g in result.guesses:
        best = "" if g.guess == g.best_guess else g.best_guess
        lines.append(f"{g.number:>2} {g.guess:<6} {'-' if g.decided else f'{g.luck:.0f}':>4} {g.cost_text():>6} {best}")
    return lines


def boards_table(result: BoardsReview) -> list[str]:
    """Return the review of a game on several boards: each board's scores, then the game's."""
    lines = []
    for number, board in enumerate(result.boards, start=1):
        state = f"solved in {len(board.guesses)}" if board.won else "not solved"
        lines.append(f"Board {number} {board.answer}: {state}, skill {board.skill}, {board.cost_text()} lost")
    luck = f", luck {result.luck}" if result.luck is not None else ""
    return lines + ["", f"In all: skill {result.skill}{luck},", f"{result.cost_text()} guesses lost."]


def review_lines(session: Session, game: Round | MultiRound) -> list[str]:
    """Return the review panel of a finished game (the figures of `deduce review`), or a line saying why
    there is none (an answer the solver's lists do not hold)."""
    words = " ".join(game.guesses)
    if isinstance(game, MultiRound):
        try:
            solver_game = session_game(session)
            targets = [solver_game.index_of(answer) for answer in game.answers]
            rows = [solver_game.index_of(word) for word in game.guesses]
            result = review_boards(solver_game, rows, targets, boards_play(solver_game, targets, hard=session.hard),
                                   BUDGET)
        except (KeyError, ValueError):
            return ["No review: the solver's lists do not hold these words."]
        command = f"deduce review wordle --boards {len(game.boards)} {words} --answer {','.join(game.answers)}"
        return boards_table(result) + ["", "Each guess:", command]
    result = game_review(session, game)
    if result is None:
        return ["No review: the solver's lists do not hold this answer."]
    mode = " --hard" if session.hard else ""
    return review_table(result) + ["", "Each guess:", f"deduce review wordle{mode} {words} --answer {game.answer}"]


# ----------------------------------------------------------------------------- coach


@dataclass(frozen=True)
class Advice:
    """What the coach shows after a guess: the hint panel's lines and whether the answer is found."""

    lines: list[str]
    solved: bool = False


class Coach:
    """`wordle --tui --coach`: the guesses and marks of a game played elsewhere, checked and followed by the
    solver (`solver.core.runtime.Solver.advance`, as `deduce solve`), one board."""

    def __init__(self, session: Session):
        self.game = session_game(session)
        self.solver = get_solver(self.game)
        self.states = [start_state(self.solver)]
        self.history: list[tuple[str, str]] = []

    @property
    def state(self):
        return self.states[-1]

    @property
    def solved(self) -> bool:
        return bool(self.history) and self.history[-1][1] == "G" * len(self.history[-1][1])

    def add(self, word: str, marks: str) -> None:
        """Take guess `word` with the `marks` it got (G/Y/R); ValueError saying why it cannot be: a word not
        allowed (or forbidden by hard mode), or marks no candidate left gives."""
        if self.solved:
            raise ValueError("the answer is found: Ctrl-Z takes the last guess back")
        row, code = parse_guess(self.game, word), parse_feedback(self.game, marks)
        check_allowed(self.game, self.state.history, row)
        check_win(self.game, row, code)
        self.states.append(self.solver.advance(self.state, row, code))
        self.history.append((word.upper(), marks.upper()))

    def undo(self) -> None:
        """Take the last guess back; ValueError when there is none."""
        if not self.history:
            raise ValueError("nothing to take back")
        self.states.pop()
        self.history.pop()

    def advice(self) -> Advice:
        """Return the hint panel after the guesses so far (`deduce hint`'s ranking), or the answer found."""
        if self.solved:
            count = len(self.history)
            return Advice([f"Solved in {plural(count, 'guess', 'guesses')}!"], True)
        steps = list(self.state.history)
        result = scores.hint(self.game, steps, DEFAULT_TOP)
        lines = ranking_lines(result)
        if not result.ranked:
            return Advice(lines + [f"Play it as guess {len(steps) + 1}."], False)
        return Advice(lines, False)
