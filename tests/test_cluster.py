"""The pipeline on a Dask cluster (`pipeline.cluster`): the same artifacts as a local build.

A real LocalCluster for the module (a scheduler and 2 worker processes of one thread each, on
127.0.0.1, the status page on a free loopback port). Trees (exact with and without units below the root, greedy, pooled) built
through it equal the local ones node for node (and in their artifact's `content_sha256`); an opener
ranking through it has the local ranking's exact totals; a worker killed during a run loses only its
tasks. Also the command-line options and their errors (these need no cluster). Skipped where
dask.distributed is not installed (`pip install '.[dask]'`), except the error for that case.
"""
from __future__ import annotations

import logging
import os
import signal
import shutil
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline import cluster
from pipeline.builders.exact_tree import Plan, build, build_exact_tree, checkpoint_dir
from pipeline.builders.opener_ranking import OPENERS, cheap_ranking, load_ranking, rank_openers, ranking_path, slice_rows
from solver.core import artifacts, scoring
from solver.core.registry import get_game
from solver.core.search.searcher import SearchOptions
from solver.games import mastermind
from tests import exhaustive
from tests.test_cli import assert_error, invoke, ok

pytestmark = pytest.mark.slow  # tens of seconds in all: `make test` runs them, `make test-fast` does not


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed: pip install '.[dask]'")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0", memory_limit=0, silence_logs=logging.ERROR) as local, \
            distributed.Client(local, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=180)
        yield cluster.Dask(client)


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
    plan = pooled_tree.PooledPlan(SearchOptions(mode="top-k", k=4, max_guesses=6, order="entropy"), opener="5C", extra=10)
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


def test_a_killed_worker_loses_only_its_task(dask_cluster, ranking_game, tmp_path):
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
    dask_cluster.client.wait_for_workers(2, timeout=180)  # the nanny started a new worker (slow on a busy machine)


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
