"""`make bench` section `boards`: Dordle and Quordle played by the live solver."""
from __future__ import annotations

import time

import numpy as np

from solver.analysis.boards import play
from solver.games import wordle
from solver.games.boards import guesses_allowed

BOARD_GAMES = 200  # random sets of answers per number of boards


def bench_boards() -> None:
    """Print, for Dordle and Quordle on the original lists, the guesses the live multi-board solver
    needs over BOARD_GAMES fixed-seed random sets of distinct answers: mean, std, max, share over
    the game's limit, the count per number of guesses, and seconds per game."""
    game = wordle.game()
    rng = np.random.default_rng(20261130)
    for count in (2, 4):
        start, lengths = time.perf_counter(), []
        for _ in range(BOARD_GAMES):
            answers = [int(game.target_index[i]) for i in rng.choice(game.n_targets, count, replace=False)]
            lengths.append(len(play(game, answers)))
        seconds = (time.perf_counter() - start) / BOARD_GAMES
        lengths = np.array(lengths)
        histogram = ", ".join(f"{n}: {c}" for n, c in enumerate(np.bincount(lengths)) if c)
        print(f"boards {count}: mean {lengths.mean():.3f} guesses (std {lengths.std():.3f}), max {lengths.max()}, "
              f"over the {guesses_allowed(count)} allowed {np.mean(lengths > guesses_allowed(count)):.1%} "
              f"({BOARD_GAMES} games; {histogram}); {seconds:.3f} s a game", flush=True)
