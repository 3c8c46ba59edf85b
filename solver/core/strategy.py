"""The guess-choosing rule shared by the tree builder and the live solver.

Greedy rule: among the allowed guesses, play the one minimising the expected number of remaining
candidates, i.e. the sum of squared class sizes of the partition it induces (divided by the number
of candidates). Ties go to a guess that is still a candidate (it may win at once), then to the
lowest guess row, so that the pipeline and the runtime always pick the same guess.

The live solver (`choose_live`) applies the same rule within a budget of work: it scores the guesses
in chunks, most promising first (see `live_pool`), at most LIVE_PAIRS (guess, candidate) pairs per
second of the budget, and plays the best guess scored. It scores one guess per symmetry class where
the game knows its symmetries (the same guess as scoring them all), and a fixed-seed sample of the
pool where the pool is huge (cards n=4). So its choice depends on the state and the budget only, not
on the machine's speed or load: the wall clock stops it only at `safety_seconds(budget)`, a
safety net for a machine far slower or busier than usual (then the choice is timing's: logged).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from solver.core.defaults import LIVE_BUDGET, SAFETY_FACTOR, SAFETY_MIN_SECONDS
from solver.core.game import Game

STRATEGY = "greedy-expected-size"

# (guess, candidate) pairs scored per second of budget: the greedy rule's work, the same on every machine
# (about 0.2 s of the card rule's kernel on two cores, 0.07 s of Wordle's)
LIVE_PAIRS = 10_000_000


def safety_seconds(budget: float) -> float:
    """Return the wall-clock seconds after which a live choice of `budget` seconds of work is stopped
    (the safety net: SAFETY_FACTOR times the budget, at least SAFETY_MIN_SECONDS; math.inf stays)."""
    return max(SAFETY_FACTOR * budget, SAFETY_MIN_SECONDS) if budget > 0 else 0.0
SCORING_SHARE = 0.9  # of the safety net's time, for scoring; the rest absorbs a slow chunk and building the pool
HUGE_POOL = 100_000  # guesses: games with more are scored on a sample (only cards n=4: 270725 hands)
SAMPLE_SIZE = 1000  # most guesses sampled from a huge pool (as the cards n=4 tree's pool_sample)
SAMPLE_PAIRS = 16_000_000  # (guess, candidate) pairs: the most work a sampled pool may take
LEAD_PAIRS = 4_000_000  # (guess, candidate) pairs: candidates are scored first when they take at most this
FIRST_CHUNK_PAIRS = 1_000_000  # (guess, candidate) pairs scored before the speed is known
CHUNK_PAIRS = 2_000_000  # (guess, candidate) pairs of each later chunk (smaller only to end by the safety net)
MIN_CHUNK = 4  # guesses: a chunk keeps every kernel worker busy
SAMPLE_SEED = 20261130  # with the state: the same state always gets the same sample and order


def candidate_mask(game: Game, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
    """Return, for each guess row in `guesses`, whether it is one of the candidate targets."""
    return np.isin(guesses, game.target_index[candidates])


def pick(sum_sq: np.ndarray, is_candidate: np.ndarray) -> int:
    """Return the position (into the scored guesses) of the best guess by the greedy rule."""
    # Lexicographic (sum_sq, not candidate, position): doubled score plus a candidate bonus.
    key = sum_sq.astype(np.int64) * 2 + (~is_candidate)
    return int(np.argmin(key))


def allowed_guesses(game: Game, history) -> np.ndarray:
    """Return the guess rows allowed after `history` of (guess row, code): all, or hard mode's."""
    if game.allowed is None or not history:
        return np.arange(game.n_guesses, dtype=np.int64)
    return np.flatnonzero(game.allowed(game, history)).astype(np.int64)


def choose(game: Game, candidates: np.ndarray, history=(), table: np.ndarray | None = None,
           guesses: np.ndarray | None = None) -> tuple[int, np.ndarray]:
    """Return (guess row, sum_sq of the scored guesses) for a state with these candidate targets.

    `candidates` are positions in the game's target list; `table` (codes[all guesses, all
    targets]) makes scoring a lookup, otherwise the rule is evaluated by the Numba kernel.
    `guesses` restricts the pool (default: every guess allowed after `history`).
    """
    if len(candidates) <= 2:
        return int(game.target_index[candidates[0]]), np.empty(0, np.int64)
    from solver.core import scoring  # compile-time cost only on the compute path

    pool = allowed_guesses(game, history) if guesses is None else guesses
    if table is not None:
        sum_sq, _ = scoring.partition_scores(game, pool, candidates, table=table)
    else:
        sum_sq, _ = scoring.partition_scores(game, pool, game.target_index[candidates])
    best = pick(sum_sq, candidate_mask(game, candidates, pool))
    return int(pool[best]), sum_sq


# -- the live choice: the same rule within a time budget ----------------------------------------
def symmetry_pool(game: Game, history) -> np.ndarray:
    """Return the sorted guess rows worth scoring after `history`: one per symmetry class.

    Guesses of one class (under the symmetries fixing every guess so far) have the same score and
    are all candidates or none, and each class is represented by its lowest row, so the greedy
    rule picks the same guess from these as from every allowed guess. Without known symmetries
    (or with hard mode's restriction) this is every allowed guess.
    """
    if game.allowed is None:
        if game.canonical is not None:
            return np.asarray(game.canonical([row for row, _ in history]), dtype=np.int64)
        if game.representatives is not None and not history:
            return np.asarray(game.representatives(), dtype=np.int64)
    return allowed_guesses(game, history)


