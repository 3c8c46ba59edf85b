"""The runtime solver: lookup, live fallback, immutable states, errors, light import."""
from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solver.core import artifacts
from solver.core.runtime import InconsistentFeedbackError, OffTreeError, Solver, Tree
from solver.games import battleship, cards, mastermind, wordle
from tests import reference


def solve_with(solver: Solver, target: str, feedback, first: str | None = None, limit: int = 12) -> list[str]:
    guess, state = solver.initial_guess()
    if first:
        guess = first
    played = [guess]
    while guess != target:
        assert len(played) < limit
        guess, state = solver.next_guess(guess, state, feedback(guess))
        played.append(guess)
    return played


def test_live_fallback_without_artifact(tmp_path, caplog):
    game = mastermind.game()
    caplog.set_level(logging.INFO, logger="solver.core.runtime")
    live = Solver(game, folder=tmp_path)  # empty folder: no tree
    assert live.tree is None
    assert "computing live" in caplog.text
    greedy = Solver(game, use_tree=False)
    for target in ("1122", "6543", "3333"):
        def fb(g, t=target):
            return reference.mastermind(t, g)
        played = solve_with(live, target, fb)
        assert played[-1] == target and played == solve_with(greedy, target, fb)


def test_corrupt_artifact_falls_back_live(tmp_path, caplog):
    game = mastermind.game()
    path = artifacts.artifact_path(artifacts.TREE, game)
    broken = tmp_path / path.name
    shutil.copy(path, broken)
    data = bytearray(broken.read_bytes())
    data[len(data) // 3] ^= 0xFF
    broken.write_bytes(bytes(data))
    with pytest.raises(artifacts.ArtifactError, match=path.name):
        artifacts.read(artifacts.TREE, game, tmp_path)
    caplog.set_level(logging.INFO, logger="solver.core.runtime")
    solver = Solver(game, folder=tmp_path)
    assert solve_with(solver, "4321", lambda g: reference.mastermind("4321", g))[-1] == "4321"
    assert "no usable tree" in caplog.text


def test_off_tree_guess_is_answered_live(caplog):
    caplog.set_level(logging.INFO, logger="solver.core.runtime")
    target = "PROXY"
    guess, state = wordle.initial_guess()
    assert state.node is not None
    played = ["CRANE"]
    guess, state = wordle.next_guess(("CRANE", state), reference.wordle(target, "CRANE"))
    assert state.node is None and "leaves the tree" in caplog.text
    while guess != target:
        played.append(guess)
        assert len(played) < 8
        guess, state = wordle.next_guess((guess, state), reference.wordle(target, guess))
    assert target in state.candidates


def test_state_is_immutable_and_exposes_candidates():
    guess, state = battleship.initial_guess()
    before = (state.history, state.node)
    targets = ([battleship.to_location(t) for t in ("B2", "D3", "H1")],
               [battleship.to_location(t) for t in ("A4", "E2", "G3")])
    results = []
    for target in targets:
        fb = battleship.feedback(target, guess)
        results.append(battleship.next_guess((guess, state), fb))
    assert (state.history, state.node) == before
    for target, (_, new) in zip(targets, results):
        assert battleship.label(target) in new.candidates
        assert new.remaining == len(new.candidates)


def test_identified_before_guessed():
    # Play mastermind until one candidate is left: the state says so before the last guess.
    seen = 0
    for target in mastermind.game().labels[::37]:
        guess, state = mastermind.initial_guess()
        while guess != target:
            guess, state = mastermind.next_guess((guess, state), reference.mastermind(target, guess))
            if state.remaining == 1:
                assert state.identified and state.candidates == (target,) and guess == target
                seen += 1
            else:
                assert not state.identified
    assert seen, "some target is identified before it is guessed"


def test_feedback_out_of_range_is_value_error():
    guess, state = cards.initial_guess(2)
    with pytest.raises(ValueError, match="0..2"):
        cards.next_guess((guess, state), (3, 0, 0, 0, 0))
    with pytest.raises(ValueError, match="marks"):
        wordle.next_guess(wordle.initial_guess(), "GGZGG")


def test_inconsistent_feedback_names_history_and_keeps_state():
    guess, state = mastermind.initial_guess()
    guess2, state2 = mastermind.next_guess((guess, state), (0, 0))
    possible = {reference.mastermind(secret, guess2) for secret in state2.candidates}
    impossible = next((b, w) for b in range(5) for w in range(5 - b) if (b, w) not in possible)
    with pytest.raises(InconsistentFeedbackError, match=f"{guess}=\\(0, 0\\)"):
        mastermind.next_guess((guess2, state2), impossible)
    # The state passed in stays usable.
    again, _ = mastermind.next_guess((guess2, state2), reference.mastermind("5656", guess2))
    assert again


def test_tree_probe_and_get():
    tree = Tree(mastermind.game())
    root_guess = int(tree.guess[0])
    assert tree.probe_node([]) == 0
    with pytest.raises(OffTreeError):
        tree.probe_node([(root_guess + 1, 0)])
    assert tree.get_node([(root_guess + 1, 0)], default=-1) == -1


def test_custom_word_lists_are_played_live():
    answers = ["CRANE", "CRATE", "GRATE", "PLANT"]
    guesses = answers + ["SLATE", "TRACE", "GRAPE"]
    guess, state = wordle.initial_guess(answers=answers, guesses=guesses)
    assert state.node is None
    for _ in range(4):
        if guess == "PLANT":
            break
        guess, state = wordle.next_guess((guess, state), reference.wordle("PLANT", guess))
    assert guess == "PLANT"


def test_import_and_lookup_compile_no_numba():
    code = (
        "import sys\n"
        "from solver import wordle\n"
        "g, s = wordle.initial_guess()\n"
        "from tests.reference import wordle as marks\n"
        "g, s = wordle.next_guess((g, s), marks('PROXY', g))\n"
        "assert 'numba' not in sys.modules, 'numba imported on the lookup path'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[1])


def test_many_custom_word_lists_keep_memory_flat():
    import gc
    import random
    import tracemalloc

    from solver.core import runtime

    words = wordle.builtin_answers()

    def play(seed: int) -> None:
        own = random.Random(seed).sample(words, 60)
        target = own[seed % len(own)]
        guess, state = wordle.initial_guess(answers=own, guesses=own)
        for _ in range(12):
            if guess == target:
                return
            guess, state = wordle.next_guess((guess, state), reference.wordle(target, guess))
        raise AssertionError(f"{target} not found")

    play(1000)  # loads the kernels (untraced: tracing would slow it down)
    tracemalloc.start()  # before the caches fill: what they hold counts in `before`
    try:
        for seed in range(26):  # fills wordle.game's cache and the solver cache
            play(seed)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for seed in range(26, 46):
            play(seed)
        for seed in range(9):  # then 9 lists again, one more than wordle.game keeps
            play(seed)
        gc.collect()
        growth = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert growth < 100_000, f"memory grew by {growth} bytes over 29 word lists"
    assert len(runtime._SOLVERS) <= runtime.SOLVER_CACHE_SIZE
