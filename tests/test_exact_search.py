"""The exact search (`pipeline.builders`) against the naive exhaustive minimax of `tests/exhaustive.py`.

Small games where brute force is feasible: Mastermind with few pegs and colours, Bulls and Cows
with 2 digits on subsets, Wordle on small word lists (normal and hard mode, guess caps that make
the game infeasible included). Also: top-k is an upper bound, lower bounds never exceed the value,
trees grown from the search total their value and respect the cap, symmetry at the first levels
changes nothing, and a build resumes from its checkpoints.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.builders.exact_tree import (Fallback, Plan, Polish, Refine, Rescan, Split, WorstFirst, build,
                                          checkpoint_dir, solve_class, solve_node)
from pipeline.builders.worst_case import NoTreeWithin, finishing_opener, least_worst_case, three_suffice
from solver.core import scoring
from solver.core.search import kernel
from solver.core.search.searcher import INF, Searcher, SearchOptions, lower_bound_table
from solver.core.search.parallel import ThreadedTotals
from solver.games import bulls, mastermind, wordle
from tests import exhaustive, reference
from tests.test_exhaustive import IGHT

SMALL_GAMES = {
    "mastermind-2x3": lambda: mastermind.game(2, 3),
    "mastermind-3x2": lambda: mastermind.game(3, 2),
    "mastermind-2x4": lambda: mastermind.game(2, 4),
    "mastermind-3x3": lambda: mastermind.game(3, 3),
    "wordle-30": lambda: exhaustive.small_wordle(30),
    "wordle-30-hard": lambda: exhaustive.small_wordle(30, hard=True),
    "wordle-30+30": lambda: exhaustive.small_wordle(30, seed=3, extra_guesses=30),
    "wordle-ight": lambda: wordle.game(False, IGHT, tuple(sorted(IGHT + ("DOMES", "LIMBI", "TWEEN")))),
    "wordle-ight-hard": lambda: wordle.game(True, IGHT, tuple(sorted(IGHT + ("DOMES", "LIMBI", "TWEEN")))),
}


def searched(game, cap: int, **options) -> Searcher:
    return Searcher(game, scoring.feedback_table(game), SearchOptions(max_guesses=cap, memo_bits=12, **options))


def search_total(searcher: Searcher, cap: int) -> float:
    positions = np.arange(searcher.game.n_targets)
    value, _ = searcher.best(positions, cap, None, ())
    return math.inf if value >= INF else value


@pytest.mark.parametrize("name", list(SMALL_GAMES))
@pytest.mark.parametrize("cap", [2, 3, 4, 6])
def test_search_equals_brute_force(name, cap):
    game = SMALL_GAMES[name]()
    hard = game.allowed is not None
    assert search_total(searched(game, cap), cap) == exhaustive.optimal_total(game, cap, hard=hard)


@pytest.mark.parametrize("name", list(SMALL_GAMES))
def test_entropy_order_proves_the_same_optimum(name):
    game = SMALL_GAMES[name]()
    hard = game.allowed is not None
    assert search_total(searched(game, 6, order="entropy"), 6) == exhaustive.optimal_total(game, 6, hard=hard)


@pytest.mark.parametrize("name", ["mastermind-3x3", "wordle-30+30"])
def test_entropy_order_top_k_is_an_upper_bound(name):
    game = SMALL_GAMES[name]()
    exact = exhaustive.optimal_total(game, 6)
    for k in (1, 2, 5):
        assert search_total(searched(game, 6, mode="top-k", k=k, order="entropy"), 6) >= exact


def test_children_searched_over_the_guesses_that_split_their_parent():
    """Below a node's full pass only the guesses that split its set are tried (the kernel's `free`
    2): subsets of the -IGHT words (a few probes decide) with 3 and 4 guesses left keep the values
    of the naive search over every guess."""
    game = SMALL_GAMES["wordle-ight"]()
    searcher = searched(game, 6)
    rng = np.random.default_rng(11)
    for size in (4, 6, 8, 10):
        for _ in range(3):
            positions = np.sort(rng.choice(game.n_targets, min(size, game.n_targets), replace=False))
            for r in (3, 4):
                value, _ = searcher.value(positions, r)
                assert min(value, INF) == min(exhaustive.optimal_subtotal(game, positions.tolist(), r), INF)


@pytest.mark.parametrize("name", ["wordle-30+30", "wordle-ight-hard", "mastermind-3x3"])
def test_threaded_opener_totals_equal_the_one_thread_search(name):
    """Classes of an opener searched by threads with a shared cut-off: the same exact totals below
    the cut-off, a bound of at least it above, for every opener, cut-off and number of threads."""
    game = SMALL_GAMES[name]()
    table = scoring.feedback_table(game)
    plain = Searcher(game, table, SearchOptions(max_guesses=5, memo_bits=12))
    threaded = {n: ThreadedTotals(Searcher(game, table, SearchOptions(max_guesses=5, memo_bits=12)), n)
                for n in (1, 2, 3)}
    for row in range(game.n_guesses):
        exact = plain.opener_total(row)
        for beta in (None, exact, exact + 1, exact - 3):
            for n, totals in threaded.items():
                got = totals.opener_total(row, beta=beta)
                if beta is None or exact < beta:
                    assert got == exact, (row, beta, n)
                else:
                    assert beta <= got <= exact, (row, beta, n)
    assert threaded[2].opener_total(0, r=1) >= INF  # no tree of one guess finishes them all


@pytest.mark.parametrize("name", ["wordle-30+30", "wordle-ight-hard", "mastermind-3x3"])
def test_a_set_searched_jointly_by_threads_has_the_one_thread_value(name):
    """Threads taking a set's guesses in turn from shared counters, one memo between them: the least
    of their values is the set's, exact below the cut-off and a bound of at least it above."""
    game = SMALL_GAMES[name]()
    table = scoring.feedback_table(game)
    plain = Searcher(game, table, SearchOptions(max_guesses=5, memo_bits=12))
    rng = np.random.default_rng(11)
    for threads in (1, 2, 3):
        totals = ThreadedTotals(Searcher(game, table, SearchOptions(max_guesses=5, memo_bits=12)), threads)
        for size in sorted({min(6, game.n_targets), min(12, game.n_targets), game.n_targets}):
            positions = np.sort(rng.choice(game.n_targets, size, replace=False))
            exact, _ = plain.value(positions, 4)
            for beta in (INF + 1, exact, exact + 1, exact - 2):
                shared = np.zeros(kernel.N_SHARED, np.int64)
                shared[kernel.BEST], shared[kernel.ACTIVE] = beta, 1
                # run at once, within this iteration
                values = totals._run_each(lambda s: s.value(positions, 4, beta=beta, shared=shared)[0])  # noqa: B023
                assert len(values) == threads
                assert shared[kernel.NEXT] >= shared[kernel.COUNT] or shared[kernel.STOP]  # every guess taken
                got = min(values)
                if exact < beta:
                    assert got == exact, (threads, size, beta)
                else:
                    assert beta <= got <= exact, (threads, size, beta)


