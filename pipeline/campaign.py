"""A proof campaign: a game's optimum, or its tree's optimum for an opener, proven task by task, resumably.

Two kinds of campaign (`deduce prove GAME`):

* `opener` (the default): for a fixed first guess (the committed tree's), one task per root class: its
  least total within the guesses left, proven with the exact search in prove mode, cut off at the
  tree's total for that class (a value reaching the cut-off proves the tree's subtree optimal, one below
  it is a better subtree). A class not proven within the task's time keeps a proven lower bound: the
  two-level counting bound (`pipeline.builders.game_bound`), raised by probes of the search.
* `game` (`--every-opener`): one task per first guess up to the game's symmetries: a proven lower bound of
  the total of any tree opening with it, cut off at the best known total (the tree's): each of its
  classes starts at the two-level counting bound and is then proven, smallest first, against what the
  cut-off leaves it, while the task's time lasts. A first guess whose bound reaches the cut-off cannot
  beat the tree; the least bound over every first guess bounds the game's optimum from below. A cut-off
  below the best total (`--cutoff`: the tree's total / 1.01) is a goal: each first guess stops once its
  bound reaches it, and a whole pass bounds the game within that share of the tree.

Each finished task is one line of a JSON-lines checkpoint, `artifacts/campaign-GAME-VARIANT-KIND.jsonl`
(its first line says what the campaign is: game, fingerprint, opener, guesses, cut-off), rewritten
atomically after every task: a run stopped and started again skips what is there (a task that timed
out runs again only when given more time than it had). Tasks run in local processes or on Dask
(`pipeline.cluster`); results come back to the run's own process, which writes the file, merged under
a lock with what another run of the same campaign wrote there meanwhile.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import shutil
import sys
import threading
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable

import numpy as np

from pipeline import cluster
from pipeline.builders import game_bound
from pipeline.builders.exact_tree import ClassResult, _load, _save
from pipeline.builders.feedback_tables import load_table
from pipeline.builders.greedy_tree import max_guesses, to_arrow
from pipeline.builders.pooled_tree import sub_game
from pipeline.plans import EXACT_PLANS, POOLED_PLANS, table_of
from solver.core import artifacts, atomic, scoring
from solver.core.game import Game
from solver.core.registry import ON_REQUEST, UsageError, all_variants, get_game, registered
from solver.core.search import kernel
from solver.core.search.nodes import Nodes
from solver.core.search.searcher import INF, Searcher, SearchOptions, Stats, lower_bound_table

KINDS = ("opener", "game")
STATUSES = ("proven", "bound", "timed out")  # exact value; lower bound at the cut-off; time ran out first
SETTLED = ("proven", "bound")  # a resumed run never runs these again
BOUND_SHARE = 0.1  # a class not proven in time: a tenth more of its time raising its lower bound
WATCH_SECONDS = 0.1  # how often the thread waiting for a search looks at the clock


@dataclass(frozen=True)
class Task:
    """One unit of a campaign: a root class of the opener (`code` >= 0), or a first guess (`code` -1)."""

    name: str  # unique in the campaign: the class's feedback, or the first guess's text
    first: int  # the first guess row
    code: int  # the root class's feedback code (-1: the whole game after `first`)
    size: int  # targets the task covers
    upper: int | None  # the best known total of those targets (the cut-off); None: none known
    # a game campaign's other first guesses of the same value (`Game.feedback_symmetries`): a result of
    # any of them stands for the task (`result_of`)
    aliases: tuple[str, ...] = ()


@dataclass
class Result:
    """What a task proved: `value` exact (proven), else `lower` a proven lower bound; the work it took."""

    task: str
    targets: int
    status: str
    lower: int
    value: int | None
    upper: int | None
    best_guess: str | None  # the class's optimal first guess (proven below the cut-off), else None
    nodes: int  # kernel nodes searched
    work: int  # (guess, target) pairs scored
    seconds: float  # wall time of the task
    limit: float  # the task's time limit (seconds)
    proven_classes: int = 0  # game tasks: classes of the first guess proven exactly
    classes: int = 0


@dataclass
class Campaign:
    """A campaign's definition (the checkpoint's first line) and the results so far."""

    game: str
    variant: str
    fingerprint: str
    kind: str
    max_guesses: int
    opener: str | None  # opener campaigns: the first guess
    cutoff: int | None  # game campaigns: the total each bound is raised to (the best known, or a goal below)
    results: dict[str, Result] = field(default_factory=dict)

    def header(self) -> dict:
        return {"campaign": self.kind, "game": self.game, "variant": self.variant, "fingerprint": self.fingerprint,
                "max_guesses": self.max_guesses, "opener": self.opener, "cutoff": self.cutoff}


def checkpoint_path(game: Game, kind: str, folder: Path | None = None) -> Path:
    """Return the campaign file of `game` and `kind` (in the artifacts folder unless `folder`)."""
    return (folder or artifacts.artifacts_dir(game)) / f"campaign-{game.name}-{game.variant}-{kind}.jsonl"


def load(path: Path, expected: Campaign) -> Campaign:
    """Return `expected` with the results of the checkpoint at `path` (none if it is absent); UsageError
    when the file holds another campaign (other rules, opener, guesses or cut-off)."""
    if not path.exists():
        return expected
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    try:
        header = json.loads(lines[0]) if lines else {}
        rows = [Result(**json.loads(line)) for line in lines[1:]]
    except (ValueError, TypeError) as err:
        raise UsageError(f"{path} is not a campaign file ({err}): remove it to start again") from None
    # a game campaign's bounds stay bounds under a lower cut-off (a better tree since): kept
    was = header.get("cutoff") if isinstance(header, dict) else None
    lowered = (expected.kind == "game" and {**header, "cutoff": expected.cutoff} == expected.header()
               and isinstance(was, int) and expected.cutoff is not None and was >= expected.cutoff)
    if header != expected.header() and not lowered:
        differ = sorted(k for k in expected.header() if header.get(k) != expected.header()[k])
        held = ", ".join(f"{k} {json.dumps(header.get(k))}" for k in differ) if isinstance(header, dict) else ""
        raise UsageError(f"{path} holds another campaign (its {held or 'header'}): remove it or give the same "
                         "options")
    expected.results = {row.task: row for row in rows}
    return expected


def save(path: Path, campaign: Campaign, order: list[str]) -> None:
    """Write the campaign's header and results (in task order) to `path` atomically, merged under a lock
    with what another run of the same campaign wrote there meanwhile (each task's stronger result kept:
    `campaign.results` gains theirs); UsageError when another campaign has taken the file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic.locked(path):
        on_disk = load(path, replace(campaign, results={}))
        for name, theirs in on_disk.results.items():
            ours = campaign.results.get(name)
            if ours is None or _strength(theirs) > _strength(ours):
                campaign.results[name] = theirs
        rows = [campaign.results[name] for name in order if name in campaign.results]
        text = "\n".join([json.dumps(campaign.header())] + [json.dumps(asdict(row)) for row in rows]) + "\n"
        atomic.write_text(path, text, parents=True)


