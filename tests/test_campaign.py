"""The proof campaign (`pipeline.campaign`, `deduce prove`) on games small enough for brute force.

Each campaign's proven total equals the naive search's (`tests.exhaustive`): over every first guess
(the game's optimum) and class by class below a fixed opener (optimal for that opener). A run stopped
after some tasks (Ctrl-C, or its process killed) and started again gives the same results, the finished
tasks not run again; a task
that timed out keeps a proven lower bound and runs again when given more time; local processes and
a Dask cluster give the same results.
"""
from __future__ import annotations

import json
import logging
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from pipeline import campaign, cluster
from solver.core import artifacts, scoring
from solver.core.registry import get_game
from solver.games import battleship, cards, mastermind
from tests import exhaustive
from tests.test_cli import assert_error, invoke

SMALL = [(mastermind.game(3, 3), 6), (battleship.game(2, 3, 3), 6), (cards.game(1), 8)]


def _values(result: campaign.Campaign) -> dict[str, tuple[str, int, int | None]]:
    return {name: (r.status, r.lower, r.value) for name, r in result.results.items()}


@pytest.mark.parametrize("game, guesses", SMALL, ids=[g.key for g, _ in SMALL])
def test_every_first_guess_proves_the_brute_force_optimum(game, guesses, tmp_path):
    table = scoring.feedback_table(game)
    result, tasks = campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path, table=table)
    optimum = exhaustive.optimal_total(game, guesses)
    assert all(r.status == "proven" for r in result.results.values())
    assert min(r.value for r in result.results.values()) == optimum
    assert campaign.summarise(game, result, tasks).lower == optimum
    assert f"optimal: {optimum} " in campaign.report(game, result, tasks)[-1]
    # with the optimum as the cut-off, no first guess is valued below it, and one reaches it
    again, _ = campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path / "cut",
                            table=table, cutoff=optimum + 1)
    assert min(r.lower for r in again.results.values()) == optimum
    assert all(r.status in ("proven", "bound") for r in again.results.values())


@pytest.mark.parametrize("game, guesses", SMALL, ids=[g.key for g, _ in SMALL])
def test_an_openers_classes_prove_its_brute_force_total(game, guesses, tmp_path):
    table = scoring.feedback_table(game)
    opener = int(game.canonical([])[-1]) if game.canonical is not None else game.n_guesses - 1
    result, tasks = campaign.run(game, "opener", opener, seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path,
                                 table=table)
    codes = table[opener]
    expected = game.n_targets + sum(exhaustive.optimal_subtotal(game, np.flatnonzero(codes == c), guesses - 1)
                                    for c in np.unique(codes) if c != game.win_code)
    summary = campaign.summarise(game, result, tasks)
    assert summary.proven == len(tasks) and summary.lower == summary.upper == expected
    assert f"optimal for {game.labels[opener]}: {expected} " in campaign.report(game, result, tasks)[-1]


def test_a_cut_off_class_keeps_the_known_subtree_and_a_better_one_is_found(tmp_path):
    game, guesses = SMALL[1]
    table = scoring.feedback_table(game)
    searcher = campaign._searcher(game, table, campaign.SearchOptions(max_guesses=guesses))
    everything = np.arange(game.n_targets)
    first = int(game.canonical([])[0])
    group = campaign._class(searcher, everything, first, int(np.bincount(table[first]).argmax()))
    exact = exhaustive.optimal_subtotal(game, group, guesses - 1)
    for known, value in ((exact, exact), (exact + 5, exact)):  # the tree's own total, and a worse one
        task = campaign.Task("c", first, int(table[first, group[0]]), group.size, known)
        row = campaign.run_task(game, table, task, guesses, 30)
        assert (row.status, row.value, row.lower) == ("proven", value, value)
        assert (row.best_guess is None) == (known == exact)  # below the cut-off: the better subtree's first guess


def test_a_task_out_of_time_keeps_a_proven_bound_and_runs_again_with_more(tmp_path):
    game = battleship.game()  # the real board: its largest class of A1 A3 H1 takes minutes
    table = scoring.feedback_table(game)
    opener = game.index_of("A1 A3 H1")
    codes = table[opener]
    big = int(np.bincount(codes).argmax())
    task = campaign.Task("big", opener, big, int((codes == big).sum()), None)
    row = campaign.run_task(game, table, task, 7, 0.5)
    searcher = campaign._searcher(game, table, campaign.SearchOptions(max_guesses=7))
    assert row.status == "timed out" and row.value is None
    tree = campaign.tree_classes(game, opener)[big]  # the committed tree's total for the class: an upper bound
    assert int(searcher.ws.lb[6, task.size]) <= row.lower <= tree
    assert campaign._finished(row, 0.5) and not campaign._finished(row, 1.0)


