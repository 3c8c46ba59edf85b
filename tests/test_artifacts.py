"""Artifacts: Parquet round trip, freshness, and clear errors naming a bad file."""
import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline.builders.feedback_tables import build_table, compute_table, load_table
from solver.core import artifacts, atomic
from solver.core.registry import all_variants, get_game
from solver.core.runtime import Solver
from solver.games import bulls, mastermind


def test_table_round_trip(tmp_path):
    game = mastermind.game()
    result = build_table(game, tmp_path)
    assert result.built and result.path.name == "table-mastermind-default.parquet"
    table, meta = artifacts.read(artifacts.TABLE, game, tmp_path)
    codes = artifacts.table_to_numpy(table, game)
    assert codes.dtype == np.uint8 and codes.shape == (1296, 1296)
    assert np.array_equal(codes, compute_table(game))
    assert meta["game"] == "mastermind" and meta["schema_version"] == artifacts.SCHEMA_VERSION
    assert int(meta["targets"]) == 1296 and meta["fingerprint"] == game.fingerprint()
    assert not build_table(game, tmp_path).built  # up to date: skipped
    assert np.array_equal(load_table(game, tmp_path), codes)


def test_manifest_lists_rows_bytes_sha(tmp_path):
    import json

    build_table(mastermind.game(), tmp_path)
    manifest = json.loads(artifacts.write_manifest(tmp_path).read_text())
    entry = manifest["artifacts"]["table-mastermind-default.parquet"]
    assert entry["rows"] == 1296 and entry["bytes"] > 0 and len(entry["sha256"]) == 64


def test_missing_artifact_is_missing_table_error(tmp_path):
    with pytest.raises(artifacts.MissingTableError, match="table-bulls-default"):
        artifacts.read(artifacts.TABLE, bulls.game(), tmp_path)
    assert isinstance(artifacts.MissingTableError("x"), KeyError)


def test_truncated_file_names_the_file(tmp_path):
    game = mastermind.game()
    path = build_table(game, tmp_path).path
    path.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(artifacts.ArtifactError, match=str(path)):
        artifacts.read(artifacts.TABLE, game, tmp_path)
    assert not artifacts.is_current(artifacts.TABLE, game, tmp_path)


def test_wrong_schema_version_and_checksum_are_reported(tmp_path):
    game = mastermind.game()
    path = build_table(game, tmp_path).path
    table = pq.read_table(path)
    meta = dict(table.schema.metadata)
    pq.write_table(table.replace_schema_metadata({**meta, b"schema_version": b"0"}), path)
    with pytest.raises(artifacts.ArtifactError, match="schema version"):
        artifacts.read(artifacts.TABLE, game, tmp_path)
    codes = table.column("codes").combine_chunks().flatten().to_numpy().copy()
    codes[0] ^= 1
    tampered = artifacts.table_from_numpy(codes.reshape(1296, 1296), game).replace_schema_metadata(meta)
    pq.write_table(tampered, path)
    with pytest.raises(artifacts.ArtifactError, match="checksum"):
        artifacts.read(artifacts.TABLE, game, tmp_path)


def test_other_rules_are_refused(tmp_path):
    build_table(mastermind.game(), tmp_path)
    other = mastermind.game(pegs=3, colours=4)
    wrong_name = tmp_path / artifacts.artifact_path(artifacts.TABLE, other, tmp_path).name
    (tmp_path / "table-mastermind-default.parquet").rename(wrong_name)
    with pytest.raises(artifacts.ArtifactError, match="other rules"):
        artifacts.read(artifacts.TABLE, other, tmp_path)


def test_interrupted_write_keeps_old_file(tmp_path):
    target = tmp_path / "state.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic.replacing(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def test_peek_opener_reads_the_root_guess_without_loading_the_tree(tmp_path):
    for key in all_variants():
        game = get_game(*key)
        tree = Solver(game).tree
        assert artifacts.peek_opener(game) == (None if tree is None else int(tree.guess[0])), key
    game = mastermind.game()
    assert artifacts.peek_opener(game, tmp_path) is None  # no file
    source = artifacts.artifact_path("tree", bulls.game())
    (tmp_path / artifacts.artifact_name("tree", game)).write_bytes(source.read_bytes())
    assert artifacts.peek_opener(game, tmp_path) is None  # another game's tree under this game's name
    (tmp_path / artifacts.artifact_name("tree", game)).write_bytes(b"PAR1 not a parquet file")
    assert artifacts.peek_opener(game, tmp_path) is None