def test_a_torn_memo_entry_reads_as_a_miss():
    """An entry whose values another thread changed half-way fails its check (kernel.entry_mix)."""
    searcher = searched(mastermind.game(2, 3), 4)
    ws = searcher.ws
    h1, h2 = np.uint64(12345), np.uint64(67890)
    kernel.memo_store(ws, h1, h2, 5, 9, 12, 3)
    assert kernel.memo_find(ws, h1, h2)[1:] == (9, 12, 3)
    kernel.memo_store(ws, h1, h2, 5, 10, 11, 4)  # a merge: the tighter bounds, the new guess
    slot, lo, hi, guess = kernel.memo_find(ws, h1, h2)
    assert (lo, hi, guess) == (10, 11, 4)
    ws.memo_hi[slot] = 10  # a write another thread did not finish: the key not rewritten
    assert kernel.memo_find(ws, h1, h2)[0] == -1
    kernel.memo_store(ws, h1, h2, 5, 10, 10, 4)  # a torn entry is not merged into
    slot, lo, hi, guess = kernel.memo_find(ws, h1, h2)
    assert slot >= 0 and (lo, hi, guess) == (10, 10, 4)


def test_bulls_two_digits_on_subsets():
    game = bulls.game(2)
    searcher = searched(game, 6)
    rng = np.random.default_rng(5)
    for size in (5, 9, 12, 14):
        positions = np.sort(rng.choice(game.n_targets, size, replace=False))
        value, _ = searcher.value(positions, 6)
        assert value == exhaustive.optimal_subtotal(game, positions.tolist(), 6)


@pytest.mark.parametrize("name", ["mastermind-3x3", "wordle-30+30", "wordle-ight-hard"])
def test_top_k_is_an_upper_bound_and_lower_bounds_hold(name):
    game = SMALL_GAMES[name]()
    exact = exhaustive.optimal_total(game, 6, hard=game.allowed is not None)
    for k in (1, 2, 5):
        searcher = searched(game, 6, mode="top-k", k=k)
        upper = search_total(searcher, 6)
        assert upper >= exact
        positions = np.arange(game.n_targets)
        lower = searcher.lower_bound(positions, 6, int(min(upper, INF)), seconds=5.0)
        assert lower <= exact


@pytest.mark.parametrize("name", list(SMALL_GAMES))
def test_grown_tree_totals_its_value_and_plays_every_target(name):
    game = SMALL_GAMES[name]()
    searcher = searched(game, 6)
    positions = np.arange(game.n_targets)
    value, _ = searcher.best(positions, 6, None, ())
    nodes = searcher.grow(positions, 6)
    assert nodes.subtree[0] == value
    assert max(nodes.depth) + 1 <= 6
    # replay every target through the tree with the game's rule
    children = {(p, c): i for i, (p, c) in enumerate(zip(nodes.parent, nodes.feedback)) if p >= 0}
    total = 0
    for target in game.target_index:
        node, count, history = 0, 1, []
        while nodes.guess[node] != target:
            code = game.code(nodes.guess[node], int(target))
            if game.allowed is not None:
                assert game.allowed(game, history)[nodes.guess[node]], "hard-mode guess breaks a hint"
            history.append((nodes.guess[node], code))
            node, count = children[(node, code)], count + 1
        total += count
    assert total == value


def test_symmetric_levels_change_nothing():
    game = mastermind.game(3, 3)
    plain = search_total(searched(game, 6, symmetry_levels=0), 6)
    symmetric = search_total(searched(game, 6, symmetry_levels=2), 6)
    assert plain == symmetric == exhaustive.optimal_total(game, 6)


def test_shallowest_tree_among_equal_totals(tmp_path):
    # Mastermind 3x3: the optimum within 4 guesses equals the unlimited one; the tree keeps depth 4.
    game = mastermind.game(3, 3)
    table = scoring.feedback_table(game)
    built = build(game, table, Plan(SearchOptions(max_guesses=8, memo_bits=12)), jobs=1, folder=tmp_path)
    assert built.total == exhaustive.optimal_total(game) == exhaustive.optimal_total(game, 4)
    assert max(built.nodes.depth) + 1 == 4
    assert built.proof == "game" and built.lower == built.total


