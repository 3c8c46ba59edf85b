"""Exact live play: off the tree, the exact search (prove mode) on the state's candidates, anytime.

`ExactLive(game).choose(positions, history, budget)` returns an `ExactChoice` (the guess row, the
least total guesses from here over the candidates, whether it is proven) or None when neither
search finished within the work of `budget`; the runtime solver then plays the greedy guess it has
already chosen (`solver.core.runtime.Solver.guess_row`). The search runs in two stages:

1. top-k (the TOP_K best guesses by the search's bound at every node) on TOP_SHARE of the work: the
   total of a real strategy, an upper bound of the optimum, not proven (`exact=False`);
2. prove mode (every allowed guess at every node) on the rest: its value is the optimum within
   the game's guess limit, and its guess an optimal one (`exact=True`), which replaces top-k's.

A state of SHORTLIST_FROM candidates or more (after an uncommon opener, Wordle's no-hint class of
300 to 1500 answers) is beyond both within a budget: it gets a shortlist instead, as does a smaller
state that neither proved (its least total then wins, top-k's or the shortlist's). A two-step
look-ahead (`solver.core.search.shortlist`, LOOKAHEAD_READS table reads per second of the budget)
ranks the guesses; they are proven as the first guess in that order (the least total with it played now
and the best guesses after it), each on a share of the work, until SHORTLIST_PROOFS are proven (at most
SHORTLIST_TRIES tried), and the least total wins: a real strategy's total, an
upper bound of the optimum (`exact=False`). Measured against proofs (the documentation's
benchmarks page) it finds the optimal guess of most such states, where the greedy rule loses 1-8%.
The proofs run side by side (PROOF_THREADS threads, each on a searcher of its own from an empty memo):
each ends as it would alone, and they are read in the look-ahead's order, so the choice is the one a
single thread makes, sooner.

The work is SEARCH_PAIRS (guess, target) pairs scored per second of the budget, the same on every
machine, and every search starts from an empty memo: a live choice is a function of the state (its
candidates, the guesses left, in hard mode the history) and the budget, whatever was asked before in
the process and whatever the machine's speed or load. The wall clock is a safety net only
(`strategy.safety_seconds`: twenty times the budget, at least 2 s), for a machine far slower or
busier than usual; a search it stops is logged and its outcome is not kept.

Each stage is one `Searcher` over a sub-game whose targets are the state's candidates
(codes[all guesses, candidates], a kernel call), its memo emptied before each search. The sub-games
of recent states are kept (LRU, at most SEARCHER_BYTES) so that asking again saves the table; choices are kept per
state and budget (LRU, VALUES entries): a kept choice is the one a new search would make, only sooner.
Ratings (`rate`, `guess_totals`) share their budget's work out equally among the guesses asked, each
searched from an empty memo, so a guess's rating does not depend on the others asked with it.
"""
from __future__ import annotations

import itertools
import logging
import math
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np
from cachetools import LRUCache

from solver.core import strategy
from solver.core.finish import finish_guesses
from solver.core.game import Game
from solver.core.memory import release_freed_memory

SEARCH_DEPTH = 8  # the guess limit of games that have none (Wordle's is 6: `Game.max_guesses`)
# (guess, target) pairs the live search scores per second of budget: its work, the same on every machine
# (at most about 0.65 s of search on this machine's one core; the sub-game's table, at most MAX_TABLE entries,
# comes first)
SEARCH_PAIRS = 64_000_000
TOP_SHARE = 0.15  # of the work, for the top-k search before the proof
TOP_K = 8  # guesses per node of the second stage, by the search's bound
# larger states are left to the greedy rule: their table takes a good part of the budget (codes[guesses,
# candidates]: 20 M entries are Wordle's 1541 candidates), and their proof minutes to hours (a whole game's root)
MAX_TABLE = 20_000_000
MAX_CANDIDATES = 2000
SHORTLIST_FROM = 300  # candidates: a state this large gets the shortlist instead of top-k and the proof
# table reads (guess, candidate) of the look-ahead per second of budget (about 0.8 s on two cores): it goes one
# guess deeper for as many first guesses as this allows, SHORTLIST_WIDTH at most
LOOKAHEAD_READS = 256_000_000
SHORTLIST_WIDTH = 48
SHORTLIST_PROOFS = 4  # guesses of the look-ahead proven as first guesses, each on this share of the budget's work
# ... tried in the look-ahead's order: a guess whose proof runs out of work, or that cannot finish every candidate
# within the guesses left (hard mode), makes way for the next, up to this many tries
SHORTLIST_TRIES = 12
# the shortlist's proofs run side by side on this many threads (at most Numba's), each on a searcher of its own
# from an empty memo: the outcome of each is the one it has alone, and the least total is taken in the
# look-ahead's order as one thread would (proofs past the SHORTLIST_PROOFS-th proven are dropped)
PROOF_THREADS = 2
RATE_TABLE = 40_000_000  # a rating asked for (`rate(large=True)`) takes Wordle's root: 12972 x 2315
RATE_PROVE, RATE_TOP = 0.6, 0.25  # shares of a rating's budget: proofs, then top-k; the rest for worst cases
# recent sub-games kept, in this process: at most this many bytes of their tables and workspaces (a
# Wordle state of 300 candidates of 12972 guesses: 59 MB with its three searchers), so that many states of
# large games, or of many word lists, never add up (docs/pages/library.md: the memory of many word lists)
SEARCHER_BYTES = 80 * 2**20
VALUES = 4096  # memoised state values
MEMO_BITS = 18  # the memo of a sub-game's searchers: 2**18 entries (10 MB each) ...
MEMO_SLOTS_PER_CANDIDATE = 2**10  # ... or fewer for a small one: the search of a few candidates meets few states


