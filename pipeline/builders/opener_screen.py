"""Every opener of a variant screened by the search: cheap figures, a feasibility probe, lower bounds.

For a variant whose exact totals are beyond reach (hard mode with every word an answer: 12972 by
12972 within 7 guesses), this says which first guesses are worth a build:

1. cheap figures of every allowed first guess: its largest class, how many classes, the sum of
   squared class sizes (the greedy criterion of `opener_ranking.cheap_ranking`);
2. a feasibility probe of each (the plan's search stopping at each node's first guess that finishes,
   every level widened: `split_class.probe_options`) within `work` (guess, target) pairs: *refuted*
   (no tree opening with it finishes every target within the guesses: a proof), *open* (the probe ran
   out of work) or *finishes* (it found a tree; its total, an upper bound, is kept);
3. of each opener not refuted, its worst class after two guesses: over its root classes whose second
   guess the rules restrict (hard mode: those with a hint, where trap families such as -ATCH must be
   played out), the largest class the best second guess leaves (`worst_after_two`);
4. for the first `class_lead` openers not refuted by that figure (and any named with `also`): a
   feasibility probe of each such root class on its own, smallest first, within `class_work` pairs
   each (`probe_classes`): a class that no tree finishes within the guesses left refutes the opener (a
   proof); the classes the probes leave open are counted;
5. for the first `lead` openers not refuted by squares (and any named with `also`): the search's
   proven lower bound of the opener's total, each class's raised for `seconds`;
6. (`deepen`, on a screen already written) the class probes of the leading openers again, within more
   work, in the screen's order until `deep_lead` of them stay open: a class that runs out of 2e8 pairs
   can still be refuted within 1e10 (FLUNG's RRRYY, 199 targets: 32 s).

The openers come out not refuted first; then those whose classes were probed, the fewest classes left
open first (the openers with the fewest hard classes: the ones worth a build first); then by the worst
class after two guesses; then by the lower bound where measured, then by squares.
`python -m pipeline.builders.opener_screen wordle hard-all-words --out FILE.csv` writes them as CSV;
`--deepen FILE.csv --deep-lead N --deep-work W` reads such a screen and writes it again after step 6.
"""
from __future__ import annotations

import argparse
import csv
import io
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.builders import split_class
from pipeline.builders.feedback_tables import load_table
from pipeline.plans import EXACT_PLANS, table_of
from solver.core.atomic import write_text
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
    seconds: float = 0.0  # the probes' and the bound's search time
    worst_two: int = -1  # the worst class after two guesses (`worst_after_two`); -1: not measured
    open_classes: int = -1  # restricted root classes the class probes left open; -1: not probed
    refuted_by: str = ""  # the feedback of the root class whose probe refuted the opener

    def key(self) -> tuple:
        """Return the screen's sort key: not refuted first, then the classes left open by the class probes
        (probed first), the worst class after two guesses (measured first), the lower bound (measured
        first), squares."""
        return (self.probe == REFUTED, self.open_classes < 0, self.open_classes, self.worst_two < 0, self.worst_two,
                self.lower < 0, self.lower, self.squares, self.label)


