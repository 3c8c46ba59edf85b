"""Exact totals of first guesses: the least total guesses over every target of trees opening with each.

`exact_openers` evaluates each opener with `Searcher.opener_total` (the exact search of
`pipeline.search.engine`), in parallel over openers with joblib processes. Each worker keeps one
`Searcher` for all the openers it gets (a module-level cache), so what its memo learnt from one
opener speeds up the next; anagrams (CRATE, TRACE), which split the targets into largely the same
classes, go to one worker as one task. With a `cutoff`, an opener is abandoned as soon as its total provably
reaches the cutoff; its result is then a lower bound (`proven_exact` False).

`cheap_ranking` orders openers by the greedy criterion of `solver.strategy` (sum of squared class
sizes over every target; ties to a guess that may win, then the lower row): the candidates worth
an exact evaluation when the user names none.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from pipeline.search.engine import INF, SearchOptions, Searcher
from solver.game import Game
from solver.games import registered

DEFAULT_MAX_GUESSES = 6


@dataclass(frozen=True)
class OpenerTotal:
    """One opener's exact total (or, when cut off, a proven lower bound of at least the cutoff)."""

    row: int
    label: str
    total: int  # >= INF: no tree opening with it finishes every target within max_guesses
    proven_exact: bool
    seconds: float

    @property
    def finishes(self) -> bool:
        """Whether some tree opening with it finishes every target within the guess limit."""
        return self.total < INF


def table_for(game: Game) -> np.ndarray:
    """Return codes[all guesses, all targets] of `game`: the artifact of a registered variant (built
    if missing; Wordle hard mode uses the normal game's), computed for user word lists."""
    key = registered(game)
    if key is None:
        from solver.kernels import feedback_table

        return feedback_table(game)
    from pipeline.build import TABLE_OF
    from pipeline.tables import load_table
    from solver.games import get_game

    table_key = TABLE_OF.get(key, key)
    if table_key is None:
        raise ValueError(f"{game.key} has no feedback table (too large): exact openers need one")
    return load_table(get_game(*table_key))


def default_options(game: Game) -> SearchOptions:
    """Return prove-mode options with the guess limit of the variant's exact tree (default 6)."""
    max_guesses = DEFAULT_MAX_GUESSES
    key = registered(game)
    if key is not None:
        from pipeline.build import EXACT_PLANS

        plan = EXACT_PLANS.get(key)
        if plan is not None:
            max_guesses = plan.options.max_guesses
    return SearchOptions(mode="prove", max_guesses=max_guesses)


def cheap_ranking(game: Game, table: np.ndarray, top: int) -> list[int]:
    """Return the guess rows of the `top` best openers by the greedy criterion (best first)."""
    from solver import kernels, strategy

    if top < 1:
        raise ValueError(f"--top must be at least 1, got {top}")
    rows = strategy.allowed_guesses(game, ())
    positions = np.arange(game.n_targets, dtype=np.int64)
    sum_sq, _ = kernels.partition_scores(game, rows, positions, table=table)
    candidate = strategy.candidate_mask(game, positions, rows)
    order = np.lexsort((rows, ~candidate, sum_sq))[:top]
    return [int(rows[i]) for i in order]


# -- one Searcher per process ------------------------------------------------------------------
_SEARCHERS: dict = {}


def _searcher(spec, table: np.ndarray, options: SearchOptions) -> Searcher:
    """Return this process's Searcher of `spec` ((name, variant) or a Game), creating it once."""
    key = (spec if isinstance(spec, tuple) else spec.fingerprint(), options, table.shape, table.dtype.str)
    found = _SEARCHERS.get(key)
    if found is None:
        _SEARCHERS.clear()  # one memo at a time: they are large
        if isinstance(spec, tuple):
            from solver.games import get_game

            game = get_game(*spec)
        else:
            game = spec
        found = _SEARCHERS[key] = Searcher(game, table, options)
    return found


def _evaluate(spec, table: np.ndarray, options: SearchOptions, rows: list[int],
              beta: int | None) -> list[tuple[int, int, float]]:
    """Return (row, total, seconds) of each opener of a group, evaluated in turn by one Searcher."""
    searcher = _searcher(spec, table, options)
    out = []
    for row in rows:
        start = time.perf_counter()
        total = searcher.opener_total(row, beta=beta)
        out.append((row, int(total), time.perf_counter() - start))
    return out


def _evaluate_in_worker(spec, table, options, rows, beta) -> list[tuple[int, int, float]]:
    import numba

    numba.set_num_threads(1)  # one process per core already
    return _evaluate(spec, table, options, rows, beta)


def groups(game: Game, rows: list[int]) -> list[list[int]]:
    """Return the openers grouped by the multiset of their letters (anagrams together, in order).

    Anagrams such as CRATE and TRACE split the targets into largely the same classes, so the one
    evaluated second finds most of its work in the memo: a group is one task of one worker.
    """
    out: dict[str, list[int]] = {}
    for row in rows:
        out.setdefault("".join(sorted(game.labels[row])), []).append(row)
    return list(out.values())


def picklable(game: Game) -> bool:
    """Whether `game` can be sent to joblib's worker processes (with the pickler loky uses)."""
    try:
        from joblib.externals.loky.backend.reduction import dumps
    except ImportError:  # pragma: no cover - joblib without loky
        from pickle import dumps
    try:
        dumps(game)
    except Exception:  # noqa: BLE001 - any failure means: run in this process
        return False
    return True


def exact_openers(game: Game, table: np.ndarray, rows, cutoff: int | None = None, jobs: int = 2,
                  options: SearchOptions | None = None,
                  progress: Callable[[OpenerTotal], None] | None = None) -> list[OpenerTotal]:
    """Return the exact total of each opener row (a lower bound >= `cutoff` where it cannot beat it).

    `table` is codes[all guesses, all targets] (`table_for`). `jobs` worker processes share the
    openers, a group of anagrams per task (`groups`); a single group, `jobs=1` or a game that does
    not pickle runs in this process. `progress(result)` is called as each opener's result arrives
    (a group's at once). Sorted by (total, cut off last, label).
    """
    rows = [int(r) for r in dict.fromkeys(int(r) for r in rows)]
    if not rows:
        raise ValueError("no opener to evaluate")
    bad = [r for r in rows if not 0 <= r < game.n_guesses]
    if bad:
        raise ValueError(f"guess rows out of range 0..{game.n_guesses - 1}: {bad}")
    if cutoff is not None and cutoff < 1:
        raise ValueError(f"--cutoff must be at least 1, got {cutoff}")
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, got {jobs}")
    options = options or default_options(game)
    if not options.proves:
        raise ValueError("exact opener totals need a prove-mode search")
    key = registered(game)
    spec = key if key is not None else game
    tasks = groups(game, rows)
    workers = min(jobs, len(tasks))
    if workers > 1 and key is None and not picklable(game):
        workers = 1
    if workers == 1:
        runs = (_evaluate(game, table, options, group, cutoff) for group in tasks)
    else:
        from joblib import Parallel, delayed

        runs = Parallel(n_jobs=workers, return_as="generator_unordered", batch_size=1, max_nbytes="1M")(
            delayed(_evaluate_in_worker)(spec, table, options, group, cutoff) for group in tasks)
    out = []
    for group in runs:
        for row, total, seconds in group:
            exact = cutoff is None or total < cutoff
            result = OpenerTotal(row, game.labels[row], total, exact, seconds)
            out.append(result)
            if progress is not None:
                progress(result)
    return sorted(out, key=lambda o: (o.total, not o.proven_exact, o.label))
