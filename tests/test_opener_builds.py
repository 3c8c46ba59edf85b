"""Trees of a short list of openers (`pipeline.builders.opener_builds`): each the tree its plan builds."""
from __future__ import annotations

import csv
from dataclasses import replace

import numpy as np
import pytest

from pipeline.builders import exact_tree
from pipeline.builders.exact_tree import ClassesGivenUp, Plan, Polish, Rescan, build, checkpoint_dir, finished_classes
from pipeline.builders.opener_builds import (build_openers, main, ranking_plan, screen_openers, stopped_build,
                                          write_csv, write_stopped_csv)
from pipeline.plans import EXACT_PLANS
from solver.core import artifacts, scoring
from solver.core.search.searcher import Searcher, SearchOptions
from tests import exhaustive


def small_plan() -> Plan:
    return Plan(SearchOptions(mode="top-k", k=2, widen=1, max_guesses=6), bound_seconds=0,
                polish=Polish(k=4, size=(3, 50), work=10**8), rescan=Rescan(size=100, margin=3),
                sources={"opener": "someone"})


def test_ranking_plan_changes_the_opener_and_only_the_steps_named():
    plan = small_plan()
    each = ranking_plan(plan, "ABCDE", ("rescan",))
    assert each.opener == "ABCDE" and each.sources == {} and each.rescan == Rescan()
    assert each.polish == plan.polish and each.options == plan.options
    assert "rescan" not in each.describe() and "-polish4" in each.describe()
    with pytest.raises(ValueError, match="unknown step 'prune'"):
        ranking_plan(plan, "ABCDE", ("prune",))


def test_each_opener_gets_the_tree_its_plan_builds_least_total_first(tmp_path):
    game = exhaustive.small_wordle(30, seed=3, extra_guesses=30)
    table = scoring.feedback_table(game)
    plan = small_plan()
    openers = [game.labels[int(game.target_index[i])] for i in (0, 7, 19)]
    results = build_openers(game, table, plan, openers, ("rescan",), jobs=1, folder=tmp_path / "a")
    assert [r.total for r in results] == sorted(r.total for r in results)
    assert sorted(r.opener for r in results) == sorted(openers)
    for r in results:
        alone = build(game, table, ranking_plan(plan, r.opener, ("rescan",)), 1, None, tmp_path / "b")
        assert (r.total, r.lower, r.strategy) == (alone.total, alone.lower,
                                                  ranking_plan(plan, r.opener, ("rescan",)).describe())
        assert r.lower <= r.total and 1 <= r.worst <= 6
    path = write_csv(tmp_path / "builds.csv", results, game.n_targets, "the command")
    lines = path.read_text().splitlines()
    assert lines[0] == "# the command"
    rows = list(csv.DictReader(lines[1:]))
    assert [row["opener"] for row in rows] == [r.opener for r in results]
    assert [int(row["total"]) for row in rows] == [r.total for r in results]
    assert rows[0]["mean"] == f"{results[0].total / game.n_targets:.4f}"


def test_the_command_names_an_unknown_step_in_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["mastermind", "default", "1122", "--without", "prune", "--out", str(tmp_path / "x.csv")])
    assert "unknown step 'prune'" in str(stopped.value.code) and not (tmp_path / "x.csv").exists()


