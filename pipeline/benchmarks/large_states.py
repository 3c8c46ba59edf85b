"""`make bench` section `largestates`: exact proofs of large Wordle states, whole processes on one core,
against Alex Selby's C solver (`SELBY_WORDLE=/path/to/wordle`, his word lists beside it) when given.

The states: THILL=RRRRR and SMOGS=RRRRR (normal mode), GHOST=RRRRR (hard mode), and RANDOM_STATES more
drawn with a fixed seed among the openers whose all-grey class has 300 to 900 answers (normal mode). Each
is proven in a process of its own (`NUMBA_NUM_THREADS=1`: the exact search's proof of the least total,
`ExactLive.choose` without a budget, from an empty memo; no tree, no book): its wall and CPU seconds,
from the start of the process to its end, the total found, and Selby's beside it (`-w word.bbbbb`,
`-H` for hard mode), with the ratio of the two wall times. The goal (at most 0.5 of Selby's time) is on
the documentation's benchmarks page. First, the floor: a process that only imports NumPy and Numba and
runs one cached kernel (`numba_floor.py`), FLOOR_RUNS times, its median wall time; for a state whose
proof is sub-second, that floor is most of the process.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from pipeline.benchmarks.exact import SELBY_ENV
from solver.core.registry import get_game

FIXED = (("THILL", "normal"), ("SMOGS", "normal"), ("GHOST", "hard"))
RANDOM_STATES, SEED = 3, 42
FLOOR_RUNS = 5
FLOOR = Path(__file__).with_name("numba_floor.py")
CLASS_SIZES = (300, 900)  # answers of the all-grey class of the random openers

PROOF = """
import math, sys
import numpy as np
from solver.core.registry import get_game
from solver.core.search.live import ExactLive
game = get_game("wordle", sys.argv[1])
row = game.index_of(sys.argv[2])
code = game.encode("RRRRR")
targets = game.target_index
positions = np.flatnonzero(np.array([game.code(row, int(t)) == code for t in targets]))
search = ExactLive(game, memo=0)
work = []
# pairs scored in all (runs past 2 s)
search.progress = lambda seconds, pairs, finished: finished and work.append(pairs)
choice = search.choose(positions, ((row, code),), math.inf, prove_only=True)
print(positions.size, choice.total, game.labels[choice.guess], choice.exact, round(choice.seconds, 2),
      work[-1] if work else 0)
"""


def random_openers(count: int = RANDOM_STATES, seed: int = SEED) -> list[str]:
    """Return `count` openers drawn (fixed seed) among those whose all-grey class has CLASS_SIZES answers."""
    from solver.core import scoring  # defers Numba to this section

    game = get_game("wordle", "normal")
    table = scoring.feedback_table(game, np.arange(game.n_guesses), game.target_index)
    grey = (table == game.encode("RRRRR")).sum(axis=1)
    pool = np.flatnonzero((grey >= CLASS_SIZES[0]) & (grey <= CLASS_SIZES[1]))
    chosen = np.random.default_rng(seed).choice(pool, count, replace=False)
    return [game.labels[int(row)] for row in sorted(chosen)]


def timed(argv: list[str], env: dict | None = None, cwd: Path | None = None) -> tuple[float, float, str]:
    """Return (wall seconds, CPU seconds of the process, its standard output) of one whole process."""
    began = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=cwd)
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv[:4])} ... exited with {os.waitstatus_to_exitcode(status)}")
    return time.perf_counter() - began, usage.ru_utime + usage.ru_stime, out


def ours(opener: str, variant: str) -> tuple[float, float, int, str]:
    """Return (wall s, CPU s, total, what it found: the guess, the search's own seconds and the (guess,
    target) pairs it scored) of the project's proof of opener=RRRRR, one process, one core."""
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    wall, cpu, out = timed([sys.executable, "-c", PROOF, variant, opener], env)
    _, total, guess, exact, search, pairs = out.split()
    assert exact == "True", out
    return wall, cpu, int(total), f"{guess}; the search {search} s of it, {float(pairs):.3g} pairs scored"


def selby(opener: str, variant: str) -> tuple[float, float, int] | None:
    """Return (wall s, CPU s, total) of Selby's program on opener=RRRRR, or None without it."""
    program = os.environ.get(SELBY_ENV)
    if not program or not Path(program).is_file():
        return None
    argv = [program, "-a", "wordlist_orig_all", "-h", "wordlist_orig_hidden", "-w", f"{opener.lower()}.bbbbb"]
    wall, cpu, out = timed(argv + (["-H"] if variant == "hard" else []), cwd=Path(program).parent)
    found = re.search(r"Best first guess score = (\d+)", out)
    return wall, cpu, int(found[1]) if found else -1


def floor_seconds(runs: int = FLOOR_RUNS) -> float:
    """Return the median wall seconds of a process that imports NumPy and Numba and runs one cached kernel
    (after one run that fills the cache), on one core."""
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    timed([sys.executable, str(FLOOR)], env)
    return float(np.median([timed([sys.executable, str(FLOOR)], env)[0] for _ in range(runs)]))


def bench_large_states() -> None:
    """Print the floor of a Numba process, then, per state, the project's proof and Selby's (see the module
    docstring), with the floor's share of Selby's time."""
    floor = floor_seconds()
    print(f"largestates floor: a process importing NumPy and Numba and running one cached kernel, "
          f"{floor:.2f} s wall (median of {FLOOR_RUNS})", flush=True)
    states = list(FIXED) + [(word, "normal") for word in random_openers()]
    for opener, variant in states:
        wall, cpu, total, guess = ours(opener, variant)
        line = f"largestates {opener}=RRRRR {variant}: ours {wall:.1f} s wall, {cpu:.1f} s CPU, total {total} ({guess})"
        theirs = selby(opener, variant)
        if theirs is not None:
            their_wall, their_cpu, their_total = theirs
            line += (f"; Selby {their_wall:.1f} s wall, {their_cpu:.1f} s CPU, total {their_total}; "
                     f"ratio {wall / their_wall:.2f} (the floor alone {floor / their_wall:.2f})")
        print(line, flush=True)


if __name__ == "__main__":
    bench_large_states()
