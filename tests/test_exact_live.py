"""Exact live play off the tree (`solver.core.search.live`, `Solver(live="exact")`): values against a
brute-force search on small word lists, agreement with the proven trees, the state's `exact` and
`value`, the per-state memo, and the greedy fallback when the budget is gone."""
from __future__ import annotations

import io
import math
import re

import numpy as np
import pytest
from typer.testing import CliRunner

from solver.analysis.scores import hint, report
from solver.cli.main import app
from solver.cli.proof import ProofDisplay
from solver.core.search import live as live_search
from solver.core.runtime import Solver, State, get_solver
from solver.core.search.live import ExactLive
from solver.core.registry import get_game
from solver.games import mastermind, wordle
from tests.exhaustive import optimal_subtotal, small_wordle


def states_after(solver: Solver, guess: str):
    """Yield the states after `guess` and each feedback it can get (off the tree unless it is the tree's)."""
    game = solver.game
    _, root = solver.initial_guess()
    row = game.index_of(guess)
    for code in sorted({game.code(row, int(t)) for t in game.target_index}):
        if code != game.win_code:
            yield solver.advance(root, row, code)


@pytest.mark.parametrize("hard, seed", [(False, 0), (False, 3), (True, 1)])
def test_off_tree_values_are_the_brute_force_optimum(hard, seed):
    game = small_wordle(40, seed, extra_guesses=20, hard=hard)
    solver = Solver(game, use_tree=False, budget=math.inf)
    opener = game.labels[int(game.target_index[-1])]
    for state in states_after(solver, opener):
        if state.remaining < 3:
            continue
        best = optimal_subtotal(game, state.candidate_positions.tolist(), 5, hard, state.history)
        solver.guess_row(state)
        choice = state.exact_choice
        assert choice is not None and choice.exact and state.exact
        assert choice.total == best and state.value == pytest.approx(best / state.remaining)
        target = int(game.target_index[state.candidate_positions[-1]])
        after = solver.advance(state, choice.guess, game.code(choice.guess, target))
        if after.remaining >= 3:  # the next guess: from the memo of the subtree just proven
            below = optimal_subtotal(game, after.candidate_positions.tolist(), 4, hard, after.history)
            assert after.exact and after.value * after.remaining == pytest.approx(below)


@pytest.mark.parametrize("variant", ["normal", "hard"])
def test_live_search_agrees_with_the_proven_tree(variant):
    game = get_game("wordle", variant)
    on_tree, live = Solver(game), Solver(game, use_tree=False, budget=math.inf)
    _, tree_root = on_tree.initial_guess()
    live_root = State(live, (), None)  # the root itself is not searched: that is the whole game
    row = game.index_of("SALET")
    for marks in ("RYRRR", "YRRRR", "RRRRG", "GRRRR"):
        code = game.encode(marks)
        a = on_tree.advance(tree_root, row, code)
        b = live.advance(live_root, row, code)
        assert a.node is not None and a.exact and b.node is None and b.exact
        assert b.value == pytest.approx(a.value)


def test_on_the_tree_value_is_the_subtree_and_exact_follows_the_strategy():
    solver = Solver(get_game("mastermind", "default"))
    _, root = solver.initial_guess()
    assert root.exact and root.value == pytest.approx(5625 / 1296)
    battleship = Solver(get_game("battleship", "default"))  # optimal for its opener, not proven for the game
    _, start = battleship.initial_guess()
    assert not start.exact and start.value == pytest.approx(22856 / 4960)


def test_a_proven_state_is_a_lookup_afterwards():
    game = wordle.game()
    solver = Solver(game, budget=math.inf, use_book=False)  # the live search, not the opener book
    state = next(s for s in states_after(solver, "CRANE") if 20 <= s.remaining <= 60)
    first = solver.guess_row(state)
    assert state.exact and state.live_choice is not None
    again = solver.advance(solver.initial_guess()[1], *state.history[0])
    assert solver.guess_row(again) == first and again.live_choice is state.live_choice  # the kept pair
    assert solver.exact_live.known(state.candidate_positions, state.history, math.inf) is again.exact_choice


