"""Whole trees of a short list of openers, built with one variant's plan: which first guess its trees favour.

Where every opener cannot be built (hard mode with every word: half an hour or more of one core each),
the screen (`opener_screen`) proves most openers cannot finish and bounds the others without telling
them apart; this builds the tree of each opener of a short list with the variant's plan, only the
opener changed (and, with `without`, some of the plan's optional steps off, so that a ranking costs
less), and writes each opener's total, lower bound, worst case and search seconds, least total first.
Each build keeps its class checkpoints under `folder` (`exact_tree.checkpoint_dir`), so a run that is
stopped resumes, and the artifacts are not touched.

`python -m pipeline.builders.opener_builds wordle hard-all-words THUMP TRAIN --without rescan --out FILE.csv`
"""
from __future__ import annotations

import argparse
import csv
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.builders.exact_tree import Plan, build
from pipeline.builders.feedback_tables import load_table
from pipeline.builders.greedy_tree import max_guesses
from pipeline.plans import EXACT_PLANS, table_of
from solver.core.game import Game
from solver.core.registry import get_game

# the plan's optional steps a ranking may leave out: the fields each one sets back to its default
OPTIONAL_STEPS = {"rescan": {"rescan_size": 0, "rescan_margin": 0, "rescan_work": 0},
                  "polish": {"polish_k": 0, "polish_size": (3, 0), "polish_work": 0},
                  "refine": {"refine_k": (), "refine_size": 0}}


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


def ranking_plan(plan: Plan, opener: str, without: tuple[str, ...] = ()) -> Plan:
    """Return `plan` opening with `opener`, the steps named in `without` (keys of OPTIONAL_STEPS) off, and
    no published sources (the opener is the one being ranked); ValueError naming an unknown step."""
    unknown = [step for step in without if step not in OPTIONAL_STEPS]
    if unknown:
        raise ValueError(f"unknown step {unknown[0]!r}: choose from {', '.join(OPTIONAL_STEPS)}")
    fields = {name: value for step in without for name, value in OPTIONAL_STEPS[step].items()}
    return replace(plan, opener=opener, sources={}, **fields)


def build_openers(game: Game, table, plan: Plan, openers: list[str], without: tuple[str, ...] = (), jobs: int = 2,
                  folder: Path | None = None, progress=None) -> list[OpenerBuild]:
    """Return the builds of `openers` (labels of `game`) with `plan` (`ranking_plan`), least total first
    (ties: the order given)."""
    results = []
    for opener in openers:
        game.index_of(opener)  # a ValueError naming a word the game does not allow
        each = ranking_plan(plan, opener, without)
        built = build(game, table, each, jobs, None, folder)
        results.append(OpenerBuild(opener, built.total, built.lower, max_guesses(built.nodes), built.seconds,
                                   each.describe()))
        if progress:
            progress(f"{opener}: {built.total} ({built.seconds:.0f} s of search)")
    return sorted(results, key=lambda b: b.total)


def write_csv(path: Path, results: list[OpenerBuild], n_targets: int, command: str) -> Path:
    """Write the builds as CSV (a comment line with the command first); return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        handle.write(f"# {command}\n")
        writer = csv.writer(handle)
        writer.writerow(["rank", "opener", "total", "mean", "lower_bound", "worst", "search_seconds", "strategy"])
        for rank, b in enumerate(results, 1):
            writer.writerow([rank, b.opener, b.total, f"{b.total / n_targets:.4f}", b.lower, b.worst,
                             f"{b.seconds:.0f}", b.strategy])
    return path


def main(argv: list[str] | None = None) -> None:
    """Build the openers named and write the CSV (`--out`)."""
    parser = argparse.ArgumentParser(prog="python -m pipeline.builders.opener_builds", description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("variant")
    parser.add_argument("openers", nargs="+")
    parser.add_argument("--without", nargs="*", default=[], help=f"plan steps left out: {', '.join(OPTIONAL_STEPS)}")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--checkpoints", type=Path, default=None, help="folder of the builds' checkpoints")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        game = get_game(args.game, args.variant)
        plan = EXACT_PLANS[(args.game, args.variant)]
        table = load_table(get_game(*table_of(args.game, args.variant)))
        results = build_openers(game, table, plan, [w.upper() for w in args.openers], tuple(args.without), args.jobs,
                                args.checkpoints, progress=lambda text: print(text, file=sys.stderr, flush=True))
    except (KeyError, ValueError) as error:
        sys.exit(f"error: {error}")
    command = "python -m pipeline.builders.opener_builds " + " ".join(argv if argv is not None else sys.argv[1:])
    write_csv(args.out, results, game.n_targets, command)
    print(f"{len(results)} openers built; written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
