"""The library's checks of its input: one check of word lists for every entry point,
the vectorised scorer's memory bounded by blocks of bytes, ValueError (never another error) on bad
input, and states that pickle across processes."""
from __future__ import annotations

import pickle
import random
import subprocess
import sys
import tracemalloc
from collections import Counter

import numpy as np
import pytest
from typer.testing import CliRunner

from solver.cli.main import app
from solver.core import artifacts
from solver.core.runtime import Solver, State
from solver.games import mastermind, tabulation, wordle
from solver.games.generic import Mark, from_function, score_bulls_cows, score_wordle
from solver.games.wordlists import WordListError, read_word_list
from solver.wordle_program.program import run as run_wordle

runner = CliRunner()
ACCENTED = ["CRANE", "SLATE", "CAFÉS", "TRACE"]  # É is a letter, not one of a-z


# -- one check of word lists, whoever gives them ----------------------------------------------

def _through_game():
    wordle.game(False, ACCENTED, ACCENTED)


def _through_initial_guess():
    wordle.initial_guess(answers=ACCENTED, guesses=ACCENTED)


@pytest.mark.parametrize("entry", [_through_game, _through_initial_guess])
def test_non_ascii_letters_are_refused_by_every_library_entry(entry):
    with pytest.raises(WordListError, match="word 3: not a .*letters a-z: 'CAFÉS'"):
        entry()