def test_without_budget_or_in_greedy_mode_the_greedy_guess_is_played():
    game = mastermind.game()
    for solver in (Solver(game, use_tree=False, budget=0.0), Solver(game, use_tree=False, live="greedy")):
        _, root = solver.initial_guess()
        assert root.exact_choice is None and not root.exact and root.value is None
    with pytest.raises(ValueError, match="live mode"):
        Solver(game, live="perfect")


def test_a_state_no_tree_finishes_in_the_guesses_left_gets_no_exact_choice():
    game = small_wordle(40, 0, hard=False)
    live = ExactLive(game)
    positions = np.arange(game.n_targets)
    history = tuple((0, 0) for _ in range(game.max_guesses - 1))  # one guess left for 40 candidates
    assert live.choose(positions, history, math.inf) is None


def test_the_command_line_says_what_a_live_guess_is_worth():
    # off the tree and the opener book: the player's own second guess after SALET
    result = CliRunner().invoke(app, ["solve", "wordle"], input="RRRRR\nBLOND=RRYGG\nquit\n")
    assert re.search(r"\(a live proof: proven optimal, \d\.\d{3} guesses expected from here, this one included\)",
                     result.stdout), result.stdout
    booked = CliRunner().invoke(app, ["solve", "wordle"], input="CRANE=RYRGR\nquit\n")
    assert "(from the opener book, computed ahead: proven optimal, 1.750 guesses expected from here, this one " \
           "included)" in booked.stdout
    greedy = CliRunner().invoke(app, ["solve", "wordle", "--live", "greedy"], input="CRANE=RYRGR\nquit\n")
    assert "the greedy rule's guess" in greedy.stdout
    wrong = CliRunner().invoke(app, ["play", "wordle", "BURNT", "--live", "perfect"])
    assert wrong.exit_code == 2 and "--live is exact or greedy" in wrong.stderr
    clash = CliRunner().invoke(app, ["play", "wordle", "BURNT", "--live", "greedy", "--exact"])
    assert clash.exit_code == 2 and "--exact needs --live exact" in clash.stderr


def test_each_guess_total_is_the_brute_force_value_of_playing_it():
    game = small_wordle(40, 5, extra_guesses=20)
    live = ExactLive(game)
    opener = int(game.target_index[0])
    code = game.code(opener, int(game.target_index[-1]))
    history = ((opener, code),)
    positions = np.array([p for p in range(game.n_targets) if game.code(opener, int(game.target_index[p])) == code])
    rows = list(range(0, game.n_guesses, 7))
    totals = live.guess_totals(positions, history, rows, math.inf)
    assert set(totals) <= set(rows) and len(totals) >= len(rows) // 2
    for row, total in totals.items():
        classes: dict[int, list[int]] = {}
        for p in positions.tolist():
            classes.setdefault(game.code(row, int(game.target_index[p])), []).append(p)
        expected = sum(1 if c == game.win_code else len(group) + optimal_subtotal(
            game, group, game.max_guesses - 2, False, history + ((row, c),)) for c, group in classes.items())
        assert total == expected


def test_a_proof_without_a_deadline_takes_as_many_rounds_as_it_needs():
    game = wordle.game()
    solver = Solver(game, use_tree=False, budget=math.inf)
    state = solver.advance(State(solver, (), None), game.index_of("CRANE"), game.encode("RRRRR"))
    row = solver.guess_row(state)  # 263 candidates: more than one work limit
    assert state.exact and solver.exact_live.guess_totals(state.candidate_positions, state.history, [row],
                                                          math.inf) == {row: state.exact_choice.total}