def result_of(campaign: Campaign, task: Task) -> Result | None:
    """Return the strongest result of `task` in `campaign`: its own or an alias's (None: neither has one)."""
    found = [row for name in (task.name, *task.aliases) if (row := campaign.results.get(name)) is not None]
    return max(found, key=_strength, default=None)


def _strength(result: Result) -> tuple[bool, float, int]:
    """Return how much a task's result settles, to keep the stronger of two: settled first, then the longer
    time limit, then the higher bound."""
    return result.status in SETTLED, result.limit, result.lower


# -- the search, within a deadline ---------------------------------------------------------------
def value_before(searcher: Searcher, positions: np.ndarray, r: int, deadline: float, beta: int | None = None,
                 forced: int = -1) -> tuple[int, int] | None:
    """Return (value, best guess row) as `Searcher.value` gives them (exact below `beta`), or None when the
    `time.perf_counter()` `deadline` came first. The search runs in a thread of its own; at the deadline
    (or on Ctrl-C here) this thread lowers the kernel's work limit to 1, which the kernel reads at every node."""
    outcome: dict = {}
    ws = searcher.ws

    def run() -> None:
        try:
            outcome["value"] = searcher.bounded_value(positions, r, 1 << 60, beta=beta, forced=forced)
        except BaseException as err:  # noqa: BLE001 - handed to the waiting thread
            outcome["error"] = err

    worker = threading.Thread(target=run, name="campaign-search", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            if time.perf_counter() >= deadline:
                ws.params[kernel.P_WORK_LIMIT] = 1  # again each round: the search may have just set its own
            worker.join(WATCH_SECONDS)
    except BaseException:
        ws.params[kernel.P_WORK_LIMIT] = 1
        worker.join()
        raise
    finally:
        ws.params[kernel.P_WORK_LIMIT] = 0  # the search has ended: nothing lowered stays for the next one
        ws.stats[kernel.S_ABORTED] = 0
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def counting_bound(searcher: Searcher, positions: np.ndarray, r: int) -> int:
    """Return a proven lower bound of the least total of `positions` within r guesses: the least, over
    every guess, of its hit plus each class's size and counting bound (two levels), at least the
    one-level counting bound."""
    n = positions.size
    lb = searcher.ws.lb
    if n <= 2 or r < 2:
        return int(lb[r, n])
    codes = searcher.game.n_codes
    two = game_bound._class_bound(searcher.table, np.ascontiguousarray(positions, np.int64), lb[r - 1],
                                  searcher.game.win_code, codes, np.zeros(codes, np.int64), np.zeros(codes, np.int64))
    return int(min(max(two, lb[r, n]), INF))


def raise_bound(searcher: Searcher, positions: np.ndarray, r: int, lower: int, upper: int | None,
                deadline: float) -> tuple[int, int | None, int]:
    """Return (lower bound, exact value or None, best guess row or -1): `lower` raised by searches asking
    whether the value reaches one more (each answer above the question is itself a bound), until the
    value is found, the bound reaches `upper`, or the deadline."""
    while upper is None or lower < upper:
        found = value_before(searcher, positions, r, deadline, beta=lower + 1)
        if found is None:
            break
        value, guess = found
        if value <= lower:  # exact below the question, and never below a valid bound: the value
            return value, value, guess
        lower = int(value)
    if upper is not None and lower >= upper:
        return upper, upper, -1
    return lower, None, -1


# -- the tasks ----------------------------------------------------------------------------------
_SEARCHERS: dict = {}


def _searcher(game: Game, table: np.ndarray, options: SearchOptions) -> Searcher:
    # one searcher per process and game: tasks run by the same worker share the memo (its entries are
    # proven values and bounds of the game, whatever task found them)
    key = (game.fingerprint(), options)
    found = _SEARCHERS.get(key)
    if found is None:
        _SEARCHERS.clear()
        found = _SEARCHERS[key] = Searcher(game, table, options)
    return found


def run_task(game: Game, table: np.ndarray, task: Task, max_guesses: int, seconds: float,
             memo_bits: int = 22) -> Result:
    """Return what `task` proves within `seconds` (a class not proven: a tenth more raising its bound)."""
    if table is None:  # a game without a full table (cards n4): the class's own table, every guess against it
        return _run_class_alone(game, task, max_guesses, seconds, memo_bits)
    start = time.perf_counter()
    searcher = _searcher(game, table, SearchOptions(mode="prove", max_guesses=max_guesses, memo_bits=memo_bits))
    before_nodes, before_work = searcher.stats.nodes, searcher.work
    everything = np.arange(game.n_targets, dtype=np.int64)
    deadline = start + seconds
    if task.code >= 0:
        positions = _class(searcher, everything, task.first, task.code)
        lower, value, guess, proven, classes = _prove_class(searcher, positions, max_guesses - 1, task.upper,
                                                            deadline, seconds)
    else:
        lower, value, guess, proven, classes = _bound_first(searcher, everything, max_guesses, task.first,
                                                            task.upper, deadline)
    if value is not None:
        status = "proven"
    elif task.upper is not None and lower >= task.upper:
        status = "bound"
    else:
        status = "timed out"
    return Result(task.name, task.size, status, int(lower), None if value is None else int(value), task.upper,
                  game.labels[guess] if guess >= 0 else None, searcher.stats.nodes - before_nodes,
                  searcher.work - before_work, round(time.perf_counter() - start, 3), seconds, proven, classes)


CLASS_TABLE_BYTES = 2_000_000_000  # the largest table of one class (every guess x its targets) a task computes


def _run_class_alone(game: Game, task: Task, max_guesses: int, seconds: float, memo_bits: int) -> Result:
    """Return what a root-class task proves in a game without a full feedback table: the class's targets
    against every allowed guess as a game of its own (its table computed here), within `seconds`; a class whose
    table would pass CLASS_TABLE_BYTES keeps the one-level counting bound (timed out, nothing searched)."""
    start = time.perf_counter()
    codes = scoring.feedback_table(game, [task.first], game.target_index)[0]
    positions = np.flatnonzero(codes == task.code)
    r = max_guesses - 1
    width = 2 if game.n_codes > 256 else 1
    if game.n_guesses * positions.size * width > CLASS_TABLE_BYTES:
        losing = game.n_codes - 1
        lower = int(lower_bound_table(losing, positions.size, r)[r, positions.size])
        return Result(task.name, task.size, "timed out", lower, None, task.upper, None, 0, 0,
                      round(time.perf_counter() - start, 3), seconds)
    small = sub_game(game, np.arange(game.n_guesses), game.target_index[positions])
    alone = Task(task.name, task.first, -1, task.size, task.upper)
    searcher = _searcher(small, scoring.feedback_table(small),
                         SearchOptions(mode="prove", max_guesses=max_guesses, memo_bits=memo_bits))
    deadline = start + seconds
    before_nodes, before_work = searcher.stats.nodes, searcher.work
    lower, value, guess, _, _ = _prove_class(searcher, np.arange(small.n_targets, dtype=np.int64), r, alone.upper,
                                             deadline, seconds)
    status = "proven" if value is not None else "bound" if task.upper is not None and lower >= task.upper \
        else "timed out"
    return Result(task.name, task.size, status, int(lower), None if value is None else int(value), task.upper,
                  small.labels[guess] if guess >= 0 else None, searcher.stats.nodes - before_nodes,
                  searcher.work - before_work, round(time.perf_counter() - start, 3), seconds,
                  int(value is not None), 1)


def _class(searcher: Searcher, everything: np.ndarray, first: int, code: int) -> np.ndarray:
    return everything[searcher.table[first, everything] == code]


def _prove_class(searcher: Searcher, positions: np.ndarray, r: int, upper: int | None, deadline: float,
                 seconds: float) -> tuple[int, int | None, int, int, int]:
    """Return (lower, value or None, best guess row or -1, 1 if proven else 0, 1) of one root class."""
    lower = counting_bound(searcher, positions, r)
    if upper is not None and lower >= upper:
        return upper, upper, -1, 1, 1
    found = value_before(searcher, positions, r, deadline, beta=upper)
    if found is not None:
        value, guess = found
        if upper is not None and value >= upper:  # the cut-off reached: the known subtree is optimal
            return upper, upper, -1, 1, 1
        return value, value, guess, 1, 1
    lower, value, guess = raise_bound(searcher, positions, r, lower, upper,
                                      time.perf_counter() + BOUND_SHARE * seconds)
    return lower, value, guess, int(value is not None), 1


def _bound_first(searcher: Searcher, everything: np.ndarray, max_guesses: int, first: int, cutoff: int | None,
                 deadline: float) -> tuple[int, int | None, int, int, int]:
    """Return (lower, exact total or None, -1, classes proven, classes) of the trees opening with `first`:
    each class from its counting bound, then proven smallest first against what the cut-off leaves it,
    each given an equal share of the time left; stops once the bound reaches the cut-off."""
    r = max_guesses - 1
    codes = searcher.table[first, everything]
    groups = [everything[codes == c] for c in np.unique(codes) if c != searcher.game.win_code]
    groups.sort(key=lambda g: g.size)
    bounds = [counting_bound(searcher, g, r) for g in groups]
    exact = [g.size <= 2 for g in groups]  # the counting bound of 1 or 2 targets is their value
    total = everything.size + sum(bounds)
    for i, group in enumerate(groups):
        if cutoff is not None and total >= cutoff:
            break
        if exact[i]:
            continue
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        share = left / sum(1 for e in exact[i:] if not e)
        beta = None if cutoff is None else cutoff - (total - bounds[i])
        found = value_before(searcher, group, r, time.perf_counter() + share, beta=beta)
        if found is None:
            continue
        value = int(found[0])
        total += min(value, INF) - bounds[i]
        bounds[i] = value
        exact[i] = beta is None or value < beta
    total = min(total, INF)
    value = total if all(exact) and (cutoff is None or total < cutoff) else None
    return (min(total, cutoff) if cutoff is not None and value is None else total), value, -1, sum(exact), len(groups)


# -- a campaign ----------------------------------------------------------------------------------
def tree_classes(game: Game, opener: int, folder: Path | None = None) -> dict[int, int]:
    """Return {root class code: its total in the committed tree} when that tree opens with `opener`, else {}."""
    try:
        table, _ = artifacts.read(artifacts.TREE, game, folder)
    except (artifacts.MissingTableError, artifacts.ArtifactError):
        return {}
    parent = table.column("parent").to_numpy()
    guess = table.column("guess").to_numpy()
    root = int(np.flatnonzero(parent < 0)[0])
    if int(guess[root]) != opener:
        return {}
    feedback = table.column("feedback").to_numpy()
    subtree = table.column("subtree_guesses").to_numpy()
    children = np.flatnonzero(parent == root)
    return {int(feedback[i]): int(subtree[i]) for i in children}


def tree_class_sizes(game: Game, folder: Path | None = None) -> dict[int, int]:
    """Return {root class code: its targets} of the committed tree."""
    table, _ = artifacts.read(artifacts.TREE, game, folder)
    parent = table.column("parent").to_numpy()
    children = np.flatnonzero(parent == 0)
    feedback = table.column("feedback").to_numpy()
    remaining = table.column("remaining").to_numpy()
    return {int(feedback[i]): int(remaining[i]) for i in children}


def limit_of(meta: dict[str, str], game: Game) -> int:
    """Return the guess limit a tree was built within (its strategy's ``-maxN``, else the game's)."""
    text = meta.get("strategy", "")
    marker = text.find("-max")
    digits = "".join(ch for ch in text[marker + 4:marker + 7] if ch.isdigit()) if marker >= 0 else ""
    return int(digits) if digits else int(game.max_guesses or 0)


def tree_total(game: Game, folder: Path | None = None) -> int | None:
    """Return the committed tree's total over every target (None without a tree)."""
    try:
        _, meta = artifacts.read(artifacts.TREE, game, folder)
    except (artifacts.MissingTableError, artifacts.ArtifactError):
        return None
    return int(meta["total_guesses"])


def opener_tasks(game: Game, table: np.ndarray | None, opener: int, upper: dict[int, int]) -> list[Task]:
    """Return one task per root class of `opener`, smallest first (the most proofs early)."""
    codes = table[opener] if table is not None else scoring.feedback_table(game, [opener], game.target_index)[0]
    tasks = []
    for code in np.unique(codes):
        if code == game.win_code:
            continue
        size = int((codes == code).sum())
        tasks.append(Task(_marks(game, int(code)), opener, int(code), size, upper.get(int(code))))
    return sorted(tasks, key=lambda t: (t.size, t.code))


def game_tasks(game: Game, cutoff: int | None) -> list[Task]:
    """Return one task per first guess up to the game's symmetries, in guess order: the least row of its
    orbit, the orbit's other first guesses (one per class of `Game.canonical`) its aliases, when
    `Game.feedback_symmetries` joins classes (cards: reversed ranks)."""
    firsts = sorted(int(r) for r in (game.canonical([]) if game.canonical is not None else range(game.n_guesses)))
    orbits: dict[int, list[int]] = {}
    least = game.feedback_symmetries()[0].min(axis=0) if game.feedback_symmetries is not None else None
    for row in firsts:
        orbits.setdefault(row if least is None else int(least[row]), []).append(row)
    return [Task(game.labels[row], row, -1, game.n_targets, cutoff,
                 tuple(game.labels[other] for other in members if other != row))
            for row, members in sorted(orbits.items())]


def _marks(game: Game, code: int) -> str:
    marks = game.decode(code)
    return ",".join(str(m) for m in marks) if isinstance(marks, (tuple, list)) else str(marks)


def sample(tasks: list[Task], count: int | None) -> list[Task]:
    """Return `count` tasks spread evenly over `tasks` (all of them without a count)."""
    if count is None or count >= len(tasks):
        return tasks
    picks = np.unique(np.linspace(0, len(tasks) - 1, count).round().astype(int))
    return [tasks[i] for i in picks]


def game_table(game: Game) -> np.ndarray | None:
    """Return the game's full feedback table: its artifact's (a registered game with one), else computed
    here (never sent to the cluster's workers: this runs in a task on a worker too); None for a registered
    variant built without a table (`plans.TABLE_OF`: cards n4, each class then computes its own)."""
    if registered(game) is not None:
        if table_of(game.name, game.variant) is None:
            return None
        try:
            table, _ = artifacts.read(artifacts.TABLE, game)
            return artifacts.table_to_numpy(table, game)
        except (artifacts.MissingTableError, artifacts.ArtifactError):
            pass
    return scoring.feedback_table(game)


@dataclass
class Progress:
    """Where a run is: tasks done of those to run, seconds so far, an estimate of the seconds left."""

    done: int
    total: int
    elapsed: float
    left: float
    result: Result | None
    at_most: float = 0.0  # the seconds left if every task left took its time limit (and its bound's tenth), or the
    # longest a task has taken when that is longer (a task's counting bound is computed before its clock is read)


def run(game: Game, kind: str = "opener", opener: str | int | None = None, seconds: float = 60.0, jobs: int = 2,
        max_guesses: int | None = None, cutoff: int | None = None, count: int | None = None,
        folder: Path | None = None, table: np.ndarray | None = None,
        on_progress: Callable[[Progress], None] | None = None, memo_bits: int = 22,
        only: tuple[str, ...] | None = None) -> tuple[Campaign, list[Task]]:
    """Run a campaign's tasks not yet settled (on the current backend of `pipeline.cluster`); return the
    campaign (every result of its file) and its tasks.

    `opener`: the opener campaign's first guess (default: the committed tree's); `max_guesses`: the
    guess limit (default: the committed tree's, else the game's); `cutoff`: the game campaign's best known
    total (default: the committed tree's); `count`: run only that many tasks spread over the campaign
    (a sample, to measure the cost of the rest); `only`: run only the tasks of these names (a class's
    feedback as "0,0,3", a first guess's text); `seconds`: each task's time limit (a class not proven
    in it spends a tenth more raising its bound)."""
    if kind not in KINDS:
        raise UsageError(f"a campaign is {' or '.join(KINDS)}, not {kind!r}")
    if not math.isfinite(seconds) or seconds <= 0:
        raise UsageError(f"--seconds-per-task must be a positive number of seconds, not {seconds}")
    if table is None:
        table = game_table(game)
    if table is None and kind == "game":
        raise UsageError(f"{game.key} has no feedback table: bound its tree's opener, class by class, instead")
    limit = max_guesses or _tree_guesses(game, folder) or _plan_guesses(game) or game.max_guesses
    if limit is None:
        raise UsageError(f"{game.key} has no guess limit (no tree, plan or rule gives one): give max_guesses")
    if kind == "opener":
        if opener is None:
            opener = _tree_opener(game, folder)
            if opener is None:
                raise UsageError(f"{game.key} has no committed tree to take the opener from: give --opener")
        try:
            row = opener if isinstance(opener, (int, np.integer)) else game.index_of(opener)
        except KeyError:
            raise UsageError(f"{opener!r} is not a guess of {game.key}") from None
        tasks = opener_tasks(game, table, int(row), tree_classes(game, int(row), folder))
        campaign = Campaign(game.name, game.variant, game.fingerprint(), kind, limit, game.labels[row], None)
    else:
        cutoff = cutoff if cutoff is not None else tree_total(game, folder)
        tasks = game_tasks(game, cutoff)
        campaign = Campaign(game.name, game.variant, game.fingerprint(), kind, limit, None, cutoff)
    path = checkpoint_path(game, kind, folder)
    campaign = load(path, campaign)
    order = [name for t in tasks for name in (t.name, *t.aliases)]
    if only is not None and (unknown := sorted(set(only) - set(order))):
        raise UsageError(f"no task {', '.join(unknown)} in the {kind} campaign of {game.key}")
    todo = [t for t in sample(tasks, count) if not _finished(result_of(campaign, t), seconds)
            and (only is None or not set(only).isdisjoint((t.name, *t.aliases)))]
    backend = cluster.current()
    workers = max(1, min(backend.workers if backend.distributed else jobs, len(todo) or 1))
    started = time.perf_counter()
    done = 0
    if on_progress:
        on_progress(Progress(0, len(todo), 0.0, _left(len(todo), [], seconds, workers), None,
                             _at_most(len(todo), seconds, workers, [])))
    calls = [(task, limit, seconds, memo_bits) for task in todo]
    place = backend if backend.distributed else cluster.Local(jobs)
    results = place.imap_unordered(run_task, calls, game=game, table=table, make_table=game_table,
                                   window=jobs if not backend.distributed else None)
    spent: list[float] = []
    for result in results:
        campaign.results[result.task] = result
        save(path, campaign, order)
        done += 1
        spent.append(result.seconds)
        if on_progress:
            on_progress(Progress(done, len(todo), time.perf_counter() - started,
                                 _left(len(todo) - done, spent, seconds, workers), result,
                                 _at_most(len(todo) - done, seconds, workers, spent)))
    return campaign, tasks


def _finished(result: Result | None, seconds: float) -> bool:
    """Return whether a task's result stands: settled, or timed out with at least `seconds`."""
    return result is not None and (result.status in SETTLED or result.limit >= seconds)


def _left(remaining: int, spent: list[float], seconds: float, workers: int) -> float:
    """Return an estimate of the seconds left: the tasks left at the mean time of those done (the time
    limit before any is done; a task may take longer than its limit), shared by the workers."""
    each = float(np.mean(spent)) if spent else seconds
    return remaining * each / workers


def _at_most(remaining: int, seconds: float, workers: int, spent: list[float]) -> float:
    """Return the seconds left if each task left took its time limit and its bound's tenth, or the longest
    time a task has taken when that is longer: in rounds of `workers` tasks."""
    each = max(seconds * (1 + BOUND_SHARE), max(spent, default=0.0))
    return math.ceil(remaining / workers) * each


def _tree_guesses(game: Game, folder: Path | None) -> int | None:
    try:
        _, meta = artifacts.read(artifacts.TREE, game, folder)
    except (artifacts.MissingTableError, artifacts.ArtifactError):
        return None
    text = meta.get("strategy", "")
    marker = text.find("-max")
    if marker < 0:
        return None
    digits = "".join(ch for ch in text[marker + 4:marker + 7] if ch.isdigit())
    return int(digits) if digits else None


def _plan_guesses(game: Game) -> int | None:
    """Return the guess limit of the plan the game's tree is built with (None: no exact plan)."""
    plan = EXACT_PLANS.get((game.name, game.variant)) or POOLED_PLANS.get((game.name, game.variant))
    return None if plan is None else plan.options.max_guesses


def _tree_opener(game: Game, folder: Path | None) -> str | None:
    try:
        table, _ = artifacts.read(artifacts.TREE, game, folder)
    except (artifacts.MissingTableError, artifacts.ArtifactError):
        return None
    parent = table.column("parent").to_numpy()
    root = int(np.flatnonzero(parent < 0)[0])
    return str(table.column("guess_text")[root].as_py())


# -- what a campaign proves ----------------------------------------------------------------------
@dataclass
class Summary:
    """The campaign's findings over its results so far."""

    kind: str
    tasks: int
    finished: int  # tasks with a result
    proven: int  # results proven exactly
    settled: int  # proven, or bounded at the cut-off
    targets_proven: int
    lower: int | None  # opener: n + sum of the classes' bounds; game: least bound over the first guesses
    upper: int | None  # opener: the best total known (the tree's, lowered where a class proved below it)
    improved: list[str]  # opener: classes proven below the tree's total
    seconds: float  # summed over the results
    best: str | None = None  # game: the first guess of the least bound


def summarise(game: Game, campaign: Campaign, tasks: list[Task]) -> Summary:
    """Return what the campaign's results prove about its tasks."""
    rows = [row for t in tasks if (row := result_of(campaign, t)) is not None]
    proven = [r for r in rows if r.status == "proven"]
    seconds = round(sum(r.seconds for r in rows), 1)
    settled = sum(r.status in SETTLED for r in rows)
    if campaign.kind == "opener":
        known = {r.task: r for r in rows}
        lower = game.n_targets
        upper: int | None = game.n_targets
        for t in tasks:
            row = known.get(t.name)
            lower += row.lower if row is not None else 0  # no result: 0 is a (weak) bound of a class
            best = row.value if row is not None and row.value is not None else t.upper
            upper = None if upper is None or best is None else upper + best
        improved = [r.task for r in proven if r.upper is not None and r.value is not None and r.value < r.upper]
        return Summary("opener", len(tasks), len(rows), len(proven), settled, sum(r.targets for r in proven),
                       lower if len(rows) == len(tasks) else None, upper, improved, seconds)
    best = min(rows, key=lambda r: r.lower, default=None)
    whole = len(rows) == len(tasks)
    return Summary("game", len(tasks), len(rows), len(proven), settled, 0, best.lower if best and whole else None,
                   campaign.cutoff, [], seconds, best.task if best and whole else None)


def report(game: Game, campaign: Campaign, tasks: list[Task]) -> list[str]:
    """Return the lines that say what the campaign proved, in honest words."""
    s = summarise(game, campaign, tasks)
    lines = [f"{game.key} {s.kind} campaign: {s.finished} of {s.tasks} tasks done, {s.proven} proven, "
             f"{s.settled - s.proven} bounded at the cut-off, {s.finished - s.settled} timed out "
             f"({s.seconds:.1f} s of tasks)"]
    if s.kind == "opener":
        lines.append(f"opener {campaign.opener}: optimal in {s.proven} of {s.tasks} classes "
                     f"({s.targets_proven} of {sum(t.size for t in tasks)} targets)")
        if s.improved:
            lines.append(f"classes proven below the tree: {', '.join(s.improved)}")
        if s.lower is not None and s.upper is not None:
            if s.proven == s.tasks:
                lines.append(f"optimal for {campaign.opener}: {s.upper} (average {s.upper / game.n_targets:.4f})")
            else:
                gap = (s.upper - s.lower) / s.lower
                lines.append(f"for {campaign.opener}: at least {s.lower}, at most {s.upper} (within {gap:.2%} of "
                             "optimal for this opener)")
        return lines
    done = [row for t in tasks if (row := result_of(campaign, t)) is not None]
    if s.finished < s.tasks:
        least = min((r.lower for r in done), default=None)
        lines.append(f"no bound for the game yet: {s.tasks - s.finished} first guesses not run"
                     + (f" (the least bound so far: {least})" if least is not None else ""))
        return lines
    best = min(done, key=lambda r: r.lower)
    if s.settled == s.tasks and best.status == "proven":
        lines.append(f"optimal: {best.lower} (average {best.lower / game.n_targets:.4f}), proven over every first "
                     f"guess (opening {best.task})")
        return lines
    cut = f"; a tree of {s.upper}, the cut-off, would be within {(s.upper - s.lower) / s.lower:.2%} of optimal" \
        if s.upper and s.lower else ""
    lines.append(f"the game's optimum is at least {s.lower} (average {s.lower / game.n_targets:.4f}: the least bound "
                 f"over every first guess, at {s.best}; {s.settled} of {s.tasks} first guesses settled{cut})")
    return lines


# -- into the trees: better subtrees grafted, what was proven recorded --------------------------
@dataclass(frozen=True)
class Findings:
    """What the committed campaigns of a game prove about its tree (`tree_findings`)."""

    opener: Campaign | None  # the opener campaign of the tree's first guess (None: none, or another's)
    game: Campaign | None  # the game campaign (None: none)
    digest: str  # sha256 over the campaign files read ('' without any): a tree records it


def read_checkpoint(path: Path) -> Campaign | None:
    """Return the campaign of a checkpoint file as it is (None if absent); UsageError if unreadable."""
    if not path.is_file():
        return None
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    try:
        header = json.loads(lines[0])
        campaign = Campaign(header["game"], header["variant"], header["fingerprint"], header["campaign"],
                            int(header["max_guesses"]), header["opener"], header["cutoff"])
        campaign.results = {row.task: row for row in (Result(**json.loads(line)) for line in lines[1:])}
    except (ValueError, TypeError, KeyError, IndexError) as err:
        raise UsageError(f"{path} is not a campaign file ({err}): remove it to start again") from None
    return campaign


def tree_findings(game: Game, opener: str, limit: int, folder: Path | None = None) -> Findings:
    """Return the campaigns of `game` that apply to a tree opening with `opener` within `limit` guesses
    (same rules, same first guess, same guess limit); a campaign of other rules or another limit is ignored."""
    digest = hashlib.sha256()
    found: dict[str, Campaign | None] = {}
    for kind in KINDS:
        path = checkpoint_path(game, kind, folder)
        campaign = read_checkpoint(path)
        if campaign is not None and (campaign.fingerprint != game.fingerprint() or campaign.max_guesses != limit
                                     or (kind == "opener" and campaign.opener != opener)):
            campaign = None
        if campaign is not None:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        found[kind] = campaign
    return Findings(found["opener"], found["game"], digest.hexdigest() if any(found.values()) else "")


def improvements(game: Game, campaign: Campaign | None, classes: dict[int, int]) -> dict[int, Result]:
    """Return {root class code: its result} of the classes proven below the tree's total there (`classes`:
    {code: the tree's total}), each with the first guess of a better subtree."""
    if campaign is None:
        return {}
    out = {}
    for code, total in classes.items():
        row = campaign.results.get(_marks(game, code))
        if row is not None and row.status == "proven" and row.value is not None and row.value < total:
            if row.best_guess is None:
                raise UsageError(f"{game.key}: class {row.task} is proven at {row.value} below the tree's {total} "
                                 "but its campaign result names no first guess: run it again")
            out[code] = row
    return out


def grow_class(game: Game, table: np.ndarray | None, first: int, code: int, result: Result, max_guesses: int,
               memo_bits: int = 22) -> Nodes:
    """Return the subtree (depth from 1) of the root class `code` of `first`, opening with the guess the
    campaign proved optimal, every node below it solved in prove mode; RuntimeError unless it totals the
    proven value. Without a `table` the class's own is computed (every guess against its targets)."""
    options = SearchOptions(mode="prove", max_guesses=max_guesses, memo_bits=memo_bits)
    if table is None:  # no full table (cards n4): the class against every guess as a game of its own
        codes = scoring.feedback_table(game, [first], game.target_index)[0]
        small = sub_game(game, np.arange(game.n_guesses), game.target_index[np.flatnonzero(codes == code)])
        searcher = _searcher(small, scoring.feedback_table(small), options)
        nodes = searcher.grow(np.arange(small.n_targets, dtype=np.int64), max_guesses - 1,
                              first=game.index_of(result.best_guess))
        nodes.depth = [d + 1 for d in nodes.depth]  # its guesses are the game's rows: only the depth moves
    else:
        searcher = _searcher(game, table, options)
        positions = _class(searcher, np.arange(game.n_targets, dtype=np.int64), first, code)
        nodes = searcher.grow(positions, max_guesses - 1, ((first, code),), first=game.index_of(result.best_guess))
    nodes.feedback[0] = code
    if int(nodes.subtree[0]) != result.value:
        raise RuntimeError(f"{game.key}: the subtree grown for class {result.task} totals {nodes.subtree[0]}, not "
                           f"the proven {result.value}")
    return nodes


def graft(table_arrow, grown: dict[int, Nodes]) -> Nodes:
    """Return the tree of `table_arrow` (a tree artifact's rows, depth-first) with the subtree of each root class
    in `grown` ({code: subtree, its root's feedback that code}) replacing its own, root classes kept in order."""
    cols = {name: table_arrow.column(column).to_numpy().astype(np.int64).tolist()
            for name, column in (("parent", "parent"), ("feedback", "feedback"), ("depth", "depth"),
                                 ("guess", "guess"), ("remaining", "remaining"), ("subtree", "subtree_guesses"))}
    n = len(cols["parent"])
    children = [i for i in range(1, n) if cols["parent"][i] == 0]
    out = Nodes()
    root = out.add(-1, -1, 0, cols["guess"][0], cols["remaining"][0])
    total = cols["remaining"][0]
    for at, start in enumerate(children):
        end = children[at + 1] if at + 1 < len(children) else n
        code = cols["feedback"][start]
        if code in grown:
            part = grown[code]
        else:  # the block of this class, depth-first: its nodes' parents inside it
            part = Nodes(**{name: values[start:end] for name, values in cols.items()})
            part.parent = [-1] + [p - start for p in part.parent[1:]]
            if min(part.parent[1:], default=0) < 0:
                raise ValueError("the tree's nodes are not in depth-first order")
        out.graft(part, root)
        total += part.subtree[0]
    out.subtree[root] = total
    return out


BUILD_CLAIMS = ("proven", "lower_bound", "game_lower_bound")  # a build's own metadata that `tree_metadata` extends


def tree_metadata(game: Game, meta: dict[str, str], total: int, findings: Findings,
                  classes: dict[int, int], grafted: list[str], folder: Path | None = None) -> dict[str, str]:
    """Return the proof fields of a tree's metadata (total `total`, root classes {code: total}), each with how
    it was obtained: ``proven`` (game / opener / none) and ``proven_source``, ``proven_classes`` (the root
    classes whose subtree is proven optimal, their feedback codes), ``lower_bound`` (for its opener) and
    ``lower_bound_source``, ``game_lower_bound`` and ``game_lower_bound_source`` (absent: none), and
    ``campaign_sha256`` (the campaign files read), ``campaign_grafted`` (the classes replaced); the build's own
    claims are kept as ``build_proven``, ``build_lower_bound`` and ``build_game_lower_bound`` ('' without one)."""
    strategy = meta.get("strategy", "")
    opener = _tree_opener(game, folder) or ""
    proves = "-prove-" in strategy
    # what the build itself proved (kept as build_* by the first rewrite: a second one starts from the same)
    built = {key: meta.get(f"build_{key}", meta.get(key, "")) for key in BUILD_CLAIMS}
    out: dict[str, str] = {f"build_{key}": value for key, value in built.items()}
    proven = built["proven"] or ("game" if proves else "none")
    lower = int(built["lower_bound"]) if built["lower_bound"] else None
    if proven == "game":
        how = "the exact search in prove mode over every first guess up to symmetry (pipeline.builders.exact_tree)"
    elif proven == "opener" and proves:
        how = f"the exact search in prove mode below the fixed opener {opener} (pipeline.builders.exact_tree)"
    elif proven == "opener":
        how = ("each root class's prove-mode lower bound raised for a time (Plan.bound_seconds) reached the "
               "top-k search's value (pipeline.builders.exact_tree)")
    else:
        how = "not proven: the total of a top-k search's tree, an upper bound"
    lower_how = None if lower is None else ("the tree's total, proven" if lower >= total else
                                            "each root class's prove-mode lower bound raised for a time "
                                            "(Plan.bound_seconds, pipeline.builders.exact_tree)")
    proven_codes = sorted(classes) if proven in ("game", "opener") else []
    run = findings.opener
    if run is not None:
        path = checkpoint_path(game, "opener", folder).name
        rows = {code: run.results.get(_marks(game, code)) for code in classes}
        done = {code: row for code, row in rows.items() if row is not None}
        exact = {code for code, row in done.items() if row.status in SETTLED and row.value == classes[code]}
        proven_codes = sorted(set(proven_codes) | exact)
        missing = [code for code in classes if code not in done]
        sizes = tree_class_sizes(game, folder) if missing else {}
        r = limit_of(meta, game) - 1
        losing = game.n_codes - 1
        bound = game.n_targets + sum(min(row.lower, classes[code]) for code, row in done.items()) + sum(
            int(lower_bound_table(losing, sizes[code], r)[r, sizes[code]]) for code in missing)
        if lower is None or bound > lower:
            lower_how = (f"{path}: every root class's least total proven in prove mode, cut off at the "
                         f"tree's ({len(exact)} of {len(classes)} exact), the others' lower bounds"
                         if len(exact) < len(classes) else
                         f"{path}: every root class's least total proven in prove mode")
            if missing:
                lower_how += (f"; the {len(missing)} classes not run: the one-level counting bound "
                              "(solver.core.search.searcher.lower_bound_table)")
            lower = bound
        if len(exact) == len(classes) and proven == "none":
            proven = "opener"
            how = f"{path}: every root class proven optimal in prove mode (pipeline.campaign)"
        elif proven == "none" and exact:
            how += f"; {len(exact)} of {len(classes)} root classes proven optimal ({path})"
    if proven == "opener" and len(proven_codes) < len(classes):
        proven_codes = sorted(classes)
    ranking = _ranking_proof(game, total, folder) if proven == "opener" else None
    if ranking is not None:
        proven, how = "game", f"{how}; every other first guess: {ranking}"
    every = len(proven_codes) == len(classes) and bool(classes)
    out.update(proven=proven, proven_source=how, proven_classes="all" if every else " ".join(map(str, proven_codes)))
    if lower is not None:
        out.update(lower_bound=str(min(lower, total)), lower_bound_source=lower_how or "")
    glb = int(built["game_lower_bound"]) if built["game_lower_bound"] else None
    glb_how = None
    if glb is not None:
        glb_how = (
            "pipeline.builders.game_bound: the two-level counting bound over every first guess up to symmetry, "
            f"least at {meta.get('game_lower_bound_opener', '?')}")
    sweep = findings.game
    if sweep is not None:
        tasks = game_tasks(game, sweep.cutoff)
        done_game = [row for t in tasks if (row := result_of(sweep, t)) is not None]
        if len(done_game) == len(tasks):
            least = min(done_game, key=lambda r: r.lower)
            if glb is None or least.lower > glb:
                glb, glb_how = least.lower, (f"{checkpoint_path(game, 'game', folder).name}: the least lower bound "
                                             f"over every first guess, at {least.task}")
    if proven == "game":
        glb, glb_how = total, "the tree is proven optimal"
    if glb is not None:
        out.update(game_lower_bound=str(min(glb, total)), game_lower_bound_source=glb_how)
    if findings.digest:
        out["campaign_sha256"] = findings.digest
    if grafted:
        out["campaign_grafted"] = ", ".join(grafted)
    return out


def _ranking_proof(game: Game, total: int, folder: Path | None) -> str | None:
    """Return how the committed exact opener ranking proves a tree of `total` optimal over every first guess
    (every allowed opener ranked, none below `total`), else None."""
    try:
        ranked, _ = artifacts.read_openers(game, folder)
    except (artifacts.MissingTableError, artifacts.ArtifactError):
        return None
    if len(ranked) < game.n_guesses or min(t for t, _, _ in ranked.values()) < total:
        return None
    name = artifacts.artifact_name(artifacts.OPENERS, game)
    return f"{name} ranks all {len(ranked)} openers, none below {total} (pipeline.builders.opener_ranking)"


def apply(game: Game, load_table: Callable[[], np.ndarray] | None = None, folder: Path | None = None,
          force: bool = False) -> tuple[bool, list[str]]:
    """Bring a committed tree up to its campaigns: graft the root classes proven below the tree (each grown
    in prove mode from the campaign's first guess, checkpointed) and record what is proven in its metadata
    (`tree_metadata`); rows and metadata are rewritten atomically. Return (rewritten, the classes grafted);
    nothing is done when the tree already records these campaigns and these fields."""
    try:
        table_arrow, meta = artifacts.read(artifacts.TREE, game, folder)
    except artifacts.MissingTableError:
        return False, []
    opener = _tree_opener(game, folder)
    limit = _tree_guesses(game, folder) or game.max_guesses or 0
    first = game.index_of(opener)
    findings = tree_findings(game, opener, limit, folder)
    classes = tree_classes(game, first, folder)
    better = improvements(game, findings.opener, classes)
    grown: dict[int, Nodes] = {}
    names: list[str] = []
    if better:
        where = (folder or artifacts.artifacts_dir(game)) / ".checkpoints" / f"graft-{game.key}-{findings.digest[:12]}"
        table = load_table() if load_table is not None else None  # None: each class computes its own
        for code, row in sorted(better.items(), key=lambda item: item[1].targets):
            path = where / f"class-{code}.npz"
            known = _load(path) if path.exists() else None
            if known is None:
                start = time.perf_counter()
                nodes = grow_class(game, table, first, code, row, limit)
                known = ClassResult(code, nodes, row.value, row.value, Stats(), time.perf_counter() - start)
                _save(path, known)
            grown[code] = known.nodes
            names.append(f"{row.task} {classes[code]} -> {row.value} ({row.best_guess})")
        del table
    nodes = graft(table_arrow, grown) if grown else None
    total = int(nodes.subtree[0]) if nodes is not None else int(meta["total_guesses"])
    new_classes = {code: (better[code].value if code in better else value) for code, value in classes.items()}
    again = {name.split(" ")[0] for name in names}  # a class grafted anew replaces its earlier entry
    grafted = [entry for entry in _grafted(meta) if entry.split(" ")[0] not in again] + names
    fields = tree_metadata(game, meta, total, findings, new_classes, grafted, folder)
    if nodes is None and not force and all(meta.get(k) == v for k, v in fields.items()):
        return False, []
    keep = {k: v for k, v in meta.items() if k not in artifacts.AUTO_METADATA and k not in fields}
    if nodes is not None:  # rows built now: of the current code version
        rows = to_arrow(game, nodes)
        keep.update(total_guesses=str(total), max_guesses=str(max_guesses(nodes)))
        keep.pop("restamped_from", None)
    else:  # the rows as they were: the version that built them kept, as `pipeline.restamp` keeps it
        rows = table_arrow.replace_schema_metadata(None)
        if meta.get("code_version") != artifacts.CODE_VERSION:
            keep.setdefault("restamped_from", meta.get("code_version", ""))
    artifacts.write(artifacts.TREE, game, rows, {**keep, **fields}, folder)
    if nodes is not None:
        shutil.rmtree(where, ignore_errors=True)
    return True, names


def _grafted(meta: dict[str, str]) -> list[str]:
    text = meta.get("campaign_grafted", "")
    return [part for part in text.split(", ") if part]


def main(argv: list[str] | None = None) -> int:
    """`python -m pipeline.campaign apply [GAME[/VARIANT]]...`: bring the committed trees (default: every
    variant with a tree, those built on request included) up to their campaigns (`apply`), as `make tables`
    does after its builds."""
    parser = argparse.ArgumentParser(prog="python -m pipeline.campaign", description=main.__doc__)
    parser.add_argument("action", choices=["apply"])
    parser.add_argument("variants", nargs="*", metavar="GAME[/VARIANT]")
    args = parser.parse_args(argv)
    keys = [tuple(v.split("/", 1)) if "/" in v else (v, None) for v in args.variants]
    every = all_variants() + [(name, variant) for name, variants in ON_REQUEST.items() for variant in variants]
    chosen = [key for key in every if not keys or key in keys or (key[0], None) in keys]
    try:
        for name, variant in chosen:
            game = get_game(name, variant)
            table_key = table_of(name, variant)
            done, grafted = apply(game, (lambda k=table_key: load_table(get_game(*k))) if table_key else None)
            print(f"{game.key}: " + (f"grafted {'; '.join(grafted)}" if grafted else "recorded" if done
                                     else "up to date"))
    except (UsageError, RuntimeError) as err:
        print(f"pipeline.campaign: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
