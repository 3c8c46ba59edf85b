"""The opener book (`pipeline.builders.opener_book`): its entries against the exact search, the runtime
playing from it, and the committed books' figures."""
from __future__ import annotations

import math
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline.builders.opener_book import BOOK_VARIANTS, BookPlan, book_openers, build_book, complete_book, is_current
from solver.core import artifacts
from solver.core.registry import get_game
from solver.core.runtime import Solver
from solver.core.search.live import ExactLive
from tests import reference

pytestmark = pytest.mark.slow  # tens of seconds in all: `make test` runs them, `make test-fast` does not

ROOT = Path(__file__).resolve().parent.parent
SMALL = BookPlan(top=0, favourites=("CRANE",))


@pytest.fixture(scope="module")
def small_book(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("book")
    game = get_game("wordle", "normal")
    built, _ = build_book(game, SMALL, jobs=1, folder=folder, force=True)
    assert built and is_current(game, SMALL, folder)
    return folder


def test_every_class_of_the_covered_openers_is_in_the_book(small_book):
    game = get_game("wordle", "normal")
    book, meta = artifacts.read_book(game, small_book)
    for word in SMALL.favourites:
        row = game.index_of(word)
        codes = {reference_code(game, row, t) for t in game.target_index.tolist()} - {game.win_code}
        assert {code for opener, code in book if opener == row} == codes
    assert int(meta["classes"]) == len(book) and int(meta["openers"]) == 1


def reference_code(game, row: int, target: int) -> int:
    return game.encode(reference.wordle(game.labels[target], game.labels[row]))


def test_proven_entries_are_the_exact_searchs_values(small_book):
    game = get_game("wordle", "normal")
    book, _ = artifacts.read_book(game, small_book)
    solver = Solver(game)
    live = ExactLive(game)
    checked = 0
    for (opener, code), (_, size, total, proven, lower) in sorted(book.items()):
        if not proven or not 3 <= size <= 40 or checked >= 12:
            continue
        state = solver.advance(solver.initial_guess()[1], opener, code)
        choice = live.choose(state.candidate_positions, state.history, math.inf)
        assert state.remaining == size and choice.exact and choice.total == total == lower
        checked += 1
    assert checked == 12


def test_the_runtime_plays_the_books_guess_one_guess_in(small_book, tmp_path):
    game = get_game("wordle", "normal")
    for name in ("tree-wordle-normal.parquet", "book-wordle-normal.parquet"):
        shutil.copy(small_book / name if name.startswith("book") else ROOT / "artifacts" / name, tmp_path / name)
    book, _ = artifacts.read_book(game, tmp_path)
    solver = Solver(game, folder=tmp_path, budget=0.0)  # no live search at all: the book alone answers
    opener = game.index_of("CRANE")
    for (row, code), (guess, size, total, proven, _) in list(book.items())[:40]:
        if row != opener:
            continue
        state = solver.advance(solver.initial_guess()[1], row, code)
        assert solver.guess_row(state) == guess and state.exact == proven
        assert state.value == pytest.approx(total / size)


def test_a_damaged_book_is_not_used(small_book, tmp_path, caplog):
    game = get_game("wordle", "normal")
    path = tmp_path / "book-wordle-normal.parquet"
    shutil.copy(small_book / path.name, path)
    table = pq.read_table(path)
    totals = table.column("total").to_numpy().copy()
    totals[0] += 1  # the checksum no longer holds
    pq.write_table(table.set_column(table.schema.get_field_index("total"), "total", [totals]), path)
    solver = Solver(game, folder=tmp_path)
    assert solver.book == {} and "opener book of wordle not used" in caplog.text


@pytest.mark.parametrize("name, variant", BOOK_VARIANTS)
def test_the_committed_books_cover_their_openers_and_say_what_is_proven(name, variant):
    game = get_game(name, variant)
    book, meta = artifacts.read_book(game)
    openers = set(book_openers(game, BookPlan()))
    assert openers <= {opener for opener, _ in book}
    entries = list(book.values())
    proven_answers = sum(size for _, size, _, proven, _ in entries if proven)
    assert int(meta["proven_answers"]) == proven_answers and int(meta["answers"]) == sum(e[1] for e in entries)
    assert int(meta["proven_classes"]) == sum(1 for e in entries if e[3])
    answers: dict[int, int] = {}
    for (row, _), (_, size, _, _, _) in book.items():
        answers[row] = answers.get(row, 0) + size
    for opener in openers:  # each opener's classes hold every answer but the opener itself
        assert answers[opener] == game.n_targets - int(np.isin(opener, game.target_index))


WEAK = BookPlan(top=0, favourites=("AUDIO",), class_work=5_000_000, top_k=4, top_work=50_000_000, final_work=0)


@pytest.fixture(scope="module")
def weak_book(tmp_path_factory) -> Path:
    """A hard-mode book of AUDIO searched with little work and no last stage: many classes unproven."""
    folder = tmp_path_factory.mktemp("weak")
    built, _ = build_book(get_game("wordle", "hard"), WEAK, jobs=1, folder=folder, force=True)
    assert built
    return folder


def test_an_unproven_book_entry_gives_way_to_a_smaller_live_total(weak_book):
    game = get_game("wordle", "hard")
    book, _ = artifacts.read_book(game, weak_book)
    solver = Solver(game, folder=weak_book)  # this folder's book (and no tree: the states are one guess in)
    live = Solver(game, use_book=False, use_tree=False)
    root = live.initial_guess()[1]
    beaten = 0
    for (opener, code), (guess, _, total, proven, _) in sorted(book.items(), key=lambda item: -item[1][1])[:6]:
        state = solver.advance(solver.initial_guess()[1], opener, code)
        _, found = live.choose_off_tree(live.advance(root, opener, code).candidate_positions, state.history)
        row = solver.guess_row(state)
        if not proven and found is not None and found.total < total:
            assert (row, state.value) == (found.guess, found.expected)
            beaten += 1
        else:
            assert row == guess
    assert beaten >= 1


def test_the_last_stage_proves_what_the_earlier_ones_left(weak_book, tmp_path):
    """`complete_book` (the last stage alone, on a book built by the earlier ones) proves the unproven classes:
    their totals are then the exact search's."""
    game = get_game("wordle", "hard")
    shutil.copy(artifacts.artifact_path(artifacts.BOOK, game, weak_book), tmp_path)
    before, _ = artifacts.read_book(game, tmp_path)
    last = replace(WEAK, final_work=500_000_000)  # enough for one of the classes the earlier stages left
    proven_now, _ = complete_book(game, last, tmp_path)
    after, meta = artifacts.read_book(game, tmp_path)
    assert proven_now >= 1 and meta["strategy"] == last.describe() and meta["strategy"].endswith("-final5e+08")
    solver, live, checked = Solver(game, use_tree=False), ExactLive(game), 0
    for key, (_, _, total, proven, lower) in sorted(after.items(), key=lambda item: item[1][1]):
        if before[key][3] or not proven or checked >= 3:
            continue  # the three smallest classes this stage proved
        state = solver.advance(solver.initial_guess()[1], *key)
        choice = live.choose(state.candidate_positions, state.history, math.inf)
        assert choice.exact and choice.total == total == lower <= before[key][2]
        checked += 1
    assert checked >= 1
    with pytest.raises(ValueError, match="not by the earlier stages"):
        complete_book(game, replace(WEAK, top_k=3), tmp_path)
