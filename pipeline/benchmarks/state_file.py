"""The `wordle` program's own benchmark: saving and loading a state file of a million games.

Run as ``python -m pipeline.benchmarks.state_file`` (the ``state`` section of `make bench`). Figures are
printed, never asserted.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from solver.games.wordlists import builtin_answers, builtin_guesses
from solver.wordle_program.records import State

STATE_GAMES = 1_000_000

_LOAD_STATE = """
import resource, sys, time, tracemalloc
from solver.wordle_program.records import load_state

def peak_rss():  # VmHWM: this process's own peak (ru_maxrss keeps the parent's across exec)
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)

if sys.argv[2] == "traced":
    tracemalloc.start()
before = peak_rss()
start = time.perf_counter()
state = load_state(sys.argv[1])
seconds = time.perf_counter() - start
traced = tracemalloc.get_traced_memory()[1] if tracemalloc.is_tracing() else 0
print(seconds, peak_rss() - before, traced, len(state.games))
"""


def synthetic_state(games: int, seed: int = 1):
    """Return a `wordle` State with `games` random games: 1-6 guesses, the last the answer in 19 of 20."""
    rng = np.random.default_rng(seed)
    answers, guesses = builtin_answers(), builtin_guesses()
    picked = rng.integers(0, len(answers), games).tolist()
    counts = rng.integers(1, 7, games).tolist()
    won = (rng.random(games) < 0.95).tolist()
    words = iter(rng.integers(0, len(guesses), 6 * games).tolist())
    history = []
    for answer, count, win in zip(picked, counts, won):
        played = [guesses[next(words)] for _ in range(count - win)]
        history.append({"answer": answers[answer], "guesses": played + [answers[answer]] * win})
    return State(games, history)


def bench_state() -> None:
    """Print the size, save time, load time and load peak memory of a 1,000,000-game state file."""
    state = synthetic_state(STATE_GAMES)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "state.json"
        start = time.perf_counter()
        path.write_text(state.to_json(), encoding="utf-8")
        save = time.perf_counter() - start
        del state
        runs = []
        for mode in ("timed", "timed", "timed", "traced"):  # fresh processes: the peaks are the load's own
            out = subprocess.run([sys.executable, "-c", _LOAD_STATE, str(path), mode], capture_output=True, text=True,
                                 check=True).stdout.split()
            runs.append((float(out[0]), int(out[1]), int(out[2])))
        size = path.stat().st_size
    print(f"wordle state file, {STATE_GAMES} games: {size / 1e6:.0f} MB, saved in {save:.2f} s; load median "
          f"{statistics.median(t for t, _, _ in runs[:3]):.2f} s over 3 fresh processes, peak RSS "
          f"+{max(m for _, m, _ in runs[:3]) / 1e6:.0f} MB, tracemalloc peak {runs[3][2] / 1e6:.0f} MB")


if __name__ == "__main__":
    bench_state()
