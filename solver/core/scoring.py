"""Numba kernels over a game's rule: feedback tables and partition scores.

Import this module only on the compute path (pipeline, live fallback): it imports Numba, and the
kernels compile on first call (``cache=True`` keeps the machine code on disk for later processes).
Each kernel runs ``prange`` over guess rows (the score kernels over workers, each taking every
``workers``-th guess) and writes only its own rows of a preallocated output.
When Numba cannot be imported, the wrappers fall back to pure Python loops over the same rule
(slow, but every answer is the same) and log why once.

Shapes and dtypes:
* `feedback_table(game, guesses, targets)` -> ``codes[len(guesses), len(targets)]`` of
  ``game.code_dtype`` (uint8 up to 256 codes, else uint16); ``guesses``/``targets`` are guess-row
  indices (int64). Cards n=4 (270725 x 270725) does not fit in memory: call it on blocks of rows
  or on a node's candidate subset instead of the full matrix.
* `partition_scores(...)` -> ``(sum_sq int64[G], entropy float64[G])`` where ``sum_sq`` is the sum
  of squared class sizes of the candidates under each guess (expected remaining candidates times
  the number of candidates) and ``entropy`` the partition's entropy in bits.
"""
from __future__ import annotations

import logging
from functools import lru_cache
from typing import Callable

import numpy as np

from solver.core.game import Game
from solver.core.kernel_cache import must_compile, search_kernels_cached
from solver.core.progress import GAME_KERNELS, first_call_notice

log = logging.getLogger(__name__)

try:
    from numba import get_num_threads, njit, prange
    from numba.extending import register_jitable

    HAVE_NUMBA = True
except ImportError as _err:  # pragma: no cover - exercised only where numba is absent
    HAVE_NUMBA = False
    log.warning("numba unavailable (%s): using the pure Python kernels", _err)


if HAVE_NUMBA:

    @njit(cache=True)
    def _summarise(codes, counts):
        # Sum of squared class sizes and entropy (bits) of the classes in `codes`; touches only
        # the codes present, so its cost does not grow with the number of possible codes.
        n = codes.shape[0]
        sq = 0
        for t in range(n):
            k = counts[codes[t]]
            sq += 2 * k + 1  # (k+1)^2 - k^2
            counts[codes[t]] = k + 1
        acc = 0.0
        for t in range(n):
            k = counts[codes[t]]
            if k:
                acc += k * np.log2(k)
                counts[codes[t]] = 0
        return sq, np.log2(n) - acc / n if n else 0.0

    @njit(parallel=True, cache=True)
    def _score_table_kernel(table, guesses, cands, n_codes, workers, sum_sq, entropy):
        n = cands.shape[0]
        for w in prange(workers):
            counts = np.zeros(n_codes, np.int64)
            codes = np.empty(n, np.int64)
            for i in range(w, guesses.shape[0], workers):
                row = table[guesses[i]]
                for t in range(n):
                    codes[t] = row[cands[t]]
                sum_sq[i], entropy[i] = _summarise(codes, counts)


@lru_cache(maxsize=None)
def rule_kernels(rule: Callable):
    """Return (table_kernel, score_kernel) specialised for one game rule, compiled lazily.

    The rule is registered with ``inline="always"`` and referenced from the kernels' closure, so
    Numba inlines it into the loops (LLVM can then vectorise them: a rule passed as an argument
    is a call per pair, several times slower). The closure holds the plain function, whose pickle
    is stable, so the on-disk cache works across processes.

    * ``table_kernel(guess_rows, target_rows, out)``: out[g, t] = rule(guess_rows[g], target_rows[t]).
    * ``score_kernel(guess_rows, cand_rows, n_codes, workers, sum_sq, entropy)``: partition scores
      of each guess over the candidate rows, one prange iteration per worker with its own scratch.
    """
    inline_rule = register_jitable(inline="always")(rule)

    @njit(parallel=True, cache=True)
    def table_kernel(guess_rows, target_rows, out):
        for g in prange(guess_rows.shape[0]):
            row = guess_rows[g]
            for t in range(target_rows.shape[0]):
                out[g, t] = inline_rule(row, target_rows[t])

    @njit(parallel=True, cache=True)
    def score_kernel(guess_rows, cand_rows, n_codes, workers, sum_sq, entropy):
        n = cand_rows.shape[0]
        for w in prange(workers):
            counts = np.zeros(n_codes, np.int64)
            codes = np.empty(n, np.int64)
            for g in range(w, guess_rows.shape[0], workers):
                row = guess_rows[g]
                for t in range(n):
                    codes[t] = inline_rule(row, cand_rows[t])
                sum_sq[g], entropy[g] = _summarise(codes, counts)

    return table_kernel, score_kernel


