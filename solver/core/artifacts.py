"""Every artifact the pipeline writes and the solver reads: names, schemas, metadata, checks.

Where they live (`search_dirs`, in the order searched; `deduce tables --where` prints them):
``$DEDUCE_ARTIFACTS`` alone when it is set; else the packaged folder (``artifacts/`` of a checkout,
the package data ``solver/trees`` of an installed wheel, which carries the committed trees) and the
user cache folder (`platformdirs`). Builds write to `artifacts_dir(game)`: ``artifacts/`` of a
writable checkout for the registered variants (the files `make tables` keeps current), else the user
cache: an installed program never writes into ``site-packages``, and the trees of a user's own game
or lists stay out of the checkout (out of git, and out of the next wheel, which copies
``artifacts/tree-*.parquet``).

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
* ``openers-<game>-<variant>.parquet``: the exact opener ranking (`deduce openers --exact --all`),
  one row per opener evaluated, best first. Columns: ``opener`` (string, guess text), ``total``
  (int64, the least total guesses over every target of a tree opening with it, or a proven lower
  bound of it), ``proven`` (bool, the total is exact), ``seconds`` (float64, search time);
  metadata: ``strategy``, ``cutoff_rule``, ``selection``, counts, ``search_seconds`` (the openers'
  search times summed) and ``wall_seconds`` (the wall times of the runs that wrote it, summed)
  (`pipeline.builders.opener_ranking`).
* ``book-<game>-<variant>.parquet``: the opener book (`pipeline.builders.opener_book`), one row per class
  after each covered opener. Columns: ``opener`` (string), ``feedback`` (int32, the opener's code), ``candidates``
  (int32), ``guess`` (int32, the second guess's row), ``guess_text`` (string), ``total`` (int64, guesses
  summed over the class, the second included: the least total when ``proven``, else a top-k strategy's),
  ``proven`` (bool), ``lower_bound`` (int64, a proven lower bound of the least total), ``guesses_left``
  (int16, the guesses within which ``total`` is the least: the game's left, or more where none suffices); metadata:
  ``strategy``, ``selection``, ``openers``, ``classes``, ``proven_classes``, ``classes_beyond_the_limit``,
  ``answers``, ``proven_answers``, ``work`` (pairs scored), ``build_seconds`` (the wall time of the run that
  wrote it: of a resumed build, its last run) and ``search_seconds`` (the openers' search times summed).
* ``hints-<game>-<variant>.parquet``: the `hint` command's ranking at every node of the tree with two
  candidates or more, and after each favourite opener of the opener book (`pipeline.builders.hint_table`),
  computed ahead with the defaults (``top`` best, the live budget ``budget``) so that such a hint loads no
  kernel. One row per ranked guess, each state's guesses in rank order: first the book's states (by opener
  and feedback), then the tree's (by node). Columns: ``node`` (int32, the tree's node; -1 for a book
  state), ``opener`` and ``feedback`` (int32, the first guess's row and code of a book state; -1 for a tree
  node), ``guess``
  (int32), ``guess_text`` (string), ``to_go`` (float64, expected guesses to finish, this one included),
  ``worst`` (int16, the most guesses a candidate needs, -1 when not known), ``kind`` (string, one of
  HINT_KINDS: what ``to_go`` is), ``source`` (string, where it comes from), ``expected_left`` (float64,
  candidates expected after the guess), ``entropy`` (float64, bits), ``possible`` (bool, the guess is a
  candidate), ``solver`` (bool, the tree's guess), ``note`` (string, how the ranked guesses were drawn,
  empty when from every allowed guess); metadata: ``top``, ``budget``, ``tree_sha256`` and ``book_sha256``
  (the tree's and the book's ``content_sha256``, empty without one: hints of another tree or book are not
  used), ``advice_version`` (a digest of the sources
  that rank, `solver.core.codeversion.advice_version`), ``nodes``, ``book_states`` and ``build_seconds``.
* ``manifest.json``: for each artifact, its rows, bytes and sha256.

Key-value metadata of every Parquet artifact (all values are strings): ``schema_version``,
``kind`` (table / tree), ``game``, ``variant``, ``fingerprint`` (`Game.fingerprint`: the word
lists and the rule source), ``code_version`` (`solver.core.codeversion`: a digest of the sources that
make artifacts), ``build_time`` (UTC ISO 8601), ``content_sha256``
(sha256 over the column data, checked on every read), and per kind: ``guesses``, ``targets``,
``n_codes`` for tables; ``targets``, ``total_guesses``, ``max_guesses``, ``strategy`` for trees.
Trees from the exact search (`pipeline.builders`) add ``lower_bound`` (a proven lower bound on the
total of any tree that opens with this tree's first guess, or of any tree when ``proven`` is
``game``), ``proven`` (``game``: optimal over every first guess; ``opener``: optimal for its first
guess; ``none``: top-k search, the total is an upper bound), ``nodes_searched``, ``full_nodes``,
``memo_hit_rate`` and ``search_seconds``; trees not proven for the game may add
``game_lower_bound`` (a proven lower bound on the total of any tree, over every first guess:
`pipeline.builders.game_bound`), with ``game_lower_bound_opener`` (the first guess attaining it) and
``game_lower_bound_seconds``; among trees of equal total each root class keeps the
shallowest, and every tree is optimal within the guess limit in ``strategy`` (``max6``: 6 guesses).
What is proven, and how, is brought up to the committed proof campaigns (``campaign-*.jsonl``) by
`pipeline.campaign.apply` (`make tables` runs it after the builds; it rewrites what the build wrote):
``proven`` (game / opener / none) with ``proven_source``, ``proven_classes`` (the root classes whose
subtree is proven optimal: ``all``, else their feedback codes separated by spaces, empty for none),
``lower_bound`` (for its first guess) with ``lower_bound_source``, ``game_lower_bound`` with
``game_lower_bound_source``, ``campaign_sha256`` (the campaign files read), ``campaign_grafted`` (root
classes whose better subtree, proven by a campaign, replaced the build's) and the build's own claims
``build_proven``, ``build_lower_bound``, ``build_game_lower_bound``. Older trees without these fields
still load: a tree built in prove mode is then proven throughout, any other nowhere (`proof_label`,
`solver.core.runtime.Tree`).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib.resources import files
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from platformdirs import user_cache_dir

from solver.core import atomic, registry
from solver.core.codeversion import code_version
from solver.core.game import Game

SCHEMA_VERSION = "1"
# CODE_VERSION: the code version of the sources that make artifacts (`solver.core.codeversion`), e.g.
# "2-e973adac3a1a"; computed on first use (module `__getattr__`), not at import
MANIFEST = "manifest.json"
TABLE, TREE, OPENERS, BOOK, HINTS = "table", "tree", "openers", "book", "hints"
OPENER_COLUMNS = ("opener", "total", "proven", "seconds")
BOOK_SCHEMA = pa.schema([
    ("opener", pa.string()),
    ("feedback", pa.int32()),
    ("candidates", pa.int32()),
    ("guess", pa.int32()),
    ("guess_text", pa.string()),
    ("total", pa.int64()),
    ("proven", pa.bool_()),
    ("lower_bound", pa.int64()),
    ("guesses_left", pa.int16()),
])

HINTS_SCHEMA = pa.schema([
    ("node", pa.int32()),
    ("opener", pa.int32()),
    ("feedback", pa.int32()),
    ("guess", pa.int32()),
    ("guess_text", pa.string()),
    ("to_go", pa.float64()),
    ("worst", pa.int16()),
    ("kind", pa.string()),
    ("source", pa.string()),
    ("lost", pa.int32()),  # candidates the guess cannot finish within the guess limit (`ToGo.lost`)
    ("lost_exact", pa.bool_()),  # False: `lost` is a lower bound (0: not known)
    ("expected_left", pa.float64()),
    ("entropy", pa.float64()),
    ("possible", pa.bool_()),
    ("solver", pa.bool_()),
    ("note", pa.string()),
])
# what a hint's guesses to go are (`solver.analysis.values.ToGo.kind`): proven, a strategy's (an upper
# bound), a lower bound, or the quick estimate
HINT_KINDS = ("proven", "approximate", "bound", "estimate")

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


def __getattr__(name: str):
    """`CODE_VERSION`: the code version (`solver.core.codeversion.code_version`), computed when first
    asked for, so that importing this module does not hash the sources."""
    if name == "CODE_VERSION":
        return code_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


REBUILD = "rebuild it with `make tables`"


class ArtifactError(ValueError):
    """An artifact exists but cannot be used (unreadable, wrong schema, checksum, game or contents).

    The message names the file, says what is wrong and ends with how to rebuild it.
    """


class MissingTableError(KeyError):
    """No artifact file for this game variant."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "missing artifact"


