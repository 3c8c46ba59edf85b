"""Whole trees of a short list of openers, built with one variant's plan: which first guess its trees favour.

Where every opener cannot be built (hard mode with every word: half an hour or more of one core each),
the screen (`opener_screen`) proves most openers cannot finish and bounds the others without telling
them apart; this builds the tree of each opener of a short list with the variant's plan, only the
opener changed (and, with `without`, some of the plan's optional steps off, so that a ranking costs
less), and writes each opener's total, lower bound, worst case and search seconds, least total first.
Each build keeps its class checkpoints under `folder` (`exact_tree.checkpoint_dir`), so a run that is
stopped resumes, and the artifacts are not touched; the CSV is written again after each opener, and
`--stopped` reports the builds a run left unfinished (`stopped_build`: the classes finished, and the
least total the plan's tree can still reach, their totals plus the other classes' lower bounds).

`python -m pipeline.builders.opener_builds wordle hard-all-words THUMP TRAIN --without rescan --out FILE.csv`;
`--screen FILE --first N` adds the first N openers a screen (`opener_screen`'s CSV) does not refute, in its order.
`--class-work W --given-up-out FILE.csv` gives each class up beyond W pairs (`Plan.class_work`), so that a
ranking runs unattended: an opener with a class given up is reported as a stopped build, and the next is built.
"""
from __future__ import annotations

import argparse
import csv
import io
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from pipeline.builders.exact_tree import ClassesGivenUp, Plan, build, checkpoint_dir, finished_classes
from pipeline.builders.feedback_tables import load_table
from pipeline.builders.greedy_tree import max_guesses
from pipeline.plans import EXACT_PLANS, table_of
from solver.core.atomic import write_text
from solver.core.game import Game
from solver.core.registry import get_game
from solver.core.search.searcher import INF, Searcher

# the plan's optional steps a ranking may leave out: (the plan's group of settings, the fields of it each
# one sets back to its default; refine keeps its `split`)
OPTIONAL_STEPS = {"rescan": ("rescan", {"size": 0, "margin": 0, "work": 0}),
                  "polish": ("polish", {"k": 0, "size": (3, 0), "work": 0}),
                  "refine": ("refine", {"k": (), "size": 0})}


@dataclass(frozen=True)
class OpenerBuild:
    """One opener's tree built with the plan `strategy`: its total guesses, proven lower bound, most
    guesses any target takes, and the search time (seconds of one core, summed over its tasks)."""

    opener: str
    total: int
    lower: int
    worst: int
    seconds: float
    strategy: str


def ranking_plan(plan: Plan, opener: str, without: tuple[str, ...] = (), class_work: int = 0) -> Plan:
    """Return `plan` opening with `opener`, the steps named in `without` (keys of OPTIONAL_STEPS) off, no
    published sources (the opener is the one being ranked), and each class given up beyond `class_work`
    pairs (`Plan.class_work`; 0: never); ValueError naming an unknown step."""
    unknown = [step for step in without if step not in OPTIONAL_STEPS]
    if unknown:
        raise ValueError(f"unknown step {unknown[0]!r}: choose from {', '.join(OPTIONAL_STEPS)}")
    groups = {OPTIONAL_STEPS[step][0]: replace(getattr(plan, OPTIONAL_STEPS[step][0]), **OPTIONAL_STEPS[step][1])
              for step in without}
    return replace(plan, opener=opener, sources={}, class_work=class_work, **groups)


