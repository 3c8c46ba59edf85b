"""`make bench` section `web`: `deduce serve`'s latency and throughput over loopback (needs the web extra)."""
from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from pipeline.benchmarks.timing import cpu_seconds, free_port, quantile, wait_until_serving
from solver.core.registry import get_game
from solver.core.runtime import get_solver

WEB_SEQUENTIAL, WEB_CONCURRENT, WEB_CLIENTS = 1000, 5000, 50  # requests, requests, clients
WEB_STEP = {"guess": "SALET", "feedback": "RRRRR"}  # on the tree: the largest class after SALET (221 candidates)
WEB_LIVE_CLIENTS, WEB_LIVE_SECONDS = 45, 20.0  # clients asking off-tree cards n4 guesses, for this long
WEB_PROBE_PAUSE = 0.05  # seconds between two on-tree probes while the live clients press
WEB_WARM_TRIES = 20  # games tried to warm the exact live search up


def bench_web() -> None:
    """Print the latency of an on-tree `POST /api/next` (Wordle, one step, top 0) over sequential
    requests, the requests per second of WEB_CLIENTS concurrent clients, and the on-tree latency
    while WEB_LIVE_CLIENTS clients ask off-tree cards n4 guesses (`bench_web_contention`), against
    `deduce serve` (one uvicorn process, its default limits) on a free loopback port."""
    try:
        import fastapi  # noqa: F401
        import httpx  # defers httpx (a test extra) to this section
        import uvicorn  # noqa: F401
    except ImportError as err:
        print(f"web: skipped, {err.name} is not installed (pip install '.[web]' httpx)")
        return
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    errors = tempfile.TemporaryFile()  # the server's stderr, shown if it does not start
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=errors)
    body = {"game": "wordle", "history": [WEB_STEP], "top": 0}
    try:
        with httpx.Client(base_url=url, timeout=120) as client:
            start = time.perf_counter()
            wait_until_serving(client, server, errors)
            print(f"web: server answering /api/games after {time.perf_counter() - start:.1f} s", flush=True)
            client.post("/api/next", json={"game": "wordle"}).raise_for_status()  # the kernels compiled
            children = client.post("/api/tree", json={"game": "wordle"}).json()["children"]
            cold = []
            for child in children:  # each history asked once: computed, not memoised
                step = {"guess": WEB_STEP["guess"], "feedback": child["feedback"]}
                begin = time.perf_counter()
                client.post("/api/next", json={"game": "wordle", "history": [step]}).raise_for_status()
                cold.append(time.perf_counter() - begin)
            print(f"web: first POST /api/next of each of the {len(cold)} on-tree histories of one step (wordle): "
                  f"median {statistics.median(cold) * 1e3:.2f} ms, max {max(cold) * 1e3:.2f} ms", flush=True)
            for _ in range(50):  # warm the connection and the code paths
                client.post("/api/next", json=body).raise_for_status()
            latencies = []
            for _ in range(WEB_SEQUENTIAL):
                begin = time.perf_counter()
                client.post("/api/next", json=body).raise_for_status()
                latencies.append(time.perf_counter() - begin)
        latencies.sort()
        print(f"web: on-tree POST /api/next (wordle, 1 step, top 0), {WEB_SEQUENTIAL} sequential requests: "
              f"median {statistics.median(latencies) * 1e3:.2f} ms, "
              f"p99 {latencies[int(0.99 * len(latencies))] * 1e3:.2f} ms", flush=True)

        async def hammer() -> float:
            async def one_client(count: int) -> None:  # each client its own connection, as browsers are
                async with httpx.AsyncClient(base_url=url, timeout=120) as client:
                    for _ in range(count):
                        (await client.post("/api/next", json=body)).raise_for_status()

            begin = time.perf_counter()
            await asyncio.gather(*(one_client(WEB_CONCURRENT // WEB_CLIENTS) for _ in range(WEB_CLIENTS)))
            return time.perf_counter() - begin

        server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
        seconds = asyncio.run(hammer())
        server_cpu, client_cpu = cpu_seconds(server.pid) - server_cpu, time.process_time() - client_cpu
        print(f"web: {WEB_CLIENTS} concurrent clients, {WEB_CONCURRENT} requests: {WEB_CONCURRENT / seconds:.0f} "
              f"requests/s ({seconds:.2f} s; CPU per request: server {server_cpu / WEB_CONCURRENT * 1e3:.2f} ms, "
              f"httpx clients {client_cpu / WEB_CONCURRENT * 1e3:.2f} ms)", flush=True)
        bench_web_contention(url, [child["feedback"] for child in children])
    finally:
        server.terminate()
        server.wait(timeout=30)
        errors.close()


def _off_tree_cards(rng: np.random.Generator) -> dict:
    """Return a fresh /api/next body of cards n4 whose first guess is not the tree's (a live guess), and
    the target its feedback was scored against."""
    game = get_game("cards", "n4")
    opener = int(get_solver(game).tree.guess[0]) if get_solver(game).tree is not None else -1
    row = opener
    while row == opener:
        row = int(rng.integers(game.n_guesses))
    target = int(game.target_index[rng.integers(game.n_targets)])
    feedback = [int(v) for v in game.decode(game.code(row, target))]
    return {"game": "cards", "variant": "n4", "history": [{"guess": game.labels[row], "feedback": feedback}],
            "top": 0, "target": game.labels[target]}  # "target": the bench's own, taken out before sending


def bench_web_contention(url: str, feedbacks: list) -> None:
    """Print the latency of on-tree `POST /api/next` (Wordle, fresh two-step histories: not memoised)
    while WEB_LIVE_CLIENTS clients ask off-tree cards n4 guesses (each a fresh history: live work)
    for WEB_LIVE_SECONDS, and what those clients got: answers, or 503 with Retry-After (then they wait
    as told)."""
    import httpx  # defers httpx (a test extra) to this section

    rng = np.random.default_rng(22)
    game = get_game("cards", "n4")
    with httpx.Client(base_url=url, timeout=600) as client:
        begin = time.perf_counter()
        # a first step off the tree (the greedy rule's kernels), a second to at most 2000 candidates (the exact
        # search's kernels, loaded, or compiled, outside its budget: once, but a long once)
        for _ in range(WEB_WARM_TRIES):
            first = _off_tree_cards(rng)
            target = game.index_of(first.pop("target"))
            guess = client.post("/api/next", json=first).json()["guess"]
            code = game.code(game.index_of(guess), target)
            if code == game.win_code:
                continue
            history = first["history"] + [{"guess": guess, "feedback": [int(v) for v in game.decode(code)]}]
            if 1 < client.post("/api/next", json={**first, "history": history}).json()["remaining"] <= 2000:
                break
        print(f"web: first off-tree POSTs /api/next of cards n4 (load the live kernels, the exact search's too): "
              f"{time.perf_counter() - begin:.1f} s", flush=True)
        probes = []  # on-tree two-step histories of Wordle, each asked once while the live clients press
        for feedback in feedbacks:
            step = {"guess": WEB_STEP["guess"], "feedback": feedback}
            for child in client.post("/api/tree", json={"game": "wordle", "path": [step]}).json()["children"]:
                if not child["win"]:
                    probes.append([step, {"guess": client.post("/api/next", json={
                        "game": "wordle", "history": [step]}).json()["guess"], "feedback": child["feedback"]}])
    rng.shuffle(probes)
    answered, refused, retry_after, probe_times, failures = [], 0, set(), [], []

    async def press() -> None:
        stop = time.perf_counter() + WEB_LIVE_SECONDS

        async def live_client() -> None:
            nonlocal refused
            async with httpx.AsyncClient(base_url=url, timeout=300) as client:
                while time.perf_counter() < stop:
                    begin = time.perf_counter()
                    body = _off_tree_cards(rng)
                    del body["target"]
                    response = await client.post("/api/next", json=body)
                    if response.status_code == 503:
                        refused += 1
                        wait = float(response.headers.get("retry-after", "1"))
                        retry_after.add(wait)
                        await asyncio.sleep(wait)
                    elif response.status_code == 200:
                        answered.append(time.perf_counter() - begin)
                    else:
                        failures.append(f"{response.status_code} {response.text[:100]}")

        async def probe() -> None:
            await asyncio.sleep(1.0)  # the live clients' first requests are in
            async with httpx.AsyncClient(base_url=url, timeout=300) as client:
                for history in probes:
                    if time.perf_counter() >= stop:
                        break
                    begin = time.perf_counter()
                    response = await client.post("/api/next", json={"game": "wordle", "history": history})
                    if response.status_code == 200:
                        probe_times.append(time.perf_counter() - begin)
                    else:
                        failures.append(f"on-tree {response.status_code} {response.text[:100]}")
                    await asyncio.sleep(WEB_PROBE_PAUSE)

        await asyncio.gather(probe(), *(live_client() for _ in range(WEB_LIVE_CLIENTS)))

    began = time.perf_counter()
    asyncio.run(press())
    seconds = time.perf_counter() - began
    if probe_times:
        print(f"web: on-tree POST /api/next (wordle, fresh 2-step histories) while {WEB_LIVE_CLIENTS} clients ask "
              f"off-tree cards n4 guesses: {len(probe_times)} requests, median "
              f"{statistics.median(probe_times) * 1e3:.1f} ms, p90 {quantile(probe_times, 0.9) * 1e3:.1f} ms, "
              f"max {max(probe_times) * 1e3:.1f} ms", flush=True)
    live = (f"median {statistics.median(answered):.2f} s, max {max(answered):.2f} s" if answered else "none")
    print(f"web: the {WEB_LIVE_CLIENTS} live clients in {seconds:.1f} s: {len(answered)} answered ({live}), "
          f"{refused} refused 503 (Retry-After {', '.join(f'{w:g}' for w in sorted(retry_after)) or '-'} s)"
          + (f", {len(failures)} other answers: {failures[0]}" if failures else ""), flush=True)
