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

The look-ahead needs only the least estimate of each class, so it skips reads that cannot lower it
when F allows (`prunable`: k F(k) never falls as k grows, F(k) > F(1) for k >= 2, as every F of
`solver.core.finish`), the estimates and the order unchanged to the last bit. The guesses that win
somewhere (the candidates) and the best few by the first estimate are tried first; every other guess
leaves each member of a class in a class of its own codes, so its estimate is at least |c| F(1): a
class whose least estimate is that already (a split into singletons) is not read for them again, and
their count of a class stops once what it has counted, plus the least step of k F(k) for each member
left, passes the class's least by more than rounding can account for (`PRUNE_MARGIN`); a class where
that stops too late to pay for its bookkeeping is counted whole. On large states of cards n = 3 (300
to 450 candidates) the look-ahead reads 18-32% of what it read before, in 1.4-2.2 times less CPU time,
on Wordle's after uncommon openers 2.1-2.6 times less; battleship's classes are too large for either
skip, and it keeps its speed there.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

ORDER_DIGITS = 9  # decimals of the estimates compared when ordering guesses
# a count stops when its bound passes the class's least estimate by this share of it: far more than the
# rounding of the float sums (about 2**-53 a term, a few thousand terms), far less than any difference
# between two estimates that the order of the look-ahead reads (ORDER_DIGITS decimals)
PRUNE_MARGIN = 1e-9
SEEDS = 64  # guesses of least first estimate tried before the others: a low least estimate early
# a class whose counts with the bound read more than PRUNE_READS of its columns over its first PRUNE_TRIAL
# guesses is counted whole from then on (the bound's bookkeeping costs more than it saves there)
PRUNE_TRIAL, PRUNE_READS = 32, 0.6


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
def _split_estimate_below(table, row, cols, win, finish, step, least_step, limit, counts, touched):
    """Return (`_split_estimate` of guess `row` on `cols`, the same float, or inf once what it counted
    plus `least_step` for each column left reaches `limit`; the columns read). `step[s]` = (s + 1) F(s + 1)
    - s F(s), what one more member adds to a class of s; `least_step` at most the least that any column
    left adds. `counts` zero on entry, left zero."""
    used = 0
    part = cols.size * least_step  # the bound: what is counted, plus least_step for each column left
    for j in range(cols.size):
        code = table[row, cols[j]]
        size = counts[code]
        if size == 0:
            touched[used] = code
            used += 1
        counts[code] = size + 1
        part += step[size] - least_step if code != win else -least_step
        if part >= limit:
            for t in range(used):
                counts[touched[t]] = 0
            return np.inf, j + 1
    total = 0.0
    for t in range(used):  # summed in `_split_estimate`'s order: the same float
        code = touched[t]
        size = counts[code]
        if code != win:
            total += size * finish[size]
        counts[code] = 0
    return total, cols.size


@njit(cache=True)
def _lookahead_pruned(table, first, seeds, others, cols, n_codes, win, finish, step, margin):
    """Return `_lookahead_one`'s estimate of guess row `first` (the same float) with the module's skips:
    `seeds` (every guess that wins on some column, and the best few) first, then `others` (guesses that
    win on no column). A class whose counts stop too late to save time (more than PRUNE_READS of its
    reads over its first PRUNE_TRIAL guesses) is counted whole from then on, as `_lookahead_one` counts."""
    codes = np.empty(cols.size, np.int64)
    for j in range(cols.size):
        codes[j] = table[first, cols[j]]
    order = np.argsort(codes, kind="mergesort")
    members = cols[order]
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
    for i in range(seeds.size):
        for c in range(classes):
            if deep[c]:
                value = _split_estimate(table, seeds[i], members[starts[c]:starts[c + 1]], win, finish, counts, touched)
                if value < best[c]:
                    best[c] = value
    # the others leave every member in a class of its own codes: at least |c| F(1), summed as a split into
    # singletons sums it; a class there already is done, and each member adds at least the least step
    least_step = np.inf
    for k in range(step.size):
        least_step = min(least_step, step[k])
    floor = np.zeros(classes)
    open_classes = np.empty(classes, np.int64)
    tried = np.zeros(classes, np.int64)
    read = np.zeros(classes, np.int64)
    whole = np.zeros(classes, np.bool_)
    n_open = 0
    for c in range(classes):
        if deep[c]:
            for _ in range(starts[c + 1] - starts[c]):
                floor[c] += 1 * finish[1]
            if best[c] > floor[c]:
                open_classes[n_open] = c
                n_open += 1
    for i in range(others.size):
        if n_open == 0:
            break
        kept = 0
        for k in range(n_open):
            c = open_classes[k]
            class_cols = members[starts[c]:starts[c + 1]]
            if whole[c]:
                value = _split_estimate(table, others[i], class_cols, win, finish, counts, touched)
            else:
                value, reads = _split_estimate_below(table, others[i], class_cols, win, finish, step, least_step,
                                                     best[c] * (1.0 + margin), counts, touched)
                tried[c] += 1
                read[c] += reads
                if tried[c] == PRUNE_TRIAL and read[c] > PRUNE_READS * PRUNE_TRIAL * class_cols.size:
                    whole[c] = True
            if value < best[c]:
                best[c] = value
            if best[c] > floor[c]:
                open_classes[kept] = c
                kept += 1
        n_open = kept
    for c in range(classes):
        if deep[c]:
            total += (starts[c + 1] - starts[c]) + best[c]
    return total


