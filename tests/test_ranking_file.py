"""The exact opener ranking's file (`pipeline.builders.opener_ranking`): two `deduce openers --exact --all`
runs into one folder at once with different `--slice`s keep both runs' openers (each rewrite of the ranking file
merges what the file holds under its lock)."""
from __future__ import annotations

import pyarrow as pa
import pytest

from pipeline import cluster
from pipeline.builders.opener_ranking import (OpenerTotal, better, cheap_ranking, load_ranking, rank_openers,
                                              ranking_path)
from solver.core import artifacts, scoring
from solver.core.search.searcher import SearchOptions
from tests import exhaustive


@pytest.fixture(scope="module")
def ranking_game():
    game = exhaustive.small_wordle(80, seed=7, extra_guesses=40)
    table = scoring.feedback_table(game)
    return game, table, cheap_ranking(game, table, game.n_guesses)


def test_two_ranking_runs_into_one_folder_keep_both_runs_openers(ranking_game, tmp_path):
    # run B (another --slice) starts and ends while run A is under way, as two processes would
    game, table, order = ranking_game
    first, second = order[:12], order[12:30]
    other = []

    def progress(result, cutoff):
        if not other:
            other.append(rank_openers(game, table, second, keep=3, folder=tmp_path, selection="best:0,random:18"))

    with cluster.using(cluster.Local(1)):
        ranking = rank_openers(game, table, first, keep=3, folder=tmp_path, progress=progress,
                               selection="best:12,random:0")
    assert other and other[0].evaluated == len(second)
    in_file = load_ranking(game, SearchOptions(max_guesses=6), tmp_path)
    assert set(in_file) == set(first) | set(second) == {r.row for r in ranking.results}
    meta = artifacts.read_metadata(ranking_path(game, tmp_path))
    assert meta["selection"] == "best:0,random:18 + best:12,random:0"
    # each run's wall time is added to the file's: the file's exceeds each run's own (B's whole run lies
    # within A's, but each run's clock for the file starts once it has read the file: not a fixed share)
    wall, b_wall = float(meta["wall_seconds"]), other[0].wall_seconds
    assert 0 < b_wall < wall and ranking.wall_seconds < wall + 1e-3  # the file keeps milliseconds
    assert not list(tmp_path.glob(".*.lock")) and not list(tmp_path.glob(".*.tmp"))


def test_a_merge_keeps_an_exact_total_over_a_bound_and_the_higher_bound():
    exact, low, high = OpenerTotal(1, "A", 50, True, 1.0), OpenerTotal(1, "A", 40, False, 1.0), \
        OpenerTotal(1, "A", 45, False, 2.0)
    assert better(None, low) is low and better(low, exact) is exact and better(exact, high) is exact
    assert better(low, high) is high and better(high, low) is high


@pytest.mark.parametrize("total, seconds", [(0, 1.0), (-1, 1.0), (10, float("nan")), (200, -2.0)])
def test_a_ranking_with_impossible_figures_is_refused(ranking_game, tmp_path, total, seconds):
    # a total below 2 x targets - 1 cannot be, whatever the checksum says (recomputed here, as by hand)
    game, table, order = ranking_game
    rank_openers(game, table, order[:3], keep=3, folder=tmp_path, selection="best:3")
    path = artifacts.artifact_path(artifacts.OPENERS, game, tmp_path)
    data, meta = artifacts.read(artifacts.OPENERS, game, tmp_path)
    totals = data.column("total").to_pylist()
    times = data.column("seconds").to_pylist()
    totals[0], times[0] = total, seconds
    data = data.set_column(1, "total", pa.array(totals, pa.int64())).set_column(3, "seconds", pa.array(times))
    base = {"schema_version", "kind", "game", "variant", "fingerprint", "code_version", "build_time", "content_sha256"}
    artifacts.write(artifacts.OPENERS, game, data.replace_schema_metadata(None),
                    {k: v for k, v in meta.items() if k not in base}, tmp_path)
    with pytest.raises(artifacts.ArtifactError, match="is at least"):
        artifacts.read_openers(game, tmp_path)
    assert path.exists()


def test_two_runs_on_different_numbers_of_workers_write_the_same_totals(ranking_game, tmp_path):
    # the cut-off falls as exact totals come in, at times that depend on the workers: what each
    # opener's row says must not
    game, table, order = ranking_game
    files = []
    for jobs in (1, 2):
        with cluster.open_backend("local", None, jobs):
            ranking = rank_openers(game, table, order[:40], keep=3, folder=tmp_path / f"jobs{jobs}",
                                   selection="best:40")
        data, _ = artifacts.read(artifacts.OPENERS, game, tmp_path / f"jobs{jobs}")
        files.append({name: data.column(name).to_pylist() for name in ("opener", "total", "proven")})
        assert all(r.proven_exact == (r.total < ranking.cutoff) for r in ranking.results)
    assert files[0] == files[1]


def test_settling_keeps_what_is_below_the_final_cutoff_and_bounds_the_rest():
    from pipeline.builders.opener_ranking import settled

    early = [OpenerTotal(0, "A", 100, True, 1.0), OpenerTotal(1, "B", 130, True, 1.0),
             OpenerTotal(2, "C", 150, False, 1.0)]
    late = [OpenerTotal(0, "A", 100, True, 2.0), OpenerTotal(1, "B", 120, False, 2.0),
            OpenerTotal(2, "C", 121, False, 2.0)]
    strip = lambda results: [(r.row, r.total, r.proven_exact) for r in results]  # noqa: E731
    assert strip(settled(early, 120)) == strip(settled(late, 120)) == [(0, 100, True), (1, 120, False), (2, 120, False)]
