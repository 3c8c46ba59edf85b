"""The code version of the artifacts: a digest of the sources that decide what an artifact holds.

An artifact (a feedback table, a tree, an opener ranking) is current when it was built from the same
game (its fingerprint: the word lists and the rule's source) by the same code. "The same code" is
`code_version()`: ``FORMAT-<12 hex digits>``, the first 12 hex digits of a sha256 over

* the rules: the game modules of `solver/games/` that define ``make_rule``, `wordlists.py` and
  the generic game's (`generic.py`, `generic_scores.py`, `tabulation.py`);
* `solver/core/`: `game.py`, `scoring.py`, `strategy.py`, `symmetry.py` and `search/*.py` but the
  runtime's live search (`live.py`, and its look-ahead `shortlist.py`) and the interruption of a
  search (`watch.py`);
* `pipeline/`: `builders/*.py` and `plans.py`, but the tools that compare openers and write only
  their CSV reports (`opener_screen.py`, `opener_builds.py`: a long ranking build keeps its checkpoints,
  which are tagged with this version, through a change to them);
* the word lists of `solver/games/data/` (``*.txt`` but the licence notices).

Each Python source counts by its syntax tree with every docstring (and any other statement that is
only a string) left out, dumped in a form that does not depend on the Python version: comments,
docstrings, blank lines and formatting do not change the version, any other change does. Each data
file counts by its lines without the ``#`` header lines (which its reader skips). The files are found
beside this module (the checkout, or the installed wheel, which ships the ``.py`` sources and the
data), so the version is the same wherever the same code runs.

The hints a tree carries (its nodes' rankings, `pipeline.builders.hint_table`) also depend on sources
that make no other artifact, the ranking's and the live search's: ADVICE_SOURCES, hashed alike by
`advice_version()` into the hints' ``advice_version``.

Nothing computes it at import: `artifacts.CODE_VERSION` (a module attribute computed on first use)
and `code_version()` (cached) are what the pipeline, the staleness checks and the Dask workers'
version check call; playing from a tree never needs it. ``FORMAT`` changes when what is hashed or how
changes (the versions before this scheme were the constant "0.1.0").
"""
from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path

FORMAT = "2"
ROOT = Path(__file__).resolve().parents[2]  # the folder holding the packages solver/ and pipeline/

# (folder under ROOT, glob): every match is hashed, except the game modules without a rule
PYTHON_SOURCES = (
    ("solver/games", "*.py"),  # the game modules that define make_rule, wordlists.py, the generic game's
    ("solver/core", "game.py"), ("solver/core", "scoring.py"), ("solver/core", "strategy.py"),
    ("solver/core", "symmetry.py"), ("solver/core/search", "*.py"),
    ("pipeline/builders", "*.py"), ("pipeline", "plans.py"),
)
GAMES = "solver/games"
# of GAMES: hashed though they define no make_rule
ALWAYS_RULES = ("wordlists.py", "generic.py", "generic_scores.py", "tabulation.py")
# the runtime's live search, a search's interruption, the opener comparisons' reports: they make no artifact
NOT_HASHED = ("solver/core/search/live.py", "solver/core/search/shortlist.py", "solver/core/search/watch.py",
              "pipeline/builders/opener_screen.py", "pipeline/builders/opener_builds.py")
# what ranks a hint's guesses besides the hashed sources: the ranking, the values and their estimate,
# the live search that rates the guesses off the tree's own and its look-ahead
ADVICE_SOURCES = ("solver/analysis/scores.py", "solver/analysis/values.py", "solver/analysis/estimate.py",
                  "solver/core/finish.py", "solver/core/search/live.py", "solver/core/search/shortlist.py")
DATA = "solver/games/data"
NOTICE_PREFIX = "LICENSE"  # data files that are licence notices, not data


BODIES = ("body", "orelse", "finalbody")  # the fields that hold statements (a list; a lambda's body is one expression)


def _is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _dump(node) -> str:
    """Return a text of a syntax tree that names each node's type and its non-empty fields in order:
    fields a later Python adds with an empty default (3.12's ``type_params``) leave it unchanged."""
    if isinstance(node, ast.AST):
        parts = []
        for name in node._fields:
            value = getattr(node, name, None)
            if value is None or (isinstance(value, list) and not value):
                continue
            if name in BODIES and isinstance(value, list):  # statements: leave out those that are only a string
                value = [item for item in value if not _is_docstring(item)]
            parts.append(f"{name}={_dump(value)}")
        return f"{type(node).__name__}({','.join(parts)})"
    if isinstance(node, list):
        return "[" + ",".join(_dump(item) for item in node) + "]"
    return repr(node)


def normalised_python(source: str, name: str = "<source>") -> str:
    """Return the normalised form of a Python source: its syntax tree without docstrings (nor any other
    statement that is only a string), in a text that ignores comments, formatting and line numbers."""
    return _dump(ast.parse(source, filename=name))


def normalised_data(text: str) -> str:
    """Return the normalised form of a word-list data file: its lines without '#' header lines or blank
    ones, stripped (what its reader, `solver.games.wordlists`, keeps)."""
    return "\n".join(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def _defines_rule(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.FunctionDef) and node.name == "make_rule" for node in tree.body)


def hashed_files(root: Path = ROOT) -> list[str]:
    """Return the paths (relative to `root`, with '/') of the files the code version hashes, sorted."""
    out = []
    for folder, pattern in PYTHON_SOURCES:
        for path in sorted((root / folder).glob(pattern)):
            if folder == GAMES and path.name not in ALWAYS_RULES and \
                    not _defines_rule(ast.parse(path.read_text(encoding="utf-8"))):
                continue
            if path.relative_to(root).as_posix() not in NOT_HASHED:
                out.append(path.relative_to(root).as_posix())
    out += [path.relative_to(root).as_posix() for path in sorted((root / DATA).glob("*.txt"))
            if not path.name.startswith(NOTICE_PREFIX)]
    if not any(name.startswith("pipeline/") for name in out) or not any(name.startswith(DATA) for name in out):
        raise FileNotFoundError(f"the sources of the code version are not all under {root}")
    return sorted(set(out))


def _digest(root: Path, names) -> str:
    digest = hashlib.sha256()
    for name in names:
        text = (root / name).read_text(encoding="utf-8")
        form = normalised_python(text, name) if name.endswith(".py") else normalised_data(text)
        digest.update(f"{name}\0{len(form.encode())}\0".encode())
        digest.update(form.encode())
    return f"{FORMAT}-{digest.hexdigest()[:12]}"


def compute(root: Path = ROOT) -> str:
    """Return the code version of the sources under `root` (see the module docstring)."""
    return _digest(root, hashed_files(root))


@lru_cache(maxsize=1)
def advice_version(root: Path = ROOT) -> str:
    """Return the digest of ADVICE_SOURCES under `root`, as the code version's ("2-<12 hex digits>")."""
    return _digest(root, ADVICE_SOURCES)


@lru_cache(maxsize=1)
def code_version() -> str:
    """Return the code version of this installation's sources (computed once per process)."""
    return compute()
