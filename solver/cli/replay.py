"""`bench` and `openers`: how many guesses the solver needs over every target (or a sample).

Targets are played together by `walk.walk` (one lookup or live computation per state, shared by
the targets that reach it). `openers` forces each of the best first guesses (by expected remaining
candidates) and lets the solver finish: the tree when the opener is the tree's, live otherwise.
The exact totals of openers (`openers --exact`) are in `solver.cli.openers`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.analysis.notation import label_list, plural
from solver.analysis.scores import Scores
from solver.analysis.walk import start_state, walk
from solver.core import atomic
from solver.core.runtime import get_solver
from solver.core.game import Game
from solver.core.registry import UsageError

BAR_WIDTH = 40
HARDEST_SHOWN = 10


@dataclass
class Result:
    """Guesses per target of one run: {guesses: number of targets}, its wall time, and the targets
    that took the most guesses."""

    game: Game
    counts: dict[int, int]
    seconds: float
    source: str  # how the guesses were chosen
    hardest: tuple[str, ...] = ()  # labels of every target needing `worst` guesses, in the game's order
    sampled_from: int | None = None  # with --sample: the number of targets the sample was drawn from

    @property
    def over_limit(self) -> int | None:
        """Return the targets needing more guesses than the game allows (None: the game has no limit)."""
        limit = self.game.max_guesses
        return None if limit is None else sum(n for g, n in self.counts.items() if g > limit)

    @property
    def targets(self) -> int:
        return sum(self.counts.values())

    @property
    def total(self) -> int:
        return sum(g * n for g, n in self.counts.items())

    @property
    def mean(self) -> float:
        return self.total / self.targets

    @property
    def std(self) -> float:
        """Return the population standard deviation of the guesses per target."""
        mean = self.mean
        return math.sqrt(sum(n * (g - mean) ** 2 for g, n in self.counts.items()) / self.targets)

    @property
    def worst(self) -> int:
        return max(self.counts)


def run(game: Game, sample: int | None = None, seed: int = 0, first: int | None = None, on_solved=None) -> Result:
    """Play every target of `game` (or a random `sample` of them); `first` forces the opener;
    `on_solved(n)` is told as targets finish (for progress)."""
    solver = get_solver(game)
    targets = game.target_index
    if sample is not None:
        if sample < 1:
            raise UsageError(f"--sample must be at least 1, got {sample}")
        rng = np.random.default_rng(seed)
        targets = np.sort(rng.choice(targets, size=min(sample, targets.size), replace=False))
    nodes = walk(solver, start_state(solver), targets, first, on_solved)
    source = "precomputed tree" if solver.tree is not None else (
        f"live computation (tree file unusable: {solver.tree_error})" if solver.tree_error
        else "live computation (no tree file)")
    if first is not None and solver.tree is not None and first != solver.tree.guess[0]:
        source = "forced opener, then live computation"
    guesses = nodes.guesses_per_target(0)
    worst = max(guesses.values())
    hardest = tuple(game.labels[row] for row in sorted(guesses) if guesses[row] == worst)
    return Result(game, nodes.histogram(0), nodes.seconds, source, hardest,
                  game.n_targets if sample is not None else None)


def histogram(result: Result, hardest: int = HARDEST_SHOWN) -> list[str]:
    """Return a text histogram of guesses per target, the hardest targets (at most `hardest` of
    them, 0: no line), then the mean with its standard deviation, max, total and wall time."""
    if hardest < 0:
        raise UsageError(f"--hardest must be at least 0, got {hardest}")
    top = max(result.counts.values())
    sample = "" if result.sampled_from is None else f" (a random sample of the {result.sampled_from})"
    lines = [f"{result.game.title}: {result.targets} targets{sample}, {result.source}", "guesses  targets"]
    for guesses in range(min(result.counts), result.worst + 1):
        count = result.counts.get(guesses, 0)
        bar = "#" * (round(BAR_WIDTH * count / top) or (1 if count else 0))
        lines.append(f"{guesses:>7}  {count:>7}  {bar}")
    if result.over_limit is not None:
        lines.append(f"over the limit of {result.game.max_guesses} guesses: {plural(result.over_limit, 'target')} "
                     "(not solved in the game)")
    if hardest and result.hardest:
        lines.append(hardest_line(result, hardest))
    lines.append(f"mean {result.mean:.4f} guesses (std {result.std:.4f}), max {result.worst}, total {result.total}, "
                 f"wall time {result.seconds:.2f} s")
    return lines


def hardest_line(result: Result, shown: int = HARDEST_SHOWN) -> str:
    """Return "hardest (G guesses, N targets): LABEL ..." listing at most `shown` of them."""
    names = result.hardest
    more = f" ... and {len(names) - shown} more" if len(names) > shown else ""
    return (f"hardest ({plural(result.worst, 'guess', 'guesses')}, {plural(len(names), 'target')}): "
            f"{label_list(result.game, names[:shown])}{more}")


def _pyplot():
    try:
        import matplotlib  # defers matplotlib (the plot extra) to --plot

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # defers matplotlib (the plot extra) to --plot
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'deduce-solver[plot]'") from None
    return plt


def plot_format(path: Path) -> str:
    """The image format of a --plot file: its extension (png when it has none)."""
    return path.suffix.lstrip(".").lower() or "png"


def check_plot(path: Path) -> None:
    """Raise what `plot` would (no matplotlib, an image format it cannot write, a path that cannot
    be written, see `solver.core.atomic`) before the benchmark runs; write nothing."""
    _pyplot()
    from matplotlib.backend_bases import FigureCanvasBase  # defers matplotlib (the plot extra) to --plot

    formats = FigureCanvasBase.get_supported_filetypes()
    if plot_format(path) not in formats:
        raise ValueError(f"--plot {path}: matplotlib cannot write {plot_format(path)!r} images "
                         f"(use one of the extensions {', '.join(sorted(formats))})")
    atomic.check_writable(path)


def plot(result: Result, path: Path) -> None:
    """Draw the histogram as an image (format from the file name, e.g. PNG) with matplotlib."""
    plt = _pyplot()
    guesses = list(range(min(result.counts), result.worst + 1))
    figure, axes = plt.subplots(figsize=(6, 4))
    try:
        axes.bar(guesses, [result.counts.get(g, 0) for g in guesses], color="#4c72b0")
        axes.set_xticks(guesses)
        axes.set_xlabel("guesses")
        axes.set_ylabel("targets")
        axes.set_title(f"{result.game.title}: mean {result.mean:.3f} (std {result.std:.3f}), max {result.worst}")
        figure.tight_layout()
        with atomic.replacing(path) as tmp:
            figure.savefig(tmp, format=plot_format(path))
    finally:
        plt.close(figure)


@dataclass
class Opener:
    """An opening guess: its figures at the start and the result of playing every target after it."""

    label: str
    expected: float
    entropy: float
    result: Result
    is_tree_opener: bool


def openers(game: Game, top: int, rows: list[int] | None = None, on_done=None) -> list[Opener]:
    """Return the `top` openers by expected remaining candidates, or the given guess `rows`, plus the
    tree's own opener (for comparison), sorted by total guesses; `on_done(1)` after each (progress)."""
    if top < 1:
        raise UsageError(f"--top must be at least 1, got {top}")
    tree_opener = _tree_opener(game)
    scores = Scores.compute(game, np.arange(game.n_targets, dtype=np.int64), every_guess=True)
    if rows is not None:
        wanted = set(opener_rows(game, rows))
        ranked = [s for s in scores.top(game.n_guesses) if s.row in wanted]
    else:
        ranked = scores.top(top)
        if tree_opener is not None and tree_opener not in [s.row for s in ranked]:
            ranked += [s for s in scores.top(game.n_guesses) if s.row == tree_opener]  # for comparison
    out = []
    for s in ranked:
        out.append(Opener(s.label, s.expected, s.entropy, run(game, first=s.row), s.row == tree_opener))
        if on_done is not None:
            on_done(1)
    return sorted(out, key=lambda o: (o.result.total, o.expected))


