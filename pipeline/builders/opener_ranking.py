"""Exact totals of first guesses: the least total guesses over every target of trees opening with each.

`exact_openers` evaluates each opener with `Searcher.opener_total` (the exact search of
`solver.core.search.searcher`), in parallel over openers with joblib processes. Each worker keeps one
`Searcher` for all the openers it gets (a module-level cache), so what its memo learnt from one
opener speeds up the next; anagrams (CRATE, TRACE), which split the targets into largely the same
classes, go to one worker as one task. One task alone runs in this process with the opener's
classes on `jobs` threads (`solver.core.search.parallel.ThreadedTotals`). With a `cutoff`, an opener
is abandoned as soon as its total provably reaches the cutoff; its result is then a lower bound (`proven_exact` False).

`rank_openers` ranks many openers (every allowed one: `deduce openers --exact --all`) with a cut-off
shared by the tasks, as Selby's solver does without `-s`: one more than the best exact total found
so far (or the N-th best), so an opener that cannot beat it is stopped with a proven lower bound.
Its results go to ``openers-<game>-<variant>.parquet`` as they come (rewritten atomically), and a
run that is stopped resumes where it was. Both functions hand their tasks to the current backend
(`pipeline.cluster`: local processes, or a Dask cluster).

`cheap_ranking` orders openers by the greedy criterion of `solver.core.strategy` (sum of squared class
sizes over every target; ties to a guess that may win, then the lower row): the candidates worth
an exact evaluation when the user names none.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import numba
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from joblib import Parallel, delayed

from pipeline import cluster
from pipeline.cluster import read_shared
from pipeline.builders.feedback_tables import compute_table, load_table
from pipeline.plans import EXACT_PLANS, TABLE_OF
from solver.core import artifacts, atomic, scoring, strategy
from solver.core.game import Game
from solver.core.scoring import feedback_table
from solver.core.registry import get_game, registered
from solver.core.search.searcher import INF, Searcher, SearchOptions
from solver.core.search.parallel import ThreadedTotals

try:
    from joblib.externals.loky.backend.reduction import dumps  # the pickler loky's workers use
except ImportError:  # pragma: no cover - joblib without loky
    from pickle import dumps

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
        return feedback_table(game)
    table_key = TABLE_OF.get(key, key)
    if table_key is None:
        raise ValueError(f"{game.key} has no feedback table (too large): exact openers need one")
    return load_table(get_game(*table_key))


def default_options(game: Game) -> SearchOptions:
    """Return prove-mode options with the guess limit of the variant's exact tree (default 6)."""
    max_guesses = DEFAULT_MAX_GUESSES
    key = registered(game)
    if key is not None:
        plan = EXACT_PLANS.get(key)
        if plan is not None:
            max_guesses = plan.options.max_guesses
    return SearchOptions(mode="prove", max_guesses=max_guesses)


def cheap_ranking(game: Game, table: np.ndarray, top: int) -> list[int]:
    """Return the guess rows of the `top` best openers by the greedy criterion (best first)."""
    if top < 1:
        raise ValueError(f"--top must be at least 1, got {top}")
    rows = strategy.allowed_guesses(game, ())
    positions = np.arange(game.n_targets, dtype=np.int64)
    sum_sq, _ = scoring.partition_scores(game, rows, positions, table=table)
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
            game = get_game(*spec)
        else:
            game = spec
        found = _SEARCHERS[key] = Searcher(game, table, options)
    return found


def _evaluate(spec, table: np.ndarray, options: SearchOptions, rows: list[int],
              beta: int | None, threads: int = 1) -> list[tuple[int, int, float]]:
    """Return (row, total, seconds) of each opener of a group, evaluated in turn by one Searcher
    (its classes on `threads` threads, `solver.core.search.parallel`)."""
    searcher = _searcher(spec, table, options)
    totals = ThreadedTotals(searcher, threads) if threads > 1 else searcher
    out = []
    for row in rows:
        start = time.perf_counter()
        total = totals.opener_total(row, beta=beta)
        out.append((row, int(total), time.perf_counter() - start))
    return out


def _evaluate_in_worker(spec, table, options, rows, beta) -> list[tuple[int, int, float]]:
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
    not pickle runs in this process, each opener's classes on `jobs` threads. `progress(result)` is
    called as each opener's result arrives (a group's at once). Sorted by (total, cut off last, label).
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

    if cluster.current().distributed:  # one task per group on the cluster (`pipeline.cluster`)
        runs = cluster.current().imap_unordered(_evaluate, [(options, group, cutoff) for group in tasks], game, table,
                                                make_table=compute_table)
    elif workers == 1:  # one opener (or a game that stays here): its classes on `jobs` threads
        runs = (_evaluate(game, table, options, group, cutoff, threads=jobs) for group in tasks)
    else:
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


