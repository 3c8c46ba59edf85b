"""Exact search over one game: the kernel's workspace, values, lower bounds and optimal subtrees.

A `Searcher` holds one game's feedback table and a memo; every call reuses both. Positions are
indices into the game's target list (columns of the table); guesses are guess rows.

* `value(positions, r)` -> (least total guesses for these targets within r guesses, best guess);
* `opener_total(row, r, beta)` -> the total of a fixed first guess (exact if below beta);
* `lower_bound(positions, r, upper, seconds)` -> a proven lower bound, raised while time allows;
* `bounded_value(positions, r, work)` -> the same within a work limit, or None when it ran out;
* `value_until(positions, r, deadline)` -> the same until a deadline, or None when it passed;
* `grow(...)` -> the optimal subtree as `Nodes`.
"""
from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass

import numpy as np

from solver.core.game import Game
from solver.core.kernel_cache import search_kernels_cached
from solver.core.progress import SEARCH_KERNELS, first_call_notice, tell_compiling
from solver.core.search import kernel
from solver.core.search.kernel import INF, Workspace
from solver.core.search.nodes import Nodes
from solver.core.search.watch import NO_LIMIT, run_watched, wait_for_straggler

WATCHED_SIZE = 64  # main-thread searches of more targets run in a thread that Ctrl-C stops (`_search`)
PROGRESS_SECONDS = 2.0  # `value_until` reports progress this often
SEED = 20261130  # memo hash keys: fixed, so that runs are reproducible
ORDERS = ("bound", "entropy")  # SearchOptions.order, by its index in params[P_ORDER] (kernel.ORDER_BOUND, ...)


@dataclass(frozen=True)
class SearchOptions:
    """How to search: every allowed guess (`prove`) or the `k` best by score (`top-k`)."""

    mode: str = "prove"
    k: int = 0
    max_guesses: int = 6
    memo_bits: int = 22
    shallow: bool = True  # among optimal subtrees of a root class, keep the shallowest
    symmetry_levels: int = 2  # guesses from the root searched one per symmetry class (if the game has any)
    # the order guesses are expanded in (and, in top-k mode, which k): "bound" (least lower bound,
    # then sum of squares, as Selby's) or "entropy" (most information)
    order: str = "bound"
    # top-k only: in the first `widen` levels of a search (a root class, the classes below it, ...), go
    # on past the k best guesses while none of them can finish the set within the guesses left (else the
    # set is given up on although another guess may finish it; 0: never)
    widen: int = 0
    # stop at each node's first guess that finishes its set: a feasibility search (can every target be
    # finished within the guesses?), whose finite values are upper bounds and whose INF is still a proof
    first: bool = False

    def __post_init__(self) -> None:
        if self.mode not in ("prove", "top-k"):
            raise ValueError(f"search mode is prove or top-k, not {self.mode!r}")
        if self.mode == "top-k" and self.k < 1:
            raise ValueError("top-k search needs k >= 1")
        if self.order not in ORDERS:
            raise ValueError(f"search order is {' or '.join(ORDERS)}, not {self.order!r}")

    @property
    def proves(self) -> bool:
        return self.mode == "prove"

    def describe(self) -> str:
        """Return the strategy text stored in tree metadata, e.g. ``exact-prove-max6``."""
        mode = "prove" if self.proves else f"top{self.k}"
        order = "" if self.order == "bound" else f"-{self.order}"
        widen = f"-widen{self.widen}" if self.widen and not self.proves else ""
        return f"exact-{mode}{order}{widen}-max{self.max_guesses}"


def lower_bound_table(losing: int, targets: int, max_guesses: int) -> np.ndarray:
    """Return lb[r, m]: at least this many guesses finish m targets within r (INF if impossible).

    At most one target is finished by the next guess, at most `losing` by the one after (one per
    non-winning class), `losing**2` by the third, and so on: fill the shallowest slots first.
    """
    table = np.full((max_guesses + 1, targets + 1), INF, dtype=np.int64)
    table[:, 0] = 0
    for r in range(1, max_guesses + 1):
        total, m, width = 0, 0, 1
        for depth in range(1, r + 1):
            take = min(width, targets - m)
            table[r, m + 1:m + take + 1] = total + depth * np.arange(1, take + 1)
            total += depth * take
            m += take
            width = min(width * max(losing, 1), targets + 1)
            if m >= targets:
                break
    return table


