"""Regression tests of the large top-k Wordle trees: every target replayed by tree lookup.

Wordle with every acceptable word a possible answer (12972 targets) and the other word lengths
(2354 to 5328 targets) are too many games for the public API in the test budget: each target
walks the tree's own arrays, the feedback of every guess coming from the naive reference rules
(`tests/reference.py`), hard mode checked at every guess. A sample of targets is also played through
`initial_guess`/`next_guess`.
"""
from __future__ import annotations

import numpy as np
import pytest

from solver.core import artifacts
from solver.core.runtime import Tree
from solver.core.registry import get_game
from solver.games import wordle
from tests import reference

# (variant, size): (total guesses at most, worst case at most); the references: Selby's
# LANTS tree for every word (52896, max 6) and his CHOMP tree in hard mode (60057, max 7); for the other
# lengths, Wordle's 6 guesses
LARGE = {
    ("normal-all-words", 5): (52896, 6),
    ("hard-all-words", 5): (60057, 7),
    ("normal4", 4): (None, 6),
    ("normal6", 6): (None, 6),
    ("normal7", 7): (None, 6),
    ("normal8", 8): (None, 6),
    ("normal9", 9): (None, 6),
}
# games needing the worst case, at most: Selby's CHOMP tree needs 7 guesses for 639 targets
AT_WORST = {"hard-all-words": 639}
# hard mode of the other lengths, worst case first: at most the worst cases the build found (the
# greedy trees before them needed 14, 9, 7, 6 and 5 guesses)
HARD = {("hard4", 4): 8, ("hard6", 6): 5, ("hard7", 7): 4, ("hard8", 8): 4, ("hard9", 9): 4}
# no tree keeps within one guess fewer: 7-9 letters by `depth.three_suffice`, 6 by the feasibility search
LEAST_PROVEN = {"hard6", "hard7", "hard8", "hard9"}
PROVEN_AT_LEAST = {"hard4": 7}  # where the least is not proven: what is (no tree within 6)
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
                assert wordle.hard_mode_allows(history, guess) is None, f"{guess} breaks hard mode after {history}"
                history.append((guess, marks))
            node = tree.child(node, game.encode(marks))
            assert node is not None, f"{target}: the tree has no branch for {guess}={marks}"
        counts[p] = played
    return counts


def replayed(variant: str):
    """Return (game, metadata, guesses of each target) of a committed tree, its totals checked."""
    game = _committed(variant)
    tree = Tree(game)
    counts = replay(game, tree)
    assert counts.sum() == int(tree.metadata["total_guesses"]) and counts.max() == int(tree.metadata["max_guesses"])
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


@pytest.mark.parametrize("variant, size", list(LARGE))
def test_large_tree_replay_matches_metadata(variant, size):
    game, meta, counts = replayed(variant)
    total, worst = LARGE[(variant, size)]
    assert counts.max() <= worst
    if variant in AT_WORST:
        assert (counts == worst).sum() <= AT_WORST[variant]
    if total is not None:
        assert counts.sum() <= total
    assert "top" in meta["strategy"] and game.n_targets <= int(meta["lower_bound"]) <= counts.sum()
    # a top-k tree is an upper bound, proven optimal for its first guess only where the bound meets it
    assert meta["proven"] == ("opener" if int(meta["lower_bound"]) == counts.sum() else "none")


@pytest.mark.parametrize("variant, size", list(LARGE))
def test_large_tree_sample_through_the_public_api(variant, size):
    play_sample(_committed(variant), size, LARGE[(variant, size)][1], all_words=variant.endswith("-all-words"),
                hard=variant.startswith("hard"))


@pytest.mark.parametrize("variant, size", list(HARD))
def test_hard_trees_of_other_lengths_replay_legally(variant, size):
    game, meta, counts = replayed(variant)
    # the tree keeps to the least worst case its build found; proven the least where the lower bound meets it
    assert int(meta["worst_case_lower_bound"]) <= counts.max() <= HARD[(variant, size)]
    if variant in LEAST_PROVEN:
        assert int(meta["worst_case_lower_bound"]) == counts.max()
    assert int(meta["worst_case_lower_bound"]) >= PROVEN_AT_LEAST.get(variant, 0)
    assert "-worstfirst" in meta["strategy"] and game.n_targets <= int(meta["lower_bound"]) <= counts.sum()
    play_sample(game, size, HARD[(variant, size)], hard=True)