# -- ranking every opener with a shared cut-off (`deduce openers --exact --all`) ----------------
OPENERS = artifacts.OPENERS  # the artifact kind: openers-<game>-<variant>.parquet
SAVE_SECONDS = 10.0  # the ranking file is rewritten (atomically) at most this often while a run goes on
WINDOW = 2  # tasks out per worker: few, so that each leaves with a recent cut-off
SLICE_SEED = 20261130  # the fixed seed of `slice_rows`' random part
ORDER = "cheap score: expected remaining candidates (sum of squared class sizes), best first"


@dataclass
class Ranking:
    """The openers ranked so far (this run's and the file's), best first, and where they are."""

    results: list[OpenerTotal]
    path: Path
    evaluated: int  # openers evaluated by this run
    skipped: int  # openers of the selection already in the file
    cutoff: int | None  # the cut-off at the end of the run (None: none)
    wall_seconds: float = 0.0  # this run's


def cutoff_rule(keep: int, cutoff: int | None = None) -> str:
    """Return the ranking's cut-off rule in words (stored in the file's metadata)."""
    nth = "best" if keep == 1 else f"{keep}-th best"
    text = (f"top{keep}: an opener is abandoned (its total a proven lower bound) once it provably exceeds the "
            f"{nth} exact total found so far (beta = that total + 1)")
    return text + (f"; beta at most {cutoff}" if cutoff is not None else "")


def slice_rows(order: list[int], best: int | None = None, random: int = 0, seed: int = SLICE_SEED) -> list[int]:
    """Return the openers of a slice, in `order` (the cheap ranking): its first `best` (None: all)
    plus `random` of the others drawn with `seed`."""
    head = order if best is None else order[:best]
    rest = order[len(head):]
    picked = set(head)
    if random and rest:
        rng = np.random.default_rng(seed)
        picked.update(rest[i] for i in rng.choice(len(rest), min(random, len(rest)), replace=False))
    return [row for row in order if row in picked]


def _sort_key(result: OpenerTotal):
    return result.total, not result.proven_exact, result.label


def ranking_path(game: Game, folder: Path | None = None) -> Path:
    """Return the path of a game's ranking file (in `folder`, else where builds write)."""
    return (folder or artifacts.artifacts_dir(game)) / artifacts.artifact_name(OPENERS, game)


COLUMNS = artifacts.OPENER_COLUMNS


def load_ranking(game: Game, options: SearchOptions, folder: Path | None = None) -> dict[int, OpenerTotal]:
    """Return {row: result} of the ranking file, or {} when there is none or it does not fit (another
    kind, game fingerprint, search or code version, a damaged file: the run starts over and replaces it)."""
    try:
        rows, meta = artifacts.read_openers(game, ranking_path(game, folder).parent)
    except (artifacts.MissingTableError, artifacts.ArtifactError, pa.ArrowException, OSError):
        return {}
    wanted = {"code_version": artifacts.CODE_VERSION, "strategy": options.describe()}
    if any(meta.get(k) != v for k, v in wanted.items()):
        return {}
    return {row: OpenerTotal(row, game.labels[row], total, proven, seconds)
            for row, (total, proven, seconds) in rows.items()}


def settled(results, beta: int | None) -> list[OpenerTotal]:
    """Return the results as a run's timing cannot change them: with the final cut-off `beta`, every
    total at or above it (an exact total found while the cut-off was still higher, or a bound proven
    against an earlier, higher cut-off) becomes the bound `beta`, not proven exact. A bound proven
    against any cut-off is at least the final one (cut-offs only fall), so this is a true bound; and an
    opener below the final cut-off is proven exact in any run. So two runs of one command, on any
    number of workers, give the same totals and flags (the seconds are the runs' own)."""
    if beta is None:
        return list(results)
    return [r if r.proven_exact and r.total < beta else OpenerTotal(r.row, r.label, beta, False, r.seconds)
            for r in results]


