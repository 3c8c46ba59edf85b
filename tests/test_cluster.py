"""The pipeline on a Dask cluster (`pipeline.cluster`): the same artifacts as a local build.

A real LocalCluster for the module (a scheduler and 2 worker processes of one thread each, on
127.0.0.1, the status page on a free loopback port). Trees (exact with and without units below the root, greedy,
pooled) built through it equal the local ones node for node (and in their artifact's `content_sha256`); an opener
ranking through it has the local ranking's exact totals; a worker killed during a run loses only its
tasks. Also the command-line options and their errors (these need no cluster), and the failures that
end with one line: an address that accepts and never answers (a wrong port, the dashboard's) within a
bound, a scheduler without workers within a bound, a scheduler killed during a run (the ranking file
survives and resumes), a task whose worker goes over its memory limit; Ctrl-C in a local ranking. Skipped
where dask.distributed is not installed (`pip install '.[dask]'`), except the error for that case and
Ctrl-C. The bounds are made small here (`CONNECT_SECONDS`, `WORKER_SECONDS`); a subprocess that does not
end within a generous limit is a hang, not a slow run.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
import os
import signal
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline import cluster
from pipeline.cluster.backend import ClusterError
from pipeline.builders.exact_tree import Plan, build, build_exact_tree, checkpoint_dir
from pipeline.builders.opener_ranking import (OPENERS, cheap_ranking, load_ranking, rank_openers, ranking_path,
                                              slice_rows)
from solver.core import artifacts, scoring
from solver.core.registry import get_game
from solver.core.search.searcher import SearchOptions
from solver.games import mastermind
from tests import exhaustive
from tests.helpers import assert_error, invoke, ok, one_line_error
from tests.interrupt import interrupt

pytestmark = pytest.mark.slow  # tens of seconds in all: `make test` runs them, `make test-fast` does not


@pytest.fixture(scope="module")
def distributed():
    """The dask.distributed module; the test is skipped where it is not installed."""
    return pytest.importorskip("distributed", reason="dask.distributed is not installed: pip install '.[dask]'")


@contextmanager
def two_workers(distributed) -> Iterator[cluster.Dask]:
    """Yield the backend of a LocalCluster of two single-threaded worker processes on 127.0.0.1."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0", memory_limit=0,
                                  silence_logs=logging.ERROR) as local, \
            distributed.Client(local, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=180)
        yield cluster.Dask(client)


@pytest.fixture(scope="module")
def dask_cluster(distributed):
    with two_workers(distributed) as backend:
        yield backend


def kill_a_busy_worker(backend: cluster.Dask) -> None:
    """SIGKILL a worker process that holds tasks (its nanny starts a new one)."""
    processing = backend.client.processing()
    busy = [address for address, keys in processing.items() if keys] or list(processing)
    os.kill(backend.worker_pids()[busy[0]], signal.SIGKILL)


def tree_sha(folder, game) -> str:
    return pq.read_schema(artifacts.artifact_path(artifacts.TREE, game, folder)).metadata[b"content_sha256"].decode()


def test_exact_tree_through_the_cluster_is_the_local_one(dask_cluster, tmp_path):
    game = exhaustive.small_wordle(150, seed=5, extra_guesses=150)
    table = scoring.feedback_table(game)
    plan = Plan(SearchOptions(max_guesses=6, memo_bits=14))
    build_exact_tree(game, table, plan, jobs=1, folder=tmp_path / "local", force=True)
    with cluster.using(dask_cluster):
        built = build(game, table, plan, jobs=2, folder=tmp_path / "dask")
        # the client wrote every class's checkpoint (the workers wrote theirs in a folder of their own)
        classes = sum(1 for parent in built.nodes.parent if parent == 0)
        assert len(list(checkpoint_dir(game, plan, tmp_path / "dask").glob("class-*.npz"))) == classes > 1
        build_exact_tree(game, table, plan, jobs=2, folder=tmp_path / "dask", force=True)
    assert tree_sha(tmp_path / "dask", game) == tree_sha(tmp_path / "local", game)
    local = pq.read_table(artifacts.artifact_path(artifacts.TREE, game, tmp_path / "local"))
    remote = pq.read_table(artifacts.artifact_path(artifacts.TREE, game, tmp_path / "dask"))
    assert local.equals(remote)