def test_build_resumes_from_checkpoints(tmp_path):
    game = exhaustive.small_wordle(30)
    table = scoring.feedback_table(game)
    plan = Plan(SearchOptions(max_guesses=6, memo_bits=12), opener=game.labels[int(game.target_index[0])])
    first = build(game, table, plan, jobs=1, folder=tmp_path)
    saved = sorted(checkpoint_dir(game, plan, tmp_path).glob("class-*.npz"))
    assert saved, "finished classes are checkpointed"
    saved[0].write_bytes(b"truncated")  # a damaged checkpoint is solved again, not trusted
    again = build(game, table, plan, jobs=1, folder=tmp_path)
    assert (again.total, again.nodes.guess) == (first.total, first.nodes.guess)


def test_lower_bound_table_counting_bound():
    table = lower_bound_table(losing=2, targets=10, max_guesses=3)
    # one target at depth 1, two at depth 2, four at depth 3; more cannot be done in 3 guesses
    assert table[3, :8].tolist() == [0, 1, 3, 5, 8, 11, 14, 17]
    assert table[3, 8] >= INF and table[1, 2] >= INF


@pytest.mark.parametrize("make", [lambda: exhaustive.small_wordle(200, seed=5, extra_guesses=200),
                                  lambda: exhaustive.small_wordle(200, seed=5, extra_guesses=200, hard=True),
                                  lambda: mastermind.game(4, 4)],
                         ids=["wordle-200", "wordle-200-hard", "mastermind-4x4"])
def test_both_table_layouts_search_the_same(make):
    # full passes read the guess-major table or, over at most params[P_SMALL] targets, the target-major
    # one: forced either way on sets of both sizes, the searches are the same node for node
    game = make()
    table = scoring.feedback_table(game)
    runs = []
    for small in (0, 10**9):
        searcher = Searcher(game, table, SearchOptions(max_guesses=6, memo_bits=14))
        searcher.ws.params[kernel.P_SMALL] = small
        positions = np.arange(game.n_targets)
        value, guess = searcher.value(positions, 6)
        nodes = searcher.grow(positions, 6)
        runs.append((value, guess, nodes.guess, nodes.feedback, searcher.stats, searcher.work))
    assert runs[0] == runs[1] and runs[0][0] < INF


@pytest.fixture(scope="module", params=[5, 4])
def hard_searcher(request) -> Searcher:
    game = wordle.game(True, size=request.param)
    targets = game.target_index[:50]  # the narrowing reads the guesses' rows, not the table
    return Searcher(replace(game, target_index=targets), scoring.feedback_table(game, None, targets),
                    SearchOptions(memo_bits=4))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hard_narrowing_keeps_exactly_the_guesses_the_rule_allows(hard_searcher, data):
    # the kernel's narrowing (the constraint decoded once, letter counts) against the Python rule, on
    # every guess: codes of every kind (impossible ones too), guesses with repeated letters
    game, searcher = hard_searcher.game, hard_searcher
    length = game.rows.shape[1] - 2
    guess = data.draw(st.integers(0, game.n_guesses - 1))
    code = data.draw(st.integers(0, 3 ** length - 1))
    kept, ghash = searcher.restrict_guesses(searcher.all_guesses, guess, code)
    expected = np.flatnonzero(wordle.hard_mode_mask(game, [(guess, code)])).tolist()
    assert kept.tolist() == expected
    assert ghash == int(sum(searcher.ws.guess_keys[expected].astype(object)) % 2**64)


@pytest.mark.parametrize("cap, seed_k", [(8, 1), (5, 3)])
def test_large_classes_split_into_units_build_the_same_tree(tmp_path, cap, seed_k):
    # Mastermind 4x4 in one process: every root class of 10% of the targets or more is valued guess by
    # guess and class by class (`fanout`); the tree must be the one a class-per-task build grows.
    game = mastermind.game(4, 4)
    table = scoring.feedback_table(game)
    trees = []
    for jobs, folder in ((1, tmp_path / "whole"), (2, tmp_path / "units")):
        plan = Plan(SearchOptions(max_guesses=cap, memo_bits=14), seed_k=seed_k, fanout_share=0.1)
        built = build(game, table, plan, jobs=jobs, folder=folder)
        trees.append((built.total, built.lower, built.nodes))
        units = list(checkpoint_dir(game, plan, folder).glob("unit-*.pkl"))
        assert bool(units) == (jobs > 1)
    assert trees[0] == trees[1]
    assert trees[0][0] == trees[0][1] == {8: 905, 5: 905}[cap]  # proven: total == lower bound


@pytest.mark.parametrize("name", ["mastermind-2x4", "mastermind-3x3", "wordle-30", "wordle-30+30"])
@pytest.mark.parametrize("cap", [3, 4, 6])
def test_game_lower_bound_never_exceeds_the_optimum(name, cap):
    from pipeline.builders.game_bound import game_lower_bound, opener_bounds

    game = SMALL_GAMES[name]()
    table = scoring.feedback_table(game)
    bound, first, _ = game_lower_bound(game, table, cap)
    assert bound <= exhaustive.optimal_total(game, cap)
    # per opener too: the bound of a first guess never exceeds the best tree opening with it
    searcher = searched(game, cap)
    for row in range(0, game.n_guesses, 7):
        assert opener_bounds(game, table, np.array([row]), cap)[0] <= min(searcher.opener_total(row, cap), INF)


@pytest.mark.parametrize("name", ["mastermind-3x3", "wordle-30", "wordle-30+30", "wordle-ight", "wordle-ight-hard"])
@pytest.mark.parametrize("cap", [3, 4, 6])
def test_widened_top_k_finishes_wherever_a_tree_exists(name, cap):
    # widened at every level, top-1 gives up on no set that some guess can finish: it is finite
    # exactly where the optimum is, between the optimum and plain top-1, and its tree plays every target
    game = SMALL_GAMES[name]()
    exact = search_total(searched(game, cap), cap)
    plain = search_total(searched(game, cap, mode="top-k", k=1), cap)
    widened_searcher = searched(game, cap, mode="top-k", k=1, widen=cap + 1)
    widened = search_total(widened_searcher, cap)
    assert math.isinf(widened) == math.isinf(exact)
    assert exact <= widened <= plain
    if not math.isinf(widened):
        nodes = widened_searcher.grow(np.arange(game.n_targets), cap)
        assert nodes.subtree[0] == widened and max(nodes.depth) < cap