def write_ranking(game: Game, results, options: SearchOptions, extra: dict, folder: Path | None = None) -> Path:
    """Write the ranking file atomically (`solver.core.atomic`, as `solver.core.artifacts.write` does): one row
    per opener, best first; columns opener, total (exact, or a proven lower bound), proven (exact),
    seconds; the metadata of every artifact (schema and code version, game, fingerprint, build time,
    content sha256) and the ranking's own (search, cut-off rule, selection, counts, ``search_seconds``
    the openers' search times summed, ``wall_seconds`` the runs' wall times summed)."""
    results = sorted(results, key=_sort_key)
    table = pa.table({
        "opener": pa.array([r.label for r in results], pa.string()),
        "total": pa.array([r.total for r in results], pa.int64()),
        "proven": pa.array([r.proven_exact for r in results], pa.bool_()),
        "seconds": pa.array([r.seconds for r in results], pa.float64()),
    })
    meta = {"schema_version": artifacts.SCHEMA_VERSION, "kind": OPENERS, "game": game.name, "variant": game.variant,
            "fingerprint": game.fingerprint(), "code_version": artifacts.CODE_VERSION,
            "build_time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "content_sha256": artifacts.content_digest(table), "strategy": options.describe(),
            "max_guesses": options.max_guesses, "openers": len(results),
            "exact_openers": sum(r.proven_exact for r in results), "allowed_openers": int(game.n_guesses),
            "order": ORDER, "search_seconds": f"{sum(r.seconds for r in results):.1f}", **extra}
    table = table.replace_schema_metadata({str(k).encode(): str(v).encode() for k, v in meta.items()})
    path = ranking_path(game, folder)
    with atomic.replacing(path, parents=True) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return path


def wall_seconds(path: Path) -> float:
    """Return the wall time of the runs that wrote a ranking file, summed (0 where it says none)."""
    try:
        return float(artifacts.read_metadata(path).get("wall_seconds", 0))
    except (artifacts.MissingTableError, artifacts.ArtifactError, ValueError):
        return 0.0


def better(ours: OpenerTotal | None, theirs: OpenerTotal) -> OpenerTotal:
    """Return what a ranking keeps of an opener evaluated by two runs: an exact total over a bound,
    else the higher bound (both proven lower bounds); ours among equals."""
    if ours is None:
        return theirs
    if ours.proven_exact != theirs.proven_exact:
        return ours if ours.proven_exact else theirs
    return theirs if not ours.proven_exact and theirs.total > ours.total else ours


def merged_selection(path: Path, selection: str) -> str:
    """Return the selection of a ranking file that this run's `selection` is merged into: the file's
    selections and this one, joined by " + " (this one alone when there is no usable file)."""
    try:
        before = artifacts.read_metadata(path).get("selection", "")
    except (artifacts.MissingTableError, artifacts.ArtifactError):
        before = ""
    parts = [part for part in before.split(" + ") if part] + [selection]
    return " + ".join(dict.fromkeys(parts))


def ranking_cutoff(best, keep: int, cutoff: int | None = None) -> int | None:
    """Return the cut-off of a ranking: one more than the `keep`-th best exact total of `best`
    ((total, row) pairs), at most `cutoff`; None while fewer than `keep` are known and no `cutoff`."""
    totals = sorted(total for total, _ in best)
    found = totals[keep - 1] + 1 if len(totals) >= keep else None
    if found is None or cutoff is None:
        return found if cutoff is None else cutoff
    return min(found, cutoff)


def _best(pairs, keep: int) -> tuple[tuple[int, int], ...]:
    return tuple(sorted({(int(t), int(r)) for t, r in pairs})[:keep])


def _rank_task(game: Game, table: np.ndarray, options: SearchOptions, rows: list[int], keep: int,
               cutoff: int | None, best, shared: str | None) -> list[tuple[int, int, float, int | None]]:
    """Return (row, total, seconds, cut-off used) of each opener of a group, in turn.

    `best`: the run's `keep` best exact (total, row) pairs when the task was handed out. Before
    each opener they are merged with the run's current ones (a Dask `Variable`, on a cluster) and
    with this task's own exact results, and the cut-off is taken from them (`ranking_cutoff`):
    anagrams later in a group profit from the first ones' totals at once.
    """
    searcher = _searcher(game, table, options)
    best = _best(best, keep)
    out = []
    for row in rows:
        now = read_shared(shared)
        if now:
            best = _best(best + tuple(now), keep)
        beta = ranking_cutoff(best, keep, cutoff)
        start = time.perf_counter()
        total = int(searcher.opener_total(row, beta=beta))
        out.append((row, total, time.perf_counter() - start, beta))
        if beta is None or total < beta:
            best = _best(best + ((total, row),), keep)
    return out


