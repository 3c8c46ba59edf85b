"""How likely several boards sharing every guess are all solved within a few more guesses.

Two boards (Dordle, or the last two of Quordle) share each guess; each board's answer is one of its
candidates, all equally likely, the boards independent. For a state (A, B) of candidate sets,
Q_k(A, B) is the probability that both boards are solved within k more guesses under the best play,
and Q_k(S) the same for one board left. With every guess taken from a pool (the candidates of the
boards and the `inner` rows):

- Q_1(S) = 1 / |S|; Q_1(A, B) = 0 (one guess solves one board);
- Q_2(S) = the most classes a guess leaves in S, over |S| (each class then gets one try);
- Q_2(A, B): a guess must solve one board and leave the other's answer a lone try:
  the sum over its classes (a, b) of P(a) P(b) [1 if it wins both; Q_1(b) if it wins A; Q_1(a) if
  it wins B; 0 otherwise];
- Q_3(S) and Q_3(A, B) the same sum one guess deeper, over Q_2.

A guess g is rated by the expected Q_1 + Q_2 + Q_3 of the state it leaves (`depth` 3), or Q_1 + Q_2
(`depth` 2, the cheap pass that shortlists), a finished board counting 1 at every k. The sum is
E[min(guesses to go, 4)] turned around: the guesses after g, counted up to 3, are 3 minus it.

The kernels work on a local table: rows are the pool's guesses, columns the targets of either board,
`own[t]` the row of target t's own word (every candidate's word is in the pool).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from solver.core.kernel_cache import must_compile
from solver.core.progress import BOARDS_KERNELS, first_call_notice


@njit(cache=True)
def _split(table, row, cols):
    """Return (order, sorted codes): the columns `cols` grouped by guess `row`'s feedback."""
    codes = np.empty(cols.size, np.int64)
    for j in range(cols.size):
        codes[j] = table[row, cols[j]]
    order = np.argsort(codes, kind="mergesort")
    return order, codes[order]


@njit(cache=True)
def _n_classes(table, row, cols, seen):
    """Return the number of classes guess `row` leaves in `cols` (`seen` is all False on entry and on exit)."""
    n = 0
    for j in range(cols.size):
        code = table[row, cols[j]]
        if not seen[code]:
            seen[code] = True
            n += 1
    for j in range(cols.size):
        seen[table[row, cols[j]]] = False
    return n


@njit(cache=True)
def _solo_two(table, own, cols, inner, seen):
    """Return Q_2 of one board with candidate columns `cols`."""
    n = cols.size
    if n <= 1:
        return 1.0
    best = 0
    for j in range(n):
        best = max(best, _n_classes(table, own[cols[j]], cols, seen))
    for i in range(inner.size):
        best = max(best, _n_classes(table, inner[i], cols, seen))
    return best / n


@njit(cache=True)
def _solo_three_of(table, own, cols, row, inner, win, seen):
    """Return the Q_3 of one board `cols` when guess `row` is played first."""
    order, codes = _split(table, row, cols)
    total = 0.0
    start = 0
    while start < cols.size:
        stop = start
        while stop < cols.size and codes[stop] == codes[start]:
            stop += 1
        if codes[start] == win:
            total += 1.0
        else:
            total += (stop - start) * _solo_two(table, own, cols[order[start:stop]], inner, seen)
        start = stop
    return total / cols.size


@njit(cache=True)
def _solo_three(table, own, cols, inner, win, seen):
    """Return Q_3 of one board with candidate columns `cols`."""
    if cols.size <= 2:
        return 1.0
    best = 0.0
    for j in range(cols.size):
        best = max(best, _solo_three_of(table, own, cols, own[cols[j]], inner, win, seen))
    for i in range(inner.size):
        best = max(best, _solo_three_of(table, own, cols, inner[i], inner, win, seen))
    return best


@njit(cache=True)
def _wins(table, row, cols, win):
    """Return 1 if guess `row` is a candidate among `cols` (it wins on one of them), else 0."""
    for j in range(cols.size):
        if table[row, cols[j]] == win:
            return 1
    return 0


@njit(cache=True)
def _pair_two_of(table, row, a, b, win, seen):
    """Return the Q_2 of boards (a, b) when guess `row` is played first: (wins on both + wins on A times
    B's other classes + wins on B times A's other classes) over |a| |b|."""
    win_a, win_b = _wins(table, row, a, win), _wins(table, row, b, win)
    if win_a == 0 and win_b == 0:
        return 0.0
    classes_a, classes_b = _n_classes(table, row, a, seen), _n_classes(table, row, b, seen)
    hits = win_a * win_b + win_a * (classes_b - win_b) + win_b * (classes_a - win_a)
    return hits / (a.size * b.size)


@njit(cache=True)
def _pair_two(table, own, a, b, win, seen):
    """Return Q_2 of boards (a, b): only a candidate of one of them can finish both in two."""
    best = 0.0
    for j in range(a.size):
        best = max(best, _pair_two_of(table, own[a[j]], a, b, win, seen))
    for j in range(b.size):
        best = max(best, _pair_two_of(table, own[b[j]], a, b, win, seen))
    return best


@njit(cache=True)
def _classes_of(table, row, cols):
    """Return (order, codes, starts): `cols[order]` grouped by guess `row`'s feedback, `codes` sorted, and
    the start of each group (the last entry is cols.size)."""
    order, codes = _split(table, row, cols)
    starts = [0]
    for j in range(1, cols.size):
        if codes[j] != codes[j - 1]:
            starts.append(j)
    starts.append(cols.size)
    return order, codes, np.array(starts, dtype=np.int64)