@pytest.mark.parametrize("name, cap", [("wordle-ight-hard", 4), ("wordle-ight-hard", 5), ("wordle-ight", 4)])
def test_a_widened_search_remembers_the_sets_it_gave_up_on(name, cap):
    # a set that no guess finishes, searched every level widened, is given up on once: asked again, the
    # memo answers (no full scoring pass) and the answer is the same
    game = SMALL_GAMES[name]()
    searcher = searched(game, cap, mode="top-k", k=1, widen=cap + 1)
    first = search_total(searcher, cap)
    passes = searcher.stats.full
    assert math.isinf(first) and math.isinf(search_total(searcher, cap))
    assert searcher.stats.full == passes


@pytest.mark.parametrize("name", ["wordle-ight-hard", "wordle-ight", "wordle-30-hard", "mastermind-3x3"])
@pytest.mark.parametrize("cap", [4, 5, 6])
def test_a_set_given_up_on_unwidened_is_searched_again_where_widened(name, cap):
    # one memo, widened at the first level only: the root classes are first reached one level down (not
    # widened), then searched as roots of their own (widened): each value is what a fresh search gives
    game = SMALL_GAMES[name]()
    shared = searched(game, cap, mode="top-k", k=1, widen=1)
    positions = np.arange(game.n_targets)
    root = int(shared.leading_guesses(positions, cap, 1)[0])
    shared.value(positions, cap)
    for code, group in shared.split(root, positions):
        if code == game.win_code:
            continue
        fresh = searched(game, cap, mode="top-k", k=1, widen=1)
        assert shared.value(group, cap - 1)[0] == fresh.value(group, cap - 1)[0], game.decode(code)


def test_widening_is_in_the_strategy_name():
    assert SearchOptions(mode="top-k", k=30, widen=1).describe() == "exact-top30-widen1-max6"
    assert SearchOptions(widen=1).describe() == "exact-prove-max6"  # prove mode tries every guess anyway


@pytest.mark.parametrize("name", ["mastermind-3x3", "wordle-30", "wordle-30-hard", "wordle-ight", "wordle-ight-hard"])
def test_least_worst_case_equals_brute_force(name):
    # the feasibility search finds a tree exactly where the naive search does, at every cap, and
    # its least worst case is the naive one's (hard mode makes the -IGHT family's the larger)
    game = SMALL_GAMES[name]()
    table = scoring.feedback_table(game)
    hard = game.allowed is not None
    finite = [not math.isinf(exhaustive.optimal_total(game, cap, hard=hard)) for cap in range(1, 9)]
    least = finite.index(True) + 1
    feasibility = searched(game, 8, first=True)
    positions = np.arange(game.n_targets)
    assert [feasibility.value(positions, cap)[0] < INF for cap in range(1, 9)] == finite
    worst = least_worst_case(game, table, 8)
    assert worst.guesses == least and worst.proven
    assert feasibility.value(positions, least, forced=worst.opener)[0] < INF
    with pytest.raises(NoTreeWithin):
        least_worst_case(game, table, least - 1)
    # out of work at once, the proof stops short and a top-1 search gives an upper bound
    rough = least_worst_case(game, table, 8, work=1, k=1)
    assert rough.lower <= least <= rough.guesses
    assert feasibility.value(positions, rough.guesses, forced=rough.opener)[0] < INF


@pytest.mark.parametrize("name", ["mastermind-3x3", "wordle-30-hard", "wordle-ight-hard"])
def test_finding_a_first_guess_first_keeps_the_least_worst_case(name):
    # each "does r suffice?" first looks for a first guess below which every class finishes: the same
    # answer, and a guess found so does finish; where r is too few, none is found
    game = SMALL_GAMES[name]()
    table = scoring.feedback_table(game)
    least = least_worst_case(game, table, 8).guesses
    worst = least_worst_case(game, table, 8, find_work=10**9)
    assert worst.guesses == least and worst.proven
    feasibility = searched(game, 8, first=True)
    positions = np.arange(game.n_targets)
    row, work, refuted = finishing_opener(game, table, least, 10**9)
    assert row >= 0 and work >= 0 and not refuted
    assert feasibility.value(positions, least, forced=row)[0] < INF
    # one fewer: every first guess refuted (the work is ample), which is a proof
    assert finishing_opener(game, table, least - 1, 10**9)[::2] == (-1, True)


def test_a_finder_out_of_work_proves_nothing():
    # out of work before the last first guess is refuted, "none found" is not a "no"
    game = SMALL_GAMES["mastermind-3x3"]()
    table = scoring.feedback_table(game)
    least = least_worst_case(game, table, 8).guesses
    row, work, refuted = finishing_opener(game, table, least - 1, 10**9)
    assert (row, refuted) == (-1, True) and work > 0
    assert finishing_opener(game, table, least - 1, work // 2)[::2] == (-1, False)


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(["mastermind-3x3", "wordle-30", "wordle-30+30"]), data=st.data())
def test_separating_guess_equals_brute_force(name, data):
    # the pairwise survivor test against every guess's codes on the set: one giving each target its own
    game = SMALL_GAMES[name]()
    searcher = searched(game, 6)
    size = data.draw(st.integers(2, min(game.n_targets, 12)))
    H = np.array(sorted(data.draw(st.sets(st.integers(0, game.n_targets - 1), min_size=size, max_size=size))),
                 dtype=np.int32)
    guesses = searcher.all_guesses
    row = kernel.separating_guess(searcher.ws, H, guesses, 1)
    table = searcher.table
    apart = [g for g in guesses if len(set(table[g, H].tolist())) == H.size]
    assert (row >= 0) == bool(apart)
    if row >= 0:
        assert row in apart


