"""A two-step look-ahead that shortlists the guesses worth proving in a state too large to search.

The estimate of a guess g in a set S of candidates is what the quick estimate (`solver.core.finish`)
says of its split: the sum over the classes c of S that g does not win of |c| F(|c|), F(k) being
the expected guesses (the next one included) to finish k candidates. The look-ahead goes one guess
deeper for the `width` guesses of least estimate: each class c of 3 or more candidates is charged
|c| (the next guess) plus the least estimate of any guess in c, instead of |c| F(|c|). The guesses
below the first are taken from the same pool as the first (in hard mode a superset of those the
history would allow there: the look-ahead is a ranking, never a value shown as proven).

Work: one pass over the table for the first ranking (guesses x candidates), then `width` passes for
the look-ahead (each pass reads a guess's row once for every class); GOMBO=RRRRR (1087 Wordle answers,
the 16 first guesses the live budget allows) took about 0.8 s on two cores.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

ORDER_DIGITS = 9  # decimals of the estimates compared when ordering guesses


@njit(cache=True)
def _split_estimate(table, row, cols, win, finish, counts, touched):
    """Return the sum of |c| F(|c|) over the classes c of the candidate columns `cols` that guess `row`
    does not win (`counts` must be zero on entry and is left zero)."""
    used = 0
    for j in range(cols.size):
        code = table[row, cols[j]]
        if counts[code] == 0:
            touched[used] = code
            used += 1
        counts[code] += 1
    total = 0.0
    for t in range(used):
        code = touched[t]
        size = counts[code]
        if code != win:
            total += size * finish[size]
        counts[code] = 0
    return total


@njit(parallel=True, cache=True)
def _estimates_kernel(table, guesses, cols, n_codes, win, finish, out):
    """out[i] = the estimate of guess row guesses[i] on the columns `cols`; each worker writes its rows."""
    for i in prange(guesses.size):
        counts = np.zeros(n_codes, np.int64)
        touched = np.empty(n_codes, np.int64)
        out[i] = _split_estimate(table, guesses[i], cols, win, finish, counts, touched)


@njit(cache=True)
def _lookahead_one(table, first, guesses, cols, n_codes, win, finish):
    """Return the look-ahead estimate of guess row `first` on the columns `cols` (see the module)."""
    codes = np.empty(cols.size, np.int64)
    for j in range(cols.size):
        codes[j] = table[first, cols[j]]
    order = np.argsort(codes, kind="mergesort")
    members = cols[order]
    # the classes first's feedback makes: [starts[c], starts[c + 1]) of members, deep ones searched further
    starts = np.empty(cols.size + 1, np.int64)
    deep = np.empty(cols.size, np.bool_)
    classes, total = 0, 0.0
    for j in range(cols.size + 1):
        if j == cols.size or j == 0 or codes[order[j]] != codes[order[j - 1]]:
            starts[classes] = j
            if classes > 0:
                size = j - starts[classes - 1]
                code = codes[order[j - 1]]
                deep[classes - 1] = code != win and size >= 3
                if code != win and size < 3:
                    total += size * finish[size]
            classes += 1
    classes -= 1
    best = np.full(classes, np.inf)
    counts = np.zeros(n_codes, np.int64)
    touched = np.empty(n_codes, np.int64)
    for i in range(guesses.size):  # a guess row at a time, for every class: the row stays in cache
        for c in range(classes):
            if deep[c]:
                value = _split_estimate(table, guesses[i], members[starts[c]:starts[c + 1]], win, finish,
                                        counts, touched)
                if value < best[c]:
                    best[c] = value
    for c in range(classes):
        if deep[c]:
            total += (starts[c + 1] - starts[c]) + best[c]
    return total


@njit(parallel=True, cache=True)
def _lookahead_kernel(table, firsts, guesses, cols, n_codes, win, finish, out):
    """out[i] = the look-ahead estimate of guess row firsts[i]; each worker writes its own rows."""
    for i in prange(firsts.size):
        out[i] = _lookahead_one(table, firsts[i], guesses, cols, n_codes, win, finish)


def split_estimates(table: np.ndarray, guesses: np.ndarray, cols: np.ndarray, n_codes: int, win: int,
                    finish: np.ndarray) -> np.ndarray:
    """Return, for each guess row of `guesses` (int64), the sum of |c| F(|c|) over the classes c of the
    candidate columns `cols` (int64) that it does not win (float64, guesses summed over the candidates);
    `table` and `finish` as in `shortlist`."""
    out = np.empty(guesses.size, np.float64)
    _estimates_kernel(table, np.ascontiguousarray(guesses, dtype=np.int64), np.ascontiguousarray(cols, dtype=np.int64),
                      n_codes, win, np.ascontiguousarray(finish, dtype=np.float64), out)
    return out


def shortlist(table: np.ndarray, guesses: np.ndarray, cols: np.ndarray, n_codes: int, win: int,
              finish: np.ndarray, width: int, is_candidate: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (guess rows, look-ahead estimates), the `width` guesses of least one-step estimate
    ordered by their look-ahead estimate (float64, guesses summed over the candidates, the next one
    included; ties, to ORDER_DIGITS decimals, to a candidate, then the lower row).

    `table`: codes[guess rows, candidate columns] (an integer dtype, codes below `n_codes`; `win` the
    code of a win);
    `guesses`: int64 guess rows allowed now; `cols`: int64 columns of the state's candidates;
    `finish`: float64 F(k) for k = 0 .. cols.size; `is_candidate`: bool per guess in `guesses`.
    """
    if finish.size <= cols.size or is_candidate.shape != guesses.shape:
        raise ValueError("finish needs F(k) up to the number of candidates, and is_candidate one flag a guess")
    guesses = np.ascontiguousarray(guesses, dtype=np.int64)
    cols = np.ascontiguousarray(cols, dtype=np.int64)
    finish = np.ascontiguousarray(finish, dtype=np.float64)
    first = split_estimates(table, guesses, cols, n_codes, win, finish)
    # estimates equal but for the order of their float sums count as ties (ORDER_DIGITS decimals)
    ranked = np.lexsort((guesses, ~is_candidate, np.round(first, ORDER_DIGITS)))[:width]
    deeper = np.empty(ranked.size, np.float64)
    _lookahead_kernel(table, guesses[ranked], guesses, cols, n_codes, win, finish, deeper)
    order = np.lexsort((guesses[ranked], ~is_candidate[ranked], np.round(deeper, ORDER_DIGITS)))
    return guesses[ranked][order], deeper[order]