def test_the_csv_is_written_after_each_opener_and_a_stopped_build_is_bounded(tmp_path):
    game = exhaustive.small_wordle(30, seed=3, extra_guesses=30)
    table = scoring.feedback_table(game)
    plan = small_plan()
    openers = [game.labels[int(game.target_index[i])] for i in (0, 7)]
    seen = []
    results = build_openers(game, table, plan, openers, ("rescan",), jobs=1, folder=tmp_path,
                            on_built=lambda so_far: seen.append([b.opener for b in so_far]))
    assert [sorted(names) for names in seen] == [[openers[0]], sorted(openers)]
    built = {r.opener: r for r in results}
    whole = stopped_build(game, table, plan, openers[0], ("rescan",), tmp_path, bound_seconds=0.5)
    assert whole.classes_done == whole.classes and whole.targets_done == game.n_targets
    assert whole.total_done == whole.at_least == built[openers[0]].total
    # a build stopped halfway: its largest classes are not finished
    folder = checkpoint_dir(game, ranking_plan(plan, openers[1], ("rescan",)), tmp_path)
    files = sorted(folder.glob("class-*.npz"), key=lambda f: -f.stat().st_size)
    for f in files[: len(files) // 2]:
        f.unlink()
    half = stopped_build(game, table, plan, openers[1], ("rescan",), tmp_path, bound_seconds=0.5)
    assert half.classes_done == half.classes - len(files) // 2 and half.targets_done < game.n_targets
    assert half.total_done < half.at_least <= built[openers[1]].total
    # two guesses a target at least, the opener one
    assert 2 * half.targets_done - 1 <= half.total_done < built[openers[1]].total
    assert built[openers[1]].lower <= half.at_least
    path = write_stopped_csv(tmp_path / "stopped.csv", [half], "the command")
    rows = list(csv.DictReader(path.read_text().splitlines()[1:]))
    assert rows[0]["opener"] == openers[1] and int(rows[0]["at_least"]) == half.at_least
    with pytest.raises(ValueError, match="no checkpoints of"):
        stopped_build(game, table, plan, game.labels[int(game.target_index[19])], ("rescan",), tmp_path)


def test_a_screen_gives_its_first_openers_not_refuted_and_a_bad_file_is_one_line(tmp_path, capsys):
    screen = tmp_path / "screen.csv"
    screen.write_text("# the command\nrank,opener,probe,open_classes\n1,TRAIN,open,2\n2,CLING,refuted,\n"
                      "3,THUMP,open,4\n4,PLUMB,open,5\n")
    assert screen_openers(screen, 2) == ["TRAIN", "THUMP"] and screen_openers(screen, 9) == ["TRAIN", "THUMP", "PLUMB"]
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="not an opener screen"):
        screen_openers(tmp_path / "other.csv", 2)
    for argv in (["--screen", str(tmp_path / "missing.csv"), "--first", "2"], ["--screen", str(screen)], []):
        with pytest.raises(SystemExit) as stop:
            main(["wordle", "hard-all-words", *argv, "--out", str(tmp_path / "out.csv")])
        assert str(stop.value).startswith("error: ") and "\n" not in str(stop.value)
    assert not (tmp_path / "out.csv").exists()


def _committed_rows(name: str) -> list[dict]:
    lines = (artifacts.checkout_dir() / name).read_text(encoding="utf-8").splitlines()
    return list(csv.DictReader(line for line in lines if not line.startswith("#")))


RANKED_OPENERS = 5  # the screen's leading openers the ranking builds (docs, "Which opener")


def test_the_hard_every_word_opener_is_the_least_total_of_the_screens_leading_openers_built():
    # the committed ranking (docs, "Which opener") and the plan agree: each of the screen's first five openers
    # not refuted is built with the ranking plan (whole, or stopped and reported), and the plan opens with
    # the least total of those built whole, which the tree then improves
    builds = _committed_rows("opener-builds-wordle-hard-all-words.csv")
    stopped = {row["opener"] for row in _committed_rows("opener-builds-stopped-wordle-hard-all-words.csv")}
    screened = _committed_rows("screen-wordle-hard-all-words.csv")
    screen_rows = {row["opener"]: row for row in screened}
    leading = [row["opener"] for row in screened if row["probe"] != "refuted"][:RANKED_OPENERS]
    built = {b["opener"] for b in builds}
    assert len(builds) >= 2 and [int(b["total"]) for b in builds] == sorted(int(b["total"]) for b in builds)
    assert set(leading) <= built | stopped and not built & stopped
    plan = EXACT_PLANS[("wordle", "hard-all-words")]
    assert builds[0]["opener"] == plan.opener and plan.opener in leading
    assert all(screen_rows[b["opener"]]["probe"] != "refuted" for b in builds)
    # the plan cites the ranking as it stands: each total built whole, each leading opener stopped
    cited = plan.sources["opener"]
    assert all(b["total"] in cited for b in builds) and all(s in cited for s in stopped if s in leading)
    assert all(b["strategy"] == ranking_plan(plan, b["opener"], ("rescan", "polish", "refine")).describe()
               for b in builds)
    meta = artifacts.read_metadata(artifacts.checkout_dir() / "tree-wordle-hard-all-words.parquet")
    assert int(meta["total_guesses"]) <= int(builds[0]["total"])


