"""A certified lower bound on a whole game's optimum: every first guess, two levels deep.

For a first guess g1, each class C of the targets it does not hit needs |C| more guesses (g1's
share) plus its own value within r - 1 guesses; that value is at least the least, over every second
guess g2, of g2's hit plus, for each class C' of g2 on C, |C'| + lb[r - 2, |C'|] (the counting bound
of `searcher.lower_bound_table`). A guess leaving C whole is skipped (it cannot be part of an optimal
tree). Summing over C gives a bound for g1; the least over one first guess per symmetry class
(equivalent guesses have equal bounds) is a bound for the game. It needs the full feedback table
and |first guesses| x |guesses| x |targets| lookups: about a minute for battleship (1240 x 4960 x
4960), far too much for cards n3.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit, prange

from solver.core.game import Game
from solver.core.search.searcher import lower_bound_table
from solver.core.search.kernel import INF, class_counts


@njit(cache=True)
def _class_bound(table, members, lb_next, win, n_codes, counts, touched) -> int:
    """Return the least over every guess of its hit plus sum(|C'| + lb_next[|C'|]) over its classes on `members`."""
    m = members.size
    best = INF
    for g in range(table.shape[0]):
        row = table[g]
        k = 0
        for t in members:
            c = row[t]
            if counts[c] == 0:
                touched[k] = c
                k += 1
            counts[c] += 1
        bound = 0
        whole = False
        for j in range(k):
            c = touched[j]
            size = counts[c]
            counts[c] = 0
            if size == m and c != win:
                whole = True
            bound += 1 if c == win else size + lb_next[size]
        if not whole and bound < best:
            best = bound
    return best


@njit(parallel=True, cache=True)
def _opener_bounds(table, openers, lb_next, win, n_codes, out):
    """Write into out[i] the two-level lower bound of the total of a tree opening with openers[i]."""
    n_targets = table.shape[1]
    for i in prange(openers.size):
        row = table[openers[i]]
        order = np.argsort(row, kind="mergesort")
        counts = np.zeros(n_codes, np.int64)
        touched = np.zeros(n_codes, np.int64)
        total = 0
        start = 0
        while start < n_targets:
            code = row[order[start]]
            end = start
            while end < n_targets and row[order[end]] == code:
                end += 1
            size = end - start
            if code == win:
                total += 1
            elif size == 1:
                total += 2
            elif size == 2:
                total += 2 + 3
            else:
                total += size + _class_bound(table, order[start:end], lb_next, win, n_codes, counts, touched)
            start = end
        out[i] = min(total, INF)


def opener_bounds(game: Game, table: np.ndarray, openers: np.ndarray, max_guesses: int) -> np.ndarray:
    """Return int64[len(openers)]: a proven lower bound of the total over every target of any tree
    opening with each guess row of `openers`, all targets found within `max_guesses` guesses."""
    _, losing = class_counts(table, game.win_code)
    lb = lower_bound_table(int(losing.max()), table.shape[1], max_guesses)
    out = np.empty(openers.size, np.int64)
    _opener_bounds(table, np.ascontiguousarray(openers, dtype=np.int64), lb[max_guesses - 2], game.win_code,
                   game.n_codes, out)
    return out


def game_lower_bound(game: Game, table: np.ndarray, max_guesses: int) -> tuple[int, int, float]:
    """Return (bound, the first guess row attaining it, seconds): a proven lower bound of the least
    total over every target of any tree finishing within `max_guesses` guesses."""
    start = time.perf_counter()
    firsts = np.asarray(game.canonical([]) if game.canonical is not None else np.arange(game.n_guesses), np.int64)
    bounds = opener_bounds(game, table, firsts, max_guesses)
    best = int(np.argmin(bounds))
    return int(bounds[best]), int(firsts[best]), time.perf_counter() - start