@njit(parallel=True, cache=True)
def _lookahead_pruned_kernel(table, firsts, seeds, others, cols, n_codes, win, finish, step, margin, out):
    """out[i] = `_lookahead_pruned` of guess row firsts[i]; each worker writes its own rows."""
    for i in prange(firsts.size):
        out[i] = _lookahead_pruned(table, firsts[i], seeds, others, cols, n_codes, win, finish, step, margin)


@njit(parallel=True, cache=True)
def _wins_kernel(table, guesses, cols, win, out):
    """out[i] = whether guess row guesses[i] wins on some column of `cols`."""
    for i in prange(guesses.size):
        found = False
        for j in range(cols.size):
            if table[guesses[i], cols[j]] == win:
                found = True
                break
        out[i] = found


def prunable(finish: np.ndarray, n: int) -> np.ndarray | None:
    """Return the steps (s + 1) F(s + 1) - s F(s) for s = 0 .. n - 1 for the skips of the look-ahead of `n`
    candidates, or None when they would not be safe with this F (`finish`): they need the steps at least
    0 (what a count has counted never exceeds its whole), F(1) > 0, and F(k) > F(1) for k >= 2 by a clear
    margin (a split into singletons then beats every other split of the guesses that win nowhere)."""
    if n < 3 or finish.size <= n or not np.all(np.isfinite(finish[:n + 1])):
        return None
    k = np.arange(n + 1, dtype=np.float64)
    weighted = k * finish[:n + 1]
    step = np.diff(weighted)
    gap = float(np.min(k[2:] * (finish[2:n + 1] - finish[1])))
    if not (np.all(step >= 0) and finish[1] > 0 and gap > 1e-6 * max(float(weighted[-1]), 1.0)):
        return None
    return step


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
              finish: np.ndarray, width: int, is_candidate: np.ndarray,
              prune: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Return (guess rows, look-ahead estimates), the `width` guesses of least one-step estimate
    ordered by their look-ahead estimate (float64, guesses summed over the candidates, the next one
    included; ties, to ORDER_DIGITS decimals, to a candidate, then the lower row).

    `table`: codes[guess rows, candidate columns] (an integer dtype, codes below `n_codes`; `win` the
    code of a win);
    `guesses`: int64 guess rows allowed now; `cols`: int64 columns of the state's candidates;
    `finish`: float64 F(k) for k = 0 .. cols.size; `is_candidate`: bool per guess in `guesses`;
    `prune`: with the module's skips where `prunable` allows them (the same answer, sooner).
    """
    if finish.size <= cols.size or is_candidate.shape != guesses.shape:
        raise ValueError("finish needs F(k) up to the number of candidates, and is_candidate one flag a guess")
    guesses = np.ascontiguousarray(guesses, dtype=np.int64)
    cols = np.ascontiguousarray(cols, dtype=np.int64)
    finish = np.ascontiguousarray(finish, dtype=np.float64)
    first = split_estimates(table, guesses, cols, n_codes, win, finish)
    # estimates equal but for the order of their float sums count as ties (ORDER_DIGITS decimals)
    order = np.lexsort((guesses, ~is_candidate, np.round(first, ORDER_DIGITS)))
    ranked = order[:width]
    deeper = np.empty(ranked.size, np.float64)
    step = prunable(finish, int(cols.size)) if prune else None
    if step is None:
        _lookahead_kernel(table, guesses[ranked], guesses, cols, n_codes, win, finish, deeper)
    else:  # the same estimates, with the skips (see the module)
        wins = np.empty(guesses.size, np.bool_)  # the guesses that win on some column
        _wins_kernel(table, guesses, cols, win, wins)
        best_few = np.zeros(guesses.size, np.bool_)
        best_few[order[:SEEDS]] = True
        seeds = np.concatenate([guesses[order[:SEEDS]], guesses[wins & ~best_few]])
        others = np.ascontiguousarray(guesses[~(wins | best_few)])
        _lookahead_pruned_kernel(table, guesses[ranked], seeds, others, cols, n_codes, win, finish, step, PRUNE_MARGIN,
                                 deeper)
    order = np.lexsort((guesses[ranked], ~is_candidate[ranked], np.round(deeper, ORDER_DIGITS)))
    return guesses[ranked][order], deeper[order]