def test_a_class_over_its_budget_is_given_up_and_one_within_it_is_the_tree_without_one(tmp_path):
    # the budget is the run's, not the tree's: within it every class is what the plan builds without it
    # (the same checkpoints); beyond it a class is given up, not saved, and the build says which
    game = exhaustive.small_wordle(600, seed=3, extra_guesses=100)  # classes searched below their root
    table = scoring.feedback_table(game)
    plan = ranking_plan(small_plan(), game.labels[int(game.target_index[7])], ("rescan",))
    bare = build(game, table, plan, 1, None, tmp_path / "bare")
    ample = build(game, table, replace(plan, class_work=10**12), 1, None, tmp_path / "ample")
    assert (ample.total, ample.lower, ample.nodes.subtree) == (bare.total, bare.lower, bare.nodes.subtree)
    assert checkpoint_dir(game, replace(plan, class_work=10**12), tmp_path) == checkpoint_dir(game, plan, tmp_path)
    exact_tree._SEARCHERS.clear()  # a fresh process: the memo of the builds above would answer without work
    with pytest.raises(ClassesGivenUp) as given:
        build(game, table, replace(plan, class_work=1), 1, None, tmp_path / "tight")
    saved = finished_classes(checkpoint_dir(game, plan, tmp_path / "tight"))
    searcher = Searcher(game, table, plan.options)
    groups = dict(searcher.split(game.index_of(plan.opener), np.arange(game.n_targets, dtype=np.int64)))
    assert given.value.codes and set(given.value.codes) == set(groups) - set(saved)
    assert all(groups[code].size > 2 for code in given.value.codes)  # a pair or a lone target costs no search
    assert str(given.value).startswith(f"{game.key}: {len(given.value.codes)} classes given up after 1e+00 pairs")


def test_an_opener_given_up_is_reported_as_a_stopped_build(tmp_path):
    game = exhaustive.small_wordle(600, seed=3, extra_guesses=100)  # classes searched below their root
    table = scoring.feedback_table(game)
    openers = [game.labels[int(game.target_index[i])] for i in (0, 7)]
    reported = []
    exact_tree._SEARCHERS.clear()  # a fresh process: no class is answered from an earlier test's memo
    results = build_openers(game, table, small_plan(), openers, ("rescan",), jobs=1, folder=tmp_path, class_work=1,
                            on_given_up=lambda so_far: reported.append(list(so_far)))
    assert results == [] and [s.opener for s in reported[-1]] == openers
    for s in reported[-1]:  # what the checkpoints show: the classes within the budget (the bounds are timed)
        again = stopped_build(game, table, small_plan(), s.opener, ("rescan",), tmp_path)
        assert s.classes_done < s.classes and game.n_targets < s.at_least
        assert (s.classes_done, s.classes, s.targets_done, s.total_done) == (
            again.classes_done, again.classes, again.targets_done, again.total_done)
    whole = build_openers(game, table, small_plan(), openers, ("rescan",), jobs=1, folder=tmp_path, class_work=10**12)
    assert sorted(b.opener for b in whole) == sorted(openers)


def test_class_work_options_are_checked_in_one_line(tmp_path):
    for extra, message in ((["--class-work", "-1"], "--class-work must not be negative"),
                           (["--given-up-out", str(tmp_path / "g.csv")], "--given-up-out needs --class-work")):
        with pytest.raises(SystemExit) as stopped:
            main(["wordle", "hard-all-words", "THUMP", "--out", str(tmp_path / "x.csv"), *extra])
        assert message in str(stopped.value.code) and not (tmp_path / "x.csv").exists()
