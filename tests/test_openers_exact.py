"""`deduce openers --exact`: exact opener totals through the exact search (`pipeline.builders.opener_ranking`).

Mastermind (Koyama and Lai: 5625 guesses over the 1296 codes, opening 1123) and one Wordle opener
(SALET: 7920, the published optimum); a cutoff gives a proven bound between the cutoff and the
exact total."""
from __future__ import annotations

import sys
import time

import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline.builders.opener_ranking import (
    OpenerTotal,
    cheap_ranking,
    exact_openers,
    groups,
    picklable,
    ranking_path,
    table_for,
)
from pipeline.builders.feedback_tables import build_table
from solver.core import artifacts, scoring, strategy
from solver.core.registry import get_game
from tests.interrupt import interrupt
from tests.helpers import assert_error, invoke, ok

pytestmark = pytest.mark.slow  # tens of seconds in all: `make test` runs them, `make test-fast` does not

MASTERMIND = {"1123": 5625, "1122": 5702, "1234": 5673, "1111": 6318}


def totals(out: str) -> list[tuple[str, str]]:
    return [tuple(line.split(" ", 1)) for line in out.splitlines()]


def test_mastermind_exact_words_in_parallel():
    out = ok("openers", "mastermind", "--exact", "--words", "1123,1122,1111", "--jobs", "2")
    assert totals(out) == [("1123", "5625"), ("1122", "5702"), ("1111", "6318")]


def test_mastermind_cutoff_prints_a_proven_bound():
    out = ok("openers", "mastermind", "--exact", "-w", "1122,1123,1234", "--cutoff", "5650", "-j", "1")
    lines = totals(out)
    assert lines[0] == ("1123", "5625")  # below the cutoff: exact
    for label, text in lines[1:]:
        assert text.startswith(">= "), text
        bound = int(text[3:])
        assert 5650 <= bound <= MASTERMIND[label]
    assert sorted(label for label, _ in lines[1:]) == ["1122", "1234"]
    assert int(lines[1][1][3:]) <= int(lines[2][1][3:])


def test_exact_openers_api_and_ranking():
    game = get_game("mastermind")
    table = table_for(game)
    rows = cheap_ranking(game, table, 3)
    # the greedy criterion of solver.core.strategy: least sum of squares, then a candidate, then the lower row
    sum_sq, _ = scoring.partition_scores(game, np.arange(game.n_guesses), np.arange(game.n_targets), table=table)
    assert rows[0] == strategy.choose(game, np.arange(game.n_targets), table=table)[0]
    assert [sum_sq[r] for r in rows] == sorted(sum_sq)[:3]
    results = exact_openers(game, table, [game.index_of("1122"), game.index_of("1123")], jobs=1)
    assert [(r.label, r.total, r.proven_exact) for r in results] == [("1123", 5625, True), ("1122", 5702, True)]
    assert all(isinstance(r, OpenerTotal) and r.seconds >= 0 and r.finishes for r in results)
    cut = exact_openers(game, table, [game.index_of("1122")], cutoff=5625, jobs=1)[0]
    assert not cut.proven_exact and 5625 <= cut.total <= 5702


def test_anagrams_share_a_task():
    game = get_game("wordle", "normal")
    rows = [game.index_of(w) for w in ("CRATE", "SALET", "TRACE", "SLATE")]
    assert groups(game, rows) == [[rows[0], rows[2]], [rows[1], rows[3]]]


def test_user_word_lists_pickle_for_the_workers():
    from solver.games import wordle
    from solver.games.wordlists import builtin_answers

    assert picklable(wordle.game(True, builtin_answers()[::50], None))


def test_user_word_lists_in_workers_and_in_process(small_lists):
    answers, guesses = small_lists
    lists = ("--answers", str(answers), "--guesses", str(guesses))
    parallel = ok("openers", "wordle", "--exact", "--top", "4", "-j", "2", *lists)
    alone = ok("openers", "wordle", "--exact", "--top", "4", "-j", "1", *lists)
    assert parallel == alone and len(parallel.splitlines()) == 4
    n = len(answers.read_text().split())
    assert all(2 * n - 1 <= int(total) < 3 * n for _, total in totals(parallel))


def test_openers_exact_errors():
    assert_error(invoke("openers", "mastermind", "--exact", "--words", "1123,9999,12"), "9999, 12")
    assert_error(invoke("openers", "wordle", "--exact", "--words", "SALET,XYZZY"), "XYZZY")
    assert_error(invoke("openers", "mastermind", "--cutoff", "6000"), "--cutoff needs --exact", 2)
    assert_error(invoke("openers", "mastermind", "--exact", "--cutoff", "0"), "--cutoff", 2)
    assert_error(invoke("openers", "mastermind", "--exact", "--words", " , "), "--words", 2)


def test_openers_words_without_exact_follow_the_solver():
    out = ok("openers", "mastermind", "--words", "1123,1122").splitlines()
    assert out[0].split()[:2] == ["rank", "opener"] and len(out) == 3
    assert sorted(line.split()[1] for line in out[1:]) == ["1122", "1123"]


