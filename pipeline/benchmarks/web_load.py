"""`make bench` section `webload`: `deduce serve` (its default limits) under a crowd of mixed clients over
loopback (127.0.0.1 only; needs the web extra and httpx).

CLIENTS clients for SECONDS, each on a connection of its own, send one request at a time, each drawn from
MIX (fixed seed, fresh histories: nothing memoised), and wait THINK seconds between two (as told by
Retry-After after a 503, at most DEADLINE): answers the tree or a check gives at once (`tree`, `check`,
`feedback`) and live work (`next`: an off-tree guess of one of NEXT_GAMES, Wordle's with `top` 5 as the
coach asks; `review`: a Wordle game; `dordle`: /api/boards/next after a first guess). Printed per kind: sent,
served (200; of them, the quick answers the live pool's refusal gave, marked `busy`), refused (503), other
statuses, and the seconds of the served (median, p99, max); for the live kinds together the share served
(quick and full) and the p99; the slowest answer or refusal of any kind; the server's
resident memory (`ps`, with any children) after start, at its peak (sampled every 0.2 s) and idle
IDLE_AFTER seconds after the load. The goals (docs, "The web page"): every request answered or refused
within DEADLINE, half the live requests served with p99 within 5 s, peak within 1 GB, idle within 1.3 times
the memory after start. `run_load` is also the test's (tests/test_web_load.py), smaller.
"""
from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

from pipeline.benchmarks.serve_memory import resident_mb
from pipeline.benchmarks.timing import free_port, quantile, wait_until_serving
from solver.core.registry import get_game

CLIENTS, SECONDS = 40, 120.0
THINK = (0.5, 2.0)  # seconds a client waits between two requests (uniform)
DEADLINE = 10.0  # seconds: every request answered or refused within this (the client gives up at 6 x)
MIX = (("tree", 25), ("check", 15), ("feedback", 10), ("next", 25), ("review", 12), ("dordle", 13))  # weights
LIVE = ("next", "review", "dordle")
NEXT_GAMES = (("wordle", None), ("wordle", "hard"), ("mastermind", None), ("bulls", None), ("cards", "n2"),
              ("cards", "n3"), ("battleship", None))
WORDLE_OPENER = "SALET"  # the tree's first guess: `tree` asks its children
IDLE_AFTER = 5.0  # seconds after the load before the idle memory is read
START = 2.0  # seconds after the server answers before its memory is read (it warms its kernels meanwhile)


@dataclass
class Outcome:
    """What the clients got: (kind, status or error name, seconds) per request, and how long they ran."""

    results: list[tuple[str, int | str, float]] = field(default_factory=list)
    seconds: float = 0.0
    quick: dict[str, int] = field(default_factory=dict)  # kind -> answers served as quick ones (`busy`)

    def of(self, kinds) -> list[tuple[str, int | str, float]]:
        return [r for r in self.results if r[0] in kinds]

    def served(self, kinds) -> list[float]:
        """Return the seconds of the requests of `kinds` answered 200."""
        return [s for _, status, s in self.of(kinds) if status == 200]

    def slowest(self) -> float:
        """Return the most seconds any request took to be answered or refused."""
        return max((s for _, _, s in self.results), default=0.0)

    def lines(self) -> list[str]:
        """Return the figures of the module docstring, one kind a line, then the live kinds together."""
        out = []
        for kind, _ in MIX:
            rows = self.of([kind])
            served = self.served([kind])
            statuses: dict = {}
            for _, status, _ in rows:
                statuses[status] = statuses.get(status, 0) + 1
            others = {k: v for k, v in statuses.items() if k not in (200, 503)}
            timing = (f"median {quantile(served, 0.5):.2f} s, p99 {quantile(served, 0.99):.2f} s, "
                      f"max {max(served):.2f} s"
                      if served else "none served")
            quick = f" ({self.quick[kind]} of them quick answers, the pool being full)" if self.quick.get(kind) else ""
            out.append(f"{kind}: {len(rows)} sent, {len(served)} served{quick} ({timing}), {statuses.get(503, 0)} "
                       f"refused 503" + (f", other {others}" if others else ""))
        live, served = self.of(LIVE), self.served(LIVE)
        share = len(served) / len(live) if live else 0.0
        quick = sum(self.quick.values())
        out.append(f"live (next, review, dordle): {len(served)} of {len(live)} served ({share:.0%}; {quick} quick "
                   f"answers, {len(served) - quick} full), p99 "
                   + (f"{quantile(served, 0.99):.2f} s" if served else "-")
                   + f"; slowest answer or refusal of any kind {self.slowest():.2f} s")
        return out