def test_the_time_left_counts_tasks_that_overran_their_limit():
    # a task's counting bound comes before its clock is read: with a limit of 0.001 s cards n3's took 2-4 s
    assert campaign._left(10, [3.0, 5.0], 0.001, 2) == pytest.approx(20.0)
    assert campaign._left(10, [], 60.0, 2) == pytest.approx(300.0)  # nothing done yet: the limit each
    assert campaign._at_most(10, 0.001, 2, [3.0, 5.0]) == pytest.approx(25.0)  # 5 rounds of the longest
    assert campaign._at_most(3, 60.0, 2, [1.0]) == pytest.approx(2 * 60.0 * (1 + campaign.BOUND_SHARE))


def test_first_guesses_of_reversed_ranks_are_one_task_and_a_result_of_either_stands(tmp_path):
    game, guesses = cards.game(1), 8
    tasks = campaign.game_tasks(game, None)
    assert [(t.name, t.aliases) for t in tasks[:2]] == [("2C", ("AC",)), ("3C", ("KC",))]
    assert len(tasks) == 7 and tasks[-1].name == "8C" and tasks[-1].aliases == ()  # its own mirror
    table = scoring.feedback_table(game)
    first, _ = campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path, table=table)
    path = campaign.checkpoint_path(game, "game", tmp_path)
    # as a campaign run before the symmetry was known left it: 2C's result under its mirror's name
    path.write_text(path.read_text().replace('"task": "2C"', '"task": "AC"'))
    seen = []
    again, _ = campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path, table=table,
                            on_progress=seen.append)
    assert seen[-1].total == 0 and "AC" in again.results and "2C" not in again.results
    assert campaign.result_of(again, tasks[0]).value == first.results["2C"].value
    assert campaign.summarise(game, again, tasks).finished == 7
    assert [t.name for t in campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path,
                                         table=table, only=("KC",))[1]][:2] == ["2C", "3C"]  # a mirror's name is known


def test_a_stopped_run_resumes_without_redoing_finished_tasks(tmp_path):
    game, guesses = SMALL[1]
    table = scoring.feedback_table(game)
    clean, _ = campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path / "clean",
                            table=table)
    seen = []

    def stop_after_two(progress: campaign.Progress) -> None:
        seen.append(progress)
        if progress.done == 2:
            raise KeyboardInterrupt  # as Ctrl-C or a kill between two tasks

    with pytest.raises(KeyboardInterrupt):
        campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path, table=table,
                     on_progress=stop_after_two)
    path = campaign.checkpoint_path(game, "game", tmp_path)
    first_lines = path.read_text().splitlines()
    assert len(first_lines) == 1 + 2
    resumed = []
    again, tasks = campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path, table=table,
                                on_progress=resumed.append)
    assert resumed[0].total == len(tasks) - 2  # the two finished tasks are not run again
    lines = path.read_text().splitlines()
    assert set(first_lines[1:]) <= set(lines)  # their results kept as they were (seconds included)
    assert _values(again) == _values(clean)
    # a third run has nothing to do
    third = []
    campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path, table=table,
                 on_progress=third.append)
    assert third[-1].total == 0 and path.read_text().splitlines() == lines


def test_another_campaign_in_the_file_is_refused(tmp_path):
    game, guesses = SMALL[0]
    table = scoring.feedback_table(game)
    campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path, table=table, count=1)
    with pytest.raises(campaign.UsageError, match=f"holds another campaign \\(its max_guesses {guesses}\\)"):
        campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses + 1, folder=tmp_path, table=table)
    header = json.loads(campaign.checkpoint_path(game, "game", tmp_path).read_text().splitlines()[0])
    assert header["max_guesses"] == guesses and header["fingerprint"] == game.fingerprint()


def test_local_processes_and_dask_give_the_same_results(tmp_path):
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed: pip install '.[dask]'")
    game, guesses = SMALL[1]
    table = scoring.feedback_table(game)
    one, _ = campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path / "one", table=table)
    two, _ = campaign.run(game, "game", seconds=60, jobs=2, max_guesses=guesses, folder=tmp_path / "two", table=table)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                  silence_logs=logging.ERROR) as local, \
            distributed.Client(local, set_as_default=False) as client, cluster.using(cluster.Dask(client)):
        dask, _ = campaign.run(game, "game", seconds=60, jobs=2, max_guesses=guesses, folder=tmp_path / "dask",
                               table=table)
    assert _values(one) == _values(two) == _values(dask)