def class_figures(codes: np.ndarray, n_codes: int, win: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (largest non-winning class, number of classes, sum of squared class sizes) of every
    guess row of `codes` (codes[guesses, targets]) over all its targets."""
    largest, classes, squares = [], [], []
    for start in range(0, codes.shape[0], 1024):  # blocks: a few hundred MB at most
        block = codes[start:start + 1024].astype(np.int64)
        block += (np.arange(block.shape[0], dtype=np.int64) * n_codes)[:, None]
        sizes = np.bincount(block.ravel(), minlength=block.shape[0] * n_codes).reshape(block.shape[0], n_codes)
        classes.append(np.count_nonzero(sizes, axis=1))
        squares.append((sizes * sizes).sum(axis=1))
        sizes[:, win] = 0
        largest.append(sizes.max(axis=1))
    return np.concatenate(largest), np.concatenate(classes), np.concatenate(squares)


def restricted_classes(searcher: Searcher, row: int) -> list[tuple[int, np.ndarray, np.ndarray, int]]:
    """Return (feedback code, target positions, allowed guess rows, their hash) of each root class of
    opener `row` whose second guesses the rules restrict (hard mode: a class with a hint), smallest first."""
    out = []
    for code, group in searcher.split(row, np.arange(searcher.game.n_targets, dtype=np.int64)):
        guesses, ghash = searcher.allowed_after(((row, code),))
        if guesses.size < searcher.game.n_guesses:
            out.append((code, group, guesses, ghash))
    return sorted(out, key=lambda c: (c[1].size, c[0]))


def worst_after_two(searcher: Searcher, table: np.ndarray, row: int) -> int:
    """Return opener `row`'s worst class after two guesses: over its restricted root classes
    (`restricted_classes`), the most targets that the best second guess (least largest class) leaves
    together (0: none is restricted)."""
    worst = 0
    for _, group, guesses, _ in reversed(restricted_classes(searcher, row)):
        if group.size > max(worst, 1):  # a class no larger than the worst so far cannot raise it
            largest, _, _ = class_figures(table[np.ix_(guesses, group)], searcher.game.n_codes,
                                          searcher.game.win_code)
            worst = max(worst, int(largest.min()))
    return worst


def probe_classes(searcher: Searcher, row: int, work: int) -> tuple[str, int, str]:
    """Return (verdict, classes left open, the refuting class's feedback or "") of the feasibility probes
    (`searcher`: `split_class.probe_options`) of opener `row`'s restricted root classes, each on its own
    within `work` pairs, smallest first: REFUTED at the first class no tree finishes within the guesses
    left (a proof for the opener), OPEN otherwise (the unrestricted classes are not probed)."""
    left = searcher.options.max_guesses - 1
    still_open = 0
    for code, group, guesses, ghash in restricted_classes(searcher, row):
        found = searcher.bounded_value(group, left, work, guesses, ghash)
        if found is None:
            still_open += 1
        elif found[0] >= INF:
            return REFUTED, still_open, str(searcher.game.decode(code))
    return OPEN, still_open, ""


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
           also: tuple[str, ...] = (), progress=None, class_lead: int = 0, class_work: int = 0) -> list[Screened]:
    """Return every allowed opener screened (figures, probe within `work` pairs, the worst class after two
    guesses of those not refuted, the class probes within `class_work` pairs of the first `class_lead` not
    refuted by that figure and of `also`, the lower bound of the first `lead` not refuted by squares and of
    `also`), in the screen's order (`Screened.key`)."""
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
    for i, row in enumerate(r for r in out if out[r].probe != REFUTED):
        out[row].worst_two = worst_after_two(feasibility, table, row)
        if progress and (i + 1) % 500 == 0:
            progress(f"worst classes after two guesses: {i + 1}")
    also_rows = [game.index_of(word) for word in also]
    by_worst = sorted((r for r in out if out[r].probe != REFUTED), key=lambda r: (out[r].worst_two, out[r].squares))
    for row in dict.fromkeys(by_worst[:class_lead] + also_rows) if class_work else ():
        began = time.perf_counter()
        verdict, out[row].open_classes, out[row].refuted_by = probe_classes(feasibility, row, class_work)
        out[row].probe = REFUTED if verdict == REFUTED else out[row].probe
        out[row].seconds += time.perf_counter() - began
    del feasibility
    prover = Searcher(game, table, SearchOptions(max_guesses=options.max_guesses, memo_bits=20))
    chosen = [row for row in out if out[row].probe != REFUTED][:lead]
    chosen += [row for row in also_rows if row not in chosen]
    for row in chosen:
        began = time.perf_counter()
        out[row].lower = opener_lower_bound(prover, row, seconds)
        out[row].seconds += time.perf_counter() - began
    return sorted(out.values(), key=Screened.key)


COLUMNS = ["rank", "opener", "probe", "open_classes", "refuted_by", "worst_after_two", "lower_bound", "probe_total",
           "largest", "classes", "squares", "seconds"]


def write_csv(path: Path, screened: list[Screened], command: str | list[str]) -> Path:
    """Write the screen as CSV (a comment line per command that made it first), atomically; return the path."""
    text = io.StringIO(newline="")
    for line in [command] if isinstance(command, str) else command:
        text.write(f"# {line}\n")
    writer = csv.writer(text)
    writer.writerow(COLUMNS)
    for rank, s in enumerate(screened, 1):
        writer.writerow([rank, s.label, s.probe, _or_blank(s.open_classes), s.refuted_by, _or_blank(s.worst_two),
                         _or_blank(s.lower), _or_blank(s.upper), s.largest, s.classes, s.squares, f"{s.seconds:.2f}"])
    write_text(path, text.getvalue(), parents=True)
    return path


def read_csv(path: Path) -> tuple[list[Screened], list[str]]:
    """Return (the openers of a screen's CSV in its order, the commands that made it); ValueError naming a
    file that is not such a screen."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    commands = [line[2:] for line in lines if line.startswith("# ")]
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    if not rows or list(rows[0]) != COLUMNS:
        raise ValueError(f"{path} is not an opener screen (its columns are not {','.join(COLUMNS)})")

    def number(text: str) -> int:
        return int(text) if text else -1

    try:
        screened = [Screened(row["opener"], int(row["largest"]), int(row["classes"]), int(row["squares"]), row["probe"],
                             number(row["probe_total"]), number(row["lower_bound"]), float(row["seconds"]),
                             number(row["worst_after_two"]), number(row["open_classes"]), row["refuted_by"])
                    for row in rows]
    except ValueError as error:
        raise ValueError(f"{path}: a row is not a screen's ({error})") from None
    return screened, commands


def deepen(game: Game, table: np.ndarray, options: SearchOptions, screened: list[Screened], lead: int, work: int,
           progress=None) -> list[Screened]:
    """Return `screened` in the screen's order after the class probes (`probe_classes`) of its openers not
    refuted, in its order, run again within `work` pairs each until `lead` of them stay open."""
    feasibility = Searcher(game, table, split_class.probe_options(options))
    kept = 0
    for s in sorted(screened, key=Screened.key):
        if kept >= lead or s.probe == REFUTED:
            continue
        began = time.perf_counter()
        verdict, s.open_classes, s.refuted_by = probe_classes(feasibility, game.index_of(s.label), work)
        s.seconds += time.perf_counter() - began
        if verdict == REFUTED:
            s.probe = REFUTED
        else:
            kept += 1
        if progress:
            progress(f"{s.label}: {verdict} ({s.open_classes} classes left open"
                     f"{', by ' + s.refuted_by if s.refuted_by else ''})")
    return sorted(screened, key=Screened.key)


def _or_blank(value: int) -> int | str:
    return value if value >= 0 else ""


def main(argv: list[str] | None = None) -> None:
    """Screen a variant's openers and write the CSV (`--out`)."""
    parser = argparse.ArgumentParser(prog="python -m pipeline.builders.opener_screen",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("variant")
    parser.add_argument("--work", type=float, default=2e7, help="pairs scored by each opener's probe")
    parser.add_argument("--lead", type=int, default=20, help="openers not refuted whose lower bound is measured")
    parser.add_argument("--seconds", type=float, default=0.02, help="time raising each class's lower bound")
    parser.add_argument("--class-lead", type=int, default=0,
                        help="openers not refuted, least worst class after two guesses first, whose classes are probed")
    parser.add_argument("--class-work", type=float, default=2e8, help="pairs scored by each class's probe")
    parser.add_argument("--also", nargs="*", default=[],
                        help="openers whose classes are probed and lower bound measured too")
    parser.add_argument("--deepen", type=Path, default=None,
                        help="a screen's CSV whose leading openers' classes are probed again (screens nothing else)")
    parser.add_argument("--deep-lead", type=int, default=10, help="with --deepen: openers that stay open, probed again")
    parser.add_argument("--deep-work", type=float, default=1e10,
                        help="with --deepen: pairs scored by each class's probe")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    negative = [name for name in ("work", "lead", "seconds", "class_lead", "class_work", "deep_lead", "deep_work")
                if getattr(args, name) < 0]
    if negative:
        sys.exit(f"error: --{negative[0].replace('_', '-')} must not be negative")
    command = "python -m pipeline.builders.opener_screen " + " ".join(argv if argv is not None else sys.argv[1:])
    progress = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    try:
        game = get_game(args.game, args.variant)
        options = EXACT_PLANS[(args.game, args.variant)].options
        earlier = read_csv(args.deepen) if args.deepen is not None else None
        table = load_table(get_game(*table_of(args.game, args.variant)))
    except (KeyError, ValueError, OSError) as error:
        sys.exit(f"error: {error}")
    began = time.perf_counter()
    if earlier is not None:
        screened, commands = earlier
        screened = deepen(game, table, options, screened, args.deep_lead, int(args.deep_work), progress)
    else:
        commands = []
        screened = screen(game, table, options, int(args.work), args.lead, args.seconds, tuple(args.also),
                          progress=progress, class_lead=args.class_lead, class_work=int(args.class_work))
    write_csv(args.out, screened, commands + [f"{command} ({time.perf_counter() - began:.0f} s)"])
    left = sum(s.probe != REFUTED for s in screened)
    print(f"{left} of {len(screened)} openers not refuted; written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
