"""`make bench`: table-build throughput, exact search, runtime latencies and the cards n=4 replay.

Run as ``python -m pipeline.benchmarks [section ...]`` with sections ``tables``, ``exact``, ``runtime``,
``live`` (the worst live guess of every game without its tree), ``exactlive`` (the exact search off the
tree), ``exactgames`` (the other games off the tree: exact live against greedy), ``cards4``, ``state`` (the `wordle`
state file of a million games), ``boards``, ``web`` (`deduce serve`'s latency and throughput; needs the
web extra); default: all. Figures are printed, never asserted: goals live in
the README.
"""
from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from solver.analysis.boards import play
from solver.analysis.notation import parse_guess
from solver.analysis.walk import walk
from solver.core import strategy
from solver.core.runtime import Solver, State, get_solver
from solver.core.registry import all_variants, get_game
from solver.core.strategy import LIVE_BUDGET
from solver.games import battleship, cards, wordle
from solver.games.boards import guesses_allowed

WARM_RUNS = 5


def _median_time(fn, runs: int = WARM_RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_tables() -> None:
    """Print first-call (compile) and warm build times of the Wordle and Battleship tables."""
    from solver.core import scoring  # defers Numba to the compute path

    for game in (wordle.game(), battleship.game()):
        start = time.perf_counter()
        scoring.feedback_table(game)
        first = time.perf_counter() - start
        warm = _median_time(lambda: scoring.feedback_table(game))
        entries = game.n_guesses * game.n_targets
        print(f"table {game.key:20s} {game.n_guesses}x{game.n_targets}: first call {first:.2f} s "
              f"(compile or cache load), warm median {warm:.3f} s = {entries / warm / 1e6:.0f} M entries/s")


def bench_runtime() -> None:
    """Print solver import time, on-tree next_guess latency and the Wordle live-fallback latency."""
    code = "import time; t = time.perf_counter(); import solver.games.wordle; print(time.perf_counter() - t)"
    imports = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    check=True).stdout) for _ in range(5)]
    print(f"import solver.games.wordle: median {statistics.median(imports) * 1e3:.0f} ms over 5 fresh processes")


    answers = wordle.builtin_answers()
    latencies = []
    for answer in answers:
        guess, state = wordle.initial_guess()
        while guess != answer:
            marks = wordle.feedback(answer, guess)
            start = time.perf_counter()
            guess, state = wordle.next_guess((guess, state), marks)
            latencies.append(time.perf_counter() - start)
    lat = np.array(latencies) * 1e6
    print(f"on-tree next_guess (wordle, {lat.size} calls): median {np.median(lat):.1f} us, "
          f"p99 {np.percentile(lat, 99):.1f} us")

    first, state = wordle.initial_guess()
    off = "CRANE" if first != "CRANE" else "SLATE"
    wordle.next_guess((off, state), wordle.feedback(answers[0], off))  # compile / load kernels once
    live = []
    for answer in answers[::23]:
        _, state = wordle.initial_guess()
        start = time.perf_counter()
        wordle.next_guess((off, state), wordle.feedback(answer, off))
        live.append(time.perf_counter() - start)
    print(f"live fallback after off-tree {off} ({len(live)} answers): median {statistics.median(live) * 1e3:.1f} ms, "
          f"max {max(live) * 1e3:.1f} ms")


LIVE_RUNS = 3  # timed runs of each live guess; the slowest is reported


def largest_class(game, row: int) -> tuple[object, int]:
    """Return (feedback in the game's format, candidates left) of the largest class of guess `row` at the root."""
    from solver.core import scoring  # defers Numba to the compute path

    counts = np.bincount(scoring.feedback_table(game, [row])[0], minlength=game.n_codes)
    counts[game.win_code] = 0
    code = int(np.argmax(counts))
    return game.decode(code), int(counts[code])


