"""The specification's two scorers of the generic game, over equal-length sequences of any tokens compared by
equality (strings, tuples of ints, tuples of any tokens): `score_bulls_cows(secret, guess)` gives
``(bulls, cows)``, `score_wordle(secret, guess)` one `Mark` per position. Each carries a `vectorised` form
over token numbers (`vectorised`), which `solver.games.tabulation` uses to score a whole table in blocks.
"""
from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import Any, Callable, Sequence

import numpy as np

from solver.core.bounded_input import excerpt

Score = Callable[[Any, Any], Any]  # a scoring function: (secret, guess) -> a score
MAX_INT_KEY_LENGTH = 39  # Wordle marks of up to 39 tokens fit a base-3 int64 key; longer: rows of marks


class Mark(StrEnum):
    """A Wordle mark: right token in the right place, in the secret elsewhere, or not (any more)."""

    BULL = "bull"
    COW = "cow"
    MISS = "miss"


def default_pair_bytes(length: int, n_tokens: int) -> int:
    """A scorer's memory per pair when it does not say: an int64 per token pair or per token kind."""
    return 8 * length * max(length, n_tokens)


def vectorised(keys: Callable[[np.ndarray, np.ndarray, int], np.ndarray],
               pair_bytes: Callable[[int, int], int] | None = None,
               score_of: Callable[[Any, int], Any] | None = None):
    """Return a decorator giving a scoring function its vectorised form, used by `from_function`.

    ``keys(secret_rows, guess_rows, n_tokens)`` reads the sequences as rows of token numbers (0 ..
    n_tokens-1, the same token the same number) and returns, for each pair, a number (an
    int64[len(guess_rows), len(secret_rows)]) or a row of numbers (an array of one more axis,
    compared whole) that is equal exactly when the scores are equal. ``pair_bytes(length,
    n_tokens)``: the most memory it takes per pair (default ``8 * length * max(length,
    n_tokens)``); `from_function` calls it on blocks of at most BLOCK_BYTES (64 MB) of pairs, and
    refuses sequences whose single pair needs more. ``score_of(key, length)``: the score a key stands
    for (a key: an int, or a 1-D array for a row), the function's own object; without it the
    function is called on the first pair of each score.
    """
    def attach(score: Score) -> Score:
        score.vectorised = keys
        score.pair_bytes = pair_bytes or default_pair_bytes
        score.score_of = score_of
        return score

    return attach


def _pair(secret: Sequence, guess: Sequence) -> tuple[list, list]:
    secret, guess = list(secret), list(guess)
    if len(secret) != len(guess):
        raise ValueError(f"secret and guess differ in length: {excerpt(secret)} and {excerpt(guess)}")
    return secret, guess


def _pluck(token: Any, pool: list) -> bool:
    """Remove the first item of `pool` equal to `token`; return whether there was one."""
    for i, item in enumerate(pool):
        if item == token:
            del pool[i]
            return True
    return False


def _counter(tokens: list, others: list) -> Counter | None:
    """Return the multiset of `tokens`, or None unless every token of both lists is hashable and
    equal to itself (then counting by hash agrees with comparing by ==; else `_pluck` compares)."""
    try:
        if not all(t == t for t in tokens) or not all(t == t for t in others):
            return None
        counts = Counter(tokens)
        for token in others:
            hash(token)
    except TypeError:
        return None
    return counts


