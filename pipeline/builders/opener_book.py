"""The opener book: the best second guess of every class after the openers people play, computed ahead.

A player who opens with a word other than the tree's (SALET) leaves the tree at once; each class of
answers that opener leaves (one per feedback) is a state whose best guess takes the live search from
milliseconds to minutes (SMOGS=RRRRR, 854 answers: about 100 s). The book holds, for each class after
each covered opener, the second guess and its value, computed here ahead of time:

* the exact search (prove mode, within the guesses left) within `BookPlan.class_work` (guess, target)
  pairs scored: the least total guesses over the class and an optimal guess, proven;
* else the top-k search (`BookPlan.top_k` leading guesses at every node) within `BookPlan.top_work`:
  the total of a real strategy (an upper bound) and its guess, beside a proven lower bound (the
  counting bound of the class's size);
* once every opener is done, a last proof of each class still unproven within `BookPlan.final_work`
  (`prove_remaining`; `--complete` runs only this stage on the committed books).

Openers covered: the `BookPlan.top` best of the committed opener ranking (`deduce openers --exact
--all`; beyond its exact totals, by the greedy figure: `book_openers`) and `FAVOURITES`, the words
people commonly open with; `--all` covers every allowed guess
(the complete book: a cluster's job, `python -m pipeline.builders.opener_book --all --backend dask`).
One task per opener, each with a searcher of its own (an empty memo: the same file from the same
command); finished openers are checkpointed, so a killed build resumes where it stopped.

The artifact ``book-<game>-<variant>.parquet`` (`solver.core.artifacts`, columns `BOOK_COLUMNS`) is
read by the runtime solver before any live search (`solver.core.runtime.Solver.guess_row`).
"""
from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline import cluster
from pipeline.builders.exact_tree import _write_checkpoint
from pipeline.builders.feedback_tables import compute_table, load_table
from pipeline.plans import table_of
from solver.core import artifacts
from solver.core.game import Game
from solver.core.registry import get_game
from solver.core.search.searcher import INF, Searcher, SearchOptions

# The words people commonly open with (the ones coaching sites and polls name most), covered whatever
# their rank: most are far from the best openers, and their large classes are where the live search
# is slowest.
FAVOURITES = ("ADIEU", "AUDIO", "STARE", "CRANE", "RAISE", "SLATE", "ARISE", "TRACE", "CRATE", "IRATE", "ROATE",
              "SOARE", "AROSE", "LEAST", "HEART", "TEARS", "OUIJA", "HOUSE", "PLANT", "GHOST", "LEARN", "STEAM",
              "TRAIN", "STORE", "CHAIR", "RATIO", "ALONE", "AISLE", "CLOUD", "PIANO", "GREAT", "WORLD", "MONEY",
              "TOAST", "SMART", "POINT", "LIGHT", "SOUND", "BEAST", "RAINS")
BOOK_VARIANTS = (("wordle", "normal"), ("wordle", "hard"))  # the variants `make tables` books


@dataclass(frozen=True)
class BookPlan:
    """What a book covers and how hard each class is searched."""

    top: int = 500  # the best openers of the committed ranking
    favourites: tuple[str, ...] = FAVOURITES
    every_opener: bool = False  # the complete book: every allowed guess
    class_work: int = 2_000_000_000  # (guess, target) pairs of the proof of one class
    top_k: int = 8
    top_work: int = 500_000_000  # pairs of the top-k search of a class the proof did not finish
    memo_bits: int = 20
    # pairs of a last proof of each class still unproven once every opener is done (a few large classes after
    # the weakest favourites: 3e9 pairs and 13 s for AUDIO=YRRRR in hard mode)
    final_work: int = 50_000_000_000

    def describe(self) -> str:
        """Return how the classes are searched (the staleness key; which openers is `selection`)."""
        return f"{self.stages()}-final{self.final_work:.0e}"

    def stages(self) -> str:
        """Return how the classes are searched before the last stage (`describe` without it)."""
        return f"book-prove{self.class_work:.0e}-top{self.top_k}x{self.top_work:.0e}-memo{self.memo_bits}"

    def selection(self) -> str:
        return "all" if self.every_opener else f"top{self.top}+{len(self.favourites)}"


