"""`make bench`: table-build throughput, exact search, runtime latencies and the cards n=4 replay.

Run as ``python -m pipeline.benchmarks [section ...]`` with sections ``tables``, ``exact``, ``runtime``,
``live`` (the worst live guess of every game without its tree), ``exactlive`` (the exact search off the
tree), ``exactgames`` (the other games off the tree: exact live against greedy), ``cards4``, ``state`` (the `wordle`
state file of a million games), ``boards``, ``web`` (`deduce serve`'s latency and throughput; needs the
web extra), ``book`` (the opener book and the quick estimate), ``advice`` (states after favourite and
random openers played out against their optima: tens of minutes), ``startup`` (whole `deduce` processes:
wall time and peak memory), ``servemem`` (`deduce serve`'s resident memory), ``webload`` (`deduce serve` under
40 mixed clients for 2 minutes: answered, refused, latency and memory), ``largestates`` (exact proofs of
large Wordle states against Selby's C solver), ``explain`` (hints, trees, reviews, the library's off-tree
guesses and the web's /api/next and /api/review against their goals), ``listsmemory`` (one process playing 120
user word lists: its memory's growth); default: all. Figures are printed, never
asserted: goals live in the docs' benchmarks page.
"""
from __future__ import annotations

import subprocess
import sys

from pipeline.benchmarks.advice import bench_advice
from pipeline.benchmarks.book import bench_book
from pipeline.benchmarks.exact import bench_exact
from pipeline.benchmarks.explain import bench_explain
from pipeline.benchmarks.large_states import bench_large_states
from pipeline.benchmarks.lists_memory import bench_lists_memory
from pipeline.benchmarks.serve_memory import bench_serve_memory
from pipeline.benchmarks.several_boards import bench_boards
from pipeline.benchmarks.solver_calls import (
    bench_cards4,
    bench_exact_games,
    bench_exact_live,
    bench_live,
    bench_runtime,
)
from pipeline.benchmarks.startup import bench_startup
from pipeline.benchmarks.tables import bench_tables
from pipeline.benchmarks.web import bench_web
from pipeline.benchmarks.web_load import bench_web_load


def bench_state() -> None:
    """Print the `wordle` program's state-file figures (`python -m pipeline.benchmarks.state_file`, run in
    a process of its own so that the peak memory it reports is the state file's alone)."""
    subprocess.run([sys.executable, "-m", "pipeline.benchmarks.state_file"], check=True)


SECTIONS = {"tables": bench_tables, "exact": bench_exact, "runtime": bench_runtime, "live": bench_live,
            "exactlive": bench_exact_live, "exactgames": bench_exact_games, "cards4": bench_cards4,
            "state": bench_state, "boards": bench_boards,
            "web": bench_web, "book": bench_book, "advice": bench_advice,
            "startup": bench_startup, "servemem": bench_serve_memory, "webload": bench_web_load,
            "largestates": bench_large_states,
            "explain": bench_explain, "listsmemory": bench_lists_memory}


def main(argv: list[str]) -> None:
    for name in argv or list(SECTIONS):
        if name not in SECTIONS:
            raise SystemExit(f"unknown bench section {name!r}: choose from {', '.join(SECTIONS)}")
        SECTIONS[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