@pytest.mark.parametrize("name", sorted(SMALL_GAMES))
def test_three_suffice_equals_brute_force(name):
    # the exact test of three guesses says what the naive search says, and its first guess does it
    game = SMALL_GAMES[name]()
    table = scoring.feedback_table(game)
    naive = not math.isinf(exhaustive.optimal_total(game, 3, hard=game.allowed is not None))
    suffice, first, work = three_suffice(game, table)
    assert suffice == naive and work > 0
    if suffice:
        assert searched(game, 3, first=True).value(np.arange(game.n_targets), 3, forced=first)[0] < INF


@pytest.mark.parametrize("widen", [0, 1])
def test_worst_first_plan_keeps_the_least_worst_case(tmp_path, widen):
    # every level widened, or one and more only where a class needs it: the least worst case either way
    game = SMALL_GAMES["wordle-ight-hard"]()
    table = scoring.feedback_table(game)
    least = least_worst_case(game, table, 8).guesses
    plan = Plan(SearchOptions(mode="top-k", k=1, max_guesses=8), root_k=1, worst=WorstFirst(widen=widen),
                bound_seconds=0.1)
    assert plan.describe().endswith("-worstfirst" + ("-widen1" if widen else ""))
    built = build(game, table, plan, jobs=1, folder=tmp_path)
    assert built.worst.guesses == least and max(built.nodes.depth) + 1 == least
    assert built.total >= exhaustive.optimal_total(game, least, hard=True)


def test_refined_classes_take_the_best_tree_of_each_k():
    # a root class above its proven bound (no time to raise it: the counting bound) is searched again
    # with each k of Refine.k: its value is the least of the k's own values, and its tree totals it
    game = mastermind.game(4, 5)
    table = scoring.feedback_table(game)
    plain = Plan(SearchOptions(mode="top-k", k=1, max_guesses=6, order="entropy"), opener="1122", bound_seconds=0)
    refined = replace(plain, refine=Refine(k=(2, 6), size=200))
    assert refined.describe().endswith("-refine2+6upto200")
    root = game.index_of("1122")
    groups = Searcher(game, table, SearchOptions(memo_bits=10)).split(root, np.arange(game.n_targets))
    gained = 0
    for code, group in groups:
        result = solve_class(game, table, refined, root, code, group)
        values = [solve_class(game, table, replace(plain, options=replace(plain.options, k=k)), root, code, group).value
                  for k in (1, 2, 6)]
        expected = min(values) if group.size <= 200 and values[0] > result.lower else values[0]
        assert result.value == expected and result.nodes.subtree[0] == result.value
        gained += values[0] - result.value
    assert gained > 0


def _replayed_total(game, table, nodes, group) -> int:
    """Return the guesses the class tree `nodes` (root: the class's first guess) needs over `group`."""
    children = {(p, nodes.feedback[i]): i for i, p in enumerate(nodes.parent) if p >= 0}
    total = 0
    for p in group:
        node, played = 0, 0
        while True:
            played += 1
            if nodes.guess[node] == game.target_index[p]:
                break
            node = children[(node, int(table[nodes.guess[node], p]))]
        total += played
    return total


@pytest.mark.parametrize("name", ["mastermind", "wordle-hard"])
def test_polished_classes_keep_their_first_guess_and_never_lose(name):
    # each node below a class's first guess searched again on its own with more leading guesses
    # (`Plan.polish`): the class keeps its first guess, its value never rises, and the tree it returns
    # replays to that value within the guesses (hard mode: the polished subtrees' guesses are allowed)
    if name == "mastermind":
        game, opener, r = mastermind.game(4, 5), "1122", 6
    else:  # 200 answers among 400 guesses drawn from every word: 37 classes below ACIDY that k=1 finishes
        words = list(wordle.game(False, all_words=True).labels)
        pick = sorted(np.random.default_rng(1).choice(words, 400, replace=False).tolist())
        game, opener, r = wordle.game(True, tuple(pick[::2]), tuple(pick)), pick[0], 6
    table = scoring.feedback_table(game)
    plain = Plan(SearchOptions(mode="top-k", k=1, widen=r, max_guesses=r, order="entropy"), opener=opener,
                 bound_seconds=0)
    polished = replace(plain, polish=Polish(k=8, size=(3, 500), work=10**9))
    assert polished.describe().endswith("-polish8-3to500-work1e09")
    root = game.index_of(opener)
    gained = 0
    for code, group in Searcher(game, table, SearchOptions(memo_bits=10)).split(root, np.arange(game.n_targets)):
        try:
            before = solve_class(game, table, plain, root, code, group)
        except RuntimeError:  # no tree of this search finishes the class within the guesses
            continue
        after = solve_class(game, table, polished, root, code, group)
        assert after.nodes.guess[0] == before.nodes.guess[0] and after.value <= before.value
        assert after.nodes.subtree[0] == after.value == _replayed_total(game, table, after.nodes, group)
        assert max(after.nodes.depth) + 1 <= r
        if game.allowed is not None:
            guesses = {i: game.labels[g] for i, g in enumerate(after.nodes.guess)}
            for i in range(len(after.nodes.parent)):  # each guess allowed after its ancestors' marks
                history, node = [], i
                while node >= 0:
                    up = after.nodes.parent[node]
                    history.append((guesses[up] if up >= 0 else opener, wordle.code_to_marks(
                        after.nodes.feedback[node])))
                    node = up
                assert reference.wordle_hard_ok(history[::-1], guesses[i])
        gained += before.value - after.value
    if name == "mastermind":
        assert gained > 0


