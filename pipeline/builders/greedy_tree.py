"""Build complete decision trees with the greedy strategy (`solver.core.strategy`).

A tree node is a state in which a guess is played; its children are the states reached by each
feedback other than the win. Every target is reached: a node's candidates are split by its guess
until each is guessed. Root children are independent, so they are built in parallel with joblib;
the scoring inside each node runs in the Numba kernels.

Optional lookahead: at nodes with more than `lookahead_min` candidates, the `lookahead` best guesses
by score are each expanded into a full greedy subtree and the one with the fewest total guesses
is kept.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from joblib import Parallel, delayed

from pipeline import cluster
from pipeline.builders.feedback_tables import compute_table
from solver.core import artifacts, strategy
from solver.core.game import Game
from solver.core.registry import get_game, registered
from solver.core.search.nodes import Nodes


@dataclass
class GreedyOptions:
    """How a tree is built: lookahead width and threshold, parallel jobs, guess pool."""

    lookahead: int = 0
    lookahead_min: int = 50
    jobs: int = 2
    # None: every allowed guess is scored at every node. A number S: below the root, only the
    # node's candidates plus S other guesses (a fixed-seed sample) are scored; the root scores the
    # game's symmetry representatives. Needed for cards n=4, whose full pool is 270725 guesses.
    pool_sample: int | None = None

    def describe(self) -> str:
        """Return the strategy text stored in the tree's metadata."""
        text = strategy.STRATEGY
        if self.lookahead:
            text += f"+lookahead{self.lookahead}@{self.lookahead_min}"
        if self.pool_sample is not None:
            text += f"+pool{self.pool_sample}"
        return text


