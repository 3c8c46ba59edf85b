"""Every committed tree is pinned and replayed: a new `artifacts/tree-*.parquet` that no test replays fails.

The replays (tests/test_trees.py, tests/test_trees_large.py) assert the exact totals and worst cases
of `PINNED`; the (game, variant) of each tree file is read from its own metadata (keys `game` and
`variant`), not from its name.
"""
from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from tests import test_trees, test_trees_large
from tests.test_trees import PINNED

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


def committed_trees() -> dict[Path, tuple[str, str]]:
    """Return the (game, variant) of every tree file under artifacts/, from its metadata."""
    out = {}
    for path in sorted(ARTIFACTS.glob("tree-*.parquet")):
        meta = {k.decode(): v.decode() for k, v in (pq.read_schema(path).metadata or {}).items()
                if k != b"ARROW:schema"}
        assert meta.get("kind") == "tree" and "game" in meta and "variant" in meta, f"{path.name}: metadata {meta}"
        out[path] = (meta["game"], meta["variant"])
    return out


def replayed() -> set[tuple[str, str]]:
    """Return every (game, variant) some replay test plays against all its targets."""
    keys = set(test_trees.REPLAYED)  # through the public API (cards n4: every 50th; all by the walk below)
    keys.add(("cards", "n4"))  # test_cards4_tree_walk_finishes_every_target_as_pinned
    keys |= {("wordle", variant) for variant, _ in test_trees_large.LARGE + test_trees_large.HARD}
    return keys


def test_every_committed_tree_is_pinned_and_replayed():
    trees = committed_trees()
    assert trees, f"no tree-*.parquet under {ARTIFACTS}"
    unpinned = sorted(f"{path.name} {key}" for path, key in trees.items() if key not in PINNED)
    assert not unpinned, f"trees without pinned results in tests/test_trees.py PINNED: {unpinned}"
    unplayed = sorted(f"{path.name} {key}" for path, key in trees.items() if key not in replayed())
    assert not unplayed, f"trees no replay test plays: {unplayed}"
    assert len(set(trees.values())) == len(trees), "two tree files of one (game, variant)"


def test_every_pinned_tree_is_committed_and_replayed():
    committed = set(committed_trees().values())
    assert sorted(set(PINNED) - committed) == [], "pinned trees missing under artifacts/"
    assert replayed() == set(PINNED)
