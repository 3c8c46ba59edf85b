"""Tabulating a scoring function: `from_function(targets, guesses, score)` makes a `solver.core.game.Game`
of any scoring function, so that `Solver`, the tree builders and the live fallback play a user's own game;
the table is cached by content in this process.

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
from dataclasses import dataclass
from functools import partial
from typing import Any, Iterable, Iterator, Sequence

import numpy as np
from cachetools import LRUCache

from solver.core.bounded_input import excerpt
from solver.core.game import Game
from solver.games.generic_scores import Score, default_pair_bytes, score_repr

CACHE_SIZE = 8  # tabulated games kept (each holds its table: 4 bytes per guess and target)
MAX_PAIRS = 1 << 28  # a larger table (1 GB of int32 rows) is refused rather than swapped
MB = 1 << 20
BLOCK_BYTES = 64 * MB  # the most memory one block of a vectorised scorer's pairs may take
_NAME = re.compile(r"[A-Za-z0-9_]+")
_VARIANT = re.compile(r"[A-Za-z0-9_]+(-[A-Za-z0-9_]+)*")


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
                         f"{_size(BLOCK_BYTES)} of a block (solver.games.tabulation.BLOCK_BYTES): use shorter "
                         "sequences")
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
    per_pair = int(getattr(score, "pair_bytes", default_pair_bytes)(length, n_tokens))
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
        digest.update(((", " if number else "") + score_repr(value)).encode())
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