_TARGET_MAJOR: dict[int, np.ndarray] = {}  # id(table) -> its transpose, while the table lives


def target_major(table: np.ndarray) -> np.ndarray:
    """Return table.T made contiguous (codes[target, guess]), one copy per table in the process (the
    searchers of one table share it; Wordle's every-word table takes 1.4 s to transpose)."""
    key = id(table)
    found = _TARGET_MAJOR.get(key)
    if found is None:
        found = _TARGET_MAJOR[key] = np.ascontiguousarray(table.T)
        weakref.finalize(table, _TARGET_MAJOR.pop, key, None)
    return found


def letter_counts(words: np.ndarray) -> np.ndarray:
    """Return counts[w, s]: how many times symbol s is in word row w (uint8[W, max symbol + 1])."""
    counts = np.zeros((words.shape[0], int(words.max()) + 1), np.uint8)
    for column in words.T:
        np.add.at(counts, (np.arange(words.shape[0]), column), 1)
    return counts


MEMO_FIELDS = ("memo_key", "memo_lo", "memo_hi", "memo_guess", "memo_size")


def new_memo(slots: int) -> dict[str, np.ndarray]:
    """Return the arrays of an empty memo of `slots` entries, by workspace field name."""
    return {"memo_key": np.zeros((2, slots), np.uint64), "memo_lo": np.zeros(slots, np.int64),
            "memo_hi": np.zeros(slots, np.int64), "memo_guess": np.full(slots, -1, np.int32),
            "memo_size": np.zeros(slots, np.int32)}


def per_depth(depth: int, width: int, dtype, *names: str) -> dict[str, np.ndarray]:
    """Return a zeroed [depth, width] scratch array of `dtype` for each workspace field name."""
    return {name: np.zeros((depth, width), dtype) for name in names}


def marks(game: Game) -> int:
    """Return the positions of a game whose codes are base-3 marks, one digit a position (Wordle's:
    0 grey, 1 yellow, 2 green; the kernel's `union_bounds` reads them), else 0."""
    positions = game.rows.shape[1] - 2
    if game.name != "wordle" or not 0 < positions <= 10 or game.n_codes != 3 ** positions:
        return 0
    return positions if int(game.rows[:, :positions].max()) < 63 else 0  # `kernel.alike_key`'s six bits


def read_only(table: np.ndarray) -> np.ndarray:
    """Return a read-only view of `table` (no copy). The kernels see every table read-only: Numba compiles
    a writable and a read-only array as two types (the search's kernels: about 35 s of one core each),
    and the tables read from artifacts are read-only."""
    view = table.view()
    view.setflags(write=False)
    return view