def live_cases(solver) -> list[tuple[str, object]]:
    """Return (description, call) for the live guesses timed per game: the first guess, and the
    next guess in the largest class after the solver's opener and after the first guess row
    (an off-tree opener, usually poor: many candidates left). Each call returns (text, state)."""
    game = solver.game
    opener, root = solver.initial_guess()
    cases = [("root", solver.initial_guess)]
    for row in dict.fromkeys((game.index_of(opener), 0)):
        feedback, left = largest_class(game, row)
        label = game.labels[row]
        cases.append((f"after {label} ({left} left)",
                      lambda label=label, feedback=feedback: solver.next_guess(label, root, feedback)))
    return cases


def bench_live() -> None:
    """Print, per game variant without its tree, the slowest warm live guess (seconds) from the root
    and from mid-game states, and how much of the guess pool each scored within the budget."""
    worst_of_all = (0.0, "")
    for name, variant in all_variants():
        solver = Solver(get_game(name, variant), use_tree=False)  # no tree: every guess is live
        parts, worst = [], 0.0
        for what, call in live_cases(solver):  # its first guess compiles or loads the kernels
            call()  # warm: the symmetry group and the kernels for this state's sizes are ready
            seconds = 0.0
            for _ in range(LIVE_RUNS):
                start = time.perf_counter()
                _, state = call()
                seconds = max(seconds, time.perf_counter() - start)
            choice = state.live_choice
            scored = f"{choice.scored}/{choice.pool} scored" if choice and choice.pool else "no scoring"
            parts.append(f"{what} {seconds:.3f} s ({scored})")
            worst = max(worst, seconds)
        worst_of_all = max(worst_of_all, (worst, solver.game.key))
        print(f"live {solver.game.key:20s} worst {worst:.3f} s: {'; '.join(parts)}", flush=True)
    print(f"live worst of all games: {worst_of_all[0]:.3f} s ({worst_of_all[1]}); budget {LIVE_BUDGET:g} s a guess")


EXACT_STATES = 60  # random states per (mode, openers, step) of the exact live section
EXACT_BUDGET = 2.0  # seconds a live guess may take there (the goal: proven within 2 s)


def bench_exact_live() -> None:
    """Print how the exact live search does off the tree (Wordle, normal and hard, one core): for
    EXACT_STATES random states after an opener (one of the 500 best by the cheap score, or any
    allowed guess) and its feedback, and after a second random guess of the player's own, the
    share proven within EXACT_BUDGET seconds and the median, 95th percentile and max seconds."""
    import numba  # defers Numba to this section

    from pipeline.builders.opener_ranking import cheap_ranking  # defers the pipeline (Numba, pyarrow) to this section
    from pipeline.builders.feedback_tables import load_table  # defers the pipeline (Numba, pyarrow) to this section

    numba.set_num_threads(1)
    table = load_table(get_game("wordle", "normal"))
    for variant in ("normal", "hard"):
        game = get_game("wordle", variant)
        best = cheap_ranking(game, table, 500)
        first = Solver(game, use_tree=False, budget=EXACT_BUDGET)  # warm: the kernels load (or compile) once
        state = first.advance(State(first, (), None), game.index_of("CRANE"), game.encode("RRYRG"))
        start = time.perf_counter()
        first.guess_row(state)
        print(f"exact live wordle {variant}: first live guess of the process {time.perf_counter() - start:.2f} s "
              f"({state.remaining} candidates; loading the compiled kernels included)", flush=True)
        rng = np.random.default_rng(20261201)
        for label, openers in (("500 best openers", best), ("any opener", list(range(game.n_guesses)))):
            seconds: dict[int, list[float]] = {1: [], 2: []}
            proven: dict[int, int] = {1: 0, 2: 0}
            for _ in range(EXACT_STATES):
                solver = Solver(game, use_tree=False, budget=EXACT_BUDGET)  # a fresh memo for every state
                answer = int(game.target_index[rng.integers(game.n_targets)])
                state = State(solver, (), None)
                row = int(openers[rng.integers(len(openers))])
                for step in (1, 2):
                    state = solver.advance(state, row, game.code(row, answer))
                    if state.remaining <= 2 or row == answer:
                        break
                    start = time.perf_counter()
                    solver.guess_row(state)
                    seconds[step].append(time.perf_counter() - start)
                    proven[step] += state.exact and seconds[step][-1] <= EXACT_BUDGET
                    allowed = strategy.allowed_guesses(game, state.history)
                    row = int(allowed[rng.integers(allowed.size)])  # the player's own second guess
            for step in (1, 2):
                times = np.array(seconds[step])
                if times.size:
                    print(f"exact live wordle {variant}, {label}, after guess {step}: {proven[step]}/{times.size} "
                          f"proven within {EXACT_BUDGET:g} s; median {np.median(times):.3f} s, 95th percentile "
                          f"{np.percentile(times, 95):.3f} s, max {times.max():.3f} s", flush=True)


