"""`make bench` section `startup`: what a person at the command line waits for, whole processes.

Each command runs once to warm the caches (the operating system's, Numba's), then RUNS times; printed
per command: the median and the largest wall time, and the peak resident memory (the child's own
`ru_maxrss`, from a small launcher process). The goals (at most 0.2 s for `--help`, 0.3 s on the tree, 0.5 s from the
opener book, under 150 MB) are on the documentation's benchmarks page, with the machine's state.
"""
from __future__ import annotations

import statistics
import subprocess
import sys

RUNS = 5
COMMANDS = (
    ("deduce --help", ["--help"]),
    ("deduce tree wordle (the opener)", ["tree", "wordle"]),
    ("deduce tree wordle --path SALET=RRRRR (on the tree)", ["tree", "wordle", "--path", "SALET=RRRRR"]),
    ("deduce hint wordle SALET=RRRRR (on the tree)", ["hint", "wordle", "SALET=RRRRR"]),
    ("deduce hint wordle CRANE=RYRGR (off the tree, the opener book)", ["hint", "wordle", "CRANE=RYRGR"]),
    ("deduce review wordle SALET CRONY --answer CRONY (on the tree)",
     ["review", "wordle", "SALET", "CRONY", "--answer", "CRONY"]),
)


# runs the command in a small process of its own and prints (wall seconds, peak KB of its child): a child
# forked from this (large) process would count this one's pages in its peak until it execs
LAUNCHER = """
import os, subprocess, sys, time
began = time.perf_counter()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(process.pid, 0)
print(time.perf_counter() - began, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def run_once(argv: list[str]) -> tuple[float, float]:
    """Return (wall seconds, peak resident MiB) of one `deduce` process with these arguments."""
    out = subprocess.run([sys.executable, "-c", LAUNCHER, sys.executable, "-m", "solver", *argv],
                         capture_output=True, text=True, check=True).stdout.split()
    wall, peak_kb, code = float(out[0]), int(out[1]), int(out[2])
    if code != 0:
        raise SystemExit(f"deduce {' '.join(argv)} exited with {code}")
    return wall, peak_kb / 1024  # Linux: ru_maxrss in kilobytes


def bench_startup() -> None:
    """Print each command's median and largest wall time and its peak memory (see the module docstring)."""
    for label, argv in COMMANDS:
        run_once(argv)  # warm-up
        walls, peaks = zip(*(run_once(argv) for _ in range(RUNS)))
        print(f"startup {label}: median {statistics.median(walls):.2f} s (max {max(walls):.2f} s over {RUNS} runs), "
              f"peak {max(peaks):.0f} MB", flush=True)


if __name__ == "__main__":
    bench_startup()
