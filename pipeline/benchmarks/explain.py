"""`make bench` section `explain`: what a player waits for around the guesses (issue 57's speed goals).

Three parts, each figure printed beside its goal (warm medians on a quiet machine; printed, never asserted):

* whole `deduce` processes (`startup.run_once`: wall time and peak memory of the child, after one warm-up
  run, RUNS runs): hints with and without `--explain` (goal 0.5 s), `tree --path` (0.5 s), reviews of an
  ordinary game and of lost games (1 s); each run in a process of its own (DEDUCE_RESIDENT=0), then
  through a resident process (`solver.cli.resident`, as at a terminal: started before, ended after);
* the library's `next_guess` after a student's own first guess (not the tree's), for battleship and cards
  n = 3 and n = 4 (1 s, the warm median): in a fresh process of its own per game, the warm calls over
  STATES random states (fixed seeds: a random first guess other than the tree's, a random answer), and
  the first call of a process (its kernels loaded, as a student's script meets it; no goal); and the
  first `cards.initial_guess(4)` of a process (1 s);
* `deduce serve` (one process, its defaults, over loopback, as `web.bench_web` starts it): the 50th and
  95th percentiles of `POST /api/next` as the page's coach asks it (`top` 5) and of `POST /api/review`, over
  distinct requests (each asked once: the server memoises answers) after a warm-up request of each (1 s).

    python -m pipeline.benchmarks explain
"""
from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from pipeline.benchmarks.startup import run_once
from pipeline.benchmarks.timing import free_port, quantile, wait_until_serving

RUNS = 5
HINT_GOAL, REVIEW_GOAL, NEXT_GOAL, WEB_GOAL = 0.5, 1.0, 1.0, 1.0  # seconds
COMMANDS = (  # (label, arguments, goal)
    ("deduce hint wordle ADIEU=RRRRY", ["hint", "wordle", "ADIEU=RRRRY"], HINT_GOAL),
    ("deduce hint wordle CRANE=RYRGR", ["hint", "wordle", "CRANE=RYRGR"], HINT_GOAL),
    ("deduce hint wordle --hard ADIEU=RRRRY", ["hint", "wordle", "--hard", "ADIEU=RRRRY"], HINT_GOAL),
    ("deduce hint wordle --explain SLATE ADIEU=RRRRY", ["hint", "wordle", "--explain", "SLATE", "ADIEU=RRRRY"],
     HINT_GOAL),
    ("deduce hint wordle --explain CRONY CRANE=RYRGR", ["hint", "wordle", "--explain", "CRONY", "CRANE=RYRGR"],
     HINT_GOAL),
    ("deduce hint wordle --hard --explain SLATE", ["hint", "wordle", "--hard", "--explain", "SLATE"], HINT_GOAL),
    ("deduce tree wordle --path ADIEU=RRRRY --depth 1", ["tree", "wordle", "--path", "ADIEU=RRRRY", "--depth", "1"],
     HINT_GOAL),
    ("deduce review wordle ADIEU STERN CHEST --answer CHEST (ordinary, off the tree)",
     ["review", "wordle", "ADIEU", "STERN", "CHEST", "--answer", "CHEST"], REVIEW_GOAL),
    ("deduce review wordle CRANE BURNT --answer BURNT (ordinary)",
     ["review", "wordle", "CRANE", "BURNT", "--answer", "BURNT"], REVIEW_GOAL),
    ("deduce review wordle FUZZY JAZZY MAMMA PUPPY BOBBY KAYAK --answer FLOOR (lost)",
     ["review", "wordle", "FUZZY", "JAZZY", "MAMMA", "PUPPY", "BOBBY", "KAYAK", "--answer", "FLOOR"], REVIEW_GOAL),
    ("deduce review wordle CRANE TOWER POWER LOWER MOWER BOXER --answer ROGER (lost)",
     ["review", "wordle", "CRANE", "TOWER", "POWER", "LOWER", "MOWER", "BOXER", "--answer", "ROGER"], REVIEW_GOAL),
)

STATES = 12  # random off-tree states a game for the library's warm next_guess
LIBRARY_GAMES = (("battleship", None, 571), ("cards", 3, 572), ("cards", 4, 573))  # (module, cards n, seed)
FRESH_PROCESSES = 3  # processes timing the first call of a process


def _verdict(seconds: float, goal: float) -> str:
    return f"goal {goal:g} s: {'met' if seconds <= goal else 'NOT met'}"


def _resident_environment(folder: str) -> dict[str, str]:
    """Return an environment whose commands go to a resident process of its own (`solver.cli.resident`: its
    socket in `folder`, which holds no other), started and serving."""
    env = {**os.environ, "DEDUCE_RESIDENT": "1", "XDG_RUNTIME_DIR": folder}
    run_once(["hint", "wordle"], env)  # starts it
    deadline = time.monotonic() + 300
    while not list(Path(folder).glob("deduce/resident-*.sock")):
        if time.monotonic() > deadline:
            raise SystemExit("the resident process did not start within 300 s")
        time.sleep(0.2)
    return env