def checkout_dir() -> Path | None:
    """Return ``artifacts/`` of the checkout the packages run from (the source tree, or an editable
    install), or None for an installed wheel."""
    root = Path(__file__).resolve().parents[2]  # solver/core/ -> the checkout (or site-packages)
    return root / "artifacts" if (root / "pyproject.toml").is_file() else None


def packaged_dir() -> Path:
    """Return the folder of the committed trees: ``solver/trees`` (package data) of an installed
    wheel, else ``artifacts/`` of the checkout."""
    shipped = Path(str(files("solver") / "trees"))
    return shipped if shipped.is_dir() else checkout_dir() or shipped


def cache_dir() -> Path:
    """Return the user cache folder for artifacts built where the package folder is read-only."""
    return Path(user_cache_dir("deduce")) / "artifacts"


def _writable(folder: Path) -> bool:
    while not folder.exists():  # the first existing ancestor decides whether it can be created
        folder = folder.parent
    return os.access(folder, os.W_OK | os.X_OK)


def artifacts_dir(game: Game | None = None) -> Path:
    """Return the folder builds (of `game`; None: a registered variant) write to: $DEDUCE_ARTIFACTS,
    else ``artifacts/`` of a writable checkout for a registered variant, else the user cache folder."""
    env = os.environ.get("DEDUCE_ARTIFACTS")
    if env:
        return Path(env)
    checkout = checkout_dir()
    ours = game is None or registry.registered(game) is not None
    return checkout if checkout is not None and ours and _writable(checkout) else cache_dir()