def build_openers(game: Game, table, plan: Plan, openers: list[str], without: tuple[str, ...] = (), jobs: int = 2,
                  folder: Path | None = None, progress=None, on_built=None, class_work: int = 0,
                  on_given_up=None) -> list[OpenerBuild]:
    """Return the builds of `openers` (labels of `game`) with `plan` (`ranking_plan`), least total first
    (ties: the order given); `on_built(builds so far, ranked)` after each, so that a run stopped
    later keeps the openers it finished. With `class_work`, an opener with a class that runs out of it
    is not in the result: it is reported by `stopped_build`, `on_given_up(those reports so far)`."""
    for opener in openers:
        game.index_of(opener)  # a ValueError naming a word the game does not allow, before any build
    results, given_up = [], []
    for opener in openers:
        each = ranking_plan(plan, opener, without, class_work)
        try:
            built = build(game, table, each, jobs, None, folder)
        except ClassesGivenUp as error:
            given_up.append(stopped_build(game, table, plan, opener, without, folder))
            if progress:
                progress(f"{opener}: given up ({error})")
            if on_given_up:
                on_given_up(given_up)
            continue
        results.append(OpenerBuild(opener, built.total, built.lower, max_guesses(built.nodes), built.seconds,
                                   each.describe()))
        if progress:
            progress(f"{opener}: {built.total} ({built.seconds:.0f} s of search)")
        if on_built:
            on_built(ranked(results))
    return ranked(results)


