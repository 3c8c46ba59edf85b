"""A game given by a scoring function and a dictionary alone (the specification's generic part).

* `score_bulls_cows(secret, guess)` and `score_wordle(secret, guess)`: the specification's two
  scorers, over equal-length sequences of any tokens compared by equality (strings, tuples of ints,
  tuples of any tokens). A score is a plain value: ``(bulls, cows)``, or one `Mark` per position.
* `from_function(targets, guesses, score)`: tabulates any scoring
  function once into a `solver.core.game.Game`, so that `Solver`, the tree builders and the live
  fallback play a user's own game; the table is cached by content in this process.
* `solve(game)`: the guesser, a generator (``guess = next(g)``, ``guess = g.send(score)``) that
  returns the identified secret; `scorer(score, secret)` the scorer; `play` connects the two.

How a tabulated game reaches the engine. A Python function cannot be compiled by Numba, so the
table ``codes[guess row, target position]`` is computed once (by the function, or by its
`vectorised` form over token numbers) and carried by the encoded rows themselves: row r is
``[target position of r (-1 if r is no target), codes[r, 0], ..., codes[r, T-1]]`` (int32), and the
rule is the lookup `lookup_rule`: ``guess_row[1 + target_row[0]]``. The kernels, the solver and
the search read rows and call the rule as for any game; only target rows may be the secret. Codes
are numbered in order of first appearance (guess-major) and `decode` gives back the function's own
score objects; the win code is the score of a guess against itself, which no other pair may give.
"""
from __future__ import annotations

import hashlib
import inspect
import re
import threading
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any, Callable, Generator, Iterable, Iterator, Sequence

import numpy as np
from cachetools import LRUCache

from solver.core.bounded_input import excerpt
from solver.core.runtime import Solver, get_solver
from solver.core.game import Game

Score = Callable[[Any, Any], Any]

CACHE_SIZE = 8  # tabulated games kept (each holds its table: 4 bytes per guess and target)
MAX_PAIRS = 1 << 28  # a larger table (1 GB of int32 rows) is refused rather than swapped
MB = 1 << 20
BLOCK_BYTES = 64 * MB  # the most memory one block of a vectorised scorer's pairs may take
MAX_INT_KEY_LENGTH = 39  # Wordle marks of up to 39 tokens fit a base-3 int64 key; longer: rows of marks
_NAME = re.compile(r"[A-Za-z0-9_]+")
_VARIANT = re.compile(r"[A-Za-z0-9_]+(-[A-Za-z0-9_]+)*")


class Mark(StrEnum):
    """A Wordle mark: right token in the right place, in the secret elsewhere, or not (any more)."""

    BULL = "bull"
    COW = "cow"
    MISS = "miss"


# -- the scorers ------------------------------------------------------------------------------

def _default_pair_bytes(length: int, n_tokens: int) -> int:
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
        score.pair_bytes = pair_bytes or _default_pair_bytes
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


def _repr(value: Any) -> str:
    """Return repr(value), fast for a tuple of Marks (repr of an Enum member runs Python code)."""
    if type(value) is tuple and len(value) > 1:
        try:
            return "(" + ", ".join(map(_MARK_REPR.__getitem__, map(id, value))) + ")"
        except KeyError:  # not all Marks
            pass
    return repr(value)


# -- tabulating a scoring function ------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class FunctionGame(Game):
    """A `Game` tabulated from a scoring function; `items` are the user's guesses in row order."""

    items: tuple = ()
    score: Score | None = None


def lookup_rule(guess: np.ndarray, target: np.ndarray) -> int:
    """Return the code the guess row stores for the target whose position the target row holds."""
    return guess[1 + target[0]]