def search_dirs() -> list[Path]:
    """Return the folders searched for an artifact, in order: $DEDUCE_ARTIFACTS alone when set,
    else the build folder, the packaged folder and the user cache folder (without repeats)."""
    env = os.environ.get("DEDUCE_ARTIFACTS")
    if env:
        return [Path(env)]
    return list(dict.fromkeys([artifacts_dir(), packaged_dir(), cache_dir()]))


def artifact_name(kind: str, game: Game) -> str:
    """Return the file name of the `kind` artifact (table or tree) of a game variant. A game named like
    a registered variant but not it (a user's game called mastermind/default) adds the first 12 hex
    digits of its fingerprint, so that its artifacts never take (or replace) the registered variant's."""
    key = game.key
    named_like = game.variant in registry.VARIANTS.get(game.name, {}) or \
        game.variant in registry.ON_REQUEST.get(game.name, {})
    if named_like and registry.registered(game) is None:  # registered compares the fingerprints
        key += f"-{game.fingerprint()[:12]}"
    return f"{kind}-{key}.parquet"


def artifact_path(kind: str, game: Game, folder: Path | None = None) -> Path:
    """Return the path of the `kind` artifact of a game variant: in `folder` when given, else the
    first of `search_dirs` that has it (the build folder when none has)."""
    name = artifact_name(kind, game)
    if folder is not None:
        return folder / name
    for candidate in search_dirs():
        if (candidate / name).exists():
            return candidate / name
    return artifacts_dir(game) / name


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
            digest.update(memoryview(np.ascontiguousarray(column.flatten().to_numpy())))  # no copy
        else:  # booleans are bit-packed in Arrow: they are the one column read with a copy
            digest.update(memoryview(np.ascontiguousarray(column.to_numpy(zero_copy_only=False))))
    return digest.hexdigest()


def proof_label(meta: dict[str, str], opener: str | None) -> str:
    """Return what a tree's metadata proves, in the words every face uses: "optimal" (over every first
    guess), "optimal for X" (over trees opening with X; "optimal for X; within 9.6% of optimal" with a
    bound for the game), "within 2.3% of optimal for X; within 9.6% of optimal" (the gap to each proven
    lower bound, rounded up), "best found" (no bound)."""
    proven = meta.get("proven") or ("game" if "-prove-" in meta.get("strategy", "") and not opener_fixed(meta)
                                    else "opener" if "-prove-" in meta.get("strategy", "") else "none")
    if proven == "game":
        return "optimal"
    total = int(meta.get("total_guesses", 0))
    bounds = (("game_lower_bound", ""),) if proven == "opener" else (
        ("lower_bound", f" for {opener}"), ("game_lower_bound", ""))
    parts = [f"within {gap_text(total, int(meta[key]))} of optimal{tail}" for key, tail in bounds
             if meta.get(key, "").isdigit() and int(meta[key]) > 0]
    if proven == "opener":
        parts.insert(0, f"optimal for {opener}")
    return "; ".join(parts) or "best found"


