"""Restamp the committed artifacts: rewrite their metadata, never their rows (a maintainers' tool).

    python -m pipeline.restamp            # restamp artifacts/tree-*, openers-*, book-* and hints-*.parquet
    python -m pipeline.restamp --check    # exit 1 listing those a restamp would change
    python -m pipeline.restamp PATH...    # these artifacts only

An artifact is current when its ``code_version`` is the code version of the sources that make
artifacts (`solver.core.codeversion`): any change to those sources (the rules, the search kernel,
the builders, the plans) makes every artifact stale, and `make tables` rebuilds them (hours for the
large Wordle trees). A restamp instead sets ``code_version`` to the current one, keeping the rows
exactly: the version the rows were built with is kept as ``restamped_from`` (set by the first
restamp, kept by later ones: the versions in between built nothing); a hints file's ``advice_version``
(the ranking's own sources) likewise, the one that ranked its rows kept as ``advice_restamped_from``, legitimate
when `tests/test_hints.py` finds the stored rankings equal to those computed now; and the provenance of the plan's
published constants is added (``<what>_source``, `pipeline.builders.exact_tree.Plan.sources`). The content
checksum (``content_sha256``) is checked before and after, each file is read back with
`solver.core.artifacts.read` (fingerprint, checksum, tree checks) and written atomically
(`solver.core.atomic.replacing`) with the Parquet options of `artifacts.write` (zstd, the file's own
row groups). A ``manifest.json`` beside them has their entries updated.

When it is legitimate: only after a change that the test suite proves does not alter any artifact. The
suite replays every committed tree against all its targets with the reference rules and pins its
exact totals and worst case (`tests/test_trees.py`, `tests/test_trees_large.py`), and the games'
fingerprints (word lists, rules) are checked on every read: a change that passes it with the trees as
they are (a refactoring, a faster kernel giving the same values, a rename) may be
restamped. A change that may build another tree (another total or worst case, another tie-break among
equal trees, a changed plan: its ``strategy`` no longer matches, and `make tables` rebuilds it anyway)
needs `make tables` instead; a changed game cannot be restamped at all (`artifacts.read` refuses a
file whose fingerprint differs). `tests/test_provenance.py` fails while a committed artifact's
``code_version`` is not current, so a change to the hashed sources is followed by a rebuild or a
restamp, on purpose.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pyarrow.parquet as pq

from pipeline.builders.exact_tree import source_metadata
from pipeline.plans import EXACT_PLANS
from solver.core import artifacts, atomic
from solver.core.codeversion import advice_version, code_version
from solver.core.registry import get_game

# the committed artifacts (never table-*: built)
COMMITTED = ("tree-*.parquet", "openers-*.parquet", "book-*.parquet", "hints-*.parquet")
KINDS = {"tree": artifacts.TREE, "openers": artifacts.OPENERS, "book": artifacts.BOOK, "hints": artifacts.HINTS}


def committed_artifacts(folder: Path | None = None) -> list[Path]:
    """Return the committed artifacts of a folder (default: the checkout's ``artifacts/``), sorted."""
    folder = folder or artifacts.checkout_dir()
    if folder is None:
        raise SystemExit("pipeline.restamp: no checkout (artifacts/ beside pyproject.toml): give the paths")
    return sorted(path for pattern in COMMITTED for path in folder.glob(pattern))


def declared_sources(meta: dict[str, str]) -> dict[str, str]:
    """Return the ``<what>_source`` metadata an artifact's plan declares ({} for none)."""
    plan = EXACT_PLANS.get((meta.get("game"), meta.get("variant"))) if meta.get("kind") == artifacts.TREE else None
    return source_metadata(plan) if plan is not None else {}


def wanted_metadata(meta: dict[str, str]) -> dict[str, str]:
    """Return the metadata an artifact should have after a restamp (`meta` itself when current)."""
    new = dict(meta)
    current = code_version()
    if meta.get("code_version") != current:
        new["code_version"] = current
        new.setdefault("restamped_from", meta.get("code_version", ""))  # the version that built the rows
    if meta.get("kind") == artifacts.HINTS and meta.get("advice_version") != advice_version():
        new["advice_version"] = advice_version()
        new.setdefault("advice_restamped_from", meta.get("advice_version", ""))  # the version that ranked the rows
    new.update(declared_sources(meta))
    return new


def problems(meta: dict[str, str]) -> list[str]:
    """Return what a restamp would change in an artifact's metadata (empty: nothing)."""
    out = []
    if meta.get("code_version") != code_version():
        out.append(f"code_version {meta.get('code_version')}, not {code_version()}")
    if meta.get("kind") == artifacts.HINTS and meta.get("advice_version") != advice_version():
        out.append(f"advice_version {meta.get('advice_version')}, not {advice_version()}")
    for key, value in declared_sources(meta).items():
        if meta.get(key) != value:
            out.append(f"{key} {'differs from its plan' if key in meta else 'missing'}")
    return out


def _game_and_kind(path: Path, meta: dict[str, str]):
    kind = KINDS.get(meta.get("kind", ""))
    if kind is None:
        raise ValueError(f"{path}: kind {meta.get('kind')!r} is not restamped (only {', '.join(KINDS)})")
    game = get_game(meta["game"], meta["variant"])
    if artifacts.artifact_path(kind, game, path.parent).resolve() != path.resolve():
        raise ValueError(f"{path}: not the {kind} artifact of {meta['game']} {meta['variant']} by its name")
    return game, kind


def restamp(path: Path) -> bool:
    """Restamp one artifact (see the module docstring); return whether it was rewritten.

    ValueError (ArtifactError) if it cannot be read as the artifact its metadata names, or if its rows
    would change.
    """
    meta = artifacts.read_metadata(path)
    new = wanted_metadata(meta)
    if new == meta:
        return False
    game, kind = _game_and_kind(path, meta)
    artifacts.read(kind, game, path.parent)  # fingerprint, checksum and tree checks, before
    table = pq.read_table(path)
    if artifacts.content_digest(table) != meta["content_sha256"]:
        raise ValueError(f"{path}: its rows do not match its content_sha256")
    groups = pq.ParquetFile(path).metadata
    rows_per_group = max((groups.row_group(i).num_rows for i in range(groups.num_row_groups)), default=0)
    table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in new.items()})
    with atomic.replacing(path) as tmp:  # as artifacts.write: zstd, the file's own row groups
        pq.write_table(table, tmp, compression="zstd", row_group_size=max(1, rows_per_group))
    _, after = artifacts.read(kind, game, path.parent)
    if after != new or after["content_sha256"] != meta["content_sha256"]:
        raise ValueError(f"{path}: the rewritten file does not read back with the same rows and the new metadata")
    return True


