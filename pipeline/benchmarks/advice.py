"""`make bench` section `advice`: states after favourite and random openers played to the end, against
their proven optima.

For each mode, 20 states after a favourite opener (`opener_book.FAVOURITES`, covered by the book)
and 20 after a random allowed opener (mostly not covered), each reached by a random answer (so, as a
player meets them, large classes more often); every answer still possible is played to the end
through the library (`Solver`, the default budget) and the guesses are summed; the optimum of the
state is the exact search's proof (`ExactLive.choose` without a budget, from an empty memo). Printed:
each state's excess, the sum per mode, and the slowest `next_guess` of the play-outs. Takes tens of
minutes (the proofs of the large classes). `python -m pipeline.benchmarks.advice --seed S` draws
another set of states.
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from pipeline.builders.opener_book import FAVOURITES
from solver.core.registry import get_game
from solver.core.runtime import Solver
from solver.core.search.live import ExactLive

STATES = 20  # of each kind, per mode
SEED = 41


def play_total(solver: Solver, state) -> tuple[int, float]:
    """Return (guesses summed over the state's candidates, counted from its next guess; the slowest
    guess_row in seconds) of the solver's play of every candidate to the end."""
    game = solver.game
    total, slowest = 0, 0.0
    for target in game.target_index[state.candidate_positions].tolist():
        current, guesses = state, 0
        while True:
            began = time.perf_counter()
            row = solver.guess_row(current)
            slowest = max(slowest, time.perf_counter() - began)
            guesses += 1
            code = game.code(row, target)
            if code == game.win_code:
                break
            current = solver.advance(current, row, code)
        total += guesses
    return total, slowest


def bench_advice(seed: int = SEED) -> None:
    """Print the play-outs against the optima of the states drawn with `seed` (see the module docstring)."""
    rng = np.random.default_rng(seed)
    for variant in ("normal", "hard"):
        game = get_game("wordle", variant)
        solver = Solver(game)
        root = solver.initial_guess()[1]
        tree_opener = solver.guess_row(root)
        favourites = [game.index_of(w) for w in rng.choice(FAVOURITES, STATES, replace=False)]
        randoms = [int(r) for r in rng.choice(game.n_guesses, STATES, replace=False) if r != tree_opener]
        excess_sum, slowest_all = {}, 0.0
        for kind, openers in (("favourite", favourites), ("random", randoms)):
            excess_sum[kind] = 0
            for opener in openers:
                answer = int(game.target_index[rng.integers(game.n_targets)])
                code = game.code(opener, answer)
                if code == game.win_code:
                    continue
                state = solver.advance(root, opener, code)
                began = time.perf_counter()
                optimum = ExactLive(game).choose(state.candidate_positions, state.history, math.inf)
                proof = time.perf_counter() - began
                played, slowest = play_total(solver, state)
                slowest_all = max(slowest_all, slowest)
                excess = played - optimum.total if optimum is not None else None
                excess_sum[kind] += excess or 0
                booked = solver.book_choice(state) is not None
                print(f"advice {variant} {kind} {game.labels[opener]}={game.decode(code)}: {state.remaining} answers, "
                      f"played {played}, optimum {optimum.total if optimum else '-'} (proof {proof:.1f} s), excess "
                      f"{excess}, {'book' if booked else 'live'}; slowest guess {slowest:.2f} s", flush=True)
        print(f"advice {variant} (seed {seed}): excess over the optima, favourite openers "
              f"{excess_sum['favourite']}, random openers {excess_sum['random']}; slowest next_guess "
              f"{slowest_all:.2f} s", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="States after favourite and random openers against their optima.")
    parser.add_argument("--seed", type=int, default=SEED, help=f"draws the states (default {SEED})")
    bench_advice(parser.parse_args().seed)