def test_the_command_line_runs_a_campaign_and_refuses_bad_options(tmp_path, monkeypatch):
    monkeypatch.setenv("DEDUCE_ARTIFACTS", str(tmp_path))
    result = invoke("prove", "cards", "--variant", "n1", "--opener", "AS", "--seconds-per-task", "30", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "optimal for AS:" in result.stdout
    assert (tmp_path / "campaign-cards-n1-opener.jsonl").is_file()
    assert_error(invoke("prove", "cards", "--cutoff", "5"), "--cutoff needs --every-opener", 2)
    assert_error(invoke("prove", "cards", "--every-opener", "--opener", "AS"), "--opener is for one opener", 2)
    assert_error(invoke("prove", "cards", "--variant", "n1", "--opener", "ZZ"), "ZZ")


def test_the_command_line_runs_only_the_tasks_named(tmp_path, monkeypatch):
    monkeypatch.setenv("DEDUCE_ARTIFACTS", str(tmp_path))
    game = cards.game(1)
    names = [t.name for t in campaign.opener_tasks(game, None, game.index_of("AS"), {})]
    chosen = names[-2:]
    args = ["prove", "cards", "--variant", "n1", "--opener", "AS", "--seconds-per-task", "30", "--jobs", "1"]
    result = invoke(*args, *[part for name in chosen for part in ("--task", name)])
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "campaign-cards-n1-opener.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["task"] for line in lines[1:]) == sorted(chosen)
    assert_error(invoke(*args, "--task", "9,9"), "no task 9,9 in the opener campaign of cards-n1", 2)


def test_two_runs_writing_one_checkpoint_keep_each_others_results(tmp_path):
    game, guesses = SMALL[1]
    table = scoring.feedback_table(game)
    tasks = campaign.game_tasks(game, None)
    first, second = tasks[0].name, tasks[-1].name
    path = campaign.checkpoint_path(game, "game", tmp_path)

    def another_run_finishes(progress: campaign.Progress) -> None:
        if progress.done == 1:  # meanwhile another run of the same campaign saved the last task
            campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path, table=table,
                         only=(second,))

    result, _ = campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path, table=table,
                             only=(first, tasks[1].name), on_progress=another_run_finishes)
    written = [json.loads(line)["task"] for line in path.read_text().splitlines()[1:]]
    assert sorted(written) == sorted([first, tasks[1].name, second])
    assert set(result.results) == set(written)
    # a stronger result on disk is kept over a weaker one in memory
    stronger = result.results[second]
    weaker = replace(stronger, status="timed out", limit=0.5, lower=0, value=None)
    mine = replace(result, results={second: weaker})
    campaign.save(path, mine, [t.name for t in tasks])
    assert mine.results[second] == stronger
    assert not list(tmp_path.glob(".*.lock"))


KILLED_RUN = """
import sys, time
from pathlib import Path
from pipeline import campaign
from solver.games import battleship
game = battleship.game(2, 3, 3)
def slowly(progress):  # time for the test to kill this process between two tasks
    time.sleep(0.3)
campaign.run(game, "game", seconds=60, jobs=1, max_guesses=6, folder=Path(sys.argv[1]), on_progress=slowly)
"""


def test_a_killed_run_leaves_a_checkpoint_that_resumes_to_the_same_results(tmp_path):
    game, guesses = SMALL[1]
    table = scoring.feedback_table(game)
    clean, tasks = campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path / "clean",
                                table=table)
    path = campaign.checkpoint_path(game, "game", tmp_path)
    run = subprocess.Popen([sys.executable, "-c", KILLED_RUN, str(tmp_path)], cwd=Path(__file__).parents[1])
    try:
        deadline = time.monotonic() + 120
        while run.poll() is None and time.monotonic() < deadline:
            if path.is_file() and len(path.read_text().splitlines()) >= 3:  # two tasks saved
                break
            time.sleep(0.05)
        assert run.poll() is None, "the run ended before it could be killed"
        run.send_signal(signal.SIGKILL)
    finally:
        run.kill()
        run.wait()
    saved = len(path.read_text().splitlines()) - 1
    assert 2 <= saved < len(tasks)  # a whole file: the header and whole lines, never a torn one
    resumed = []
    again, _ = campaign.run(game, "game", seconds=60, jobs=1, max_guesses=guesses, folder=tmp_path, table=table,
                            on_progress=resumed.append)
    assert resumed[0].total == len(tasks) - saved
    assert _values(again) == _values(clean)


def test_cards_n2_opener_campaign_proves_the_committed_optimum(tmp_path):
    # the committed cards n2 tree is proven optimal over every first guess by its own build (4697, 5C JD)
    game = get_game("cards", "n2")
    tree, meta = artifacts.read(artifacts.TREE, game)
    assert meta["proven"] == "game"
    opener = tree.column("guess_text")[0].as_py()
    result, tasks = campaign.run(game, "opener", opener, seconds=60, jobs=1, max_guesses=int(meta["max_guesses"]),
                                 folder=tmp_path)
    summary = campaign.summarise(game, result, tasks)
    assert summary.proven == len(tasks) and summary.lower == summary.upper == int(meta["total_guesses"])