def test_the_hint_ranks_by_guesses_to_go_with_the_solvers_guess_first_among_equals():
    game = small_wordle(40, 2, extra_guesses=30)
    opener = int(game.target_index[3])
    code = game.code(opener, int(game.target_index[-2]))
    result = hint(game, [(opener, code)], 4)
    solver = get_solver(game)
    state = solver.advance(State(solver, (), None), opener, code)
    best = optimal_subtotal(game, state.candidate_positions.tolist(), game.max_guesses - 1, False, state.history)
    values = [r.to_go.expected for r in result.ranked]  # every one rated: the states are small
    assert values == sorted(values) and result.solver_guess in [r.label for r in result.ranked]
    assert all(r.to_go.exact for r in result.ranked)
    assert values[0] == pytest.approx(best / state.remaining)  # nothing ranked beats the optimum, which is listed
    lines = report(game, result)
    assert "Best guesses by expected guesses to finish (this one included):" in lines


def test_a_proof_without_a_deadline_reports_its_rounds_and_the_display_clears(monkeypatch):
    monkeypatch.setattr(live_search, "ROUND_SECONDS", 0.02)  # reports every 20 ms: several in this proof
    game = wordle.game()
    live = ExactLive(game)
    seen = []
    live.progress = lambda seconds, work, finished: seen.append((seconds, work, finished))
    solver = Solver(game, use_tree=False, budget=math.inf)
    state = solver.advance(State(solver, (), None), game.index_of("CRANE"), game.encode("RRRRR"))
    positions = state.candidate_positions
    choice = live.choose(positions, state.history, math.inf)
    assert choice is not None and choice.exact
    assert seen and seen[-1][2] is True and not any(finished for _, _, finished in seen[:-1])
    assert [work for _, work, _ in seen] == sorted(work for _, work, _ in seen)
    out = io.StringIO()
    display = ProofDisplay(out)
    display.update(3.2, 1_500_000_000, False)
    assert out.getvalue() == "\rproving: 3 s, 1.50 billion (guess, answer) pairs scored (Ctrl-C stops)"
    display.update(4.0, 2_000_000_000, True)
    assert out.getvalue().endswith("\r\x1b[2K") and not display.shown


@pytest.mark.parametrize("stop", ["deadline", "work"])
def test_a_search_stopped_at_its_deadline_leaves_its_memo_true(stop):
    """A proof stopped a third of the way through, by its deadline or by its work limit, leaves a memo
    that the same searcher then finishes the proof from, to the value and guess of a fresh search. The
    deadline's clock counts the pairs scored, so it passes the deadline at the same point on every machine."""
    game = wordle.game()
    solver = Solver(game, use_tree=False)
    state = solver.advance(State(solver, (), None), game.index_of("ROUND"), game.encode("RRRRR"))  # 485 candidates
    fresh = ExactLive(game)._subgame(state.candidate_positions)
    began = fresh.prove.work
    expected = fresh.prove.value(fresh.local(state.candidate_positions), 5)
    whole = fresh.prove.work - began  # (guess, target) pairs the whole proof scores
    sub = ExactLive(game)._subgame(state.candidate_positions)
    local = sub.local(state.candidate_positions)
    began = sub.prove.work
    if stop == "deadline":
        found, clocked = sub.prove.value_within(local, 5, None, whole / 3, clock=lambda: sub.prove.work - began,
                                                every=0.001)
    else:
        found, clocked = sub.prove.value_within(local, 5, whole // 3, math.inf)
    assert found is None and clocked == (stop == "deadline")
    stopped = sub.prove.work - began
    assert whole / 3 <= stopped < whole  # stopped past the third, before the end of the proof
    assert sub.prove.value_until(local, 5, math.inf) == expected


def test_the_memo_of_state_values_keeps_at_most_its_size():
    game = get_game("mastermind")
    solver = Solver(game, use_tree=False, budget=math.inf, memo=2)
    for opener in ("1234", "1122", "1123"):
        state = solver.advance(State(solver, (), None), game.index_of(opener), game.encode((0, 1)))
        assert solver.guess_row(state) >= 0 and state.exact
    assert len(solver.exact_live._values) == 2
    with pytest.raises(ValueError, match="0 or more"):
        Solver(game, memo=-1)