def memo_bits(candidates: int) -> int:
    """Return the memo size (bits) of a sub-game of `candidates` candidates: enough for its states, at most
    MEMO_BITS (the memo only saves work: a value does not depend on its size)."""
    return min(MEMO_BITS, max(10, (candidates * MEMO_SLOTS_PER_CANDIDATE - 1).bit_length()))
ROUND_SECONDS = 2.0  # a proof with a progress display reports this often


@dataclass(frozen=True)
class ExactChoice:
    """The outcome of `ExactLive.choose`: a guess and the total guesses it leads to."""

    guess: int  # guess row
    total: int  # guesses summed over the candidates, this one included, playing on optimally (or by top-k)
    candidates: int
    exact: bool  # True: proven optimal within the guess limit; False: top-k's best strategy (an upper bound)
    seconds: float  # wall time of the search

    @property
    def expected(self) -> float:
        """Return the expected guesses from here, this one included (over equally likely candidates)."""
        return self.total / self.candidates


@dataclass(frozen=True)
class GuessRating:
    """The outcome of `ExactLive.rate` for one guess: the total guesses it leads to, and the worst case."""

    guess: int  # guess row
    total: int  # guesses summed over the candidates, this one included, playing on optimally (or by top-k)
    worst: int  # the most guesses a candidate needs, this one included, in the shallowest strategy of that total
    candidates: int
    exact: bool  # True: the least total after this guess, proven; False: a top-k strategy's (an upper bound)

    @property
    def expected(self) -> float:
        """Return the expected guesses from here, this one included (over equally likely candidates)."""
        return self.total / self.candidates


def workspace_bytes(ws) -> int:
    """Return the bytes of a searcher's workspace arrays but its `table`, a view of the sub-game's own."""
    return sum(a.nbytes for name, a in ws._asdict().items() if isinstance(a, np.ndarray) and name != "table")


