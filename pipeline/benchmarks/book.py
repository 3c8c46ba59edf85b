"""`make bench` section `book`: the opener book's coverage and lookups, and the quick estimate's error.

* For each booked variant: the share of classes and of answers proven (from the book's metadata), and
  the time of `next_guess` one guess into the game after a covered opener (the book's lookup): the
  first call of a process (loading the book) and the median and worst of the next ones.
* The quick estimate (`solver.analysis.estimate`) against proven values: on classes after random
  covered openers, the book's proven second guesses, estimated the quick way; the mean and largest
  absolute error in expected guesses.
"""
from __future__ import annotations

import statistics
import time

import numpy as np

from pipeline.builders.opener_book import BOOK_VARIANTS
from solver.analysis.estimate import estimated_to_go
from solver.core import artifacts
from solver.core.registry import get_game
from solver.core.runtime import Solver

LOOKUPS = 500
ESTIMATED = 400
SEED = 2026


def bench_book() -> None:
    """Print the book's figures (see the module docstring)."""
    rng = np.random.default_rng(SEED)
    for key in BOOK_VARIANTS:
        game = get_game(*key)
        try:
            book, meta = artifacts.read_book(game)
        except (artifacts.MissingTableError, artifacts.ArtifactError) as err:
            print(f"book {game.key}: none ({err})")
            continue
        print(f"book {game.key}: {meta['openers']} openers, {meta['classes']} classes, proven "
              f"{int(meta['proven_classes']) / int(meta['classes']):.2%} of the classes and "
              f"{int(meta['proven_answers']) / int(meta['answers']):.2%} of the answers ({meta['selection']}; "
              f"{float(meta['work']):.3g} pairs scored)", flush=True)
        keys = list(book)
        picks = [keys[i] for i in rng.choice(len(keys), size=min(LOOKUPS, len(keys)), replace=False)]
        solver = Solver(game)
        root = solver.initial_guess()[1]
        times = []
        for opener, code in picks:
            state = solver.advance(root, opener, code)
            began = time.perf_counter()
            solver.guess_row(state)
            times.append(time.perf_counter() - began)
        print(f"book {game.key}: next guess from the book: first {times[0] * 1e3:.1f} ms (loads the book), then "
              f"median {statistics.median(times[1:]) * 1e3:.3f} ms, max {max(times[1:]) * 1e3:.2f} ms "
              f"over {len(times) - 1} lookups", flush=True)
        errors = []
        proven = [k for k in keys if book[k][3] and book[k][1] >= 3]
        for opener, code in (proven[i] for i in rng.choice(len(proven), size=min(ESTIMATED, len(proven)),
                                                            replace=False)):
            guess, size, total, _, _ = book[(opener, code)]
            state = solver.advance(root, opener, code)
            errors.append(estimated_to_go(state, guess) - total / size)
        errors = np.array(errors)
        print(f"estimate {game.key}: against {errors.size} proven second guesses (classes of 3 or more): mean "
              f"error {errors.mean():+.3f}, mean absolute {np.abs(errors).mean():.3f}, largest "
              f"{np.abs(errors).max():.3f} expected guesses", flush=True)
