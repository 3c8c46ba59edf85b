"""The web server's live work, in process (`solver.web.admission`): a bounded pool that tree answers never
wait for, memory handed back when idle, work stopped when its client disconnects and a cancelled proof
stopped at its next node. Bad request bodies are in test_web_api; the server's own limits on slow clients
in test_web_server_limits."""
from __future__ import annotations

import asyncio
import json
import math
import threading
import time

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install '.[web]' (or '.[test]')")
httpx = pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx: pip install '.[test]'")

from solver.core.registry import get_game
from solver.core.runtime import Solver
from solver.core.search.live import Cancel, ExactLive, Stopped, check_running
from solver.web import admission, api, service
from solver.web.app import create_app
from tests.helpers import assert_json_error, held_pool_app

LIVE_CLIENTS = 40  # as many as the thread pool that answered everything before had threads
PATIENCE = 30.0  # seconds a held live computation waits to be let go: only reached when tree answers wait for it


# -- live work in its own pool ---------------------------------------------------------------------
def test_tree_and_live_are_told_apart():
    wordle, cards = service.resolve("wordle", None), service.resolve("cards", "n2")
    game = get_game("wordle", None)
    salet, crane = game.index_of("SALET"), game.index_of("CRANE")
    assert service.on_tree(wordle, ())
    assert service.on_tree(wordle, ((salet, game.encode("RRYRG")),))
    assert service.on_tree(wordle, ((salet, game.win_code),))  # the win needs no guess
    assert not service.on_tree(wordle, ((crane, game.encode("RRYRG")),))  # not the tree's opener
    assert service.on_tree(cards, ())


def test_the_live_pool_hands_free_memory_back_when_idle(monkeypatch):
    heap = admission.Heap()
    if heap._libc is None:
        pytest.skip("not glibc: the heap is left as it is")
    assert heap.limit_arenas(admission.HEAP_ARENAS) and isinstance(heap.trim(), bool)
    trims = []
    monkeypatch.setattr(admission.Heap, "trim", lambda self: trims.append(1) or True)
    pool = admission.LivePool(workers=2, queue=0)
    gate = threading.Event()

    async def two():
        first = asyncio.ensure_future(pool.run(lambda: gate.wait(30)))
        second = asyncio.ensure_future(pool.run(lambda: 1))
        assert await second == 1
        busy = list(trims)  # the other one still runs: not idle
        gate.set()
        await first
        return busy

    assert asyncio.run(two()) == []
    deadline = time.monotonic() + 10
    while not trims and time.monotonic() < deadline:  # the release runs in the worker's done callback
        time.sleep(0.01)
    assert trims == [1]


def _off_tree_mastermind(count: int) -> list[dict]:
    """`count` distinct consistent histories of Mastermind that leave the tree at once."""
    game = get_game("mastermind", None)
    target, opener = int(game.target_index[7]), game.index_of("1123")
    rows = [row for row in range(game.n_guesses) if row not in (opener, target)][:count]  # no win: a guess to choose
    return [{"game": "mastermind", "history": [{"guess": game.labels[row], "feedback": list(game.decode(
        game.code(row, target)))}]} for row in rows]


