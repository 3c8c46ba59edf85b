"""Regression tests of the large top-k Wordle trees: every target replayed by tree lookup.

Wordle with every acceptable word a possible answer (12972 targets) and the other word lengths
(2354 to 5328 targets) are too many games for the public API in the test budget: each target
walks the tree's own arrays, the feedback of every guess coming from the naive reference rules
(`tests/reference.py`), hard mode checked at every guess. A sample of targets is also played through
`initial_guess`/`next_guess`. Each replay must give exactly the total and worst case pinned in
tests/test_trees.py (`PINNED`); hard-mode legality is the reference rule's (`reference.wordle_hard_ok`).
"""
from __future__ import annotations

import numpy as np
import pytest

from solver.core import artifacts
from solver.core.runtime import Tree
from solver.core.registry import get_game
from solver.games import wordle
from tests import reference
from tests.test_trees import PINNED

# (variant, word size) of the trees replayed here; their exact totals and worst cases are
# `PINNED[("wordle", variant)]` (the references they are measured against are noted there)
LARGE = [("normal-all-words", 5), ("hard-all-words", 5), ("normal4", 4), ("normal6", 6), ("normal7", 7),
         ("normal8", 8), ("normal9", 9)]
# games needing the worst case, at most: the THUMP tree needs 7 guesses for 397 targets (Selby's THUMP
# tree: 381, his CHOMP tree: 639)
AT_WORST = {"hard-all-words": 397}
# hard mode of the other lengths, worst case first: each worst case proven the least (no tree keeps
# within one guess fewer: 7-9 letters by `depth.three_suffice`, 4 and 6 by the feasibility search;
# 4 letters needs 7, the greedy trees before these needed 14, 9, 7, 6 and 5 guesses)
HARD = [("hard4", 4), ("hard6", 6), ("hard7", 7), ("hard8", 8), ("hard9", 9)]
SAMPLE = 97  # every 97th target also through the public API


def _committed(variant: str):
    game = get_game("wordle", variant)
    if not artifacts.artifact_path(artifacts.TREE, game).exists():
        pytest.fail(f"the tree of {game.key} is not committed under artifacts/")
    return game


def replay(game, tree: Tree) -> np.ndarray:
    """Return the guesses each target needs, walking the tree with the reference rules."""
    counts = np.zeros(game.n_targets, np.int64)
    for p, row in enumerate(game.target_index):
        target, node, played, history = game.labels[row], 0, 0, []
        while True:
            guess = game.labels[tree.guess[node]]
            played += 1
            if guess == target:
                break
            assert played < 15, f"{target}: not found within {played} guesses"
            marks = reference.wordle(target, guess)
            if game.allowed is not None:
                assert reference.wordle_hard_ok(history, guess), f"{guess} breaks hard mode after {history}"
                history.append((guess, marks))
            node = tree.child(node, game.encode(marks))
            assert node is not None, f"{target}: the tree has no branch for {guess}={marks}"
        counts[p] = played
    return counts


def replayed(variant: str):
    """Return (game, metadata, guesses of each target) of a committed tree, its totals checked: the
    pinned total and worst case, which its metadata states too."""
    game = _committed(variant)
    tree = Tree(game)
    counts = replay(game, tree)
    assert (counts.sum(), counts.max()) == PINNED[("wordle", variant)]
    assert (int(tree.metadata["total_guesses"]), int(tree.metadata["max_guesses"])) == PINNED[("wordle", variant)]
    return game, tree.metadata, counts


def play_sample(game, size: int, limit: int, **choice) -> None:
    """Play every SAMPLE-th target through `initial_guess(size=size, **choice)`/`next_guess`, on the tree."""
    for row in game.target_index[::SAMPLE]:
        target = game.labels[row]
        guess, state = wordle.initial_guess(size=size, **choice)
        played = [guess]
        while guess != target:
            assert len(played) <= limit, f"{target}: {played}"
            guess, state = wordle.next_guess((guess, state), reference.wordle(target, guess))
            played.append(guess)
        assert state.node is not None, f"{target}: left the tree after {played}"


@pytest.mark.parametrize("variant, size", LARGE)
def test_large_tree_replay_gives_the_pinned_total_and_worst_case(variant, size):
    game, meta, counts = replayed(variant)
    if variant in AT_WORST:
        assert (counts == counts.max()).sum() <= AT_WORST[variant]
    assert "top" in meta["strategy"] and game.n_targets <= int(meta["lower_bound"]) <= counts.sum()
    # a top-k tree is an upper bound, proven optimal for its first guess only where the bound meets it
    assert meta["proven"] == ("opener" if int(meta["lower_bound"]) == counts.sum() else "none")


@pytest.mark.parametrize("variant, size", LARGE)
def test_large_tree_sample_through_the_public_api(variant, size):
    play_sample(_committed(variant), size, PINNED[("wordle", variant)][1], all_words=variant.endswith("-all-words"),
                hard=variant.startswith("hard"))


@pytest.mark.parametrize("variant, size", HARD)
def test_hard_trees_of_other_lengths_replay_legally_within_the_proven_least_worst_case(variant, size):
    game, meta, counts = replayed(variant)
    # the tree keeps to the least worst case, proven: no tree keeps within one guess fewer
    assert int(meta["worst_case_lower_bound"]) == counts.max() == PINNED[("wordle", variant)][1]
    assert "-worstfirst" in meta["strategy"] and game.n_targets <= int(meta["lower_bound"]) <= counts.sum()
    play_sample(game, size, PINNED[("wordle", variant)][1], hard=True)
