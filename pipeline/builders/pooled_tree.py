"""Exact top-k trees for games too large for a full feedback table (cards n=4: 270725^2 pairs).

The root guess is fixed; each root class is then a small game of its own: its candidates, and as
guesses the candidates plus the `extra` non-candidates with the least sum of squared class sizes
over the class among a fixed-seed sample of `extra * SAMPLE_FACTOR` (guesses that split the class
well). That sub-game's table is computed (pool x candidates), the exact search runs top-k on it
within the guess limit, and its tree is grafted under the root with its guesses mapped back to the
game's rows. Classes are independent: solved in parallel (largest first) and checkpointed, so a
killed build resumes. The result is an upper bound (top-k, and guesses outside the pools are never
tried); no lower bound is claimed.
"""
from __future__ import annotations

import hashlib
import shutil
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

from pipeline import cluster
from pipeline.builders.exact_tree import ClassResult, _save, finished_classes
from pipeline.builders.greedy_tree import max_guesses, to_arrow
from solver.core import artifacts, scoring
from solver.core.game import Game
from solver.core.registry import get_game
from solver.core.search.searcher import INF, Searcher, SearchOptions
from solver.core.search.nodes import Nodes

SAMPLE_FACTOR = 20  # non-candidates sampled per pool slot
SEED = 20261130


@dataclass(frozen=True)
class PooledPlan:
    """A tree from `opener`, each root class searched top-k over a pool of `extra` outside guesses."""

    options: SearchOptions  # mode top-k; max_guesses counts the opener
    opener: str
    extra: int = 1000

    def describe(self) -> str:
        """Return the strategy text of the tree's metadata."""
        return f"{self.options.describe()}-opener{self.opener}-pooled{self.extra}"


def class_pool(game: Game, candidates: np.ndarray, extra: int, seed: int) -> np.ndarray:
    """Return the sorted guess rows searched in a class: its candidate rows plus the `extra` best
    (least sum of squares over the class) of a fixed-seed sample of the other rows."""
    others = np.setdiff1d(np.arange(game.n_guesses), candidates)
    rng = np.random.default_rng([SEED, seed])
    sample = rng.choice(others, min(others.size, SAMPLE_FACTOR * extra), replace=False)
    sum_sq, _ = scoring.partition_scores(game, sample, candidates)
    return np.sort(np.concatenate([candidates, sample[np.argsort(sum_sq, kind="stable")[:extra]]]))


def sub_game(game: Game, pool: np.ndarray, candidates: np.ndarray) -> Game:
    """Return the game restricted to guess rows `pool` and target rows `candidates` (within the pool)."""
    return replace(game, variant=f"{game.variant}-class", rows=game.rows[pool],
                   labels=tuple(game.labels[r] for r in pool), target_index=np.searchsorted(pool, candidates),
                   canonical=None, representatives=None, _positions={})


def solve_class(key: tuple[str, str], plan: PooledPlan, code: int, positions: np.ndarray,
                checkpoint: Path) -> ClassResult:
    """Return the subtree of one root class (target `positions` of the game), guesses as game rows."""
    start = time.perf_counter()
    game = get_game(*key)
    candidates = game.target_index[positions]
    pool = class_pool(game, candidates, plan.extra, code)
    small = sub_game(game, pool, candidates)
    searcher = Searcher(small, scoring.feedback_table(small), replace(plan.options, memo_bits=20))
    everything = np.arange(small.n_targets, dtype=np.int64)
    r = plan.options.max_guesses - 1
    value, _ = searcher.best(everything, r, None, ())
    if value >= INF:
        raise RuntimeError(f"{game.key}: a class of {positions.size} targets cannot be finished in {r} more guesses "
                           f"over its pool")
    nodes = searcher.grow(everything, searcher.shallowest(everything, r, value), ())
    nodes.feedback[0] = code
    nodes.guess = [int(pool[g]) for g in nodes.guess]
    nodes.depth = [d + 1 for d in nodes.depth]
    result = ClassResult(code, nodes, value, 0, searcher.stats, time.perf_counter() - start)
    _save(checkpoint / f"class-{code}.npz", result)
    return result


def build(game: Game, plan: PooledPlan, jobs: int = 2, progress=None, folder: Path | None = None):
    """Return (nodes, total, seconds of search summed over the classes) of `plan`'s tree."""
    root = game.index_of(plan.opener)
    codes = scoring.feedback_table(game, [root], game.target_index)[0]
    groups = [(int(c), np.flatnonzero(codes == c)) for c in np.unique(codes) if c != game.win_code]
    groups.sort(key=lambda item: -item[1].size)
    checkpoint = (folder or artifacts.artifacts_dir(game)) / ".checkpoints" / f"{game.key}-{_tag(plan)}"
    checkpoint.mkdir(parents=True, exist_ok=True)
    done = finished_classes(checkpoint)
    if progress:
        progress(0, len(groups))
        progress(len(done), None)
    todo = [(code, group) for code, group in groups if code not in done]
    key = (game.name, game.variant)

    if cluster.current().distributed:  # classes as tasks of the cluster; checkpoints written here
        runs = cluster.current().imap_unordered(solve_class, [(key, plan, code, group, checkpoint)
                                                              for code, group in todo], scratch=checkpoint)
    else:
        runs = Parallel(n_jobs=jobs, return_as="generator_unordered")(
            delayed(solve_class)(key, plan, code, group, checkpoint) for code, group in todo)
    for result in runs:
        if cluster.current().distributed:
            _save(checkpoint / f"class-{result.code}.npz", result)
        done[result.code] = result
        if progress:
            progress(1, None)
    nodes = Nodes()
    node = nodes.add(-1, -1, 0, root, game.n_targets)
    total = game.n_targets
    for code, _ in groups:
        nodes.graft(done[code].nodes, node)
        total += done[code].value
    nodes.subtree[node] = total
    return nodes, total, sum(result.seconds for result in done.values()), checkpoint


def _tag(plan: PooledPlan) -> str:
    return hashlib.sha256(plan.describe().encode()).hexdigest()[:12]


def build_pooled_tree(game: Game, plan: PooledPlan, jobs: int = 2, folder: Path | None = None, force: bool = False,
               progress=None) -> tuple[bool, float]:
    """Build and write the tree artifact unless it is up to date; return (built, seconds of wall time)."""
    if not force and artifacts.is_current(artifacts.TREE, game, folder, strategy=plan.describe()):
        return False, 0.0
    start = time.perf_counter()
    nodes, total, search_seconds, checkpoint = build(game, plan, jobs, progress, folder)
    extra = {"targets": game.n_targets, "total_guesses": total, "max_guesses": max_guesses(nodes),
             "strategy": plan.describe(), "proven": "none", "search_seconds": f"{search_seconds:.1f}"}
    artifacts.write(artifacts.TREE, game, to_arrow(game, nodes), extra, folder)
    shutil.rmtree(checkpoint, ignore_errors=True)
    return True, time.perf_counter() - start
