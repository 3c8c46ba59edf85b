"""F(k): the expected guesses, the next one included, needed to finish k equally likely candidates.

F(1) = 1, F(2) = 1.5, and for k >= 3 a line in log2(k) fitted by least squares to a game's own tree
(its nodes of 3 or more candidates: the guesses they took over their candidates), or, without a
tree, 1 + log(k) / log(number of feedback codes - 1) (each guess at best splits a set by as many
codes). The quick estimate (`solver.analysis.estimate`) and the live look-ahead
(`solver.core.search.shortlist`) rate a split with it.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from solver.core.strategy import pick


@lru_cache(maxsize=16)
def _fit(tree) -> tuple[float, float] | None:
    """Return (a, b) of F(k) = a + b log2(k) fitted to a tree's nodes of 3 or more candidates, or None
    when it has fewer than two such sizes."""
    remaining = np.asarray(tree.remaining, dtype=np.float64)
    mean = np.asarray(tree.subtree, dtype=np.float64) / np.maximum(remaining, 1.0)
    keep = remaining >= 3
    if np.unique(remaining[keep]).size < 2:
        return None
    b, a = np.polyfit(np.log2(remaining[keep]), mean[keep], 1)
    return float(a), float(b)


def finish_guesses(n_codes: int, sizes, tree=None) -> np.ndarray:
    """Return F(k) (float64) for each set size k in `sizes`, fitted to `tree` (anything with arrays
    `remaining` and `subtree` per node) when given, for a game of `n_codes` feedback codes."""
    k = np.asarray(sizes, dtype=np.float64)
    fit = _fit(tree) if tree is not None else None
    if fit is not None:
        a, b = fit
        large = a + b * np.log2(np.maximum(k, 1.0))
    else:
        large = 1.0 + np.log(np.maximum(k, 1.0)) / math.log(max(n_codes - 1, 2))
    return np.where(k <= 1, 1.0, np.where(k == 2, 1.5, np.maximum(large, 1.5)))


def lost_with_two(game, rows: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Return, per guess row of `rows`, how many of the candidate `targets` no play finishes when it is
    played with two guesses left: each group of its feedback keeps one for the last guess and loses the
    rest (a win is a group of its own, and loses nothing)."""
    from solver.core import scoring  # defers Numba to the compute path

    codes = np.sort(scoring.feedback_table(game, np.asarray(rows, dtype=np.int64), targets), axis=1)
    groups = 1 + (np.diff(codes, axis=1) != 0).sum(axis=1)
    return targets.size - groups.astype(np.int64)


def within_limit_pick(game, rows: np.ndarray, targets: np.ndarray, left: int) -> int:
    """Return the guess row to play with `left` guesses left (1 or 2) when no strategy is known to finish
    every candidate `targets`: with one left a candidate (only it can win), with two one of `rows` losing
    the fewest candidates (`lost_with_two`); among those the greedy rule's (`strategy.pick`: the fewest
    candidates expected to be left, then a candidate, then the lowest row)."""
    from solver.core import scoring  # defers Numba to the compute path

    rows = np.unique(targets) if left <= 1 else np.asarray(rows, dtype=np.int64)
    if left > 1:
        lost = lost_with_two(game, rows, targets)
        rows = rows[lost == lost.min()]
    sum_sq, _ = scoring.partition_scores(game, rows, targets)
    return int(rows[pick(sum_sq, np.isin(rows, targets))])