class Bodies:
    """Fresh request bodies of each kind (a seeded generator: the same run each time)."""

    def __init__(self, seed: int, tree_feedback: list[str]):
        self.rng, self.tree_feedback = random.Random(seed), tree_feedback
        self.wordle = get_game("wordle", None)

    def _word(self) -> int:
        return self.rng.randrange(self.wordle.n_guesses)

    def _answer(self, game=None) -> int:
        game = game or self.wordle
        return int(game.target_index[self.rng.randrange(game.n_targets)])

    def _step(self, game, guess: int, target: int) -> dict:
        value = game.decode(game.code(guess, target))
        return {"guess": game.labels[guess], "feedback": value if isinstance(value, str) else [int(v) for v in value]}

    def make(self, kind: str) -> tuple[str, dict]:
        """Return (path, body) of a request of `kind`."""
        game, rng = self.wordle, self.rng
        if kind == "tree":
            return "/api/next", {"game": "wordle", "history": [
                {"guess": WORDLE_OPENER, "feedback": rng.choice(self.tree_feedback)}]}
        if kind in ("check", "feedback"):
            history = [self._step(game, self._word(), self._answer())]
            body = {"game": "wordle", "guess": game.labels[self._word()], "history": history}
            if kind == "feedback":
                body["target"] = game.labels[self._answer()]
            return f"/api/{kind}", body
        if kind == "next":
            name, variant = rng.choice(NEXT_GAMES)
            other = get_game(name, variant)
            guess, target = rng.randrange(other.n_guesses), self._answer(other)
            while other.code(guess, target) == other.win_code:
                guess = rng.randrange(other.n_guesses)
            body = {"game": name, "history": [self._step(other, guess, target)], "top": 5 if name == "wordle" else 0}
            return "/api/next", body | ({"variant": variant} if variant else {})
        if kind == "review":
            answer = self._answer()
            guesses = [game.labels[self._word()] for _ in range(rng.randint(2, 4))] + [game.labels[answer]]
            return "/api/review", {"game": "wordle", "answer": game.labels[answer], "guesses": guesses}
        if kind == "dordle":
            targets = rng.sample(range(game.n_targets), 2)
            guess = game.index_of("TRACE") if rng.random() < 0.5 else self._word()
            codes = [game.code(guess, int(game.target_index[t])) for t in targets]
            while game.win_code in codes:
                guess = self._word()
                codes = [game.code(guess, int(game.target_index[t])) for t in targets]
            return "/api/boards/next", {"boards": 2, "candidates": 0, "history": [
                {"guess": game.labels[guess], "feedback": [game.decode(c) for c in codes]}]}
        raise ValueError(f"unknown kind {kind!r}")


async def _client(url: str, bodies: Bodies, stop: float, outcome: Outcome, rng: random.Random) -> None:
    import httpx  # defers httpx (a test extra) to the web sections

    kinds, weights = zip(*MIX)
    async with httpx.AsyncClient(base_url=url, timeout=6 * DEADLINE) as client:
        await asyncio.sleep(rng.uniform(*THINK))  # the clients arrive spread out
        while time.perf_counter() < stop:
            kind = rng.choices(kinds, weights)[0]
            path, body = bodies.make(kind)
            began = time.perf_counter()
            try:
                response = await client.post(path, json=body)
                status: int | str = response.status_code
            except httpx.HTTPError as err:
                status, response = type(err).__name__, None
            outcome.results.append((kind, status, time.perf_counter() - began))
            if status == 200 and kind in LIVE and response.json().get("busy"):
                outcome.quick[kind] = outcome.quick.get(kind, 0) + 1
            wait = rng.uniform(*THINK)
            if status == 503 and response is not None:
                wait = min(float(response.headers.get("retry-after", wait)), DEADLINE)
            await asyncio.sleep(wait)


def run_load(url: str, clients: int = CLIENTS, seconds: float = SECONDS, seed: int = 58) -> Outcome:
    """Return what `clients` clients of the module docstring got from the server at `url` in `seconds`."""
    import httpx  # defers httpx (a test extra) to the web sections

    with httpx.Client(base_url=url, timeout=120) as client:
        tree = client.post("/api/tree", json={"game": "wordle"}).json()
    feedback = [child["feedback"] for child in tree["children"] if not child["win"]]
    bodies, outcome = Bodies(seed, feedback), Outcome()

    async def crowd() -> None:
        stop = time.perf_counter() + seconds
        await asyncio.gather(*(_client(url, bodies, stop, outcome, random.Random(seed * 1000 + k))
                               for k in range(clients)))

    began = time.perf_counter()
    asyncio.run(crowd())
    outcome.seconds = time.perf_counter() - began
    return outcome


def bench_web_load(clients: int = CLIENTS, seconds: float = SECONDS) -> None:
    """Print the figures of the module docstring."""
    try:
        import fastapi  # noqa: F401  (only checked for: the server runs in a process of its own)
        import httpx  # an extra (web, test): the section skips without it
    except ImportError as err:
        print(f"webload: skipped, {err.name} is not installed (pip install '.[web]' httpx)")
        return
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    errors = tempfile.TemporaryFile()
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--host", "127.0.0.1", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=errors)
    try:
        with httpx.Client(base_url=url, timeout=120) as client:
            wait_until_serving(client, server, errors)
        time.sleep(START)
        start_mb = resident_mb(server.pid)
        peak, done = [start_mb], threading.Event()

        def watch() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], resident_mb(server.pid))
                time.sleep(0.2)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            outcome = run_load(url, clients, seconds)
        finally:
            done.set()
            watcher.join()
        time.sleep(IDLE_AFTER)
        idle_mb = resident_mb(server.pid)
        print(f"webload: {clients} clients for {outcome.seconds:.0f} s (think {THINK[0]:g}-{THINK[1]:g} s), "
              f"{len(outcome.results)} requests", flush=True)
        for line in outcome.lines():
            print(f"webload: {line}", flush=True)
        print(f"webload: resident memory after start {start_mb:.0f} MB, peak {peak[0]:.0f} MB, idle {IDLE_AFTER:g} s "
              f"after the load {idle_mb:.0f} MB ({idle_mb / start_mb:.2f} x)", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
        errors.close()


if __name__ == "__main__":
    args = sys.argv[1:]
    bench_web_load(int(args[0]) if args else CLIENTS, float(args[1]) if len(args) > 1 else SECONDS)
