"""`make bench` sections `runtime`, `live`, `exactlive`, `exactgames` and `cards4`: the runtime solver on and
off the tree."""
from __future__ import annotations

import statistics
import subprocess
import sys
import time

import numpy as np

from solver.analysis.notation import parse_guess
from solver.analysis.walk import walk
from solver.core import strategy
from solver.core.registry import all_variants, get_game
from solver.core.runtime import Solver, State, get_solver
from solver.core.strategy import LIVE_BUDGET
from solver.games import cards, wordle


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

    from pipeline.builders.feedback_tables import load_table  # defers the pipeline (Numba, pyarrow) to this section
    from pipeline.builders.opener_ranking import cheap_ranking  # defers the pipeline (Numba, pyarrow) to this section

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
        print(f"off-tree {game.title} after {opener}: greedy {greedy} ({greedy / game.n_targets:.4f}, "
              f"{greedy_s:.1f} s), "
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