@pytest.mark.parametrize("name", ["mastermind", "wordle-hard"])
def test_rescanned_classes_never_lose_and_replay(name):
    # each allowed guess of a solved class valued as its first guess (`Plan.rescan`, with the cut-off
    # of its value + `Rescan.margin`): its value never rises, the tree it returns replays to that value
    # within the guesses
    if name == "mastermind":
        game, opener, r = mastermind.game(4, 4), "1122", 6
    else:
        words = list(wordle.game(False, all_words=True).labels)
        pick = sorted(np.random.default_rng(1).choice(words, 400, replace=False).tolist())
        game, opener, r = wordle.game(True, tuple(pick[::2]), tuple(pick)), pick[0], 6
    table = scoring.feedback_table(game)
    plain = Plan(SearchOptions(mode="top-k", k=1, widen=1, max_guesses=r, order="entropy"), opener=opener,
                 bound_seconds=0)
    rescanned = replace(plain, rescan=Rescan(size=10**6, margin=10**6))
    assert "-rescan1000000+1000000" in rescanned.describe() and "rescan" not in plain.describe()
    polished = replace(rescanned, rescan=Rescan(size=10**6, margin=5), polish=Polish(k=8, size=(3, 500), work=10**9))
    limited = replace(polished, rescan=Rescan(size=10**6, margin=5, work=2000))  # some first guesses given up on
    assert limited.describe().endswith(polished.describe()[polished.describe().index("-polish"):])
    assert "-rescan1000000+5-work2e03" in limited.describe() and "-work2e03" not in polished.describe()
    root = game.index_of(opener)
    for code, group in Searcher(game, table, SearchOptions(memo_bits=10)).split(root, np.arange(game.n_targets)):
        try:
            before = solve_class(game, table, plain, root, code, group)
        except RuntimeError:  # no tree of this search finishes the class within the guesses
            continue
        for variant in (rescanned, polished, limited) if group.size <= 32 else (rescanned,):  # polish: seconds a class
            after = solve_class(game, table, variant, root, code, group)
            assert after.value <= before.value
            assert after.nodes.subtree[0] == after.value == _replayed_total(game, table, after.nodes, group)
            assert max(after.nodes.depth) + 1 <= r


@pytest.mark.parametrize("name", ["wordle-30+30", "mastermind-3x3", "wordle-30-hard"])
def test_a_bounded_value_with_a_cut_off_is_the_value_with_it_or_none(name):
    # `bounded_value(beta=...)`: with work to spare, what `value` gives with that cut-off (exact below
    # it, at least it otherwise)
    game = SMALL_GAMES[name]()
    positions = np.arange(game.n_targets)
    exact = searched(game, 6)
    for row in range(0, game.n_guesses, 7):
        total, _ = exact.value(positions, 6, forced=row)
        for beta in (total - 3, total, total + 1):
            given = searched(game, 6).bounded_value(positions, 6, 10**12, forced=row, beta=beta)
            assert given is not None and given[0] == searched(game, 6).value(positions, 6, beta=beta, forced=row)[0]
            assert (given[0] == total) if total < beta else (given[0] >= beta)


@pytest.mark.parametrize("name", ["wordle-30+30", "mastermind-3x3"])
def test_splitting_guesses_follow_the_class_count_then_the_sum_of_squares(name):
    game = SMALL_GAMES[name]()
    searcher = searched(game, 6)
    positions = np.arange(0, game.n_targets, 2)
    naive = []
    for row in range(game.n_guesses):
        sizes = Counter(game.code(row, int(game.target_index[p])) for p in positions)
        naive.append((-len(sizes), sum(s * s for s in sizes.values()), row))
    expected = [row for _, _, row in sorted(naive)[:12]]
    assert searcher.splitting_guesses(positions, 12).tolist() == expected
    pool = np.arange(0, game.n_guesses, 3)
    assert searcher.splitting_guesses(positions, 5, pool).tolist() == [row for _, _, row in sorted(
        item for item in naive if item[2] % 3 == 0)[:5]]


@pytest.mark.parametrize("name", ["wordle-30+30", "wordle-ight-hard", "mastermind-2x4"])
def test_tree_grown_from_a_given_first_guess_totals_its_forced_value(name):
    game = SMALL_GAMES[name]()
    searcher = searched(game, 6)
    positions = np.arange(game.n_targets)
    best, _ = searcher.best(positions, 6, None, ())
    for row in searcher.splitting_guesses(positions, 4):
        value, _ = searcher.value(positions, 6, forced=int(row))
        if value >= INF:
            continue
        nodes = searcher.grow(positions, 6, first=int(row))
        assert nodes.guess[0] == row and nodes.subtree[0] == value >= best