def test_units_below_the_root_and_a_killed_worker(dask_cluster, tmp_path):
    # Mastermind 4x4, root classes of 10% of the targets or more solved by units (`fanout`), as in
    # tests/test_exact_search.py; a worker is killed when the first task comes back.
    game = mastermind.game(4, 4)
    table = scoring.feedback_table(game)
    plan = Plan(SearchOptions(max_guesses=5, memo_bits=14), seed_k=3, fanout_share=0.1)
    local = build(game, table, plan, jobs=1, folder=tmp_path / "local")
    killed = []

    def progress(step, total):
        if step and not killed:
            killed.append(kill_a_busy_worker(dask_cluster))

    with cluster.using(dask_cluster):
        remote = build(game, table, plan, jobs=2, folder=tmp_path / "dask", progress=progress)
    assert killed and list(checkpoint_dir(game, plan, tmp_path / "dask").glob("unit-*.pkl"))
    assert (remote.total, remote.lower, remote.nodes) == (local.total, local.lower, local.nodes) == \
        (905, 905, local.nodes)


def test_greedy_and_pooled_trees_through_the_cluster(dask_cluster, tmp_path):
    from pipeline.builders import pooled_tree
    from pipeline.builders.greedy_tree import GreedyOptions
    from pipeline.builders.greedy_tree import build as build_greedy

    game = exhaustive.small_wordle(200, seed=2, extra_guesses=100)
    table = scoring.feedback_table(game)
    local = build_greedy(game, table, GreedyOptions(jobs=1))
    cards = get_game("cards", "n1")
    plan = pooled_tree.PooledPlan(SearchOptions(mode="top-k", k=4, max_guesses=6, order="entropy"), opener="5C",
                                  extra=10)
    pooled_local = pooled_tree.build(cards, plan, 1, folder=tmp_path / "local")
    with cluster.using(dask_cluster):
        assert build_greedy(game, table, GreedyOptions(jobs=2)) == local
        pooled_remote = pooled_tree.build(cards, plan, 2, folder=tmp_path / "dask")
    assert pooled_remote[:2] == pooled_local[:2]
    assert sorted(p.name for p in pooled_remote[3].glob("class-*.npz")) == \
        sorted(p.name for p in pooled_local[3].glob("class-*.npz"))


@pytest.fixture(scope="module")
def ranking_game():
    game = exhaustive.small_wordle(200, seed=3, extra_guesses=200)
    table = scoring.feedback_table(game)
    rows = slice_rows(cheap_ranking(game, table, game.n_guesses), best=50, random=30)
    return game, table, rows


def exact_totals(ranking) -> dict[str, int]:
    return {r.label: r.total for r in ranking.results if r.proven_exact}


def test_opener_ranking_through_the_cluster_is_the_local_one(dask_cluster, ranking_game, tmp_path):
    game, table, rows = ranking_game
    with cluster.using(cluster.Local(1)):
        local = rank_openers(game, table, rows, keep=3, folder=tmp_path / "local")
    with cluster.using(dask_cluster):
        remote = rank_openers(game, table, rows, keep=3, folder=tmp_path / "dask")
    assert len(remote.results) == len(local.results) == len(rows) == remote.evaluated
    ours, theirs = exact_totals(local), exact_totals(remote)
    assert {k: ours[k] for k in ours.keys() & theirs.keys()} == {k: theirs[k] for k in ours.keys() & theirs.keys()}
    # the three best are exact either way, and cut-off openers are proven at least the third best
    assert [(r.label, r.total, r.proven_exact) for r in remote.results[:3]] == \
        [(r.label, r.total, r.proven_exact) for r in local.results[:3]]
    assert all(r.proven_exact for r in local.results[:3])
    third = local.results[2].total
    assert all(r.total >= third for r in remote.results if not r.proven_exact)
    # the file: every opener, checked content, the metadata of every artifact and the ranking's own
    path = ranking_path(game, tmp_path / "dask")
    assert path.name == f"openers-{game.key}.parquet"
    table_read = pq.read_table(path)
    meta = {k.decode(): v.decode() for k, v in table_read.schema.metadata.items()}
    assert table_read.schema.names == ["opener", "total", "proven", "seconds"]
    assert meta["content_sha256"] == artifacts.content_digest(table_read) and meta["kind"] == OPENERS
    assert meta["fingerprint"] == game.fingerprint() and meta["backend"] == "dask"
    assert meta["cutoff_rule"].startswith("top3:") and meta["code_version"] == artifacts.CODE_VERSION
    assert set(load_ranking(game, SearchOptions(max_guesses=6), tmp_path / "dask")) == set(rows)
    assert not list(path.parent.glob(".*.tmp"))


