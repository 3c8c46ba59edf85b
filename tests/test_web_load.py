"""The web server under load (`solver.web.admission`): work priced before it is queued (what takes milliseconds never
waits for live work), a budget for the several-boards look-ahead, a Retry-After that tells the expected wait, waiting
requests shared fairly between clients and never kept past the pool's longest wait, and a small run of the
`make bench` load generator (`pipeline.benchmarks.web_load`) against a real `deduce serve` on loopback."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install '.[web]' (or '.[test]')")
httpx = pytest.importorskip("httpx")

from solver.core.registry import get_game
from solver.games.boards import Boards, greedy_order
from solver.web import admission, api, service
from tests.helpers import held_pool_app

PATIENCE = 60.0  # seconds a held computation waits for its release: far past any test's need


def test_checks_off_the_tree_never_wait_for_live_work(monkeypatch):
    """With the one live worker held and no queue, an off-tree /api/check, /api/feedback and /api/candidates
    are answered at once (they only narrow the candidates and check a guess), while another live request gets
    the quick answer, marked busy (before: the three were sent to the live pool and refused too)."""
    app, release, started = held_pool_app(monkeypatch, PATIENCE)
    history = [{"guess": "CRANE", "feedback": "RRRRR"}]

    async def scenario():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=PATIENCE) as client:
            live = asyncio.create_task(client.post("/api/next", json={"game": "mastermind", "history": [
                {"guess": "1234", "feedback": [0, 1]}]}))
            while not started.is_set():
                await asyncio.sleep(0.01)
            try:
                began = time.monotonic()
                check = await client.post("/api/check", json={"game": "wordle", "guess": "PIZZA", "history": history})
                feedback = await client.post("/api/feedback", json={"game": "wordle", "guess": "PIZZA",
                                                                    "target": "MOIST", "history": history})
                listed = await client.post("/api/candidates", json={"game": "wordle", "history": history})
                seconds = time.monotonic() - began
                other = await client.post("/api/next", json={"game": "wordle", "history": history})
            finally:
                release.set()
            return check, feedback, listed, seconds, other, await live

    check, feedback, listed, seconds, other, live = asyncio.run(scenario())
    assert check.status_code == 200 and check.json()["valid"] is True
    assert feedback.status_code == 200 and feedback.json()["feedback"] == "RYRRR"
    assert listed.status_code == 200 and listed.json()["remaining"] > 0
    assert seconds < 5.0
    assert other.status_code == 200 and other.json()["busy"], other.text  # off-tree /api/next: live, refused
    assert live.status_code == 200


def test_on_tree_alternatives_computed_ahead_are_answered_at_once():
    """/api/next with `top` on the tree reads the hints computed ahead: no live work, so no pool."""
    key = service.resolve("wordle", None)
    steps = service.parse_steps(key, [{"guess": "SALET", "feedback": "RYRRR"}])
    if not service.ranked_ahead(key, steps, 5):
        pytest.skip("no hints artifact for Wordle here: its rankings are computed live")
    assert not api._next(api.NextRequest(game="wordle", history=[{"guess": "SALET", "feedback": "RYRRR"}],
                                         top=5)).live
    assert api._next(api.NextRequest(game="wordle", history=[{"guess": "CRANE", "feedback": "RYRRR"}], top=5)).live


def test_a_large_two_board_state_is_answered_within_its_budget():
    """Dordle after SALET=RRRRR on both boards (221 x 221 candidates: 23-26 s of look-ahead on a busy
    server) gets the greedy rule within the budget; a state whose look-ahead fits keeps `Boards.choose`,
    as `deduce play --boards` plays it."""
    key = service.resolve("wordle", None)
    game = get_game("wordle", None)
    big = service.boards_state(key, 2, [{"guess": "SALET", "feedback": ["RRRRR", "RRRRR"]}])
    assert service.boards_look_ahead(big)
    began = time.perf_counter()
    answer = service.boards_next(key, 2, [{"guess": "SALET", "feedback": ["RRRRR", "RRRRR"]}], 0)
    assert time.perf_counter() - began < 3.0
    assert answer["guess"] == game.labels[int(greedy_order(game, list(big.candidates))[0])]
    small = Boards.start(game, 2).after(game.index_of("TRACE"), {0: game.encode("GRRRR"), 1: game.encode("RRGRR")})
    assert small.candidates[0].size * small.candidates[1].size <= service.LOOK_AHEAD_PAIRS * service.BOARDS_BUDGET
    assert service.boards_choice(small) == small.choose()
    assert not service.boards_look_ahead(Boards.start(game, 2))  # the opener: read at once


def test_retry_after_tells_the_expected_wait():
    """A computation held on the one worker, priced 4 s (its kind's last run): a second of 1 s may wait, a
    third would wait past MAX_WAIT and is refused with the wait of the work ahead (about 4 + 1 s: 5), not
    1 s (before: the queue's length times the mean of the last computations, whatever their kind)."""
    pool = admission.LivePool(workers=1, queue=5, seconds=1.0, max_wait=5.0)
    pool._prices["slow"] = 4.0
    gate = threading.Event()

    async def scenario():
        held = asyncio.ensure_future(pool.run(lambda: gate.wait(PATIENCE) and "slow", client="a", kind="slow"))
        while not pool._running:
            await asyncio.sleep(0.01)
        second = asyncio.ensure_future(pool.run(lambda: "quick", client="b", kind="next"))
        while pool.admitted < 2:
            await asyncio.sleep(0.01)
        try:
            await pool.run(lambda: "late", client="c", kind="next")
            refused = None
        except admission.Busy as busy:
            refused = busy
        gate.set()
        return await held, await second, refused

    held, second, refused = asyncio.run(scenario())
    assert (held, second) == ("slow", "quick")
    assert refused is not None and refused.retry_after == 5


def test_waiting_requests_are_shared_fairly_between_clients():
    """Client A queues three requests, then client B one: B's runs as soon as the worker is free, before
    A's later ones (A has had live work lately, B none)."""
    pool = admission.LivePool(workers=1, queue=5, seconds=0.1)
    gate, ran = threading.Event(), []

    def job(name, wait=False):
        def compute():
            if wait:
                gate.wait(PATIENCE)
            ran.append(name)
            return name
        return compute

    async def scenario():
        first = asyncio.ensure_future(pool.run(job("a1", wait=True), client="a"))
        while not pool._running:
            await asyncio.sleep(0.01)
        rest = [asyncio.ensure_future(pool.run(job(name), client=client))
                for name, client in (("a2", "a"), ("a3", "a"), ("b1", "b"))]
        while pool.admitted < 4:
            await asyncio.sleep(0.01)
        gate.set()
        return await asyncio.gather(first, *rest)

    assert asyncio.run(scenario()) == ["a1", "a2", "a3", "b1"]
    assert ran == ["a1", "b1", "a2", "a3"]


def test_a_request_never_waits_past_the_longest_wait():
    """A request admitted behind work that then runs long is refused (503) when MAX_WAIT has passed, not
    left waiting."""
    pool = admission.LivePool(workers=1, queue=5, seconds=0.1, max_wait=0.5)
    gate = threading.Event()

    async def scenario():
        held = asyncio.ensure_future(pool.run(lambda: gate.wait(PATIENCE) and "held", client="a"))
        while not pool._running:
            await asyncio.sleep(0.01)
        began = time.monotonic()
        try:
            await pool.run(lambda: "never", client="b")
            refused = None
        except admission.Busy as busy:
            refused = busy
        seconds = time.monotonic() - began
        gate.set()
        return await held, refused, seconds

    held, refused, seconds = asyncio.run(scenario())
    assert held == "held" and refused is not None and seconds < 2.0
    assert "within 0.5 s" in str(refused)


@pytest.mark.slow
def test_a_small_crowd_is_answered_or_refused_in_time(tmp_path):
    """The load generator of `make bench` (`webload`), smaller: 8 clients for 5 s against `deduce serve` on
    loopback with one live worker. Every request is answered (200) or refused (503) and live work is served;
    how fast, and whether every answer comes within DEADLINE, are speed figures for `make bench`, not for a
    test on a machine of unknown load (a review took 14.6 s on two busy cores)."""
    from pipeline.benchmarks import web_load
    from pipeline.benchmarks.timing import free_port, wait_until_serving

    port = free_port()
    errors = open(tmp_path / "stderr", "w+b")
    env = os.environ | {"DEDUCE_WEB_LIVE_WORKERS": "1"}
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--host", "127.0.0.1", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=errors, env=env)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            wait_until_serving(client, server, errors)
            client.post("/api/next", json={"game": "wordle", "history": [{"guess": "CRANE", "feedback": "RRRRR"}]})
        outcome = web_load.run_load(f"http://127.0.0.1:{port}", clients=8, seconds=5.0)
    finally:
        server.terminate()
        server.wait(timeout=30)
        errors.close()
    report = "\n".join(outcome.lines())
    assert outcome.results and outcome.of(web_load.LIVE) and outcome.served(web_load.LIVE), report
    assert all(status in (200, 503) for _, status, _ in outcome.results), report


def test_budgets_shrink_under_load():
    """A computation that starts with requests refused lately gets a share of its budget (before: the whole
    budget whatever the load); its answer off the tree comes from a solver of that budget, and is not kept
    as the request's answer."""
    assert [admission.share_for(waiting, 2) for waiting in (0, 1, 2, 6, 100)] == [1.0, 0.5, 0.5, 0.25, 0.125]
    pool = admission.LivePool(workers=1, queue=0, seconds=0.1)
    gate, shares = threading.Event(), []

    async def scenario():
        held = asyncio.ensure_future(pool.run(lambda: gate.wait(PATIENCE) and shares.append(admission.share())))
        while not pool._running:
            await asyncio.sleep(0.01)
        refused = 0
        for _ in range(4):
            try:
                await pool.run(lambda: None)
            except admission.Busy:
                refused += 1
        gate.set()
        await held
        await pool.run(lambda: shares.append(admission.share()))
        return refused

    assert asyncio.run(scenario()) == 4
    assert shares[0] == 1.0 and shares[1] < 1.0
    key = service.resolve("mastermind", None)
    steps = service.parse_steps(key, [{"guess": "1234", "feedback": [0, 1]}])
    light = service.next_guess(key, steps, 0, 0, budget=0.125)
    assert light["guess"] and light["source"] in ("live", "book") and light["remaining"] > 1
