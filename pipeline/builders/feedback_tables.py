"""Build the full feedback tables: one Parquet artifact per game variant."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline import cluster
from solver.core import artifacts
from solver.core.game import Game
from solver.core.registry import TABLE_VARIANTS, get_game

BLOCK_ROWS = 2048  # guess rows per kernel call, so progress advances and memory stays bounded


@dataclass
class BuildResult:
    """What one build did: the artifact, whether it was rebuilt, and how long it took (seconds)."""

    path: Path
    built: bool
    seconds: float


def _block(game: Game, _table, start: int, stop: int) -> tuple[int, np.ndarray]:
    """Return (start, codes of guess rows start..stop-1): one task of a table built on a cluster."""
    from solver.core import scoring  # defers Numba to the compute path

    return start, scoring.feedback_table(game, np.arange(start, stop))


def compute_table(game: Game, on_rows=None) -> np.ndarray:
    """Return codes[n_guesses, n_targets] for `game`, computed in blocks of guess rows (on the
    cluster's workers, one task per block, when the current backend is distributed)."""
    from solver.core import scoring  # defers Numba to the compute path

    out = np.empty((game.n_guesses, game.n_targets), dtype=game.code_dtype)
    backend = cluster.current()
    if backend.distributed:
        blocks = [(start, min(start + BLOCK_ROWS, game.n_guesses)) for start in range(0, game.n_guesses, BLOCK_ROWS)]
        for start, codes in backend.imap_unordered(_block, blocks, game=game):
            out[start:start + codes.shape[0]] = codes
            if on_rows:
                on_rows(codes.shape[0])
        return out
    for start in range(0, game.n_guesses, BLOCK_ROWS):
        stop = min(start + BLOCK_ROWS, game.n_guesses)
        out[start:stop] = scoring.feedback_table(game, np.arange(start, stop))
        if on_rows:
            on_rows(stop - start)
    return out


def build_table(game: Game, folder: Path | None = None, force: bool = False, on_rows=None) -> BuildResult:
    """Build a game's table artifact unless it is up to date; return what was done."""
    path = artifacts.artifact_path(artifacts.TABLE, game, folder)
    if not force and artifacts.is_current(artifacts.TABLE, game, folder):
        return BuildResult(path, False, 0.0)
    start = time.perf_counter()
    codes = compute_table(game, on_rows)
    extra = {"guesses": game.n_guesses, "targets": game.n_targets, "n_codes": game.n_codes}
    artifacts.write(artifacts.TABLE, game, artifacts.table_from_numpy(codes, game), extra, folder)
    return BuildResult(path, True, time.perf_counter() - start)


def load_table(game: Game, folder: Path | None = None) -> np.ndarray:
    """Return a game's feedback table from its artifact (checked), building it if it is missing or stale."""
    try:
        table, _ = artifacts.read(artifacts.TABLE, game, folder)
    except (artifacts.MissingTableError, artifacts.ArtifactError):
        build_table(game, folder, force=True)
        table, _ = artifacts.read(artifacts.TABLE, game, folder)
    return artifacts.table_to_numpy(table, game)


def table_games(names: list[str] | None = None) -> list[Game]:
    """Return the variants whose table is built, restricted to game `names` when given."""
    return [get_game(n, v) for n, v in TABLE_VARIANTS if not names or n in names]