def _stop_resident(folder: str) -> None:
    for lock in Path(folder).glob("deduce/resident-*.lock"):  # each holds its resident's process id
        try:
            os.kill(int(lock.read_text().split()[0]), signal.SIGTERM)
        except (OSError, ValueError, IndexError):
            pass


def bench_commands() -> None:
    """Print each command's median and largest wall time over RUNS whole processes, after one warm-up: run
    in a process of their own (DEDUCE_RESIDENT=0), then through a resident process (as at a terminal)."""
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o700)
        try:
            ways = (("own process", {**os.environ, "DEDUCE_RESIDENT": "0"}),
                    ("resident", _resident_environment(folder)))
            for label, argv, goal in COMMANDS:
                for way, env in ways:
                    run_once(argv, env)  # warm-up: the operating system's caches, Numba's
                    walls, peaks = zip(*(run_once(argv, env) for _ in range(RUNS)))
                    median = statistics.median(walls)
                    print(f"explain {label} [{way}]: median {median:.2f} s (max {max(walls):.2f} s over {RUNS} "
                          f"runs), peak {max(peaks):.0f} MB; {_verdict(median, goal)}", flush=True)
        finally:
            _stop_resident(folder)


# -- the library's next_guess off the tree ------------------------------------------------------
def _module_and_game(name: str, n: int | None):
    from solver.games import battleship, cards  # defers the library to the measuring process

    if name == "battleship":
        return battleship, battleship.game(), battleship.initial_guess, battleship._guess_value
    return cards, cards.game(n), (lambda: cards.initial_guess(n)), cards._guess_value


def library_states(name: str, n: int | None, seed: int, count: int) -> list[tuple[str, str]]:
    """Return `count` (first guess, answer) label pairs: a random first guess other than the tree's, a random
    answer that it does not hit (the same for a seed)."""
    from solver.core.runtime import get_solver  # defers the library to the measuring process

    _, game, _, _ = _module_and_game(name, n)
    opener = int(get_solver(game).tree.guess[0])
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        row = int(rng.integers(game.n_guesses))
        target = int(game.target_index[rng.integers(game.n_targets)])
        if row != opener and row != target:
            out.append((game.labels[row], game.labels[target]))
    return out


def measure_library(name: str, n: int | None, seed: int, count: int) -> dict:
    """In this (fresh) process: the seconds of importing the game module and its first `initial_guess`, of the
    first off-tree `next_guess` of the process, then of `count` warm ones (other states); printed as JSON."""
    began = time.perf_counter()
    module, game, initial, value = _module_and_game(name, n)
    _, state = initial()
    opened = time.perf_counter() - began
    states = library_states(name, n, seed, count + 1)
    seconds, sizes, exact = [], [], []
    for guess, answer in states:
        _, state = initial()
        guess_value, answer_value = value(guess), value(answer)
        feedback = module.feedback(answer_value, guess_value)
        start = time.perf_counter()
        _, after = module.next_guess((guess_value, state), feedback)
        seconds.append(time.perf_counter() - start)
        sizes.append(after.remaining)
        exact.append(after.exact_choice is not None)
    return {"open": opened, "first": seconds[0], "warm": seconds[1:], "sizes": sizes[1:], "searched": exact[1:]}


def _title(name: str, n: int | None) -> str:
    return name if n is None else f"cards n={n}"


def bench_library() -> None:
    """Print, per game, the first off-tree `next_guess` of a fresh process (median of FRESH_PROCESSES) and the
    warm ones (median and max of STATES), and the first `cards.initial_guess(4)` of a process."""
    for name, n, seed in LIBRARY_GAMES:
        runs = []
        for run in range(FRESH_PROCESSES):
            code = (f"import json; from pipeline.benchmarks.explain import measure_library; "
                    f"print(json.dumps(measure_library({name!r}, {n!r}, {seed + run}, {STATES if run == 0 else 0})))")
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            runs.append(json.loads(out.splitlines()[-1]))
        first = statistics.median(r["first"] for r in runs)
        warm = runs[0]["warm"]
        searched = sum(runs[0]["searched"])
        print(f"explain library {_title(name, n)}: next_guess after a first guess of the student's own, warm median "
              f"{statistics.median(warm):.2f} s, max {max(warm):.2f} s over {len(warm)} states "
              f"({min(runs[0]['sizes'])}-{max(runs[0]['sizes'])} candidates, {searched} by the exact search); "
              f"{_verdict(statistics.median(warm), NEXT_GOAL)}; the first call of a fresh process (its kernels loaded) "
              f"median {first:.2f} s over {FRESH_PROCESSES} processes, import and initial_guess before it "
              f"{statistics.median(r['open'] for r in runs):.2f} s", flush=True)
    code = ("import time; t = time.perf_counter(); from solver.games import cards; cards.initial_guess(4); "
            "print(time.perf_counter() - t)")
    opened = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
              for _ in range(FRESH_PROCESSES + 1)][1:]  # the first: a warm-up
    print(f"explain library cards.initial_guess(4), a fresh process (import included): median "
          f"{statistics.median(opened):.2f} s, max {max(opened):.2f} s over {len(opened)} processes; "
          f"{_verdict(statistics.median(opened), NEXT_GOAL)}", flush=True)


