"""The least worst case of a game: the fewest guesses within which some tree finishes every target.

A feasibility search (`SearchOptions.first`: each node stops at its first guess that finishes its
set). A top-k one finds a number of guesses that suffices; the one over every guess (prove mode)
then asks whether one fewer does, until one fails: that failure is a proof (every allowed guess was
tried at every node), so the least worst case is the last that succeeded. Refuting can take hours
(each first guess needs a class that no guess finishes in time); within a work budget, a question
left open leaves the result an upper bound beside the proven lower one. Hard mode is where this
matters: a family such as Wordle's -ILL words, whose greens every later guess must keep, forces
guesses one word at a time.

Three guesses have an exact test of their own (`three_suffice`), far cheaper than the search: a
first guess keeps within three exactly when each of its classes has an allowed second guess whose
feedback tells all of the class's targets apart; refuting a first guess takes one class for which none
does, tried from the largest, each second guess given up on at its first repeated feedback.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from solver.core.game import Game
from solver.core.search.searcher import INF, Searcher, SearchOptions


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


@njit(cache=True)
def _separating_guess(table, guesses, positions, stamp, epoch):
    """Return (the first of `guesses` whose feedback codes on `positions` all differ, or -1; the last
    epoch used; (guess, target) pairs scored). `stamp[code] == epoch` marks a code already seen under
    the guess being tried."""
    scored = 0
    for gi in range(guesses.shape[0]):
        g = guesses[gi]
        epoch += 1
        apart = True
        for pi in range(positions.shape[0]):
            code = table[g, positions[pi]]
            scored += 1
            if stamp[code] == epoch:
                apart = False
                break
            stamp[code] = epoch
        if apart:
            return g, epoch, scored
    return -1, epoch, scored


def three_suffice(game: Game, table: np.ndarray) -> tuple[bool, int, int]:
    """Return (whether some tree finishes every target within 3 guesses, a first guess row doing it
    or -1, (guess, target) pairs scored). Exact: the second guess may be any allowed one (hard mode:
    one consistent with the first's feedback), the third must then be the answer."""
    searcher = Searcher(game, table, SearchOptions(max_guesses=3, memo_bits=10))
    positions = np.arange(game.n_targets, dtype=np.int64)
    stamp, epoch, work = np.zeros(game.n_codes, np.int64), 0, 0
    for first in range(table.shape[0]):
        classes = sorted(searcher.split(first, positions), key=lambda c: -c[1].size)
        refuted = False
        for code, group in classes:
            if group.size <= 2:
                break  # one of the two, played second, tells them apart
            if group.size > game.n_codes:
                refuted = True
                break
            guesses, _ = searcher.allowed_after(((first, code),))
            row, epoch, scored = _separating_guess(table, guesses.astype(np.int64), group, stamp, epoch)
            work += scored
            if row < 0:
                refuted = True
                break
        if not refuted:
            return True, first, work
    return False, -1, work


FINDER_STAGES = tuple(10 ** e for e in range(5, 12))  # pairs a class may score, stage by stage: 1e5 .. 1e11


def finishing_opener(game: Game, table: np.ndarray, r: int, work: int, seed: int = 0,
                     memo_bits: int = 22) -> tuple[int, int, bool]:
    """Return (a first guess row below which some tree finishes every class within `r` - 1 more
    guesses, or -1 if none was found within `work` (guess, target) pairs; the pairs scored; whether
    every first guess was proven to leave a class unfinishable, so that `r` guesses do not suffice).

    First guesses are tried one at a time, in a fixed shuffled order (`seed`): the search's own order
    begins with the common letters, whose greens lock hard mode into families such as -ILL, and
    refuting such a guess can take minutes. For each, its classes, most constrained first (targets
    per allowed guess), get feasibility searches over every guess with 1e5, 1e6, ... pairs each: one
    proven unfinishable drops the guess, all finished return it. A guess still open at 1e11 pairs a
    class is left for the next. Finding is cheap where refuting is not: 4 of 60 random 4-letter
    hard-mode guesses finish within 7 guesses (WHAM, BOWS, PUBS, DHAK), and with seed 0 the 219th
    guess tried, BAMS, after 3.6e10 pairs (146 s on one core), where the search over every guess ran
    out of 6e10 pairs without an answer. Refuting every guess is a proof too: within 6, 1.7e10 pairs
    (121 s), where the search over every guess takes 3.9e10 (160 s)."""
    searcher = Searcher(game, table, SearchOptions(max_guesses=r, memo_bits=memo_bits, first=True))
    positions = np.arange(game.n_targets, dtype=np.int32)
    all_refuted = True
    for row in np.random.default_rng(seed).permutation(game.n_guesses):
        classes = []
        for code, group in searcher.split(int(row), positions):
            if code != game.win_code:
                guesses, ghash = searcher.allowed_after(((int(row), code),))
                classes.append((group, guesses, ghash))
        classes.sort(key=lambda c: -c[0].size / max(c[1].size, 1))
        finished = [False] * len(classes)
        refuted = False
        for stage in FINDER_STAGES:
            for i, (group, guesses, ghash) in enumerate(classes):
                if finished[i]:
                    continue
                left = work - searcher.work
                if left <= 0:
                    return -1, searcher.work, False
                found = searcher.bounded_value(group, r - 1, min(stage, left), guesses, ghash)
                if found is None:
                    continue
                finished[i] = found[0] < INF
                if not finished[i]:
                    refuted = True
                    break
            if refuted or all(finished):
                break
        if all(finished):
            return int(row), searcher.work, False
        all_refuted &= refuted
    return -1, searcher.work, all_refuted


def least_worst_case(game: Game, table: np.ndarray, cap: int, work: int | None = None, k: int = 10,
                     memo_bits: int = 22, find_work: int = 0) -> WorstCase:
    """Return the least number of guesses (<= `cap`) within which a tree finishes every target.

    A top-`k` feasibility search first finds some r that suffices (an upper bound, fast); then the
    search over every guess asks whether r - 1, r - 2, ... do: one that does lowers r, the first that
    fails proves the rest too few (fewer guesses never finish what more cannot). Each question may
    score `work` (guess, target) pairs (None: no limit); one that runs out leaves its r unproven, and
    the result's `lower` says what is proven. With `find_work`, each question first looks for a first
    guess that does within that many pairs (`finishing_opener`): a "yes" found so, or a "no" for
    every first guess, needs no search over every first guess. Raises `NoTreeWithin` when no tree keeps within `cap`
    (with a work limit, only when the full search says so; the top-k search alone proves nothing).
    """
    start = time.perf_counter()
    positions = np.arange(game.n_targets, dtype=np.int32)
    finder = Searcher(game, table, SearchOptions(mode="top-k", k=k, max_guesses=cap, memo_bits=memo_bits, first=True))
    prover = Searcher(game, table, SearchOptions(max_guesses=cap, memo_bits=memo_bits, first=True))
    guesses, opener, spent = cap + 1, -1, 0
    for r in range(1, cap + 1):  # one memo for every r: its keys include the guesses left
        value, guess = finder.value(positions, r)
        if value < INF:
            guesses, opener = r, guess
            break
    lower = 1
    for r in range(min(guesses, cap + 1) - 1, 0, -1):
        if r == 3:  # the exact test of three guesses (`three_suffice`), no work limit needed
            suffice, first, scored = three_suffice(game, table)
            spent += scored
            found = (0 if suffice else INF, first)
        else:
            found = None
            if find_work:
                row, scored, refuted = finishing_opener(game, table, r, find_work, memo_bits=memo_bits)
                spent += scored
                found = (0, row) if row >= 0 else (INF, -1) if refuted else None
            if found is None:
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
    return WorstCase(guesses, lower, opener, time.perf_counter() - start, prover.work + finder.work + spent)