def test_live_work_is_bounded_and_never_holds_up_tree_answers(monkeypatch):
    """With LIVE_CLIENTS live computations held, a tree answer comes at once, before any is let go;
    one live request runs, two wait, the others are refused by the live pool and get the quick answer
    (`busy`), never memoised. (Before: every request shared one pool of 40 threads, which the held ones
    filled: the tree answer waited for them.)"""
    monkeypatch.setenv("DEDUCE_WEB_LIVE_WORKERS", "1")
    monkeypatch.setenv("DEDUCE_WEB_LIVE_QUEUE", "2")
    app = create_app()
    real = service.next_guess
    canned = real(service.resolve("mastermind", None), (), 0, 50)  # a valid answer for the held requests
    release, lock, started, gave_up = threading.Event(), threading.Lock(), [], []

    def held(key, steps, top, shown, *budget):
        if key[0] != "mastermind" or budget == (0.0,):  # another game, or a refused one's quick answer
            return real(key, steps, top, shown, *budget)
        with lock:
            started.append(steps)
        if not release.wait(PATIENCE):
            gave_up.append(steps)
        return canned

    monkeypatch.setattr(service, "next_guess", held)
    api.answers._items.clear()  # nothing memoised: every request below is computed

    async def scenario():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=120) as client:
            live = [asyncio.create_task(client.post("/api/next", json=body))
                    for body in _off_tree_mastermind(LIVE_CLIENTS)]
            pool = getattr(app.state, "live", None)
            while True:  # every live request running, waiting in the pool, or answered
                waiting = pool.admitted - len(started) if pool is not None else 0
                if len(started) + waiting + sum(task.done() for task in live) >= LIVE_CLIENTS:
                    break
                await asyncio.sleep(0.01)
            tree = await client.post("/api/next", json={"game": "wordle", "history": [
                {"guess": "SALET", "feedback": "YRRYR"}]})
            gave_up_before_tree = len(gave_up)
            release.set()
            return tree, gave_up_before_tree, await asyncio.gather(*live)

    tree, gave_up_before_tree, answers = asyncio.run(scenario())
    assert tree.status_code == 200 and tree.json()["source"] == "tree"
    assert gave_up_before_tree == 0, "the tree answer waited for the live computations"
    outcomes = [(response.status_code, response.json().get("busy")) for response in answers]
    assert outcomes.count((200, False)) == 3, outcomes  # one ran, two waited
    quick = outcomes.count((200, True))  # the quick lane's (bounded too): the others refused
    assert quick >= admission.QUICK_WORKERS + admission.QUICK_QUEUE and outcomes.count((503, None)) == \
        LIVE_CLIENTS - 3 - quick, outcomes
    for response in answers:
        if response.status_code == 503:
            message = assert_json_error(response, 503, None)
            assert "busy" in message and int(response.headers["retry-after"]) >= 1
    assert app.state.live.admitted == 0 and app.state.quick.admitted == 0
    assert all(key[1].startswith('{"game":"wordle"') for key in api.answers._items), "a quick answer was memoised"


def test_a_refused_guess_gets_the_quick_answer_and_a_review_a_503(monkeypatch):
    """With the live pool full (one worker held, no queue), an off-tree guess is answered at once by the
    greedy rule, marked `busy` and not proven, and is not memoised: asked again once the pool is free, it
    gets the full answer. A review has no quick answer: 503 with Retry-After. The quick lane full too: 503."""
    app, release, started = held_pool_app(monkeypatch, PATIENCE)  # the one mastermind request holds the worker
    guess = {"game": "wordle", "history": [{"guess": "QAJAQ", "feedback": "RRRRR"}], "top": 3}
    review = {"game": "wordle", "guesses": ["QAJAQ", "CRANE"], "answer": "CRANE"}

    async def scenario():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=120) as client:
            holder = asyncio.create_task(client.post("/api/next", json=_off_tree_mastermind(1)[0]))
            while not started.is_set():
                await asyncio.sleep(0.01)
            quick = await client.post("/api/next", json=guess)
            refused = await client.post("/api/review", json=review)
            lane = app.state.quick.run

            async def full_lane(*args, **kwargs):
                raise admission.Busy(admission.QUICK_WORKERS + admission.QUICK_QUEUE, 1)

            app.state.quick.run = full_lane  # the quick lane full as well
            both_full = await client.post("/api/next", json={**guess, "top": 4})
            app.state.quick.run = lane
            release.set()
            await holder
            full = await client.post("/api/next", json=guess)
            return quick, refused, both_full, full

    quick, refused, both_full, full = asyncio.run(scenario())
    assert quick.status_code == 200, quick.text
    answer = quick.json()
    assert answer["busy"] and not answer["exact"] and answer["source_text"].startswith("a quick answer"), answer
    assert answer["guess"] and answer["remaining"] > 1
    for response in (refused, both_full):
        message = assert_json_error(response, 503, None)
        assert "busy" in message and int(response.headers["retry-after"]) >= 1
    assert full.status_code == 200 and not full.json()["busy"], full.text  # computed now: the quick one was not kept


def test_the_kept_sub_games_are_dropped_once_the_pool_stays_idle(monkeypatch):
    """A live pool that releases when idle drops the live search's kept sub-games IDLE_RELEASE seconds after
    its last computation, not while one runs; a pool that does not (the quick lane) has no such thread."""
    monkeypatch.setattr(admission, "IDLE_RELEASE", 0.2)
    drops = []  # (thread, when): the pools of other tests' apps release too, each in a thread of its own
    monkeypatch.setattr(admission, "drop_kept_subgames", lambda: drops.append((threading.current_thread().name,
                                                                                time.monotonic())) or 1)
    pool, keeping = admission.LivePool(1, 0, release_when_idle=True), admission.LivePool(1, 0)
    mine = f"deduce-live-idle-{id(pool):x}"
    ran = []

    def compute():
        ran.append(time.monotonic())
        time.sleep(0.4)  # longer than IDLE_RELEASE: nothing is dropped while a computation runs
        ran.append(time.monotonic())

    async def run():
        await pool.run(compute)

    asyncio.run(run())
    deadline = time.monotonic() + 5
    while not any(name == mine for name, _ in drops) and time.monotonic() < deadline:
        time.sleep(0.05)
    when = [at for name, at in drops if name == mine]
    assert len(when) == 1 and when[0] >= ran[1] + 0.15, (when, ran)
    assert not any("idle" in thread.name for thread in keeping._threads)


