"""The opener screen (`pipeline.builders.opener_screen`): its verdicts against a feasibility search
through every guess, its bounds against trees, its order and its file."""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.builders import split_class
from pipeline.builders.opener_screen import (FINISHES, OPEN, REFUTED, class_figures, deepen, main, probe_classes,
                                             read_csv, screen, worst_after_two, write_csv)
from solver.core import scoring
from solver.core.search.searcher import INF, Searcher, SearchOptions
from solver.games import wordle

OPTIONS = SearchOptions(mode="top-k", k=2, widen=1, max_guesses=8, memo_bits=14)


def ares_hard():
    """Hard mode with the 14 words -ARES, 15 other answers and 26 more guesses."""
    words = list(wordle.game(False, all_words=True).labels)
    family = tuple(w for w in words if w[1:] == "ARES")
    extra = np.random.default_rng(0).choice(words, 40, replace=False)
    answers = tuple(sorted(set(family) | set(extra[:15])))
    return wordle.game(True, answers, tuple(sorted(set(answers) | set(extra) | {"CHOMP"})))


def test_class_figures_count_each_openers_classes():
    table = np.array([[0, 0, 1, 2], [3, 3, 3, 3]], np.uint8)
    largest, classes, squares = class_figures(table, 4, win=2)
    assert largest.tolist() == [2, 4] and classes.tolist() == [3, 1] and squares.tolist() == [6, 16]
    many = np.random.default_rng(1).integers(0, 5, size=(2500, 7)).astype(np.uint8)  # more than one block
    largest, classes, squares = class_figures(many, 5, win=4)
    for row in (0, 1023, 1024, 2499):
        sizes = np.bincount(many[row], minlength=5)
        assert classes[row] == np.count_nonzero(sizes) and squares[row] == sizes @ sizes
        assert largest[row] == sizes[:4].max()


def test_the_screen_refutes_exactly_the_openers_no_tree_finishes_and_bounds_the_rest(tmp_path):
    # hard mode with the -ARES family within 8 guesses: an opener that pins a family down
    # cannot finish it; with ample work every verdict is the feasibility search's through every guess
    game = ares_hard()
    table = scoring.feedback_table(game)
    screened = screen(game, table, OPTIONS, work=10**10, lead=5, seconds=0.01, also=("CHOMP",), class_lead=10,
                      class_work=10**10)
    assert len(screened) == game.n_guesses
    exact = Searcher(game, table, SearchOptions(max_guesses=8, memo_bits=14, first=True))
    positions = np.arange(game.n_targets, dtype=np.int64)
    verdicts = {s.label: s.probe for s in screened}
    for row, label in enumerate(game.labels):
        finishes = exact.value(positions, 8, forced=row)[0] < INF
        assert verdicts[label] == (FINISHES if finishes else REFUTED), label
    assert 0 < sum(v == REFUTED for v in verdicts.values()) < game.n_guesses
    measured = [s for s in screened if s.lower >= 0]
    assert len(measured) >= 5 and "CHOMP" in {s.label for s in measured}
    for s in measured:  # a proven bound: at most the total of the tree the probe found
        assert s.probe == FINISHES and game.n_targets < s.lower <= s.upper
    keys = [s.key() for s in screened]
    assert keys == sorted(keys) and screened[0].probe != REFUTED and screened[-1].probe == REFUTED
    path = write_csv(tmp_path / "screen.csv", screened, "the command")
    lines = path.read_text().splitlines()
    assert lines[0] == "# the command" and lines[1].startswith("rank,opener,probe") and len(lines) == 2 + len(screened)
    left = [s for s in screened if s.probe != REFUTED]  # fewer than 10: every one's classes probed
    assert len(left) < 10 and all(s.worst_two >= 0 and s.open_classes >= 0 for s in left)


def test_the_class_probes_refute_an_opener_exactly_when_a_hinted_class_cannot_be_finished():
    # each hinted root class on its own, against the feasibility search through every guess
    game = ares_hard()
    table = scoring.feedback_table(game)
    probes = Searcher(game, table, split_class.probe_options(OPTIONS))
    exact = Searcher(game, table, SearchOptions(max_guesses=8, memo_bits=14, first=True))
    verdicts = set()
    for row in range(game.n_guesses):
        verdict, still_open, refuted_by = probe_classes(probes, row, 10**10)
        stuck = []
        for code, group in exact.split(row, np.arange(game.n_targets, dtype=np.int64)):
            guesses, ghash = exact.allowed_after(((row, code),))
            if guesses.size < game.n_guesses and exact.value(group, 7, guesses, ghash)[0] >= INF:
                stuck.append(str(game.decode(code)))
        assert (verdict == REFUTED) == bool(stuck) and still_open == 0, game.labels[row]
        assert refuted_by in stuck if stuck else refuted_by == ""
        verdicts.add(verdict)
    assert verdicts == {OPEN, REFUTED}
    assert probe_classes(probes, game.index_of("CHOMP"), 1)[1] >= 0