def test_misjudged_classes_are_searched_again_from_their_most_splitting_guesses():
    # the -ILLS and -ELLS words with 300 other guesses: after BETTY, the one leading guess (k=1) of a
    # class finishes none of it, so that class is searched again from each of its 8 most-splitting
    # guesses, every level widened; it gains, and its value is the least of the trees so found
    words = list(wordle.game(False, all_words=True).labels)
    family = tuple(w for w in words if w[2:] == "LLS" and w[1] in "IE")
    extra = np.random.default_rng(0).choice(words, 300, replace=False)
    game = wordle.game(False, family, tuple(sorted(set(family) | set(extra) | {"BETTY"})))
    table = scoring.feedback_table(game)
    plain = Plan(SearchOptions(mode="top-k", k=1, widen=1, max_guesses=6, memo_bits=12), opener="BETTY",
                 bound_seconds=0)
    refined = replace(plain, refine=Refine(split=8))
    assert refined.describe().endswith("-split8")
    root = game.index_of("BETTY")
    searcher = Searcher(game, table, SearchOptions(memo_bits=10))
    gained = 0
    for code, group in searcher.split(root, np.arange(game.n_targets)):
        try:
            before = solve_class(game, table, plain, root, code, group)
        except RuntimeError:  # no tree of this search finishes the class within the guesses
            continue
        after = solve_class(game, table, refined, root, code, group)
        assert after.nodes.subtree[0] == after.value <= before.value and max(after.nodes.depth) + 1 <= 6
        if before.nodes.guess[0] in searcher.leading_guesses(group, 5, 1):
            assert after.value == before.value
            continue
        wide = Searcher(game, table, SearchOptions(mode="top-k", k=1, widen=6, max_guesses=6, memo_bits=12))
        trees = [wide.grow(group, 5, ((root, code),), first=int(row)) for row in wide.splitting_guesses(group, 8)
                 if wide.value(group, 5, forced=int(row))[0] < INF]
        assert after.value == min([before.value] + [int(tree.subtree[0]) for tree in trees])
        gained += before.value - after.value
    assert gained > 0


@pytest.mark.parametrize("name", ["wordle-30+30", "wordle-30-hard", "mastermind-3x3"])
def test_a_class_out_of_widening_work_is_searched_widened_less(name):
    # every level widened within a work budget: a class that runs out of it (here: any class needing a
    # full scoring pass) gets the value of the search widened `Fallback.widen` levels; a budget no class
    # reaches changes nothing
    game = SMALL_GAMES[name]()
    table = scoring.feedback_table(game)
    deep = Plan(SearchOptions(mode="top-k", k=1, widen=6, max_guesses=6, memo_bits=12), bound_seconds=0)
    limited, ample = replace(deep, fallback=Fallback(work=1, widen=1)), replace(deep, fallback=Fallback(work=10**12))
    assert limited.describe().endswith("-widenwork1e00-then1")
    searcher = Searcher(game, table, SearchOptions(memo_bits=10))
    positions = np.arange(game.n_targets)
    root = int(searcher.leading_guesses(positions, 6, 1)[0])
    checked = 0
    for code, group in searcher.split(root, positions):
        if code == game.win_code or group.size <= 2:
            continue
        guesses, ghash = searcher.allowed_after(((root, code),))
        shallow = Searcher(game, table, SearchOptions(mode="top-k", k=1, widen=1, max_guesses=6, memo_bits=12))
        expected, _ = shallow.value(group, 5, guesses, ghash)
        if expected >= INF:
            continue
        assert solve_class(game, table, limited, root, code, group).value == expected
        assert solve_class(game, table, ample, root, code, group).value == solve_class(game, table, deep, root, code,
                                                                                           group).value
        checked += 1
    assert checked > 0


def ares_ills_hard():
    """Hard mode with the -ARES, -ILLS and -ELLS families, 40 other answers and 40 more guesses."""
    words = list(wordle.game(False, all_words=True).labels)
    family = tuple(w for w in words if w[1:] == "ARES" or (w[2:] == "LLS" and w[1] in "IE"))
    extra = np.random.default_rng(0).choice(words, 80, replace=False)
    answers = tuple(sorted(set(family) | set(extra[:40])))
    return wordle.game(True, answers, tuple(sorted(set(answers) | set(extra) | {"CHOMP"})))


def test_a_large_class_is_solved_below_the_first_guesses_its_probes_do_not_refute(tmp_path):
    # below CHOMP, a guess that pins a family down leaves a class hard mode cannot finish in time; a root
    # class of more than 20 targets has its guesses probed (most classes first) and is played from the
    # best of its first 3 guesses that a feasibility search does not refute, each valued class by class;
    # the refutations are checked against a feasibility search through every guess at every node
    game = ares_ills_hard()
    table = scoring.feedback_table(game)
    plan = Plan(SearchOptions(mode="top-k", k=2, widen=1, max_guesses=8, memo_bits=14), opener="CHOMP",
                bound_seconds=0, split=Split(size=20, tries=3, probe_work=(10**6, 10**10)))
    assert plan.describe().endswith("-below20-tries3-probe1e06+1e10")
    built = build(game, table, plan, jobs=1, folder=tmp_path)
    nodes = built.nodes
    feasible = Searcher(game, table, SearchOptions(max_guesses=8, memo_bits=14, first=True))  # every guess: exact
    searcher = Searcher(game, table, SearchOptions(max_guesses=8, memo_bits=10))
    root = game.index_of("CHOMP")
    refuted = split_classes = 0
    for code, group in searcher.split(root, np.arange(game.n_targets)):
        node = next(i for i in range(len(nodes.parent)) if nodes.parent[i] == 0 and nodes.feedback[i] == code)
        if group.size <= 20:
            continue
        split_classes += 1
        history = ((root, code),)
        guesses, ghash = searcher.allowed_after(history)
        candidates = []
        for row in searcher.splitting_guesses(group, guesses.size, guesses).tolist():
            if feasible.value(group, 7, guesses, ghash, forced=row)[0] >= INF:
                refuted += 1
            elif len(candidates) < 3:
                candidates.append(row)
        totals = {}
        for row in candidates:
            values = [solve_node(game, table, plan, history + ((row, child),), sub, finish=False).value
                      for child, sub in searcher.split(row, group)]
            totals[row] = min(INF, group.size + sum(values))
        best = min(totals, key=lambda row: (totals[row], candidates.index(row)))
        assert (nodes.guess[node], nodes.subtree[node]) == (best, totals[best])
    assert split_classes > 0 and refuted > 0
    # the tree finishes every target within 8 guesses, each guess allowed by the hints before it
    for position in range(game.n_targets):
        target, node, played = int(game.target_index[position]), 0, []
        while True:
            guess = nodes.guess[node]
            assert game.allowed(game, played)[guess]
            code = game.code(guess, target)
            played.append((guess, code))
            if code == game.win_code:
                break
            node = next(i for i in range(node + 1, len(nodes.parent)) if nodes.parent[i] == node
                        and nodes.feedback[i] == code)
        assert len(played) <= 8


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**30), max_size=300))
def test_guess_heap_gives_the_stable_sort_order(keys):
    # a node takes its guesses from a heap of keys with their places in the low bits: in the order of
    # a stable sort of the keys (ties: the order of the guess list)
    m = len(keys)
    heap = np.array([(key << kernel.KEY_SHIFT) | place for place, key in enumerate(keys)] + [0], np.int64)
    kernel.heap_make(heap, m)
    taken = []
    for left in range(m, 0, -1):
        taken.append(int(heap[0] & kernel.KEY_MASK))
        heap[0] = heap[left - 1]
        kernel.heap_sift(heap, left - 1)
    assert taken == np.argsort(np.array(keys, np.int64), kind="stable").tolist()