def make_workspace(game: Game, table: np.ndarray, options: SearchOptions,
                   memo_of: Workspace | None = None) -> Workspace:
    """Return the kernel's arrays for `game` (table: codes[all guesses, all targets]), with the memo
    of `memo_of` when given (a workspace of the same game and options), else a new one."""
    if not search_kernels_cached(table.dtype):  # the notice comes before the set-up's kernels compile
        tell_compiling(SEARCH_KERNELS)
    g_count, t_count = table.shape
    if g_count >= 1 << kernel.KEY_SHIFT or t_count ** 2 * (options.max_guesses + 3) >= 1 << (62 - kernel.KEY_SHIFT):
        raise ValueError(f"{g_count} guesses of {t_count} targets: too many for the kernel's ordering keys")
    classes, losing = kernel.class_counts(read_only(table), game.win_code)
    depth = options.max_guesses + 2
    codes = game.n_codes
    rng = np.random.default_rng(SEED)
    slots = 1 << options.memo_bits
    hard = game.allowed is not None
    alike = 1 << max(2 * g_count - 1, 1).bit_length() if marks(game) else 1  # the set of `kernel.alike_key`s
    return Workspace(
        table=read_only(table),
        table_t=read_only(target_major(table)),
        target_row=game.target_index.astype(np.int32),
        rows=np.ascontiguousarray(game.rows),
        letter_count=letter_counts(game.rows[:, :game.rows.shape[1] - 2]) if hard else np.zeros((1, 1), np.uint8),
        alike=np.zeros((alike, 2), np.int64),
        alike_symbols=np.zeros(64, np.int64),
        pool=np.arange(g_count, dtype=np.int32),
        lb=lower_bound_table(int(losing.max()), t_count, options.max_guesses),
        params=kernel.make_params(win_code=game.win_code, top_k=0 if options.proves else options.k,
                                  max_classes=int(classes.max()), hard=int(hard),
                                  word_length=game.rows.shape[1] - 2 if hard else 0,
                                  order=ORDERS.index(options.order), work_limit=0, widen=int(options.widen),
                                  first=int(options.first), small=kernel.SMALL_SET, marks=marks(game)),
        zobrist=rng.integers(1, 2**63, size=(2, t_count), dtype=np.uint64),
        guess_keys=rng.integers(1, 2**63, size=g_count, dtype=np.uint64),
        part=np.zeros((depth, t_count), np.int32),
        **per_depth(depth, codes, np.int32, "counts", "touched", "cls_start", "cls_size", "cls_code", "cls_order"),
        **per_depth(depth, codes, np.int64, "cls_bound"),
        **per_depth(depth, codes, np.int8, "cls_exact"),
        **per_depth(depth, g_count, np.int32, "cand_guess", "allowed", "useful"),
        useful_count=np.zeros(depth, np.int32),
        **per_depth(depth, g_count, np.int64, "cand_bound", "cand_key"),
        best=np.full(depth, -1, np.int32),
        local_b=np.zeros(depth, np.int64),
        **(new_memo(slots) if memo_of is None else {name: getattr(memo_of, name) for name in MEMO_FIELDS}),
        stats=np.zeros(kernel.N_STATS, np.int64),
        shared=np.zeros(kernel.N_SHARED, np.int64),
    )


@dataclass
class Stats:
    """Work done by a search: kernel node calls, full scoring passes, memo probes and hits."""

    nodes: int = 0
    full: int = 0
    probes: int = 0
    hits: int = 0

    @property
    def hit_rate(self) -> float:
        return self.hits / self.probes if self.probes else 0.0

    def __add__(self, other: "Stats") -> "Stats":
        return Stats(self.nodes + other.nodes, self.full + other.full, self.probes + other.probes,
                     self.hits + other.hits)