class _SubGame:
    """Searchers (prove, top-k) over the sub-game of one candidate set: its targets are those candidates."""

    def __init__(self, game: Game, positions: np.ndarray, depth: int):
        from solver.core import scoring  # defers Numba to the live path
        from solver.core.search.searcher import Searcher, SearchOptions  # defers Numba to the live path
        from solver.core.search.kernel import INF  # defers Numba to the live path

        self.positions = positions  # sorted target positions of the parent game
        self.unfinishable = int(INF)  # a value this large: no tree finishes the set within the guesses left
        sub = replace(game, target_index=game.target_index[positions])
        began = time.perf_counter()
        scoring.feedback_table(game, np.arange(1), sub.target_index[:1])  # loads (or compiles) the table kernel
        load = time.perf_counter() - began
        table = scoring.feedback_table(game, np.arange(game.n_guesses), sub.target_index)
        began = time.perf_counter()  # the searcher's set-up runs kernels too (class counts): loaded here
        self.prove = Searcher(sub, table, SearchOptions(max_guesses=depth, memo_bits=memo_bits(positions.size),
                                                        symmetry_levels=0))
        self.table, self._sub, self._depth = table, sub, depth
        self._top: Searcher | None = None
        self._provers: list[Searcher] = []  # more prove-mode searchers, for proofs side by side (`prover`)
        self._options = SearchOptions
        self._load_kernels(self.prove)
        # loading (or compiling) the kernels, once a process, and setting up: left out of the budget
        self.load_seconds = load + time.perf_counter() - began

    @staticmethod
    def _load_kernels(searcher) -> None:
        """Run the search and narrowing kernels once on a trivial input: the first call of a process
        loads their machine code from Numba's cache (or compiles it), a one-time cost."""
        searcher.value(np.zeros(1, np.int32), 1)
        if searcher.hard:
            searcher.restrict_guesses(searcher.all_guesses[:1], int(searcher.all_guesses[0]), 0)

    @property
    def top(self):
        """Return the top-k searcher of this sub-game (made on first use)."""
        if self._top is None:
            from solver.core.search.searcher import Searcher  # defers Numba to the live path

            self._top = Searcher(self._sub, self.table, self._options(
                mode="top-k", k=TOP_K, max_guesses=self._depth, memo_bits=self.prove.options.memo_bits,
                symmetry_levels=0))
        return self._top

    def prover(self, i: int):
        """Return prove-mode searcher `i` of this sub-game: 0 is `prove`, the others are made on first use
        (alike, with memos of their own: for proofs side by side)."""
        if i == 0:
            return self.prove
        from solver.core.search.searcher import Searcher  # defers Numba to the live path

        while len(self._provers) < i:
            self._provers.append(Searcher(self._sub, self.table, self.prove.options))
        return self._provers[i - 1]

    @property
    def nbytes(self) -> int:
        """Return the bytes of this sub-game's table and workspaces, the top-k searcher and the other
        provers (PROOF_THREADS in all) counted before they are made (each as large as the proof's); the
        table, which the searchers share, counted once."""
        return self.table.nbytes + (1 + max(PROOF_THREADS, 1)) * workspace_bytes(self.prove.ws)

    def empty_memos(self) -> None:
        """Empty the memo of every searcher: a search then depends on its own input only."""
        for searcher in (self.prove, self._top, *self._provers):
            if searcher is not None:
                empty_memo(searcher)

    def local(self, positions: np.ndarray) -> np.ndarray | None:
        """Return `positions` as indices into this sub-game's targets, or None unless all are in it."""
        at = np.searchsorted(self.positions, positions)
        if at.size and (at[-1] >= self.positions.size or not np.array_equal(self.positions[at], positions)):
            return None
        return at.astype(np.int32)


def proof_threads() -> int:
    """Return how many threads run the shortlist's proofs side by side: PROOF_THREADS, at most Numba's
    thread count (one under pytest-xdist, or with NUMBA_NUM_THREADS=1)."""
    import numba  # defers Numba to the live path

    return min(PROOF_THREADS, numba.get_num_threads())


def empty_memo(searcher) -> None:
    """Empty the memo of `searcher`: its next search depends on its own input only."""
    from solver.core.search.searcher import MEMO_FIELDS, new_memo  # defers Numba to the live path

    blank = new_memo(1)
    for name in MEMO_FIELDS:
        getattr(searcher.ws, name)[...] = blank[name]


log = logging.getLogger(__name__)


class Stopped(RuntimeError):
    """The process is stopping (`stop_all`), or the caller cancelled its work (`Cancel`): no live search
    runs any more for it."""


_STOPPING = threading.Event()
_RUNNING: set = set()  # the searchers of the live searches running now
_RUNNING_LOCK = threading.Lock()
_SCOPE = threading.local()  # .cancel: the `Cancel` the work of this thread answers to, if any


class Cancel:
    """A cancellation of one caller's live work (a web request whose client went away): `cancel()` stops its
    running searches at their next node, and every later one of it raises Stopped. The work runs
    `with cancel.scope():` in its own thread."""

    def __init__(self):
        self.cancelled = threading.Event()
        self._searchers: set = set()

    def cancel(self) -> None:
        """Stop the live searches of this work now and refuse its later ones."""
        from solver.core.search import kernel  # defers Numba: only a process that searched has searchers

        self.cancelled.set()
        with _RUNNING_LOCK:
            for searcher in self._searchers:
                searcher.ws.params[kernel.P_WORK_LIMIT] = 1  # the kernel checks it at every node

    @contextmanager
    def scope(self):
        """Context: the live work of this thread answers to this cancellation."""
        _SCOPE.cancel = self
        try:
            yield self
        finally:
            _SCOPE.cancel = None


