"""Pooled top-k trees (`pipeline.builders.pooled_tree`, how cards n=4 is built): a valid tree, every target
reached within the limit, never better than the proven optimum."""
from __future__ import annotations

import numpy as np

from pipeline.builders.pooled_tree import PooledPlan, build_pooled_tree, class_pool
from solver.analysis.walk import play
from solver.core import artifacts
from solver.core.runtime import Solver
from solver.core.registry import get_game
from solver.core.search.searcher import SearchOptions


def test_class_pool_holds_the_candidates_and_the_best_outsiders():
    game = get_game("cards", "n2")
    candidates = game.target_index[:40]
    pool = class_pool(game, candidates, extra=30, seed=3)
    assert set(candidates) <= set(pool) and pool.size == 70 and np.all(np.diff(pool) > 0)
    assert np.array_equal(pool, class_pool(game, candidates, extra=30, seed=3))  # deterministic


def test_pooled_tree_plays_every_target_within_the_limit(tmp_path):
    game = get_game("cards", "n2")
    plan = PooledPlan(SearchOptions(mode="top-k", k=4, max_guesses=5, order="entropy"), opener="5C JD", extra=40)
    built, _ = build_pooled_tree(game, plan, jobs=2, folder=tmp_path, force=True)
    assert built
    _, meta = artifacts.read(artifacts.TREE, game, tmp_path)
    solver = Solver(game, folder=tmp_path)
    assert solver.tree is not None
    steps = [play(solver, int(row)) for row in game.target_index]
    total = sum(len(s) for s in steps)
    assert total == int(meta["total_guesses"]) and max(len(s) for s in steps) == int(meta["max_guesses"]) <= 5
    assert total >= 4697  # the proven optimum of cards n2
    assert meta["strategy"] == plan.describe() and meta["proven"] == "none"