def book_openers(game: Game, plan: BookPlan, table: np.ndarray | None = None) -> list[int]:
    """Return the guess rows the book covers, in a fixed order: the `plan.top` best by the committed
    ranking (its exact totals first, then its proven lower bounds; the openers it abandoned at its
    cut-off all share one bound, and among them the lower expected number of candidates left goes
    first, the greedy rule's figure), then the favourites not among them (every guess with
    `every_opener`); the tree's own opener is left out (its classes are the tree's). `table`: the
    feedback table (loaded when needed)."""
    if plan.every_opener:
        rows = list(range(game.n_guesses))
    else:
        ranking, _ = artifacts.read_openers(game)
        if table is None:
            table = load_table(get_game(*table_of(game.name, game.variant)))
        left = expected_left(game, table)
        order = sorted(ranking, key=lambda row: (ranking[row][0], not ranking[row][1], left[row], row))
        rows = order[:plan.top] + [game.index_of(word) for word in plan.favourites if word in game.labels]
    try:
        tree, _ = artifacts.read(artifacts.TREE, game)
        skip = {int(tree.column("guess")[0].as_py())}
    except (artifacts.MissingTableError, artifacts.ArtifactError):
        skip = set()
    return [row for row in dict.fromkeys(rows) if row not in skip]


def expected_left(game: Game, table: np.ndarray) -> np.ndarray:
    """Return, for every guess row, the expected number of targets left after it at the start (the sum
    of its squared class sizes over the targets; float64)."""
    out = np.empty(game.n_guesses, dtype=np.float64)
    for row in range(game.n_guesses):
        sizes = np.bincount(table[row], minlength=game.n_codes).astype(np.float64)
        out[row] = (sizes * sizes).sum() / game.n_targets
    return out


@dataclass(frozen=True)
class BookEntry:
    """The book's answer for one class: after `opener` got `code`, play `guess`."""

    opener: int
    code: int
    candidates: int
    guess: int
    total: int  # guesses summed over the class's candidates, the second guess included (proven, or top-k's)
    proven: bool
    lower_bound: int  # a proven lower bound of the least total (equal to `total` when proven)
    guesses_left: int  # the guesses within which `total` is the least (the game's left, unless none suffices)
    work: int  # (guess, target) pairs scored


EXTRA_GUESSES = 3  # a class no tree finishes within the game's guesses left is searched with up to this many more


def solve_opener(game: Game, table: np.ndarray, row: int, plan: BookPlan) -> list[BookEntry]:
    """Return the book entries of every class after opener `row` (the win excluded), by code.

    A class that no tree finishes within the game's guesses left (hard mode: a family such as -ILL
    after some openers) is searched again with one guess more, up to EXTRA_GUESSES more: its entry
    is then the least total within that many guesses (`BookEntry.guesses_left`); some of its answers
    are lost in the game, whichever guess is played."""
    options = SearchOptions(max_guesses=(game.max_guesses or 6) + EXTRA_GUESSES, memo_bits=plan.memo_bits,
                            symmetry_levels=0)
    prove = Searcher(game, table, options)
    top = None
    entries = []
    for code, positions in prove.split(row, np.arange(game.n_targets, dtype=np.int64)):
        positions = positions.astype(np.int32)
        guesses, ghash = prove.allowed_after(((row, code),))
        work, entry = 0, None
        for r in range((game.max_guesses or 6) - 1, options.max_guesses):
            before = prove.work
            found = prove.bounded_value(positions, r, plan.class_work, guesses, ghash)
            work += prove.work - before
            if found is not None and found[0] >= INF:
                continue  # proven: no tree finishes the class within r guesses
            if found is not None and found[1] >= 0:
                entry = BookEntry(row, code, positions.size, found[1], found[0], True, found[0], r, work)
                break
            if top is None:
                top = Searcher(game, table, SearchOptions(mode="top-k", k=plan.top_k, max_guesses=options.max_guesses,
                                                          memo_bits=plan.memo_bits, symmetry_levels=0))
            tguesses, tghash = top.allowed_after(((row, code),))
            before = top.work
            found = top.bounded_value(positions, r, plan.top_work, tguesses, tghash)
            work += top.work - before
            if found is not None and found[1] >= 0 and found[0] < INF:
                lower = int(prove.ws.lb[r, positions.size])  # the counting bound: proven, if weak
                entry = BookEntry(row, code, positions.size, found[1], found[0], False, lower, r, work)
                break
        if entry is None:
            raise RuntimeError(f"{game.title}: no strategy found for {game.labels[row]}={game.decode(code)} "
                               f"({positions.size} answers) within {options.max_guesses - 1} guesses: raise "
                               "EXTRA_GUESSES or top_work")
        entries.append(entry)
    return entries