def check_running() -> None:
    """Raise Stopped if the process is stopping or this thread's work was cancelled (before new live work)."""
    if _STOPPING.is_set():
        raise Stopped("the server is stopping: no live search now")
    cancel = getattr(_SCOPE, "cancel", None)
    if cancel is not None and cancel.cancelled.is_set():
        raise Stopped("the request was cancelled: no live search now")


def stop_all() -> None:
    """Stop every live search of this process at its next node and refuse any later one (Stopped): a
    server shutting down answers its waiting requests at once instead of computing on."""
    from solver.core.search import kernel  # defers Numba: only a process that searched has searchers running

    _STOPPING.set()
    with _RUNNING_LOCK:
        for searcher in _RUNNING:
            searcher.ws.params[kernel.P_WORK_LIMIT] = 1  # the kernel checks it at every node


@contextmanager
def _running(searcher):
    """Context: `searcher` counts as running a live search (so that `stop_all`, and the thread's `Cancel`,
    reach it). A generator, not a class made per call: such a class and its methods' closure form a cycle
    that kept the searcher (a sub-game's tables, 100 MB for cards n3) until the next full collection."""
    cancel = getattr(_SCOPE, "cancel", None)
    check_running()
    with _RUNNING_LOCK:
        _RUNNING.add(searcher)
        if cancel is not None:
            cancel._searchers.add(searcher)
    try:
        if cancel is not None and cancel.cancelled.is_set():  # cancelled meanwhile: stop at once
            check_running()
        yield
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(searcher)
            if cancel is not None:
                cancel._searchers.discard(searcher)
                if cancel.cancelled.is_set():  # a limit set as the search ended must not stop the next one
                    from solver.core.search import kernel  # loaded: a search ran

                    searcher.ws.params[kernel.P_WORK_LIMIT] = 0
        check_running()


def search_within(searcher, local: np.ndarray, r: int, guesses, ghash: int, work: float, deadline: float,
                  clock=time.perf_counter) -> tuple[tuple[int, int] | None, bool]:
    """Return ((value, best guess row) of `searcher` on `local` within r guesses, or None if the search
    did not end within `work` (guess, target) pairs scored or by `deadline` of `clock`; whether the
    deadline stopped it). The work limit makes where it stops the same on every machine; the deadline
    is a safety net. As `Searcher.value_until`, the search runs in a worker thread (the kernel does
    not hold the GIL) stopped by this one at the deadline or on an exception here (Ctrl-C)."""
    if clock() >= deadline:
        return None, True
    return searcher.value_within(local, r, work, deadline, guesses, ghash, clock=clock, every=ROUND_SECONDS)


def run_bounded(searcher, local: np.ndarray, r: int, guesses, ghash: int, deadline: float,
                clock=time.perf_counter, forced: int = -1, on_round=None) -> tuple[int, int] | None:
    """Return (value, best guess row) of `searcher` on `local` within r guesses, or None if the search
    did not end by `deadline` (it is stopped then: `Searcher.value_until`). `on_round(seconds, work,
    finished)` is told every ROUND_SECONDS while it runs (the seconds since the call, the pairs
    scored in them, False), and once more with True when it ends after such a report."""
    if clock() >= deadline:
        return None
    shown = []

    def report(seconds: float, work: int, finished: bool) -> None:
        shown.append(True)
        on_round(seconds, work, finished)

    began, work = clock(), searcher.work
    found = searcher.value_until(local, r, deadline, guesses, ghash, forced, clock,
                                 report if on_round is not None else None, ROUND_SECONDS)
    if shown:
        on_round(clock() - began, searcher.work - work, True)
    return found


