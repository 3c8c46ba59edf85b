"""Reviews of played games (`solver.analysis.review`, `deduce review`): costs against the naive
search, games along the tree, scores in range, and one-line errors."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver.analysis.review import luck_of, review
from solver.analysis.walk import play, replay
from solver.cli.main import app
from solver.core.runtime import get_solver
from solver.core.registry import get_game
from tests.exhaustive import optimal_subtotal, small_wordle

runner = CliRunner()


def forced_total(game, steps, positions, row, r) -> float:
    """Return the naive least total over `positions` when guess `row` is played now, within r guesses."""
    groups: dict[int, list[int]] = {}
    for p in positions:
        groups.setdefault(game.code(row, int(game.target_index[p])), []).append(p)
    return sum(1 if code == game.win_code else len(group) + optimal_subtotal(
        game, group, r - 1, game.allowed is not None, tuple(steps) + ((row, code),)) for code, group in groups.items())


def candidates(game, steps) -> list[int]:
    return [p for p in range(game.n_targets)
            if all(game.code(g, int(game.target_index[p])) == c for g, c in steps)]


def test_luck_is_the_share_of_worse_draws_with_half_the_equal_ones():
    sizes = np.array([0, 1, 2, 2, 3, 3, 3])  # one answer wins at once, ...
    assert luck_of(sizes, 0) == pytest.approx(100 * (6 + 0.5) / 7)
    assert luck_of(sizes, 3) == pytest.approx(100 * 1.5 / 7)
    assert luck_of(np.array([4, 4, 4, 4]), 4) == 50.0


@pytest.mark.parametrize("name, variant, answers", [("wordle", None, ["BURNT", "ABBEY", "ZESTY"]),
                                                     ("wordle", "hard", ["RHINO", "EERIE"]),
                                                     ("mastermind", None, ["6543", "1111"])])
def test_a_game_along_the_tree_costs_nothing(name, variant, answers):
    game = get_game(name, variant)
    for answer in answers:
        steps = play(get_solver(game), game.index_of(answer))
        result = review(game, steps)
        assert result.won and [g.cost for g in result.guesses] == [0.0] * len(steps)
        assert all(g.guess == g.best_guess and g.exact for g in result.guesses)
        assert result.skill == 100 and result.exact and result.cost == 0.0


def spread(game, row, positions) -> int:
    """Return the sum of the squared sizes of the classes guess `row` leaves of `positions`."""
    sizes: dict[int, int] = {}
    for p in positions:
        code = game.code(row, int(game.target_index[p]))
        sizes[code] = sizes.get(code, 0) + 1
    return sum(size * size for size in sizes.values())


@pytest.mark.parametrize("seed, hard", [(0, False), (4, False), (5, True)])
def test_the_cost_of_a_weak_guess_is_the_naive_searchs(seed, hard):
    game = small_wordle(30, seed=seed, extra_guesses=20, hard=hard)
    answer = int(game.target_index[seed])
    everyone = list(range(game.n_targets))
    # a weak opener: the one that splits the answers least (the naive search then values it alone)
    weak = max(range(game.n_guesses), key=lambda row: (spread(game, row, everyone), -row))
    weak_total = forced_total(game, (), everyone, weak, 6)
    solver = get_solver(game)
    solver.budget = math.inf
    try:
        steps = [(weak, game.code(weak, answer))]
        state_steps = list(steps)
        while state_steps[-1][1] != game.win_code:  # then the solver's play to the end
            row = solver.guess_row(replay(solver, state_steps))
            state_steps.append((row, game.code(row, answer)))
        result = review(game, state_steps, budget=math.inf)
    finally:
        solver.budget = 1.0
    first = result.guesses[0]
    best = optimal_subtotal(game, everyone, 6, hard)
    assert first.player.exact and first.best.exact
    assert first.player.expected == pytest.approx(weak_total / game.n_targets)
    assert first.best.expected == pytest.approx(best / game.n_targets)
    assert first.cost == pytest.approx((weak_total - best) / game.n_targets)
    assert first.cost > 0 and result.skill < 100
    for g, number in zip(result.guesses[1:], range(1, len(state_steps))):  # the solver's guesses: optimal
        assert g.cost == 0.0
        remaining = candidates(game, state_steps[:number])
        if len(remaining) > 2:
            assert g.best.expected == pytest.approx(
                optimal_subtotal(game, remaining, 6 - number, hard, tuple(state_steps[:number])) / len(remaining))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 29), st.lists(st.integers(0, 49), min_size=1, max_size=5))
def test_scores_stay_in_range_for_any_game(answer_at, rows):
    game = small_wordle(30, seed=7, extra_guesses=20)
    answer = int(game.target_index[answer_at])
    steps = []
    for row in rows:
        steps.append((row, game.code(row, answer)))
        if steps[-1][1] == game.win_code:
            break
    result = review(game, steps)
    assert result.won == (steps[-1][1] == game.win_code)
    for g in result.guesses:
        assert 0 <= g.luck <= 100 and g.after <= g.before
        assert g.cost is None or g.cost >= 0
        assert g.skill is None or 0 < g.skill <= 100
    assert 0 <= result.skill <= 100 and (result.luck is None or 0 <= result.luck <= 100)
    assert result.cost >= 0


def test_the_command_line_review_and_its_answer_form_agree():
    marks = runner.invoke(app, ["review", "wordle", "SALET=RRRRG", "ROUND=YRYGR", "BURNT=GGGGG"])
    bare = runner.invoke(app, ["review", "wordle", "salet", "round", "burnt", "--answer", "burnt"])
    assert marks.exit_code == 0 == bare.exit_code, (marks.stdout, marks.stderr)
    assert marks.stdout == bare.stdout
    lines = marks.stdout.splitlines()
    assert lines[0] == "Review of wordle: solved in 3 of 6 guesses"
    game = get_game("wordle")
    result = review(game, [(game.index_of("SALET"), game.encode("RRRRG")),
                           (game.index_of("ROUND"), game.encode("YRYGR")),
                           (game.index_of("BURNT"), game.win_code)])
    assert lines[-1] == result.summary_line(6) and result.guesses[1].best_guess in lines[4]
    assert result.guesses[0].cost == 0.0 and result.guesses[1].cost > 0


@pytest.mark.parametrize("args, fragment, status", [
    (["wordle", "CRANE=GGGGG", "SALET=RRRRR"], "comes after a win", 1),
    (["wordle", "CRANE=GGGGY"], "no wordle target gives", 1),
    (["wordle", "QQQQQ=RRRRR"], "not one of the 12972 acceptable guesses", 1),
    (["wordle", "CRANE=RYRGR", "--answer", "BURNT"], "with --answer give bare guesses", 2),
    (["wordle", "CRANE", "--answer", "QQQQQ"], "QQQQQ", 1),
    (["wordle", "--hard", "CRANE=GRRRR", "SLOTH=RRRRR"], "hard mode forbids SLOTH", 1),
    (["mastermind", "1122=9,9"], "mastermind", 1),
])
def test_bad_histories_are_one_line_errors(args, fragment, status):
    result = runner.invoke(app, ["review", *args])
    assert result.exit_code == status, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], result.stderr


def test_a_review_needs_a_guess():
    result = runner.invoke(app, ["review", "wordle"])
    assert result.exit_code == 2 and "GUESS" in result.stderr


def test_two_candidates_left_are_rated_exactly():
    game = get_game("wordle")
    steps = [(game.index_of(w), game.code(game.index_of(w), game.index_of("BURNT")))
             for w in ("SALET", "FUZZY", "BURNT")]
    result = review(game, steps)
    last = result.guesses[2]
    assert last.before == 2 and last.player.expected == 1.5 and last.player.exact and last.exact
    state = replay(get_solver(game), steps[:2])
    other = next(t for t in state.candidates if t != "BURNT")
    split = [row for row in range(game.n_guesses) if row not in (game.index_of("BURNT"), game.index_of(other))
             and game.code(row, game.index_of("BURNT")) != game.code(row, game.index_of(other))][0]
    same = [row for row in range(game.n_guesses)
            if game.code(row, game.index_of("BURNT")) == game.code(row, game.index_of(other))][0]
    from_split = review(game, steps[:2] + [(split, game.code(split, game.index_of("BURNT")))])
    assert from_split.guesses[2].player.expected == 2.0 and from_split.guesses[2].cost == pytest.approx(0.5)
    from_same = review(game, steps[:2] + [(same, game.code(same, game.index_of("BURNT")))])
    assert from_same.guesses[2].player.expected == 2.5 and from_same.guesses[2].player.worst == 3


@pytest.mark.slow  # 10 s of live ratings
def test_a_lost_game_of_junk_guesses_scores_low_and_says_it_is_lost():
    game = get_game("wordle")
    junk = [game.index_of(w) for w in ("FUZZY", "JAZZY", "MAMMA", "PUPPY", "BOBBY", "KAYAK")]
    answer = game.index_of("ORDER")
    result = review(game, [(row, game.code(row, answer)) for row in junk])
    assert result.lost and not result.won and result.skill < 30
    assert all(g.player is not None and g.best is not None and g.skill is not None for g in result.guesses)
    assert "lost after 6/6" in result.summary_line(6)
    # the command line on a lost game whose states are quick to value
    out = runner.invoke(app, ["review", "wordle", "SALET", "BATCH", "CATCH", "HATCH", "LATCH", "MATCH",
                              "--answer", "WATCH"])
    assert out.exit_code == 0 and "lost: not solved in 6 of 6 guesses" in out.stdout and " ? " not in out.stdout


def test_a_sensible_game_scores_high_and_the_tree_scores_100():
    game = get_game("wordle")
    answer = game.index_of("SHORT")
    sensible = review(game, [(row, game.code(row, answer)) for row in map(game.index_of, ("CRANE", "SLOTH", "SHORT"))])
    assert sensible.won and 70 <= sensible.skill < 100
    along = review(game, play(get_solver(game), answer))
    assert along.skill == 100 and along.cost == 0


def test_more_guesses_than_the_game_allows_are_refused():
    words = ["FUZZY", "JAZZY", "MAMMA", "PUPPY", "BOBBY", "KAYAK", "ORDER"]
    out = runner.invoke(app, ["review", "wordle", *words, "--answer", "ORDER"])
    assert out.exit_code == 2 and "allows 6 guesses, got 7" in out.stderr and "Traceback" not in out.output
    game = get_game("wordle")
    with pytest.raises(ValueError, match="allows 6 guesses"):
        review(game, [(game.index_of(w), game.code(game.index_of(w), game.index_of("ORDER"))) for w in words])
