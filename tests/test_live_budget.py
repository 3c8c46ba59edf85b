"""The live fallback within its time budget: always a valid guess, the greedy guess when the budget
is ample, a bounded sample for cards n=4, and one WARNING per variant played without its tree.

No timing is asserted here (`python -m pipeline.benchmarks live` measures the speed): a fake clock or
the number of guesses scored stands for time.
"""
from __future__ import annotations

import logging
import math

import numpy as np
import pytest

from solver.core import runtime, scoring, strategy
from solver.core.runtime import Solver
from solver.core.registry import get_game
from solver.games import cards, mastermind, wordle
from tests import reference
from tests.helpers import logged_warnings


def states_of(solver: Solver, target: int):
    """Yield every state in which `solver` chooses a guess while playing against target row `target`."""
    game = solver.game
    _, state = solver.initial_guess()
    while True:
        yield state
        row = solver.guess_row(state)
        code = game.code(row, target)
        if code == game.win_code:
            return
        state = solver.advance(state, row, code)


def test_no_budget_left_plays_the_first_candidate():
    game = mastermind.game()
    solver = Solver(game, use_tree=False, budget=0.0)
    guess, state = solver.initial_guess()
    assert state.live_choice.scored == 0 and not state.live_choice.complete
    assert guess == game.labels[game.target_index[0]]
    guess, state = solver.next_guess(guess, state, reference.mastermind("4321", guess))
    assert state.live_choice.scored == 0 and guess in state.candidates
    assert guess == state.candidates[0]


class StepClock:
    """A clock (seconds) that advances by `step` whenever a block of guesses is scored."""

    def __init__(self, monkeypatch, step: float):
        self.now, self.step = 0.0, step
        score = scoring.partition_scores

        def timed(game, guesses, *args, **kwargs):
            if len(guesses) > 1:  # not the one-guess warm-up call
                self.now += step
            return score(game, guesses, *args, **kwargs)

        monkeypatch.setattr(scoring, "partition_scores", timed)

    def __call__(self) -> float:
        return self.now


def test_budget_cut_plays_the_best_guess_scored(monkeypatch):
    game = wordle.game(answers_only=True)  # no symmetry: the whole pool, 2315 guesses
    positions = np.arange(0, game.n_targets, 3)
    monkeypatch.setattr(strategy, "FIRST_CHUNK_PAIRS", 100 * positions.size)
    # the clock is the safety net, SAFETY_FACTOR times the budget: each block takes half of that here
    clock = StepClock(monkeypatch, 0.5 * strategy.SAFETY_FACTOR)
    choice = strategy.choose_live(game, positions, budget=1.0, clock=clock)
    assert 100 <= choice.scored < choice.pool and not choice.complete and choice.clocked
    scored = np.sort(strategy.live_pool(game, positions)[:choice.scored])
    assert choice.guess == strategy.choose(game, positions, guesses=scored)[0]
    assert choice.guess in game.target_index[positions]  # the candidates are scored first


def test_candidates_are_scored_first_when_few():
    game = mastermind.game()
    solver = Solver(game, use_tree=False)
    _, root = solver.initial_guess()
    state = solver.advance(root, game.index_of("1122"), game.encode((0, 1)))
    pool = strategy.live_pool(game, state.candidate_positions, state.history)
    lead = np.isin(pool, game.target_index[state.candidate_positions])
    assert lead[:lead.sum()].all() and np.unique(pool).size == pool.size


@pytest.mark.parametrize("name, variant, picks", [
    ("mastermind", "default", 3), ("cards", "n2", 3), ("cards", "n1", 1), ("bulls", "default", 1)])
def test_ample_budget_gives_the_greedy_guess(name, variant, picks):
    game = get_game(name, variant)
    targets = game.target_index[np.linspace(0, game.n_targets - 1, picks + 1).astype(int)[1:]]
    for budget in (strategy.LIVE_BUDGET, math.inf):
        solver = Solver(game, use_tree=False, budget=budget, live="greedy")  # the greedy rule's own budget
        for target in targets.tolist():
            for state in states_of(solver, target):
                greedy = strategy.choose(game, state.candidate_positions, state.history)[0]
                assert solver.guess_row(state) == greedy and state.live_choice.complete


def test_ample_budget_gives_the_greedy_guess_in_hard_mode():
    words = sorted(set(wordle.builtin_answers()[::40]))
    game = wordle.game(hard=True, answers=tuple(words), guesses=tuple(words))
    solver = Solver(game, live="greedy")
    for target in words[::7]:
        for state in states_of(solver, game.index_of(target)):
            greedy = strategy.choose(game, state.candidate_positions, state.history)[0]
            assert solver.guess_row(state) == greedy and state.live_choice.complete


def test_cards4_live_scores_a_bounded_sample(monkeypatch):
    monkeypatch.setattr(strategy, "SAMPLE_PAIRS", 2_000_000)  # a quicker test; same code path
    monkeypatch.setattr(strategy, "LEAD_PAIRS", 500_000)  # below SAMPLE_PAIRS, as the defaults
    game = cards.game(4)
    solver = Solver(game, use_tree=False)
    guess, root = solver.initial_guess()
    choice = root.live_choice
    assert 1 <= choice.scored <= 2_000_000 // game.n_targets and choice.complete
    assert game.index_of(guess) == choice.guess
    again, _ = Solver(game, use_tree=False).initial_guess()
    assert again == guess  # a fixed-seed sample: deterministic
    target = game.index_of("2C 7D JH AS")
    guess, state = solver.next_guess(guess, root, game.decode(game.code(choice.guess, target)))
    choice = state.live_choice
    assert choice.complete and 1 <= choice.scored * state.remaining <= 2_000_000
    game.index_of(guess)  # a valid guess


def test_a_game_without_its_tree_file_warns_once(tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(runtime, "_WARNED_MISSING", set())
    caplog.set_level(logging.INFO, logger="solver.core.runtime")
    game = mastermind.game()
    for target in ("1122", "6543"):
        solver = Solver(game, folder=tmp_path)  # empty folder: no tree file
        for _ in states_of(solver, game.index_of(target)):
            pass
    [warning] = logged_warnings(caplog)
    assert game.title in warning and "make tables" in warning
    assert "no tree file for mastermind (" in caplog.text  # the INFO on loading stays


def test_no_warning_without_a_tree_to_miss(tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(runtime, "_WARNED_MISSING", set())
    caplog.set_level(logging.INFO, logger="solver.core.runtime")
    for _ in states_of(Solver(mastermind.game(), use_tree=False), 0):  # the tree is not wanted
        pass
    words = ("CRANE", "CRATE", "GRATE", "PLANT", "SLATE")
    custom = wordle.game(answers=words, guesses=words)  # the user's own lists: no tree can exist
    for _ in states_of(Solver(custom, folder=tmp_path), custom.index_of("PLANT")):
        pass
    guess, state = wordle.initial_guess()  # on the tree, then off it: INFO only
    off = "CRANE" if guess != "CRANE" else "SLATE"
    wordle.next_guess((off, state), reference.wordle("PROXY", off))
    assert not logged_warnings(caplog) and "leaves the tree" in caplog.text