def prove_remaining(game: Game, table: np.ndarray, entries: list[BookEntry], plan: BookPlan) -> list[BookEntry]:
    """Return `entries` with each unproven class searched once more by the proof, within `plan.final_work`
    pairs (0: no last stage) and its entry's guesses left: proven now, or left as it was."""
    options = SearchOptions(max_guesses=(game.max_guesses or 6) + EXTRA_GUESSES, memo_bits=plan.memo_bits,
                            symmetry_levels=0)
    prove, out = None, []
    everything = np.arange(game.n_targets, dtype=np.int64)
    for entry in entries:
        if not entry.proven and plan.final_work > 0:
            prove = prove or Searcher(game, table, options)
            positions = dict(prove.split(entry.opener, everything))[entry.code].astype(np.int32)
            guesses, ghash = prove.allowed_after(((entry.opener, entry.code),))
            before = prove.work
            found = prove.bounded_value(positions, entry.guesses_left, plan.final_work, guesses, ghash)
            work = entry.work + prove.work - before
            if found is not None and found[1] >= 0 and found[0] < INF:
                entry = BookEntry(entry.opener, entry.code, entry.candidates, int(found[1]), int(found[0]), True,
                                  int(found[0]), entry.guesses_left, work)
            else:
                entry = replace(entry, work=work)
        out.append(entry)
    return out


def _book_task(game: Game, table: np.ndarray, row: int, plan: BookPlan, checkpoint: Path) -> tuple[int, float]:
    began = time.perf_counter()
    entries = solve_opener(game, table, row, plan)
    fields = {name: np.array([getattr(e, name) for e in entries], dtype=np.int64)
              for name in ("code", "candidates", "guess", "total", "proven", "lower_bound", "guesses_left", "work")}
    seconds = np.float64(time.perf_counter() - began)

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as handle:
            np.savez(handle, seconds=seconds, **fields)

    _write_checkpoint(checkpoint / f"opener-{row}.npz", write)
    return row, time.perf_counter() - began


def checkpoint_dir(game: Game, plan: BookPlan, folder: Path | None = None) -> Path:
    """Return the folder of a book build's finished openers (one per game, plan and code version)."""
    tag = hashlib.sha256(f"{game.fingerprint()}|{plan.describe()}|{artifacts.CODE_VERSION}".encode()).hexdigest()[:12]
    return (folder or artifacts.artifacts_dir(game)) / ".checkpoints" / f"book-{game.key}-{tag}"


def _seconds(checkpoint: Path, row: int) -> float:
    """Return the search seconds of a finished opener (0 for a checkpoint that does not say)."""
    try:
        with np.load(checkpoint / f"opener-{row}.npz") as data:
            return float(data["seconds"]) if "seconds" in data.files else 0.0
    except (OSError, ValueError):
        return 0.0


