"""`deduce bench`'s standard deviation and hardest targets, checked against every target replayed
one by one through `walk.play` (the solver's public guessing loop), not against the walk."""
from __future__ import annotations

import math
import re

import pytest
from typer.testing import CliRunner

from solver.analysis.notation import select_game
from solver.analysis.walk import play, start_state, walk
from solver.analysis import playout
from solver.cli import bench as bench_text
from solver.cli.main import app
from solver.core.runtime import get_solver
from solver.core.registry import get_game
from solver.games.wordlists import builtin_answers, builtin_guesses

runner = CliRunner()
SUMMARY = re.compile(r"mean (\d+\.\d{4}) guesses \(std (\d+\.\d{4})\), max (\d+), total (\d+), wall time")


def replayed(game, targets=None) -> dict[int, int]:
    """Return {target row: guesses} by playing each target alone."""
    solver = get_solver(game)
    rows = game.target_index if targets is None else targets
    return {int(t): len(play(solver, int(t))) for t in rows}


def population_std(values) -> float:
    values = list(values)
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def hardest_of(game, guesses: dict[int, int]) -> list[str]:
    worst = max(guesses.values())
    return [game.labels[row] for row in sorted(guesses) if guesses[row] == worst]


def bench_lines(*args: str) -> list[str]:
    result = runner.invoke(app, ["bench", *args])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout.splitlines()


@pytest.fixture(scope="module")
def mastermind_replay():
    game = get_game("mastermind")
    return game, replayed(game)


def test_bench_prints_the_std_and_the_hardest_target_of_mastermind(mastermind_replay):
    game, guesses = mastermind_replay
    lines = bench_lines("mastermind")
    mean, std, worst, total = SUMMARY.match(lines[-1]).groups()
    assert float(mean) == pytest.approx(sum(guesses.values()) / len(guesses), abs=5e-5)
    assert float(std) == pytest.approx(population_std(guesses.values()), abs=5e-5)
    assert int(worst) == max(guesses.values()) and int(total) == sum(guesses.values())
    hardest = hardest_of(game, guesses)
    count = f"{len(hardest)} target" + ("s" if len(hardest) > 1 else "")
    assert lines[-2] == f"hardest ({worst} guesses, {count}): " + " ".join(hardest[:10]) + (
        f" ... and {len(hardest) - 10} more" if len(hardest) > 10 else "")


def test_bench_caps_the_hardest_list_of_cards_and_writes_cards_as_typed():
    game = get_game("cards", "n2")
    guesses = replayed(game)
    hardest = hardest_of(game, guesses)
    assert len(hardest) > 10  # the cap is exercised
    worst = max(guesses.values())
    lines = bench_lines("cards", "--variant", "n2")
    assert lines[-2] == (f"hardest ({worst} guesses, {len(hardest)} targets): " + ", ".join(hardest[:10])
                         + f" ... and {len(hardest) - 10} more")
    assert all(len(label.split()) == 2 for label in hardest)  # "2C AS": two cards, as users type them
    every = bench_lines("cards", "--variant", "n2", "--hardest", str(len(hardest)))
    assert every[-2].endswith(", ".join(hardest)) and "more" not in every[-2]
    three = bench_lines("cards", "--variant", "n2", "--hardest", "3")
    assert three[-2].endswith(", ".join(hardest[:3]) + f" ... and {len(hardest) - 3} more")
    none = bench_lines("cards", "--variant", "n2", "--hardest", "0")
    assert not any(line.startswith("hardest") for line in none) and none[:-1] == lines[:-2]
    std = float(SUMMARY.match(lines[-1]).group(2))
    assert std == pytest.approx(population_std(guesses.values()), abs=5e-5)


def test_run_result_matches_the_replay_on_cards_n1_and_a_sample():
    game = get_game("cards", "n1")
    guesses = replayed(game)
    result = playout.run(game)
    assert result.std == pytest.approx(population_std(guesses.values()), rel=1e-12)
    assert list(result.hardest) == hardest_of(game, guesses)
    sampled = playout.run(get_game("mastermind"), sample=60, seed=3)
    mastermind = get_game("mastermind")
    sample_rows = [mastermind.index_of(label) for label in sampled.hardest]
    sample_guesses = replayed(mastermind, sample_rows)
    assert set(sample_guesses.values()) == {sampled.worst}
    assert sampled.targets == 60 and len(sampled.hardest) == sampled.counts[sampled.worst]


def test_live_bench_on_small_wordle_lists(tmp_path):
    answers = builtin_answers()[::150]
    guess_list = sorted(set(builtin_guesses()[::40]) | set(answers))
    (tmp_path / "answers.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "guesses.txt").write_text("\n".join(guess_list) + "\n")
    options = ["--answers", str(tmp_path / "answers.txt"), "--guesses", str(tmp_path / "guesses.txt")]
    game = select_game("wordle", answers=tmp_path / "answers.txt", guesses=tmp_path / "guesses.txt")
    guesses = replayed(game)
    lines = bench_lines("wordle", *options)
    assert "live computation" in lines[0]
    assert float(SUMMARY.match(lines[-1]).group(2)) == pytest.approx(population_std(guesses.values()), abs=5e-5)
    hardest = hardest_of(game, guesses)
    assert lines[-2].endswith(
        " ".join(hardest[:10]) + (f" ... and {len(hardest) - 10} more" if len(hardest) > 10 else ""))


def test_guesses_per_target_of_a_walk_is_the_replay(mastermind_replay):
    game, guesses = mastermind_replay
    solver = get_solver(game)
    assert walk(solver, start_state(solver)).guesses_per_target() == guesses


def test_std_of_one_target_is_zero_and_bad_hardest_is_refused():
    result = playout.Result(get_game("mastermind"), {4: 1}, 0.0, "test", ("1234",))
    assert result.std == 0.0
    with pytest.raises(ValueError, match="--hardest"):
        bench_text.histogram(result, -1)
    refused = runner.invoke(app, ["bench", "mastermind", "--hardest", "-1"])
    assert refused.exit_code == 2 and "--hardest" in refused.stderr
