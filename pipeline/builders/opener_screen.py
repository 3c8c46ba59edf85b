"""Every opener of a variant screened by the search: cheap figures, a feasibility probe, lower bounds.

For a variant whose exact totals are beyond reach (hard mode with every word an answer: 12972 by
12972 within 7 guesses), this says which first guesses are worth a build:

1. cheap figures of every allowed first guess: its largest class, how many classes, the sum of
   squared class sizes (the greedy criterion of `opener_ranking.cheap_ranking`);
2. a feasibility probe of each (the plan's search stopping at each node's first guess that finishes,
   every level widened: `split_class.probe_options`) within `work` (guess, target) pairs: *refuted*
   (no tree opening with it finishes every target within the guesses: a proof), *open* (the probe ran
   out of work) or *finishes* (it found a tree; its total, an upper bound, is kept);
3. for the first `lead` openers not refuted by squares (and any named with `also`): the search's
   proven lower bound of the opener's total, each class's raised for `seconds`.

The openers come out not refuted first, then by the lower bound where measured, then by squares.
`python -m pipeline.builders.opener_screen wordle hard-all-words --out FILE.csv` writes them as CSV.
"""
from __future__ import annotations

import argparse
import csv
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.builders import split_class
from pipeline.builders.feedback_tables import load_table
from pipeline.plans import EXACT_PLANS, table_of
from solver.core.game import Game
from solver.core.registry import get_game
from solver.core.search.searcher import INF, Searcher, SearchOptions

REFUTED, OPEN, FINISHES = "refuted", "open", "finishes"


@dataclass
class Screened:
    """One opener's figures: cheap ones, the probe's verdict, and the search's bounds where measured."""

    label: str
    largest: int
    classes: int
    squares: int
    probe: str = OPEN  # REFUTED, OPEN or FINISHES
    upper: int = -1  # the probe's tree total where it finishes (an upper bound); -1: none
    lower: int = -1  # the proven lower bound of the opener's total; -1: not measured
    seconds: float = 0.0  # the probe's and the bound's search time

    def key(self) -> tuple:
        """Return the screen's sort key: not refuted first, then the lower bound (measured first), squares."""
        return self.probe == REFUTED, self.lower < 0, self.lower, self.squares, self.label


def class_figures(table: np.ndarray, n_codes: int, win: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (largest non-winning class, number of classes, sum of squared class sizes) of every
    guess row of `table` (codes[guesses, targets]) over all its targets."""
    largest = np.empty(table.shape[0], np.int64)
    classes, squares = np.empty_like(largest), np.empty_like(largest)
    for row in range(table.shape[0]):
        sizes = np.bincount(table[row], minlength=n_codes).astype(np.int64)
        classes[row], squares[row] = np.count_nonzero(sizes), int(sizes @ sizes)
        sizes[win] = 0
        largest[row] = sizes.max()
    return largest, classes, squares


def probe_opener(searcher: Searcher, row: int, work: int) -> tuple[str, int]:
    """Return (verdict, tree total or -1) of the feasibility probe of first guess `row` within `work` pairs."""
    positions = np.arange(searcher.game.n_targets, dtype=np.int64)
    found = searcher.bounded_value(positions, searcher.options.max_guesses, work, forced=row)
    if found is None:
        return OPEN, -1
    return (REFUTED, -1) if found[0] >= INF else (FINISHES, int(found[0]))


def opener_lower_bound(prover: Searcher, row: int, seconds: float) -> int:
    """Return a proven lower bound of the total of trees opening with `row`: the targets plus each
    class's proven bound within the guesses left, raised for `seconds` a class (INF: one cannot finish)."""
    positions = np.arange(prover.game.n_targets, dtype=np.int64)
    r = prover.options.max_guesses - 1
    total = prover.game.n_targets
    for code, group in prover.split(row, positions):
        guesses, ghash = prover.allowed_after(((row, code),))
        total += prover.lower_bound(group, r, INF, seconds, guesses, ghash)
    return min(total, INF)


def screen(game: Game, table: np.ndarray, options: SearchOptions, work: int, lead: int = 0, seconds: float = 0.02,
           also: tuple[str, ...] = (), progress=None) -> list[Screened]:
    """Return every allowed opener screened (figures, probe within `work` pairs, the lower bound of the
    first `lead` not refuted by squares and of `also`), in the screen's order (`Screened.key`)."""
    largest, classes, squares = class_figures(table, game.n_codes, game.win_code)
    rows = np.lexsort((np.arange(game.n_guesses), squares))
    out = {int(row): Screened(game.labels[row], int(largest[row]), int(classes[row]), int(squares[row]))
           for row in rows}
    feasibility = Searcher(game, table, split_class.probe_options(options))
    for i, row in enumerate(out):
        began = time.perf_counter()
        out[row].probe, out[row].upper = probe_opener(feasibility, row, work)
        out[row].seconds += time.perf_counter() - began
        if progress and (i + 1) % 500 == 0:
            progress(f"probed {i + 1} of {len(out)}")
    del feasibility
    prover = Searcher(game, table, SearchOptions(max_guesses=options.max_guesses, memo_bits=20))
    chosen = [row for row in out if out[row].probe != REFUTED][:lead]
    chosen += [game.index_of(word) for word in also if game.index_of(word) not in chosen]
    for row in chosen:
        began = time.perf_counter()
        out[row].lower = opener_lower_bound(prover, row, seconds)
        out[row].seconds += time.perf_counter() - began
    return sorted(out.values(), key=Screened.key)


def write_csv(path: Path, screened: list[Screened], command: str) -> Path:
    """Write the screen as CSV (a comment line with the command first); return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        handle.write(f"# {command}\n")
        writer = csv.writer(handle)
        writer.writerow(["rank", "opener", "probe", "lower_bound", "probe_total", "largest", "classes", "squares",
                         "seconds"])
        for rank, s in enumerate(screened, 1):
            writer.writerow([rank, s.label, s.probe, s.lower if s.lower >= 0 else "", s.upper if s.upper >= 0 else "",
                             s.largest, s.classes, s.squares, f"{s.seconds:.2f}"])
    return path


def main(argv: list[str] | None = None) -> None:
    """Screen a variant's openers and write the CSV (`--out`)."""
    parser = argparse.ArgumentParser(prog="python -m pipeline.builders.opener_screen", description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("variant")
    parser.add_argument("--work", type=float, default=2e7, help="pairs scored by each opener's probe")
    parser.add_argument("--lead", type=int, default=20, help="openers not refuted whose lower bound is measured")
    parser.add_argument("--seconds", type=float, default=0.02, help="time raising each class's lower bound")
    parser.add_argument("--also", nargs="*", default=[], help="openers whose lower bound is measured too")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    game = get_game(args.game, args.variant)
    table = load_table(get_game(*table_of(args.game, args.variant)))
    options = EXACT_PLANS[(args.game, args.variant)].options
    began = time.perf_counter()
    screened = screen(game, table, options, int(args.work), args.lead, args.seconds, tuple(args.also),
                      progress=lambda text: print(text, file=sys.stderr, flush=True))
    command = "python -m pipeline.builders.opener_screen " + " ".join(argv if argv is not None else sys.argv[1:])
    write_csv(args.out, screened, f"{command} ({time.perf_counter() - began:.0f} s)")
    left = sum(s.probe != REFUTED for s in screened)
    print(f"{left} of {len(screened)} openers not refuted; written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