def rank_openers(game: Game, table: np.ndarray, rows, keep: int = 1, cutoff: int | None = None,
                 options: SearchOptions | None = None, folder: Path | None = None,
                 progress: Callable[[OpenerTotal, int | None], None] | None = None, selection: str = "all",
                 save_seconds: float = SAVE_SECONDS, started: Callable[[int, int], None] | None = None) -> Ranking:
    """Rank openers exactly with a shared cut-off; results go to the ranking file as they come.

    `rows` in the order to evaluate them (best by the cheap score first, so that the cut-off is
    low early). The cut-off is one more than the `keep`-th best exact total found so far (and at
    most `cutoff`): an opener that provably cannot enter the best `keep` is abandoned with a proven
    lower bound. Tasks (a group of anagrams each, `groups`) go to the current backend
    (`pipeline.cluster`) a few at a time, each with the best exact totals of the moment; on a Dask
    cluster these are also a shared `Variable` that running tasks read between openers, and a task
    lowers its cut-off with its own exact totals too (`_rank_task`).

    Resumable: openers already in the file are skipped (a cut-off one is evaluated again only if
    its bound is below the cut-off now: a larger `keep` than before); the file is rewritten
    atomically every `save_seconds`, at the end, and when the run stops on an error or Ctrl-C. Each
    rewrite holds the file's lock (`solver.core.atomic.locked`) and merges in what the file holds
    then (`better`): two runs into one folder at once (different `--slice`s) keep both's openers.
    `started(to evaluate, already in the file)` is called once, then `progress(result, cutoff)` for
    each opener as its task finishes.
    """
    if keep < 1:
        raise ValueError(f"--top must be at least 1, got {keep}")
    if cutoff is not None and cutoff < 1:
        raise ValueError(f"--cutoff must be at least 1, got {cutoff}")
    began = time.monotonic()
    options = options or default_options(game)
    if not options.proves:
        raise ValueError("exact opener totals need a prove-mode search")
    rows = [int(r) for r in dict.fromkeys(int(r) for r in rows)]
    known = load_ranking(game, options, folder)
    state = {"best": _best(((r.total, r.row) for r in known.values() if r.proven_exact), keep),
             "saved": time.monotonic(), "new": 0, "counted": time.monotonic()}

    def beta() -> int | None:
        return ranking_cutoff(state["best"], keep, cutoff)

    start = beta()
    todo = [r for r in rows if r not in known
            or (not known[r].proven_exact and (start is None or known[r].total < start))]
    if started is not None:
        started(len(todo), len(rows) - len(todo))
    backend = cluster.current()
    extra = {"cutoff_rule": cutoff_rule(keep, cutoff), "selection": selection, "backend": backend.name}

    def save() -> Path:
        # under the file's lock, what another run wrote meanwhile (another --slice into the same
        # folder) is read again and merged in, so that neither run's openers are lost
        state["saved"] = time.monotonic()
        path = ranking_path(game, folder)
        path.parent.mkdir(parents=True, exist_ok=True)  # the lock file lives beside the ranking
        with atomic.locked(path):
            there = load_ranking(game, options, folder)
            for row, theirs in there.items():
                known[row] = better(known.get(row), theirs)
            state["best"] = _best(state["best"] + tuple((r.total, r.row) for r in known.values() if r.proven_exact),
                                  keep)
            chosen = merged_selection(path, selection) if there else selection
            now = time.monotonic()  # this run's wall time since its last rewrite, added to the file's
            wall = (wall_seconds(path) if there else 0.0) + now - state["counted"]
            state["counted"] = now
            return write_ranking(game, settled(known.values(), beta()), options,
                                 {**extra, "selection": chosen, "cutoff": beta() or "none",
                                  "wall_seconds": f"{wall:.3f}"}, folder)

    def calls():
        for group in groups(game, todo):
            yield options, group, keep, cutoff, state["best"], shared.name

    shared = backend.shared(state["best"])
    window = max(2, WINDOW * backend.workers)
    try:
        for out in backend.imap_unordered(_rank_task, calls(), game, table, window=window, make_table=compute_table):
            before = state["best"]
            for row, total, seconds, used in out:
                result = OpenerTotal(row, game.labels[row], total, used is None or total < used, seconds)
                known[row] = result
                state["new"] += 1
                if result.proven_exact:
                    state["best"] = _best(state["best"] + ((total, row),), keep)
                if progress is not None:
                    progress(result, beta())
            if time.monotonic() - state["saved"] >= save_seconds:
                save()
            if state["best"] != before:
                shared.set(state["best"])
    finally:
        shared.close()
        if state["new"] or not ranking_path(game, folder).exists():
            save()
    return Ranking(sorted(settled(known.values(), beta()), key=_sort_key), ranking_path(game, folder), state["new"],
                   len(rows) - len(todo), beta(), time.monotonic() - began)
