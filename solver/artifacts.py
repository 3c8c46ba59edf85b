"""Every artifact the pipeline writes and the solver reads: names, schemas, metadata, checks.

Files, all under `artifacts_dir()` (``artifacts/`` of the checkout, or ``$DEDUCE_ARTIFACTS``):

* ``table-<game>-<variant>.parquet``: the full feedback table, one row per allowed guess.
  Columns: ``guess`` (int32, guess row index), ``codes`` (fixed-size list of uint8 or uint16, one
  feedback code per target, in the game's target order).
* ``tree-<game>-<variant>.parquet``: a complete decision tree, one row per node (a state in which a
  guess is played). Columns: ``node`` (int32, 0 = root), ``parent`` (int32, -1 for the root),
  ``feedback`` (int32, the code the parent's guess received to lead here, -1 for the root),
  ``depth`` (int16, guesses made before this node), ``guess`` (int32, guess row index),
  ``guess_text`` (string), ``remaining`` (int32, candidates left at this node),
  ``subtree_guesses`` (int64, guesses needed to finish every candidate of this node, counted
  from this node's guess: the sum over its candidates of their depth below it plus one).
* ``manifest.json``: for each artifact, its rows, bytes and sha256.

Key-value metadata of every Parquet artifact (all values are strings): ``schema_version``,
``kind`` (table / tree), ``game``, ``variant``, ``fingerprint`` (`Game.fingerprint`: the word
lists and the rule source), ``code_version``, ``build_time`` (UTC ISO 8601), ``content_sha256``
(sha256 over the column data, checked on every read), and per kind: ``guesses``, ``targets``,
``n_codes`` for tables; ``targets``, ``total_guesses``, ``max_guesses``, ``strategy`` for trees.
"""
from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from solver import atomic
from solver.game import Game

SCHEMA_VERSION = "1"
CODE_VERSION = "0.1.0"
MANIFEST = "manifest.json"
TABLE, TREE = "table", "tree"

TREE_SCHEMA = pa.schema([
    ("node", pa.int32()),
    ("parent", pa.int32()),
    ("feedback", pa.int32()),
    ("depth", pa.int16()),
    ("guess", pa.int32()),
    ("guess_text", pa.string()),
    ("remaining", pa.int32()),
    ("subtree_guesses", pa.int64()),
])


class ArtifactError(ValueError):
    """An artifact exists but cannot be used (unreadable, wrong schema, checksum or game)."""


class MissingTableError(KeyError):
    """No artifact file for this game variant."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "missing artifact"


def artifacts_dir() -> Path:
    """Return the artifact folder: $DEDUCE_ARTIFACTS, else ``artifacts/`` next to the packages."""
    env = os.environ.get("DEDUCE_ARTIFACTS")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "artifacts"


def artifact_path(kind: str, game: Game, folder: Path | None = None) -> Path:
    """Return the path of the `kind` artifact (table or tree) of a game variant."""
    return (folder or artifacts_dir()) / f"{kind}-{game.key}.parquet"


def table_schema(game: Game) -> pa.Schema:
    """Return the schema of a game's feedback table."""
    value = pa.uint8() if game.code_dtype == np.uint8 else pa.uint16()
    return pa.schema([("guess", pa.int32()), ("codes", pa.list_(value, game.n_targets))])


def content_digest(table: pa.Table) -> str:
    """Return the sha256 of a table's column data, independent of Parquet encoding."""
    digest = hashlib.sha256()
    for name in table.column_names:
        column = table.column(name).combine_chunks()
        digest.update(name.encode())
        if pa.types.is_string(column.type):
            digest.update("\x00".join(column.to_pylist()).encode())
        elif pa.types.is_fixed_size_list(column.type):
            digest.update(np.ascontiguousarray(column.flatten().to_numpy()).tobytes())
        else:
            digest.update(np.ascontiguousarray(column.to_numpy()).tobytes())
    return digest.hexdigest()


def _metadata(kind: str, game: Game, table: pa.Table, extra: dict) -> dict[str, str]:
    meta = {
        "schema_version": SCHEMA_VERSION,
        "kind": kind,
        "game": game.name,
        "variant": game.variant,
        "fingerprint": game.fingerprint(),
        "code_version": CODE_VERSION,
        "build_time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "content_sha256": content_digest(table),
    }
    meta.update({key: str(value) for key, value in extra.items()})
    return meta


