"""`make bench` section `startup`: what a person at the command line waits for, whole processes.

Each command runs once to warm the caches (the operating system's, Numba's), then RUNS times; printed
per command: the median and the largest wall time, and the peak resident memory (the child's own
`ru_maxrss`, from a small launcher process). The goals (at most 0.2 s for `--help`, 0.3 s on the tree, 0.5 s from the
opener book, under 150 MB) are on the documentation's benchmarks page, with the machine's state.

Then the first command after an install (`bench_fresh_install`): an off-book hint at a terminal (a
pseudo-terminal) with an empty Numba cache and user cache folder, FRESH_RUNS times: the seconds to its
first notice and to its end (goals: 1 s and 5 s); then the background warm-up it started, until it ends,
and the same command again.
"""
from __future__ import annotations

import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def run_once(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Return (wall seconds, peak resident MiB) of one `deduce` process with these arguments (and this
    environment; None: this process's, commands run in their own process unless DEDUCE_RESIDENT says)."""
    out = subprocess.run([sys.executable, "-c", LAUNCHER, sys.executable, "-m", "solver", *argv],
                         capture_output=True, text=True, check=True,
                         env=env if env is not None else {"DEDUCE_RESIDENT": "0", **os.environ}).stdout.split()
    wall, peak_kb, code = float(out[0]), int(out[1]), int(out[2])
    if code != 0:
        raise SystemExit(f"deduce {' '.join(argv)} exited with {code}")
    return wall, peak_kb / 1024  # Linux: ru_maxrss in kilobytes


FRESH_RUNS = 3
FRESH_COMMAND = ["hint", "wordle", "QAJAQ=RRRRR"]  # off the tree and the opener book: the live search's state


def read_terminal(main: int, process: subprocess.Popen, timeout: float | None = None, seen=None) -> bytes:
    """Return what `process` wrote to the pseudo-terminal whose main side is `main` until it ended (or, past
    `timeout` seconds, was killed); `seen(output)` is called after each read. Closes `main`."""
    output, deadline = b"", None if timeout is None else time.monotonic() + timeout
    while deadline is None or time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            output += chunk
            if seen is not None:
                seen(output)
        elif process.poll() is not None:
            break
    else:
        process.kill()
    os.close(main)
    return output


def at_terminal(argv: list[str], env: dict) -> tuple[float | None, float, str]:
    """Return (seconds to the first line of a notice, seconds to the end, the output) of one `deduce`
    process whose standard streams are a pseudo-terminal."""
    main, child = os.openpty()
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "solver", *argv], stdin=child, stdout=child, stderr=child,
                               env=env, close_fds=True)
    os.close(child)
    noticed: list[float] = []

    def seen(output: bytes) -> None:
        if not noticed and b"warning:" in output:
            noticed.append(time.perf_counter() - began)

    output = read_terminal(main, process, seen=seen)
    process.wait()
    if process.returncode != 0:
        raise SystemExit(f"deduce {' '.join(argv)} exited with {process.returncode}")
    return (noticed[0] if noticed else None), time.perf_counter() - began, output.decode(errors="replace")


def warm_up_process(cache: Path, wait: float = 10.0) -> int | None:
    """Return the pid of the background warm-up running for the user cache folder `cache` (waiting up to
    `wait` seconds for it to take its lock), or None."""
    deadline = time.monotonic() + wait
    while True:
        for lock in (cache / "deduce").glob("warm-up-*.lock"):
            words = lock.read_text().split()
            if len(words) == 2 and words[0].isdigit() and Path(f"/proc/{words[0]}").exists():
                return int(words[0])
        if time.monotonic() > deadline:
            return None
        time.sleep(0.1)


def bench_fresh_install() -> None:
    """Print the first off-book command after an install (see the module docstring)."""
    notices, ends = [], []
    for run in range(FRESH_RUNS):
        with tempfile.TemporaryDirectory() as numba_cache, tempfile.TemporaryDirectory() as user_cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=numba_cache, XDG_CACHE_HOME=user_cache)
            noticed, ended, output = at_terminal(FRESH_COMMAND, env)
            notices.append(noticed if noticed is not None else float("nan"))
            ends.append(ended)
            pid = warm_up_process(Path(user_cache))
            if run < FRESH_RUNS - 1:
                if pid is not None:
                    os.kill(pid, 9)
                continue
            began = time.perf_counter()
            while warm_up_process(Path(user_cache), wait=0) is not None:
                time.sleep(0.5)
            warmed = time.perf_counter() - began + ended
            _, again, output = at_terminal(FRESH_COMMAND, env)
    print(f"startup deduce {' '.join(FRESH_COMMAND)} after an install (empty caches, at a terminal): first notice "
          f"after a median {statistics.median(notices):.2f} s, answer (the greedy rule's) after "
          f"{statistics.median(ends):.2f} s (max {max(ends):.2f} s over {FRESH_RUNS} runs); the background "
          f"warm-up ended {warmed:.0f} s after the start; the same command then {again:.2f} s "
          f"({'the exact search' if 'proven optimal' in output else 'not exact'})", flush=True)


def bench_startup() -> None:
    """Print each command's median and largest wall time and its peak memory (see the module docstring)."""
    for label, argv in COMMANDS:
        run_once(argv)  # warm-up
        walls, peaks = zip(*(run_once(argv) for _ in range(RUNS)))
        print(f"startup {label}: median {statistics.median(walls):.2f} s (max {max(walls):.2f} s over {RUNS} runs), "
              f"peak {max(peaks):.0f} MB", flush=True)
    bench_fresh_install()


if __name__ == "__main__":
    bench_startup()