def _tree_opener(game: Game) -> int | None:
    tree = get_solver(game).tree
    return int(tree.guess[0]) if tree is not None else None


def opener_rows(game: Game, rows: list[int]) -> list[int]:
    """Return the openers `openers` plays for the given guess rows: each once, then the tree's own
    opener when it is not among them (for comparison)."""
    out = list(dict.fromkeys(rows))
    tree_opener = _tree_opener(game)
    return out + [tree_opener] if tree_opener is not None and tree_opener not in out else out


def openers_table(rows: list[Opener]) -> list[str]:
    """Return the lines of the openers table (ranked by total guesses)."""
    width = max([len(o.label) for o in rows] + [6])
    lines = [f"{'rank':>4}  {'opener':<{width}}  {'expected left':>13}  {'entropy':>7}  {'total':>7}  "
             f"{'mean':>6}  {'max':>3}  {'time':>6}"]
    for rank, o in enumerate(rows, start=1):
        mark = " (tree)" if o.is_tree_opener else ""
        lines.append(f"{rank:>4}  {o.label:<{width}}  {o.expected:>13.3f}  {o.entropy:>7.3f}  {o.result.total:>7}  "
                     f"{o.result.mean:>6.3f}  {o.result.worst:>3}  {o.result.seconds:>5.1f}s{mark}")
    return lines
