"""`make bench` section `listsmemory`: the resident memory of one process playing one game on each of many
user word lists (300 answers drawn from every acceptable word, every word a guess), played to the end
through `wordle.initial_guess` / `next_guess`. The growth is measured from the end of the second game (the
kernels, the built-in lists and the first tables loaded); the goal is docs/pages/library.md's cap (100 MB)
at any number of lists.

    python -m pipeline.benchmarks.lists_memory [LISTS]
"""
from __future__ import annotations

import gc
import random
import subprocess
import sys

LISTS = 120
ANSWERS = 300
SEED = 58
GOAL_MB = 100


def resident_mb() -> float:
    """Return this process's resident memory in MB (Linux: /proc/self/status)."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def measure(lists: int, report_every: int = 0) -> float:
    """Play one game on each of `lists` random lists; return the largest growth of resident memory in MB
    after the second game (printing it every `report_every` lists)."""
    from solver.games import wordle  # defers the library to the measuring process

    every = list(wordle.game().labels)
    rng = random.Random(SEED)
    base = peak = 0.0
    for number in range(lists):
        answers = rng.sample(every, ANSWERS)
        target = rng.choice(answers)
        guess, state = wordle.initial_guess(answers=answers, guesses=every)
        game = state.solver.game
        while guess != target:
            marks = game.decode(game.code(game.index_of(guess), game.index_of(target)))
            guess, state = wordle.next_guess((guess, state), marks)
        gc.collect()
        if number == 1:
            base = resident_mb()
        peak = max(peak, resident_mb() - base) if number >= 1 else peak
        if report_every and (number + 1) % report_every == 0:
            print(f"listsmemory: after {number + 1} lists: {resident_mb() - base:+.0f} MB (largest so far "
                  f"{peak:+.0f} MB)", flush=True)
    return peak


def bench_lists_memory() -> None:
    """Print the growth after every 20 of LISTS lists, in a process of its own (its memory is the lists')."""
    subprocess.run([sys.executable, "-m", "pipeline.benchmarks.lists_memory", str(LISTS)], check=True)


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else LISTS
    growth = measure(count, report_every=20)
    print(f"listsmemory: {count} word lists of {ANSWERS} answers: largest growth {growth:+.0f} MB; goal "
          f"{GOAL_MB} MB: {'met' if growth <= GOAL_MB else 'NOT met'}")