@pytest.fixture(scope="module")
def wordle_class():
    """Wordle (normal mode, every guess) on the 170 answers WALLS marks RGRRR, one of its larger classes
    (a state whose proof expands many guesses that reuse known-absent letters)."""
    from solver.core.registry import get_game

    game = get_game("wordle", "normal")
    walls = game.index_of("WALLS")
    codes = scoring.feedback_table(game, np.array([walls]), game.target_index)[0]
    targets = game.target_index[codes == game.encode("RGRRR")]
    return replace(game, target_index=targets), scoring.feedback_table(game, None, targets)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_union_bounds_and_alike_guesses_keep_every_value(wordle_class, data):
    # what Wordle's marks (params[P_MARKS]) allow in normal mode, the bounds memoised for unions of
    # classes at cut-offs and one guess scored of those alike on a set, against the search without
    # them (P_MARKS 0): the same values and guesses, fail-soft below random cut-offs, on random
    # subsets searched one after the other (each reads the bounds of those before)
    game, table = wordle_class
    searchers = [Searcher(game, table, SearchOptions(max_guesses=6, memo_bits=14)) for _ in range(2)]
    assert searchers[0].ws.params[kernel.P_MARKS] == 5
    searchers[1].ws.params[kernel.P_MARKS] = 0
    for _ in range(data.draw(st.integers(1, 3))):
        size = data.draw(st.integers(3, 60) | st.integers(100, game.n_targets))  # large ones expand many guesses
        positions = np.sort(np.random.default_rng(data.draw(st.integers(0, 2**32))).choice(
            game.n_targets, size, replace=False))
        r = data.draw(st.integers(3 if size <= 60 else 4, 5))  # 3 for 100 or more: slow proofs that none finishes
        exact, guess = searchers[1].value(positions, r)
        beta = data.draw(st.sampled_from([None, exact + 1, exact, max(exact - 5, 1)])) if exact < INF else None
        found = [searcher.value(positions, r, beta=beta) for searcher in searchers]
        if exact >= INF:  # no tree finishes them: no guess to compare
            assert all(value >= INF for value, _ in found)
        elif beta is None or exact < beta:
            assert found == [(exact, guess), (exact, guess)]
        else:
            assert all(beta <= value <= exact for value, _ in found)


def test_union_bounds_and_alike_guesses_spare_work(wordle_class):
    # fewer full passes (the unions' bounds) over fewer guesses (one of each alike kind), same answer
    game, table = wordle_class
    runs = []
    for marks in (5, 0):
        searcher = Searcher(game, table, SearchOptions(max_guesses=6, memo_bits=16))
        searcher.ws.params[kernel.P_MARKS] = marks
        value, guess = searcher.value(np.arange(game.n_targets), 5)
        runs.append((value, guess, searcher.stats.full, searcher.work, int(searcher.ws.stats[kernel.S_MERGED_PASSES])))
    assert runs[0][:2] == runs[1][:2] == (481, game.index_of("CERTY"))
    assert runs[0][2] < runs[1][2] and runs[0][3] < runs[1][3]
    assert runs[0][4] > 0 == runs[1][4]


@pytest.mark.parametrize("word", ["SALET", "QAJAQ", "FUZZY"])
def test_alike_keys_match_the_scores(wordle_class, word):
    # guesses with one `alike_key` (letters no target has left out) score every target alike
    game, _ = wordle_class
    targets = game.target_index[:40]
    letters = 0
    for row in game.rows[targets, :5]:
        for symbol in row:
            letters |= 1 << int(symbol)
    keys = np.array([kernel.alike_key(game.rows[g], np.int64(5), np.int64(letters)) for g in range(game.n_guesses)])
    codes = scoring.feedback_table(game, None, targets)
    same = np.flatnonzero(keys == keys[game.index_of(word)])
    assert (codes[same] == codes[game.index_of(word)]).all()


def test_writable_and_read_only_tables_share_one_compiled_search():
    # Numba compiles a read-only array as a type of its own (the search's kernels: about 35 s of one
    # core each): every table reaches the kernels read-only, whether the caller's is writable (computed)
    # or read-only (read from an artifact), and gives the same value
    game = mastermind.game(4, 4)
    writable = scoring.feedback_table(game)
    read_only = writable.copy()
    read_only.setflags(write=False)
    values = [Searcher(game, table, SearchOptions()).value(np.arange(game.n_targets), 6)
              for table in (writable, read_only)]
    assert values[0] == values[1] and writable.flags.writeable
    for signature in kernel.search.signatures:
        workspace = signature[0]
        assert not workspace.types[0].mutable and not workspace.types[1].mutable  # the table and its transpose