OFF_TREE_OPENERS = {("mastermind", "default"): "1234", ("bulls", "default"): "0124", ("cards", "n2"): "2C 3D",
                    ("battleship", "default"): "D2 E3 B4"}  # openers other than the trees'


def bench_exact_games() -> None:
    """Print, for the other games, the total guesses over every target after an opener that is not
    the tree's, played by the greedy rule and by the exact live search (LIVE_BUDGET a guess), and the
    wall time of each play-out (every off-tree state is computed)."""
    for (name, variant), opener in OFF_TREE_OPENERS.items():
        game = get_game(name, variant)
        row = parse_guess(game, opener)
        totals = []
        for live in ("greedy", "exact"):
            solver = Solver(game, use_tree=False, live=live)
            start = time.perf_counter()
            nodes = walk(solver, State(solver, (), None), first=row)
            totals.append((int(nodes.subtree[0]), time.perf_counter() - start))
        (greedy, greedy_s), (exact, exact_s) = totals
        print(f"off-tree {game.title} after {opener}: greedy {greedy} ({greedy / game.n_targets:.4f}, {greedy_s:.1f} s), "
              f"exact live {exact} ({exact / game.n_targets:.4f}, {exact_s:.1f} s), {greedy - exact:+d} guesses",
              flush=True)


def bench_cards4() -> None:
    """Replay the cards n=4 tree against all 270725 answers and compare with its metadata."""
    game = cards.game(4)
    solver = get_solver(game)
    tree = solver.tree
    if tree is None:
        print("cards n4: no tree artifact (run `make tables`)")
        return
    start = time.perf_counter()
    total = worst = 0
    for position in range(game.n_targets):
        target = int(game.target_index[position])
        text, state = solver.initial_guess()
        count = 1
        while text != game.labels[target]:
            row = game.index_of(text)
            text, state = solver.next_guess(text, state, game.decode(game.code(row, target)))
            count += 1
        total += count
        worst = max(worst, count)
    meta = tree.metadata
    print(f"cards n4 full replay: {game.n_targets} answers, average {total / game.n_targets:.4f}, max {worst}, "
          f"{time.perf_counter() - start:.0f} s; metadata total {meta['total_guesses']} "
          f"({'match' if str(total) == meta['total_guesses'] else 'MISMATCH'}), max {meta['max_guesses']}")


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
    from solver.core.search.searcher import Searcher, SearchOptions  # defers Numba to this section
    from solver.core.search.parallel import ThreadedTotals  # defers Numba to this section

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
        beside = f"; Selby's C {selby:.2f} s (ratio {one / selby:.2f})" if selby else f" (set {SELBY_ENV} to time Selby's C)"
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


def bench_state() -> None:
    """Print the `wordle` program's state-file figures (`python -m pipeline.benchmarks.state_file`, run in
    a process of its own so that the peak memory it reports is the state file's alone)."""
    subprocess.run([sys.executable, "-m", "pipeline.benchmarks.state_file"], check=True)


BOARD_GAMES = 200  # random sets of answers per number of boards