def _frozen(value: Any) -> Any:
    """Return `value` with its lists and arrays (at any depth) turned into tuples."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(item) for item in value)
    return value


def _key(value: Any) -> Any:
    """Return `value` as a dict key: itself if hashable, else `_frozen` (TypeError if still unhashable)."""
    try:
        hash(value)
        return value
    except TypeError:
        return _frozen(value)


def _hashable(value: Any) -> bool:
    try:
        _key(value)
    except TypeError:
        return False
    return True


def _distinct(items: Iterable, what: str) -> dict:
    """Return {`_key` of item: item} of `items` in order, the first of equal ones; ValueError if unhashable."""
    out: dict = {}
    for item in items:
        try:
            out.setdefault(_key(item), item)
        except TypeError:
            raise ValueError(f"{what} must be sequences of hashable tokens, got {excerpt(item)}") from None
    return out


def _labels(items: Sequence) -> tuple[str, ...]:
    """Return a distinct text per item: a string itself, single-character tokens joined, else spaced."""
    def text(item: Any) -> str:
        if isinstance(item, str):
            return item
        tokens = [str(t) for t in item] if isinstance(item, (list, tuple)) else [str(item)]
        return ("" if all(len(t) == 1 for t in tokens) else " ").join(tokens)

    for make in (text, repr):
        labels = tuple(make(item) for item in items)
        if len(set(labels)) == len(labels):
            return labels
    raise ValueError("guesses must have distinct texts (repr) to be told apart")


def _identity(score: Score) -> str:
    """Return text standing for a function's behaviour: its name, code, defaults, closure, partial args."""
    if isinstance(score, partial):
        return f"partial({_identity(score.func)}, {score.args!r}, {sorted(score.keywords.items())!r})"
    if inspect.ismethod(score):
        return f"{_identity(score.__func__)} of {score.__self__!r}"
    name = f"{getattr(score, '__module__', '')}.{getattr(score, '__qualname__', type(score).__qualname__)}"
    code = getattr(score, "__code__", None)
    if code is None:  # a builtin or a callable object
        return f"{name} {score!r}"
    cells = []
    for cell in score.__closure__ or ():
        try:
            cells.append(cell.cell_contents)
        except ValueError:  # an empty cell
            cells.append(None)
    return (f"{name} {code.co_code.hex()} {code.co_consts!r} {code.co_names!r} "
            f"{score.__defaults__!r} {score.__kwdefaults__!r} {cells!r}")


def _token_rows(items: Sequence) -> tuple[np.ndarray, int] | None:
    """Return (int32[n, L] token numbers, number of tokens), or None unless the items are non-empty
    sequences of one length L of hashable tokens."""
    numbers: dict = {}
    try:
        rows = [[numbers.setdefault(token, len(numbers)) for token in item] for item in items]
    except TypeError:  # not iterable, or an unhashable token
        return None
    if not rows or len({len(row) for row in rows}) != 1 or not rows[0]:
        return None
    return np.array(rows, dtype=np.int32), len(numbers)


def _size(count: int) -> str:
    return f"{count / MB:.1f} MB" if count >= MB else f"{count} bytes"


