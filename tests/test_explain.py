"""Explanations of a guess (`solver.analysis.explain`, `deduce hint`'s "Why" block, `solve`'s `why`),
checked against plain-Python partitions from `game.code` and against targets replayed one by one."""
from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
import pytest
from typer.testing import CliRunner

from solver.analysis import values
from solver.analysis.estimate import estimated_to_go
from solver.analysis.explain import explain, explain_state
from solver.analysis.values import ESTIMATED as ESTIMATE, PLAYED as LIVE, SEARCH, TREE
from solver.analysis.notation import parse_guess, parse_step
from solver.analysis.walk import play, replay
from solver.cli.main import app
from solver.cli.why import group_list
from solver.core.runtime import Solver, get_solver
from solver.core.registry import get_game
from tests.exhaustive import optimal_subtotal, small_wordle

runner = CliRunner()


def candidates_after(game, steps) -> list[int]:
    """Return the target rows consistent with every (guess row, code) step."""
    return [int(t) for t in game.target_index if all(game.code(g, int(t)) == c for g, c in steps)]


def sizes(game, row: int, targets: list[int]) -> list[int]:
    return sorted(Counter(game.code(row, t) for t in targets).values(), reverse=True)


def guesses_to_finish(game, steps, first: int, target: int) -> int:
    """Return the guesses the solver needs against `target` after `steps`, playing `first` first."""
    solver = get_solver(game)
    state, row, count = replay(solver, steps), first, 0
    while True:
        count += 1
        code = game.code(row, target)
        if code == game.win_code:
            return count
        state = solver.advance(state, row, code)
        row = solver.guess_row(state)


