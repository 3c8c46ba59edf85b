"""Watched searches (solver.core.search.watch): an interrupt does not wait for a search that cannot stop."""
import threading
from types import SimpleNamespace

import numpy as np
import pytest

from solver.core.search import kernel, watch


def searcher(limit: int = 0):
    params = np.zeros(16, dtype=np.int64)
    params[kernel.WORK_LIMIT] = limit
    return SimpleNamespace(ws=SimpleNamespace(params=params, stats=np.zeros(16, dtype=np.int64)), straggler=None)


def test_values_come_back_in_order_and_limits_are_restored():
    pair = [searcher(0), searcher(500)]
    assert watch.run_watched(pair, lambda s: int(s.ws.params[kernel.WORK_LIMIT])) == [watch.NO_LIMIT, 500]
    assert [int(s.ws.params[kernel.WORK_LIMIT]) for s in pair] == [0, 500]


def test_an_error_stops_the_others_and_a_search_that_cannot_stop_is_left_to_its_searcher():
    release = threading.Event()

    def work(s):
        if s is pair[0]:
            raise ValueError("bad class")
        release.wait(30)  # like a compile: does not look at the work limit
        return 1

    pair = [searcher(0), searcher(0)]
    with pytest.raises(ValueError, match="bad class"):
        watch.run_watched(pair, work)
    # the error came back while the other search still ran: it was not waited for
    assert not release.is_set() and pair[1].straggler is not None and pair[1].straggler.is_alive()
    assert pair[0].straggler is None and int(pair[0].ws.params[kernel.WORK_LIMIT]) == 0
    assert pair[1].straggler is not None and int(pair[1].ws.params[kernel.WORK_LIMIT]) == 1  # stops at once
    release.set()
    assert watch.run_watched(pair[1:], lambda s: "next") == ["next"]  # waited for it first
    assert pair[1].straggler is None and int(pair[1].ws.params[kernel.WORK_LIMIT]) == 0
