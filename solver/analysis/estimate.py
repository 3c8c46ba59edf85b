"""A quick estimate of the expected guesses to finish after a guess, for guesses nothing else rates.

After guess g in a state of n candidates, the feedback splits them into classes; the estimate is

    1 + sum over the classes c that g does not win of |c| / n * F(|c|),

where F(k) is the expected guesses (the next one included) needed to finish k candidates: F(1) = 1,
F(2) = 1.5, and for k >= 3 a line in log2(k) fitted to the game's own tree (its nodes of 3 or more
candidates: the guesses they took over their candidates), or, without a tree, F(k) = 1 + log(k) /
log(number of feedback codes) (each guess at best splits a set by as many codes). It costs one row
of feedback codes: microseconds, where the search takes up to the budget.

How far it is from the truth is measured against proven values (`make bench`, section `estimate`,
and the documentation's benchmarks page); it is shown with its own mark, never as proven.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from solver.analysis.walk import feedback_codes
from solver.core.game import Game
from solver.core.runtime import State


@lru_cache(maxsize=16)
def _fit(tree) -> tuple[float, float] | None:
    """Return (a, b) of F(k) = a + b log2(k) fitted by least squares to a tree's nodes of 3 or more
    candidates, or None when it has fewer than two such sizes."""
    remaining = np.asarray(tree.remaining, dtype=np.float64)
    mean = np.asarray(tree.subtree, dtype=np.float64) / np.maximum(remaining, 1.0)
    keep = remaining >= 3
    if np.unique(remaining[keep]).size < 2:
        return None
    b, a = np.polyfit(np.log2(remaining[keep]), mean[keep], 1)
    return float(a), float(b)


def finish_guesses(game: Game, sizes: np.ndarray, tree=None) -> np.ndarray:
    """Return F(k) for each set size k in `sizes` (float64): the estimated expected guesses, the next
    one included, to finish k candidates (see the module docstring)."""
    k = np.asarray(sizes, dtype=np.float64)
    fit = _fit(tree) if tree is not None else None
    if fit is not None:
        a, b = fit
        large = a + b * np.log2(np.maximum(k, 1.0))
    else:
        large = 1.0 + np.log(np.maximum(k, 1.0)) / math.log(max(game.n_codes - 1, 2))
    return np.where(k <= 1, 1.0, np.where(k == 2, 1.5, np.maximum(large, 1.5)))


def estimated_to_go(state: State, row: int) -> float:
    """Return the estimated expected guesses to finish after guess `row` in `state`, this one included
    (over equally likely candidates)."""
    game = state.solver.game
    targets = game.target_index[state.candidate_positions]
    codes = feedback_codes(game, row, targets)
    counts = np.bincount(codes, minlength=game.n_codes)
    counts[game.win_code] = 0  # the class a guess wins is finished by it
    sizes = counts[counts > 0]
    rest = finish_guesses(game, sizes, state.solver.tree)
    return 1.0 + float((sizes * rest).sum()) / targets.size
