"""The Dask backend's failures end with one line (issue 22, item 4): an address that accepts and never
answers (a wrong port, the dashboard's) within a bound, a scheduler without workers within a bound,
a scheduler killed during a run (the ranking file survives and resumes), a task whose worker goes
over its memory limit. Skipped where dask.distributed is not installed (`pip install '.[dask]'`).

The bounds are made small here (`CONNECT_SECONDS`, `WORKER_SECONDS`); a subprocess that does not
end within a generous limit is a hang, not a slow run.
"""
from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pipeline import cluster
from pipeline.cluster.backend import ClusterError
from tests import exhaustive
from tests.interrupt import interrupt
from tests.test_cli import ok

pytestmark = pytest.mark.slow  # tens of seconds in all: `make test` runs them, `make test-fast` does not

distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed: pip install '.[dask]'")

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


def run(script: str, args, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script, *args], cwd=tmp_path, env=environment(tmp_path),
                          capture_output=True, text=True, timeout=HANG)


COMPILE_NOTICE = "warning: compiling "  # the one notice of a command that must compile kernels first


def one_line_error(result: subprocess.CompletedProcess, words: str) -> None:
    assert result.returncode == 1, (result.stdout, result.stderr)
    # on a cold kernel cache the command first says, in a line of its own, that it compiles (`tell_compiling`)
    lines = [line for line in result.stderr.strip().splitlines() if not line.startswith(COMPILE_NOTICE)]
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.stderr


@pytest.fixture
def silent_port():
    """A port on 127.0.0.1 that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield server.getsockname()[1]


def test_an_address_that_never_answers_and_a_scheduler_without_workers_end_with_one_line(tmp_path, silent_port):
    address = f"tcp://127.0.0.1:{silent_port}"
    for args in (("tables", "mastermind"), ("openers", "wordle", "--exact", "--words", "SALET")):
        result = run(CLI, [*args, "--backend", "dask", "--scheduler", address], tmp_path)
        one_line_error(result, f"the Dask scheduler '{address}' accepted the connection but did not answer within 1 s")
    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                  silence_logs=logging.CRITICAL) as empty:
        result = run(CLI, ["tables", "mastermind", "--backend", "dask", "--scheduler", empty.scheduler_address],
                     tmp_path)
    one_line_error(result, "no Dask worker joined the scheduler")


def test_a_refused_address_and_one_that_is_no_address_say_so(tmp_path):
    with socket.socket() as closed:  # a port nobody listens on: connections to it are refused
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    result = run(CLI, ["tables", "mastermind", "--backend", "dask", "--scheduler", address], tmp_path)
    one_line_error(result, f"the Dask scheduler '{address}' refused the connection")
    for args in (("tables", "mastermind"), ("openers", "wordle", "--exact", "--words", "CRANE")):  # CRANE: ranked
        result = run(CLI, [*args, "--backend", "dask", "--scheduler", "not a url"], tmp_path)
        assert result.returncode == 2 and "--scheduler 'not a url' is not an address" in result.stderr, result.stderr


def start(args, log: Path) -> subprocess.Popen:
    return subprocess.Popen(args, stdout=log.open("w"), stderr=subprocess.STDOUT, cwd=log.parent,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)


def wait_for(condition, what: str, seconds: float = HANG) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {seconds} s"
        time.sleep(0.1)


def test_a_scheduler_killed_during_a_run_ends_with_one_line_and_the_ranking_resumes(tmp_path, monkeypatch):
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


def test_a_worker_over_its_memory_limit_ends_as_one_cluster_error():
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