def rule_kernels_cached(game: Game) -> bool:
    """Return whether `feedback_table` and `partition_scores` (without a table) of `game` find their kernels
    loaded or in Numba's cache (`kernel_cache.must_compile`, with arguments of their types; nothing run)."""
    if not HAVE_NUMBA:
        return True
    table_kernel, score_kernel = rule_kernels(game.rule)
    rows = game.rows[[0]]  # a copy, as the calls' (the game's rows are read-only: another type)
    return not (must_compile(table_kernel, (rows, rows, np.empty((1, 1), game.code_dtype)))
                or must_compile(score_kernel, (rows, rows, game.n_codes, get_num_threads(), np.empty(1, np.int64),
                                               np.empty(1, np.float64))))


def _indices(values, size: int, what: str) -> np.ndarray:
    if values is None:
        return np.arange(size, dtype=np.int64)
    out = np.ascontiguousarray(values, dtype=np.int64)
    if out.ndim != 1 or (out.size and (out.min() < 0 or out.max() >= size)):
        raise ValueError(f"{what} must be a 1-D array of row indices in 0..{size - 1}")
    return out


def feedback_table(game: Game, guesses=None, targets=None) -> np.ndarray:
    """Return codes[len(guesses), len(targets)]: feedback of each guess row against each target.

    `guesses` and `targets` are guess-row indices (default: all guesses, all of the game's targets).
    """
    g = _indices(guesses, game.n_guesses, "guesses")
    t = game.target_index if targets is None else _indices(targets, game.n_guesses, "targets")
    out = np.empty((g.size, t.size), dtype=game.code_dtype)
    guess_rows = np.ascontiguousarray(game.rows[g])
    target_rows = np.ascontiguousarray(game.rows[t])
    if HAVE_NUMBA:
        kernel = rule_kernels(game.rule)[0]
        first_call_notice(kernel, GAME_KERNELS, (guess_rows, target_rows, out), lambda: _search_after(game))
        kernel(guess_rows, target_rows, out)
    else:
        for i, row in enumerate(guess_rows):
            out[i] = [game.rule(row, target) for target in target_rows]
    return out


def _search_after(game: Game) -> str:
    """Return what the notice of compiling the game's kernels adds: the exact search's kernels, when they
    are not compiled either for the game's tables (a live guess off the tree then compiles them next)."""
    return "" if search_kernels_cached(game.code_dtype) else ", then the exact search's if it runs, about a minute"


def partition_scores(game: Game, guesses, candidates, table: np.ndarray | None = None):
    """Return (sum_sq int64[G], entropy float64[G]) of each guess row over the candidate rows.

    With `table` (codes[all guesses, all targets] as from `feedback_table(game)`), `candidates` are
    column indices of that table; without it they are guess-row indices scored through the rule.
    """
    g = _indices(guesses, game.n_guesses, "guesses")
    sum_sq = np.empty(g.size, dtype=np.int64)
    entropy = np.empty(g.size, dtype=np.float64)
    if table is not None:
        c = _indices(candidates, table.shape[1], "candidates")
        if HAVE_NUMBA:
            args = (table, g, c, game.n_codes, get_num_threads(), sum_sq, entropy)
            first_call_notice(_score_table_kernel, GAME_KERNELS, args)
            _score_table_kernel(*args)
            return sum_sq, entropy
        codes = table[np.ix_(g, c)]
    else:
        c = _indices(candidates, game.n_guesses, "candidates")
        if HAVE_NUMBA:
            kernel = rule_kernels(game.rule)[1]
            args = (np.ascontiguousarray(game.rows[g]), np.ascontiguousarray(game.rows[c]), game.n_codes,
                    get_num_threads(), sum_sq, entropy)
            first_call_notice(kernel, GAME_KERNELS, args, lambda: _search_after(game))
            kernel(*args)
            return sum_sq, entropy
        codes = feedback_table(game, g, c)
    for i, row in enumerate(codes):
        counts = np.bincount(row, minlength=game.n_codes)
        counts = counts[counts > 0]
        sum_sq[i] = int((counts * counts).sum())
        p = counts / max(len(c), 1)
        entropy[i] = float(-(p * np.log2(p)).sum())
    return sum_sq, entropy