def test_a_killed_worker_loses_only_its_task(distributed, ranking_game, tmp_path):
    # a cluster of its own: the module's keeps both workers (a nanny once took over 180 s to replace one)
    with two_workers(distributed) as own:
        _rank_while_a_worker_is_killed(own, ranking_game, tmp_path)


def _rank_while_a_worker_is_killed(dask_cluster, ranking_game, tmp_path):
    game, table, rows = ranking_game
    with cluster.using(cluster.Local(1)):
        local = rank_openers(game, table, rows, keep=3, folder=tmp_path / "local")
    killed = []

    def progress(result, cutoff):
        if not killed:
            killed.append(kill_a_busy_worker(dask_cluster))

    with cluster.using(dask_cluster):
        remote = rank_openers(game, table, rows, keep=3, folder=tmp_path / "dask", progress=progress)
    assert killed
    assert sorted(r.label for r in remote.results) == sorted(game.labels[r] for r in rows)
    ours, theirs = exact_totals(local), exact_totals(remote)
    assert all(ours[k] == theirs[k] for k in ours.keys() & theirs.keys())
    assert remote.results[:3] and [(r.label, r.total) for r in remote.results[:3]] == \
        [(r.label, r.total) for r in local.results[:3]]


def test_ranking_resumes_from_its_file(ranking_game, tmp_path):
    # in this process, then in 2 local worker processes (loky), each task with the cut-off of the moment
    game, table, rows = ranking_game
    with cluster.using(cluster.Local(1)):
        first = rank_openers(game, table, rows[:20], keep=1, folder=tmp_path)
    with cluster.using(cluster.Local(2)):
        again = rank_openers(game, table, rows[:30], keep=1, folder=tmp_path)
    assert first.evaluated == 20 and again.skipped == 20 and again.evaluated == 10
    assert {r.label: r.total for r in again.results if r.label in {x.label for x in first.results}} == \
        {r.label: r.total for r in first.results}


def test_command_line_on_the_cluster(dask_cluster, tmp_path, monkeypatch):
    monkeypatch.setenv("DEDUCE_ARTIFACTS", str(tmp_path))
    address = dask_cluster.client.scheduler.address
    # a whole build through `deduce tables`: the committed Mastermind tree, bit for bit; the hints (built
    # here, not on the cluster; tests of their own) are the committed ones and stay as they are
    hints = artifacts.artifact_path(artifacts.HINTS, get_game("mastermind"), artifacts.packaged_dir())
    shutil.copy2(hints, tmp_path / hints.name)
    ok("tables", "mastermind", "--backend", "dask", "--scheduler", address)
    assert (tmp_path / hints.name).read_bytes() == hints.read_bytes()
    game = get_game("mastermind")
    assert tree_sha(tmp_path, game) == tree_sha(artifacts.packaged_dir(), game)
    # `deduce openers --exact --all` on a slice, then resumed on this machine
    lists = tmp_path / "lists"
    lists.mkdir()
    answers, guesses = exhaustive.small_word_lists(60, seed=4, extra_guesses=40)
    (lists / "a.txt").write_text("\n".join(answers) + "\n")
    (lists / "g.txt").write_text("\n".join(guesses) + "\n")
    words = ("--answers", str(lists / "a.txt"), "--guesses", str(lists / "g.txt"))
    out = ok("openers", "wordle", "--exact", "--all", "--slice", "best:6,random:4", "--backend", "dask",
             "--scheduler", address, *words).splitlines()
    assert len(out) == 6 and out[-1].startswith("wrote ") and "10 openers" in out[-1]
    again = ok("openers", "wordle", "--exact", "--all", "--slice", "best:6,random:4", *words).splitlines()
    assert again[:-1] == out[:-1] and "0 evaluated now, 10 already there" in again[-1]


