"""`Plan`'s settings in groups (issue 62): the strategy text of every plan is the one its committed tree
was built with (the staleness check and the checkpoints' tag read it), and a ranking that leaves a step
out resets that step's group alone."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.builders.exact_tree import Plan, Polish, Refine, Rescan, Split, WorstFirst
from pipeline.builders.opener_builds import ranking_plan
from pipeline.plans import EXACT_PLANS
from solver.core import artifacts
from solver.core.registry import get_game
from solver.core.search.searcher import SearchOptions

COMMITTED = [key for key in EXACT_PLANS
             if artifacts.artifact_path(artifacts.TREE, get_game(*key), artifacts.packaged_dir()).is_file()]


@pytest.mark.parametrize("key", COMMITTED, ids="-".join)
def test_each_plan_describes_the_committed_tree(key):
    path = artifacts.artifact_path(artifacts.TREE, get_game(*key), artifacts.packaged_dir())
    assert artifacts.read_metadata(path)["strategy"] == EXACT_PLANS[key].describe()


def test_the_grouped_plans_are_committed():
    assert {("wordle", "hard-all-words"), ("wordle", "normal-all-words")} <= set(COMMITTED)


def test_a_group_writes_its_text_only_for_top_k():
    top = Plan(SearchOptions(mode="top-k", k=5, max_guesses=7), opener="THUMP", worst=WorstFirst(widen=2),
               split=Split(size=20, first=(("RRRRR", "BLANK"),)), polish=Polish(k=4, size=(3, 30), work=10**9))
    assert top.describe() == ("exact-top5-max7-openerTHUMP-worstfirst-widen2-below20-tries2-probe1e09+2e10-RRRRRBLANK"
                              "-polish4-3to30-work1e09")
    proving = replace(top, options=SearchOptions(max_guesses=7), worst=None)
    assert proving.describe() == "exact-prove-max7-openerTHUMP"


def test_a_ranking_leaves_out_the_steps_named_and_keeps_the_rest():
    plan = Plan(SearchOptions(mode="top-k", k=2, max_guesses=6), refine=Refine(k=(4,), size=9, split=3),
                rescan=Rescan(size=5, margin=1), polish=Polish(k=2))
    each = ranking_plan(plan, "CRANE", ("refine", "rescan"))
    assert each.refine == Refine(split=3) and each.rescan == Rescan() and each.polish == plan.polish
