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
from collections import OrderedDict
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any, Callable, Generator, Iterable, Iterator, Sequence

import numpy as np

from solver.core.engine import Solver, get_solver
from solver.core.game import Game
from solver.core.limits import excerpt

Score = Callable[[Any, Any], Any]

CACHE_SIZE = 8  # tabulated games kept (each holds its table: 4 bytes per guess and target)
MAX_PAIRS = 1 << 28  # a larger table (1 GB of int32 rows) is refused rather than swapped
BLOCK_ELEMENTS = 1 << 22  # largest intermediate array of a vectorised block
_NAME = re.compile(r"[A-Za-z0-9_]+")
_VARIANT = re.compile(r"[A-Za-z0-9_]+(-[A-Za-z0-9_]+)*")


class Mark(StrEnum):
    """A Wordle mark: right token in the right place, in the secret elsewhere, or not (any more)."""

    BULL = "bull"
    COW = "cow"
    MISS = "miss"


# -- the scorers ------------------------------------------------------------------------------

def vectorised(keys: Callable[[np.ndarray, np.ndarray, int], np.ndarray]):
    """Return a decorator giving a scoring function its vectorised form, used by `from_function`.

    ``keys(secret_rows, guess_rows, n_tokens) -> int64[len(guess_rows), len(secret_rows)]`` reads
    the sequences as rows of token numbers (0 .. n_tokens-1, the same token the same number) and
    returns, for each pair, a number that is equal exactly when the scores are equal.
    """
    def attach(score: Score) -> Score:
        score.vectorised = keys
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


def _counts(rows: np.ndarray, n_tokens: int) -> np.ndarray:
    """Return int32[n, n_tokens]: how many times each token occurs in each row."""
    out = np.zeros((rows.shape[0], n_tokens), np.int32)
    np.add.at(out, (np.arange(rows.shape[0])[:, None], rows), 1)
    return out


def _bulls_cows_keys(secrets: np.ndarray, guesses: np.ndarray, n_tokens: int) -> np.ndarray:
    length = secrets.shape[1]
    bulls = (guesses[:, None, :] == secrets[None, :, :]).sum(-1, dtype=np.int64)
    matches = np.minimum(_counts(guesses, n_tokens)[:, None, :], _counts(secrets, n_tokens)[None, :, :]).sum(-1)
    return bulls * (length + 1) + matches - bulls


@vectorised(_bulls_cows_keys)
def score_bulls_cows(secret: Sequence, guess: Sequence) -> tuple[int, int]:
    """Return (bulls, cows): bulls are equal tokens in the same place, cows the other common tokens.

    Common tokens are counted as a multiset: no secret token is matched twice (Mastermind's black
    and white pegs with repeated colours).
    """
    secret, guess = _pair(secret, guess)
    bulls = sum(bool(s == g) for s, g in zip(secret, guess))
    pool = list(secret)
    matches = sum(_pluck(g, pool) for g in guess)
    return bulls, matches - bulls


def _wordle_keys(secrets: np.ndarray, guesses: np.ndarray, n_tokens: int) -> np.ndarray:
    length = secrets.shape[1]
    same = guesses[:, None, :, None] == secrets[None, :, None, :]  # [g, s, guess pos i, secret pos k]
    bull = np.diagonal(same, axis1=2, axis2=3)  # [g, s, i]
    # secret tokens left for cows at each guess position, and earlier non-bull copies of its token
    available = (same & ~bull[:, :, None, :]).sum(-1)
    earlier = (guesses[:, :, None] == guesses[:, None, :]) & np.tri(length, k=-1, dtype=bool)  # [g, i, j<i]
    rank = (earlier[:, None, :, :] & ~bull[:, :, None, :]).sum(-1)
    marks = 2 * bull + (~bull & (rank < available))  # left to right, cows while tokens remain
    return (marks * 3 ** np.arange(length, dtype=np.int64)).sum(-1)


@vectorised(_wordle_keys)
def score_wordle(secret: Sequence, guess: Sequence) -> tuple[Mark, ...]:
    """Return one `Mark` per guess position: bulls first, then cows left to right while unused
    secret tokens remain, the rest misses ("alpha" vs "aaabb": BULL, COW, MISS, MISS, MISS)."""
    secret, guess = _pair(secret, guess)
    pool = [s for s, g in zip(secret, guess) if s != g]
    return tuple(Mark.BULL if s == g else Mark.COW if _pluck(g, pool) else Mark.MISS
                 for s, g in zip(secret, guess))


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


