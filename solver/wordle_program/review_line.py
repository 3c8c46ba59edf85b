"""The review line the `wordle` program prints after a game in a terminal (`solver.analysis.review`).

Test mode prints none: its output is the specification's, byte for byte.
"""
from __future__ import annotations

from solver.analysis.review import Review, review
from solver.core.game import Game
from solver.core.registry import get_game
from solver.games import wordle
from solver.games.wordlists import builtin_answers, builtin_guesses
from solver.wordle_program.play import Session
from solver.wordle_program.rounds import Round

BUDGET = 0.5  # seconds per rating: the line follows the game without a wait to speak of


def session_game(session: Session) -> Game:
    """Return the solver's Wordle game of the session's lists and mode (the built-in variant, with its
    tree, when the lists are the original ones)."""
    if session.answers == builtin_answers() and session.acceptable == frozenset(builtin_guesses()):
        return get_game("wordle", "hard" if session.hard else "normal")
    return wordle.game(session.hard, tuple(session.answers), tuple(sorted(session.acceptable)))


def game_review(session: Session, game: Round) -> Review | None:
    """Return the review of a finished game on one board (`solver.analysis.review.review`, BUDGET a rating),
    or None when it cannot be reviewed (an answer outside the session's answer list)."""
    try:
        solver_game = session_game(session)
        answer = solver_game.index_of(game.answer)
        if answer not in set(solver_game.target_index.tolist()):
            return None
        steps = []
        for word, _ in game.history:
            row = solver_game.index_of(word)
            steps.append((row, solver_game.code(row, answer)))
        return review(solver_game, steps, BUDGET)
    except (KeyError, ValueError):  # a list the solver refuses, a word not in it: no review, the game stands
        return None


def review_line(session: Session, game: Round) -> str | None:
    """Return the two review lines of a finished game ("Review: skill S, luck L, C guesses lost ...",
    then the `deduce review` command that rates each guess), or None when it cannot be reviewed (an
    answer outside the session's answer list)."""
    result = game_review(session, game)
    if result is None:
        return None
    mode = " --hard" if session.hard else ""
    luck = f", luck {result.luck}" if result.luck is not None else ""
    words = " ".join(word for word, _ in game.history)
    return (f"Review: skill {result.skill}{luck}, {result.cost_text()} guesses lost against the best play.\n"
            f"Each guess: deduce review wordle{mode} {words} --answer {game.answer}")
