"""A process playing many user word lists keeps its memory within one documented cap:
the live search's kept sub-games count their bytes truly and stay within `live.SEARCHER_BYTES`, what a
dropped sub-game held goes back to the system before the next is made, and the resident memory of a real
process grows at most GROWTH_CAP_MB (docs/pages/library.md) whatever the number of lists."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from solver.core import memory
from solver.core.registry import get_game
from solver.core.search import live

GROWTH_CAP_MB = 100  # docs/pages/library.md, "The memory of many word lists"


def test_a_sub_game_counts_its_shared_table_once():
    game = get_game("mastermind")
    sub = live._SubGame(game, np.arange(40, dtype=np.int64), 6)
    own = live.workspace_bytes(sub.prove.ws)
    assert sub.nbytes == sub.table.nbytes + (1 + live.PROOF_THREADS) * own
    assert own < sum(a.nbytes for a in sub.prove.ws if isinstance(a, np.ndarray))  # the table's view left out


def test_a_dropped_sub_game_is_handed_back_before_the_next(monkeypatch):
    calls = []
    monkeypatch.setattr(live, "release_freed_memory", lambda: calls.append(1) or True)
    monkeypatch.setattr(live, "_SUBGAMES", live._KeptSubGames(maxsize=1, getsizeof=lambda sub: sub.nbytes))
    searcher = live.ExactLive(get_game("mastermind"))
    searcher._subgame(np.arange(30, dtype=np.int64))  # too large to keep: dropped after use
    assert calls == []
    searcher._subgame(np.arange(31, dtype=np.int64))
    assert calls == [1]


def test_kept_sub_games_evicted_mark_a_drop(monkeypatch):
    monkeypatch.setattr(live, "release_freed_memory", lambda: True)
    kept = live._KeptSubGames(maxsize=3, getsizeof=lambda value: 1)
    for key in range(3):
        kept[key] = key
    assert not kept.dropped
    kept[3] = 3
    assert kept.dropped and 0 not in kept


def test_release_is_a_no_op_where_the_c_library_cannot():
    assert memory.release_freed_memory() in (True, False)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status (Linux)")
def test_many_word_lists_grow_memory_within_the_cap():
    lists = 12  # `make bench` (section listsmemory) plays 120
    out = subprocess.run([sys.executable, "-c", f"from pipeline.benchmarks.lists_memory import measure; "
                          f"print(round(measure({lists})))"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    growth = int(out.stdout.split()[-1])
    assert growth <= GROWTH_CAP_MB, f"resident memory grew {growth} MB over {lists} word lists"
