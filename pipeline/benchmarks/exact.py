"""`make bench` section `exact`: the exact search against Alex Selby's C solver (`SELBY_WORDLE=/path/to/wordle`)."""
from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from solver.core.registry import get_game

SELBY_ENV = "SELBY_WORDLE"  # path of Alex Selby's `wordle` program, its word lists beside it (optional)
RANDOM_OPENERS = 20  # openers of the cut-off run, drawn with a fixed seed
CUTOFF = 7921  # one more than SALET's optimum: every other opener is refuted at it


def selby_seconds(hard: bool = False, openers: list[str] | None = None, beta: int | None = None) -> float | None:
    """Return the median "Time taken" (s) of 3 runs of Selby's program: the SALET proof, or with
    `openers` each of them at the cut-off `beta` (his `-t` list and `-b`); None without his program."""
    program = os.environ.get(SELBY_ENV)
    if not program or not Path(program).is_file():
        return None
    folder = Path(program).parent
    args = [program, "-a", "wordlist_orig_all", "-h", "wordlist_orig_hidden"] + (["-H"] if hard else [])
    with tempfile.TemporaryDirectory() as scratch:
        if openers:
            listed = Path(scratch) / "openers"
            listed.write_text("".join(word.lower() + "\n" for word in openers))
            args += ["-t", str(listed)] + (["-b", str(beta)] if beta else [])
        else:
            args += ["-w", "salet"]
        times = []
        for _ in range(3):
            out = subprocess.run(args, cwd=folder, capture_output=True, text=True, timeout=1200).stdout
            times += [float(line.split("=")[1].strip().rstrip("s")) for line in out.splitlines()
                      if line.startswith("Time taken")]
    return statistics.median(times) if times else None


SALET_RUNS = 9  # runs of each SALET timing (a shared machine: single runs vary by 15% either way)


def bench_exact() -> None:
    """Print the exact search's warm times: SALET proofs (normal, hard) on one core and on two
    threads (Selby's C beside them when `SELBY_WORDLE` names his program), 20 random openers at the
    cut-off 7921 on one core, Mastermind's proof."""
    import numba  # defers Numba to the compute path

    from pipeline.builders.exact_tree import Plan, build  # defers the pipeline (Numba, pyarrow) to this command
    from pipeline.builders.feedback_tables import load_table  # defers the pipeline (Numba, pyarrow) to this command
    from solver.core.search.parallel import ThreadedTotals  # defers Numba to this section
    from solver.core.search.searcher import Searcher, SearchOptions  # defers Numba to this section

    numba.set_num_threads(1)
    table = load_table(get_game("wordle", "normal"))
    for variant in ("normal", "hard"):
        game = get_game("wordle", variant)
        row = game.index_of("SALET")
        Searcher(game, table, SearchOptions(memo_bits=10)).opener_total(row)  # compile or load the kernel
        times, threaded, searcher = [], [], None
        for _ in range(SALET_RUNS):  # one core and two threads in turn: the machine's speed drifts
            searcher = Searcher(game, table, SearchOptions(memo_bits=20))
            start = time.perf_counter()
            total = searcher.opener_total(row)
            times.append(time.perf_counter() - start)
            both = ThreadedTotals(Searcher(game, table, SearchOptions(memo_bits=20)), threads=2)
            start = time.perf_counter()
            assert both.opener_total(row) == total
            threaded.append(time.perf_counter() - start)
        stats = searcher.stats
        one, two = statistics.median(times), statistics.median(threaded)
        selby = selby_seconds(variant == "hard")
        beside = (f"; Selby's C {selby:.2f} s (ratio {one / selby:.2f})" if selby
                  else f" (set {SELBY_ENV} to time Selby's C)")
        print(f"exact SALET {variant}: total {total}, warm median {one:.2f} s on one core{beside}, "
              f"{two:.2f} s on two threads ({two / one:.2f} of one core), "
              f"{stats.nodes} nodes ({stats.full} full scoring passes), memo hit rate {stats.hit_rate:.1%}")
    game = get_game("wordle", "normal")
    rows = np.random.default_rng(2026).choice(game.n_guesses, RANDOM_OPENERS, replace=False)
    searcher = Searcher(game, table, SearchOptions(memo_bits=22))
    start = time.perf_counter()
    bounds = [searcher.opener_total(int(row), beta=CUTOFF) for row in rows]
    seconds = time.perf_counter() - start
    selby = selby_seconds(openers=[game.labels[int(row)] for row in rows], beta=CUTOFF)
    beside = f"; Selby's C {selby:.1f} s (ratio {seconds / selby:.2f})" if selby else ""
    print(f"exact {RANDOM_OPENERS} random openers (seed 2026), cut-off {CUTOFF}: {seconds:.1f} s "
          f"on one core, one memo{beside}; bounds {min(bounds)}-{max(bounds)}")
    game = get_game("mastermind")
    start = time.perf_counter()
    built = build(game, load_table(game), Plan(SearchOptions(max_guesses=8, memo_bits=20)), jobs=1,
                  folder=Path(tempfile.mkdtemp()))
    print(f"exact mastermind (every first guess up to symmetry, proof and tree): total {built.total}, "
          f"{time.perf_counter() - start:.2f} s, {built.stats.nodes} nodes, memo hit rate {built.stats.hit_rate:.1%}")
