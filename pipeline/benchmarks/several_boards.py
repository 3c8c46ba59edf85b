"""`make bench` section `boards`: Dordle and Quordle played by the several-boards solver, and a ranking of
first guesses for Dordle.

The sets of answers are those of `deduce bench wordle --boards N --sample BOARD_SETS --seed SEED` (the
same draw, `solver.analysis.playout.run_boards`), so each line can be checked from the command line.
"""
from __future__ import annotations

import time

import numpy as np

from solver.analysis.several_boards import play
from solver.games import wordle
from solver.games.boards import OPENER, guesses_allowed

BOARD_SETS = 1000  # random sets of answers per number of boards (the measure)
SEED = 1
OPENERS = ("TRACE", "SALET", "ROATE", "CRATE", "SLATE")  # first guesses compared on Dordle
OPENER_SETS = 200  # answer sets per first guess in that comparison


def answer_sets(game, count: int, sets: int, seed: int) -> list[list[int]]:
    """Return `sets` lists of `count` different answer rows, drawn as `playout.run_boards` draws them."""
    rng = np.random.default_rng(seed)
    return [[int(game.target_index[i]) for i in rng.choice(game.n_targets, count, replace=False)]
            for _ in range(sets)]


def summary(lengths: list[int], count: int, seconds: float) -> str:
    """Return the mean, std, max, share over the limit, histogram and seconds a game of one run."""
    played = np.array(lengths)
    histogram = ", ".join(f"{n}: {c}" for n, c in enumerate(np.bincount(played)) if c)
    return (f"mean {played.mean():.3f} guesses (std {played.std():.3f}), max {played.max()}, over the "
            f"{guesses_allowed(count)} allowed {np.mean(played > guesses_allowed(count)):.1%} "
            f"({played.size} sets; {histogram}); {seconds / played.size:.3f} s a game")


def bench_boards() -> None:
    """Print, for Dordle and Quordle on the original lists, the guesses the solver needs over BOARD_SETS
    random sets of different answers (seed SEED); then, for Dordle, the same over OPENER_SETS sets from
    each first guess of OPENERS."""
    game = wordle.game()
    for count in (2, 4):
        start = time.perf_counter()
        lengths = [len(play(game, answers)) for answers in answer_sets(game, count, BOARD_SETS, SEED)]
        print(f"boards {count} (opener {OPENER}): {summary(lengths, count, time.perf_counter() - start)}", flush=True)
    for label in OPENERS:
        start, row = time.perf_counter(), game.index_of(label)
        lengths = [len(play(game, answers, opener=row)) for answers in answer_sets(game, 2, OPENER_SETS, SEED)]
        print(f"boards 2 from {label}: {summary(lengths, 2, time.perf_counter() - start)}", flush=True)
