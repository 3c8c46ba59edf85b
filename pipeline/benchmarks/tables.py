"""`make bench` section `tables`: feedback-table build throughput."""
from __future__ import annotations

import time
from functools import partial

from pipeline.benchmarks.timing import median_time
from solver.games import battleship, wordle


def bench_tables() -> None:
    """Print first-call (compile) and warm build times of the Wordle and Battleship tables."""
    from solver.core import scoring  # defers Numba to the compute path

    for game in (wordle.game(), battleship.game()):
        start = time.perf_counter()
        scoring.feedback_table(game)
        first = time.perf_counter() - start
        warm = median_time(partial(scoring.feedback_table, game))
        entries = game.n_guesses * game.n_targets
        print(f"table {game.key:20s} {game.n_guesses}x{game.n_targets}: first call {first:.2f} s "
              f"(compile or cache load), warm median {warm:.3f} s = {entries / warm / 1e6:.0f} M entries/s")