def test_the_worst_class_after_two_guesses_is_the_least_largest_class_of_the_worst_hinted_class():
    game = ares_hard()
    table = scoring.feedback_table(game)
    searcher = Searcher(game, table, OPTIONS)
    for row in range(0, game.n_guesses, 5):
        naive = 0
        for code, group in searcher.split(row, np.arange(game.n_targets, dtype=np.int64)):
            guesses, _ = searcher.allowed_after(((row, code),))
            if guesses.size == game.n_guesses:
                continue  # all grey: hard mode restricts nothing
            best = min(max((sum(1 for t in group if table[g, t] == code2) for code2 in range(game.n_codes)
                            if code2 != game.win_code), default=0) for g in guesses)
            naive = max(naive, best)
        assert worst_after_two(searcher, table, row) == naive, game.labels[row]


def test_a_probe_out_of_work_leaves_the_opener_open():
    game = ares_hard()
    table = scoring.feedback_table(game)
    screened = screen(game, table, OPTIONS, work=1)
    assert {s.probe for s in screened} <= {OPEN, REFUTED, FINISHES} and any(s.probe == OPEN for s in screened)


def test_a_negative_figure_is_a_one_line_error(tmp_path):
    with pytest.raises(SystemExit) as stop:
        main(["wordle", "hard-all-words", "--class-lead", "-3", "--out", str(tmp_path / "screen.csv")])
    assert str(stop.value) == "error: --class-lead must not be negative" and not (tmp_path / "screen.csv").exists()


def test_deepening_probes_the_leading_classes_again_until_enough_stay_open(tmp_path):
    # class probes within 1 pair leave every hinted class open; deepened within ample work, the leading
    # openers get the class probes' exact verdicts, and the file reads back as it was written
    game = ares_hard()
    table = scoring.feedback_table(game)
    shallow = screen(game, table, OPTIONS, work=1, class_lead=game.n_guesses, class_work=1)
    path = write_csv(tmp_path / "screen.csv", shallow, "the screen")
    again, commands = read_csv(path)
    assert commands == ["the screen"] and [s.key() for s in again] == [s.key() for s in shallow]
    assert [(s.probe, s.upper, s.refuted_by, round(s.seconds, 2)) for s in again] == [
        (s.probe, s.upper, s.refuted_by, round(s.seconds, 2)) for s in shallow]
    assert any(s.open_classes > 0 for s in shallow)
    said = []
    deep = deepen(game, table, OPTIONS, again, lead=10, work=10**10, progress=said.append)
    probed = [text.split(":")[0] for text in said]
    leading, kept = [], 0
    exact = Searcher(game, table, split_class.probe_options(OPTIONS))
    for s in shallow:  # in the screen's order, not refuted, until 10 stay open
        if s.probe != REFUTED and kept < 10:
            leading.append(s.label)
            kept += probe_classes(exact, game.index_of(s.label), 10**10)[0] != REFUTED
    assert probed == leading
    after = {s.label: s for s in deep}
    for label in probed:
        verdict, still_open, refuted_by = probe_classes(exact, game.index_of(label), 10**10)
        assert (after[label].probe == REFUTED) == (verdict == REFUTED) and after[label].open_classes == still_open == 0
        assert after[label].refuted_by == refuted_by
    assert any(after[label].probe == REFUTED for label in probed)
    keys = [s.key() for s in deep]
    assert keys == sorted(keys)


def test_a_file_that_is_not_a_screen_is_a_one_line_error(tmp_path):
    other = tmp_path / "other.csv"
    other.write_text("rank,opener,total\n1,THUMP,59145\n")
    with pytest.raises(SystemExit) as stop:
        main(["wordle", "hard-all-words", "--deepen", str(other), "--out", str(tmp_path / "screen.csv")])
    assert (str(stop.value).startswith(f"error: {other} is not an opener screen")
            and not (tmp_path / "screen.csv").exists())