def why_block(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Why "))
    return lines[start:start + 5]


def listed_groups(line: str) -> list[int]:
    """Return the group sizes of a "  groups: 12, 9, 1 x4 ... and N more (...)" line, the N hidden
    ones as zeros (their count is known, not their sizes)."""
    text = re.match(r"  groups: (.*) \(\d+ candidates? in \d+ groups?\)$", line).group(1)
    shown, _, more = text.partition(" ... and ")
    out = []
    for item in shown.split(", "):
        size, _, count = item.partition(" x")
        out += [int(size)] * int(count or 1)
    return out + [0] * int(more.removesuffix(" more") or 0)


def shown_part(expected: list[int], listed: list[int]) -> list[int]:
    """Return `expected` with the sizes a capped list hides (zeros in `listed`) set to zero."""
    return [size if shown else 0 for size, shown in zip(expected, listed)] + expected[len(listed):]


def hint_output(*args: str) -> str:
    result = runner.invoke(app, ["hint", *args])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def test_group_list_joins_runs_and_caps():
    assert group_list([12, 9, 7, 3, 1, 1, 1, 1]) == "12, 9, 7, 3, 1 x4"
    assert group_list([5, 4, 3, 2, 2, 1], shown=3) == "5, 4, 3 ... and 3 more"


def test_on_the_tree_the_figures_are_the_replayed_guesses():
    game = get_game("mastermind")
    why = explain(game)
    tree = get_solver(game).tree
    assert why.guess == game.labels[int(tree.guess[0])] and why.suggested and why.source == TREE
    targets = [int(t) for t in game.target_index]
    assert list(why.groups) == sizes(game, game.index_of(why.guess), targets)
    played = [len(play(get_solver(game), t)) for t in targets]
    assert why.expected_guesses == pytest.approx(sum(played) / len(played), rel=1e-12)
    assert why.worst_guesses == max(played)
    assert why.is_candidate == (game.index_of(why.guess) in targets)
    assert why.win_chance == pytest.approx(1 / 1296 if why.is_candidate else 0.0)
    assert why.expected_left == pytest.approx(sum(s * s for s in why.groups) / 1296)


@pytest.mark.parametrize("name, variant, history, guess", [
    ("cards", "n1", [], "AS"),  # another guess than the tree's, at the root: played out live
    ("mastermind", None, ["1123=2,1"], "3456"),  # on the tree, another guess
    ("mastermind", None, ["1234=2,1"], None),  # off the tree: the live solver's guess
    # off the tree and the opener book (after CRANE, a favourite opener, the ranking computed ahead holds proven
    # values, which the Why shows instead)
    ("wordle", None, ["SALET=RRRRR", "CHOIR=RRYRY"], None),
    ("wordle", None, ["SALET=RRRRR", "CHOIR=RRYRY"], "AARGH"),  # not a candidate: no chance to win at once
    ("cards", "n2", ["2C AS=1,0,1,0,1"], None),
])
def test_off_the_tree_the_figures_are_the_solvers_play_replayed(name, variant, history, guess, monkeypatch):
    game = get_game(name, variant)
    monkeypatch.setattr(get_solver(game), "live", "greedy")  # no exact search: the greedy play is played out
    steps = [parse_step(game, step) for step in history]
    row = None if guess is None else parse_guess(game, guess)
    why = explain(game, steps, row)
    solver = get_solver(game)
    suggested = solver.guess_row(replay(solver, steps))
    first = suggested if row is None else row
    assert why.guess == game.labels[first] and why.solver_guess == game.labels[suggested]
    assert why.suggested == (first == suggested)
    targets = candidates_after(game, steps)
    assert why.candidates == len(targets) and list(why.groups) == sizes(game, first, targets)
    assert why.is_candidate == (first in targets)
    assert why.win_chance == (1 / len(targets) if first in targets else 0.0)
    needed = [guesses_to_finish(game, steps, first, t) for t in targets]
    assert why.source == LIVE
    assert why.expected_guesses == pytest.approx(sum(needed) / len(needed), rel=1e-12)
    assert why.worst_guesses == max(needed)


def test_above_the_play_out_limit_the_guesses_are_estimated(monkeypatch):
    game = get_game("cards", "n1")
    monkeypatch.setattr(get_solver(game), "live", "greedy")
    monkeypatch.setattr(values, "PLAY_OUT", 10)
    why = explain(game, [], game.index_of("AS"))
    assert why.source == ESTIMATE and why.worst_guesses is None and not why.proven
    state = replay(get_solver(game), [])
    assert why.expected_guesses == pytest.approx(estimated_to_go(state, game.index_of("AS")))
    assert list(why.groups) == sizes(game, game.index_of("AS"), [int(t) for t in game.target_index])
    wordle = get_game("wordle")
    out = hint_output("wordle", "--explain", "CRANE", "-c", "1")
    block = why_block(out)
    expected = sizes(wordle, wordle.index_of("CRANE"), [int(t) for t in wordle.target_index])
    assert block[0] == "Why CRANE (the solver would play SALET):"
    assert listed_groups(block[1]) == shown_part(expected, listed_groups(block[1]))
    assert block[2].startswith(f"  worst case: {expected[0]} candidates left")
    if block[2] == f"  worst case: {expected[0]} candidates left":
        # above the limit, at the start: the opener ranking's exact total (CRANE 7930, among its 100 best)
        assert ("3.425 guesses from here" in block[4]
                and "(the opener ranking, computed ahead, proven optimal)" in block[4])
    else:  # the live search found a strategy within its budget (as the machine's speed allows): its figures
        assert "guesses from here, this one included" in block[4]


@pytest.mark.parametrize("seed, hard, history, guess", [
    (0, False, [], None), (1, False, [], 5), (2, True, [], 7), (3, False, [(0, None)], 11),
])
def test_searched_figures_are_the_naive_optimum_of_the_guess(seed, hard, history, guess):
    """Off the tree, the exact search's figures: the least total after the guess (the naive search's
    over its classes) and the fewest guesses within which that total is still reached."""
    game = small_wordle(30, seed=seed, extra_guesses=20, hard=hard)
    solver = Solver(game, use_tree=False, budget=math.inf)
    targets = [int(t) for t in game.target_index]
    # after a first guess: the answer in its largest class (a state of several candidates)
    answer = max(targets, key=lambda t: sum(game.code(0, u) == game.code(0, t) for u in targets))
    steps = [(row, game.code(row, answer)) for row, _ in history]
    state = replay(solver, steps)
    positions = [int(p) for p in state.candidate_positions]
    row = solver.guess_row(state) if guess is None else guess
    why = explain_state(state, row)
    assert why.source == SEARCH and why.proven
    r = 6 - len(steps)

    def forced(depth: int) -> float:
        total = 0.0
        for code in {game.code(row, int(game.target_index[p])) for p in positions}:
            group = [p for p in positions if game.code(row, int(game.target_index[p])) == code]
            total += 1 if code == game.win_code else len(group) + optimal_subtotal(
                game, group, depth - 1, hard, tuple(steps) + ((row, code),))
        return total

    assert why.expected_guesses == pytest.approx(forced(r) / len(positions), rel=1e-12)
    assert forced(why.worst_guesses) == forced(r) and forced(why.worst_guesses - 1) > forced(r)


def test_hint_prints_why_the_solvers_guess_with_independent_numbers():
    game = get_game("wordle")
    out = hint_output("wordle", "CRANE=RYRGR")
    block = why_block(out)
    targets = candidates_after(game, [parse_step(game, "CRANE=RYRGR")])
    solver_guess = get_solver(game).guess_row(replay(get_solver(game), [parse_step(game, "CRANE=RYRGR")]))
    label = game.labels[solver_guess]
    assert out.splitlines().index(block[0]) > out.splitlines().index(
        "Best guesses by expected guesses to finish (this one included):")
    assert block[0] == f"Why {label} (the solver's guess):"
    assert listed_groups(block[1]) == sizes(game, solver_guess, targets)
    assert block[1].endswith(f"({len(targets)} candidates in {len(sizes(game, solver_guess, targets))} groups)")
    assert block[3] == f"  chance to solve with it: 1 in {len(targets)} ({100 / len(targets):.3g}%)"
    needed = [guesses_to_finish(game, [parse_step(game, "CRANE=RYRGR")], solver_guess, t) for t in targets]
    assert f"{sum(needed) / len(needed):.3f} guesses from here" in block[4]
    # the worst case is the ranking's own for the solver's row ("-": not known, and then not claimed either)
    [row] = [line for line in out.splitlines() if line.endswith("(the solver's guess)")]
    worst = row.split()[3]
    if worst == "-":
        largest = sizes(game, solver_guess, targets)[0]
        assert block[2] == f"  worst case: {largest} candidate{'s' if largest > 1 else ''} left"
    else:
        assert int(worst) >= max(needed) and block[2].endswith(f"{worst} guesses from here, this one included")


def test_hint_explain_another_guess_on_mastermind():
    game = get_game("mastermind")
    steps = [parse_step(game, "1123=1,0")]
    targets = candidates_after(game, steps)
    row = game.index_of("3456")
    block = why_block(hint_output("mastermind", "1123=1,0", "--explain", "3456", "-c", "1"))
    tree = get_solver(game).tree
    tree_guess = game.labels[int(tree.guess[tree.probe_node(steps)])]
    assert block[0] == f"Why 3456 (the solver would play {tree_guess}):"
    assert listed_groups(block[1]) == sizes(game, row, targets)
    assert block[3] == ("  chance to solve with it: none (3456 is not a candidate)" if row not in targets
                        else f"  chance to solve with it: 1 in {len(targets)} ({100 / len(targets):.3g}%)")


def test_identified_and_solved_states():
    out = hint_output("wordle", "CRANE=RYRGR", "BURNT=RRYGR")
    assert out.splitlines()[-1] == "Why RHINO: it is the only candidate left: play it."
    solved = hint_output("wordle", "CRANE=GGGGG")
    assert "Why" not in solved
    refused = runner.invoke(app, ["hint", "wordle", "CRANE=GGGGG", "--explain", "SALET"])
    assert refused.exit_code != 0 and refused.stderr.strip() == "error: nothing to explain: the game was won by CRANE"
    other = explain(get_game("wordle"), [parse_step(get_game("wordle"), "CRANE=RYRGR"),
                                         parse_step(get_game("wordle"), "BURNT=RRYGR")],
                    get_game("wordle").index_of("AARGH"))
    assert other.groups == (1,) and other.win_chance == 0.0 and other.expected_guesses == 2.0


@pytest.mark.parametrize("args, fragment", [
    (["wordle", "--explain", "QQQQQ"], "not one of the 12972 acceptable guesses"),
    (["wordle", "--hard", "CRANE=GRRRR", "--explain", "SLOTH"], "hard mode forbids SLOTH"),
    (["mastermind", "--explain", "9999"], "9999"),
])
def test_explain_errors_are_one_line(args, fragment):
    result = runner.invoke(app, ["hint", *args])
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit)
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and fragment in line


