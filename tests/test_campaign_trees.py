"""What proof campaigns give the trees (`pipeline.campaign.apply`): root classes proven better grafted in, what
is proven recorded in the metadata with how it was obtained, and the labels every face shows from it
(`artifacts.proof_label`, `runtime.Tree.exact`). A poor tree of a small game is improved to the brute-force
optimum for its opener; the committed trees are checked to be up to date with the committed campaigns."""
from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline import campaign
from pipeline.builders.greedy_tree import to_arrow
from solver.core import artifacts, scoring
from solver.core.registry import all_variants, get_game
from solver.core.runtime import Solver, Tree
from solver.core.search.nodes import Nodes
from solver.games import mastermind
from tests import exhaustive


def _naive_tree(game, table) -> Nodes:
    """Return the tree that always plays the first candidate left (valid, far from optimal)."""
    nodes = Nodes()

    def grow(parent, code, depth, positions):
        guess = int(game.target_index[positions[0]])
        node = nodes.add(parent, code, depth, guess, int(positions.size))
        total = int(positions.size)
        codes = table[guess, positions]
        for child in np.unique(codes):
            if child != game.win_code:
                total += nodes.subtree[grow(node, int(child), depth + 1, positions[codes == child])]
        nodes.subtree[node] = total
        return node

    grow(-1, -1, 0, np.arange(game.n_targets))
    return nodes


def _commit_naive_tree(game, folder):
    """Write the naive tree of `game` into `folder` as its committed tree; return (table, nodes, guess limit)."""
    table = scoring.feedback_table(game)
    nodes = _naive_tree(game, table)
    limit = max(nodes.depth) + 1
    artifacts.write(artifacts.TREE, game, to_arrow(game, nodes),
                    {"targets": game.n_targets, "total_guesses": int(nodes.subtree[0]), "max_guesses": limit,
                     "strategy": f"naive-max{limit}", "proven": "none"}, folder)
    return table, nodes, limit


def test_a_campaign_grafts_its_better_classes_and_records_the_proof(tmp_path):
    game = mastermind.game(3, 3)
    table, nodes, limit = _commit_naive_tree(game, tmp_path)
    before = int(nodes.subtree[0])
    result, tasks = campaign.run(game, "opener", seconds=60, jobs=1, folder=tmp_path, table=table)
    opener = int(nodes.guess[0])
    codes = table[opener]
    optimum = game.n_targets + sum(exhaustive.optimal_subtotal(game, np.flatnonzero(codes == c), limit - 1)
                                   for c in np.unique(codes) if c != game.win_code)
    assert optimum < before  # the naive tree is beaten
    done, grafted = campaign.apply(game, lambda: table, tmp_path)
    assert done and grafted
    tree, meta = artifacts.read(artifacts.TREE, game, tmp_path)  # checked: a valid tree of the game
    assert int(meta["total_guesses"]) == tree.column("subtree_guesses")[0].as_py() == optimum
    assert (meta["proven"], meta["proven_classes"], meta["lower_bound"]) == ("opener", "all", str(optimum))
    assert meta["proven_source"].startswith(campaign.checkpoint_path(game, "opener", tmp_path).name)
    assert (meta["build_proven"], meta["build_lower_bound"]) == ("none", "")
    assert artifacts.proof_label(meta, game.labels[opener]) == f"optimal for {game.labels[opener]}"
    # every root class of the new tree is its proven optimum; a second apply changes nothing
    for code, total in campaign.tree_classes(game, opener, tmp_path).items():
        assert total == exhaustive.optimal_subtotal(game, np.flatnonzero(codes == code), limit - 1)
    assert campaign.apply(game, lambda: table, tmp_path) == (False, [])


def test_classes_grafted_in_two_rounds_are_all_recorded(tmp_path):
    game = mastermind.game(4, 3)  # its naive tree has four root classes a proof improves
    table, nodes, limit = _commit_naive_tree(game, tmp_path)
    opener = int(nodes.guess[0])
    tasks = campaign.opener_tasks(game, table, opener, campaign.tree_classes(game, opener, tmp_path))
    full, _ = campaign.run(game, "opener", opener, seconds=60, jobs=1, max_guesses=limit, folder=tmp_path / "all",
                           table=table)  # without the tree: no cut-off, every class's exact optimum
    better = [t.name for t in tasks if full.results[t.name].value < t.upper]
    assert len(better) >= 2
    campaign.run(game, "opener", seconds=60, jobs=1, folder=tmp_path, table=table, only=(better[0],))
    assert campaign.apply(game, lambda: table, tmp_path)[1][0].startswith(f"{better[0]} ")
    campaign.run(game, "opener", seconds=60, jobs=1, folder=tmp_path, table=table)
    done, second = campaign.apply(game, lambda: table, tmp_path)
    assert done and {entry.split(" ")[0] for entry in second} == set(better[1:])
    _, meta = artifacts.read(artifacts.TREE, game, tmp_path)
    assert sorted(entry.split(" ")[0] for entry in meta["campaign_grafted"].split(", ")) == sorted(better)


