"""The guess-choosing rule shared by the tree builder and the live solver.

Greedy rule: among the allowed guesses, play the one minimising the expected number of remaining
candidates, i.e. the sum of squared class sizes of the partition it induces (divided by the number
of candidates). Ties go to a guess that is still a candidate (it may win at once), then to the
lowest guess row, so that the pipeline and the runtime always pick the same guess.
"""
from __future__ import annotations

import numpy as np

from solver.game import Game

STRATEGY = "greedy-expected-size"


def candidate_mask(game: Game, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
    """Return, for each guess row in `guesses`, whether it is one of the candidate targets."""
    return np.isin(guesses, game.target_index[candidates])


def pick(sum_sq: np.ndarray, is_candidate: np.ndarray) -> int:
    """Return the position (into the scored guesses) of the best guess by the greedy rule."""
    # Lexicographic (sum_sq, not candidate, position): doubled score plus a candidate bonus.
    key = sum_sq.astype(np.int64) * 2 + (~is_candidate)
    return int(np.argmin(key))


def allowed_guesses(game: Game, history) -> np.ndarray:
    """Return the guess rows allowed after `history` of (guess row, code): all, or hard mode's."""
    if game.allowed is None or not history:
        return np.arange(game.n_guesses, dtype=np.int64)
    return np.flatnonzero(game.allowed(game, history)).astype(np.int64)


def choose(game: Game, candidates: np.ndarray, history=(), table: np.ndarray | None = None,
           guesses: np.ndarray | None = None) -> tuple[int, np.ndarray]:
    """Return (guess row, sum_sq of the scored guesses) for a state with these candidate targets.

    `candidates` are positions in the game's target list; `table` (codes[all guesses, all
    targets]) makes scoring a lookup, otherwise the rule is evaluated by the Numba kernel.
    `guesses` restricts the pool (default: every guess allowed after `history`).
    """
    if len(candidates) <= 2:
        return int(game.target_index[candidates[0]]), np.empty(0, np.int64)
    from solver import kernels  # compile-time cost only on the compute path

    pool = allowed_guesses(game, history) if guesses is None else guesses
    if table is not None:
        sum_sq, _ = kernels.partition_scores(game, pool, candidates, table=table)
    else:
        sum_sq, _ = kernels.partition_scores(game, pool, game.target_index[candidates])
    best = pick(sum_sq, candidate_mask(game, candidates, pool))
    return int(pool[best]), sum_sq
