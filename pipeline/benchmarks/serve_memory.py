"""`make bench` section `servemem`: the resident memory of `deduce serve` (needs the web extra).

Printed: the server's resident memory (`ps`, the process and any children) after start; after one
off-tree `POST /api/next` of each game in OFF_TREE, in turn; then its peak, sampled every 0.2 s, while
CLIENTS clients send LOAD_REQUESTS off-tree requests with `top` 5 (a ranking: live work) after a random
first guess and feedback of every game (fixed seed), and the answers' statuses (503: the live pool and
its queue were full). The goals (500 MB after every game, 1 GB under load) are on the documentation's
benchmarks page.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from pipeline.benchmarks.timing import free_port
from solver.core.registry import get_game

# (game, variant or None, guess, feedback): one state off the tree of each game
OFF_TREE = (("wordle", None, "CRANE", "RYRGR"), ("wordle", "hard", "CRANE", "RYRGR"),
            ("wordle", None, "GOMBO", "RRRRR"), ("mastermind", None, "1234", [0, 1]), ("bulls", None, "5678", [0, 1]),
            ("cards", "n2", "2C 3D", [0, 0, 1, 0, 0]),
            ("cards", "n3", "2C 3D 4H", [0, 0, 0, 3, 3]), ("cards", "n4", "2C 3D 4H 5S", [0, 0, 1, 3, 3]),
            ("battleship", None, "B2-C3-D4", [0, 0, 0]))
LOAD_GAMES = (("wordle", None), ("wordle", "hard"), ("mastermind", None), ("bulls", None), ("cards", "n2"),
              ("cards", "n3"), ("cards", "n4"), ("battleship", None), ("wordle", "normal-all-words"))
CLIENTS, LOAD_REQUESTS = 8, 48


def resident_mb(pid: int) -> float:
    """Return the resident memory of process `pid` and its children, in MiB."""
    out = subprocess.run(["ps", "-o", "rss=", "--ppid", str(pid), "-p", str(pid)], capture_output=True,
                         text=True).stdout.split()
    return sum(int(kb) for kb in out) / 1024


def post(port: int, body: dict) -> int | str:
    """Return the status of `POST /api/next` with `body` (or the error's text)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/next", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=600) as answer:
            return answer.status
    except urllib.error.HTTPError as err:
        return err.code
    except OSError as err:
        return type(err).__name__


def _body(name: str, variant: str | None, guess: str, feedback, top: int = 0) -> dict:
    body = {"game": name, "history": [{"guess": guess, "feedback": feedback}], "top": top}
    return body | ({"variant": variant} if variant else {})


def load_bodies(seed: int = 0) -> list[dict]:
    """Return LOAD_REQUESTS request bodies: a random first guess of each game in turn, its feedback against a
    random answer, top 5."""
    rng = random.Random(seed)
    out = []
    for i in range(LOAD_REQUESTS):
        name, variant = LOAD_GAMES[i % len(LOAD_GAMES)]
        game = get_game(name, variant)
        guess, target = rng.randrange(game.n_guesses), int(game.target_index[rng.randrange(game.n_targets)])
        feedback = game.decode(game.code(guess, target))
        marks = feedback if isinstance(feedback, str) else list(feedback)
        out.append(_body(name, variant, game.labels[guess], marks, 5))
    return out


def bench_serve_memory() -> None:
    """Print the figures of the module docstring."""
    try:
        import fastapi  # noqa: F401  (only checked for: the server runs in a process of its own)
    except ImportError:
        print("servemem: skipped, the web extra is not installed (pip install '.[web]')")
        return
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--host", "127.0.0.1", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        time.sleep(2.0)  # the server warms its kernels in the background after start
        print(f"servemem after start: {resident_mb(server.pid):.0f} MB", flush=True)
        for name, variant, guess, feedback in OFF_TREE:
            status = post(port, _body(name, variant, guess, feedback))
            print(f"servemem after {name} {variant or ''} {guess}: {resident_mb(server.pid):.0f} MB (status {status})",
                  flush=True)
        bodies, statuses, peak, done = load_bodies(), {}, [0.0], threading.Event()
        lock = threading.Lock()

        def watch() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], resident_mb(server.pid))
                time.sleep(0.2)

        def client(k: int) -> None:
            for body in bodies[k::CLIENTS]:
                status = post(port, body)
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        began = time.perf_counter()
        clients = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
        done.set()
        watcher.join()
        print(f"servemem under load ({CLIENTS} clients, {LOAD_REQUESTS} off-tree rankings, "
              f"{time.perf_counter() - began:.0f} s; statuses {dict(sorted(statuses.items(), key=str))}): "
              f"peak {peak[0]:.0f} MB, after {resident_mb(server.pid):.0f} MB", flush=True)
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    bench_serve_memory()