def screen_openers(path: Path, count: int) -> list[str]:
    """Return the first `count` openers of an opener screen's CSV (`opener_screen.write_csv`) that it does
    not refute, in its order; ValueError naming a file that is not such a screen."""
    lines = [line for line in Path(path).read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    rows = list(csv.DictReader(lines))
    if not rows or not {"opener", "probe"} <= set(rows[0]):
        raise ValueError(f"{path} is not an opener screen (no opener and probe columns)")
    return [row["opener"] for row in rows if row["probe"] != "refuted"][:count]


def ranked(results: list[OpenerBuild]) -> list[OpenerBuild]:
    """Return `results` least total first (ties: the order given)."""
    return sorted(results, key=lambda b: b.total)


@dataclass(frozen=True)
class StoppedBuild:
    """What a stopped build of one opener has shown: its root classes finished (of all), the targets in
    them (and the opener's own), their total guesses (the opener included), the least total the plan's
    tree can still reach (the finished classes' totals plus each other class's proven lower bound), and
    the search time of the finished classes (seconds of one core)."""

    opener: str
    classes_done: int
    classes: int
    targets_done: int
    total_done: int
    at_least: int
    seconds: float


def stopped_build(game: Game, table, plan: Plan, opener: str, without: tuple[str, ...] = (),
                  folder: Path | None = None, bound_seconds: float = 2.0) -> StoppedBuild:
    """Return what the checkpoints of `opener`'s build (`build_openers` with the same arguments) show,
    each unfinished class's lower bound raised for `bound_seconds`; ValueError if there are none."""
    each = ranking_plan(plan, opener, without)
    checkpoint = checkpoint_dir(game, each, folder)
    if not checkpoint.is_dir():
        raise ValueError(f"no checkpoints of {opener}'s build in {checkpoint.parent}")
    root = game.index_of(opener)
    searcher = Searcher(game, table, each.options)
    groups = searcher.split(root, np.arange(game.n_targets, dtype=np.int64))
    done = finished_classes(checkpoint)
    targets = game.n_targets - sum(group.size for _, group in groups)  # the opener itself, when it is a target
    total, at_least = targets, game.n_targets
    for code, group in groups:
        if code in done:
            targets += group.size
            total += group.size + done[code].value
            at_least += done[code].value
        else:
            guesses, ghash = searcher.allowed_after(((root, code),))
            at_least += searcher.lower_bound(group, each.options.max_guesses - 1, INF, bound_seconds, guesses, ghash)
    finished = [code for code, _ in groups if code in done]
    return StoppedBuild(opener, len(finished), len(groups), targets, total, at_least,
                        sum(done[code].seconds for code in finished))


def write_stopped_csv(path: Path, results: list[StoppedBuild], command: str) -> Path:
    """Write stopped builds as CSV (a comment line with the command first), atomically; return the path."""
    return _write_rows(path, command, ["opener", "classes_done", "classes", "targets_done", "total_done", "at_least",
                                       "search_seconds"],
                       [[b.opener, b.classes_done, b.classes, b.targets_done, b.total_done, b.at_least,
                         f"{b.seconds:.0f}"] for b in results])


def write_csv(path: Path, results: list[OpenerBuild], n_targets: int, command: str) -> Path:
    """Write the builds as CSV (a comment line with the command first), atomically; return the path."""
    return _write_rows(path, command, ["rank", "opener", "total", "mean", "lower_bound", "worst", "search_seconds",
                                       "strategy"],
                       [[rank, b.opener, b.total, f"{b.total / n_targets:.4f}", b.lower, b.worst, f"{b.seconds:.0f}",
                         b.strategy] for rank, b in enumerate(results, 1)])


def _write_rows(path: Path, command: str, header: list[str], rows: list[list]) -> Path:
    text = io.StringIO(newline="")
    text.write(f"# {command}\n")
    writer = csv.writer(text)
    writer.writerow(header)
    writer.writerows(rows)
    write_text(path, text.getvalue(), parents=True)
    return path


def main(argv: list[str] | None = None) -> None:
    """Build the openers named and write the CSV (`--out`)."""
    parser = argparse.ArgumentParser(prog="python -m pipeline.builders.opener_builds",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("variant")
    parser.add_argument("openers", nargs="*")
    parser.add_argument("--screen", type=Path, default=None, help="an opener screen's CSV (opener_screen)")
    parser.add_argument("--first", type=int, default=0, help="build the screen's first openers not refuted")
    parser.add_argument("--without", nargs="*", default=[], help=f"plan steps left out: {', '.join(OPTIONAL_STEPS)}")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--checkpoints", type=Path, default=None, help="folder of the builds' checkpoints")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--stopped", action="store_true",
                        help="build nothing: report each opener's stopped build from its checkpoints")
    parser.add_argument("--class-work", type=float, default=0,
                        help="give a class up beyond this many (guess, target) pairs (0: never)")
    parser.add_argument("--given-up-out", type=Path, default=None,
                        help="with --class-work: the CSV of the openers given up (as --stopped reports them)")
    args = parser.parse_args(argv)
    command = "python -m pipeline.builders.opener_builds " + " ".join(argv if argv is not None else sys.argv[1:])
    try:
        game = get_game(args.game, args.variant)
        plan = EXACT_PLANS[(args.game, args.variant)]
        openers, without = [w.upper() for w in args.openers], tuple(args.without)
        if args.screen is not None:
            if args.first < 1:
                raise ValueError(f"--first must be at least 1 with --screen (got {args.first})")
            openers += [w for w in screen_openers(args.screen, args.first) if w not in openers]
        if not openers:
            raise ValueError("no opener named (name some, or --screen FILE --first N)")
        if args.class_work < 0:
            raise ValueError(f"--class-work must not be negative (got {args.class_work:g})")
        if args.given_up_out is not None and not args.class_work:
            raise ValueError("--given-up-out needs --class-work (without it no opener is given up)")
        table = load_table(get_game(*table_of(args.game, args.variant)))
        if args.stopped:
            stopped = [stopped_build(game, table, plan, opener, without, args.checkpoints) for opener in openers]
            write_stopped_csv(args.out, stopped, command)
            print(f"{len(stopped)} stopped builds reported; written to {args.out}", file=sys.stderr)
            return
        given_up: list[StoppedBuild] = []

        def report_given_up(so_far: list[StoppedBuild]) -> None:
            given_up[:] = so_far
            if args.given_up_out is not None:
                write_stopped_csv(args.given_up_out, so_far, command)

        results = build_openers(game, table, plan, openers, without, args.jobs,
                                args.checkpoints, progress=lambda text: print(text, file=sys.stderr, flush=True),
                                on_built=lambda so_far: write_csv(args.out, so_far, game.n_targets, command),
                                class_work=int(args.class_work), on_given_up=report_given_up)
    except (KeyError, ValueError, OSError) as error:
        sys.exit(f"error: {error}")
    written = f"; written to {args.out}" if results else ""
    also = f", {len(given_up)} given up" + (f" (written to {args.given_up_out})" if args.given_up_out else "")
    print(f"{len(results)} openers built{written}{also if given_up else ''}", file=sys.stderr)


if __name__ == "__main__":
    main()
