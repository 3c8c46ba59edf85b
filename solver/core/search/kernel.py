"""The Numba kernel of the exact search: a fail-soft branch and bound over decision trees.

``search(ws, H, r, beta, d, guesses, ghash, free, forced) -> int64`` returns

* the least total number of guesses (summed over the candidate targets ``H``) of a tree that
  finishes every target within ``r`` guesses, choosing each guess among ``guesses`` (the node's
  allowed guess rows; below the node, every guess of ``ws.pool`` in normal mode, or ``guesses``
  filtered by the hard-mode rule of mark games, `restrict_guesses`). ``free`` says which guesses the node may
  play and hand down (`FREE_RESTRICTED`, `FREE_ANY`, `FREE_SPLITTERS`); ``forced`` >= 0 evaluates
  that single guess at this node instead (its total over the classes it makes);
* fail-soft contract (as in alpha-beta): the exact value if it is below ``beta``, otherwise some
  value in ``[beta, value]`` (a proven lower bound). Values of ``INF`` or more mean "cannot be
  finished within ``r`` guesses";
* when the value is exact, ``ws.best[d]`` holds the guess that achieves it;
* a work limit (``ws.params[P_WORK_LIMIT]`` > 0) ends the search once ``ws.stats[S_WORK]`` (the
  (guess, target) pairs its full scoring passes went through, what the time goes on) passes it:
  ``ws.stats[S_ABORTED]`` is set, every call returns ``INF`` (not a bound: the caller must ignore the
  result) and nothing more is memoised, so the memo stays true for the next search. The kernel runs
  without the GIL, so another thread may lower the limit to stop it (`Searcher.value_until`).

Joint search (``ws.shared[ACTIVE]``, `solver.core.search.parallel`): threads, each with its own
workspace, search one set together; at the set's own node (depth 0) each takes the next guess of the
common order from the shared counters and cuts off at the least total any has found. Each returns
its best (exact) or a bound over the guesses it took, unmemoised; the least of them is the set's
value, fail-soft as above. The threads may share one memo: entries are checked on reading
(`entry_mix`), so one torn by two writers reads as a miss.

Lower bounds: a table ``lb[r, m]`` (the counting bound: one target can be finished by the next
guess, at most ``b`` by the one after, ``b**2`` by the third, ... where ``b`` is the most non-winning
classes any guess makes), per-guess sums of the class bounds, memoised bounds, and the 2m test
(no candidate splits the class into singletons). Children are searched smallest first with the
sibling-aware cut-off ``beta - (total - bound(child))``. Solved sets are memoised in an
open-addressing table keyed by two order-independent 64-bit hashes of the set (plus the guesses
left and, in hard mode, a hash of the allowed list), storing ``[lower, upper]`` and the best guess;
a set given up on (lower bound ``INF``) stores instead how many levels of its search went on past the
k best (top-k widening, `settled`; the guess field holds `given_up(levels)`), so that a node widened
further searches it again and one widened as far does not. Past the k best, a widened node first
asks of each guess whether it finishes the set at all (a feasibility search below it,
``params[P_FIRST]``, memoised under keys of its own), and values only one that does.

Normal mode, prove mode, Wordle's marks (``params[P_MARKS]``): a guess cut off by one of its classes
memoises bounds of the unions of that class with those differing from it in one or two positions'
marks (`union_bounds`: the value of a union of disjoint sets is at least the sum of theirs), which
later guesses reusing known-absent letters make; and a full pass scores only the first of the
guesses alike on its set but for letters none of its targets has (`alike_key`). Neither changes a
value or a guess chosen.

Layout: why `search` is one long function. Its two halves, a forced guess's evaluation and a node's
own search, call each other (a node values each guess by a forced evaluation, which searches each
class as a node), and Numba's cache loader crashes on mutually recursive functions (numba/numba#6061:
two cached functions calling each other segfault when loaded from the cache), so the halves cannot be
functions of their own: one self-recursive function (which Numba caches) holds both. Moving only what
does not recurse out of it into ``@njit(cache=True)`` helpers was measured slower in hard mode (docs,
Benchmarks, "The exact search's kernel kept whole"), so `search` stays whole, its parts marked by the
``# --`` and ``# pass`` comments.

`ws` is a `Workspace` tuple of preallocated arrays (no allocation per node);
``d`` indexes its per-depth rows, so a recursion never overwrites what its callers still read.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

INF = np.int64(1 << 40)  # a value at or above it: the set cannot be finished within the guesses left
PROBES = 8  # slots tried per memo lookup
SMALL_SET = 64  # default of params[P_SMALL]: passes over at most this many targets read `table_t` (measured faster)
MERGE_FROM = 6  # full passes over this many targets or more score one guess of each `alike_key`
KEY_SHIFT = 24  # ordering keys (ws.cand_key) hold the guess's place in their low KEY_SHIFT bits
KEY_MASK = (1 << KEY_SHIFT) - 1
NO_GUESS = -1  # no guess: a memo entry holding bounds only, no candidate found, no best guess (yet)

# ws.params: int64 [N_PARAMS], the search's settings, made by name by `make_params`. The kernel sets
# P_FIRST during a feasibility search of its own (and back to 0); callers set P_WORK_LIMIT (another
# thread may lower it during a search), tests P_SMALL
P_WIN_CODE = 0  # the feedback code of a win (the guess was the target)
P_TOP_K = 1  # top-k: guesses expanded per node, best first (0: every one, prove mode)
P_MAX_CLASSES = 2  # the most classes any guess makes over all targets: no guess splits a larger set into singletons
P_HARD = 3  # 1: hard mode of a mark game (guesses below a node restricted by `restrict_guesses`), 0: normal mode
P_WORD_LENGTH = 4  # hard mode: letters per word, read by `restrict_guesses` (0 in normal mode)
P_ORDER = 5  # the order guesses are expanded in: ORDER_BOUND or ORDER_ENTROPY
P_WORK_LIMIT = 6  # stop once stats[S_WORK] passes this (0: never); see `search`
P_WIDEN = 7  # top-k goes on past the k best while none of them can finish, at depths below this (0: never)
P_FIRST = 8  # 1 stops at the first guess that finishes (feasibility: finite values are upper bounds)
P_SMALL = 9  # full passes over at most this many targets read `table_t` (tests set 0 or a large one)
P_MARKS = 10  # codes are base-3 marks, one digit a position (Wordle's): how many positions (0: not such codes)
N_PARAMS = 11  # slots of ws.params
PARAMS = {"win_code": P_WIN_CODE, "top_k": P_TOP_K, "max_classes": P_MAX_CLASSES, "hard": P_HARD,
          "word_length": P_WORD_LENGTH, "order": P_ORDER, "work_limit": P_WORK_LIMIT, "widen": P_WIDEN,
          "first": P_FIRST, "small": P_SMALL, "marks": P_MARKS}  # `make_params`'s names of the slots

ORDER_BOUND = 0  # params[P_ORDER]: least lower bound first, then least sum of squared class sizes (Selby's)
ORDER_ENTROPY = 1  # params[P_ORDER]: least sum of size * log2(size) first (most information), candidates first on ties

# ws.stats: int64 [N_STATS], counters the kernel adds to (`Searcher.stats`, `Searcher.work`)
S_NODES = 0  # calls that searched a node of their own (forced evaluations of one guess not counted)
S_FULL_PASSES = 1  # full scoring passes (every allowed guess scored against the node's set)
S_PROBES = 2  # memo lookups
S_HITS = 3  # memo lookups that found their entry whole
S_STORES = 4  # memo entries written into an empty or evicted slot (merges into an entry not counted)
S_ABORTED = 5  # 1 once the work limit stopped the search: every call returns INF, nothing is memoised
S_WORK = 6  # (guess, target) pairs scored: full passes, `separating_guess`, the hard-mode filter
S_MERGED_PASSES = 7  # full passes that scored one guess per class of guesses alike on the set (`alike_key`);
# each one's number marks its entries in ws.alike, so the count is never lowered
N_STATS = 8  # slots of ws.stats

# ws.shared: int64 [N_SHARED], the counters of a set searched jointly by threads (see `search`)
NEXT = 0  # the next guess to take: its place in the common order
BEST = 1  # the least total found by any thread (starts at the cut-off)
STOP = 2  # 1: one thread's total met the set's lower bound
ACTIVE = 3  # 0: the workspace's own array, no joint search
COUNT = 4  # guesses in the common order (0 until a thread's full pass is done)
N_SHARED = 5  # slots of ws.shared

# `free`, an argument of `search`: which guesses the node may play and hand down
FREE_RESTRICTED = 0  # a restricted root list (a caller's): no shortcut exits, no memo; children take any guess
FREE_ANY = 1  # every candidate may be played here (and any guess below): shortcut exits and the memo are on
FREE_SPLITTERS = 2  # a forced evaluation after its node's full pass: children take only the guesses splitting H

# the slots' older names, kept for code not yet moved to the P_ / S_ names (`watch`, tests/test_watch.py)
WORK_LIMIT, WIDEN, FIRST, SMALL = P_WORK_LIMIT, P_WIDEN, P_FIRST, P_SMALL
NODES, FULL, PROBE, HIT, STORE, ABORTED, WORK = S_NODES, S_FULL_PASSES, S_PROBES, S_HITS, S_STORES, S_ABORTED, S_WORK


def make_params(**values: int) -> np.ndarray:
    """Return ``ws.params`` with each slot set by its name (a key of `PARAMS`).

    Parameters
    ----------
    **values : int
        ``win_code``, ``top_k``, ``max_classes``, ``hard``, ``word_length``, ``order`` (all needed),
        ``work_limit``, ``widen``, ``first``, ``marks`` (default 0) and ``small`` (default `SMALL_SET`);
        see the ``P_`` constants.

    Returns
    -------
    params : numpy.ndarray, int64 [N_PARAMS]

    Raises
    ------
    TypeError
        For a name that is not a slot's, or a needed one missing.
    """
    unknown = sorted(set(values) - set(PARAMS))
    if unknown:
        raise TypeError(f"unknown search parameter(s) {', '.join(unknown)}; they are {', '.join(PARAMS)}")
    values = {"work_limit": 0, "widen": 0, "first": 0, "marks": 0, "small": SMALL_SET, **values}
    missing = [name for name in PARAMS if name not in values]
    if missing:
        raise TypeError(f"missing search parameter(s) {', '.join(missing)}")
    params = np.zeros(N_PARAMS, np.int64)
    for name, value in values.items():
        params[PARAMS[name]] = int(value)
    return params


class Workspace(NamedTuple):
    """Everything the kernel reads and writes; see `solver.core.search.searcher.make_workspace`.

    Sizes: G guess rows, T targets, W columns of an encoded guess, S symbols, P guesses of the pool
    (G), R the most guesses, D = R + 2 depths, C feedback codes, M memo slots (a power of two).
    """

    table: np.ndarray  # uint8/uint16 [G, T]: code of guess row g against target position p
    table_t: np.ndarray  # uint8/uint16 [T, G]: the same, target-major (full passes over small sets)
    target_row: np.ndarray  # int32 [T]: guess row of each target position
    rows: np.ndarray  # int32 [G, W]: the game's encoded guesses (read by the hard-mode rule)
    letter_count: np.ndarray  # uint8 [G, S]: hard mode: how often each symbol is in each guess ([1, 1] otherwise)
    alike: np.ndarray  # int64 [A, 2]: a full pass's set of `alike_key`s, open addressing: (the S_MERGED_PASSES
    # count of the pass that set it, 0: none yet; the key); A a power of two >= 2G ([1, 2] without P_MARKS)
    alike_symbols: np.ndarray  # int64 [64]: a full pass's symbol + 1 of each symbol some target has, else 0
    pool: np.ndarray  # int32 [P]: every allowed guess row (normal mode children)
    lb: np.ndarray  # int64 [R+1, T+1]: lower bound of a set of m targets with r guesses left
    params: np.ndarray  # int64 [N_PARAMS]: the settings, slots P_WIN_CODE ... P_SMALL (`make_params`)
    zobrist: np.ndarray  # uint64 [2, T]: random keys of the targets (two independent hashes)
    guess_keys: np.ndarray  # uint64 [G]: random keys of the guesses (hard-mode allowed lists)
    part: np.ndarray  # int32 [D, T]: H partitioned by the guess under evaluation
    counts: np.ndarray  # int32 [D, C]: class sizes by code (kept zero between uses)
    touched: np.ndarray  # int32 [D, C]: codes present, in order of first appearance
    cls_start: np.ndarray  # int32 [D, C]: where class j of the guess under evaluation starts in part[d]
    cls_size: np.ndarray  # int32 [D, C]: its size
    cls_code: np.ndarray  # int32 [D, C]: its code
    cls_bound: np.ndarray  # int64 [D, C]: exact value or current lower bound of each class
    cls_exact: np.ndarray  # int8 [D, C]: 1 where cls_bound is the class's exact value
    cls_order: np.ndarray  # int32 [D, C]: open classes, smallest first
    cand_guess: np.ndarray  # int32 [D, G]: guesses worth expanding at the node of depth d
    cand_bound: np.ndarray  # int64 [D, G]: their lower bounds
    # int64 [D, G]: their ordering keys (least first; place in the low KEY_SHIFT bits), then a heap of them
    cand_key: np.ndarray
    allowed: np.ndarray  # int32 [D, G]: hard mode: the allowed list handed to depth d
    useful: np.ndarray  # int32 [D, G]: normal mode: the guesses of depth d's node worth trying below it
    useful_count: np.ndarray  # int32 [D]: how many of useful[d] are set
    best: np.ndarray  # int32 [D]: the guess achieving the exact value returned at depth d
    local_b: np.ndarray  # int64 [D]: the most non-winning classes of a guess at the node of depth d (0: unknown)
    memo_key: np.ndarray  # uint64 [2, M]: the two keys (the second XORed with `entry_mix` of the values)
    memo_lo: np.ndarray  # int64 [M]: lower bound of the set's value
    memo_hi: np.ndarray  # int64 [M]: upper bound (INF: none)
    memo_guess: np.ndarray  # int32 [M]: the best guess when exact, NO_GUESS, or `given_up(levels)`
    memo_size: np.ndarray  # int32 [M]: set size (0 = empty slot); larger sets are kept on eviction
    stats: np.ndarray  # int64 [N_STATS]: counters, slots S_NODES ... S_WORK
    shared: np.ndarray  # int64 [N_SHARED]: a joint search's counters (NEXT, BEST, STOP, ACTIVE, COUNT; ACTIVE 0: none)


@njit(cache=True)
def given_up(levels):
    """Return the memo guess field of a set given up on (lower bound INF) by a search that went on
    past the k best for `levels` levels (top-k widening): ``-1 - levels``, never a guess row.

    Parameters
    ----------
    levels : int64
        Levels widened (>= 0); 0 gives NO_GUESS.

    Returns
    -------
    guess : int64
        ``-1 - levels``; `given_up_levels` reads it back.
    """
    return -1 - levels


@njit(cache=True)
def given_up_levels(guess):
    """Return the levels recorded by `given_up` in a memo guess field.

    Parameters
    ----------
    guess : int64
        A memo guess field of an entry whose lower bound is INF.

    Returns
    -------
    levels : int64
        ``-1 - guess``.
    """
    return -1 - guess


@njit(cache=True)
def set_hash(ws, H, r, ghash):
    """Return the two 64-bit memo keys of (set H, guesses left r, allowed-list hash).

    Parameters
    ----------
    ws : Workspace
    H : numpy.ndarray, int32 [n]
        Target positions, in any order (the keys are sums of per-target keys).
    r : int64
        Guesses left.
    ghash : uint64
        Hash of the allowed list (hard mode; 0 otherwise).

    Returns
    -------
    h1, h2 : uint64
        The keys (h2 never 0); a feasibility search (``params[P_FIRST]``) has keys of its own.
    """
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    z = ws.zobrist
    for i in range(H.shape[0]):
        h1 += z[0, H[i]]
        h2 += z[1, H[i]]
    return keys_of_sums(ws, h1, h2, r, H.shape[0], ghash)


@njit(cache=True)
def keys_of_sums(ws, h1, h2, r, n, ghash):
    """Return the memo keys of a set of `n` targets from the sums of their two random keys (the keys
    of a union of disjoint sets come from the sums of theirs).

    Parameters
    ----------
    ws : Workspace
    h1, h2 : uint64
        Sums of ``ws.zobrist[0]`` and ``ws.zobrist[1]`` over the set.
    r : int64
        Guesses left.
    n : int
        Targets in the set.
    ghash : uint64
        Hash of the allowed list (hard mode; 0 otherwise).

    Returns
    -------
    h1, h2 : uint64
        The keys, as `set_hash`.
    """
    h1 ^= np.uint64(r) * np.uint64(0x9E3779B97F4A7C15) + ghash
    h2 += np.uint64(r) * np.uint64(0xC2B2AE3D27D4EB4F) + np.uint64(n) + ghash * np.uint64(3)
    if ws.params[P_FIRST]:  # a feasibility search's values are upper bounds: keys of their own
        h1 ^= np.uint64(0x94D049BB133111EB)
        h2 += np.uint64(0x2545F4914F6CDD1D)
    if h2 == 0:
        h2 = np.uint64(1)
    return h1, h2


@njit(cache=True)
def entry_mix(lo, hi, guess):
    """Return a 64-bit mix of an entry's values. Its second key is stored XORed with it (Hyatt and
    Mann's lockless table): threads sharing a memo may tear an entry by writing it at once, and a torn
    entry then fails the check and reads as a miss.

    Parameters
    ----------
    lo, hi : int64
        The entry's lower and upper bounds.
    guess : int64
        Its guess field.

    Returns
    -------
    mix : uint64
    """
    x = np.uint64(lo) * np.uint64(0x9E3779B97F4A7C15)
    x ^= np.uint64(hi) * np.uint64(0xBF58476D1CE4E5B9)
    x ^= np.uint64(np.int64(guess) + np.int64(1 << 32)) * np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@njit(cache=True)
def memo_find(ws, h1, h2):
    """Return the memo entry of (h1, h2). The values are read once and checked, as another thread
    may be rewriting the entry. Counts a probe (and a hit) in ``ws.stats``.

    Parameters
    ----------
    ws : Workspace
    h1, h2 : uint64
        The keys (`set_hash`).

    Returns
    -------
    slot : int
        Its slot, -1 if none.
    lo, hi : int64
        Its lower and upper bounds (0, INF if none).
    guess : int64
        Its guess field (the best guess, NO_GUESS or `given_up`; NO_GUESS if none).
    """
    mask = ws.memo_size.shape[0] - 1
    slot = int(h1 & np.uint64(mask))
    ws.stats[S_PROBES] += 1
    for i in range(PROBES):
        s = (slot + i) & mask
        if ws.memo_size[s] == 0:
            break
        found, lo, hi, guess = entry_at(ws, s, h1, h2)
        if found:
            ws.stats[S_HITS] += 1
            return s, lo, hi, guess
    return -1, np.int64(0), INF, np.int64(NO_GUESS)


@njit(cache=True)
def entry_at(ws, s, h1, h2):
    """Return whether slot `s` holds the entry of (h1, h2) whole, and its values.

    Parameters
    ----------
    ws : Workspace
    s : int
        A memo slot.
    h1, h2 : uint64
        The keys.

    Returns
    -------
    found : bool
    lo, hi : int64
        Lower and upper bounds (0, INF if not found).
    guess : int64
        Guess field (NO_GUESS if not found).
    """
    if ws.memo_key[0, s] != h1:
        return False, np.int64(0), INF, np.int64(NO_GUESS)
    lo = ws.memo_lo[s]
    hi = ws.memo_hi[s]
    guess = np.int64(ws.memo_guess[s])
    return ws.memo_key[1, s] ^ entry_mix(lo, hi, guess) == h2, lo, hi, guess


@njit(cache=True)
def memo_write(ws, s, h1, h2, n, lo, hi, guess):
    """Write a whole entry into slot `s` (keys, values, size).

    Parameters
    ----------
    ws : Workspace
    s : int
        The slot.
    h1, h2 : uint64
        The keys.
    n : int
        The set's size.
    lo, hi : int64
        Lower and upper bounds.
    guess : int
        Guess field.
    """
    ws.memo_key[0, s] = h1
    ws.memo_lo[s] = lo
    ws.memo_hi[s] = hi
    ws.memo_guess[s] = guess
    ws.memo_size[s] = n
    ws.memo_key[1, s] = h2 ^ entry_mix(lo, hi, guess)


@njit(cache=True)
def memo_store(ws, h1, h2, n, lo, hi, guess):
    """Merge [lo, hi] (and the guess when exact) into the entry of (h1, h2), evicting a smaller set;
    nothing once the search is aborted (its values are not bounds).

    Parameters
    ----------
    ws : Workspace
    h1, h2 : uint64
        The keys (`set_hash`).
    n : int
        The set's size (eviction keeps the larger sets).
    lo, hi : int64
        Proven lower and upper bounds (hi INF: none).
    guess : int
        The guess achieving ``hi`` when exact, NO_GUESS, or `given_up(levels)` when ``lo`` is INF.
    """
    if ws.stats[S_ABORTED]:  # an aborted search's values are not bounds: keep the memo true
        return
    mask = ws.memo_size.shape[0] - 1
    slot = int(h1 & np.uint64(mask))
    victim = -1
    for i in range(PROBES):
        s = (slot + i) & mask
        if ws.memo_size[s] == 0:
            victim = s
            break
        found, old_lo, old_hi, old_guess = entry_at(ws, s, h1, h2)
        if found:
            new_guess = old_guess
            if hi < old_hi:
                new_guess = guess
            elif lo >= INF and guess < old_guess < 0:
                new_guess = guess  # given up on again, widened more levels below (`given_up`: more is lower)
            memo_write(ws, s, h1, h2, n, max(lo, old_lo), min(hi, old_hi), new_guess)
            return
        if victim < 0 or ws.memo_size[s] < ws.memo_size[victim]:
            victim = s
    if ws.memo_size[victim] > n:
        return
    ws.stats[S_STORES] += 1
    memo_write(ws, victim, h1, h2, n, lo, hi, guess)


@njit(cache=True)
def widened_levels(ws, d, r):
    """Return how many levels of a search at depth `d` with `r` guesses left go on past the k best
    (top-k: ``params[P_WIDEN]``; 0 below it): the node's own and those below it.

    Parameters
    ----------
    ws : Workspace
    d : int64
        Depth of the node.
    r : int64
        Guesses left.

    Returns
    -------
    levels : int64
    """
    return max(0, min(ws.params[P_WIDEN] - d, r))


@njit(cache=True)
def settled(ws, lo, guess, d, r):
    """Return whether a memo entry may answer a node at depth `d` with `r` guesses left: any entry
    but a set given up on (lower bound INF) by a search widened fewer levels than this node's.

    Parameters
    ----------
    ws : Workspace
    lo : int64
        The entry's lower bound.
    guess : int64
        Its guess field (`given_up(levels)` when ``lo`` is INF).
    d : int64
        Depth of the node.
    r : int64
        Guesses left.

    Returns
    -------
    settled : bool
    """
    if lo < INF:
        return True
    return given_up_levels(guess) >= widened_levels(ws, d, r)


@njit(cache=True)
def alike_key(row, marks, letters):
    """Return a guess's letters with those not in `letters` left out, position by position (Wordle's
    marks, ``params[P_MARKS]``): guesses with one key score every target of those letters alike. A
    letter no target has is grey wherever it stands and takes no mark from another letter; the
    others are the same letters in the same places.

    The search computes it written out (a call per guess costs more than the key); the tests read this.

    Parameters
    ----------
    row : numpy.ndarray, int32 [W]
        The guess's row of ``ws.rows`` (symbols below 63, at most 10 positions: `searcher.marks`).
    marks : int64
        Its positions, ``params[P_MARKS]``.
    letters : int64
        Bit s set for each symbol s some target has.

    Returns
    -------
    key : int64
        Six bits a position: 0 for a letter left out, else its symbol + 1.
    """
    key = np.int64(0)
    for p in range(marks):
        symbol = np.int64(row[p])
        if (letters >> symbol) & 1:
            key |= (symbol + 1) << (6 * p)
    return key


@njit(cache=True)
def union_bounds(ws, d, k, j, r):
    """Memoise lower bounds of unions of classes of the guess evaluated at depth `d`, after its class
    `j` cut it off (normal mode, prove mode, base-3 marks: ``params[P_MARKS]``).

    A later guess differing from this one only in a letter (or two) known absent from every target
    (Selby's "long tail" of guesses reusing known-absent letters) makes, where this one had classes
    differing only in those letters' marks, their union. In normal mode the value of a union of
    disjoint sets is at least the sum of theirs (a tree for the union, followed on each set alone,
    finishes each target as deep; the guesses allowed are the same): so each union of class `j` with
    the classes differing from it in one position's mark, or two, is memoised with the sum of their
    bounds, and the later guess is cut off by its memo probes instead of a search (a sixth fewer full
    passes in a large state's proof). The bounds hold whatever the codes mean; P_MARKS only says which
    unions later guesses make.

    Parameters
    ----------
    ws : Workspace
        Reads the classes at depth `d` (``cls_*``, ``part[d]``); uses ``counts[d]`` (left zero).
    d : int64
        Depth of the evaluation.
    k : int
        Its classes.
    j : int
        The class that cut it off.
    r : int64
        Guesses left below the guess (the classes' own).
    """
    counts = ws.counts[d]
    for x in range(k):
        counts[ws.cls_code[d, x]] = x + 1
    code = np.int64(ws.cls_code[d, j])
    marks = ws.params[P_MARKS]
    # the unions along one position (p == q), then along two: each a sum of at most 9 classes
    for p in range(marks):
        for q in range(p, marks):
            union_bound(ws, d, code, np.int64(3) ** p, np.int64(3) ** q, r)
    for x in range(k):
        counts[ws.cls_code[d, x]] = 0


@njit(cache=True)
def union_bound(ws, d, code, place, other, r):
    """Memoise the bound of one union of `union_bounds`: the classes whose codes differ from `code`
    only in the digits of `place` and `other` (equal: one digit), if more than one and not all
    differing in one digit only (that union is memoised on its own).

    Parameters
    ----------
    ws : Workspace
        ``counts[d]`` maps each code of the evaluation to its class + 1.
    d : int64
        Depth of the evaluation.
    code : int64
        The code of the class that cut it off.
    place, other : int64
        Powers of 3: the digits whose marks vary.
    r : int64
        Guesses left below the guess.
    """
    counts = ws.counts[d]
    win = ws.params[P_WIN_CODE]
    z = ws.zobrist
    part = ws.part[d]
    base = code - (code // place) % 3 * place
    if other != place:
        base -= (code // other) % 3 * other
    members = 0
    lo = np.int64(0)
    size = 0
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    digits_a = 0  # the values of each varying digit among the members, as bits
    digits_b = 0
    for a in range(3):
        for b in range(3 if other != place else 1):
            x = counts[base + a * place + b * other] - 1
            if x < 0:
                continue
            members += 1
            digits_a |= 1 << a
            digits_b |= 1 << b
            lo += 1 if ws.cls_code[d, x] == win else ws.cls_bound[d, x]  # a won target: one guess
            start = ws.cls_start[d, x]
            for i in range(start, start + ws.cls_size[d, x]):
                h1 += z[0, part[i]]
                h2 += z[1, part[i]]
            size += ws.cls_size[d, x]
    single = digits_a & (digits_a - 1) == 0 or digits_b & (digits_b - 1) == 0  # one digit varies (or none)
    if members < 2 or size <= 2 or (other != place and single):
        return
    c1, c2 = keys_of_sums(ws, h1, h2, r, size, np.uint64(0))
    if lo >= INF:
        memo_store(ws, c1, c2, size, INF, INF, given_up(widened_levels(ws, d + 1, r)))
    else:
        memo_store(ws, c1, c2, size, lo, INF, NO_GUESS)


@njit(cache=True)
def counting_bound(b, r, m):
    """Return the least total of guesses finishing m targets within r when no guess makes more than b
    non-winning classes (one target finished by the first guess, b by the second, b**2 by the third,
    ...).

    Parameters
    ----------
    b : int64
        The most non-winning classes of a guess (taken as 1 if less).
    r : int64
        Guesses left.
    m : int
        Targets.

    Returns
    -------
    bound : int64
        The bound, INF if they cannot be finished within r.
    """
    total = np.int64(0)
    width = np.int64(1)
    left = np.int64(m)
    for depth in range(1, r + 1):
        take = min(width, left)
        total += depth * take
        left -= take
        if left == 0:
            return total
        width = min(width * max(b, 1), left)
    return INF


@njit(cache=True)
def count_classes(row, H, counts, touched):
    """Add the class sizes of H under one table row to `counts`; list the new codes in `touched`.

    Parameters
    ----------
    row : numpy.ndarray, uint8/uint16 [T]
        Codes of one guess against every target (a row of ``ws.table`` or column of ``ws.table_t``).
    H : numpy.ndarray, int32 [n]
        Target positions.
    counts : numpy.ndarray, int32 [C]
        Class sizes by code, added to (zero where the caller has no classes yet).
    touched : numpy.ndarray, int32 [C]
        Written: the codes counts had none of, in order of first appearance.

    Returns
    -------
    k : int
        How many codes were new (entries of `touched` written).
    """
    k = 0
    for i in range(H.shape[0]):
        c = row[H[i]]
        if counts[c] == 0:
            touched[k] = c
            k += 1
        counts[c] += 1
    return k


@njit(cache=True)
def restrict_guesses(ws, guesses, g, code, out):
    """Write the guesses still allowed after guess g got `code` into `out` (hard mode).

    Hard mode of mark games (Wordle's; `solver.games.wordle.hard_mode_requirements` states the rule,
    and the tests hold this against it) with the constraint read from the code once: the greens' positions, then each
    marked letter with the least count it needs; each guess is then checked against its row and its
    precomputed letter counts (`ws.letter_count`), about a nanosecond a guess where the rule takes 18.

    Parameters
    ----------
    ws : Workspace
        Reads ``rows``, ``letter_count``, ``guess_keys`` and ``params[P_WORD_LENGTH]``.
    guesses : numpy.ndarray, int32 [g]
        The allowed guess rows before `g` was played.
    g : int
        The guess row played.
    code : int64
        Its feedback code (base 3, one digit a letter: 0 grey, 1 yellow, 2 green).
    out : numpy.ndarray, int32 [>= g]
        Written: the guess rows still allowed, in their order in `guesses`.

    Returns
    -------
    count : int
        How many were written to `out`.
    ghash : uint64
        Their hash (the sum of their ``guess_keys``), part of the memo key.
    """
    length = ws.params[P_WORD_LENGTH]
    word = ws.rows[g]
    greens = np.empty(length, np.int64)
    letters = np.empty(length, np.int64)
    needs = np.empty(length, np.int64)
    n_green = 0
    n_letter = 0
    rest = code
    for i in range(length):
        mark = rest % 3
        rest //= 3
        if mark == 2:
            greens[n_green] = i
            n_green += 1
        if mark != 0:
            at = 0
            while at < n_letter and letters[at] != word[i]:
                at += 1
            if at == n_letter:
                letters[at] = word[i]
                needs[at] = 0
                n_letter += 1
            needs[at] += 1
    counts = ws.letter_count
    count = 0
    gh = np.uint64(0)
    for gi in range(guesses.shape[0]):
        x = guesses[gi]
        row = ws.rows[x]
        allowed = True
        for j in range(n_green):
            if row[greens[j]] != word[greens[j]]:
                allowed = False
                break
        if allowed:
            for j in range(n_letter):
                if counts[x, letters[j]] < needs[j]:
                    allowed = False
                    break
        if allowed:
            out[count] = x
            gh += ws.guess_keys[x]
            count += 1
    return count, gh


@njit(cache=True)
def perfect_candidate(ws, H, d):
    """Return a candidate (a target's guess row) splitting H into singletons, and one leaving one pair.

    Parameters
    ----------
    ws : Workspace
    H : numpy.ndarray, int32 [n]
        Target positions.
    d : int64
        Depth whose ``counts`` and ``touched`` rows it uses (left zero).

    Returns
    -------
    perfect : int
        A guess row giving each target of H its own code, or NO_GUESS.
    pair : int
        A guess row giving all but two of them their own code (seen before the perfect one), or NO_GUESS.
    """
    n = H.shape[0]
    if n > ws.params[P_MAX_CLASSES]:
        return NO_GUESS, NO_GUESS
    counts = ws.counts[d]
    touched = ws.touched[d]
    pair = NO_GUESS
    for a in range(n):
        g = ws.target_row[H[a]]
        k = count_classes(ws.table[g], H, counts, touched)
        for j in range(k):
            counts[touched[j]] = 0
        if k == n:
            return g, pair
        if k == n - 1 and pair < 0:
            pair = g
    return NO_GUESS, pair


@njit(cache=True, nogil=True)
def separating_guess(ws, H, guesses, d):
    """Return a guess of `guesses` giving each target of H its own code. Pairs of targets are tried
    in turn, each keeping the guesses that tell those two apart (`ws.cand_guess[d]` holds them: this
    node's full pass has not begun), so a pass touches about one byte per guess and survivor: far
    less than scoring every guess on every target when, as usual, few guesses survive.

    Parameters
    ----------
    ws : Workspace
        Reads ``table_t``; adds the (guess, target pair) checks to ``stats[S_WORK]``.
    H : numpy.ndarray, int32 [n]
        Target positions, n >= 2.
    guesses : numpy.ndarray, int32 [g]
        The guess rows to try.
    d : int64
        Depth whose ``cand_guess`` row holds the survivors.

    Returns
    -------
    guess : int
        The first survivor (in the order of `guesses`), or NO_GUESS if no guess separates H.
    """
    n = H.shape[0]
    tt = ws.table_t
    keep = ws.cand_guess[d]
    a = tt[H[0]]
    b = tt[H[1]]
    m = 0
    for gi in range(guesses.shape[0]):
        g = guesses[gi]
        if a[g] != b[g]:
            keep[m] = g
            m += 1
    checked = guesses.shape[0]
    for j in range(2, n):
        b = tt[H[j]]
        for i in range(j):
            if m == 0:
                ws.stats[S_WORK] += checked
                return NO_GUESS
            a = tt[H[i]]
            kept = 0
            for si in range(m):
                g = keep[si]
                if a[g] != b[g]:
                    keep[kept] = g
                    kept += 1
            checked += m
            m = kept
    ws.stats[S_WORK] += checked
    return keep[0] if m > 0 else NO_GUESS


@njit(cache=True, nogil=True)
def search(ws, H, r, beta, d, guesses, ghash, free, forced):
    """Return the least total of guesses finishing every target of `H` within `r` guesses, fail-soft
    below `beta` (see the module docstring); with `forced` >= 0, the total of playing that guess here.

    Self-recursive, in two halves that call each other (one function: see "Layout" in the module
    docstring): a forced guess's evaluation (its classes sorted out, their bounds in passes 1, 2 and
    2b, then the open ones searched, smallest first, with the sibling-aware cut-off) and a node's own
    search (closed forms, memo, its full pass scoring every guess, then the kept guesses valued in
    order, each cut off at the best total so far).

    Parameters
    ----------
    ws : Workspace
        The preallocated arrays; the per-depth rows ``d`` and deeper are this call's scratch.
    H : numpy.ndarray, int32 [n]
        The candidate targets (target positions, columns of ``ws.table``), n >= 1.
    r : int64
        Guesses left.
    beta : int64
        The cut-off (``INF + 1``: none).
    d : int64
        Depth of this call (0 at the caller's): the index of its per-depth workspace rows.
    guesses : numpy.ndarray, int32 [g]
        The guess rows this node may play (hard mode: the allowed list).
    ghash : uint64
        The hash of `guesses` in hard mode (`restrict_guesses`), 0 otherwise: part of the memo keys.
    free : int64
        FREE_RESTRICTED, FREE_ANY or FREE_SPLITTERS: which guesses the node may play and hand down.
    forced : int64
        A guess row to evaluate at this node instead of choosing one; NO_GUESS (< 0): choose.

    Returns
    -------
    value : int64
        Exact if below `beta` (then, unless forced, ``ws.best[d]`` holds the guess achieving it),
        otherwise a lower bound of at least `beta` (INF or more: not finishable within `r`). INF and
        no bound at all once ``ws.stats[S_ABORTED]`` is set. A thread's part of a joint search
        (``ws.shared[ACTIVE]``, d = 0) is exact or a bound over the guesses it took.
    """
    if ws.stats[S_ABORTED]:
        return INF
    if forced >= 0:
        # -- the total of guess `forced` here: its classes' bounds, then the open ones searched ------
        g = forced
        n = H.shape[0]
        win = ws.params[P_WIN_CODE]
        counts = ws.counts[d]
        touched = ws.touched[d]
        row = ws.table[g]
        k = count_classes(row, H, counts, touched)
        # counting sort of H into part[d], class by class
        start = 0
        for j in range(k):
            c = touched[j]
            ws.cls_code[d, j] = c
            ws.cls_start[d, j] = start
            ws.cls_size[d, j] = counts[c]
            start += counts[c]
            counts[c] = ws.cls_start[d, j]  # becomes the write cursor
        part = ws.part[d]
        for i in range(n):
            c = row[H[i]]
            part[counts[c]] = H[i]
            counts[c] += 1
        for j in range(k):
            counts[touched[j]] = 0
        # pass 1: closed forms and table bounds; where this node's full pass is done, the counting bound
        # with its own most non-winning classes of a guess (`local_b`), which no guess below exceeds
        lbr = ws.lb[r - 1]
        local_b = ws.local_b[d]
        total = np.int64(0)
        for j in range(k):
            size = ws.cls_size[d, j]
            if ws.cls_code[d, j] == win:
                ws.cls_bound[d, j] = 0
                ws.cls_exact[d, j] = 1
                total += 1
                continue
            ws.cls_bound[d, j] = counting_bound(local_b, r - 1, size) if local_b > 0 else lbr[size]
            ws.cls_exact[d, j] = 1 if size <= 2 else 0
            total += size + ws.cls_bound[d, j]
        if total >= beta:
            return min(total, INF)
        # pass 2: memo bounds (normal mode) and the no-perfect-candidate bound of each open class
        hard = ws.params[P_HARD]
        for j in range(k):
            if ws.cls_exact[d, j]:
                continue
            size = ws.cls_size[d, j]
            C = part[ws.cls_start[d, j]:ws.cls_start[d, j] + size]
            bound = ws.cls_bound[d, j]
            c1 = c2 = np.uint64(0)
            if not hard:  # hard mode: the key needs the child's allowed list, made in pass 3
                c1, c2 = set_hash(ws, C, r - 1, np.uint64(0))
                slot, lo, hi, guess = memo_find(ws, c1, c2)
                if slot >= 0 and settled(ws, lo, guess, d + 1, r - 1):
                    if lo == hi:
                        ws.cls_exact[d, j] = 1
                    if lo > bound:
                        bound = lo
            if not ws.cls_exact[d, j]:
                # candidates are allowed in hard mode too: they agree with every hint
                perfect, pair = perfect_candidate(ws, C, d + 1)
                if perfect >= 0:
                    bound = 2 * size - 1
                    ws.cls_exact[d, j] = 1
                    if not hard:
                        memo_store(ws, c1, c2, size, bound, bound, perfect)
                elif pair >= 0 and r >= 4:  # a candidate leaving one pair, three guesses left below: 2n
                    bound = 2 * size
                    ws.cls_exact[d, j] = 1
                    if not hard:
                        memo_store(ws, c1, c2, size, bound, bound, pair)
                elif 2 * size > bound:
                    bound = 2 * size
            total += bound - ws.cls_bound[d, j]
            ws.cls_bound[d, j] = bound
            if total >= beta:
                return min(total, INF)
        # pass 2b (normal mode): within reach of the cut-off, each open class at 2 * size that no guess
        # splits into singletons adds one (`separating_guess`, far cheaper than searching it)
        if not hard and r >= 3:
            raisable = 0
            for j in range(k):
                if not ws.cls_exact[d, j] and ws.cls_bound[d, j] == 2 * ws.cls_size[d, j]:
                    raisable += 1
            if 0 < beta - total <= raisable:
                pool = ws.useful[d, :ws.useful_count[d]] if free == FREE_SPLITTERS else ws.pool
                for j in range(k):
                    size = ws.cls_size[d, j]
                    if ws.cls_exact[d, j] or ws.cls_bound[d, j] != 2 * size:
                        continue
                    C = part[ws.cls_start[d, j]:ws.cls_start[d, j] + size]
                    c1, c2 = set_hash(ws, C, r - 1, np.uint64(0))
                    if size == ws.params[P_MAX_CLASSES] + 1:
                        raisable -= 1  # no guess splits it into singletons, but a candidate may leave one pair
                        continue
                    split = separating_guess(ws, C, pool, d + 1) if size <= ws.params[P_MAX_CLASSES] else NO_GUESS
                    if split >= 0:
                        memo_store(ws, c1, c2, size, 2 * size, 2 * size, split)
                        ws.cls_exact[d, j] = 1
                        raisable -= 1
                    else:
                        memo_store(ws, c1, c2, size, 2 * size + 1, INF, NO_GUESS)
                        ws.cls_bound[d, j] = 2 * size + 1
                        total += 1
                        raisable -= 1
                        if total >= beta:
                            return min(total, INF)
                    if beta - total > raisable:
                        break
        # pass 3: search the open classes, smallest first
        open_count = 0
        order = ws.cls_order[d]
        for j in range(k):
            if not ws.cls_exact[d, j]:
                size = ws.cls_size[d, j]
                at = open_count
                while at > 0 and ws.cls_size[d, order[at - 1]] > size:
                    order[at] = order[at - 1]
                    at -= 1
                order[at] = j
                open_count += 1
        for oi in range(open_count):
            j = order[oi]
            size = ws.cls_size[d, j]
            C = part[ws.cls_start[d, j]:ws.cls_start[d, j] + size]
            bound = ws.cls_bound[d, j]
            child_beta = beta - total + bound
            if ws.params[P_HARD]:
                # the hard-mode filter: about a pass per letter
                ws.stats[S_WORK] += guesses.shape[0] * ws.params[P_WORD_LENGTH]
                count, gh = restrict_guesses(ws, guesses, g, np.int64(ws.cls_code[d, j]), ws.allowed[d + 1])
                value = search(ws, C, r - 1, child_beta, d + 1, ws.allowed[d + 1, :count], gh, np.int64(FREE_ANY),
                               np.int64(NO_GUESS))
            else:
                # FREE_SPLITTERS (from this node's full pass): only the guesses that split H can help below it
                pool = ws.useful[d, :ws.useful_count[d]] if free == FREE_SPLITTERS else ws.pool
                value = search(ws, C, r - 1, child_beta, d + 1, pool, np.uint64(0), np.int64(FREE_ANY),
                               np.int64(NO_GUESS))
            if ws.stats[S_ABORTED]:
                return INF
            total += value - bound
            ws.cls_bound[d, j] = value
            if total >= beta:
                if not hard and ws.params[P_MARKS] > 0 and ws.params[P_TOP_K] == 0 and ws.params[P_FIRST] == 0:
                    union_bounds(ws, d, k, j, r - 1)
                return min(total, INF)
        return total
    # -- the node's own search: closed forms, memo, full pass, then its guesses in order ------------
    ws.stats[S_NODES] += 1
    if ws.params[P_WORK_LIMIT] > 0 and ws.stats[S_WORK] > ws.params[P_WORK_LIMIT]:
        ws.stats[S_ABORTED] = 1
    if ws.stats[S_ABORTED]:
        return INF
    n = H.shape[0]
    if r <= 0:
        return INF
    if n == 1:
        ws.best[d] = ws.target_row[H[0]]
        return np.int64(1)
    if r == 1:
        return INF
    if n == 2 and free != FREE_RESTRICTED:
        ws.best[d] = ws.target_row[H[0]]
        return np.int64(3)
    lb = ws.lb[r, n]
    if lb >= beta:
        return lb
    win = ws.params[P_WIN_CODE]
    topk = ws.params[P_TOP_K]
    # -- memo ------------------------------------------------------------------------------
    h1, h2 = set_hash(ws, H, r, ghash)
    no_entry = (-1, np.int64(0), INF, np.int64(NO_GUESS))  # a restricted list is not memoised
    slot, lo, hi, guess = memo_find(ws, h1, h2) if free != FREE_RESTRICTED else no_entry
    if slot >= 0 and not settled(ws, lo, guess, d, r):
        slot = -1  # given up on where it was widened less: widened here, it may still finish
    if slot >= 0:
        if lo == hi:
            ws.best[d] = guess
            return lo
        if lo >= beta:
            return lo
        if lo > lb:
            lb = lo
    # -- a candidate splitting H into singletons is optimal (2n-1); one leaving a pair, 2n --
    if free != FREE_RESTRICTED:
        perfect, pair = perfect_candidate(ws, H, d)
        if perfect >= 0:
            memo_store(ws, h1, h2, n, 2 * n - 1, 2 * n - 1, perfect)
            ws.best[d] = perfect
            return np.int64(2 * n - 1)
        if pair >= 0 and r >= 3:
            memo_store(ws, h1, h2, n, 2 * n, 2 * n, pair)
            ws.best[d] = pair
            return np.int64(2 * n)
        if 2 * n > lb:
            lb = 2 * n
            if lb >= beta:
                memo_store(ws, h1, h2, n, lb, INF, given_up(r) if lb >= INF else NO_GUESS)  # a bound: proven
                return lb
        if beta == 2 * n + 1 and lb == 2 * n and n != ws.params[P_MAX_CLASSES] + 1:
            # the cut-off is the least value above 2n, which needs a guess splitting H into singletons
            # (or the pair candidate above): a cheap test of that one question spares the full pass
            g = separating_guess(ws, H, guesses, d) if n <= ws.params[P_MAX_CLASSES] else NO_GUESS
            if g >= 0:
                memo_store(ws, h1, h2, n, 2 * n, 2 * n, g)
                ws.best[d] = g
                return np.int64(2 * n)
            memo_store(ws, h1, h2, n, 2 * n + 1, INF, NO_GUESS)
            return np.int64(2 * n + 1)
    # -- score every allowed guess: its bound, ordering key, shortcut exits -----------------
    ws.stats[S_FULL_PASSES] += 1
    ws.local_b[d] = 0  # this node's own, once its pass is done (its forced evaluations read it)
    most = 1  # the most non-winning classes of a guess here: a guess skipped below makes one
    counts = ws.counts[d]
    touched = ws.touched[d]
    lbr = ws.lb[r - 1]
    m = 0
    node_lb = INF
    above = INF  # least bound among guesses not worth expanding (>= beta)
    by_entropy = ws.params[P_ORDER] == ORDER_ENTROPY
    # normal mode: the guesses that split H are handed to the children (a guess giving every target
    # of H one code does so on each subset of H: it can never help below)
    keep = free != FREE_RESTRICTED and ws.params[P_HARD] == 0 and r >= 3
    useful = ws.useful[d]
    u = 0
    small = n <= ws.params[P_SMALL]
    # every class of at most n targets has the bound 2 * size - 1 (r - 1 >= 2 and n within the counting
    # bound's second level): a guess's bound is then 3n - k - hit (k classes, hit: a candidate), and
    # its classes need not be listed, only counted
    closed = small and not by_entropy and n >= 2 and lbr[n] == 2 * n - 1
    tt = ws.table_t
    # normal mode, marks (Wordle's): guesses alike but for letters none of H has score H alike; one
    # of them, the first, stands for them all (prove mode only: top-k's k best would change)
    merge = (not ws.params[P_HARD] and ws.params[P_MARKS] > 0 and ws.params[P_TOP_K] == 0 and n >= MERGE_FROM)
    stamp = np.int64(0)
    marks = ws.params[P_MARKS]
    alike = ws.alike
    alike_mask = alike.shape[0] - 1
    symbol_key = ws.alike_symbols
    merged = 0  # guesses not scored: one alike came first
    if merge:
        ws.stats[S_MERGED_PASSES] += 1
        stamp = ws.stats[S_MERGED_PASSES]
        letters = np.int64(0)
        for i in range(n):
            row = ws.rows[ws.target_row[H[i]]]
            for p in range(marks):
                letters |= np.int64(1) << row[p]
        for symbol in range(64):
            symbol_key[symbol] = symbol + 1 if (letters >> symbol) & 1 else 0
    for gi in range(guesses.shape[0]):
        g = guesses[gi]
        if merge:
            # `alike_key`, then whether it is new in this pass (an open-addressing set, entries of other
            # passes empty), written out: a call per guess costs more than they do
            key = np.int64(0)
            for p in range(marks):
                key |= symbol_key[ws.rows[g, p]] << (6 * p)
            slot = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)) & alike_mask
            while alike[slot, 0] == stamp and alike[slot, 1] != key:
                slot = (slot + 1) & alike_mask
            if alike[slot, 0] == stamp:
                merged += 1
                continue  # a guess alike on H came first
            alike[slot, 0] = stamp
            alike[slot, 1] = key
        if closed:
            k = 0
            s2 = np.int64(0)  # the sum of squared class sizes, win class included: each target adds 2 * size - 1
            for i in range(n):
                c = tt[H[i], g]
                size = counts[c] + 1
                counts[c] = size
                if size == 1:
                    k += 1
                s2 += 2 * size - 1
            hit = counts[win] > 0
            for i in range(n):
                counts[tt[H[i], g]] = 0
            if hit:
                s2 -= 1
                bound = np.int64(3 * n - k - 1)
            else:
                bound = np.int64(3 * n - k)
            slog = 0.0
        else:
            # over a small H, the target-major rows of its targets stay in the cache from one guess to
            # the next, where the guess-major rows load a cache line per (guess, target) pair
            if small:
                k = count_classes(tt[:, g], H, counts, touched)
            else:
                k = count_classes(ws.table[g], H, counts, touched)
            hit = counts[win] > 0
            bound = np.int64(0)
            s2 = np.int64(0)
            slog = 0.0
            for j in range(k):
                c = touched[j]
                size = counts[c]
                counts[c] = 0
                if c == win:
                    bound += 1
                else:
                    bound += size + lbr[size]
                    s2 += size * size
                    if by_entropy:  # a logarithm per class costs as much as the counting
                        slog += size * np.log2(size)
        if k - (1 if hit else 0) > most:
            most = k - (1 if hit else 0)
        if k == 1 and not hit:
            continue  # leaves H as it is
        if keep:
            useful[u] = g
            u += 1
        if k == n and free != FREE_RESTRICTED:
            # a non-candidate splitting H into singletons: 2n, optimal once no candidate does
            memo_store(ws, h1, h2, n, bound, bound, g)
            ws.best[d] = g
            ws.stats[S_WORK] += (gi + 1 - merged) * n  # the guesses scored: counted once the pass ends
            return bound
        if bound >= INF:
            continue
        if bound < node_lb:
            node_lb = bound
        if bound >= beta:
            if bound < above:
                above = bound
            continue
        ws.cand_guess[d, m] = g
        ws.cand_bound[d, m] = bound
        # the ordering key, with the guess's place m in its low bits (ties: the order of `guesses`)
        if by_entropy:  # order by entropy (least sum of size*log2(size)), candidates first on ties
            ws.cand_key[d, m] = ((np.int64(slog * 4096.0) * 2 + (0 if hit else 1)) << KEY_SHIFT) | m
        else:
            ws.cand_key[d, m] = ((bound * n + 2 * s2) << KEY_SHIFT) | m
        m += 1
    # counted once the pass ends (not ahead, less the guesses not scored): a progress display reading
    # the count while the kernel runs never sees it go down
    ws.stats[S_WORK] += (guesses.shape[0] - merged) * n
    if node_lb > lb:
        lb = node_lb
    # no guess here, nor on any subset below (a subset of H, guesses among these or splitting no more of
    # it), makes more than `most` non-winning classes: the counting bound with it (hard mode: a family
    # whose other letters are known, one word ruled out a guess, is INF at once when larger than the
    # guesses left). Not on a restricted root list (FREE_RESTRICTED), whose children take any guess.
    if free != FREE_RESTRICTED:
        ws.local_b[d] = most
        local = counting_bound(most, r, n)
        if local > lb:
            lb = local
    if lb >= beta:
        if free != FREE_RESTRICTED:
            memo_store(ws, h1, h2, n, lb, INF, given_up(r) if lb >= INF else NO_GUESS)  # a bound: proven
        return lb
    ws.useful_count[d] = u
    child_free = np.int64(FREE_SPLITTERS) if keep else free
    # the guesses come out in order from a heap, lazily: a node expands a few of its thousands of
    # guesses before a cut-off, and sorting them all cost a quarter of a proof's time
    heap = ws.cand_key[d]
    heap_make(heap, m)
    heaped = m  # entries left in the heap
    taken = 0  # entries taken from it: the first `taken` of the order
    limit = m
    if topk > 0 and m > topk:
        limit = topk
    # -- expand the guesses in order -------------------------------------------------------
    best = INF
    best_guess = NO_GUESS
    failed = above
    # a set searched jointly by threads (`ws.shared[ACTIVE]`, at its own root only): each takes the next
    # guess in the common order from the shared counter and cuts off at the best total any has found
    joint = d == 0 and ws.shared[ACTIVE] != 0
    if joint:
        ws.shared[COUNT] = m
    oi = -1
    while True:
        if joint:
            if ws.shared[STOP]:
                break
            oi = ws.shared[NEXT]
            ws.shared[NEXT] = oi + 1  # a race may hand a guess to both threads, never skip one
            if ws.shared[BEST] < beta:
                beta = ws.shared[BEST]
        else:
            oi += 1
        if oi >= m:
            break
        # top-k: the k best only; widened (the first params[P_WIDEN] levels of the call), the next ones
        # too while none finishes at all (each one tried gave INF, or a bound a little below it that a
        # cut-off near INF leaves): such a set is not given up on
        if oi >= limit and (d >= ws.params[P_WIDEN] or best < INF // 2 or failed < INF // 2):
            break
        while taken <= oi:
            j = heap[0] & KEY_MASK
            heaped -= 1
            heap[0] = heap[heaped]
            heap_sift(heap, heaped)
            taken += 1
        g = ws.cand_guess[d, j]
        if ws.cand_bound[d, j] >= beta:
            if ws.cand_bound[d, j] < failed:
                failed = ws.cand_bound[d, j]
            continue
        if oi >= limit and ws.params[P_FIRST] == 0:
            # widened past the k best: first ask whether g finishes H at all, each node below stopping
            # at its first guess that finishes (far cheaper than valuing g); most such guesses do not
            ws.params[P_FIRST] = 1
            finishes = search(ws, H, r, beta, d, guesses, ghash, child_free, np.int64(g)) < INF
            ws.params[P_FIRST] = 0
            if ws.stats[S_ABORTED]:
                return INF
            if not finishes:
                continue
        total = search(ws, H, r, beta, d, guesses, ghash, child_free, np.int64(g))
        if ws.stats[S_ABORTED]:
            return INF
        if total < beta:
            best = total
            best_guess = g
            beta = total
            if joint and total < ws.shared[BEST]:
                ws.shared[BEST] = total
            if best <= lb or (ws.params[P_FIRST] and best < INF):
                if joint:
                    ws.shared[STOP] = 1
                break
        elif total < failed:
            failed = total
    if joint:  # this thread's part: its best or a bound over the guesses it took, not memoised
        ws.best[d] = best_guess
        return best if best_guess >= 0 else min(max(lb, failed), INF)
    if best_guess >= 0:
        if free != FREE_RESTRICTED and best >= INF:  # a cut-off above INF takes an unfinishable guess: given up on
            memo_store(ws, h1, h2, n, INF, INF, given_up(widened_levels(ws, d, r)))
        elif free != FREE_RESTRICTED:
            memo_store(ws, h1, h2, n, best, best, best_guess)
        ws.best[d] = best_guess
        return best
    if failed > lb:
        lb = failed
    if lb > INF:
        lb = INF
    if free != FREE_RESTRICTED:
        memo_store(ws, h1, h2, n, lb, INF, given_up(widened_levels(ws, d, r)) if lb >= INF else NO_GUESS)
    return lb


@njit(cache=True)
def heap_make(heap, m):
    """Make ``heap[:m]`` a binary min-heap, in place.

    Parameters
    ----------
    heap : numpy.ndarray, int64 [>= m]
        Distinct values (ordering keys with the entry's place in their low bits, `KEY_SHIFT`).
    m : int
        Entries.
    """
    for top in range(m // 2 - 1, -1, -1):
        heap_down(heap, top, m)


@njit(cache=True)
def heap_sift(heap, m):
    """Restore the min-heap ``heap[:m]`` after its root was replaced.

    Parameters
    ----------
    heap : numpy.ndarray, int64 [>= m]
    m : int
        Entries.
    """
    heap_down(heap, 0, m)


@njit(cache=True)
def heap_down(heap, at, m):
    """Move ``heap[at]`` down the min-heap ``heap[:m]`` until both its children are larger.

    Parameters
    ----------
    heap : numpy.ndarray, int64 [>= m]
    at : int
        The entry to move.
    m : int
        Entries.
    """
    value = heap[at]
    while True:
        child = 2 * at + 1
        if child >= m:
            break
        if child + 1 < m and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= value:
            break
        heap[at] = heap[child]
        at = child
    heap[at] = value


@njit(cache=True)
def class_counts(table, win):
    """Return how many classes, and non-winning classes, each guess row makes over all targets.

    Parameters
    ----------
    table : numpy.ndarray, uint8/uint16 [G, T]
        Codes of each guess row against each target.
    win : int
        The winning code.

    Returns
    -------
    classes : numpy.ndarray, int32 [G]
        Distinct codes of each row.
    losing : numpy.ndarray, int32 [G]
        Distinct codes other than `win`.
    """
    g_count, t_count = table.shape
    classes = np.zeros(g_count, np.int32)
    losing = np.zeros(g_count, np.int32)
    seen = np.zeros(int(table.max()) + 1, np.int32)
    for g in range(g_count):
        k = 0
        for t in range(t_count):
            c = table[g, t]
            if seen[c] != g + 1:
                seen[c] = g + 1
                k += 1
                if c != win:
                    losing[g] += 1
        classes[g] = k
    return classes, losing