def test_backend_options_and_errors(monkeypatch):
    assert_error(invoke("tables", "--scheduler", "tcp://127.0.0.1:1"), "--scheduler needs --backend dask", 2)
    assert_error(invoke("openers", "wordle", "--exact", "--scheduler", "tcp://127.0.0.1:1"), "--scheduler needs", 2)
    assert_error(invoke("tables", "--backend", "spark"), "--backend is local or dask", 2)
    assert_error(invoke("openers", "wordle", "--backend", "dask"), "--backend needs --exact", 2)
    assert_error(invoke("openers", "wordle", "--all"), "--all needs --exact", 2)
    assert_error(invoke("openers", "wordle", "--exact", "--slice", "best:5"), "--slice needs --all", 2)
    assert_error(invoke("openers", "wordle", "--exact", "--all", "--words", "SALET"), "exclude each other", 2)
    assert_error(invoke("openers", "wordle", "--exact", "--all", "--slice", "best:x"), "--slice takes", 2)
    assert_error(invoke("openers", "wordle", "--exact", "--all", "--slice", "best:0"), "no opener", 2)
    assert_error(invoke("tables", "--game", "x:y", "--backend", "dask"), "drop --backend", 2)
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the dask extra were not installed
    for args in (("tables", "mastermind", "--backend", "dask"), ("openers", "wordle", "--exact", "--backend", "dask")):
        result = invoke(*args)
        assert_error(result, "needs the dask extra: pip install 'deduce-solver[dask]'", 1)


def test_slices():
    order = list(range(100, 0, -1))
    assert slice_rows(order, best=3) == [100, 99, 98]
    picked = slice_rows(order, best=3, random=5)
    assert picked[:3] == [100, 99, 98] and len(picked) == 8 and picked == slice_rows(order, best=3, random=5)
    assert [order.index(r) for r in picked] == sorted(order.index(r) for r in picked)  # in the cheap order
    assert slice_rows(order, best=3, random=5, seed=1) != picked
    assert slice_rows(order) == order
    assert np.all(np.isin(picked, order))


def test_table_blocks_through_the_cluster_are_the_local_table(dask_cluster, tmp_path):
    from pipeline.builders.feedback_tables import BLOCK_ROWS, build_table, compute_table

    game = exhaustive.small_wordle(300, seed=2, extra_guesses=BLOCK_ROWS * 2)  # three blocks of guess rows
    local = compute_table(game)
    rows = []
    with cluster.using(dask_cluster):
        remote = compute_table(game, on_rows=rows.append)
        build_table(game, tmp_path, force=True)
    assert np.array_equal(local, remote) and sum(rows) == game.n_guesses and len(rows) == 3
    table, _ = artifacts.read(artifacts.TABLE, game, tmp_path)
    assert np.array_equal(artifacts.table_to_numpy(table, game), local)


# -- failures that end with one line, Ctrl-C --------------------------------------------------------
ROOT = Path(__file__).resolve().parents[1]


DASK = Path(sys.executable).parent / "dask"


HANG = 120  # seconds: a command still running then hangs


# the command line in a process of its own, with the backend's bounds made small
CLI = '''
import sys
from pipeline.cluster import backend
backend.CONNECT_SECONDS = 1
backend.WORKER_SECONDS = 2
from solver.cli.main import app
sys.argv = ["deduce", *sys.argv[1:]]
app()
'''