def _blocks(n_guesses: int, n_targets: int, per_pair: int, what: str) -> Iterator[tuple[slice, slice]]:
    """Yield (guess rows, targets) blocks of at most BLOCK_BYTES of pairs at `per_pair` bytes each, in
    guess-major order (whole rows of targets when a row fits, else a row cut into pieces).
    ValueError stating the limits when a single pair takes more."""
    if per_pair > BLOCK_BYTES:
        raise ValueError(f"{what} needs {_size(per_pair)} per pair of sequences, more than the "
                         f"{_size(BLOCK_BYTES)} of a block (generic.BLOCK_BYTES): use shorter sequences")
    pairs = max(1, BLOCK_BYTES // max(1, per_pair))
    cut = min(n_targets, pairs)
    rows = max(1, pairs // n_targets) if cut == n_targets else 1
    for g in range(0, n_guesses, rows):
        for t in range(0, n_targets, cut):
            yield slice(g, g + rows), slice(t, t + cut)


def _first_pairs_by_keys(score: Score, items, target_index, out: np.ndarray) -> tuple[list, list | None] | None:
    """Fill `out` with codes from the vectorised form of `score`; return the first (row, target) of
    each code and, when the form has `score_of`, each code's score (else None); None if the items are
    no sequences of one length of hashable tokens. Blocks of pairs take at most BLOCK_BYTES (by the
    form's `pair_bytes`)."""
    tokens = _token_rows(items)
    if tokens is None:
        return None
    rows, n_tokens = tokens
    secrets = rows[target_index]
    n_targets, length = secrets.shape
    keys_of = score.vectorised
    per_pair = int(getattr(score, "pair_bytes", _default_pair_bytes)(length, n_tokens))
    what = f"the vectorised form of {excerpt(score)} on sequences of {length} tokens ({n_tokens} distinct)"
    index: dict = {}
    first: list[tuple[int, int]] = []
    row_type = None  # the dtype of a row key
    for guesses, targets in _blocks(rows.shape[0], n_targets, per_pair, what):
        keys = np.asarray(keys_of(secrets[targets], rows[guesses], n_tokens))
        width = keys.shape[1]
        if keys.ndim > 2:  # a row of numbers per pair: compared as its bytes
            flat = np.ascontiguousarray(keys.reshape(keys.shape[0] * width, -1))
            row_type = flat.dtype
            keys = flat.view(np.dtype((np.void, flat.shape[1] * flat.itemsize))).ravel()
            name = bytes
        else:
            keys = keys.ravel()
            name = int
        values, where, inverse = np.unique(keys, return_index=True, return_inverse=True)
        for i in np.argsort(where, kind="stable"):  # new codes in order of first appearance
            if index.setdefault(name(values[i]), len(index)) == len(first):
                first.append((guesses.start + int(where[i]) // width, targets.start + int(where[i]) % width))
        codes = np.array([index[name(v)] for v in values], dtype=np.int64)
        out[guesses, targets] = codes[inverse.ravel()].reshape(-1, width)
    score_of = getattr(score, "score_of", None)
    if score_of is None:
        return first, None
    return first, [score_of(key if row_type is None else np.frombuffer(key, row_type), length) for key in index]


def _first_pairs_by_calls(score: Score, items, targets, out: np.ndarray) -> tuple[list[tuple[int, int]], list]:
    """Fill `out` with codes from calls of `score`; return the first (row, target) of each code and
    the score it got there."""
    index: dict = {}
    first: list[tuple[int, int]] = []
    scores: list = []
    for g, guess in enumerate(items):
        row = []
        for t, secret in enumerate(targets):
            value = score(secret, guess)
            try:
                code = index.setdefault(_key(value), len(index))
            except TypeError:
                raise ValueError(f"scores must be hashable (lists are taken as tuples), got {excerpt(value)}") from None
            if code == len(first):
                first.append((g, t))
                scores.append(value)
            row.append(code)
        out[g] = row
    return first, scores


CHECKED_PAIRS = 64  # pairs scored again, beyond the first of each score, to catch a nondeterministic function


def _check_deterministic(score: Score, table: np.ndarray, first, scores: list, items, targets,
                         spread: bool) -> None:
    """Score again the first pair of each code (and, with `spread`, CHECKED_PAIRS pairs spread over
    the table, which the calls filled); raise ValueError naming a pair whose score changed from one
    call to the next."""
    n_guesses, n_targets = table.shape
    count = min(CHECKED_PAIRS, n_guesses * n_targets) if spread else 0
    others = np.linspace(0, n_guesses * n_targets - 1, count).astype(np.int64)
    for g, t in [*first, *((int(i) // n_targets, int(i) % n_targets) for i in others)]:
        again = score(targets[t], items[g])
        try:
            same = _key(again) == _key(scores[table[g, t]])
        except TypeError:  # unhashable this time
            same = False
        if not same:
            raise ValueError(f"the scoring function {excerpt(score)} is not deterministic: "
                             f"score({excerpt(targets[t])}, {excerpt(items[g])}) gave "
                             f"{excerpt(scores[table[g, t]])}, then {excerpt(again)}")


def _check_win(table: np.ndarray, target_index: np.ndarray, scores: list, items, targets) -> int:
    """Return the win code: the score of every target against itself, and of no other pair."""
    positions = np.arange(target_index.size)
    diagonal = table[target_index, positions]
    if (diagonal != diagonal[0]).any():
        t = int(np.flatnonzero(diagonal != diagonal[0])[0])
        raise ValueError(f"a correct guess must always score the same: score({excerpt(targets[0])}, itself) = "
                         f"{excerpt(scores[diagonal[0]])} but score({excerpt(targets[t])}, itself) = "
                         f"{excerpt(scores[diagonal[t]])}")
    wins = table == diagonal[0]
    wins[target_index, positions] = False
    if wins.any():
        g, t = (int(v[0]) for v in np.nonzero(wins))
        raise ValueError(f"only a correct guess may score {excerpt(scores[diagonal[0]])}, as does guess "
                         f"{excerpt(items[g])} against secret {excerpt(targets[t])}: the secret could never be told")
    return int(diagonal[0])


_GAMES: LRUCache[str, FunctionGame] = LRUCache(maxsize=CACHE_SIZE)  # content digest -> game
_GAMES_LOCK = threading.Lock()


def from_function(targets: Iterable, guesses: Iterable | None, score: Score, *, name: str = "custom",
                  variant: str | None = None, cache: bool = True) -> FunctionGame:
    """Return the game of ``score(secret, guess)`` over these targets and guesses (None: the targets).

    Repeated items count once; targets missing from the guesses are added to them. Scores are any
    hashable values (lists read as tuples); a correct guess scores the same for every secret, and
    no wrong guess scores that. The table is computed once: by the function's vectorised form
    (`vectorised`) if it has one and the items are sequences of one length of hashable tokens, else by calling `score`
    on every pair. `variant` defaults to a digest of the table (trees of different games never
    share a file). With `cache`, the same lists, name and function (code, defaults, closure, partial
    arguments; not the globals it reads) return the same game, not recomputed. ValueError on lists
    or scores that cannot make a game.
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"game name must be letters, digits or _, got {excerpt(name)}")
    if variant is not None and (not isinstance(variant, str) or not _VARIANT.fullmatch(variant)):
        raise ValueError(f"variant must be letters, digits, _ or inner -, got {excerpt(variant)}")
    secrets = _distinct(targets, "targets")
    if not secrets:
        raise ValueError("a game needs at least one target")
    pool = _distinct(secrets.values() if guesses is None else guesses, "guesses")
    for key, item in secrets.items():
        pool.setdefault(key, item)
    digest = hashlib.sha256(repr((name, variant, list(pool), list(secrets), _identity(score))).encode()).hexdigest()
    with _GAMES_LOCK:
        if cache and digest in _GAMES:
            return _GAMES[digest]  # marks it the most recently used
    game = _tabulate(list(pool.values()), list(secrets.values()), list(pool), list(secrets), score, name, variant)
    if cache:
        with _GAMES_LOCK:
            _GAMES[digest] = game
    return game


def _content_digest(table: np.ndarray, scores: list) -> str:
    """Return the sha256 of the table's bytes and repr(scores), the repr fed score by score (the
    whole text of long scores would take gigabytes)."""
    digest = hashlib.sha256(table.tobytes())
    digest.update(b"[")
    for number, value in enumerate(scores):
        digest.update(((", " if number else "") + _repr(value)).encode())
    digest.update(b"]")
    return digest.hexdigest()


@dataclass(frozen=True)
class _Encoder:
    """A tabulated game's `encode`: score -> code (a plain object, so that the game pickles)."""

    code_of: dict
    win: Any
    game: str

    def __call__(self, value: Any) -> int:
        try:
            code = self.code_of.get(_key(value))
        except TypeError:  # unhashable
            code = None
        if code is None:
            raise ValueError(f"not a score of {self.game}: {excerpt(value)} "
                             f"(a correct guess scores {excerpt(self.win)})")
        return code


def _tabulate(items: list, targets: list, item_keys: list, target_keys: list, score: Score, name: str,
              variant: str | None) -> FunctionGame:
    """Return the game of `score` over distinct guesses `items` and targets (a subset of them)."""
    if len(items) * len(targets) > MAX_PAIRS:
        raise ValueError(f"{len(items)} guesses x {len(targets)} targets is too large a table to compute "
                         f"(at most {MAX_PAIRS} pairs)")
    row_of = {key: i for i, key in enumerate(item_keys)}
    target_index = np.array([row_of[key] for key in target_keys], dtype=np.int64)
    rows = np.empty((len(items), len(targets) + 1), dtype=np.int32)
    rows[:, 0] = -1
    rows[target_index, 0] = np.arange(len(targets))
    table = rows[:, 1:]
    found = _first_pairs_by_keys(score, items, target_index, table) if hasattr(score, "vectorised") else None
    by_calls = found is None
    if by_calls:
        first, scores = _first_pairs_by_calls(score, items, targets, table)
    else:
        first, scores = found
        if scores is None:  # the function's own object per code
            scores = [score(targets[t], items[g]) for g, t in first]
    try:
        code_of = {_key(value): code for code, value in enumerate(scores)}
    except TypeError:
        raise ValueError(f"scores must be hashable (lists are taken as tuples), got "
                         f"{excerpt(next(v for v in scores if not _hashable(v)))}") from None
    if len(code_of) != len(scores):  # (never by calls) the scores of two codes are equal, or a call changed
        _check_deterministic(score, table, first, scores, items, targets, False)
        raise ValueError(f"the vectorised form of {excerpt(score)} tells apart equal scores: it does not match "
                         f"the function")
    if by_calls:
        _check_deterministic(score, table, first, scores, items, targets, True)
    if len(scores) > 1 << 16:
        raise ValueError(f"{len(scores)} distinct scores: a game has at most {1 << 16}")
    win = _check_win(table, target_index, scores, items, targets)
    labels = _labels(items)
    content = _content_digest(table, scores)
    variant = variant or hashlib.sha256(f"{content}|{labels}|{target_index.tolist()}".encode()).hexdigest()[:10]
    encode = _Encoder(code_of, scores[win], f"{name}-{variant}")

    return FunctionGame(
        name=name, variant=variant, rows=rows, labels=labels, target_index=target_index,
        n_codes=len(scores), rule=lookup_rule, win_code=win, decode=scores.__getitem__, encode=encode,
        rules_source=f"generic lookup table sha256:{content}", items=tuple(items), score=score)


# -- the players ----------------------------------------------------------------------------

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
