"""`make bench`: table-build throughput, runtime latencies and the full cards n=4 replay.

Run as ``python -m pipeline.bench [section ...]`` with sections ``tables``, ``runtime``,
``cards4`` (default: all). Figures are printed, never asserted: goals live in the README.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time

import numpy as np

WARM_RUNS = 5


def _median_time(fn, runs: int = WARM_RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_tables() -> None:
    """Print first-call (compile) and warm build times of the Wordle and Battleship tables."""
    from solver import battleship, kernels, wordle

    for game in (wordle.game(), battleship.game()):
        start = time.perf_counter()
        kernels.feedback_table(game)
        first = time.perf_counter() - start
        warm = _median_time(lambda: kernels.feedback_table(game))
        entries = game.n_guesses * game.n_targets
        print(f"table {game.key:20s} {game.n_guesses}x{game.n_targets}: first call {first:.2f} s "
              f"(compile or cache load), warm median {warm:.3f} s = {entries / warm / 1e6:.0f} M entries/s")


def bench_runtime() -> None:
    """Print solver import time, on-tree next_guess latency and the Wordle live-fallback latency."""
    code = "import time; t = time.perf_counter(); import solver.wordle; print(time.perf_counter() - t)"
    imports = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    check=True).stdout) for _ in range(5)]
    print(f"import solver.wordle: median {statistics.median(imports) * 1e3:.0f} ms over 5 fresh processes")

    from solver import wordle

    answers = wordle.builtin_answers()
    latencies = []
    for answer in answers:
        guess, state = wordle.initial_guess()
        while guess != answer:
            marks = wordle.feedback(answer, guess)
            start = time.perf_counter()
            guess, state = wordle.next_guess((guess, state), marks)
            latencies.append(time.perf_counter() - start)
    lat = np.array(latencies) * 1e6
    print(f"on-tree next_guess (wordle, {lat.size} calls): median {np.median(lat):.1f} us, "
          f"p99 {np.percentile(lat, 99):.1f} us")

    first, state = wordle.initial_guess()
    off = "CRANE" if first != "CRANE" else "SLATE"
    wordle.next_guess((off, state), wordle.feedback(answers[0], off))  # compile / load kernels once
    live = []
    for answer in answers[::23]:
        _, state = wordle.initial_guess()
        start = time.perf_counter()
        wordle.next_guess((off, state), wordle.feedback(answer, off))
        live.append(time.perf_counter() - start)
    print(f"live fallback after off-tree {off} ({len(live)} answers): median {statistics.median(live) * 1e3:.1f} ms, "
          f"max {max(live) * 1e3:.1f} ms")


def bench_cards4() -> None:
    """Replay the cards n=4 tree against all 270725 answers and compare with its metadata."""
    from solver import cards
    from solver.engine import get_solver

    game = cards.game(4)
    solver = get_solver(game)
    tree = solver.tree
    if tree is None:
        print("cards n4: no tree artifact (run `make tables`)")
        return
    start = time.perf_counter()
    total = worst = 0
    for position in range(game.n_targets):
        target = int(game.target_index[position])
        text, state = solver.initial_guess()
        count = 1
        while text != game.labels[target]:
            row = game.index_of(text)
            text, state = solver.next_guess(text, state, game.decode(game.code(row, target)))
            count += 1
        total += count
        worst = max(worst, count)
    meta = tree.metadata
    print(f"cards n4 full replay: {game.n_targets} answers, average {total / game.n_targets:.4f}, max {worst}, "
          f"{time.perf_counter() - start:.0f} s; metadata total {meta['total_guesses']} "
          f"({'match' if str(total) == meta['total_guesses'] else 'MISMATCH'}), max {meta['max_guesses']}")


SECTIONS = {"tables": bench_tables, "runtime": bench_runtime, "cards4": bench_cards4}


def main(argv: list[str]) -> None:
    for name in argv or list(SECTIONS):
        if name not in SECTIONS:
            raise SystemExit(f"unknown bench section {name!r}: choose from {', '.join(SECTIONS)}")
        SECTIONS[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