def update_manifest(folder: Path, paths: list[Path]) -> None:
    """Update the entries of `paths` in the folder's manifest.json, if there is one."""
    manifest = folder / artifacts.MANIFEST
    if not manifest.is_file() or not paths:
        return
    data = json.loads(manifest.read_text())
    for path in paths:
        data.setdefault("artifacts", {})[path.name] = {"rows": pq.ParquetFile(path).metadata.num_rows,
                                                       "bytes": path.stat().st_size,
                                                       "sha256": artifacts.file_sha256(path)}
    atomic.write_text(manifest, json.dumps(data, indent=2) + "\n")


def _show(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.restamp", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing: exit 1 listing the artifacts whose code version is not current "
                             "(or that lack their plan's *_source fields)")
    parser.add_argument("paths", nargs="*", type=Path, help="artifacts (default: the checkout's committed ones)")
    args = parser.parse_args(argv)
    paths = args.paths or committed_artifacts()
    print(f"code version {code_version()}")
    if args.check:
        stale = [(path, why) for path in paths for why in problems(artifacts.read_metadata(path))]
        for path, why in stale:
            print(f"{_show(path)}: {why}")
        print(f"{len({path for path, _ in stale})} of {len(paths)} artifacts to restamp" if stale
              else f"all {len(paths)} artifacts current")
        return 1 if stale else 0
    done = []
    for path in paths:
        old = artifacts.read_metadata(path).get("code_version")
        if restamp(path):
            done.append(path)
            print(f"{_show(path)}: restamped (was {old})")
    for folder in sorted({path.parent for path in done}):
        update_manifest(folder, [path for path in done if path.parent == folder])
    print(f"{len(done)} of {len(paths)} artifacts restamped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
