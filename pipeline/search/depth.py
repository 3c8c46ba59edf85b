"""The least worst case of a game: the fewest guesses within which some tree finishes every target.

A feasibility search (`SearchOptions.first`: each node stops at its first guess that finishes its
set). A top-k one finds a number of guesses that suffices; the one over every guess (prove mode)
then asks whether one fewer does, until one fails: that failure is a proof (every allowed guess was
tried at every node), so the least worst case is the last that succeeded. Refuting can take hours
(each first guess needs a class that no guess finishes in time); within a work budget, a question
left open leaves the result an upper bound beside the proven lower one. Hard mode is where this
matters: a family such as Wordle's -ILL words, whose greens every later guess must keep, forces
guesses one word at a time.
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

    A top-`k` feasibility search first finds some r that suffices (an upper bound, fast); then the
    search over every guess asks whether r - 1, r - 2, ... do: one that does lowers r, the first that
    fails proves the rest too few (fewer guesses never finish what more cannot). Each question may
    score `work` (guess, target) pairs (None: no limit); one that runs out leaves its r unproven, and
    the result's `lower` says what is proven. Raises `NoTreeWithin` when no tree keeps within `cap`
    (with a work limit, only when the full search says so; the top-k search alone proves nothing).
    """
    start = time.perf_counter()
    positions = np.arange(game.n_targets, dtype=np.int32)
    finder = Searcher(game, table, SearchOptions(mode="top-k", k=k, max_guesses=cap, memo_bits=memo_bits, first=True))
    prover = Searcher(game, table, SearchOptions(max_guesses=cap, memo_bits=memo_bits, first=True))
    guesses, opener = cap + 1, -1
    for r in range(1, cap + 1):  # one memo for every r: its keys include the guesses left
        value, guess = finder.value(positions, r)
        if value < INF:
            guesses, opener = r, guess
            break
    lower = 1
    for r in range(min(guesses, cap + 1) - 1, 0, -1):
        found = prover.value(positions, r) if work is None else prover.bounded_value(positions, r, work)
        if found is None:
            continue  # out of work: unproven; a smaller r is cheaper to refute
        value, guess = found
        if value >= INF:
            lower = r + 1
            break
        guesses, opener = r, guess
    if guesses > cap:
        if lower <= cap:
            raise NoTreeWithin(f"{game.title}: the top-{k} search finds no tree within {cap} guesses "
                               f"(at least {lower} are needed)")
        raise NoTreeWithin(f"{game.title}: no tree finishes every target within {cap} guesses")
    return WorstCase(guesses, lower, opener, time.perf_counter() - start, prover.work + finder.work)