@njit(cache=True)
def _pair_two_after(table, own, row, a, b, inner, win, seen):
    """Return the expected Q_2 of the state guess `row` leaves on boards (a, b) (a board it wins then
    needs Q_2 of the other alone): the inside of Q_3."""
    order_a, codes_a, starts_a = _classes_of(table, row, a)
    order_b, codes_b, starts_b = _classes_of(table, row, b)
    total = 0.0
    for i in range(starts_a.size - 1):
        part_a = a[order_a[starts_a[i]:starts_a[i + 1]]]
        won_a = codes_a[starts_a[i]] == win
        for j in range(starts_b.size - 1):
            part_b = b[order_b[starts_b[j]:starts_b[j + 1]]]
            won_b = codes_b[starts_b[j]] == win
            if won_a and won_b:
                value = 1.0
            elif won_a:
                value = _solo_two(table, own, part_b, inner, seen)
            elif won_b:
                value = _solo_two(table, own, part_a, inner, seen)
            else:
                value = _pair_two(table, own, part_a, part_b, win, seen)
            total += part_a.size * part_b.size * value
    return total / (a.size * b.size)


@njit(cache=True)
def _pair_three(table, own, a, b, inner, win, seen):
    """Return Q_3 of boards (a, b): the best first guess among the candidates and `inner`."""
    best = 0.0
    for j in range(a.size):
        best = max(best, _pair_two_after(table, own, own[a[j]], a, b, inner, win, seen))
    for j in range(b.size):
        best = max(best, _pair_two_after(table, own, own[b[j]], a, b, inner, win, seen))
    for i in range(inner.size):
        best = max(best, _pair_two_after(table, own, inner[i], a, b, inner, win, seen))
    return best


@njit(cache=True)
def _rate(table, own, row, a, b, inner, win, depth, seen):
    """Return the expected Q_1 + Q_2 (+ Q_3 at depth 3) of the state guess `row` leaves on boards (a, b)."""
    order_a, codes_a, starts_a = _classes_of(table, row, a)
    order_b, codes_b, starts_b = _classes_of(table, row, b)
    total = 0.0
    for i in range(starts_a.size - 1):
        part_a = a[order_a[starts_a[i]:starts_a[i + 1]]]
        won_a = codes_a[starts_a[i]] == win
        for j in range(starts_b.size - 1):
            part_b = b[order_b[starts_b[j]:starts_b[j + 1]]]
            won_b = codes_b[starts_b[j]] == win
            if won_a and won_b:
                value = float(depth)  # both finished: every Q_k is 1
            elif won_a or won_b:
                rest = part_b if won_a else part_a
                value = 1.0 / rest.size + _solo_two(table, own, rest, inner, seen)
                if depth == 3:
                    value += _solo_three(table, own, rest, inner, win, seen)
            else:
                value = _pair_two(table, own, part_a, part_b, win, seen)
                if depth == 3:
                    value += _pair_three(table, own, part_a, part_b, inner, win, seen)
            total += part_a.size * part_b.size * value
    return total / (a.size * b.size)


@njit(parallel=True, cache=True)
def _rate_kernel(table, own, rows, a, b, inner, win, depth, n_codes, out):
    """out[i] = `_rate` of guess rows[i]; each worker writes only its own entries."""
    for i in prange(rows.size):
        seen = np.zeros(n_codes, np.bool_)
        out[i] = _rate(table, own, rows[i], a, b, inner, win, depth, seen)


def rate_guesses(table: np.ndarray, own: np.ndarray, rows: np.ndarray, board_a: np.ndarray, board_b: np.ndarray,
                 inner: np.ndarray, win: int, depth: int) -> np.ndarray:
    """Return, for each guess of `rows`, the expected Q_1 + ... + Q_depth (depth 2 or 3; module docstring)
    of the state it leaves on two boards, as float64 of rows' shape.

    table: uint8 (guesses, targets), the feedback of each pool row on each local target; own: int64
    (targets,), the row of each target's own word; rows, inner: int64 rows of the table; board_a, board_b:
    int64 target columns, the candidates of each board (non-empty)."""
    if depth not in (2, 3):
        raise ValueError(f"depth must be 2 or 3, got {depth}")
    if table.ndim != 2 or table.dtype != np.uint8:
        raise ValueError(f"table must be a 2-D uint8 array, got {table.dtype} of shape {table.shape}")
    if own.shape != (table.shape[1],):
        raise ValueError(f"own must give one row per target column ({table.shape[1]}), got shape {own.shape}")
    if board_a.size == 0 or board_b.size == 0:
        raise ValueError("each board needs at least one candidate")
    arrays = [np.ascontiguousarray(x, dtype=np.int64) for x in (own, rows, board_a, board_b, inner)]
    own, rows, board_a, board_b, inner = arrays
    out = np.zeros(rows.size, dtype=np.float64)
    args = (table, own, rows, board_a, board_b, inner, int(win), int(depth), 256, out)
    first_call_notice(_rate_kernel, BOARDS_KERNELS, args)
    _rate_kernel(*args)
    return out


def _sample_args() -> tuple:
    """Return arguments of `_rate_kernel` of the types `rate_guesses` passes (its machine code is per type)."""
    table, index = np.zeros((1, 1), np.uint8), np.zeros(1, np.int64)
    return table, index, index, index, index, index, 0, 2, 256, np.zeros(1, np.float64)


def compile_notice() -> None:
    """Give the process's one notice now when `rate_guesses` must compile its kernels
    (`progress.first_call_notice`): before the work that comes first."""
    first_call_notice(_rate_kernel, BOARDS_KERNELS, _sample_args())


def kernels_cached() -> bool:
    """Return whether `rate_guesses` finds its kernels loaded or in Numba's cache (nothing run)."""
    return not must_compile(_rate_kernel, _sample_args())