def _finished(checkpoint: Path, row: int) -> list[BookEntry] | None:
    try:
        with np.load(checkpoint / f"opener-{row}.npz") as data:
            columns = {name: data[name].tolist() for name in data.files if name != "seconds"}
    except (OSError, ValueError, KeyError):
        return None  # missing or damaged: solved (again)
    return [BookEntry(row, *values) for values in zip(columns["code"], columns["candidates"], columns["guess"],
                                                      columns["total"], map(bool, columns["proven"]),
                                                      columns["lower_bound"], columns["guesses_left"],
                                                      columns["work"])]


def to_arrow(game: Game, entries: list[BookEntry]) -> pa.Table:
    """Return the book's Arrow table (`artifacts.BOOK_SCHEMA`), by opener row then code."""
    entries = sorted(entries, key=lambda e: (e.opener, e.code))
    return pa.table({
        "opener": pa.array([game.labels[e.opener] for e in entries], pa.string()),
        "feedback": pa.array([e.code for e in entries], pa.int32()),
        "candidates": pa.array([e.candidates for e in entries], pa.int32()),
        "guess": pa.array([e.guess for e in entries], pa.int32()),
        "guess_text": pa.array([game.labels[e.guess] for e in entries], pa.string()),
        "total": pa.array([e.total for e in entries], pa.int64()),
        "proven": pa.array([e.proven for e in entries], pa.bool_()),
        "lower_bound": pa.array([e.lower_bound for e in entries], pa.int64()),
        "guesses_left": pa.array([e.guesses_left for e in entries], pa.int16()),
    }, schema=artifacts.BOOK_SCHEMA)


def is_current(game: Game, plan: BookPlan, folder: Path | None = None) -> bool:
    """Return whether the book artifact is of this code and plan and covers every opener it asks for."""
    if not artifacts.is_current(artifacts.BOOK, game, folder, strategy=plan.describe()):
        return False
    try:
        book, _ = artifacts.read_book(game, folder)
    except (artifacts.MissingTableError, artifacts.ArtifactError):
        return False
    covered = {opener for opener, _ in book}
    return set(book_openers(game, plan)) <= covered


def build_book(game: Game, plan: BookPlan = BookPlan(), jobs: int = 2, folder: Path | None = None,
               force: bool = False, progress=None) -> tuple[bool, float]:
    """Build and write a variant's opener book unless it is current; return (built, seconds).
    `progress(done, total)` is told as openers finish."""
    if not force and is_current(game, plan, folder):
        return False, 0.0
    began = time.perf_counter()
    table = load_table(get_game(*table_of(game.name, game.variant)))  # hard mode scores with the normal table
    rows = book_openers(game, plan, table)
    checkpoint = checkpoint_dir(game, plan, folder)
    done = {row: found for row in rows if (found := _finished(checkpoint, row)) is not None}
    todo = [row for row in rows if row not in done]
    if progress is not None:
        progress(len(done), len(rows))
    backend = cluster.current() if cluster.current().distributed else cluster.Local(jobs)
    calls = [(row, plan, checkpoint) for row in todo]
    for row, _ in backend.imap_unordered(_book_task, calls, game, table, make_table=compute_table):
        done[row] = _finished(checkpoint, row)
        if progress is not None:
            progress(len(done), len(rows))
    entries = [entry for row in rows for entry in done[row]]
    final_began = time.perf_counter()
    entries = prove_remaining(game, table, entries, plan)
    search_seconds = sum(_seconds(checkpoint, row) for row in rows) + time.perf_counter() - final_began
    _write_book(game, plan, entries, len(rows), time.perf_counter() - began, search_seconds, folder)
    shutil.rmtree(checkpoint, ignore_errors=True)
    return True, time.perf_counter() - began