def _first_pairs_by_keys(keys_of, items, target_index, out: np.ndarray) -> list[tuple[int, int]] | None:
    """Fill `out` with codes from the vectorised `keys_of`; return the first (row, target) of each code."""
    tokens = _token_rows(items)
    if tokens is None:
        return None
    rows, n_tokens = tokens
    secrets = rows[target_index]
    n_targets, length = secrets.shape
    block = max(1, BLOCK_ELEMENTS // (n_targets * length * max(length, n_tokens)))
    index: dict[int, int] = {}
    first: list[tuple[int, int]] = []
    for start in range(0, rows.shape[0], block):
        keys = np.asarray(keys_of(secrets, rows[start:start + block], n_tokens)).ravel()
        values, where, inverse = np.unique(keys, return_index=True, return_inverse=True)
        for i in np.argsort(where, kind="stable"):  # new codes in order of first appearance
            if index.setdefault(int(values[i]), len(index)) == len(first):
                first.append((start + int(where[i]) // n_targets, int(where[i]) % n_targets))
        codes = np.array([index[int(v)] for v in values], dtype=np.int64)
        out[start:start + block] = codes[inverse.ravel()].reshape(-1, n_targets)
    return first


def _first_pairs_by_calls(score: Score, items, targets, out: np.ndarray) -> list[tuple[int, int]]:
    """Fill `out` with codes from calls of `score`; return the first (row, target) of each code."""
    index: dict = {}
    first: list[tuple[int, int]] = []
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
            row.append(code)
        out[g] = row
    return first


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


_GAMES: OrderedDict[str, FunctionGame] = OrderedDict()  # content digest -> game, least recently used first
_GAMES_LOCK = threading.Lock()


def from_function(targets: Iterable, guesses: Iterable | None, score: Score, *, name: str = "custom",
                  variant: str | None = None, cache: bool = True) -> FunctionGame:
    """Return the game of ``score(secret, guess)`` over these targets and guesses (None: the targets).

    Repeated items count once; targets missing from the guesses are added to them. Scores are any
    hashable values (lists read as tuples); a correct guess scores the same for every secret, and
    no wrong guess scores that. The table is computed once: by `score.vectorised` if the function
    has one and the items are sequences of one length of hashable tokens, else by calling `score`
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
            _GAMES.move_to_end(digest)
            return _GAMES[digest]
    game = _tabulate(list(pool.values()), list(secrets.values()), list(pool), list(secrets), score, name, variant)
    if cache:
        with _GAMES_LOCK:
            _GAMES[digest] = game
            while len(_GAMES) > CACHE_SIZE:
                _GAMES.popitem(last=False)
    return game


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
    keys_of = getattr(score, "vectorised", None)
    first = _first_pairs_by_keys(keys_of, items, target_index, table) if keys_of is not None else None
    if first is None:
        first = _first_pairs_by_calls(score, items, targets, table)
    scores = [score(targets[t], items[g]) for g, t in first]  # the function's own object per code
    code_of = {_key(value): code for code, value in enumerate(scores)}
    if len(code_of) != len(scores):
        raise RuntimeError(f"the vectorised form of {excerpt(score)} tells apart equal scores")
    if len(scores) > 1 << 16:
        raise ValueError(f"{len(scores)} distinct scores: a game has at most {1 << 16}")
    win = _check_win(table, target_index, scores, items, targets)
    labels = _labels(items)
    content = hashlib.sha256(table.tobytes() + repr(scores).encode()).hexdigest()
    variant = variant or hashlib.sha256(f"{content}|{labels}|{target_index.tolist()}".encode()).hexdigest()[:10]

    def encode(value: Any) -> int:
        try:
            code = code_of.get(_key(value))
        except TypeError:  # unhashable
            code = None
        if code is None:
            raise ValueError(f"not a score of {name}-{variant}: {excerpt(value)} "
                             f"(a correct guess scores {excerpt(scores[win])})")
        return code

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
