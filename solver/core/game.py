"""The shape every game shares: encoded guesses, targets and one feedback rule.

A game variant is a `Game`: an integer matrix of encoded guesses (one row per allowed guess, in the
layout its rule reads), the indices of the guesses that can be targets, and a *rule*: a plain
Python function ``rule(guess_row, target_row) -> int`` written in the subset of Python that Numba
compiles. The same function object serves three callers without being written twice:

* the runtime calls it directly (pure Python, no compilation) to score a single pair;
* `solver.core.scoring` compiles it lazily with ``numba.njit`` and maps it over whole matrices;
* the tests compare it with a naive reference written from the specification.

Feedback codes are dense integers ``0 <= code < n_codes`` (a mixed-radix number of the feedback
fields); ``decode``/``encode`` convert between a code and the game's public feedback value.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Callable, Sequence

import numpy as np

from solver.core.bounded_input import excerpt

Rule = Callable[[np.ndarray, np.ndarray], int]


@dataclass(frozen=True, eq=False)
class Game:
    """One game variant: what can be guessed, what can be hidden, and how it is scored."""

    name: str
    variant: str
    rows: np.ndarray  # int32[G, W]: encoded guesses, the layout `rule` reads
    labels: tuple[str, ...]  # text of each guess, same order as `rows`
    target_index: np.ndarray  # int64[T]: row of each possible target in `rows`
    n_codes: int  # feedback codes are 0 .. n_codes-1
    rule: Rule
    win_code: int  # the code a guess receives when it is the target
    decode: Callable[[int], Any]
    encode: Callable[[Any], int]
    rules_source: str = ""  # identifies the rule's implementation (for artifact freshness)
    # Optional: restricts the guesses allowed after a history (hard mode); None = all allowed.
    allowed: Callable[["Game", Sequence[tuple[int, int]]], np.ndarray] | None = None
    # Optional: guess rows representing every guess up to a symmetry of the game (e.g. permuting
    # suits); scoring them suffices where all targets are still possible.
    representatives: Callable[[], np.ndarray] | None = None
    # Optional: given the guess rows of a history (their feedback does not matter), the guess rows
    # one per class of guesses equivalent under the game's symmetries that fix every guess of the
    # history (sorted; see `solver.core.symmetry`); scoring them suffices at any node the history
    # reaches. None: no symmetry known. Not part of the fingerprint.
    canonical: Callable[[Sequence[int]], np.ndarray] | None = None
    # What a feedback says, for prompts and help: its fields in order, then what each one counts.
    feedback_help: str = ""
    # The name messages show users ("wordle hard", "cards n3"); default: the name, then the
    # variant unless it is "default". `key` stays the name of files and caches.
    title: str = ""
    # The most guesses the game allows (Wordle: 6), which exact values count within; None: no limit.
    # Not part of the fingerprint.
    max_guesses: int | None = None
    # Optional: the game's symmetries with what each does to the feedback, those that change it included
    # (cards: reversing the ranks swaps "lower" and "higher"): (row_maps int64[K, G], code_maps int64[K,
    # n_codes]), the identity first, with rule(row_maps[k, g], row_maps[k, t]) == code_maps[k, rule(g, t)]
    # for every guess g and target t, targets mapped onto targets. A first guess and its images then have
    # the same value (`pipeline.campaign` runs one of them). None: none known. Not part of the fingerprint.
    feedback_symmetries: Callable[[], tuple[np.ndarray, np.ndarray]] | None = None
    _positions: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.rows.setflags(write=False)
        self.target_index.setflags(write=False)
        if not self.title:
            object.__setattr__(self, "title", self.name if self.variant == "default" else f"{self.name} {self.variant}")

    def made_by(self, factory: Callable[..., "Game"], *args: Any) -> "Game":
        """Record that this game is ``factory(*args)`` (a module-level function: the game modules'
        `game`) and return it. A pickle of the game (a state sent to a web worker or a Dask task)
        then holds that call, not the rule's closures, which the standard pickler cannot send;
        the receiving process calls it (its cache returns the same object there). Not an attribute
        that `dataclasses.replace` copies: a game derived from this one is pickled field by field."""
        object.__setattr__(self, "_made_by", (factory, args))
        return self

    def __reduce_ex__(self, protocol: int):
        made_by = self.__dict__.get("_made_by")
        return made_by if made_by is not None else super().__reduce_ex__(protocol)

    def __setstate__(self, state: dict) -> None:
        """Restore a game pickled field by field (its arrays read-only again, as built)."""
        self.__dict__.update(state)
        self.rows.setflags(write=False)
        self.target_index.setflags(write=False)

    @property
    def key(self) -> str:
        """Return ``name-variant``, the name artifacts and caches use."""
        return f"{self.name}-{self.variant}"

    @property
    def n_guesses(self) -> int:
        return int(self.rows.shape[0])

    @property
    def n_targets(self) -> int:
        return int(self.target_index.shape[0])

    @property
    def code_dtype(self) -> np.dtype:
        """Return uint8 when every code fits in a byte, else uint16."""
        return np.dtype(np.uint8 if self.n_codes <= 256 else np.uint16)

    def index_of(self, label: str) -> int:
        """Return the row of a guess given its canonical text; KeyError if it is not allowed."""
        if not self._positions:  # built on first use: 35 MB for the 270725 guesses of cards n4
            self._positions.update({text: i for i, text in enumerate(self.labels)})
        return self._positions[label]

    def code(self, guess: int, target: int) -> int:
        """Return the feedback code of guess row `guess` against guess row `target` (pure Python)."""
        return int(self.rule(self.rows[guess], self.rows[target]))

    def fingerprint(self) -> str:
        """Return a sha256 over the lists and the rule source: changes when either changes."""
        digest = hashlib.sha256()
        digest.update(f"{self.name}|{self.variant}|{self.n_codes}|".encode())
        digest.update("\n".join(self.labels).encode())
        digest.update(self.target_index.tobytes())
        digest.update(self.rules_source.encode())
        return digest.hexdigest()


def mixed_radix(fields: Sequence[int], base: int) -> int:
    """Return the code of `fields` read as digits of `base`, first field most significant."""
    code = 0
    for value in fields:
        code = code * base + int(value)
    return code


def digits(code: int, base: int, count: int) -> tuple[int, ...]:
    """Return the `count` digits of `code` in `base`, most significant first."""
    out = []
    for _ in range(count):
        code, digit = divmod(code, base)
        out.append(digit)
    return tuple(reversed(out))


def is_integer(value: Any) -> bool:
    """Return whether `value` is an int or a NumPy integer, but not a bool (True is not 1 here)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def sequence_items(value: Any, count: int | None = None) -> tuple | None:
    """Return the items of a sequence (list, tuple, array, iterator), or None if `value` is not one.

    Strings, bytes, mappings and sets are not sequences here (a dict would give its keys, a set
    its items in no fixed order). With `count`, at most count + 1 items are taken (enough to see
    that there are too many), so that an endless iterator cannot hang the caller.
    """
    if isinstance(value, (str, bytes, bytearray, Mapping, Set)):
        return None
    try:
        iterator = iter(value)
    except TypeError:
        return None
    try:
        return tuple(iterator if count is None else islice(iterator, count + 1))
    except Exception:  # noqa: BLE001 - an iterator failing midway: not a usable sequence
        return None


def check_feedback(fields: Any, count: int, limit: int, what: str) -> tuple[int, ...]:
    """Return `fields` as a tuple of `count` ints in 0..limit, or raise ValueError naming it.

    `fields` is a sequence (list, tuple, 1-D array) of ints or NumPy integers; bools, floats,
    strings, mappings and sets are refused.
    """
    values = sequence_items(fields, count)
    if values is None or len(values) != count or not all(is_integer(v) for v in values):
        raise ValueError(f"{what} feedback must be a sequence of {count} integers, got {excerpt(fields)}")
    if any(v < 0 or v > limit for v in values):
        raise ValueError(f"{what} feedback values must lie in 0..{limit}, got {excerpt(fields)}")
    return tuple(int(v) for v in values)


def unique_tokens(tokens: Sequence[Any], count: int | None, what: str) -> None:
    """Raise ValueError if `tokens` has the wrong length or repeats an item (naming it)."""
    if count is not None and len(tokens) != count:
        raise ValueError(f"expected {count} {what}s, got {len(tokens)}")
    seen = set()
    for token in tokens:
        if token in seen:
            raise ValueError(f"duplicate {what}: {token}")
        seen.add(token)
