"""The Numba kernel of the exact search: a fail-soft branch and bound over decision trees.

``search(ws, H, r, beta, d, guesses, ghash, free, forced) -> int64`` returns

* the least total number of guesses (summed over the candidate targets ``H``) of a tree that
  finishes every target within ``r`` guesses, choosing each guess among ``guesses`` (the node's
  allowed guess rows; below the node, every guess of ``ws.pool`` in normal mode, or ``guesses``
  filtered by the hard-mode rule of mark games, `narrow`). ``free`` says that every candidate may be
  played here (0 for a restricted root list: no shortcut exits, no memo; 2, from a node's own full
  pass to its guesses, hands its children only the guesses that split its set); ``forced`` >= 0
  evaluates that single guess at this node instead (its total over the classes it makes);
* fail-soft contract (as in alpha-beta): the exact value if it is below ``beta``, otherwise some
  value in ``[beta, value]`` (a proven lower bound). Values of ``INF`` or more mean "cannot be
  finished within ``r`` guesses";
* when the value is exact, ``ws.best[d]`` holds the guess that achieves it;
* a work limit (``ws.params[WORK_LIMIT]`` > 0) ends the search once ``ws.stats[WORK]`` (the
  (guess, target) pairs its full scoring passes went through, what the time goes on) passes it:
  ``ws.stats[ABORTED]`` is set, every call returns ``INF`` (not a bound: the caller must ignore the
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
k best (top-k widening, `settled`), so that a node widened further searches it again and one widened
as far does not. Past the k best, a widened node first asks of each guess whether it finishes the
set at all (a feasibility search below it, `params[FIRST]`, memoised under keys of its own), and
values only one that does.

One self-recursive function (Numba caches it; mutual recursion crashes its cache loader).
`ws` is a `Workspace` tuple of preallocated arrays (no allocation per node except one argsort);
``d`` indexes its per-depth rows, so a recursion never overwrites what its callers still read.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

INF = np.int64(1 << 40)
PROBES = 8  # slots tried per memo lookup
SMALL_SET = 64  # default of params[SMALL]: full passes over at most this many targets read the target-major table (measured faster)
# stats counters
NODES, FULL, PROBE, HIT, STORE, ABORTED, WORK = 0, 1, 2, 3, 4, 5, 6  # WORK: (guess, target) pairs scored
WORK_LIMIT = 6  # index in ws.params: stop once WORK passes this (0: never); see `search`
WIDEN = 7  # index in ws.params: top-k goes on past the k best while none of them can finish, at depths below this (0: never)
FIRST = 8  # index in ws.params: 1 stops at the first guess that finishes (feasibility: finite values are upper bounds)
# ws.shared: a set searched jointly by threads (see `search`): the next guess (its place in the common
# order), the least total found by any thread (starts at the cut-off), stop (one thread's total met
# the set's lower bound), active (0: the workspace's own array, no joint search), guesses in the order
NEXT, BEST, STOP, ACTIVE, COUNT = 0, 1, 2, 3, 4
SMALL = 9  # index in ws.params: full passes over at most this many targets read `table_t` (tests set 0 or a large one)


class Workspace(NamedTuple):
    """Everything the kernel reads and writes; see `solver.core.search.searcher.make_workspace`."""

    table: np.ndarray  # uint8/uint16 [G, T]: code of guess row g against target position p
    table_t: np.ndarray  # uint8/uint16 [T, G]: the same, target-major (full passes over small sets)
    target_row: np.ndarray  # int32 [T]: guess row of each target position
    rows: np.ndarray  # int32 [G, W]: the game's encoded guesses (read by the hard-mode rule)
    letter_count: np.ndarray  # uint8 [G, S]: hard mode: how often each symbol is in each guess ([1, 1] otherwise)
    pool: np.ndarray  # int32 [P]: every allowed guess row (normal mode children)
    lb: np.ndarray  # int64 [R+1, T+1]: lower bound of a set of m targets with r guesses left
    params: np.ndarray  # int64 [10]: win code, top-k (0 = all), max classes, hard mode (0/1), word length,
    # order (0 bound, 1 entropy), work limit, widen (levels), first (0/1), small set (targets)
    zobrist: np.ndarray  # uint64 [2, T]: random keys of the targets (two independent hashes)
    guess_keys: np.ndarray  # uint64 [G]: random keys of the guesses (hard-mode allowed lists)
    part: np.ndarray  # int32 [D, T]: H partitioned by the guess under evaluation
    counts: np.ndarray  # int32 [D, C]: class sizes by code (kept zero between uses)
    touched: np.ndarray  # int32 [D, C]: codes present, in order of first appearance
    cls_start: np.ndarray  # int32 [D, C]
    cls_size: np.ndarray  # int32 [D, C]
    cls_code: np.ndarray  # int32 [D, C]
    cls_bound: np.ndarray  # int64 [D, C]: exact value or current lower bound of each class
    cls_exact: np.ndarray  # int8 [D, C]
    cls_order: np.ndarray  # int32 [D, C]: open classes, smallest first
    cand_guess: np.ndarray  # int32 [D, G]: guesses worth expanding at the node of depth d
    cand_bound: np.ndarray  # int64 [D, G]
    cand_key: np.ndarray  # int64 [D, G]
    allowed: np.ndarray  # int32 [D, G]: hard mode: the allowed list handed to depth d
    useful: np.ndarray  # int32 [D, G]: normal mode: the guesses of depth d's node worth trying below it
    useful_count: np.ndarray  # int32 [D]: how many of useful[d] are set
    best: np.ndarray  # int32 [D]: the guess achieving the exact value returned at depth d
    local_b: np.ndarray  # int64 [D]: the most non-winning classes of a guess at the node of depth d (0: unknown)
    memo_key: np.ndarray  # uint64 [2, M]
    memo_lo: np.ndarray  # int64 [M]
    memo_hi: np.ndarray  # int64 [M]
    memo_guess: np.ndarray  # int32 [M]
    memo_size: np.ndarray  # int32 [M]: set size (0 = empty slot); larger sets are kept on eviction
    stats: np.ndarray  # int64 [8]: nodes, full nodes, memo probes, memo hits, stores
    shared: np.ndarray  # int64 [5]: a joint search's counters (NEXT, BEST, STOP, ACTIVE, COUNT; ACTIVE 0: none)


@njit(cache=True)
def set_hash(ws, H, r, ghash):
    """Return the two 64-bit keys of (set H, guesses left r, allowed-list hash)."""
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    z = ws.zobrist
    for i in range(H.shape[0]):
        h1 += z[0, H[i]]
        h2 += z[1, H[i]]
    h1 ^= np.uint64(r) * np.uint64(0x9E3779B97F4A7C15) + ghash
    h2 += np.uint64(r) * np.uint64(0xC2B2AE3D27D4EB4F) + np.uint64(H.shape[0]) + ghash * np.uint64(3)
    if ws.params[FIRST]:  # a feasibility search's values are upper bounds: keys of their own
        h1 ^= np.uint64(0x94D049BB133111EB)
        h2 += np.uint64(0x2545F4914F6CDD1D)
    if h2 == 0:
        h2 = np.uint64(1)
    return h1, h2


@njit(cache=True)
def entry_mix(lo, hi, guess):
    """Return a 64-bit mix of an entry's values. Its second key is stored XORed with it (Hyatt and
    Mann's lockless table): threads sharing a memo may tear an entry by writing it at once, and a torn
    entry then fails the check and reads as a miss."""
    x = np.uint64(lo) * np.uint64(0x9E3779B97F4A7C15)
    x ^= np.uint64(hi) * np.uint64(0xBF58476D1CE4E5B9)
    x ^= np.uint64(np.int64(guess) + np.int64(1 << 32)) * np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@njit(cache=True)
def memo_find(ws, h1, h2):
    """Return (slot, lower, upper, guess) of the memo entry of (h1, h2); slot -1 if none. The values
    are read once and checked, as another thread may be rewriting the entry."""
    mask = ws.memo_size.shape[0] - 1
    slot = int(h1 & np.uint64(mask))
    ws.stats[PROBE] += 1
    for i in range(PROBES):
        s = (slot + i) & mask
        if ws.memo_size[s] == 0:
            break
        found, lo, hi, guess = entry_at(ws, s, h1, h2)
        if found:
            ws.stats[HIT] += 1
            return s, lo, hi, guess
    return -1, np.int64(0), INF, np.int64(-1)


@njit(cache=True)
def entry_at(ws, s, h1, h2):
    """Return (whether slot `s` holds (h1, h2) whole, its lower bound, upper bound, guess)."""
    if ws.memo_key[0, s] != h1:
        return False, np.int64(0), INF, np.int64(-1)
    lo = ws.memo_lo[s]
    hi = ws.memo_hi[s]
    guess = np.int64(ws.memo_guess[s])
    return ws.memo_key[1, s] ^ entry_mix(lo, hi, guess) == h2, lo, hi, guess


@njit(cache=True)
def memo_write(ws, s, h1, h2, n, lo, hi, guess):
    """Write a whole entry into slot `s` (keys, values, size)."""
    ws.memo_key[0, s] = h1
    ws.memo_lo[s] = lo
    ws.memo_hi[s] = hi
    ws.memo_guess[s] = guess
    ws.memo_size[s] = n
    ws.memo_key[1, s] = h2 ^ entry_mix(lo, hi, guess)


@njit(cache=True)
def memo_store(ws, h1, h2, n, lo, hi, guess):
    """Merge [lo, hi] (and the guess when exact) into the entry of (h1, h2), evicting a smaller set."""
    if ws.stats[ABORTED]:  # an aborted search's values are not bounds: keep the memo true
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
                new_guess = guess  # given up on again, widened more levels below
            memo_write(ws, s, h1, h2, n, max(lo, old_lo), min(hi, old_hi), new_guess)
            return
        if victim < 0 or ws.memo_size[s] < ws.memo_size[victim]:
            victim = s
    if ws.memo_size[victim] > n:
        return
    ws.stats[STORE] += 1
    memo_write(ws, victim, h1, h2, n, lo, hi, guess)


@njit(cache=True)
def widened_levels(ws, d, r):
    """Return how many levels of a search at depth `d` with `r` guesses left go on past the k best
    (top-k: `params[WIDEN]`; 0 below it): the node's own and those below it."""
    return max(0, min(ws.params[WIDEN] - d, r))


