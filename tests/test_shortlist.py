"""The live look-ahead of large states (`solver.core.search.shortlist`) against a naive reference, and
the shortlist stage of `ExactLive` on a Wordle state of more than SHORTLIST_FROM answers."""
from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from solver.core.finish import finish_guesses
from solver.core.registry import get_game
from solver.core.runtime import Solver
from solver.core.search import live as live_search
from solver.core.search import shortlist as shortlist_module
from solver.core.search.shortlist import ORDER_DIGITS, shortlist


def naive_estimate(codes: np.ndarray, win: int, finish: np.ndarray) -> float:
    """Sum of |c| F(|c|) over the classes of `codes` other than the win's."""
    values, counts = np.unique(codes, return_counts=True)
    return float(sum(k * finish[k] for v, k in zip(values, counts) if v != win))


def naive_shortlist(table, guesses, cols, win, finish, width, is_candidate):
    """The module's definition, step by step."""
    first = {g: naive_estimate(table[g, cols], win, finish) for g in guesses}
    flag = dict(zip(guesses.tolist(), is_candidate.tolist()))
    ranked = sorted(guesses.tolist(), key=lambda g: (round(first[g], ORDER_DIGITS), not flag[g], g))[:width]
    deeper = {}
    for f in ranked:
        total = 0.0
        for code in np.unique(table[f, cols]):
            members = cols[table[f, cols] == code]
            if code == win:
                continue
            if members.size < 3:
                total += members.size * finish[members.size]
            else:
                total += members.size + min(naive_estimate(table[g, members], win, finish) for g in guesses)
        deeper[f] = total
    order = sorted(ranked, key=lambda g: (round(deeper[g], ORDER_DIGITS), not flag[g], g))
    return order, [deeper[g] for g in order]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(3, 30), st.integers(2, 6), st.integers(1, 8), st.integers(0, 2**32 - 1))
@example(12, 14, 6, 2, 1029)  # guesses 1 and 7 tie but for the order of their float sums
def test_shortlist_matches_the_naive_reference(n_guesses, n_cols, n_codes, width, seed):
    rng = np.random.default_rng(seed)
    table = rng.integers(0, n_codes, size=(n_guesses, n_cols + 4)).astype(np.uint8)
    guesses = np.sort(rng.choice(n_guesses, size=rng.integers(1, n_guesses + 1), replace=False)).astype(np.int64)
    cols = np.sort(rng.choice(n_cols + 4, size=n_cols, replace=False)).astype(np.int64)
    win = int(rng.integers(0, n_codes))
    is_candidate = rng.random(guesses.size) < 0.3
    finish = finish_guesses(n_codes, np.arange(n_cols + 1))
    rows, values = shortlist(table, guesses, cols, n_codes, win, finish, width, is_candidate)
    expected_rows, expected_values = naive_shortlist(table, guesses, cols, win, finish, width, is_candidate)
    assert rows.tolist() == expected_rows
    np.testing.assert_allclose(values, expected_values, rtol=1e-12)


def test_large_state_gets_a_proven_total_of_a_shortlisted_guess():
    game = get_game("wordle", "normal")
    solver = Solver(game)
    _, root = solver.initial_guess()
    jobes = game.index_of("JOBES")
    code = game.encode("RRRRR")
    state = solver.advance(root, jobes, code)
    assert state.remaining >= live_search.SHORTLIST_FROM
    live = solver.exact_live
    choice = live.choose(state.candidate_positions, state.history, solver.budget)
    assert choice is not None and not choice.exact  # the best of a shortlist: an upper bound, not a proof
    # its total is the proven least total with that guess played now
    proven = live.guess_totals(state.candidate_positions, state.history, [choice.guess], math.inf)
    assert proven == {choice.guess: choice.total}
    # and the same from another instance: a function of the state and the budget
    again = Solver(game).exact_live.choose(state.candidate_positions, state.history, solver.budget)
    assert (again.guess, again.total) == (choice.guess, choice.total)
    # no better than the optimum (1348: the exact search's proof, `deduce hint wordle JOBES=RRRRR --exact`)
    # and within 1% of it, where the greedy rule's guess loses 14
    assert 1348 <= choice.total <= 1348 * 1.01


def _structured_table(rng, n_guesses: int, n_cols: int, n_codes: int) -> np.ndarray:
    """Return a table whose rows range from splitting every column apart to lumping them together (so that
    the look-ahead's skips all happen: classes done at a split into singletons, counts stopped early)."""
    table = np.empty((n_guesses, n_cols), np.uint8)
    for g in range(n_guesses):
        spread = int(rng.integers(1, n_codes + 1))
        table[g] = rng.integers(0, spread, size=n_cols)
    return table


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 40), st.integers(3, 60), st.integers(2, 40), st.integers(1, 10), st.integers(0, 2**32 - 1),
       st.sampled_from(["no tree", "steep", "flat"]))