def opener_fixed(meta: dict[str, str]) -> bool:
    """Return whether a tree's strategy fixed its first guess (``-opener`` in ``strategy``)."""
    return "-opener" in meta.get("strategy", "")


def gap_text(total: int, lower: int) -> str:
    """Return how far `total` may be above the optimum, at least `lower`, as a percentage rounded up to a
    tenth ("2.3%"): never less than what is proven."""
    tenths = -(-(total - lower) * 1000 // lower) if lower > 0 else 0
    return f"{tenths // 10}.{tenths % 10}%"


# the metadata keys `write` sets itself (an artifact rewritten keeps the others)
AUTO_METADATA = ("schema_version", "kind", "game", "variant", "fingerprint", "code_version", "build_time",
                 "content_sha256")


def _metadata(kind: str, game: Game, table: pa.Table, extra: dict) -> dict[str, str]:
    meta = {
        "schema_version": SCHEMA_VERSION,
        "kind": kind,
        "game": game.name,
        "variant": game.variant,
        "fingerprint": game.fingerprint(),
        "code_version": code_version(),
        "build_time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "content_sha256": content_digest(table),
    }
    meta.update({key: str(value) for key, value in extra.items()})
    return meta


def write(kind: str, game: Game, table: pa.Table, extra: dict, folder: Path | None = None) -> Path:
    """Write an artifact atomically with its metadata (into `folder`, else `artifacts_dir(game)`); return its path."""
    path = (folder or artifacts_dir(game)) / artifact_name(kind, game)
    meta = _metadata(kind, game, table, extra)
    table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in meta.items()})
    # Row groups of at most ~64 MB: the writer's buffers scale with one group, not the whole table
    # (the cards n=3 table is 1 GB in one 22100-row group otherwise).
    row_bytes = max(1, table.nbytes // max(table.num_rows, 1))
    with atomic.replacing(path, parents=True) as tmp:  # the pipeline creates artifacts/
        pq.write_table(table, tmp, compression="zstd", row_group_size=max(256, min(1 << 16, (1 << 26) // row_bytes)))
    return path


def read_metadata(path: Path) -> dict[str, str]:
    """Return an artifact's key-value metadata; MissingTableError / ArtifactError if unusable."""
    if not path.is_file():
        raise MissingTableError(f"no artifact {path}")
    try:
        raw = pq.read_schema(path).metadata or {}
    except (pa.ArrowException, OSError) as err:
        raise _unreadable(path, err) from None
    try:
        meta = {k.decode(): v.decode() for k, v in raw.items()}
    except UnicodeDecodeError:
        raise ArtifactError(f"{path} has metadata that is not text: {REBUILD}") from None
    if meta.get("schema_version") != SCHEMA_VERSION:
        raise ArtifactError(f"{path} has schema version {meta.get('schema_version')!r}, expected {SCHEMA_VERSION}: "
                            f"{REBUILD}")
    return meta


def is_current(kind: str, game: Game, folder: Path | None = None, **expected: str) -> bool:
    """Return True if the artifact exists, has this schema, this game's fingerprint and `expected` metadata."""
    try:
        meta = read_metadata(artifact_path(kind, game, folder))
    except (MissingTableError, ArtifactError):
        return False
    wanted = {"kind": kind, "fingerprint": game.fingerprint(), "code_version": code_version(), **expected}
    return all(meta.get(k) == str(v) for k, v in wanted.items())


def peek_opener(game: Game, folder: Path | None = None) -> int | None:
    """Return the first guess row of a game's tree file without loading the tree (its metadata and
    the first row's guess only: what a listing of the games shows), or None without a tree file of
    this game (absent, unreadable, of other rules or another schema). The full checks run when the
    tree is loaded to play (`read`), which may still refuse it."""
    try:
        path = artifact_path("tree", game, folder)
        meta = read_metadata(path)
        if meta.get("kind") != "tree" or meta.get("fingerprint") != game.fingerprint():
            return None
        with pq.ParquetFile(path) as tree:
            if tree.metadata.num_rows < 1 or _schema_problem(tree.schema_arrow) is not None:
                return None
            first = tree.read_row_group(0, columns=["node", "guess"]).slice(0, 1).to_pylist()[0]
    except (MissingTableError, ArtifactError, pa.ArrowException, OSError, IndexError):
        return None
    row = first["guess"]
    return int(row) if first["node"] == 0 and row is not None and 0 <= row < game.n_guesses else None


def peek_label(game: Game, folder: Path | None = None) -> str | None:
    """Return what is proven of a game's tree (`proof_label`) from its file's metadata and first row, without
    loading the tree; None without a usable tree file (as `peek_opener`)."""
    row = peek_opener(game, folder)
    if row is None:
        return None
    try:
        meta = read_metadata(artifact_path("tree", game, folder))
    except (MissingTableError, ArtifactError):
        return None
    return proof_label(meta, game.labels[row])


def read(kind: str, game: Game, folder: Path | None = None) -> tuple[pa.Table, dict[str, str]]:
    """Return (table, metadata) of a checked artifact.

    Raises MissingTableError if the file is absent (or not a regular file: a directory, a FIFO),
    ArtifactError (naming the file) if it cannot be read, has another schema version, kind or game
    fingerprint, fails its content checksum, or (a tree) fails `validate_tree`.
    """
    path = artifact_path(kind, game, folder)
    meta = read_metadata(path)
    if meta.get("kind") != kind or meta.get("fingerprint") != game.fingerprint():
        raise ArtifactError(f"{path} was built for other rules or word lists: {REBUILD}")
    try:
        with pq.ParquetFile(path) as handle:  # not pq.read_table: that imports pyarrow.dataset (50 ms)
            table = handle.read()
    except (pa.ArrowException, OSError) as err:
        raise _unreadable(path, err) from None
    nulls = [name for name in table.column_names if table.column(name).null_count]
    if nulls:
        raise ArtifactError(f"{path} has null values in {', '.join(nulls)}: {REBUILD}")
    if kind == TREE and (problem := _schema_problem(table.schema)):  # before the checksum reads the columns
        raise ArtifactError(f"{path} is not a valid tree ({problem}): {REBUILD}")
    try:
        digest = content_digest(table)
    except (pa.ArrowException, ValueError, TypeError) as err:  # columns of unexpected types
        raise ArtifactError(f"{path} has column data that cannot be checked ({err}): {REBUILD}") from None
    if digest != meta.get("content_sha256"):
        raise ArtifactError(f"{path} fails its content checksum: {REBUILD}")
    if kind == TREE:
        validate_tree(table, meta, game, path)
    return table, meta


def read_openers(game: Game, folder: Path | None = None) -> tuple[dict[int, tuple[int, bool, float]], dict[str, str]]:
    """Return ({opener row: (total, proven exact, seconds)}, metadata) of a game's opener ranking;
    MissingTableError or ArtifactError (naming the file) as `read`, also for other columns, an
    opener that is not a guess of the game, or a total below the least possible (2 x targets - 1) or
    seconds that are negative or not finite."""
    table, meta = read(OPENERS, game, folder)
    path = artifact_path(OPENERS, game, folder)
    if tuple(table.schema.names) != OPENER_COLUMNS:
        raise ArtifactError(f"{path} has columns {', '.join(table.schema.names)}, not {', '.join(OPENER_COLUMNS)}: "
                            f"{REBUILD}")
    out = {}
    least = 2 * game.n_targets - 1  # the opener itself in one guess, every other target in two at best
    try:
        for label, total, proven, seconds in zip(*(table.column(n).to_pylist() for n in OPENER_COLUMNS)):
            row = game.index_of(label)
            if not (isinstance(total, int) and total >= least and seconds is not None and 0 <= seconds < float("inf")):
                raise ArtifactError(f"{path}: {label} has total {total!r} and seconds {seconds!r}; every total of "
                                    f"{game.title} is at least {least}: {REBUILD}")
            out[row] = (int(total), bool(proven), float(seconds))
    except ArtifactError:
        raise
    except (KeyError, ValueError, TypeError) as err:
        raise ArtifactError(f"{path} holds an opener that is not a guess of {game.title} ({err}): {REBUILD}") from None
    return out, meta


def read_book(game: Game, folder: Path | None = None) -> tuple[dict[tuple[int, int], tuple[int, int, int, bool, int]],
                                                                 dict[str, str]]:
    """Return the opener book {(opener row, feedback code): (guess row, candidates, total, proven, lower
    bound)} and its metadata; MissingTableError / ArtifactError as `read` (and for rows that do not fit
    the game: a guess out of range, a feedback that is not a code, a total below its bound)."""
    table, meta = read(BOOK, game, folder)
    path = artifact_path(BOOK, game, folder)
    if table.schema.remove_metadata() != BOOK_SCHEMA:
        raise ArtifactError(f"{path} has columns {', '.join(table.schema.names)}, not those of a book: {REBUILD}")
    size, guess, total, lower, left = (table.column(name).to_numpy() for name in
                                       ("candidates", "guess", "total", "lower_bound", "guesses_left"))
    code = table.column("feedback").to_numpy().astype(np.int64)
    proven = table.column("proven").to_numpy(zero_copy_only=False)
    bad = ~((guess >= 0) & (guess < game.n_guesses) & (code >= 0) & (code < game.n_codes) & (code != game.win_code)
            & (size >= 1) & (size <= total) & (lower <= total) & ((lower == total) | ~proven) & (left >= 1))
    try:
        labels = np.asarray(game.labels, dtype=object)
        texts = np.asarray(table.column("guess_text").to_pylist(), dtype=object)
        bad |= labels[np.clip(guess, 0, game.n_guesses - 1)] != texts
        first = int(np.flatnonzero(bad)[0]) if bad.any() else None
        if first is not None:
            raise ValueError(f"row {first}: {table.column('opener')[first]}={code[first]} {texts[first]} "
                             f"{total[first]}")
        openers = table.column("opener").dictionary_encode().combine_chunks()
        rows = np.array([game.index_of(word) for word in openers.dictionary.to_pylist()], dtype=np.int64)
        opener = rows[openers.indices.to_numpy()]
    except (KeyError, ValueError, TypeError) as err:
        raise ArtifactError(f"{path} holds an entry that does not fit {game.title} ({err}): {REBUILD}") from None
    keys = zip(opener.tolist(), code.tolist())
    out = dict(zip(keys, zip(guess.tolist(), size.tolist(), total.tolist(), proven.tolist(), lower.tolist())))
    return out, meta


@dataclass(frozen=True)
class HintRows:
    """The hints artifact's columns (`read_hints`), strings as Python lists; `rows_of(node)` finds a node's."""

    node: np.ndarray
    opener: np.ndarray
    feedback: np.ndarray
    guess: np.ndarray
    to_go: np.ndarray
    worst: np.ndarray
    kind: list[str]
    source: list[str]
    lost: np.ndarray
    lost_exact: np.ndarray
    expected_left: np.ndarray
    entropy: np.ndarray
    possible: np.ndarray
    solver: np.ndarray
    note: list[str]

    def rows_of(self, node: int) -> range:
        """Return the row indices of tree node `node`'s ranking, in rank order (empty when it has none)."""
        return range(int(np.searchsorted(self.node, node, "left")), int(np.searchsorted(self.node, node, "right")))

    def rows_after(self, opener: int, code: int) -> range:
        """Return the row indices of the ranking after first guess `opener` got feedback `code` (empty: none)."""
        keys = self.opener[self.node < 0].astype(np.int64) * (1 << 32) + self.feedback[self.node < 0]
        key = opener * (1 << 32) + code
        return range(int(np.searchsorted(keys, key, "left")), int(np.searchsorted(keys, key, "right")))


def read_hints(game: Game, folder: Path | None = None) -> tuple[HintRows, dict[str, str]]:
    """Return the hints of a game's tree and opener book states (`HintRows`) and their metadata;
    MissingTableError / ArtifactError as `read` (and for other columns, rows out of order, an opener,
    feedback, guess or text that is not the game's, a kind not in HINT_KINDS, a value out of range, or
    a state without exactly one solver row)."""
    table, meta = read(HINTS, game, folder)
    path = artifact_path(HINTS, game, folder)
    if table.schema.remove_metadata() != HINTS_SCHEMA:
        raise ArtifactError(f"{path} has columns {', '.join(table.schema.names)}, not those of hints: {REBUILD}")
    node, opener, code, guess, to_go, worst, lost, left, entropy = (
        table.column(name).to_numpy() for name in
        ("node", "opener", "feedback", "guess", "to_go", "worst", "lost", "expected_left", "entropy"))
    possible, solver, lost_exact = (table.column(name).to_numpy(zero_copy_only=False)
                                    for name in ("possible", "solver", "lost_exact"))
    kind, source, note, text = (table.column(name).to_pylist() for name in ("kind", "source", "note", "guess_text"))
    problem = None
    book = node < 0
    book_keys = opener[book].astype(np.int64) * (1 << 32) + code[book]
    if node.size and (np.any(np.diff(node) < 0) or np.any(node < -1) or np.any(np.diff(book_keys) < 0)):
        problem = "rows are not in order (the book's by opener and feedback, then the tree's by node)"
    elif np.any(book & ((opener < 0) | (opener >= game.n_guesses) | (code < 0) | (code >= game.n_codes))) \
            or np.any(~book & ((opener != -1) | (code != -1))):
        problem = "a book state's opener or feedback out of range (or a tree node's not -1)"
    elif np.any((guess < 0) | (guess >= game.n_guesses)):
        problem = f"a guess out of range 0..{game.n_guesses - 1}"
    elif any(game.labels[g] != t for g, t in zip(guess.tolist(), text)):
        problem = "a guess_text that is not its guess's"
    elif not set(kind) <= set(HINT_KINDS):
        problem = f"a kind not among {', '.join(HINT_KINDS)}"
    elif np.any(~(to_go >= 1)) or np.any(~(left >= 0)) or np.any(worst < -1) or np.any(lost < 0):
        problem = "a value out of range (to_go below 1, expected_left below 0, worst below -1 or lost below 0)"
    elif not _one_solver_row_each(node, book, book_keys, solver):
        problem = "a state without exactly one solver row"
    if problem:
        raise ArtifactError(f"{path} does not fit {game.title}: {problem}: {REBUILD}")
    return HintRows(node, opener, code, guess, to_go, worst, kind, source, lost, lost_exact, left, entropy, possible,
                    solver, note), meta


def _one_solver_row_each(node: np.ndarray, book: np.ndarray, book_keys: np.ndarray, solver: np.ndarray) -> bool:
    """Return whether each state (a tree node, or a book state by its key) has exactly one row marked `solver`."""
    state = node.astype(np.int64)
    if book.any():
        state[book] = -1 - np.unique(book_keys, return_inverse=True)[1].reshape(-1)
    ids, index = np.unique(state, return_inverse=True)
    index = index.reshape(-1)
    return bool(np.array_equal(np.bincount(index[solver], minlength=ids.size), np.ones(ids.size, np.int64)))


def _unreadable(path: Path, err: Exception) -> ArtifactError:
    return ArtifactError(f"{path} is not a readable Parquet file ({' '.join(str(err).split())}): {REBUILD}")


def _schema_problem(schema: pa.Schema) -> str | None:
    """Return what differs between `schema` and TREE_SCHEMA (names, order, types), or None."""
    have = {f.name: f.type for f in schema}
    want = {f.name: f.type for f in TREE_SCHEMA}
    for name, kind in want.items():
        if name not in have:
            return f"missing column {name}"
        if have[name] != kind:
            return f"column {name} is {have[name]}, expected {kind}"
    extra = [f.name for f in schema if f.name not in want]
    if extra:
        return f"unexpected column {', '.join(extra)}"
    if schema.names != TREE_SCHEMA.names:
        return f"columns {', '.join(schema.names)}, expected {', '.join(TREE_SCHEMA.names)}"
    return None


def _tree_problem(table: pa.Table, meta: dict[str, str], game: Game) -> str | None:
    """Return the first thing wrong with a tree artifact of `game`, or None (see `validate_tree`)."""
    problem = _schema_problem(table.schema)
    if problem:
        return problem
    n = table.num_rows
    if n == 0:
        return "no nodes"
    nulls = [name for name in table.column_names if table.column(name).null_count]
    if nulls:
        return f"null values in {', '.join(nulls)}"
    node, parent, feedback, depth, guess, remaining, subtree = (
        table.column(name).to_numpy() for name in
        ("node", "parent", "feedback", "depth", "guess", "remaining", "subtree_guesses"))
    if not np.array_equal(node, np.arange(n, dtype=np.int32)):
        return "node ids are not 0, 1, ... in row order"
    if parent[0] != -1 or feedback[0] != -1 or depth[0] != 0:
        return "node 0 is not the root (parent -1, feedback -1, depth 0)"
    up, code = parent[1:].astype(np.int64), feedback[1:].astype(np.int64)
    if n > 1 and (up.min() < 0 or np.any(up >= node[1:])):
        return "a node's parent does not precede it"
    if np.any(depth[1:] != depth[up] + 1):
        return "a node's depth is not its parent's plus one"
    if guess.min() < 0 or guess.max() >= game.n_guesses:
        return f"guess id out of range 0..{game.n_guesses - 1}"
    if n > 1 and (code.min() < 0 or code.max() >= game.n_codes):
        return f"feedback code out of range 0..{game.n_codes - 1}"
    if np.any(code == game.win_code):
        return "a node is reached by the winning feedback"
    keys = np.sort(up * game.n_codes + code)
    if np.any(keys[1:] == keys[:-1]):
        return "two children of a node share a feedback code"
    if remaining.min() < 1:
        return "a node has no remaining candidate"
    if remaining[0] != game.n_targets:
        return f"the root has {remaining[0]} candidates, expected the game's {game.n_targets} targets"
    if np.any(subtree < remaining):
        return "a node has fewer guesses than candidates (subtree_guesses < remaining)"
    # A node's candidates are its children's, plus its own guess when that is one of them (exact in
    # float64: the sums stay far below 2**53).
    own = remaining - np.bincount(up, weights=remaining[1:], minlength=n).astype(np.int64)
    if own.min() < 0 or own.max() > 1:
        return "a node's remaining count is not the candidates of its children (plus its guess)"
    is_target = np.zeros(game.n_guesses, dtype=bool)
    is_target[game.target_index] = True
    if not is_target[guess[own == 1]].all():
        return "a node counts its guess as a candidate but the guess is not a target"
    if np.any(subtree != remaining + np.bincount(up, weights=subtree[1:], minlength=n).astype(np.int64)):
        return "a node's subtree_guesses is not its remaining count plus its children's subtree_guesses"
    for key, value in (("targets", game.n_targets), ("total_guesses", int(subtree[0])),
                       ("max_guesses", int(depth.max()) + 1)):
        if key not in meta and key == "max_guesses":
            continue  # optional here (only informative)
        try:
            stated = int(meta.get(key, ""))
        except ValueError:
            return f"metadata {key} is {meta.get(key)!r}, not an integer"
        if stated != value:
            return f"metadata {key} {stated}, but the tree has {value}"
    return None


def validate_tree(table: pa.Table, meta: dict[str, str], game: Game, path: Path | str = "tree") -> None:
    """Raise ArtifactError (naming `path`) unless `table` and `meta` are a well-formed tree of `game`.

    Checks, vectorised (12-25 ms on the 281k-node cards n4 tree): the columns' names, order and
    types against TREE_SCHEMA, no nulls, at least one node; node ids 0..n-1 in row order; node 0
    the root (parent -1, feedback -1, depth 0); every other node's parent before it and its depth
    the parent's plus one; guess ids in 0..n_guesses-1; feedback codes in 0..n_codes-1, never the
    win code, distinct among the children of a node; remaining >= 1, the root's the game's target
    count, each node's the sum of its children's (plus one when its guess is a candidate, then a
    target); subtree_guesses >= remaining and equal to remaining plus the children's; metadata
    ``targets``, ``total_guesses`` (the root's subtree_guesses) and, when present, ``max_guesses``
    (deepest depth + 1). Other metadata keys (the exact search's) are not required.
    """
    problem = _tree_problem(table, meta, game)
    if problem:
        raise ArtifactError(f"{path} is not a valid tree ({problem}): {REBUILD}")


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
    text = json.dumps({"schema_version": SCHEMA_VERSION, "artifacts": entries}, indent=2) + "\n"
    atomic.write_text(target, text, parents=True)
    return target