@njit(cache=True)
def settled(ws, lo, guess, d, r):
    """Return whether a memo entry (lower bound, guess) may answer a node at depth `d` with `r` guesses
    left: any entry but a set given up on (lower bound INF) by a search widened fewer levels than this
    node's. Such an entry records its widened levels as its guess, -1 - levels (-1: not widened)."""
    if lo < INF:
        return True
    return -1 - guess >= widened_levels(ws, d, r)


@njit(cache=True)
def counting_bound(b, r, m):
    """Return the least total of guesses finishing m targets within r when no guess makes more than b
    non-winning classes (one target finished by the first guess, b by the second, b**2 by the third,
    ...), INF if they cannot be."""
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
    """Add the class sizes of H under one table row to `counts`; list new codes in `touched`; return how many."""
    k = 0
    for i in range(H.shape[0]):
        c = row[H[i]]
        if counts[c] == 0:
            touched[k] = c
            k += 1
        counts[c] += 1
    return k


@njit(cache=True)
def narrow(ws, guesses, g, code, out):
    """Write the guesses still allowed after guess g got `code` into `out`; return (count, hash).

    Hard mode of mark games (Wordle's; `solver.games.wordle.hard_mode_requirements` states the rule,
    and the tests hold this against it) with the constraint read from the code once: the greens' positions, then each
    marked letter with the least count it needs; each guess is then checked against its row and its
    precomputed letter counts (`ws.letter_count`), about a nanosecond a guess where the rule takes 18.
    """
    length = ws.params[4]
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
    """Return (guess row of a candidate splitting H into singletons or -1, one leaving one pair or -1)."""
    n = H.shape[0]
    if n > ws.params[2]:
        return -1, -1
    counts = ws.counts[d]
    touched = ws.touched[d]
    pair = -1
    for a in range(n):
        g = ws.target_row[H[a]]
        k = count_classes(ws.table[g], H, counts, touched)
        for j in range(k):
            counts[touched[j]] = 0
        if k == n:
            return g, pair
        if k == n - 1 and pair < 0:
            pair = g
    return -1, pair