class Builder:
    """Builds the greedy tree of one game; `table` is codes[all guesses, all targets] or None."""

    def __init__(self, game: Game, table: np.ndarray | None, options: GreedyOptions):
        self.game, self.table, self.options = game, table, options

    def codes(self, guess: int, candidates: np.ndarray) -> np.ndarray:
        """Return the feedback codes of one guess row against candidate target positions."""
        if self.table is not None:
            return self.table[guess, candidates]
        from solver.core import scoring  # defers Numba to the compute path

        return scoring.feedback_table(self.game, [guess], self.game.target_index[candidates])[0]

    def pool(self, candidates: np.ndarray, history) -> np.ndarray:
        """Return the guess rows scored at a node (see `GreedyOptions.pool_sample`)."""
        sample = self.options.pool_sample
        if sample is None:
            return strategy.allowed_guesses(self.game, history)
        if not history and self.game.representatives is not None:
            return self.game.representatives()
        # Cheap fixed-seed sample (O(sample), no permutation of the whole guess list); duplicates
        # and the node's own candidates are dropped, so a few less than `sample` may remain.
        rng = np.random.default_rng([20261130, len(history), int(candidates[0]), int(candidates.size)])
        picked = rng.integers(0, self.game.n_guesses, size=sample)
        if self.game.allowed is not None:
            picked = picked[self.game.allowed(self.game, history)[picked]]
        return np.union1d(self.game.target_index[candidates], picked)

    def split(self, guess: int, candidates: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """Return (code, candidates) for each non-winning class of the guess, by code."""
        codes = self.codes(guess, candidates)
        order = np.argsort(codes, kind="stable")
        values, starts = np.unique(codes[order], return_index=True)
        groups = np.split(candidates[order], starts[1:])
        return [(int(v), g) for v, g in zip(values, groups) if v != self.game.win_code]

    def grow(self, candidates: np.ndarray, history=(), depth: int = 0) -> Nodes:
        """Return the subtree (as its own Nodes, root parent -1) for these candidate positions."""
        nodes = Nodes()
        self._grow(nodes, -1, -1, candidates, tuple(history), depth)
        return nodes

    def _best_guess(self, candidates: np.ndarray, history) -> int:
        if candidates.size <= 2:
            return int(self.game.target_index[candidates[0]])
        pool = self.pool(candidates, history)
        guess, sum_sq = strategy.choose(self.game, candidates, history, self.table, pool)
        width = self.options.lookahead
        if width <= 1 or candidates.size <= self.options.lookahead_min or sum_sq.size == 0:
            return guess
        flags = strategy.candidate_mask(self.game, candidates, pool)
        order = np.lexsort((~flags, sum_sq))[:width]
        totals = []
        for g in pool[order]:
            total = candidates.size
            for code, group in self.split(int(g), candidates):
                sub = Builder(self.game, self.table, GreedyOptions(jobs=1, pool_sample=self.options.pool_sample))
                total += sub.grow(group, history + ((int(g), code),), 0).subtree[0]
            totals.append(total)
        return int(pool[order[int(np.argmin(totals))]])

    def _grow(self, nodes: Nodes, parent: int, code: int, candidates: np.ndarray, history, depth: int) -> int:
        guess = self._best_guess(candidates, history)
        node = nodes.add(parent, code, depth, guess, int(candidates.size))
        total = int(candidates.size)
        for child_code, group in self.split(guess, candidates):
            child = self._grow(nodes, node, child_code, group, history + ((guess, child_code),), depth + 1)
            total += nodes.subtree[child]
        nodes.subtree[node] = total
        return node


def _grow_child(key: tuple[str, str], table, options: GreedyOptions, group, history, depth) -> Nodes:
    # Workers rebuild the game from the registry (pickled rule closures would lose their source
    # file, which Numba's on-disk cache needs) and use one thread each: no nested thread pools.

    try:
        import numba  # defers Numba to the compute path

        numba.set_num_threads(1)
    except ImportError:  # pragma: no cover
        pass
    return Builder(get_game(*key), table, options).grow(group, history, depth)


def _grow_task(game: Game, table, options: GreedyOptions, group, history, depth) -> Nodes:
    return Builder(game, table, options).grow(group, history, depth)


def build(game: Game, table: np.ndarray | None, options: GreedyOptions, progress=None) -> Nodes:
    """Return the complete tree of `game`; root children are built in parallel (joblib)."""
    builder = Builder(game, table, options)
    candidates = np.arange(game.n_targets, dtype=np.int64)
    nodes = Nodes()
    guess = builder._best_guess(candidates, ())
    root = nodes.add(-1, -1, 0, guess, game.n_targets)
    groups = builder.split(guess, candidates)
    groups.sort(key=lambda item: -item[1].size)  # largest first balances the workers
    if progress:
        progress(0, len(groups))

    if cluster.current().distributed:  # root children as tasks of the cluster (`pipeline.cluster`)
        jobs = cluster.current().map(_grow_task, [(options, group, ((guess, code),), 1) for code, group in groups],
                                     game, table, make_table=compute_table)
    elif options.jobs > 1 and registered(game) is not None:
        jobs = Parallel(n_jobs=options.jobs, return_as="generator", max_nbytes="1M")(
            delayed(_grow_child)((game.name, game.variant), table, options, group, ((guess, code),), 1)
            for code, group in groups)
    else:  # one process (or a game the workers cannot rebuild from the registry)
        jobs = (builder.grow(group, ((guess, code),), 1) for code, group in groups)
    total = game.n_targets
    for (code, _group), sub in zip(groups, jobs):
        sub.feedback[0] = code
        child = len(nodes.parent)
        nodes.graft(sub, root)
        total += nodes.subtree[child]
        if progress:
            progress(1, None)
    nodes.subtree[root] = total
    return nodes


def to_arrow(game: Game, nodes: Nodes) -> pa.Table:
    """Return the Arrow table of a tree in the schema of `solver.core.artifacts.TREE_SCHEMA`."""
    n = len(nodes.parent)
    columns = [
        pa.array(np.arange(n, dtype=np.int32)),
        pa.array(np.array(nodes.parent, dtype=np.int32)),
        pa.array(np.array(nodes.feedback, dtype=np.int32)),
        pa.array(np.array(nodes.depth, dtype=np.int16)),
        pa.array(np.array(nodes.guess, dtype=np.int32)),
        pa.array([game.labels[g] for g in nodes.guess], type=pa.string()),
        pa.array(np.array(nodes.remaining, dtype=np.int32)),
        pa.array(np.array(nodes.subtree, dtype=np.int64)),
    ]
    return pa.Table.from_arrays(columns, schema=artifacts.TREE_SCHEMA)


def max_guesses(nodes: Nodes) -> int:
    """Return the most guesses any target needs: deepest node depth plus one."""
    return max(nodes.depth) + 1


def build_greedy_tree(game: Game, table: np.ndarray | None, options: GreedyOptions, folder=None, force=False,
               progress=None) -> tuple[bool, float]:
    """Build and write a game's tree artifact unless up to date; return (built, seconds)."""
    if not force and artifacts.is_current(artifacts.TREE, game, folder, strategy=options.describe()):
        return False, 0.0
    start = time.perf_counter()
    nodes = build(game, table, options, progress)
    extra = {"targets": game.n_targets, "total_guesses": nodes.subtree[0],
             "max_guesses": max_guesses(nodes), "strategy": options.describe()}
    artifacts.write(artifacts.TREE, game, to_arrow(game, nodes), extra, folder)
    return True, time.perf_counter() - start