def test_solve_why_explains_the_proposed_guess_like_hint():
    game = get_game("mastermind")
    out = runner.invoke(app, ["solve", "mastermind"], input="why\n1,0\nwhy\nquit\n")
    assert out.exit_code == 0, out.stderr
    assert "Type why to explain the proposed guess" in out.stdout
    prompts = out.stdout.split("> ")
    first, second = why_block(prompts[1]), why_block(prompts[3])
    assert first == why_block(hint_output("mastermind", "-c", "1"))
    first_guess = game.index_of(first[0].split()[1])
    listed = listed_groups(first[1])
    assert listed == shown_part(sizes(game, first_guess, [int(t) for t in game.target_index]), listed)
    steps = [(first_guess, game.encode((1, 0)))]
    assert second == why_block(hint_output("mastermind", f"{game.labels[first_guess]}=1,0", "-c", "1"))
    row = game.index_of(second[0].split()[1])
    assert listed_groups(second[1]) == sizes(game, row, candidates_after(game, steps))


def test_hint_ranks_one_guess_per_symmetry_class_and_says_so():
    from solver.analysis.scores import Scores
    from solver.core.registry import get_game

    game = get_game("cards", "n2")
    everything = np.arange(game.n_targets, dtype=np.int64)
    reduced, full = Scores.compute(game, everything), Scores.compute(game, everything, every_guess=True)
    assert reduced.rows.size == 169 and full.rows.size == 1326 and "169 of 1326" in reduced.note
    best = {s.row: s.expected for s in full.top(1326)}
    for scored in reduced.top(10):  # a representative scores as in the full ranking, and the best is kept
        assert best[scored.row] == scored.expected
    assert reduced.top(1)[0].expected == full.top(1)[0].expected