def test_wordle_salet_exact():
    # searched, not read from the ranking (Selby's published optimum of SALET, hard: 8122)
    game = get_game("wordle", "hard")
    [salet] = exact_openers(game, table_for(game), [game.index_of("SALET")], jobs=1)
    assert (salet.label, salet.total, salet.proven_exact) == ("SALET", 8122, True)
    assert ok("openers", "wordle", "--hard", "--exact", "--words", "salet").splitlines() == [
        "SALET 8122 (from the opener ranking)"]


@pytest.mark.parametrize("variant, optimum, hundredth", [("normal", 7920, 8014), ("hard", 8122, 8220)])
def test_the_committed_rankings_hold_every_opener(variant, optimum, hundredth):
    # every allowed opener, SALET the unique best (exact), every other proven worse: a total above the
    # optimum, exact or a lower bound; the 100 best exact (`--top 100`): every opener cut off has a bound
    # above the 100th best exact total (Selby's top101/top105 lists give 8220 and 8014 for it)
    game = get_game("wordle", variant)
    rows, meta = artifacts.read_openers(game, ranking_path(game).parent)
    assert sorted(rows) == list(range(game.n_guesses)) and meta["openers"] == str(game.n_guesses)
    best = [game.labels[row] for row, (total, proven, _) in rows.items() if total <= optimum]
    assert best == ["SALET"] and rows[game.index_of("SALET")][:2] == (optimum, True)
    exact = sorted(total for total, proven, _ in rows.values() if proven)
    assert len(exact) >= 100 and exact[99] == hundredth
    assert min(total for total, proven, _ in rows.values() if not proven) > hundredth
    assert float(meta["wall_seconds"]) > 0


def test_openers_held_by_the_ranking_are_answered_from_it():
    # the committed normal-mode ranking: SALET exact, AHIGH cut off at 7921; nothing is searched
    held = dict(zip(*pq.read_table(ranking_path(get_game("wordle", "normal"))).select(["opener", "total"])
                    .to_pydict().values()))
    assert held["SALET"] == 7920 and held["AHIGH"] >= 7921
    out = ok("openers", "wordle", "--exact", "--words", "ahigh,salet", "--cutoff", "7921").splitlines()
    assert out == ["SALET 7920 (from the opener ranking)", f"AHIGH >= {held['AHIGH']} (from the opener ranking)"]
    out = ok("openers", "wordle", "--words", "salet,ahigh").splitlines()
    assert out[-4:-1] == ["In the exact opener ranking (deduce openers --exact --all):",
                          "  SALET 7920 (3.421 a game): exact (the least total of a tree opening with it)",
                          f"  AHIGH >= {held['AHIGH']} (>={held['AHIGH'] / 2315:.3f} a game): a proven lower bound"]
    assert out[-1].startswith("  of its 12972 openers, ") and ", 0 are proven unable to guarantee 6, " in out[-1]


# `deduce ARGS`, run as `-c DEDUCE STARTED ARGS`: each watched kernel search (`watch.run_watched`, where
# Ctrl-C is heard) creates the file STARTED in its own thread as it begins
DEDUCE = """
import sys
from pathlib import Path
from solver.core.search import parallel, searcher, watch

started = Path(sys.argv.pop(1))


def announced(searchers, work):
    def run(one):
        started.touch()
        return work(one)
    return watch.run_watched(searchers, run)


searcher.run_watched = parallel.run_watched = announced
from solver.cli.main import app
sys.argv = ["deduce", *sys.argv[1:]]
app()
"""


@pytest.mark.parametrize("game, opener, jobs", [("wordle", "FUZZY", "1"), ("bulls", "0123", "2")])
def test_ctrl_c_stops_an_exact_opener_search_at_once(game, opener, jobs, tmp_path):
    """Ctrl-C during a long search (Wordle hard FUZZY: minutes in one kernel call on the main thread;
    Bulls and Cows 0123 with its classes on 2 threads) ends the command at once, status 130, before
    any total: the signal is sent once the search has begun, and a command still running 60 s after
    it fails the test (`tests.interrupt`), where the search alone would run for minutes."""
    build_table(get_game(game, "normal" if game == "wordle" else "default"))  # the search starts at once
    args = ["openers", game, "--exact", "--words", opener, "--jobs", jobs] + (["--hard"] if game == "wordle" else [])
    started = tmp_path / "search-started"

    def searching(runner) -> None:
        deadline = time.monotonic() + 120  # generous: only a search that never begins fails here
        while not started.exists() and runner.poll() is None:
            assert time.monotonic() < deadline, "the search did not begin within 120 s"
            time.sleep(0.05)

    status, stopped, out, err = interrupt([sys.executable, "-c", DEDUCE, str(started), *args], searching)
    assert status == 130 and out == "", (stopped, out, err)  # interrupted: no opener's total printed
    assert "Traceback" not in err, err