def test_a_class_not_yet_proven_leaves_a_bound_and_a_label_with_the_gap(tmp_path):
    game = mastermind.game(3, 3)
    table, nodes, limit = _commit_naive_tree(game, tmp_path)
    campaign.run(game, "opener", seconds=60, jobs=1, folder=tmp_path, table=table, count=1)  # one class only
    done, grafted = campaign.apply(game, lambda: table, tmp_path)
    _, meta = artifacts.read(artifacts.TREE, game, tmp_path)
    total, lower = int(meta["total_guesses"]), int(meta["lower_bound"])
    assert meta["proven"] == "none" and game.n_targets < lower < total
    assert "classes not run: the one-level counting bound" in meta["lower_bound_source"]
    optimum = game.n_targets + sum(exhaustive.optimal_subtotal(game, np.flatnonzero(table[nodes.guess[0]] == c),
                                                               limit - 1)
                                   for c in np.unique(table[nodes.guess[0]]) if c != game.win_code)
    assert lower <= optimum <= total  # a bound indeed
    assert artifacts.proof_label(meta, "X") == f"within {artifacts.gap_text(total, lower)} of optimal for X"


@pytest.mark.parametrize("meta, label", [
    ({"proven": "game", "total_guesses": "10"}, "optimal"),
    ({"proven": "opener", "total_guesses": "10"}, "optimal for A1 A3 H1"),
    ({"proven": "opener", "total_guesses": "22856", "lower_bound": "22856", "game_lower_bound": "20861"},
     "optimal for A1 A3 H1; within 9.6% of optimal"),
    ({"proven": "none", "total_guesses": "22858", "lower_bound": "22365", "game_lower_bound": "20861"},
     "within 2.3% of optimal for A1 A3 H1; within 9.6% of optimal"),
    ({"proven": "none", "total_guesses": "1001", "lower_bound": "1000"}, "within 0.1% of optimal for A1 A3 H1"),
    ({"proven": "none", "total_guesses": "1000", "lower_bound": "1000"}, "within 0.0% of optimal for A1 A3 H1"),
    ({"proven": "none", "total_guesses": "10"}, "best found"),
    # older files: what the strategy says
    ({"strategy": "exact-prove-max8", "total_guesses": "10"}, "optimal"),
    ({"strategy": "exact-prove-max6-openerA1 A3 H1", "total_guesses": "10"}, "optimal for A1 A3 H1"),
    ({"strategy": "greedy", "total_guesses": "10"}, "best found"),
])
def test_the_label_never_says_more_than_the_metadata_proves(meta, label):
    assert artifacts.proof_label(meta, "A1 A3 H1") == label


def test_the_gap_is_rounded_up():
    assert artifacts.gap_text(22858, 22365) == "2.3%"  # 2.204%
    assert artifacts.gap_text(100, 99) == "1.1%"  # 1.0101%
    assert artifacts.gap_text(110, 100) == "10.0%"


def test_battleship_is_optimal_for_its_opener_below_the_root_only():
    game = get_game("battleship", "default")
    tree = Tree(game)
    assert not tree.exact(0) and tree.value_proven(0) and not tree.proven
    assert tree.label == "optimal for A1 A3 H1; within 9.6% of optimal"
    classes = {int(tree.feedback[i]): i for i in np.flatnonzero(tree.parent == 0)}
    for code, total in ((0, 0, 3), 820), ((0, 1, 0), 2104):  # proven below the top-32 tree, grafted
        grafted = classes[game.encode(code)]
        assert int(tree.subtree[grafted]) == total and tree.exact(grafted)
        assert tree.exact(int(np.flatnonzero(tree.parent == grafted)[0]))
    assert all(tree.exact(node) for node in classes.values())