def test_every_source_of_a_value_is_one_the_api_describes():
    """Each source a value can have (`solver.analysis.values`) is one of the API's (a value played out live
    was answered 500 before: its source was missing from the schema)."""
    import typing

    from solver.analysis import values
    from solver.web.models import Value

    sources = {values.TREE, values.BOOK, values.AHEAD, values.RANKING, values.SEARCH, values.PLAYED, values.RULE,
               values.ESTIMATED}
    assert sources == set(typing.get_args(Value.model_fields["source"].annotation))


# -- live work cancelled when the client goes away ---------------------------------------------------
def test_live_work_stops_when_the_client_disconnects(monkeypatch):
    """A live computation whose client disconnects is cancelled: its next live search refuses to run
    (as a real search would be stopped at its next node), its worker is free, nothing is memoised.
    Spoken to in raw ASGI, whose receive() tells the app of the disconnect."""
    monkeypatch.setenv("DEDUCE_WEB_LIVE_WORKERS", "1")
    monkeypatch.setenv("DEDUCE_WEB_LIVE_QUEUE", "0")
    app = create_app()
    started, outcome = threading.Event(), []

    def endless(key, steps, top, shown, *budget):  # live work that goes on until it is stopped
        started.set()
        deadline = time.monotonic() + PATIENCE
        try:
            while time.monotonic() < deadline:
                check_running()  # what every live search does before it starts
                time.sleep(0.01)
        except Stopped:
            outcome.append(time.monotonic())
            raise
        outcome.append(None)
        raise AssertionError("never stopped")

    monkeypatch.setattr(service, "next_guess", endless)
    api.answers._items.clear()
    body = json.dumps(_off_tree_mastermind(1)[0]).encode()

    async def scenario():
        gone, sent = asyncio.Event(), []

        async def receive():
            if not sent:
                sent.append(True)
                return {"type": "http.request", "body": body, "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            pass

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": "/api/next", "raw_path": b"/api/next", "query_string": b"",
                 "root_path": "", "headers": [(b"content-type", b"application/json"),
                                              (b"content-length", str(len(body)).encode())],
                 "client": ("127.0.0.1", 9), "server": ("127.0.0.1", 80)}
        request = asyncio.create_task(app(scope, receive, send))
        while not started.is_set():
            await asyncio.sleep(0.01)
        gone.set()
        await asyncio.wait_for(request, PATIENCE)

    asyncio.run(scenario())
    assert outcome and outcome[0] is not None, "the live work went on after the client left"  # not its deadline
    assert app.state.live.admitted == 0
    assert not api.answers._items, "a cancelled request's outcome was memoised"


def test_a_cancelled_search_stops_at_its_next_node():
    """A real proof (minutes long: SMOGS=RRRRR) in a worker thread under a `Cancel`, cancelled once it has
    reported progress unfinished, ends with Stopped, and the same searcher then answers a new request normally."""
    game = get_game("wordle", None)
    solver = Solver(game)
    _, root = solver.initial_guess()
    state = solver.advance(root, game.index_of("SMOGS"), game.encode("RRRRR"))
    live = ExactLive(game)
    cancel, outcome, running = Cancel(), [], threading.Event()
    live.progress = lambda seconds, work, finished: None if finished else running.set()

    def prove():
        with cancel.scope():
            try:
                outcome.append(live.choose(state.candidate_positions, state.history, math.inf))
            except Stopped:
                outcome.append("stopped")

    worker = threading.Thread(target=prove)
    worker.start()
    assert running.wait(PATIENCE) and not outcome, "the proof never reported progress"
    cancel.cancel()
    worker.join(PATIENCE)
    assert not worker.is_alive() and outcome == ["stopped"]
    live.progress = None
    after = live.choose(state.candidate_positions, state.history, 0.05)  # not stopped by the old cancel
    assert after is None or after.candidates == state.remaining
