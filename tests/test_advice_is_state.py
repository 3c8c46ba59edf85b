"""Live advice is a function of the state: one guess (and proven flag) per history, whatever was
asked before, in this process or another, and under load.

Every answer of an off-tree Wordle state is played to the end with a small budget (so that most
searches are cut by their work, where a memo carried over from earlier calls would change where
they stop), in two orders, in two processes, with and without a thread burning the CPU; every
visited state must get the same guess, value and proven flag everywhere.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading

import numpy as np
import pytest

from solver.core.runtime import Solver
from solver.games import wordle
from tests import reference

pytestmark = pytest.mark.slow  # tens of seconds in all: `make test` runs them, `make test-fast` does not

OPENER, MARKS = "THILL", "YRRRR"  # 232 answers, off the tree (its opener is SALET)
BUDGET = 0.02  # seconds of work a guess: most searches here end by their work, unproven


def play_every_answer(solver: Solver, reverse: bool = False) -> dict[str, list]:
    """Return {history text: [guess, value, proven]} of every state visited playing each answer of the
    state OPENER=MARKS to the end, the feedback from the reference rule."""
    game = solver.game
    start = solver.advance(solver.initial_guess()[1], game.index_of(OPENER), game.encode(MARKS))
    answers = [game.labels[game.target_index[p]] for p in start.candidate_positions]
    seen: dict[str, list] = {}
    for answer in reversed(answers) if reverse else answers:
        state = start
        while True:
            row = solver.guess_row(state)
            found = [game.labels[row], state.value, state.exact]
            assert seen.setdefault(state.history_text(), found) == found, f"{state.history_text()} answered twice"
            marks = reference.wordle(answer, game.labels[row])
            if marks == "G" * len(marks):
                break
            state = solver.advance(state, row, game.encode(marks))
    return seen


@pytest.fixture(scope="module")
def forward() -> dict[str, list]:
    return play_every_answer(Solver(wordle.game(), budget=BUDGET))


def test_the_same_state_gets_the_same_guess_in_any_order(forward):
    backward = play_every_answer(Solver(wordle.game(), budget=BUDGET), reverse=True)
    assert backward == forward and len(forward) > 200


def test_a_kept_choice_is_the_one_a_new_search_makes(forward):
    # memo=0: nothing kept, every state searched afresh when it is met
    assert play_every_answer(Solver(wordle.game(), budget=BUDGET, memo=0), reverse=True) == forward


def test_another_process_gives_the_same_strategy(forward):
    code = ("import json, sys; from tests.test_advice_is_state import play_every_answer, BUDGET; "
            "from solver.core.runtime import Solver; from solver.games import wordle; "
            "json.dump(play_every_answer(Solver(wordle.game(), budget=BUDGET), reverse=True), sys.stdout)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == json.loads(json.dumps(forward))


def test_a_busy_machine_gives_the_same_strategy(forward):
    stop = threading.Event()

    def burn() -> None:  # matrix products: the CPU busy beside the searches (NumPy lets go of the interpreter)
        block = np.ones((300, 300))
        while not stop.is_set():
            block @ block

    burners = [threading.Thread(target=burn, daemon=True) for _ in range(2)]
    for thread in burners:
        thread.start()
    try:
        busy = play_every_answer(Solver(wordle.game(), budget=BUDGET, memo=0))
    finally:
        stop.set()
        for thread in burners:
            thread.join()
    assert busy == forward