def write(kind: str, game: Game, table: pa.Table, extra: dict, folder: Path | None = None) -> Path:
    """Write an artifact atomically with its metadata; return its path."""
    path = artifact_path(kind, game, folder)
    meta = _metadata(kind, game, table, extra)
    table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in meta.items()})
    with atomic.replacing(path) as tmp:
        pq.write_table(table, tmp, compression="zstd", row_group_size=1 << 16)
    return path


def read_metadata(path: Path) -> dict[str, str]:
    """Return an artifact's key-value metadata; MissingTableError / ArtifactError if unusable."""
    if not path.is_file():
        raise MissingTableError(f"no artifact {path}")
    try:
        raw = pq.read_schema(path).metadata or {}
    except (pa.ArrowException, OSError) as err:
        raise ArtifactError(f"{path} is not a readable Parquet file: {err}") from None
    meta = {k.decode(): v.decode() for k, v in raw.items()}
    if meta.get("schema_version") != SCHEMA_VERSION:
        raise ArtifactError(f"{path} has schema version {meta.get('schema_version')!r}, expected {SCHEMA_VERSION}")
    return meta


def is_current(kind: str, game: Game, folder: Path | None = None, **expected: str) -> bool:
    """Return True if the artifact exists, has this schema, this game's fingerprint and `expected` metadata."""
    try:
        meta = read_metadata(artifact_path(kind, game, folder))
    except (MissingTableError, ArtifactError):
        return False
    wanted = {"kind": kind, "fingerprint": game.fingerprint(), "code_version": CODE_VERSION, **expected}
    return all(meta.get(k) == str(v) for k, v in wanted.items())


def read(kind: str, game: Game, folder: Path | None = None) -> tuple[pa.Table, dict[str, str]]:
    """Return (table, metadata) of a checked artifact.

    Raises MissingTableError if the file is absent, ArtifactError (naming the file) if it cannot be
    read, has another schema version, kind or game fingerprint, or fails its content checksum.
    """
    path = artifact_path(kind, game, folder)
    meta = read_metadata(path)
    if meta.get("kind") != kind or meta.get("fingerprint") != game.fingerprint():
        raise ArtifactError(f"{path} was built for other rules or word lists: rebuild it with `make tables`")
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as err:
        raise ArtifactError(f"{path} is not a readable Parquet file: {err}") from None
    if content_digest(table) != meta.get("content_sha256"):
        raise ArtifactError(f"{path} fails its content checksum: rebuild it with `make tables`")
    return table, meta


def table_to_numpy(table: pa.Table, game: Game) -> np.ndarray:
    """Return codes[n_guesses, n_targets] from a feedback-table artifact."""
    values = table.column("codes").combine_chunks().flatten().to_numpy()
    return values.reshape(table.num_rows, game.n_targets)


def table_from_numpy(codes: np.ndarray, game: Game) -> pa.Table:
    """Return the Arrow table of a feedback table codes[n_guesses, n_targets]."""
    schema = table_schema(game)
    flat = pa.array(np.ascontiguousarray(codes).ravel(), type=schema.field("codes").type.value_type)
    lists = pa.FixedSizeListArray.from_arrays(flat, game.n_targets)
    return pa.table([pa.array(np.arange(codes.shape[0], dtype=np.int32)), lists], schema=schema)


def file_sha256(path: Path) -> str:
    """Return the sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_manifest(folder: Path | None = None) -> Path:
    """Rewrite manifest.json listing every artifact in the folder (rows, bytes, sha256)."""
    folder = folder or artifacts_dir()
    entries = {}
    for path in sorted(folder.glob("*.parquet")):
        entries[path.name] = {
            "rows": pq.ParquetFile(path).metadata.num_rows,
            "bytes": path.stat().st_size,
            "sha256": file_sha256(path),
        }
    target = folder / MANIFEST
    atomic.write_text(target, json.dumps({"schema_version": SCHEMA_VERSION, "artifacts": entries}, indent=2) + "\n")
    return target