def test_the_skips_change_no_estimate_and_no_order(n_guesses, n_cols, n_codes, width, seed, fit):
    """With the skips (`prunable` F) the look-ahead gives the estimates it gives without them, to the last bit."""
    rng = np.random.default_rng(seed)
    table = _structured_table(rng, n_guesses, n_cols + 3, n_codes)
    guesses = np.arange(n_guesses, dtype=np.int64)
    cols = np.sort(rng.choice(n_cols + 3, size=n_cols, replace=False)).astype(np.int64)
    win = int(rng.integers(0, n_codes))
    is_candidate = rng.random(n_guesses) < 0.3
    k = np.arange(n_cols + 1, dtype=np.float64)
    finish = {"no tree": finish_guesses(n_codes, k),
              "steep": np.where(k <= 1, 1.0,
                                np.where(k == 2, 1.5, np.maximum(1.2 + 0.9 * np.log2(np.maximum(k, 1)), 1.5))),
              "flat": np.where(k <= 1, 1.0,
                               np.where(k == 2, 1.5, np.maximum(1.9 + 0.05 * np.log2(np.maximum(k, 1)), 1.5)))}[fit]
    assert n_cols < 3 or shortlist_module.prunable(finish, n_cols) is not None
    pruned = shortlist(table, guesses, cols, n_codes, win, finish, width, is_candidate)
    whole = shortlist(table, guesses, cols, n_codes, win, finish, width, is_candidate, prune=False)
    assert pruned[0].tolist() == whole[0].tolist() and pruned[1].tobytes() == whole[1].tobytes()


def test_no_skips_with_an_f_that_does_not_allow_them():
    k = np.arange(11, dtype=np.float64)
    assert shortlist_module.prunable(finish_guesses(10, k), 10) is not None
    falling = np.array([1.0, 1.0, 1.5, 6.0, 1.6, 1.6, 1.6, 1.6, 1.6, 1.6, 1.6])  # 4 F(4) < 3 F(3)
    assert shortlist_module.prunable(falling, 10) is None
    flat = np.where(k <= 1, 1.0, 1.0)  # F(k) = F(1): a split into singletons is no better than one class
    assert shortlist_module.prunable(flat, 10) is None
    assert shortlist_module.prunable(finish_guesses(10, k), 2) is None  # no class of 3 to skip in


@pytest.mark.parametrize("name, variant, opener, target", [
    ("battleship", "default", "B4 D2 E3", "A1 C3 F2"),  # 440 candidates, classes too large to skip much
    ("cards", "n3", "2C 3C KD", "5C 8D 9H"),
    ("wordle", "hard", "JOBES", "QUICK"),
])
def test_the_skips_change_no_shortlist_of_a_live_state(name, variant, opener, target):
    game = get_game(name, variant)
    solver = Solver(game)
    _, root = solver.initial_guess()
    row = game.index_of(opener)
    state = solver.advance(root, row, game.code(row, game.index_of(target)))
    assert state.remaining >= live_search.SHORTLIST_FROM
    sub = live_search._SubGame(game, state.candidate_positions, solver.exact_live.depth)
    local = sub.local(state.candidate_positions).astype(np.int64)
    guesses, _ = sub.prove.allowed_after(state.history)
    finish = np.asarray(solver.exact_live.finish(np.arange(local.size + 1)), dtype=np.float64)
    args = (sub.table, guesses, local, game.n_codes, game.win_code, finish, 12,
            np.isin(guesses, game.target_index[sub.positions[local]]))
    pruned, whole = shortlist(*args), shortlist(*args, prune=False)
    assert pruned[0].tolist() == whole[0].tolist() and pruned[1].tobytes() == whole[1].tobytes()


@pytest.mark.parametrize("name, variant, opener, target", [
    ("battleship", "default", "B4 D2 E3", "A1 C3 F2"),  # 440 candidates: no proof of the twelve ends in its work
    ("wordle", "normal", "JOBES", "QUICK"),  # 461: four proven among the first tries
])
def test_proofs_side_by_side_give_what_one_thread_gives(monkeypatch, name, variant, opener, target):
    """The shortlist's proofs on two threads: each outcome, the rows tried and the choice are those of one thread."""
    game = get_game(name, variant)
    solver = Solver(game)
    _, root = solver.initial_guess()
    row = game.index_of(opener)
    state = solver.advance(root, row, game.code(row, game.index_of(target)))
    positions, history = state.candidate_positions, state.history
    seen = {}
    for threads in (1, 2):
        monkeypatch.setattr(live_search, "proof_threads", lambda threads=threads: threads)
        live = live_search.ExactLive(game, finish=solver._finish)  # a sub-game of its own, nothing memoised
        sub = live._subgame(positions)
        local = sub.local(positions)
        r = live.depth - len(history)
        guesses, ghash = sub.prove.allowed_after(history)
        rows = shortlist(
            sub.table, guesses, local.astype(np.int64), game.n_codes, game.win_code,
            np.asarray(live.finish(np.arange(local.size + 1)), dtype=np.float64), 12,
            np.isin(guesses, game.target_index[sub.positions[local]]))[0][:live_search.SHORTLIST_TRIES].tolist()
        proofs = live._proofs(sub, local, r, guesses, ghash, rows,
                              live_search.SEARCH_PAIRS / live_search.SHORTLIST_PROOFS, math.inf, time.perf_counter)
        choice = live.choose(positions, history, solver.budget)
        seen[threads] = ([found for found, _ in proofs],
                         None if choice is None else (choice.guess, choice.total, choice.exact))
    assert seen[2] == seen[1]
    assert len(sub._provers) == 1  # the second thread proved on a searcher of its own