def _runs(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return (order, sorted tokens, run start, run end) of each row: the positions sorted by token
    (stable: in place order within a token), and for each sorted position the first and the last
    sorted position of its token's run. All int64[n, L]: memory linear in the row length."""
    order = np.argsort(rows, axis=1, kind="stable")
    tokens = np.take_along_axis(rows, order, 1).astype(np.int64)
    length = rows.shape[1]
    place = np.arange(length, dtype=np.int64)
    new = np.ones(tokens.shape, dtype=bool)
    new[:, 1:] = tokens[:, 1:] != tokens[:, :-1]
    start = np.maximum.accumulate(np.where(new, place, 0), axis=1)
    last = np.ones(tokens.shape, dtype=bool)
    last[:, :-1] = new[:, 1:]
    end = np.minimum.accumulate(np.where(last, place, length - 1)[:, ::-1], axis=1)[:, ::-1]
    return order, tokens, start, end


def _occurrences(rows: np.ndarray) -> np.ndarray:
    """Return int64[n, L]: at each position, how many earlier positions of the row hold its token."""
    order, _, start, _ = _runs(rows)
    out = np.empty(rows.shape, dtype=np.int64)
    np.put_along_axis(out, order, np.arange(rows.shape[1], dtype=np.int64) - start, 1)
    return out


def _count_in(secrets: np.ndarray, queries: np.ndarray, radix: int) -> np.ndarray:
    """Return int64[g, s, L]: how many times each value of ``queries[g, :, L]`` (0 .. radix-1) occurs
    in secret row s, by binary search in the secrets' sorted rows laid end to end (each row's
    values offset by radix times its number), never a [pairs, L, L] or [pairs, radix] array."""
    offset = np.arange(secrets.shape[0], dtype=np.int64)[:, None] * radix
    flat = (np.sort(secrets.astype(np.int64), axis=1) + offset).ravel()
    where = queries[:, None, :] + offset[None, :, :]
    return np.searchsorted(flat, where, "right") - np.searchsorted(flat, where, "left")


def _bulls_cows_keys(secrets: np.ndarray, guesses: np.ndarray, n_tokens: int) -> np.ndarray:
    length = secrets.shape[1]
    bulls = (guesses[:, None, :] == secrets[None, :, :]).sum(-1, dtype=np.int64)
    # the k-th copy of a token is a value of its own: common tokens (a multiset) are common values
    radix = n_tokens * length
    copies = lambda rows: rows.astype(np.int64) + n_tokens * _occurrences(rows)  # noqa: E731
    matches = _count_in(copies(secrets), copies(guesses), radix).sum(-1)
    return bulls * (length + 1) + matches - bulls


def _bulls_cows_bytes(length: int, n_tokens: int) -> int:
    return 48 * length + 64  # a bool, three int64 arrays and the binary searches' results per token


def _wordle_keys(secrets: np.ndarray, guesses: np.ndarray, n_tokens: int) -> np.ndarray:
    """Return the marks of every pair as a base-3 number (up to 39 tokens), else as a row of marks.

    In each guess's positions sorted by token, a non-bull position is a cow when fewer earlier
    non-bulls of its token come before it than the secret holds copies of that token not matched
    by a bull: cumulative sums along the runs, linear in the length per pair."""
    length = secrets.shape[1]
    order, tokens, start, end = _runs(guesses)
    bull = np.take_along_axis(guesses[:, None, :] == secrets[None, :, :], order[:, None, :], 2)  # [g, s, sorted]
    cum = np.cumsum(bull, axis=2, dtype=np.int64)
    at = lambda values, index: np.take_along_axis(values, np.broadcast_to(index[:, None, :], values.shape), 2)  # noqa: E731
    bulls_of_token = at(cum, end) - at(cum, start) + at(bull, start)
    non_bulls_before = np.arange(length, dtype=np.int64) - cum + bull  # before each sorted position, all runs
    rank = non_bulls_before - at(non_bulls_before, start)  # ... in its own token's run
    available = _count_in(secrets, tokens, n_tokens) - bulls_of_token
    marks = 2 * bull + (~bull & (rank < available))  # [g, s, sorted]
    if length <= MAX_INT_KEY_LENGTH:
        return (marks * 3 ** order[:, None, :].astype(np.int64)).sum(-1)
    out = np.empty(marks.shape, dtype=np.int8)
    np.put_along_axis(out, np.broadcast_to(order[:, None, :], marks.shape), marks.astype(np.int8), 2)
    return out


def _wordle_bytes(length: int, n_tokens: int) -> int:
    return 120 * length + 64  # two bools, about a dozen int64 arrays and the marks per token


def _bulls_cows_of(key: int, length: int) -> tuple[int, int]:
    bulls, cows = divmod(int(key), length + 1)
    return bulls, cows


@vectorised(_bulls_cows_keys, _bulls_cows_bytes, _bulls_cows_of)
def score_bulls_cows(secret: Sequence, guess: Sequence) -> tuple[int, int]:
    """Return (bulls, cows): bulls are equal tokens in the same place, cows the other common tokens.

    Common tokens are counted as a multiset: no secret token is matched twice (Mastermind's black
    and white pegs with repeated colours).
    """
    secret, guess = _pair(secret, guess)
    bulls = sum(bool(s == g) for s, g in zip(secret, guess))
    counts = _counter(secret, guess)
    if counts is not None:
        return bulls, sum((counts & Counter(guess)).values()) - bulls
    pool = list(secret)
    matches = sum(_pluck(g, pool) for g in guess)
    return bulls, matches - bulls


def _wordle_of(key, length: int) -> tuple["Mark", ...]:
    if isinstance(key, np.ndarray):  # a row of marks
        return tuple(map(_MARK_BY_NUMBER.__getitem__, key.tolist()))
    marks, key = [], int(key)
    for _ in range(length):
        key, mark = divmod(key, 3)
        marks.append(_MARK_BY_NUMBER[mark])
    return tuple(marks)


@vectorised(_wordle_keys, _wordle_bytes, _wordle_of)
def score_wordle(secret: Sequence, guess: Sequence) -> tuple[Mark, ...]:
    """Return one `Mark` per guess position: bulls first, then cows left to right while unused
    secret tokens remain, the rest misses ("alpha" vs "aaabb": BULL, COW, MISS, MISS, MISS)."""
    secret, guess = _pair(secret, guess)
    pool = [s for s, g in zip(secret, guess) if s != g]
    left = _counter(pool, guess)
    if left is None:
        return tuple(Mark.BULL if s == g else Mark.COW if _pluck(g, pool) else Mark.MISS
                     for s, g in zip(secret, guess))
    marks = []
    for s, g in zip(secret, guess):
        if s == g:
            marks.append(Mark.BULL)
        elif left[g] > 0:
            left[g] -= 1
            marks.append(Mark.COW)
        else:
            marks.append(Mark.MISS)
    return tuple(marks)


_MARK_BY_NUMBER = (Mark.MISS, Mark.COW, Mark.BULL)  # the numbers of `_wordle_keys`
_MARK_REPR = {id(mark): repr(mark) for mark in Mark}


def score_repr(value: Any) -> str:
    """Return repr(value), fast for a tuple of Marks (repr of an Enum member runs Python code)."""
    if type(value) is tuple and len(value) > 1:
        try:
            return "(" + ", ".join(map(_MARK_REPR.__getitem__, map(id, value))) + ")"
        except KeyError:  # not all Marks
            pass
    return repr(value)
