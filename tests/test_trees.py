"""Regression tests on average guesses: every committed tree replayed through the public API.

Each target is played with `initial_guess`/`next_guess` of its game module, the feedback coming
from the naive reference rules in `tests/reference.py`. The totals must equal the tree's metadata;
trees from the exact search must have the exact totals and worst cases below (the published
optima), greedy trees stay under the ceilings measured for them.
"""
from __future__ import annotations

import numpy as np
import pytest

from solver.core import artifacts, scoring
from solver.core.runtime import Tree
from solver.core.registry import get_game
from solver.games import battleship, bulls, cards, mastermind, wordle
from tests import reference

# (game, variant): (average ceiling, max ceiling or None)
CEILINGS = {
    ("battleship", "default"): (4.61, 7),
    ("cards", "n1"): (None, None),
    ("cards", "n2"): (3.57, None),
    ("cards", "n3"): (3.87, 6),
    ("cards", "n4"): (4.19, 6),
    ("wordle", "normal"): (None, None),
    ("wordle", "hard"): (None, None),
    ("wordle", "answers-only"): (None, None),
    ("wordle", "normal-nyt"): (None, None),
    ("wordle", "hard-nyt"): (None, None),
    ("mastermind", "default"): (None, None),
    ("bulls", "default"): (None, None),
}
BULLS_TOTAL, BULLS_PROOF = 26274, "game"  # Tanaka 1996; one first guess up to symmetry (0123)
# Trees built by the exact search: (total guesses, worst case, proof in the metadata).
EXACT = {
    ("wordle", "normal"): (7920, 5, "opener"),  # SALET, Selby's proven optimum for that opener
    ("wordle", "hard"): (8122, 6, "opener"),  # SALET, hard mode
    ("wordle", "answers-only"): (7973, 6, "opener"),  # SLATE, guesses restricted to the answers
    ("wordle", "normal-nyt"): (11219, 6, "opener"),  # TARSE on the NYT lists: Selby's optimum over every opener
    ("wordle", "hard-nyt"): (11627, 6, "opener"),  # the same, hard mode
    ("mastermind", "default"): (5625, 6, "game"),  # Koyama and Lai 1993
    ("bulls", "default"): (BULLS_TOTAL, 7, BULLS_PROOF),
    ("battleship", "default"): (22859, 7, "none"),  # top-32 search (entropy order) from A1 A3 H1: an upper bound
    ("cards", "n1"): (180, 4, "game"),  # this project's proofs (no optimum is published)
    ("cards", "n2"): (4697, 5, "game"),
}
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
        start = lambda: cards.initial_guess(int(variant[1:]))
        fb, step = (lambda g: reference.cards(target.split(), g.split())), cards.next_guess
    elif name == "wordle":
        start = lambda: wordle.initial_guess(hard=variant.startswith("hard"), answers_only=variant == "answers-only",
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


@pytest.mark.parametrize("name, variant", list(CEILINGS))
def test_tree_replay_matches_metadata_and_ceilings(name, variant):
    game = get_game(name, variant)
    meta = tree_metadata(game)
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
                assert wordle.hard_mode_allows(history, g) is None, f"{g} breaks hard mode after {history}"
                history.append((g, reference.wordle(target, g)))
        counts.append(len(guesses))
    counts = np.array(counts)
    average, worst = CEILINGS[(name, variant)]
    if positions.size == game.n_targets:
        assert counts.sum() == int(meta["total_guesses"])
        assert counts.max() == int(meta["max_guesses"])
    else:
        assert counts.max() <= int(meta["max_guesses"])
    assert int(meta["targets"]) == game.n_targets
    if average is not None:
        assert int(meta["total_guesses"]) / game.n_targets <= average
        assert counts.mean() <= average + 0.05
    if worst is not None:
        assert int(meta["max_guesses"]) <= worst
    if (name, variant) in EXACT:
        total, most, proof = EXACT[(name, variant)]
        assert (counts.sum(), counts.max()) == (total, most)
        assert meta["proven"] == proof
        assert int(meta["lower_bound"]) <= total
        if proof != "none":
            assert int(meta["lower_bound"]) == total
        if name == "battleship" or "game_lower_bound" in meta:  # certified for the whole game
            assert int(meta["game_lower_bound"]) <= int(meta["lower_bound"])


def test_cards4_tree_walk_finishes_every_target_as_the_metadata_says():
    # every target, node by node: the feedback of a node's guess on all its targets at once from the
    # compiled rule (checked against the reference rule by tests/test_rules.py)
    game = get_game("cards", "n4")
    tree = Tree(game)
    counts = np.zeros(game.n_targets, np.int64)
    frontier = [(0, np.arange(game.n_targets), 1)]  # (node, target positions there, guesses so far)
    while frontier:
        node, positions, played = frontier.pop()
        guess = int(tree.guess[node])
        codes = scoring.feedback_table(game, [guess], game.target_index[positions])[0]
        solved = game.target_index[positions] == guess
        counts[positions[solved]] = played
        for code in np.unique(codes[~solved]):
            child = tree.child(node, int(code))
            assert child is not None, f"no branch for {game.labels[guess]} = {game.decode(int(code))}"
            frontier.append((child, positions[~solved & (codes == code)], played + 1))
    assert counts.min() >= 1
    assert counts.sum() == int(tree.metadata["total_guesses"])
    assert counts.max() == int(tree.metadata["max_guesses"])
