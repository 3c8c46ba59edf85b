"""The parallel kernels give the same results on one Numba thread as on two.

Under pytest-xdist every worker runs on one Numba thread (tests/conftest.py: one process a core, as
the pipeline's own process pools do), so the kernels' `prange` loops are run on two threads here, in a
process of their own, and compared with this process's results on one thread."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np

from pipeline.builders.game_bound import opener_bounds
from solver.core import scoring
from solver.core.registry import get_game
from solver.core.search.shortlist import shortlist
from solver.games import boards

ROOT = Path(__file__).resolve().parent.parent


def results() -> dict[str, np.ndarray]:
    """Return the outputs of every parallel kernel on fixed inputs, by name."""
    wordle, mastermind = get_game("wordle"), get_game("mastermind")
    out = {"table": scoring.feedback_table(wordle, np.arange(400), wordle.target_index[:500])}
    out["sum_sq"], out["entropy"] = scoring.partition_scores(wordle, np.arange(3000), wordle.target_index[:700])
    full = scoring.feedback_table(mastermind)
    out["table_sum_sq"], out["table_entropy"] = scoring.partition_scores(mastermind, None, np.arange(0, 1296, 3), full)
    out["bounds"] = opener_bounds(mastermind, full, np.arange(0, mastermind.n_guesses, 9), 5)
    cols = np.arange(150, dtype=np.int64)
    table = scoring.feedback_table(wordle, None, wordle.target_index[:150])
    guesses = np.arange(wordle.n_guesses, dtype=np.int64)
    out["shortlist"], out["estimates"] = shortlist(table, guesses, cols, wordle.n_codes, wordle.win_code,
                                                   np.log2(np.arange(2, 153)), 30,
                                                   np.isin(guesses, wordle.target_index[:150]))
    out["dordle"] = np.array([boards.lookahead_guess(wordle, np.arange(30), np.arange(100, 140))])
    return out


def test_two_threads_give_what_one_thread_gives(tmp_path):
    saved = tmp_path / "two.npz"
    code = ("import numba, numpy as np; from tests.test_threads import results; assert numba.get_num_threads() == 2; "
            f"np.savez({str(saved)!r}, **results())")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "NUMBA_NUM_THREADS": "2"})
    assert done.returncode == 0, done.stderr
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = results()
    finally:
        numba.set_num_threads(threads)
    with np.load(saved) as two:
        assert sorted(two.files) == sorted(one)
        for name, value in one.items():
            np.testing.assert_array_equal(two[name], value, err_msg=name)