class ExactLive:
    """The exact live search of one game: `choose` a state's guess within a budget."""

    def __init__(self, game: Game, memo: int = VALUES, finish: Callable[[np.ndarray], np.ndarray] | None = None,
                 depth: int | None = None):
        if memo < 0:
            raise ValueError(f"the memo of state values holds 0 or more states, not {memo}")
        self.game = game
        # F(k) for set sizes k, for the look-ahead (`solver.core.finish`; the runtime solver fits it to its tree)
        self.finish = finish or (lambda sizes: finish_guesses(game.n_codes, sizes))
        self.memo = memo  # state values kept (least recently used first out)
        # the guesses a game may take: its limit; `depth` past it values play that must go on past the limit
        self.depth = depth or game.max_guesses or SEARCH_DEPTH
        self._token = next(_TOKENS)  # names this instance's sub-games (an id could be reused)
        self._values: LRUCache[tuple, ExactChoice] = LRUCache(maxsize=max(memo, 1)) if memo else {}
        self._lock = threading.Lock()  # one search at a time per game: searchers are not thread-safe
        # told (seconds, pairs scored, finished) as a search without a deadline goes on (a progress display)
        self.progress: Callable[[float, int, bool], None] | None = None

    def warm(self) -> float:
        """Load every kernel the live search and the greedy rule use on this game from Numba's cache
        (compiling them the first time, so that no live request pays it); return the seconds taken."""
        began = time.perf_counter()
        positions = np.arange(min(3, self.game.n_targets), dtype=np.int64)
        if positions.size == 3:
            sub = _SubGame(self.game, positions, self.depth)  # runs the search (and hard mode's narrowing) once
            self._shortlisted(sub, sub.local(positions), self.depth, (), 1.0, math.inf, time.perf_counter)
        strategy.choose_live(self.game, positions, (), 1.0)
        return time.perf_counter() - began

    def fits(self, positions: np.ndarray, large: bool = False) -> bool:
        """Return whether the exact search takes a state of these candidates (table size; `large`: up
        to RATE_TABLE entries, for a rating asked for)."""
        if large:
            return 3 <= positions.size and self.game.n_guesses * positions.size <= RATE_TABLE
        return 3 <= positions.size <= MAX_CANDIDATES and self.game.n_guesses * positions.size <= MAX_TABLE

    def known(self, positions: np.ndarray, history, budget: float = 1.0,
              prove_only: bool = False) -> ExactChoice | None:
        """Return the kept choice of this state and budget (what `choose` answers), or None."""
        with self._lock:
            found = self._values.get(self._key(positions, history) + (float(budget), prove_only))
        return None if found is _NO_CHOICE else found

    def choose(self, positions: np.ndarray, history=(), budget: float = 1.0,
               clock=time.perf_counter, prove_only: bool = False, seconds: float | None = None) -> ExactChoice | None:
        """Return the exact (else top-k) choice of the state with these candidate positions after
        `history` of (guess row, code), within the work of `budget` seconds (SEARCH_PAIRS pairs per
        second; math.inf: until proven); None if neither stage finished, the state is too large
        (`fits`), or no tree finishes it in the guesses left. The top-k search runs first (TOP_SHARE
        of the work; not with `prove_only`), then the proof on the rest; a finished proof replaces
        top-k's answer. Each search starts from an empty memo, so the answer is a function of the state
        and the budget. `seconds` of `clock` (default `strategy.safety_seconds(budget)`) is the safety
        net: an answer it cut short is not kept."""
        return self.choose_checked(positions, history, budget, clock, prove_only, seconds)[0]

    def choose_checked(self, positions: np.ndarray, history=(), budget: float = 1.0, clock=time.perf_counter,
                       prove_only: bool = False, seconds: float | None = None) -> tuple[ExactChoice | None, bool]:
        """Return (`choose`'s answer, whether the safety net's clock cut a search short)."""
        r = self.depth - len(history)
        if r < 1 or budget <= 0 or not self.fits(positions):
            return None, False
        key = self._key(positions, history) + (float(budget), prove_only)
        start = clock()
        deadline = start + (strategy.safety_seconds(budget) if seconds is None else seconds)
        work = SEARCH_PAIRS * budget
        with self._lock:
            found = self._values.get(key)  # marks it the most recently used
            if found is not None:
                return (None if found is _NO_CHOICE else found), False
            sub = self._subgame(positions)
            start += sub.load_seconds
            deadline += sub.load_seconds
            sub.load_seconds = 0.0
            local = sub.local(positions)
            stages = [(sub.prove, True, work if prove_only else (1 - TOP_SHARE) * work)]
            if math.isfinite(budget) and not prove_only:  # top-k first: quick, the answer if no proof ends
                stages.insert(0, (sub.top, False, TOP_SHARE * work))
            result, cut = None, False
            shortlisting = math.isfinite(budget) and not prove_only
            if shortlisting and positions.size >= SHORTLIST_FROM:
                stages = []
            for searcher, proven, pairs in stages:
                sub.empty_memos()
                guesses, ghash = searcher.allowed_after(history)
                with _running(searcher):
                    if math.isinf(pairs):  # until proven (or Ctrl-C), with the progress display
                        found = run_bounded(searcher, local, r, guesses, ghash, math.inf, clock, on_round=self.progress)
                        clocked = False
                    else:
                        found, clocked = search_within(searcher, local, r, guesses, ghash, pairs, deadline, clock)
                if not math.isinf(pairs):
                    if clocked:
                        cut = True
                        log.info("%s: the live search of %d candidates was stopped by the clock (the safety net, "
                                 "%.3g s), not its work: this guess may differ between runs", self.game.title,
                                 positions.size, deadline - start)
                if found is not None and found[1] >= 0 and found[0] < sub.unfinishable:
                    result = found, proven
            if shortlisting and (result is None or not result[1]):  # not proven: the shortlist's best, if better
                listed, clocked = self._shortlisted(sub, local, r, history, budget, deadline, clock)
                if clocked:
                    cut = True
                    log.info("%s: the shortlist of %d candidates was stopped by the clock (the safety net, %.3g s), "
                             "not its work: this guess may differ between runs", self.game.title, positions.size,
                             deadline - start)
                if listed is not None and (result is None or listed[0][0] < result[0][0]):
                    result = listed
            choice = None
            if result is not None:
                (value, guess), proven = result
                choice = ExactChoice(int(guess), int(value), int(positions.size), proven, clock() - start)
            if not cut and self.memo:
                self._values[key] = _NO_CHOICE if choice is None else choice
            return choice, cut

    def _shortlisted(self, sub: _SubGame, local: np.ndarray, r: int, history, budget: float, deadline: float,
                     clock) -> tuple[tuple[tuple[int, int], bool] | None, bool]:
        """Return (((least total, guess row), False) of the shortlist's proven guesses, or None if none was
        proven within its work; whether the clock stopped a proof): see the module docstring."""
        from solver.core.search.shortlist import shortlist  # defers Numba to the live path

        searcher = sub.prove
        guesses, ghash = searcher.allowed_after(history)
        n = int(local.size)
        width = int(min(SHORTLIST_WIDTH, max(1, LOOKAHEAD_READS * budget // (n * max(guesses.size, 1)) - 1)))
        is_candidate = np.isin(guesses, self.game.target_index[sub.positions[local]])
        finish = np.asarray(self.finish(np.arange(n + 1)), dtype=np.float64)
        rows, _ = shortlist(sub.table, guesses, local.astype(np.int64), self.game.n_codes, self.game.win_code,
                            finish, width, is_candidate)
        best, cut, proven = None, False, 0
        share = SEARCH_PAIRS * budget / SHORTLIST_PROOFS
        tries = rows[:SHORTLIST_TRIES].tolist()
        for row, (found, late) in zip(
                tries, self._proofs(sub, local, r, guesses, ghash, tries, share, deadline, clock)):
            cut = cut or late  # in the look-ahead's order, until SHORTLIST_PROOFS are proven
            if found is not None and found[0] < sub.unfinishable:
                proven += 1
                if best is None or found[0] < best[0]:
                    best = (int(found[0]), row)
                if proven == SHORTLIST_PROOFS:
                    break
        return (None if best is None else (best, False)), cut

    def _proofs(self, sub: _SubGame, local, r: int, guesses, ghash: int, rows: list[int], work: float,
                deadline: float, clock) -> list[tuple[tuple[int, int] | None, bool]]:
        """Return [(`_rated` of each row played first within `work` pairs, whether the clock had passed
        `deadline` when it ended)] in the order of `rows`, as far as one thread taking them in turn would
        go: up to the SHORTLIST_PROOFS-th proven (or the last row). PROOF_THREADS threads (at most Numba's)
        take the rows in turn, each on a prover of its own from an empty memo, so each outcome is the one
        it has alone; a proof past the last one needed is stopped and dropped."""
        threads = max(1, min(proof_threads(), len(rows)))
        if threads == 1:
            out = []
            for row in rows:
                found = self._rated(sub, sub.prove, local, r, guesses, ghash, row, work, deadline, clock)
                out.append((found, clock() >= deadline))
                if sum(1 for f, _ in out if f is not None and f[0] < sub.unfinishable) == SHORTLIST_PROOFS:
                    break
            return out
        from solver.core.search import kernel  # defers Numba to the live path

        provers = [sub.prover(i) for i in range(threads)]
        lock = threading.Lock()
        done: dict[int, tuple] = {}
        state = {"next": 0, "needed": len(rows), "error": None}  # needed: rows up to the one that completes the set
        taken = [-1] * threads  # the row index each thread is proving (-1: none)
        cancel = getattr(_SCOPE, "cancel", None)

        def settle() -> None:
            """With the lock held: once the rows in order hold SHORTLIST_PROOFS proven, stop the proofs past them."""
            proven = 0
            for i in range(len(rows)):
                if i not in done:
                    return
                found = done[i][0]
                proven += found is not None and found[0] < sub.unfinishable
                if proven == SHORTLIST_PROOFS:
                    state["needed"] = i + 1
                    for t, at in enumerate(taken):
                        if at > i:
                            provers[t].ws.params[kernel.P_WORK_LIMIT] = 1  # the kernel stops at its next node
                    return

        def run(t: int) -> None:
            _SCOPE.cancel = cancel  # this work answers to the caller's cancellation
            try:
                while True:
                    with lock:
                        i = state["next"]
                        if i >= state["needed"] or state["error"] is not None:
                            return
                        state["next"] += 1
                        taken[t] = i
                    found = self._rated(sub, provers[t], local, r, guesses, ghash, rows[i], work, deadline, clock)
                    with lock:
                        taken[t] = -1
                        done[i] = (found, clock() >= deadline)
                        settle()
            except BaseException as err:  # noqa: BLE001 - Stopped: handed to the calling thread
                with lock:
                    state["error"] = state["error"] or err
            finally:
                _SCOPE.cancel = None

        workers = [threading.Thread(target=run, args=(t,), name="shortlist-proof", daemon=True) for t in range(threads)]
        for worker in workers:
            worker.start()
        try:
            for worker in workers:
                while worker.is_alive():
                    worker.join(ROUND_SECONDS)
        except BaseException:  # Ctrl-C here: every proof stops at its next node
            with lock:
                state["error"] = state["error"] or Stopped("interrupted")
                for prover in provers:
                    prover.ws.params[kernel.P_WORK_LIMIT] = 1
            for worker in workers:
                worker.join()
            raise
        if state["error"] is not None:
            raise state["error"]
        return [done[i] for i in range(min(state["needed"], len(rows)))]

    def guess_totals(self, positions: np.ndarray, history, rows, budget: float = 1.0,
                     clock=time.perf_counter) -> dict[int, int]:
        """Return {guess row: least total guesses over the candidates when that guess is played now and
        the best ones after it} for the `rows` whose proof ended within `budget` seconds (shared out
        in the order given); rows missing from the answer were not proven in time (or cannot finish
        in the guesses left)."""
        return {row: rating.total for row, rating in self.rate(positions, history, rows, budget, clock,
                                                                approximate=False, worst=False).items()}

    def rate(self, positions: np.ndarray, history, rows, budget: float = 1.0, clock=time.perf_counter,
             approximate: bool = True, worst: bool = True, large: bool = False,
             unfinishable: set | None = None) -> dict[int, GuessRating]:
        """Return {guess row: GuessRating} of the `rows` played now in the state of these candidates
        after `history`, within the work of `budget` seconds in all (SEARCH_PAIRS pairs a second): first
        the proofs (RATE_PROVE of the work, shared equally among the rows), then, with `approximate`,
        the top-k totals of the rows not proven (upper bounds; RATE_TOP), then, with `worst`, the fewest
        guesses each total needs (the worst case of the shallowest such strategy; the rest of the
        work). Each row is searched from an empty memo: its rating is a function of the state, the row,
        the rows asked and the budget. Rows missing from the answer got no value within their work (or
        cannot finish in the guesses left). `large`: take states up to RATE_TABLE entries (an explicit
        request). `unfinishable`: a set that gets the rows proven unable to finish every candidate within
        the guesses left."""
        r = self.depth - len(history)
        if r < 1 or budget <= 0 or not self.fits(positions, large):
            return {}
        start = clock()
        deadline = start + strategy.safety_seconds(budget)  # the safety net only
        out: dict[int, GuessRating] = {}
        rows = [int(row) for row in dict.fromkeys(rows)]
        if not rows:
            return out
        work = SEARCH_PAIRS * budget
        with self._lock:
            sub = self._subgame(positions)
            deadline += sub.load_seconds
            sub.load_seconds = 0.0
            local = sub.local(positions)
            stages = [(sub.prove, True, RATE_PROVE * work if approximate else work)]
            if approximate and math.isfinite(budget):
                stages.append((sub.top, False, RATE_TOP * work))
            for searcher, proven, pairs in stages:
                guesses, ghash = searcher.allowed_after(history)
                todo = [row for row in rows if row not in out]
                for row in todo:  # an equal share of the stage's work each, from an empty memo
                    found = self._rated(sub, searcher, local, r, guesses, ghash, row, pairs / len(todo), deadline,
                                        clock)
                    if found is not None and found[0] < sub.unfinishable:
                        out[row] = GuessRating(row, int(found[0]), r, int(positions.size), proven)
                    elif found is not None and proven and unfinishable is not None:
                        unfinishable.add(row)
            if worst and out:
                left = (1 - RATE_PROVE - RATE_TOP) * work if approximate else 0.0
                for row, rating in list(out.items()):
                    searcher = sub.prove if rating.exact else sub.top
                    guesses, ghash = searcher.allowed_after(history)
                    depth, share = rating.worst, left / len(out)
                    while depth > 1 and share > 0:
                        found = self._rated(sub, searcher, local, depth - 1, guesses, ghash, row, share, deadline,
                                            clock)
                        if found is None or found[0] != rating.total:
                            break
                        depth -= 1
                    out[row] = replace(rating, worst=depth)
        return {row: out[row] for row in rows if row in out}

    def _rated(self, sub: _SubGame, searcher, local, r: int, guesses, ghash: int, row: int, work: float,
               deadline: float, clock) -> tuple[int, int] | None:
        """Return (value, row) of guess `row` played first, from an empty memo within `work` pairs (math.inf:
        until proven, with the progress display), or None if it did not end."""
        empty_memo(searcher)
        if math.isinf(work):
            with _running(searcher):
                return run_bounded(searcher, local, r, guesses, ghash, math.inf, clock, row, self.progress)
        if clock() >= deadline:
            return None
        with _running(searcher):
            found, clocked = searcher.value_within(local, r, work, deadline, guesses, ghash, forced=row, clock=clock,
                                                   every=ROUND_SECONDS)
        if clocked:
            log.info("%s: a rating of %d candidates was stopped by the clock (the safety net), not its work",
                     self.game.title, local.size)
        return found

    def state_key(self, positions: np.ndarray, history) -> tuple:
        """Return what a state's choice depends on: its candidates, the guesses left and, in hard mode,
        the history (which guesses it allows)."""
        return self._key(positions, history)

    def _key(self, positions: np.ndarray, history) -> tuple:
        # normal mode: the value depends on the candidates and the guesses left; hard mode also on
        # which guesses the history allows
        hard = tuple(history) if self.game.allowed is not None else ()
        return positions.tobytes(), len(history), hard

    def _subgame(self, positions: np.ndarray) -> _SubGame:
        """Return the kept sub-game of exactly these candidates, else a new one (the most
        recent of all games are kept: they save the table, never change an answer)."""
        key = (self._token, positions.tobytes())
        with _SUBGAMES_LOCK:
            sub = _SUBGAMES.get(key)  # marks it the most recently used
        if sub is None:
            if _SUBGAMES.dropped:  # before the new arrays: what earlier sub-games held goes back to the system
                _SUBGAMES.dropped = False
                release_freed_memory()
            sub = _SubGame(self.game, np.array(positions, dtype=np.int64), self.depth)
            with _SUBGAMES_LOCK:
                if sub.nbytes <= _SUBGAMES.maxsize:
                    _SUBGAMES[key] = sub
                else:  # a larger one is used once, not kept
                    _SUBGAMES.dropped = True
        return sub


_NO_CHOICE = object()  # kept for a state whose search found no choice within its budget
# the sub-games of every game, most recently used last: (their ExactLive's token, candidates) -> sub-game
class _KeptSubGames(LRUCache):
    """The kept sub-games, which note when one was dropped (evicted, or too large to keep): the next new
    sub-game first hands the memory freed since back to the system (`release_freed_memory`)."""

    dropped = False

    def popitem(self):
        self.dropped = True
        return super().popitem()


_SUBGAMES: LRUCache[tuple[int, bytes], _SubGame] = _KeptSubGames(maxsize=SEARCHER_BYTES,
                                                                  getsizeof=lambda sub: sub.nbytes)
_TOKENS = itertools.count()
_SUBGAMES_LOCK = threading.Lock()


def drop_kept_subgames() -> int:
    """Drop every kept sub-game (a server fallen idle: what they held goes back to the system with the next
    `release_freed_memory`, and a later state builds its table again); return how many were kept."""
    with _SUBGAMES_LOCK:
        count = len(_SUBGAMES)
        _SUBGAMES.clear()
        _SUBGAMES.dropped = False
    return count