def bench_boards() -> None:
    """Print, for Dordle and Quordle on the original lists, the guesses the live multi-board solver
    needs over BOARD_GAMES fixed-seed random sets of distinct answers: mean, std, max, share over
    the game's limit, the count per number of guesses, and seconds per game."""
    game = wordle.game()
    rng = np.random.default_rng(20261130)
    for count in (2, 4):
        start, lengths = time.perf_counter(), []
        for _ in range(BOARD_GAMES):
            answers = [int(game.target_index[i]) for i in rng.choice(game.n_targets, count, replace=False)]
            lengths.append(len(play(game, answers)))
        seconds = (time.perf_counter() - start) / BOARD_GAMES
        lengths = np.array(lengths)
        histogram = ", ".join(f"{n}: {c}" for n, c in enumerate(np.bincount(lengths)) if c)
        print(f"boards {count}: mean {lengths.mean():.3f} guesses (std {lengths.std():.3f}), max {lengths.max()}, "
              f"over the {guesses_allowed(count)} allowed {np.mean(lengths > guesses_allowed(count)):.1%} "
              f"({BOARD_GAMES} games; {histogram}); {seconds:.3f} s a game", flush=True)


WEB_SEQUENTIAL, WEB_CONCURRENT, WEB_CLIENTS = 1000, 5000, 50  # requests, requests, clients
WEB_STEP = {"guess": "SALET", "feedback": "RRRRR"}  # on the tree: the largest class after SALET (221 candidates)
WEB_LIVE_CLIENTS, WEB_LIVE_SECONDS = 45, 20.0  # clients asking off-tree cards n4 guesses, for this long
WEB_PROBE_PAUSE = 0.05  # seconds between two on-tree probes while the live clients press
WEB_WARM_TRIES = 20  # games tried to warm the exact live search up


def free_port() -> int:
    """Return a TCP port free on 127.0.0.1 (bound to port 0, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _cpu_seconds(pid: int) -> float:
    """Return the CPU seconds (user + system) process `pid` has used (Linux /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(share * len(ordered)), len(ordered) - 1)]


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
            while True:
                try:
                    client.get("/api/games").raise_for_status()
                    break
                except httpx.TransportError:
                    if server.poll() is not None or time.perf_counter() - start > 60:
                        errors.seek(0)
                        raise SystemExit(f"deduce serve did not start: {errors.read().decode()[-500:]}")
                    time.sleep(0.1)
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

        server_cpu, client_cpu = _cpu_seconds(server.pid), time.process_time()
        seconds = asyncio.run(hammer())
        server_cpu, client_cpu = _cpu_seconds(server.pid) - server_cpu, time.process_time() - client_cpu
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
              f"{statistics.median(probe_times) * 1e3:.1f} ms, p90 {_quantile(probe_times, 0.9) * 1e3:.1f} ms, "
              f"max {max(probe_times) * 1e3:.1f} ms", flush=True)
    live = (f"median {statistics.median(answered):.2f} s, max {max(answered):.2f} s" if answered else "none")
    print(f"web: the {WEB_LIVE_CLIENTS} live clients in {seconds:.1f} s: {len(answered)} answered ({live}), "
          f"{refused} refused 503 (Retry-After {', '.join(f'{w:g}' for w in sorted(retry_after)) or '-'} s)"
          + (f", {len(failures)} other answers: {failures[0]}" if failures else ""), flush=True)


SECTIONS = {"tables": bench_tables, "exact": bench_exact, "runtime": bench_runtime, "live": bench_live,
            "exactlive": bench_exact_live, "exactgames": bench_exact_games, "cards4": bench_cards4, "state": bench_state, "boards": bench_boards,
            "web": bench_web}


def main(argv: list[str]) -> None:
    for name in argv or list(SECTIONS):
        if name not in SECTIONS:
            raise SystemExit(f"unknown bench section {name!r}: choose from {', '.join(SECTIONS)}")
        SECTIONS[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
