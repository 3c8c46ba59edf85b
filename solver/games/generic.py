"""A game given by a scoring function and a dictionary alone (the specification's generic part).

* `score_bulls_cows(secret, guess)` and `score_wordle(secret, guess)`: the specification's two
  scorers, over equal-length sequences of any tokens compared by equality (strings, tuples of ints,
  tuples of any tokens). A score is a plain value: ``(bulls, cows)``, or one `Mark` per position
  (their home: `solver.games.generic_scores`).
* `from_function(targets, guesses, score)`: tabulates any scoring function once into a
  `solver.core.game.Game`, so that `Solver`, the tree builders and the live fallback play a user's own
  game; the table is cached by content in this process (its home, and how a table reaches the engine:
  `solver.games.tabulation`).
* `solve(game)`: the guesser, a generator (``guess = next(g)``, ``guess = g.send(score)``) that
  returns the identified secret; `scorer(score, secret)` the scorer; `play` connects the two (here).
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Generator, Iterable, Iterator

from solver.core.game import Game
from solver.core.runtime import Solver, get_solver
from solver.games.generic_scores import Mark, Score, score_bulls_cows, score_wordle, vectorised
from solver.games.tabulation import FunctionGame, from_function, lookup_rule

__all__ = ["FunctionGame", "Mark", "Score", "from_function", "lookup_rule", "play", "score_bulls_cows",
           "score_wordle", "scorer", "solve", "vectorised"]


def scorer(score: Score, secret: Any) -> Callable[[Iterable], Iterator]:
    """Return the specification's scorer: guesses -> their scores against `secret`, lazily."""
    return lambda guesses: map(partial(score, secret), guesses)


def solve(game: Game, solver: Solver | None = None) -> Generator[Any, Any, Any]:
    """Return the guesser of `game`: it yields guesses, takes each one's score by ``send`` and
    returns (StopIteration.value) the secret once it is the only candidate left, unguessed.

    Guesses are the game's items (`FunctionGame`), else its labels; scores are what its `encode`
    reads. It plays the game's `Solver` (default: the shared one): the tree when one is built, else
    the live greedy choice. A candidate's score against itself is the win, so a guess chosen by
    the greedy rule splits the candidates and every reply removes at least one (a wrongly guessed
    candidate never stays): n words take at most n - 1 guesses, one word none.
    ValueError on a value that is no score; InconsistentFeedbackError (a ValueError) on a score no
    remaining candidate could give.
    """
    solver = solver or get_solver(game)
    items = getattr(game, "items", None) or game.labels
    _, state = solver.initial_guess()
    while not state.identified:
        row = solver.guess_row(state)
        reply = yield items[row]
        state = solver.advance(state, row, game.encode(reply))
    return items[int(game.target_index[state.candidate_positions[0]])]


def play(game: Game, secret: Any, score: Score | None = None, solver: Solver | None = None) -> tuple[list, Any]:
    """Return (history of (guess, score), identified secret): `solve` against a truthful scorer.

    `score` defaults to the function the game was tabulated from.
    """
    score = score or getattr(game, "score", None)
    if score is None:
        raise ValueError(f"{game.title} was not made by from_function: give play its scoring function")
    answers = partial(score, secret)
    guesser, history = solve(game, solver), []
    try:
        guess = next(guesser)
        while True:
            history.append((guess, answers(guess)))
            guess = guesser.send(history[-1][1])
    except StopIteration as done:
        return history, done.value
