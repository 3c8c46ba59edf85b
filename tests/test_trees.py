"""Regression tests on the committed trees: every result pinned, every tree replayed.

`PINNED` holds the exact total guesses and worst case of every `artifacts/tree-*.parquet` (their
metadata at the time of writing), `PROOF` what the metadata says is proven of each;
tests/test_artifact_coverage.py fails on a tree file missing from them. The trees below are played
target by target through the public API (`initial_guess`/`next_guess` of their game module), the
feedback from the naive reference rules of `tests/reference.py` (hard mode checked by its
`wordle_hard_ok`); cards n4 is walked node by node with the reference rule in array form, every 50th
target also played through the API; the every-word and 4-9 letter Wordle trees are walked by
tests/test_trees_large.py. A replay must give exactly the pinned total and worst case: a rebuilt
tree that does better (or worse) fails until its new values are written here on purpose.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from solver.core import artifacts
from solver.core.runtime import Tree
from solver.core.registry import get_game
from solver.games import battleship, bulls, cards, mastermind, wordle
from tests import reference

# Every committed tree: (game, variant): (total guesses over every target, worst case). "Optimal": no
# tree within the strategy's guess limit does better; "optimal for X": none opening with X does; an
# "upper bound" is the best tree found, not proven optimal (with the lower bound proven for it).
PINNED = {
    # optimal: this project's exact ranking of every opener (SALET 7920 the unique best) and Selby's
    # published proof agree; the tree itself is proven for SALET by this project's search
    ("wordle", "normal"): (7920, 5),
    # optimal: the same in hard mode (this project's ranking of every opener, Selby's published 8122)
    ("wordle", "hard"): (8122, 6),
    # optimal for SLATE (this project's search), guesses restricted to the answers
    ("wordle", "answers-only"): (7973, 6),
    # optimal: TARSE proven by this project's search; Selby's published exact totals of every opener
    # on the NYT lists make TARSE's 11219 the least
    ("wordle", "normal-nyt"): (11219, 6),
    # optimal: the same in hard mode (Selby's published totals, TARSE 11627 the least)
    ("wordle", "hard-nyt"): (11627, 6),
    # upper bound from LANTS (top-30 search; lower bound 49753): equals Selby's published LANTS tree
    ("wordle", "normal-all-words"): (52896, 6),
    # upper bound from THUMP (top-5 search, widened, its class RRRRR below the second guess its probes
    # found, classes of at most 1000 targets searched again with k 50 and 400, nodes of 3 to 300 targets
    # polished with k 400; lower bound 51032), above Selby's THUMP tree (58715), below his CHOMP tree
    # (60057); 7 guesses are needed in this mode (6 cannot be guaranteed)
    ("wordle", "hard-all-words"): (58715, 7),
    # 4 letters, normal: upper bound (top-10 search; lower bound 9633)
    ("wordle", "normal4"): (9877, 6),
    # 6 to 9 letters, normal: optimal for their first guess (this project's search: bound = total)
    ("wordle", "normal6"): (14490, 5),
    ("wordle", "normal7"): (14873, 4),
    ("wordle", "normal8"): (14482, 4),
    ("wordle", "normal9"): (12815, 4),
    # hard mode of 4 and 6 to 9 letters, worst case first: each worst case proven the least by this
    # project's feasibility search (metadata worst_case_lower_bound; 4 letters: no tree within 6);
    # totals within that worst case: upper bounds for 4, 6 and 7 letters (lower bounds 10009, 15129,
    # 15191), optimal for their first guess for 8 and 9
    ("wordle", "hard4"): (10937, 7),
    ("wordle", "hard6"): (15160, 5),
    ("wordle", "hard7"): (15192, 4),
    ("wordle", "hard8"): (14514, 4),
    ("wordle", "hard9"): (12817, 4),
    # optimal: published by Koyama and Lai (1993), proven again by this project's search
    ("mastermind", "default"): (5625, 6),
    # optimal: published by Tanaka (1996), proven again by this project's search (one first guess up to symmetry)
    ("bulls", "default"): (26274, 7),
    # optimal for A1 A3 H1: top-32 search from A1 A3 H1, its root classes 0,0,3 and 0,1,0 replaced by the proof
    # campaign's subtrees (820 and 2104), every root class proven; 20861 for the game (a lower bound)
    ("battleship", "default"): (22856, 7),
    # optimal: this project's proofs (no optimum is published)
    ("cards", "n1"): (180, 4),
    ("cards", "n2"): (4697, 5),
    # n3: optimal for its opener 6C 8D JD, proven by the campaign (its 7 root classes proven below the pooled
    # top-128 search's 85424 grafted in); n4: an upper bound, a pooled top-8 search (1133313) with the 89 root
    # classes its campaign proved better grafted in (lower bound 886082 for its opener)
    ("cards", "n3"): (85402, 6),
    ("cards", "n4"): (1132494, 6),
}
# What each tree's metadata says is proven: "game" (optimal over every tree), "opener" (over every
# tree with its first guess), "none" (an upper bound). Wordle normal and hard are proven for the game by
# the committed exact opener rankings (`pipeline.campaign.tree_metadata`); the NYT lists' whole-game
# optimality comes from Selby's results (above), not proven here; cards n3 by its proof campaign.
PROOF = {key: "none" for key in PINNED} | {
    ("wordle", v): "opener" for v in ("answers-only", "normal-nyt", "hard-nyt", "normal6", "normal7",
                                      "normal8", "normal9", "hard8", "hard9")
} | {key: "game" for key in [("mastermind", "default"), ("bulls", "default"), ("cards", "n1"), ("cards", "n2"),
                             ("wordle", "normal"), ("wordle", "hard")]} | {
    ("cards", "n3"): "opener", ("battleship", "default"): "opener"}
# Trees built by the exact search (all of them): (total guesses, worst case, proof in the metadata).
EXACT = {key: (*PINNED[key], PROOF[key]) for key in PINNED}
# Played through the public API here; the other trees by tests/test_trees_large.py.
REPLAYED = [("battleship", "default"), ("cards", "n1"), ("cards", "n2"), ("cards", "n3"), ("cards", "n4"),
            ("wordle", "normal"), ("wordle", "hard"), ("wordle", "answers-only"), ("wordle", "normal-nyt"),
            ("wordle", "hard-nyt"), ("mastermind", "default"), ("bulls", "default")]
# marked slow (left out by `make test-fast`): 6.2 and 6.3 s in a cold `pytest --durations` run of this
# file and tests/test_trees_large.py on the shared machine (2.2 and 1.0 s warm), the walk below 3.9-7.7 s
SLOW = {("cards", "n3"), ("cards", "n4")}
# Cards n=4 has 270725 targets: every 50th is played through the public API (about 70 s for all),
# and all of them by walking the tree with the reference rule (`test_cards4_tree_walk_...`).
CARDS4_STRIDE = 50


def _text(guess) -> str:
    if isinstance(guess, str):
        return guess
    if isinstance(guess[0], battleship.Location):
        return battleship.label(guess)
    return cards.label(guess)


def play(name: str, variant: str, target: str, limit: int = 15) -> list[str]:
    """Return the guesses (as text) the runtime plays against `target`."""
    if name == "battleship":
        start, fb = battleship.initial_guess, lambda g: reference.battleship(target.split(), g.split())
        step = battleship.next_guess
    elif name == "cards":
        start = partial(cards.initial_guess, int(variant[1:]))
        fb, step = (lambda g: reference.cards(target.split(), g.split())), cards.next_guess
    elif name == "wordle":
        start = partial(wordle.initial_guess, hard=variant.startswith("hard"), answers_only=variant == "answers-only",
                        lists="nyt" if variant.endswith("-nyt") else "original")
        fb, step = (lambda g: reference.wordle(target, g)), wordle.next_guess
    elif name == "mastermind":
        start, fb, step = mastermind.initial_guess, (lambda g: reference.mastermind(target, g)), mastermind.next_guess
    else:
        start, fb, step = bulls.initial_guess, (lambda g: reference.bulls(target, g)), bulls.next_guess
    guess, state = start()
    played = []
    while True:
        text = _text(guess)
        played.append(text)
        if text == target:
            return played
        assert len(played) < limit, f"{target}: no answer after {played}"
        guess, state = step((guess, state), fb(text))


def tree_metadata(game):
    return artifacts.read(artifacts.TREE, game)[1]


@pytest.mark.parametrize("name, variant", list(PINNED))
def test_metadata_holds_the_pinned_results(name, variant):
    game = get_game(name, variant)
    meta = tree_metadata(game)
    total, most = PINNED[(name, variant)]
    assert (int(meta["total_guesses"]), int(meta["max_guesses"])) == (total, most)
    assert int(meta["targets"]) == game.n_targets
    assert meta["proven"] == PROOF[(name, variant)]
    assert meta["strategy"].startswith("exact-")
    if "lower_bound" in meta:
        assert game.n_targets <= int(meta["lower_bound"]) <= total
        assert (int(meta["lower_bound"]) == total) == (meta["proven"] != "none")
    if "game_lower_bound" in meta:  # certified for the whole game
        assert int(meta["game_lower_bound"]) <= int(meta["lower_bound"])
    if "worst_case_lower_bound" in meta:  # the worst case is proven the least
        assert int(meta["worst_case_lower_bound"]) == most


@pytest.mark.parametrize("name, variant", [pytest.param(*key, marks=[pytest.mark.slow] if key in SLOW else [])
                                           for key in REPLAYED])
def test_tree_replay_gives_the_pinned_total_and_worst_case(name, variant):
    game = get_game(name, variant)
    positions = np.arange(game.n_targets)
    if (name, variant) == ("cards", "n4"):
        positions = positions[::CARDS4_STRIDE]
    counts = []
    for p in positions:
        target = game.labels[game.target_index[p]]
        guesses = play(name, variant, target)
        if variant.startswith("hard"):
            history = []
            for g in guesses:
                assert reference.wordle_hard_ok(history, g), f"{g} breaks hard mode after {history}"
                history.append((g, reference.wordle(target, g)))
        counts.append(len(guesses))
    counts = np.array(counts)
    total, most = PINNED[(name, variant)]
    if positions.size == game.n_targets:
        assert (counts.sum(), counts.max()) == (total, most)
    else:  # the sample: the walk below gives the exact values
        assert counts.max() <= most


def test_the_card_rule_in_array_form_is_the_reference_rule():
    """`reference.cards_many` (the walk below) against the plain `reference.cards`, on random pairs of
    hands of 1 to 4 cards and on pairs sharing cards, ranks and suits."""
    rng = np.random.default_rng(4)
    deck = [rank + suit for rank in reference.RANKS for suit in reference.SUITS]
    for size in (1, 2, 3, 4):
        pairs = [(list(rng.choice(deck, size, replace=False)), list(rng.choice(deck, size, replace=False)))
                 for _ in range(3000)]
        pairs += [(answer, answer) for answer, _ in pairs[:50]]  # every card shared
        pairs += [(answer, answer[:1] + guess[1:]) for answer, guess in pairs[:200] if answer[0] not in guess[1:]]
        answers = reference.cards_arrays([" ".join(a) for a, _ in pairs])
        guesses = reference.cards_arrays([" ".join(g) for _, g in pairs])
        many = reference.cards_many(*answers, *guesses)
        assert [tuple(map(int, row)) for row in many] == [reference.cards(a, g) for a, g in pairs]


@pytest.mark.slow
def test_cards4_tree_walk_finishes_every_target_as_pinned():
    """Every one of the 270725 targets walks the tree from its root, the feedback of each guess from the
    reference rule (`reference.cards_many`: its definitions over arrays, all targets of a depth at once;
    checked against the plain `reference.cards` above), the child found by the feedback's code."""
    game = get_game("cards", "n4")
    tree = Tree(game)
    ranks, suits = reference.cards_arrays(game.labels)  # of every guess row
    keys = tree.parent[1:] * game.n_codes + tree.feedback[1:]  # node * n_codes + code, of each child
    children = np.arange(1, tree.parent.size, dtype=np.int64)
    order = np.argsort(keys)
    keys, children = keys[order], children[order]

    targets = game.target_index.astype(np.int64)  # guess row of each target position
    node = np.zeros(game.n_targets, np.int64)  # where each unfinished target stands
    left = np.arange(game.n_targets)  # target positions not found yet
    counts = np.zeros(game.n_targets, np.int64)
    played = 0
    while left.size:
        played += 1
        assert played < 15, f"{left.size} targets not found within 14 guesses"
        guess = tree.guess[node[left]].astype(np.int64)
        found = guess == targets[left]
        counts[left[found]] = played
        left, guess = left[~found], guess[~found]
        if not left.size:
            break
        feedback = reference.cards_many(ranks[targets[left]], suits[targets[left]], ranks[guess], suits[guess])
        seen, which = np.unique(feedback, axis=0, return_inverse=True)
        codes = np.array([game.encode(tuple(int(x) for x in row)) for row in seen], np.int64)[which.ravel()]
        key = node[left] * game.n_codes + codes
        at = np.minimum(np.searchsorted(keys, key), keys.size - 1)
        missing = np.flatnonzero(keys[at] != key)
        if missing.size:
            p = left[missing[0]]
            pytest.fail(f"{game.labels[targets[p]]}: no branch for {game.labels[guess[missing[0]]]} = "
                        f"{tuple(int(x) for x in feedback[missing[0]])} ({missing.size} targets at guess {played})")
        node[left] = children[at]
    assert counts.min() >= 1
    assert (counts.sum(), counts.max()) == PINNED[("cards", "n4")]