# the same, each ranking task slowed down (pickled by value from __main__, so the workers run it too)
# and the ranking file saved after every result: the scheduler is killed while tasks remain
SLOW_RANKING = '''
import sys
import time
from pipeline.builders import opener_ranking

_rank_task = opener_ranking._rank_task


def slow_rank_task(*args):
    time.sleep(0.5)
    return _rank_task(*args)


opener_ranking._rank_task = slow_rank_task
opener_ranking.SAVE_SECONDS = 0.0
from solver.cli.main import app
sys.argv = ["deduce", *sys.argv[1:]]
app()
'''


def environment(tmp_path: Path) -> dict:
    return {**os.environ, "DEDUCE_ARTIFACTS": str(tmp_path / "art"), "PYTHONPATH": str(ROOT), "COLUMNS": "200"}


def run_script(script: str, args, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script, *args], cwd=tmp_path, env=environment(tmp_path),
                          capture_output=True, text=True, timeout=HANG)


@pytest.fixture
def silent_port():
    """A port on 127.0.0.1 that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield server.getsockname()[1]


def test_an_address_that_never_answers_and_a_scheduler_without_workers_end_with_one_line(distributed, tmp_path,
                                                                                          silent_port):
    address = f"tcp://127.0.0.1:{silent_port}"
    for args in (("tables", "mastermind"), ("openers", "wordle", "--exact", "--words", "SALET")):
        result = run_script(CLI, [*args, "--backend", "dask", "--scheduler", address], tmp_path)
        assert result.returncode == 1, (result.stdout, result.stderr)
        one_line_error(result.stderr,
                       f"the Dask scheduler '{address}' accepted the connection but did not answer within 1 s")
    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                  silence_logs=logging.CRITICAL) as empty:
        result = run_script(CLI, ["tables", "mastermind", "--backend", "dask", "--scheduler", empty.scheduler_address],
                     tmp_path)
    assert result.returncode == 1, (result.stdout, result.stderr)
    one_line_error(result.stderr, "no Dask worker joined the scheduler")


def test_a_refused_address_and_one_that_is_no_address_say_so(distributed, tmp_path):
    with socket.socket() as closed:  # a port nobody listens on: connections to it are refused
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    result = run_script(CLI, ["tables", "mastermind", "--backend", "dask", "--scheduler", address], tmp_path)
    assert result.returncode == 1, (result.stdout, result.stderr)
    one_line_error(result.stderr, f"the Dask scheduler '{address}' refused the connection")
    for args in (("tables", "mastermind"), ("openers", "wordle", "--exact", "--words", "CRANE")):  # CRANE: ranked
        result = run_script(CLI, [*args, "--backend", "dask", "--scheduler", "not a url"], tmp_path)
        assert result.returncode == 2 and "--scheduler 'not a url' is not an address" in result.stderr, result.stderr


def start(args, log: Path) -> subprocess.Popen:
    return subprocess.Popen(args, stdout=log.open("w"), stderr=subprocess.STDOUT, cwd=log.parent,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)


def wait_for(condition, what: str, seconds: float = HANG) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {seconds} s"
        time.sleep(0.1)


def test_a_scheduler_killed_during_a_run_ends_with_one_line_and_the_ranking_resumes(distributed, tmp_path,
                                                                                      monkeypatch):
    lists = tmp_path / "lists"
    lists.mkdir()
    answers, guesses = exhaustive.small_word_lists(60, seed=4, extra_guesses=40)
    (lists / "a.txt").write_text("\n".join(answers) + "\n")
    (lists / "g.txt").write_text("\n".join(guesses) + "\n")
    words = ["--answers", str(lists / "a.txt"), "--guesses", str(lists / "g.txt")]
    file = tmp_path / "scheduler.json"
    processes = [start([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                        "--scheduler-file", str(file)], tmp_path / "scheduler.log")]
    try:
        wait_for(file.exists, "scheduler file")
        wait_for(lambda: "address" in (file.read_text() or "{}"), "scheduler address")
        address = json.loads(file.read_text())["address"]
        processes.append(start([str(DASK), "worker", "--scheduler-file", str(file), "--nthreads", "1", "--nworkers",
                                "1", "--memory-limit", "0", "--no-dashboard", "--death-timeout", "5"],
                               tmp_path / "worker.log"))
        runner = subprocess.Popen([sys.executable, "-c", SLOW_RANKING, "openers", "wordle", "--exact", "--all",
                                   "--top", "3", *words, "--backend", "dask", "--scheduler", address],
                                  cwd=tmp_path, env=environment(tmp_path), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        art = tmp_path / "art"
        wait_for(lambda: any(art.glob("openers-*.parquet")) or runner.poll() is not None, "ranking file")
        os.killpg(processes[0].pid, signal.SIGKILL)  # the scheduler, mid-run
        out, err = runner.communicate(timeout=HANG)
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert runner.returncode == 1, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: lost the Dask scheduler"), err
    # the ranking file survived: a run on this machine resumes it
    monkeypatch.setenv("DEDUCE_ARTIFACTS", str(tmp_path / "art"))
    summary = ok("openers", "wordle", "--exact", "--all", "--top", "3", *words).splitlines()[-1]
    there = int(summary.split(" evaluated now, ")[1].split()[0])
    assert there >= 1 and summary.startswith("wrote "), summary


def hog():
    """Take memory until the worker's nanny kills the worker."""
    chunks = []
    while True:
        chunks.append(np.ones(50_000_000 // 8))
        time.sleep(0.02)


def test_a_worker_over_its_memory_limit_ends_as_one_cluster_error(distributed):
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                     dashboard_address="127.0.0.1:0", memory_limit="400MB",
                                     silence_logs=logging.CRITICAL) as local, \
            distributed.Client(local, set_as_default=False) as client:
        backend = cluster.Dask(client)
        with pytest.raises(ClusterError, match="the Dask worker running it died .* over its memory limit"):
            list(backend.imap_unordered(hog, [()]))
        with pytest.raises(ClusterError, match="died"):
            list(backend.map(hog, [()]))


# each ranking task first leaves a file in the working folder, then sleeps far longer than the test waits
STUCK_RANKING = '''
import sys
import time
from pathlib import Path
from pipeline.builders import opener_ranking

_rank_task = opener_ranking._rank_task


def stuck_rank_task(*args):
    Path(f"started-{time.time_ns()}").touch()
    time.sleep(600)
    return _rank_task(*args)


opener_ranking._rank_task = stuck_rank_task
from solver.cli.main import app
sys.argv = ["deduce", *sys.argv[1:]]
app()
'''


def test_ctrl_c_stops_a_local_ranking_at_once_with_its_tasks_running(tmp_path):
    """Ctrl-C in `deduce openers --exact --all --jobs 2` ends the run at once, although the workers'
    tasks would run on for minutes (the kernels do not look at signals), with status 130: each task
    sleeps 600 s, and a command still running 60 s after the signal fails the test (`tests.interrupt`)."""
    lists = tmp_path / "lists"
    lists.mkdir()
    answers, guesses = exhaustive.small_word_lists(60, seed=4, extra_guesses=40)
    (lists / "a.txt").write_text("\n".join(answers) + "\n")
    (lists / "g.txt").write_text("\n".join(guesses) + "\n")
    args = [sys.executable, "-c", STUCK_RANKING, "openers", "wordle", "--exact", "--all", "--answers",
            str(lists / "a.txt"), "--guesses", str(lists / "g.txt"), "--jobs", "2"]

    def two_tasks_running(runner) -> None:
        wait_for(lambda: len(list(tmp_path.glob("started-*"))) >= 2 or runner.poll() is not None, "two tasks running")

    status, stopped, out, err = interrupt(args, two_tasks_running, cwd=tmp_path, env=environment(tmp_path))
    assert status == 130 and out == "", (stopped, out, err)  # interrupted: no ranking printed
    assert "Traceback" not in err, err
