"""The least worst case of a game: the fewest guesses within which some tree finishes every target.

A feasibility search (`SearchOptions.first`: each node stops at its first guess that finishes its
set) over every first guess, for r = 1, 2, ... guesses: the first r where the root's value is finite
is the least worst case, proven: for r - 1 the search tried every allowed guess at every node (prove
mode) and none finished. Proving an r too few can take hours (each first guess needs a class that no
guess finishes in time); within a work budget, the rest is a top-k feasibility search, whose r is an
upper bound beside the proven lower one. Hard mode is where this matters: a family such as Wordle's
-ILL words, whose greens every later guess must keep, forces guesses one word at a time.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from solver.core.game import Game
from solver.core.search.engine import INF, Searcher, SearchOptions


@dataclass(frozen=True)
class WorstCase:
    """Within how many guesses the tree keeps every target, and how far that is proven."""

    guesses: int  # a tree (opening with `opener`) finishes every target within this many
    lower: int  # proven: no tree finishes every target within fewer (== guesses: the least worst case)
    opener: int  # a first guess row whose tree keeps within `guesses`
    seconds: float
    work: int  # (guess, target) pairs scored

    @property
    def proven(self) -> bool:
        return self.lower == self.guesses


class NoTreeWithin(RuntimeError):
    """No tree finishes every target within the cap."""


def least_worst_case(game: Game, table: np.ndarray, cap: int, work: int | None = None, k: int = 10,
                     memo_bits: int = 22) -> WorstCase:
    """Return the least number of guesses (<= `cap`) within which a tree finishes every target.

    Each r is searched over every guess while the work (guess, target pairs scored) allows: an r that
    fails is proven too few. When the work runs out first (`work`; None: no limit), the rest is a
    top-`k` feasibility search: its r is an upper bound, and the `lower` of the result says what is
    proven. Raises `NoTreeWithin` when no tree keeps within `cap` (if only top-k says so, it is not proven).
    """
    start = time.perf_counter()
    positions = np.arange(game.n_targets, dtype=np.int32)
    prover = Searcher(game, table, SearchOptions(max_guesses=cap, memo_bits=memo_bits, first=True))
    lower = 1
    for r in range(1, cap + 1):  # one memo for every r: its keys include the guesses left
        found = prover.value(positions, r) if work is None else prover.bounded_value(positions, r, work)
        if found is None:
            break
        value, guess = found
        if value < INF:
            return WorstCase(r, r, guess, time.perf_counter() - start, prover.work)
        lower = r + 1
    if lower > cap:
        raise NoTreeWithin(f"{game.title}: no tree finishes every target within {cap} guesses")
    finder = Searcher(game, table, SearchOptions(mode="top-k", k=k, max_guesses=cap, memo_bits=memo_bits, first=True))
    for r in range(lower, cap + 1):
        value, guess = finder.value(positions, r)
        if value < INF:
            return WorstCase(r, lower, guess, time.perf_counter() - start, prover.work + finder.work)
    raise NoTreeWithin(f"{game.title}: the top-{k} search finds no tree within {cap} guesses "
                       f"(at least {lower} are needed)")
