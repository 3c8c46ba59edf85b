"""`deduce bench` and `deduce openers`: what `solver.analysis.playout` measured, as text and plots.

The histogram of guesses per target, the hardest targets, the openers table, and the --plot image.
The exact totals of openers (`openers --exact`) are printed by `solver.cli.openers`.
"""
from __future__ import annotations

from pathlib import Path

from solver.analysis.notation import label_list, plural
from solver.analysis.playout import Opener, Result
from solver.analysis.values import figure
from solver.core import atomic
from solver.core.registry import UsageError

BAR_WIDTH = 40
HARDEST_SHOWN = 10


def histogram(result: Result, hardest: int = HARDEST_SHOWN) -> list[str]:
    """Return a text histogram of guesses per target, the hardest targets (at most `hardest` of
    them, 0: no line), then the mean with its standard deviation, max, total and wall time."""
    if hardest < 0:
        raise UsageError(f"--hardest must be at least 0, got {hardest}")
    top = max(result.counts.values())
    sample = "" if result.sampled_from is None else f" (a random sample of the {result.sampled_from})"
    lines = [f"{result.name}: {plural(result.targets, result.unit)}{sample}, {result.source}",
             f"guesses  {result.unit + 's':>7}"]
    for guesses in range(min(result.counts), result.worst + 1):
        count = result.counts.get(guesses, 0)
        bar = "#" * (round(BAR_WIDTH * count / top) or (1 if count else 0))
        lines.append(f"{guesses:>7}  {count:>7}  {bar}")
    if result.over_limit is not None:
        lines.append(f"over the limit of {result.allowed} guesses: {plural(result.over_limit, result.unit)} "
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
    return (f"hardest ({plural(result.worst, 'guess', 'guesses')}, {plural(len(names), result.unit)}): "
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


def openers_table(rows: list[Opener]) -> list[str]:
    """Return the lines of the openers table (ranked by total guesses)."""
    width = max([len(o.label) for o in rows] + [6])
    limit = rows[0].result.allowed if rows else None
    over = f"  {'over ' + str(limit):>7}" if limit is not None else ""
    lines = [f"{'rank':>4}  {'opener':<{width}}  {'expected left':>13}  {'entropy':>7}  {'total':>7}  "
             f"{'mean':>6}  {'max':>3}{over}  {'time':>6}"]
    for rank, o in enumerate(rows, start=1):
        mark = " (tree)" if o.is_tree_opener else ""
        lost = f"  {o.result.over_limit:>7}" if limit is not None else ""
        lines.append(f"{rank:>4}  {o.label:<{width}}  {o.expected:>13.3f}  {o.entropy:>7.3f}  {o.result.total:>7}  "
                     f"{figure(o.result.mean):>6}  {o.result.worst:>3}{lost}  {o.result.seconds:>5.1f}s{mark}")
    if limit is not None and any(o.result.over_limit for o in rows):
        lines += ["", f"over {limit}: the answers the solver's play takes more than {limit} guesses to find (the "
                  "total and mean count every guess, past the limit too)"]
    return lines