@njit(cache=True, nogil=True)
def separating_guess(ws, H, guesses, d):
    """Return a guess of `guesses` giving each target of H its own code, or -1. Pairs of targets are
    tried in turn, each keeping the guesses that tell those two apart (`ws.cand_guess[d]` holds them:
    this node's full pass has not begun), so a pass touches about one byte per guess and survivor:
    far less than scoring every guess on every target when, as usual, few guesses survive."""
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
                ws.stats[WORK] += checked
                return -1
            a = tt[H[i]]
            kept = 0
            for si in range(m):
                g = keep[si]
                if a[g] != b[g]:
                    keep[kept] = g
                    kept += 1
            checked += m
            m = kept
    ws.stats[WORK] += checked
    return keep[0] if m > 0 else -1


@njit(cache=True, nogil=True)
def search(ws, H, r, beta, d, guesses, ghash, free, forced):
    """See the module docstring; `forced` >= 0 evaluates that one guess at this node instead."""
    if ws.stats[ABORTED]:
        return INF
    if forced >= 0:
        g = forced
        n = H.shape[0]
        win = ws.params[0]
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
        hard = ws.params[3]
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
                pool = ws.useful[d, :ws.useful_count[d]] if free == 2 else ws.pool
                for j in range(k):
                    size = ws.cls_size[d, j]
                    if ws.cls_exact[d, j] or ws.cls_bound[d, j] != 2 * size:
                        continue
                    C = part[ws.cls_start[d, j]:ws.cls_start[d, j] + size]
                    c1, c2 = set_hash(ws, C, r - 1, np.uint64(0))
                    if size == ws.params[2] + 1:
                        raisable -= 1  # no guess splits it into singletons, but a candidate may leave one pair
                        continue
                    split = separating_guess(ws, C, pool, d + 1) if size <= ws.params[2] else -1
                    if split >= 0:
                        memo_store(ws, c1, c2, size, 2 * size, 2 * size, split)
                        ws.cls_exact[d, j] = 1
                        raisable -= 1
                    else:
                        memo_store(ws, c1, c2, size, 2 * size + 1, INF, -1)
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
            if ws.params[3]:
                ws.stats[WORK] += guesses.shape[0] * ws.params[4]  # the hard-mode filter: about a pass per letter
                count, gh = narrow(ws, guesses, g, np.int64(ws.cls_code[d, j]), ws.allowed[d + 1])
                value = search(ws, C, r - 1, child_beta, d + 1, ws.allowed[d + 1, :count], gh, np.int64(1), np.int64(-1))
            else:
                # `free` 2 (from this node's full pass): only the guesses that split H can help below it
                pool = ws.useful[d, :ws.useful_count[d]] if free == 2 else ws.pool
                value = search(ws, C, r - 1, child_beta, d + 1, pool, np.uint64(0), np.int64(1), np.int64(-1))
            if ws.stats[ABORTED]:
                return INF
            total += value - bound
            ws.cls_bound[d, j] = value
            if total >= beta:
                return min(total, INF)
        return total
    ws.stats[NODES] += 1
    if ws.params[WORK_LIMIT] > 0 and ws.stats[WORK] > ws.params[WORK_LIMIT]:
        ws.stats[ABORTED] = 1
    if ws.stats[ABORTED]:
        return INF
    n = H.shape[0]
    if r <= 0:
        return INF
    if n == 1:
        ws.best[d] = ws.target_row[H[0]]
        return np.int64(1)
    if r == 1:
        return INF
    if n == 2 and free:
        ws.best[d] = ws.target_row[H[0]]
        return np.int64(3)
    lb = ws.lb[r, n]
    if lb >= beta:
        return lb
    win = ws.params[0]
    topk = ws.params[1]
    # -- memo ------------------------------------------------------------------------------
    h1, h2 = set_hash(ws, H, r, ghash)
    slot, lo, hi, guess = memo_find(ws, h1, h2) if free else (-1, np.int64(0), INF, np.int64(-1))
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
    if free:
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
                memo_store(ws, h1, h2, n, lb, INF, -1 - r if lb >= INF else -1)  # a bound: proven
                return lb
        if beta == 2 * n + 1 and lb == 2 * n and n != ws.params[2] + 1:
            # the cut-off is the least value above 2n, which needs a guess splitting H into singletons
            # (or the pair candidate above): a cheap test of that one question spares the full pass
            g = separating_guess(ws, H, guesses, d) if n <= ws.params[2] else -1
            if g >= 0:
                memo_store(ws, h1, h2, n, 2 * n, 2 * n, g)
                ws.best[d] = g
                return np.int64(2 * n)
            memo_store(ws, h1, h2, n, 2 * n + 1, INF, -1)
            return np.int64(2 * n + 1)
    # -- score every allowed guess: its bound, ordering key, shortcut exits -----------------
    ws.stats[FULL] += 1
    ws.stats[WORK] += guesses.shape[0] * n
    ws.local_b[d] = 0  # this node's own, once its pass is done (its forced evaluations read it)
    most = 1  # the most non-winning classes of a guess here: a guess skipped below makes one
    counts = ws.counts[d]
    touched = ws.touched[d]
    lbr = ws.lb[r - 1]
    m = 0
    node_lb = INF
    above = INF  # least bound among guesses not worth expanding (>= beta)
    by_entropy = ws.params[5] == 1
    # normal mode: the guesses that split H are handed to the children (a guess giving every target
    # of H one code does so on each subset of H: it can never help below)
    keep = free != 0 and ws.params[3] == 0 and r >= 3
    useful = ws.useful[d]
    u = 0
    small = n <= ws.params[SMALL]
    for gi in range(guesses.shape[0]):
        g = guesses[gi]
        # over a small H, the target-major rows of its targets stay in the cache from one guess to
        # the next, where the guess-major rows load a cache line per (guess, target) pair
        if small:
            k = count_classes(ws.table_t[:, g], H, counts, touched)
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
        if k == n and free:
            # a non-candidate splitting H into singletons: 2n, optimal once no candidate does
            memo_store(ws, h1, h2, n, bound, bound, g)
            ws.best[d] = g
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
        if by_entropy:  # order by entropy (least sum of size*log2(size)), candidates first on ties
            ws.cand_key[d, m] = np.int64(slog * 4096.0) * 2 + (0 if hit else 1)
        else:
            ws.cand_key[d, m] = bound * n + 2 * s2
        m += 1
    if node_lb > lb:
        lb = node_lb
    # no guess here, nor on any subset below (a subset of H, guesses among these or splitting no more of
    # it), makes more than `most` non-winning classes: the counting bound with it (hard mode: a family
    # whose other letters are known, one word ruled out a guess, is INF at once when larger than the
    # guesses left). Not on a restricted root list (free 0), whose children take any guess.
    if free:
        ws.local_b[d] = most
        local = counting_bound(most, r, n)
        if local > lb:
            lb = local
    if lb >= beta:
        if free:
            memo_store(ws, h1, h2, n, lb, INF, -1 - r if lb >= INF else -1)  # a bound: proven
        return lb
    ws.useful_count[d] = u
    child_free = np.int64(2) if keep else free
    order = np.argsort(ws.cand_key[d, :m], kind="mergesort")
    limit = m
    if topk > 0 and m > topk:
        limit = topk
    # -- expand the guesses in order -------------------------------------------------------
    best = INF
    best_guess = -1
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
        # top-k: the k best only; widened (the first params[WIDEN] levels of the call), the next ones
        # too while none finishes at all (each one tried gave INF, or a bound a little below it that a
        # cut-off near INF leaves): such a set is not given up on
        if oi >= limit and (d >= ws.params[WIDEN] or best < INF // 2 or failed < INF // 2):
            break
        j = order[oi]
        g = ws.cand_guess[d, j]
        if ws.cand_bound[d, j] >= beta:
            if ws.cand_bound[d, j] < failed:
                failed = ws.cand_bound[d, j]
            continue
        if oi >= limit and ws.params[FIRST] == 0:
            # widened past the k best: first ask whether g finishes H at all, each node below stopping
            # at its first guess that finishes (far cheaper than valuing g); most such guesses do not
            ws.params[FIRST] = 1
            finishes = search(ws, H, r, beta, d, guesses, ghash, child_free, np.int64(g)) < INF
            ws.params[FIRST] = 0
            if ws.stats[ABORTED]:
                return INF
            if not finishes:
                continue
        total = search(ws, H, r, beta, d, guesses, ghash, child_free, np.int64(g))
        if ws.stats[ABORTED]:
            return INF
        if total < beta:
            best = total
            best_guess = g
            beta = total
            if joint and total < ws.shared[BEST]:
                ws.shared[BEST] = total
            if best <= lb or (ws.params[FIRST] and best < INF):
                if joint:
                    ws.shared[STOP] = 1
                break
        elif total < failed:
            failed = total
    if joint:  # this thread's part: its best or a bound over the guesses it took, not memoised
        ws.best[d] = best_guess
        return best if best_guess >= 0 else min(max(lb, failed), INF)
    if best_guess >= 0:
        if free and best >= INF:  # a cut-off above INF takes an unfinishable guess: given up on
            memo_store(ws, h1, h2, n, INF, INF, -1 - widened_levels(ws, d, r))
        elif free:
            memo_store(ws, h1, h2, n, best, best, best_guess)
        ws.best[d] = best_guess
        return best
    if failed > lb:
        lb = failed
    if lb > INF:
        lb = INF
    if free:
        memo_store(ws, h1, h2, n, lb, INF, -1 - widened_levels(ws, d, r) if lb >= INF else -1)
    return lb


@njit(cache=True)
def class_counts(table, win):
    """Return (classes int32[G], non-winning classes int32[G]) of each guess row over all targets."""
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