def test_non_ascii_letters_are_refused_in_every_list_file(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("\n".join(ACCENTED) + "\n", encoding="utf-8")
    with pytest.raises(WordListError, match="word 3: .*'CAFÉS'"):
        read_word_list(path)
    result = runner.invoke(app, ["hint", "wordle", "--answers", str(path), "--guesses", str(path)])
    assert result.exit_code == 1 and "CAFÉS" in result.stderr and len(result.stderr.splitlines()) == 1
    err = []
    status = run_wordle(["-f", str(path), "-a", str(path), "-w", "CRANE"], stdout=_Sink(), stderr=_Sink(err))
    assert status == 1 and "CAFÉS" in "".join(err)


class _Sink:
    def __init__(self, into: list | None = None):
        self.into = [] if into is None else into

    def write(self, text: str) -> int:
        self.into.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def test_marks_of_accepted_lists_are_right_and_accented_lists_never_give_marks():
    # what the accented lists gave before: marks computed on letters outside the rule's 26
    rng = random.Random(7)
    words = sorted({"".join(rng.choice("abcdefghij") for _ in range(5)) for _ in range(40)})
    game = wordle.game(False, tuple(words), tuple(words))  # lowercase lists: accepted, upper-cased
    assert game.labels == tuple(w.upper() for w in words)
    for g in range(0, len(words), 7):
        for t in range(0, len(words), 5):
            assert wordle.code_to_marks(game.code(g, t)) == wordle.feedback(words[t], words[g])
    with pytest.raises(WordListError, match="ä"):
        wordle.game(False, None, tuple(w[:4] + "ä" for w in words))


def test_words_too_long_for_the_feedback_table_are_refused():
    # 11 letters: 3**11 codes do not fit the 16-bit table (the marks came out wrong)
    words = ("ABCDEFGHIJK", "ABCDEFGHIJL", "KJIHGFEDCBA")
    with pytest.raises(WordListError, match="1 to 10 letters"):
        wordle.game(False, words, words)


@pytest.mark.parametrize("args, fragment", [
    (((), ()), "hard must be True or False"),
    ((False, (), ()), "guess list is empty"),
    ((False, ["CRANE"], []), "guess list is empty"),
    ((False, [], ["CRANE"]), "answer list is empty"),
    ((False, ["CRANE"], ["SLATE"]), "answer CRANE is not in the acceptable list"),
    ((False, [["CRANE"]], ["CRANE"]), "answer list, word 1"),
    ((False, "CRANE", None), "answer list must be a list of words"),
    ((False, ["CRANE", "SLATES"], None), "word 2"),
])
def test_bad_lists_raise_value_error_naming_them(args, fragment):
    with pytest.raises(ValueError, match=fragment):
        wordle.game(*args)


def test_lists_of_any_kind_give_the_same_game():
    answers, guesses = ["crane", "Slate"], ("TRACE", "slate", "crane")
    game = wordle.game(False, answers, iter(guesses))
    assert game.labels == ("CRANE", "SLATE", "TRACE") and game.n_targets == 2
    assert game.variant == wordle.game(False, ("CRANE", "SLATE"), ("CRANE", "SLATE", "TRACE")).variant


# -- the vectorised scorer's memory ----------------------------------------------------------

def _reference_wordle(secret, guess):
    marks = [Mark.BULL if s == g else None for s, g in zip(secret, guess)]
    left = Counter(s for s, m in zip(secret, marks) if m is None)
    for i, g in enumerate(guess):
        if marks[i] is None:
            marks[i] = Mark.COW if left[g] > 0 else Mark.MISS
            left[g] -= 1
    return tuple(marks)


def test_long_sequences_are_scored_in_blocks_of_bounded_memory(monkeypatch):
    monkeypatch.setattr(tabulation, "BLOCK_BYTES", 4 << 20, raising=False)
    rng = random.Random(3)
    items = [tuple(rng.randrange(50) for _ in range(2000)) for _ in range(12)]
    tracemalloc.start()
    try:
        game = from_function(items, None, score_wordle, cache=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20  # was a [guesses, secrets, 2000, 2000] block: 96 MB here, 4.66 GiB at 50 x 10,000
    slow = from_function(items, None, lambda s, g: _reference_wordle(s, g), cache=False)
    assert np.array_equal(game.rows, slow.rows)
    assert [game.decode(c) for c in range(game.n_codes)] == [slow.decode(c) for c in range(slow.n_codes)]


def test_a_pair_larger_than_a_block_is_refused_naming_the_limits(monkeypatch):
    monkeypatch.setattr(tabulation, "BLOCK_BYTES", 10_000, raising=False)
    items = [tuple(range(k, k + 300)) for k in range(3)]
    for scoring in (score_wordle, score_bulls_cows):
        with pytest.raises(ValueError, match=r"300 tokens .* per pair .* of a block "
                                             r"\(solver.games.tabulation.BLOCK_BYTES\)"):
            from_function(items, None, scoring, cache=False)


@pytest.mark.parametrize("length", [1, 5, 39, 40, 61])
def test_vectorised_scores_match_the_reference_at_every_length(length):
    rng = random.Random(length)
    items = list(dict.fromkeys(tuple(rng.randrange(3) for _ in range(length)) for _ in range(10)))
    fast = from_function(items, None, score_wordle, cache=False)
    slow = from_function(items, None, lambda s, g: _reference_wordle(s, g), cache=False)
    assert np.array_equal(fast.rows, slow.rows)
    fast = from_function(items, None, score_bulls_cows, cache=False)
    slow = from_function(items, None, lambda s, g: score_bulls_cows(s, g), cache=False)
    assert np.array_equal(fast.rows, slow.rows)


# -- ValueError on bad input; states pickle ---------------------------------------------------

def test_solver_takes_a_folder_as_a_string():
    game = mastermind.game()
    solver = Solver(game, folder=str(artifacts.search_dirs()[0]))
    if not artifacts.artifact_path(artifacts.TREE, game, artifacts.search_dirs()[0]).is_file():
        pytest.skip("no mastermind tree in the artifacts folder")
    guess, state = solver.initial_guess()
    assert solver.tree is not None and state.node == 0 and guess == mastermind.initial_guess()[0]


@pytest.mark.parametrize("kwargs, fragment", [
    ({"folder": 5}, "folder must be a path"),
    ({"budget": "1"}, "budget must be a number"),
    ({"budget": -1.0}, "budget must be a number"),
    ({"budget": float("nan")}, "budget must be a number"),
    ({"memo": 1.5}, "memo must be"),
    ({"use_tree": "yes"}, "use_tree must be True or False"),
    ({"live": ["exact"]}, "live mode"),
])
def test_solver_options_raise_value_error(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        Solver(mastermind.game(), **kwargs)
    with pytest.raises(ValueError, match="Solver plays a solver.Game"):
        Solver("wordle")


def _changing_score():
    """A scoring function whose second call of a pair differs from the first."""
    calls = Counter()

    def score(secret, guess):
        calls[secret, guess] += 1
        return secret == guess, calls[secret, guess] % 2

    return score


def test_a_nondeterministic_scorer_is_a_value_error_saying_so():
    with pytest.raises(ValueError,
                       match="not deterministic: score\\('ab', 'ab'\\) gave \\(True, 1\\), then \\(True, 0\\)"):
        from_function(["ab", "ba", "bb"], None, _changing_score(), cache=False)
    rng = random.Random(0)  # a random part in the score
    with pytest.raises(ValueError, match="not deterministic"):
        from_function(["ab", "ba", "bb"], None, lambda s, g: (s == g, rng.random() < 0.5), cache=False)



STATES = {
    "on the tree": lambda: wordle.next_guess(wordle.initial_guess(), "RYRGR")[1],
    "off the tree": lambda: _off_tree(),
    "solved": lambda: _solved(),
    "user lists": lambda: wordle.initial_guess(answers=["crane", "slate", "trace"],
                                               guesses=["crane", "slate", "trace", "xylyl"])[1],
    "mastermind": lambda: mastermind.initial_guess()[1],
    "from_function": lambda: Solver(from_function(["ab", "ba", "bb", "aa"], None, score_wordle, name="pickled"),
                                    budget=0.5).initial_guess()[1],
}


def _solved():
    guess, state = wordle.initial_guess()
    solver = state.solver
    return solver.advance(state, solver.game.index_of("CRANE"), solver.game.win_code)


def _off_tree():
    guess, state = wordle.initial_guess()
    solver = state.solver
    off = solver.advance(state, solver.game.index_of("CRANE"), solver.game.encode("RYRGR"))
    solver.guess_row(off)
    return off


@pytest.mark.parametrize("kind", list(STATES))
def test_states_pickle_within_and_across_processes(kind):
    state = STATES[kind]()
    guess = state.solver.game.labels[state.solver.guess_row(state)] if not state.identified else None
    again = pickle.loads(pickle.dumps(state))
    assert isinstance(again, State) and again.history == state.history and again.candidates == state.candidates
    assert again.solver.game.fingerprint() == state.solver.game.fingerprint()
    assert (again.solver.game.labels[again.solver.guess_row(again)] if not again.identified else None) == guess
    # a fresh process (a web worker, a Dask task) reads it with the standard pickler
    code = ("import pickle, sys; s = pickle.loads(sys.stdin.buffer.read()); "
            "print(len(s.history), s.remaining, ','.join(s.candidates[:20]), "
            "None if s.identified else s.solver.game.labels[s.solver.guess_row(s)])")
    done = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(state), capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split() == [str(len(state.history)), str(state.remaining),
                                            ",".join(state.candidates[:20]), str(guess)]


def test_a_game_derived_by_replace_is_not_pickled_as_its_parent():
    from dataclasses import replace

    game = wordle.game(False, ["CRANE", "SLATE"], ["CRANE", "SLATE", "TRACE"])
    assert pickle.loads(pickle.dumps(game)) is game  # its factory call, answered by the cache
    sub = replace(game, target_index=game.target_index[:1])
    assert "_made_by" not in sub.__dict__