def test_cards_n3_is_optimal_for_its_opener_below_the_root():
    solver = Solver(get_game("cards", "n3"))
    guess, state = solver.initial_guess()
    assert guess == "6C 8D JD" and not state.exact  # the first guess itself: not proven the best
    assert state.value == pytest.approx(85402 / 22100)
    assert solver.tree.label == "optimal for 6C 8D JD; within 1.0% of optimal" and solver.tree.value_proven(0)
    _, after = solver.next_guess(guess, state, (0, 1, 0, 1, 1))  # the largest class, grafted (3584)
    assert after.exact and after.value == pytest.approx(3584 / 1116)


def test_an_older_tree_file_without_the_fields_still_loads(tmp_path):
    game = get_game("cards", "n2")
    table, meta = artifacts.read(artifacts.TREE, game)
    keep = {k: v for k, v in meta.items() if k not in artifacts.AUTO_METADATA and k not in campaign.BUILD_CLAIMS
            and not k.startswith(("proven_", "lower_bound_", "game_lower_bound", "build_", "campaign_"))}
    artifacts.write(artifacts.TREE, game, table.replace_schema_metadata(None), {**keep, "proven": "game"}, tmp_path)
    tree = Tree(game, tmp_path)
    assert tree.proven and tree.exact(0) and tree.exact(5) and tree.label == "optimal"


@pytest.mark.parametrize("name, variant", all_variants())
def test_the_committed_trees_record_the_committed_campaigns(name, variant):
    """`pipeline.campaign.apply` (which `make tables` runs) has nothing left to do on a committed tree."""
    game = get_game(name, variant)
    _, meta = artifacts.read(artifacts.TREE, game)
    opener = campaign._tree_opener(game, None)
    first = game.index_of(opener)
    limit = campaign._tree_guesses(game, None) or game.max_guesses or 0
    findings = campaign.tree_findings(game, opener, limit)
    classes = campaign.tree_classes(game, first)
    assert campaign.improvements(game, findings.opener, classes) == {}
    fields = campaign.tree_metadata(game, meta, int(meta["total_guesses"]), findings, classes,
                                    campaign._grafted(meta))
    assert {k: meta.get(k) for k in fields} == fields


def test_the_trees_page_status_says_what_the_metadata_proves():
    from tests.test_docs_results import ROWS, TREES, results_rows

    rows = results_rows(TREES.read_text(encoding="utf-8"))
    for start, tree in ROWS.items():
        [row] = [cells for first, cells in rows.items() if first.startswith(start)]
        path = artifacts.checkout_dir() / f"tree-{tree}.parquet"
        meta = {k.decode(): v.decode() for k, v in pq.read_schema(path).metadata.items()}
        game = get_game(meta["game"], meta["variant"])
        label = artifacts.proof_label(meta, game.labels[artifacts.peek_opener(game)])
        assert label in row[-1].replace("**", ""), (start, label, row[-1])
        if meta.get("lower_bound"):
            assert meta["lower_bound"] in row[-2], (start, row[-2])


def test_a_class_of_a_game_without_a_full_table_is_proven_and_grown_on_its_own_table():
    game = mastermind.game(3, 3)
    table = scoring.feedback_table(game)
    opener = 0
    codes = table[opener]
    code = max((c for c in np.unique(codes) if c != game.win_code), key=lambda c: (codes == c).sum())
    positions = np.flatnonzero(codes == code)
    exact = exhaustive.optimal_subtotal(game, positions, 5)
    task = campaign.Task("c", opener, int(code), positions.size, exact + 3)  # a tree 3 over the optimum
    row = campaign.run_task(game, None, task, 6, 30)  # no table: the class's own (every guess x its targets)
    assert (row.status, row.value, row.lower) == ("proven", exact, exact) and row.best_guess is not None
    alone = campaign.grow_class(game, None, opener, int(code), row, 6)
    with_table = campaign.grow_class(game, table, opener, int(code), row, 6)
    assert alone == with_table and int(alone.subtree[0]) == exact and alone.depth[0] == 1


def test_the_web_games_list_gives_each_trees_label():
    from solver.web import service

    labels = {(g["game"], g["variant"]): g["tree_label"] for g in service.games()["games"]}
    assert labels["battleship", "default"] == "optimal for A1 A3 H1; within 9.6% of optimal"
    assert labels["cards", "n3"] == "optimal for 6C 8D JD; within 1.0% of optimal"
    assert labels["mastermind", "default"] == "optimal"
