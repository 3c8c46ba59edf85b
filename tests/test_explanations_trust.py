"""What a player reads around the guesses. Every figure respects the guess limit (no search
infinity leaks out; a guess that cannot guarantee the limit says so and still gets a finite value, cost and
skill), the last guess is a possible answer, one value is shown one way, and every value names its source."""
from __future__ import annotations

import math
import re
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver.analysis import values
from solver.analysis.explain import explain_state
from solver.analysis.notation import parse_step
from solver.analysis.review import review
from solver.analysis.scores import hint, ranking
from solver.analysis.values import ToGo, order_key
from solver.analysis.walk import replay
from solver.cli.main import app
from solver.cli.openers import ranked_lines
from solver.core.runtime import Solver, get_solver
from solver.core.registry import get_game
from tests.exhaustive import small_wordle

runner = CliRunner()
HUGE = re.compile(r"\d{7,}")  # no figure a player reads has seven digits (the search's infinity had 13)


def cli(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_search_infinity_never_reaches_a_review():
    """`deduce review wordle --hard SLATE CRANE --answer CRANE` showed to go >=474951027.117."""
    out = cli("review", "wordle", "--hard", "SLATE", "CRANE", "--answer", "CRANE")
    assert not HUGE.search(out), out
    [row] = [line for line in out.splitlines() if re.match(r" 1  SLATE  RRGRG +2315 ", line)]
    assert "-1+" in row  # at least one answer it cannot finish within 6
    assert "SLATE: cannot guarantee 6: at least 1 answer needs a 7th guess" in out
    game = get_game("wordle", "hard")
    result = review(game, [parse_step(game, "SLATE=RRGRG"), parse_step(game, "CRANE=GGGGG")])
    first = result.guesses[0]
    assert first.player.lost >= 1 and not first.player.lost_exact and math.isfinite(first.player.expected)
    assert 0 <= first.cost < 1 and 0 < first.skill <= 100 and result.cost < 2


def test_hint_and_openers_say_what_cannot_be_guaranteed():
    out = cli("hint", "wordle", "--hard", "--explain", "SLATE", "-c", "1")
    assert not HUGE.search(out), out
    assert "  within the limit: cannot guarantee 6: at least 1 answer needs a 7th guess" in out
    game = get_game("wordle", "hard")
    lines = ranked_lines(game, [game.index_of("SLATE"), game.index_of("SALET")])
    assert lines[1].startswith("  SLATE: cannot guarantee 6: at least 1 answer needs a 7th guess (proven), whatever "
                               "is played after it; ≈3.")  # its expected guesses playing on: an estimate, marked
    assert any(line.startswith("  SALET 8122 (3.508 a game)") for line in lines)
    assert "2011 are proven unable to guarantee 6" in lines[-1] and not HUGE.search(" ".join(lines))


def test_a_guess_that_cannot_guarantee_the_limit_ranks_below_every_one_that_can():
    game = get_game("wordle")
    safe = ToGo(0, 3.9, 5, values.PROVEN, values.SEARCH, 100)
    estimated = ToGo(1, 3.0, None, values.ESTIMATE, values.ESTIMATED, 100, lost_exact=False)
    losing = ToGo(2, 2.5, 7, values.PROVEN, values.SEARCH, 100, lost=1, left=3)
    losing_more = ToGo(3, 2.4, 7, values.PROVEN, values.SEARCH, 100, lost=2, left=3)
    keys = {v.row: order_key(game, v.row, v, False, 1.0) for v in (safe, estimated, losing, losing_more)}
    assert sorted(keys, key=keys.get) == [0, 1, 2, 3]
    assert losing.limit_text(6) == "cannot guarantee 6: 1 answer needs a 7th guess"
    assert losing_more.chance == pytest.approx(0.98) and safe.chance == 1.0 and estimated.chance is None


def test_on_the_last_guess_the_review_recommends_a_possible_answer():
    """`deduce review wordle FUZZY JAZZY MAMMA PUPPY BOBBY KAYAK --answer FLOOR` recommended CRONS at row 6."""
    game = get_game("wordle")
    answer = game.index_of("FLOOR")
    words = ["FUZZY", "JAZZY", "MAMMA", "PUPPY", "BOBBY", "KAYAK"]
    steps = [(game.index_of(w), game.code(game.index_of(w), answer)) for w in words]
    result = review(game, steps, answer=answer)
    last = result.guesses[-1]
    state = replay(get_solver(game), steps[:-1])
    assert last.best_guess in state.candidates
    assert last.best.lost == last.before - 1 and last.best.lost_exact  # it wins 1 in 12, at most
    assert last.player.lost == last.before and last.player.chance == 0.0  # KAYAK cannot win
    assert all(math.isfinite(g.cost) and g.skill is not None for g in result.guesses)
    assert result.answer == "FLOOR" and result.solver_game[-1] == (answer, game.win_code)
    assert len(result.solver_game) <= 6


def test_the_solvers_own_guess_with_one_guess_left_is_a_candidate():
    game = get_game("wordle")
    steps = [parse_step(game, s) for s in ("FUZZY=GRRRR", "JAZZY=RRRRR", "MAMMA=RRRRR", "PUPPY=RRRRR", "BOBBY=RYRRR")]
    state = replay(get_solver(game), steps)
    assert game.labels[get_solver(game).guess_row(state)] in state.candidates
    result = hint(game, steps, 5)
    assert result.ranked and all(r.scored.possible for r in result.ranked)
    assert all(r.to_go.lost == state.remaining - 1 and r.to_go.chance == pytest.approx(1 / state.remaining)
               for r in result.ranked)


def test_the_hints_table_and_its_why_show_one_value():
    """The solver's row had worst "-" while the Why said 4; the coach card 2.78 against the table's 2.782."""
    for args in (["ADIEU=RRRRY"], ["CRANE=RYRGR"], ["--hard", "ADIEU=RRRRY"]):
        out = cli("hint", "wordle", *args, "-c", "1")
        [row] = [line for line in out.splitlines() if line.endswith("(the solver's guess)")]
        go, worst = row.split()[2], row.split()[3]
        why = out[out.index("Why "):]
        assert f" {go} guesses from here" in why, out
        if worst == "-":
            assert "guesses from here, this one included" not in why.splitlines()[2]
        else:
            assert why.splitlines()[2].endswith(f"{worst} guesses from here, this one included")
    tree = cli("tree", "wordle", "--path", "CRANE=RYRGR", "--depth", "1")
    header = re.search(r"this one included: (\S+) expected", tree).group(1)
    assert re.search(rf"left, {re.escape(header)} expected", tree), tree  # the header and the node line agree
    game = get_game("wordle")
    result = review(game, [parse_step(game, "CRANE=RYRGR"), parse_step(game, "HORNY=RGYGR")])
    assert result.summary_line().endswith(f"{result.cost_text()} guesses lost") and "." in result.cost_text()


def test_sources_are_named_truly():
    """`deduce solve` answering ADIEU RRRRY from the opener book said it computed live."""
    result = runner.invoke(app, ["solve", "wordle"], input="ADIEU\nRRRRY\nquit\n")
    assert result.exit_code == 0
    assert "computing live" not in result.stdout and "proven optimal live" not in result.stdout
    assert "(from the opener book, computed ahead: proven optimal, 2.782 guesses expected" in result.stdout
    game = get_game("wordle")
    solver = get_solver(game)
    book = replay(solver, [parse_step(game, "ADIEU=RRRRY")])
    assert book.source == "book" and book.exact
    one = replay(solver, [parse_step(game, "CRANE=GGGGR")])
    assert one.source == "rule" and one.exact and one.value == 1.0
    assert replay(solver, []).source == "tree"
    value = values.rate(book, [solver.guess_row(book)])[solver.guess_row(book)]
    assert value.source == values.BOOK and value.describe() == "the opener book, computed ahead, proven optimal"


def _steps(game, answer: int, rows) -> list[tuple[int, int]]:
    steps = []
    for row in rows:
        code = game.code(int(row), answer)
        if code == game.win_code:
            break
        steps.append((int(row), code))
    return steps


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), limit=st.integers(2, 4), hard=st.booleans(), data=st.data())
def test_every_figure_is_finite_and_the_last_guess_a_candidate(seed, limit, hard, data):
    """Random states of a small Wordle whose guess limit binds: every value, cost and skill finite; with one
    guess left every ranked guess is a candidate; the ranking's solver row and the Why agree."""
    game = replace(small_wordle(30, seed=seed, extra_guesses=20, hard=hard), max_guesses=limit)
    solver = Solver(game, use_tree=False)
    answer = int(data.draw(st.sampled_from([int(t) for t in game.target_index])))
    allowed = list(range(game.n_guesses))
    rows = data.draw(st.lists(st.sampled_from(allowed), min_size=0, max_size=limit - 1))
    steps = _steps(game, answer, rows)
    try:
        state = replay(solver, steps)
    except ValueError:  # hard mode forbade a drawn guess
        return
    if state.remaining < 2:
        return
    ranked, _ = ranking(state, 5, ahead=False)
    for r in ranked:
        assert r.to_go is not None and math.isfinite(r.to_go.expected) and 1 <= r.to_go.expected < 20
        assert not HUGE.search(r.to_go.text())
    if limit - len(steps) == 1:
        assert all(r.scored.possible for r in ranked)
        assert game.labels[solver.guess_row(state)] in state.candidates
    [mine] = [r for r in ranked if r.solver]
    why = explain_state(state)
    assert (why.value.text(), why.value.worst, why.value.source, why.value.lost) == \
        (mine.to_go.text(), mine.to_go.worst, mine.to_go.source, mine.to_go.lost)
    played = steps + [(solver.guess_row(state), game.code(solver.guess_row(state), answer))]
    # a review of the game so far, through the shared solver of this game
    result = review(game, played[:limit], answer=answer)
    assert all(g.cost is not None and math.isfinite(g.cost) and 0 <= g.skill <= 100 for g in result.guesses)
    assert math.isfinite(result.cost)