def live_pool(game: Game, candidates: np.ndarray, history=()) -> np.ndarray:
    """Return the guess rows the live choice scores, in the order it scores them (no repeats).

    First the candidates in `symmetry_pool` when scoring them takes at most LEAD_PAIRS pairs (so
    that a budget cut still leaves the best candidate), then the other rows of that pool in a
    fixed-seed random order (a cut then leaves a spread of the pool, not its first rows). In a
    game of more than HUGE_POOL guesses, the other rows are a fixed-seed sample of at most
    SAMPLE_SIZE rows, and of SAMPLE_PAIRS pairs of work with the candidates: deterministic work.
    """
    base = symmetry_pool(game, history)
    n = int(candidates.size)
    is_candidate = candidate_mask(game, candidates, base)
    lead = base[is_candidate] if n * n <= LEAD_PAIRS else base[:0]
    rest = base[~is_candidate] if lead.size else base
    rng = np.random.default_rng([SAMPLE_SEED, len(history), int(candidates[0]), n])
    if game.n_guesses > HUGE_POOL:
        room = max(1, SAMPLE_PAIRS // n - lead.size)
        rest = np.sort(rng.choice(rest, size=min(SAMPLE_SIZE, room, rest.size), replace=False))
    else:
        rest = rng.permutation(rest)
    return np.concatenate([lead, rest])


@dataclass(frozen=True)
class LiveChoice:
    """The outcome of `choose_live`: the guess row to play and how much of the pool was scored."""

    guess: int
    scored: int  # guesses scored (0: the first candidate was played without scoring)
    pool: int  # guesses in the live pool
    seconds: float  # wall time spent scoring
    clocked: bool = False  # the safety net (the wall clock) stopped the scoring before its work was done

    @property
    def complete(self) -> bool:
        """Return True when every guess of the pool was scored (the work budget was not used up)."""
        return self.scored == self.pool


def work_guesses(pool: int, candidates: int, budget: float, pairs: float = LIVE_PAIRS) -> int:
    """Return how many guesses of a live pool the greedy rule scores within `budget` (seconds: LIVE_PAIRS
    (guess, candidate) pairs per second of it; math.inf: all): the same on every machine."""
    work = pairs * budget
    return pool if math.isinf(work) else min(pool, int(work // max(candidates, 1)))


def choose_live(game: Game, candidates: np.ndarray, history=(), budget: float = LIVE_BUDGET,
                clock: Callable[[], float] = time.perf_counter) -> LiveChoice:
    """Return the live choice for a state with these candidate target positions.

    `budget` is in seconds (math.inf: no limit): it sizes the work, the first `work_guesses` guesses
    of `live_pool` (LIVE_PAIRS pairs per second), scored in chunks by the Numba kernel, so that the
    choice is the same on every machine and under any load. The wall clock of `clock` is a safety
    net only: a chunk is started only if it is expected to end within SCORING_SHARE of
    `safety_seconds(budget)` (else `clocked`). The guess is the greedy rule's over the guesses
    scored (ties to the lowest row, as in `choose`); the first candidate if none was. One-time costs
    are left out of the clock: compiling the kernel, and building the game's symmetry group for the
    pool (0.35 s for cards n=4); the pool itself takes milliseconds.
    """
    first = int(game.target_index[candidates[0]])
    if len(candidates) <= 2:
        return LiveChoice(first, 0, 0, 0.0)
    from solver.core import scoring  # defers Numba to the compute path

    targets = game.target_index[candidates]
    pool = live_pool(game, candidates, history)
    limit = work_guesses(int(pool.size), int(targets.size), budget)
    scoring.partition_scores(game, pool[:1], targets[:1])  # compiles or loads the kernel
    start = clock()
    deadline = start + SCORING_SHARE * safety_seconds(budget)
    sum_sq = np.empty(pool.size, dtype=np.int64)
    scored, size, per_guess, clocked = 0, max(MIN_CHUNK, FIRST_CHUNK_PAIRS // targets.size), 0.0, False
    while scored < limit:
        left = deadline - clock()
        if per_guess and not math.isinf(left):  # the safety net: a chunk ends by the deadline
            size = min(size, int(left / per_guess))
        if left <= 0 or size < 1:
            clocked = True
            break
        began = clock()
        end = min(limit, scored + size)
        sum_sq[scored:end] = scoring.partition_scores(game, pool[scored:end], targets)[0]
        per_guess = max((clock() - began) / (end - scored), 1e-9)
        scored = end
        size = max(MIN_CHUNK, CHUNK_PAIRS // targets.size)
    guess = first
    if scored:
        order = np.argsort(pool[:scored])
        rows = pool[order]
        guess = int(rows[pick(sum_sq[order], candidate_mask(game, candidates, rows))])
    return LiveChoice(guess, scored, int(pool.size), clock() - start, clocked)