class Searcher:
    """Exact (or top-k) search over one game variant; `table` is codes[all guesses, all targets]."""

    def __init__(self, game: Game, table: np.ndarray, options: SearchOptions, memo_of: "Searcher | None" = None):
        """`memo_of`: a searcher of the same game and options whose memo this one shares (threads: the
        kernel's entries are checked on reading, `kernel.memo_find`)."""
        self.game, self.options = game, options
        self.table = np.ascontiguousarray(table)
        self.hard = game.allowed is not None
        self.ws = make_workspace(game, self.table, options, memo_of.ws if memo_of is not None else None)
        self.all_guesses = self.ws.pool
        self._exact: dict = {}  # (r, positions) -> (value, best guess) at the symmetric levels
        self._prove: Searcher | None = None  # made by `lower_bound` in top-k mode
        self.straggler: threading.Thread | None = None  # a search Ctrl-C did not wait for (`watch`)

    @property
    def work(self) -> int:
        """Return the (guess, target) pairs the full scoring passes went through so far."""
        return int(self.ws.stats[kernel.S_WORK])

    @property
    def stats(self) -> Stats:
        s = self.ws.stats
        return Stats(int(s[kernel.S_NODES]), int(s[kernel.S_FULL_PASSES]), int(s[kernel.S_PROBES]),
                     int(s[kernel.S_HITS]))

    def restrict_guesses(self, guesses: np.ndarray, guess: int, code: int) -> tuple[np.ndarray, int]:
        """Return (guesses still allowed after `guess` got `code`, their hash): hard mode only."""
        out = np.empty(guesses.size, np.int32)
        count, ghash = kernel.restrict_guesses(self.ws, guesses, np.int32(guess), np.int64(code), out)
        return out[:count], int(ghash)

    def allowed_after(self, history) -> tuple[np.ndarray, int]:
        """Return (allowed guess rows, hash) after `history` of (guess row, code)."""
        guesses, ghash = self.all_guesses, 0
        if self.hard:
            for guess, code in history:
                guesses, ghash = self.restrict_guesses(guesses, guess, code)
        return guesses, ghash

    def value(self, positions: np.ndarray, r: int, guesses: np.ndarray | None = None, ghash: int = 0,
              beta: int | None = None, free: bool = True, forced: int = -1,
              shared: np.ndarray | None = None) -> tuple[int, int]:
        """Return (value, best guess row or -1): exact below `beta` (default: no limit); with `forced`
        >= 0, the total of playing that guess row here (and the best guesses below it). With `shared`
        (a joint search's counters, `kernel.NEXT`...), this thread's part of a search that threads run
        together: exact (below `beta`) or a bound over the guesses it took (`parallel.ThreadedTotals`)."""
        H = np.ascontiguousarray(positions, dtype=np.int32)
        pool = self.all_guesses if guesses is None else np.ascontiguousarray(guesses, dtype=np.int32)
        self.ws.best[0] = -1
        limit = INF + 1 if beta is None else np.int64(beta)
        free_code = kernel.FREE_ANY if free else kernel.FREE_RESTRICTED
        value = self._search(H, r, limit, pool, ghash, free_code, forced, shared)
        if forced >= 0:
            return value, (forced if value < limit else -1)
        best = int(self.ws.best[0])  # negative: a given-up set answered from the memo
        return value, (best if value < limit and best >= 0 else -1)

    def bounded_value(self, positions: np.ndarray, r: int, work_limit: int, guesses: np.ndarray | None = None,
                      ghash: int = 0, forced: int = -1, beta: int | None = None) -> tuple[int, int] | None:
        """Return (value, best guess row) as `value` does (exact below `beta`), or None when the search scored
        `work_limit` (guess, target) pairs first (what it proved by then stays in the memo: a second call
        goes further)."""
        ws = self.ws
        ws.params[kernel.P_WORK_LIMIT] = ws.stats[kernel.S_WORK] + max(int(work_limit), 1)
        ws.stats[kernel.S_ABORTED] = 0
        try:
            value, guess = self.value(positions, r, guesses, ghash, beta=beta, forced=forced)
        finally:
            aborted = bool(ws.stats[kernel.S_ABORTED])
            ws.params[kernel.P_WORK_LIMIT] = 0
            ws.stats[kernel.S_ABORTED] = 0
        return None if aborted else (value, guess)

    def value_until(self, positions: np.ndarray, r: int, deadline: float, guesses: np.ndarray | None = None,
                    ghash: int = 0, forced: int = -1, clock=time.perf_counter, on_progress=None,
                    every: float = PROGRESS_SECONDS) -> tuple[int, int] | None:
        """Return (value, best guess row) as `value` does, or None when `deadline` (a `clock` time;
        math.inf: none) came first. The search runs in a worker thread (the kernel does not hold the
        GIL) watched from this one, which stops it at the deadline or on an exception here (Ctrl-C),
        and tells `on_progress(seconds, pairs scored, False)` every `every` seconds while it runs."""
        return self.value_within(positions, r, None, deadline, guesses, ghash, forced, clock, on_progress, every)[0]

    def value_within(self, positions: np.ndarray, r: int, work: float | None, deadline: float,
                     guesses: np.ndarray | None = None, ghash: int = 0, forced: int = -1, clock=time.perf_counter,
                     on_progress=None, every: float = PROGRESS_SECONDS) -> tuple[tuple[int, int] | None, bool]:
        """Return ((value, best guess row) or None, whether the deadline stopped it): as `value_until`,
        also stopped once `work` (guess, target) pairs are scored (None: no work limit); a work
        limit stops the search at the same point on every machine, where a deadline does not."""
        ws, began, done = self.ws, clock(), self.work
        outcome: dict = {}
        clocked = False

        def run() -> None:
            try:
                outcome["value"] = self.value(positions, r, guesses, ghash, forced=forced)
            except BaseException as err:  # noqa: BLE001 - handed to the watching thread
                outcome["error"] = err

        ws.stats[kernel.S_ABORTED] = 0
        # checked at every node: lowered to 1 (the deadline, Ctrl-C), the search stops
        ws.params[kernel.P_WORK_LIMIT] = NO_LIMIT if work is None else ws.stats[kernel.S_WORK] + max(int(work), 1)
        worker = threading.Thread(target=run, name="exact-search", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                left = deadline - clock()
                if left <= 0:
                    ws.params[kernel.P_WORK_LIMIT] = 1
                    clocked = True
                    worker.join()
                    break
                worker.join(min(every, left))
                if worker.is_alive() and on_progress is not None:
                    on_progress(clock() - began, self.work - done, False)
        except BaseException:
            ws.params[kernel.P_WORK_LIMIT] = 1
            worker.join()
            raise
        finally:
            aborted = bool(ws.stats[kernel.S_ABORTED])
            ws.params[kernel.P_WORK_LIMIT] = 0
            ws.stats[kernel.S_ABORTED] = 0
        if "error" in outcome:
            raise outcome["error"]
        return (None if aborted else outcome["value"]), clocked and aborted

    def opener_total(self, row: int, r: int | None = None, beta: int | None = None) -> int:
        """Return the total over every target of the best tree opening with guess `row`.

        Exact when below `beta`; otherwise a proven lower bound of at least `beta`.
        """
        H = np.arange(self.game.n_targets, dtype=np.int32)
        r = self.options.max_guesses if r is None else r
        limit = INF + 1 if beta is None else int(beta)
        if self.symmetric:
            return self.guess_value(H, r, limit, (), row)
        return self._search(H, r, limit, self.all_guesses, 0, kernel.FREE_RESTRICTED, row)

    def _search(self, H: np.ndarray, r: int, limit: int, pool: np.ndarray, ghash: int, free: int, forced: int,
                shared: np.ndarray | None = None) -> int:
        """Return `kernel.search` at depth 0 (`free`: kernel.FREE_ANY or FREE_RESTRICTED; `forced`: a guess
        row or -1). In the main thread, where Ctrl-C arrives, a search of more
        than WATCHED_SIZE targets runs watched (`watch.run_watched`): Ctrl-C stops it at once."""
        ws = self.ws if shared is None else self.ws._replace(shared=shared)
        args = (ws, H, np.int64(r), np.int64(limit), np.int64(0), pool, np.uint64(ghash), np.int64(free),
                np.int64(forced))
        self.ws.local_b[0] = 0  # a guess forced at the root is valued with no pass of this search's behind it
        first_call_notice(kernel.search, SEARCH_KERNELS, args)
        if H.size <= WATCHED_SIZE or threading.current_thread() is not threading.main_thread():
            wait_for_straggler(self)
            return int(kernel.search(*args))
        return run_watched([self], lambda searcher: int(kernel.search(*args)))[0]

    # -- the first levels with symmetry: guesses reduced to one per class of equivalent guesses --
    @property
    def symmetric(self) -> bool:
        return self.game.canonical is not None and self.options.symmetry_levels > 0 and not self.hard

    def node_value(self, positions: np.ndarray, r: int, beta: int, history: tuple[int, ...]) -> tuple[int, int]:
        """Return (value fail-soft below `beta`, best guess or -1) of a node reached by guess rows `history`.

        Within `options.symmetry_levels` guesses of the root, only one guess per class of guesses
        equivalent under the symmetries fixing `history` is tried; deeper nodes go to the kernel.
        """
        n = positions.size
        if len(history) >= self.options.symmetry_levels or n <= 2:
            return self.value(positions, r, beta=beta)
        key = (r, positions.tobytes())
        known = self._exact.get(key)
        if known is not None:
            return known
        guesses = np.asarray(self.game.canonical(list(history)), dtype=np.int64)
        bounds, keys = self._guess_bounds(guesses, positions, r)
        lower = max(int(self.ws.lb[r, n]), int(bounds.min()) if bounds.size else INF)
        if lower >= beta:
            return lower, -1
        best, best_guess, failed = INF, -1, INF
        for i in np.argsort(keys, kind="stable"):
            if bounds[i] >= beta:
                failed = min(failed, int(bounds[i]))
                continue
            total = self.guess_value(positions, r, beta, history, int(guesses[i]))
            if total < beta:
                best, best_guess, beta = total, int(guesses[i]), total
                if best <= lower:
                    break
            else:
                failed = min(failed, total)
        if best_guess >= 0:
            self._exact[key] = (best, best_guess)
            return best, best_guess
        return max(lower, min(failed, INF)), -1

    def guess_value(self, positions: np.ndarray, r: int, beta: int, history: tuple[int, ...], guess: int) -> int:
        """Return the total of playing `guess` at this node: exact below `beta`, else a lower bound."""
        classes = self.split(guess, positions)
        hit = positions.size - sum(group.size for _, group in classes)
        total = hit + self.children_value([group for _, group in classes], r - 1, beta - hit, history + (guess,))
        return min(total, INF) if total >= beta else total

    def children_value(self, groups: list[np.ndarray], r: int, beta: int, history: tuple[int, ...]) -> int:
        """Return the sum over `groups` (classes of one node) of size + value within `r` guesses.

        Exact below `beta`, else a lower bound of at least `beta`. Smallest classes first, each cut
        off by what the others' bounds leave (the classes of one guess may come in several calls).
        """
        lbr = self.ws.lb[r]
        bounds = [int(lbr[group.size]) for group in groups]
        total = sum(group.size + b for group, b in zip(groups, bounds))
        for i in sorted(range(len(groups)), key=lambda i: groups[i].size):
            if total >= beta:
                return min(total, INF)
            if groups[i].size <= 2:
                continue
            value, _ = self.node_value(groups[i], r, beta - total + bounds[i], history)
            total += value - bounds[i]
        return min(total, INF) if total >= beta else total

    def _class_sizes(self, guesses: np.ndarray, positions: np.ndarray) -> np.ndarray:
        """Return sizes[i, code]: how many of `positions` guess row guesses[i] gives each code."""
        codes = self.table[np.ix_(guesses, positions)].astype(np.int64)
        codes += (np.arange(guesses.size, dtype=np.int64) * self.game.n_codes)[:, None]
        return np.bincount(codes.ravel(), minlength=guesses.size * self.game.n_codes).reshape(guesses.size, -1)

    def _guess_bounds(self, guesses: np.ndarray, positions: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
        """Return (bound, ordering key) of each guess at a node, as the kernel computes them."""
        sizes = self._class_sizes(guesses, positions)
        win = self.game.win_code
        hit = sizes[:, win]
        sizes[:, win] = 0
        lbr = self.ws.lb[r - 1]
        bound = hit + (np.where(sizes > 0, sizes + lbr[sizes], 0)).sum(axis=1)
        useless = (sizes.max(axis=1) == positions.size)
        bound = np.where(useless, INF, np.minimum(bound, INF))
        return bound, bound * positions.size + 2 * (sizes * sizes).sum(axis=1)

    def leading_guesses(self, positions: np.ndarray, r: int, k: int, guesses: np.ndarray | None = None) -> np.ndarray:
        """Return the `k` guess rows (of `guesses`, default all) the search expands first at a node of
        `positions` with r guesses left (least bound, then least ordering key; guesses that cannot help
        are left out)."""
        pool = self.all_guesses if guesses is None else np.asarray(guesses)
        bounds, keys = [], []
        for start in range(0, pool.size, 1024):  # blocks: a few hundred MB at most
            b, key = self._guess_bounds(pool[start:start + 1024].astype(np.int64), positions, r)
            bounds.append(b)
            keys.append(key)
        bound, key = np.concatenate(bounds), np.concatenate(keys)
        order = [int(i) for i in np.argsort(key, kind="stable") if bound[i] < INF]
        return pool[order[:k]].astype(np.int64)

    def splitting_guesses(self, positions: np.ndarray, count: int, guesses: np.ndarray | None = None) -> np.ndarray:
        """Return the `count` guess rows (of `guesses`, default all) that split `positions` into the most
        classes, the least sum of squared class sizes first among equals: an order of its own, for sets
        that the search's order misjudges."""
        pool = self.all_guesses if guesses is None else np.asarray(guesses)
        classes, squares = [], []
        for start in range(0, pool.size, 1024):  # blocks: a few hundred MB at most
            sizes = self._class_sizes(pool[start:start + 1024].astype(np.int64), positions)
            classes.append((sizes > 0).sum(axis=1))
            squares.append((sizes * sizes).sum(axis=1))
        order = np.lexsort((np.concatenate(squares), -np.concatenate(classes)))
        return pool[order[:count]].astype(np.int64)

    def _prover(self) -> "Searcher":
        # a top-k searcher's prove-mode twin, made once: its set-up reads the whole table
        if self._prove is None:
            self._prove = Searcher(self.game, self.table, SearchOptions(
                max_guesses=self.options.max_guesses, memo_bits=min(self.options.memo_bits, 20)))
        return self._prove

    def lower_bound(self, positions: np.ndarray, r: int, upper: int, seconds: float,
                    guesses: np.ndarray | None = None, ghash: int = 0) -> int:
        """Return a proven lower bound of the value (prove-mode bounds), raised until `seconds` pass.

        Each round asks the search whether the value reaches the current bound plus one; a cheap
        question while the bound is low. Stops at `upper` (then the value is proven).
        """
        prove = self if self.options.proves else self._prover()
        deadline = time.perf_counter() + seconds
        bound = int(prove.ws.lb[r, positions.size])
        while bound < upper and time.perf_counter() < deadline:
            value, _ = prove.value(positions, r, guesses, ghash, beta=bound + 1)
            if value <= bound:  # exact below the probe, and never below a valid bound: the value
                return value
            bound = value
        return min(bound, upper)

    def split(self, guess: int, positions: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """Return (code, positions) of each non-winning class of `guess`, by code."""
        codes = self.table[guess, positions]
        order = np.argsort(codes, kind="stable")
        values, starts = np.unique(codes[order], return_index=True)
        groups = np.split(positions[order], starts[1:])
        return [(int(v), g) for v, g in zip(values, groups) if v != self.game.win_code]

    def best(self, positions: np.ndarray, r: int, beta: int | None, path: tuple[int, ...], guesses=None,
             ghash: int = 0) -> tuple[int, int]:
        """Return (value fail-soft below `beta`, best guess) of the node reached by guess rows `path`."""
        if self.symmetric and len(path) < self.options.symmetry_levels:
            return self.node_value(positions, r, INF + 1 if beta is None else beta, path)
        return self.value(positions, r, guesses, ghash, beta=beta)

    def shallowest(self, positions: np.ndarray, r: int, value: int, path=(), guesses=None, ghash: int = 0) -> int:
        """Return the fewest guesses left (<= r) within which `positions` still cost `value`."""
        while r > 1 and positions.size > 1:
            lower, _ = self.best(positions, r - 1, value + 1, path, guesses, ghash)
            if lower != value:
                break
            r -= 1
        return r

    def grow(self, positions: np.ndarray, r: int, history=(), guesses=None, ghash: int = 0, first: int = -1) -> Nodes:
        """Return the optimal subtree (root parent -1) of these target positions within r guesses;
        with `first` >= 0, the best one whose root plays that guess row."""
        if guesses is None:
            guesses, ghash = self.allowed_after(history)
        nodes = Nodes()
        path = tuple(int(g) for g, _ in history)
        self._grow(nodes, -1, -1, np.asarray(positions, np.int64), r, guesses, ghash, path, first)
        return nodes

    def _grow(self, nodes: Nodes, parent: int, code: int, positions, r, guesses, ghash, path, first=-1) -> int:
        if first >= 0:
            guess = int(first)
        elif positions.size <= 2:
            guess = int(self.game.target_index[positions[0]])
        else:
            value, guess = self.best(positions, r, None, path, guesses, ghash)
            if value >= INF or guess < 0:
                raise RuntimeError(f"no tree finishes {positions.size} targets within {r} guesses")
        node = nodes.add(parent, code, len(path), guess, int(positions.size))
        total = int(positions.size)
        for child_code, group in self.split(guess, positions):
            child_guesses, child_hash = (self.restrict_guesses(guesses, guess, child_code) if self.hard
                                         else (guesses, ghash))
            child = self._grow(nodes, node, child_code, group, r - 1, child_guesses, child_hash, path + (guess,))
            total += nodes.subtree[child]
        nodes.subtree[node] = total
        return node