# -- the web server -------------------------------------------------------------------------------
COACH_OPENERS = ("ADIEU", "CRANE", "AUDIO", "SLATE", "RAISE", "STARE", "ROATE", "TRACE")
WEB_NEXT, WEB_REVIEWS = 40, 30  # distinct requests of each kind
WEB_SEED = 574


def _player_game(game, rng: np.random.Generator, answer: int, opener: str, limit: int = 6) -> list[str]:
    """Return the guesses of a player who opens with `opener` and then plays a random answer still possible."""
    guesses, candidates = [], np.asarray(game.target_index)
    row = game.index_of(opener)
    while len(guesses) < limit:
        guesses.append(game.labels[row])
        if row == answer:
            break
        code = game.code(row, answer)
        candidates = np.array([t for t in candidates if game.code(row, int(t)) == code])
        row = int(candidates[rng.integers(candidates.size)])
    return guesses


def web_requests() -> tuple[list[dict], list[dict]]:
    """Return (the /api/next bodies, the /api/review bodies): coach requests one and two guesses into a game
    (normal and hard mode; the second guess a random answer still possible), and reviews of random players'
    games (a popular opener, then random answers still possible) and of lost games; each distinct."""
    from solver.core.registry import get_game  # defers the library to this section

    rng = np.random.default_rng(WEB_SEED)
    nexts, seen = [], set()
    while len(nexts) < WEB_NEXT:
        variant = "hard" if len(nexts) % 4 == 3 else "normal"
        game = get_game("wordle", variant)
        answer = int(game.target_index[rng.integers(game.n_targets)])
        guesses = _player_game(game, rng, answer, COACH_OPENERS[rng.integers(len(COACH_OPENERS))], 2)
        steps = [{"guess": g, "feedback": "".join(game.decode(game.code(game.index_of(g), answer)))} for g in guesses]
        steps = steps[:1 + len(nexts) % 2]
        key = json.dumps([variant, steps])
        if steps[-1]["feedback"] != "GGGGG" and key not in seen:
            seen.add(key)
            nexts.append({"game": "wordle", "variant": variant, "history": steps, "top": 5, "candidates": 100})
    game = get_game("wordle")
    reviews = [{"game": "wordle", "answer": "FLOOR", "guesses": ["FUZZY", "JAZZY", "MAMMA", "PUPPY", "BOBBY", "KAYAK"]},
               {"game": "wordle", "answer": "ROGER", "guesses": ["CRANE", "TOWER", "POWER", "LOWER", "MOWER", "BOXER"]}]
    while len(reviews) < WEB_REVIEWS:
        answer = int(game.target_index[rng.integers(game.n_targets)])
        guesses = _player_game(game, rng, answer, COACH_OPENERS[rng.integers(len(COACH_OPENERS))])
        reviews.append({"game": "wordle", "answer": game.labels[answer], "guesses": guesses})
    return nexts, reviews


def bench_web_explain() -> None:
    """Print the median, 95th percentile and max of POST /api/next (coach requests) and POST /api/review over
    distinct requests to a fresh `deduce serve`, after one warm-up request of each kind."""
    try:
        import httpx  # defers httpx (a test extra) to this section
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as err:
        print(f"explain web: skipped, {err.name} is not installed (pip install '.[web]' httpx)")
        return
    nexts, reviews = web_requests()
    port = free_port()
    errors = tempfile.TemporaryFile()
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=errors)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=300) as client:
            wait_until_serving(client, server, errors)
            warm_next = {"game": "wordle", "history": [{"guess": "QAJAQ", "feedback": "RRRRR"}], "top": 5}
            client.post("/api/next", json=warm_next).raise_for_status()  # the kernels loaded
            client.post("/api/review", json={"game": "wordle", "answer": "CRONY",
                                             "guesses": ["QAJAQ", "CRONY"]}).raise_for_status()
            for label, path, bodies in (("/api/next (the coach: top 5, one or two guesses in, normal and hard)",
                                         "/api/next", nexts),
                                        ("/api/review (random players' games and two lost ones)", "/api/review",
                                         reviews)):
                seconds = []
                for body in bodies:
                    begin = time.perf_counter()
                    client.post(path, json=body).raise_for_status()
                    seconds.append(time.perf_counter() - begin)
                p95 = quantile(seconds, 0.95)
                print(f"explain web POST {label}: {len(seconds)} distinct requests, median "
                      f"{statistics.median(seconds):.2f} s, p95 {p95:.2f} s, max {max(seconds):.2f} s; "
                      f"{_verdict(p95, WEB_GOAL)}", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
        errors.close()


def bench_explain() -> None:
    """Print the section's figures (see the module docstring)."""
    bench_commands()
    bench_library()
    bench_web_explain()


if __name__ == "__main__":
    bench_explain()
