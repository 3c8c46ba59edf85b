"""A live guess depends on the state, not on the machine's speed or load: the
budget sizes the work of the greedy rule and of the exact search (pairs scored), and the wall clock
is only a safety net (`strategy.safety_seconds`: twenty times the budget, at least 2 s).

A slower machine is simulated by kernels that take longer (each scoring call sleeps as long as it
ran, the sub-game's table and each search start late); nothing here asserts a speed.
"""
from __future__ import annotations

import time

import numpy as np
import pytest

from solver.core import scoring, strategy
from solver.core.runtime import Solver
from solver.core.search import searcher
from solver.games import cards


def off_tree_states(game, openers, count, seed):
    """Yield (positions, history) of `count` states after the `openers` (not the tree's) against random targets."""
    solver = Solver(game, use_tree=False, live="greedy")
    rng = np.random.default_rng(seed)
    for _ in range(count):
        target = int(game.target_index[rng.integers(game.n_targets)])
        positions, history = np.arange(game.n_targets, dtype=np.int64), ()
        for text in openers:
            row = game.index_of(text)
            code = game.code(row, target)
            positions = solver.narrow(positions, row, code)
            history += ((row, code),)
        yield positions, history


def live_choices(game, states):
    """Return (the guess played, whether proven, the greedy guess, guesses scored) of each state, by a fresh solver."""
    out = []
    for positions, history in states:
        solver = Solver(game, use_tree=False)  # a new ExactLive: no memo of another run
        greedy, exact = solver.choose_off_tree(positions, history)
        guess = exact.guess if exact is not None else greedy.guess
        out.append((guess, exact is not None and exact.exact, greedy.guess, greedy.scored))
    return out


def slow_machine(monkeypatch):
    """Make every kernel call take longer, as on a busy machine: scoring twice as long, the sub-game's
    table half a second more, each search a fifth of a second late."""
    score, table, value = scoring.partition_scores, scoring.feedback_table, searcher.Searcher.value

    def slow_score(*args, **kwargs):
        began = time.perf_counter()
        out = score(*args, **kwargs)
        time.sleep(time.perf_counter() - began)
        return out

    def slow_table(game, rows, targets, *args, **kwargs):
        if len(rows) > 1:  # not the one-row warm-up call
            time.sleep(0.5)
        return table(game, rows, targets, *args, **kwargs)

    def slow_value(self, *args, **kwargs):
        time.sleep(0.2)
        return value(self, *args, **kwargs)

    monkeypatch.setattr(scoring, "partition_scores", slow_score)
    monkeypatch.setattr(scoring, "feedback_table", slow_table)
    monkeypatch.setattr(searcher.Searcher, "value", slow_value)


@pytest.mark.parametrize("n, openers, count", [(3, ("2C 3D 4H", "5C 9D KS"), 2),
                                               (4, ("2C 3D 4H 5S", "6C 8D JD QS", "KC AD 9H TS"), 5)])
def test_cards_live_guesses_do_not_change_on_a_slower_machine(monkeypatch, n, openers, count):
    game = cards.game(n)
    states = list(off_tree_states(game, openers, count, seed=1))
    live_choices(game, states[:1])  # loads (or compiles) the kernels: not part of either run
    calm = live_choices(game, states)
    slow_machine(monkeypatch)
    assert live_choices(game, states) == calm


def test_the_greedy_rule_scores_the_same_guesses_whatever_the_clock_says():
    game = cards.game(3)
    [(positions, history)] = off_tree_states(game, ("2C 3D 4H",), 1, seed=3)
    pool = strategy.live_pool(game, positions, history)

    def ticking(step):
        now = [0.0]

        def clock():
            now[0] += step
            return now[0]
        return clock

    choices = [strategy.choose_live(game, positions, history, 0.05, clock=ticking(step)) for step in (1e-6, 0.004)]
    assert [(c.guess, c.scored) for c in choices] == [(choices[0].guess, choices[0].scored)] * 2
    assert 0 < choices[0].scored < pool.size  # the work budget, not the pool, ends this choice
    assert choices[0].scored == strategy.work_guesses(pool.size, positions.size, 0.05)
    # past the safety net (at least 2 s) at once
    late = strategy.choose_live(game, positions, history, 0.05, clock=ticking(10.0))
    assert late.clocked and late.scored < choices[0].scored