def _write_book(game: Game, plan: BookPlan, entries: list[BookEntry], openers: int, build_seconds: float,
                search_seconds: float, folder: Path | None, work: int | None = None) -> None:
    """Write the book artifact of these entries, with its figures in the metadata."""
    proven = [e for e in entries if e.proven]
    extra = {"openers": openers, "classes": len(entries), "proven_classes": len(proven),
             "classes_beyond_the_limit": sum(e.guesses_left > (game.max_guesses or 6) - 1 for e in entries),
             "answers": sum(e.candidates for e in entries), "proven_answers": sum(e.candidates for e in proven),
             "strategy": plan.describe(), "selection": plan.selection(),
             "work": sum(e.work for e in entries) if work is None else work,
             "build_seconds": f"{build_seconds:.1f}", "search_seconds": f"{search_seconds:.1f}"}
    artifacts.write(artifacts.BOOK, game, to_arrow(game, entries), extra, folder)


def complete_book(game: Game, plan: BookPlan = BookPlan(), folder: Path | None = None) -> tuple[int, float]:
    """Run the last stage (`prove_remaining`) on the book artifact as it stands, built by the earlier
    stages of this plan (the same entries a new build would have before that stage: the stages are
    deterministic), and write it with this plan; return (classes proven now, seconds). The book's
    figures add the stage's pairs and seconds to those its metadata held."""
    began = time.perf_counter()
    table_of_book, meta = artifacts.read(artifacts.BOOK, game, folder)
    built_by = meta.get("strategy", "")
    if built_by.split("-final")[0] != plan.stages():
        raise ValueError(f"the book was built by {built_by!r}, not by the earlier stages of {plan.describe()!r}")
    columns = table_of_book.to_pydict()
    entries = [BookEntry(game.index_of(opener), code, size, guess, total, proven, lower, left, 0)
               for opener, code, size, guess, total, proven, lower, left in zip(
                   columns["opener"], columns["feedback"], columns["candidates"], columns["guess"], columns["total"],
                   columns["proven"], columns["lower_bound"], columns["guesses_left"])]
    before = sum(e.proven for e in entries)
    table = load_table(get_game(*table_of(game.name, game.variant)))
    entries = prove_remaining(game, table, entries, plan)
    seconds = time.perf_counter() - began
    work = int(meta.get("work", 0)) + sum(e.work for e in entries)
    _write_book(game, plan, entries, int(meta["openers"]), float(meta.get("build_seconds", 0)) + seconds,
                float(meta.get("search_seconds", 0)) + seconds, folder, work)
    return sum(e.proven for e in entries) - before, seconds


def main(argv: list[str] | None = None) -> int:
    """`python -m pipeline.builders.opener_book`: build the books of `make tables`, or the complete book."""
    parser = argparse.ArgumentParser(prog="python -m pipeline.builders.opener_book", description=main.__doc__)
    parser.add_argument("--variant", action="append", choices=[v for _, v in BOOK_VARIANTS],
                        help="the Wordle variants to book (default: both)")
    parser.add_argument("--all", action="store_true", help="every allowed opener (the complete book: hours)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--backend", choices=cluster.BACKENDS, default="local")
    parser.add_argument("--scheduler", default=None, help="a Dask scheduler, tcp://HOST:PORT")
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--complete", action="store_true",
                        help="run only the last stage (the proof of the unproven classes) on the books as they are")
    args = parser.parse_args(argv)
    cluster.check_options(args.backend, args.scheduler)
    plan = BookPlan(every_opener=args.all)
    if args.complete:
        for variant in args.variant or [v for _, v in BOOK_VARIANTS]:
            game = get_game("wordle", variant)
            proven, seconds = complete_book(game, plan)
            print(f"{game.key}: {proven} more classes proven in {seconds:.1f} s", file=sys.stderr)
        return 0
    with cluster.open_backend(args.backend, args.scheduler, args.jobs) as where:
        for variant in args.variant or [v for _, v in BOOK_VARIANTS]:
            game = get_game("wordle", variant)
            built, seconds = build_book(game, plan, where.jobs_for(args.jobs), force=args.force,
                                        progress=lambda done, total: print(f"\r{game.key}: {done}/{total} openers",  # noqa: B023
                                                                           end="", file=sys.stderr, flush=True))
            print(f"\n{game.key}: {'built in %.1f s' % seconds if built else 'up to date'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
