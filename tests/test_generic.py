"""The generic part of the specification: scorers, tabulated games, the guesser and the scorer."""
from collections import Counter
from functools import partial
from itertools import permutations, product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.core import artifacts, scoring
from solver.core.runtime import InconsistentFeedbackError, Solver
from solver.games import bulls, mastermind, wordle
from solver.games.generic import FunctionGame, Mark, from_function, play, score_bulls_cows, score_wordle, scorer, solve
from solver.games.wordlists import builtin_answers

BULL, COW, MISS = Mark.BULL, Mark.COW, Mark.MISS
CALLS = Counter()
WORDS = builtin_answers()[::50]  # 47 answers


# -- naive references, written from the specification ------------------------------------------

def reference_bulls_cows(secret, guess):
    bulls_ = sum(s == g for s, g in zip(secret, guess))
    common = sum((Counter(secret) & Counter(guess)).values())  # min of the two counts per token
    return bulls_, common - bulls_


def reference_wordle(secret, guess):
    marks = [BULL if s == g else None for s, g in zip(secret, guess)]
    left = Counter(s for s, m in zip(secret, marks) if m is None)
    for i, g in enumerate(guess):
        if marks[i] is None:
            marks[i] = COW if left[g] > 0 else MISS
            left[g] -= 1
    return tuple(marks)


def counted_bulls_cows(secret, guess):
    CALLS["bulls"] += 1
    return score_bulls_cows(secret, guess)


def scaled(k, secret, guess):
    bulls_, cows = score_bulls_cows(secret, guess)
    return k * bulls_, cows


def scaling(k):
    return lambda secret, guess: scaled(k, secret, guess)


def codes(game):
    """Return the decoded feedback of every guess row against every target (the engine's kernel)."""
    return [[game.decode(c) for c in row] for row in scoring.feedback_table(game)]


# -- the specification's examples ------------------------------------------------------------

def test_wordle_spec_example():
    assert score_wordle("alpha", "aaabb") == (BULL, COW, MISS, MISS, MISS)
    assert score_wordle("alpha", "aaabb") == ("bull", "cow", "miss", "miss", "miss")  # marks are strings


@pytest.mark.parametrize("secret, guess, expected", [
    ("abcd", "aaaa", (1, 0)), ("aabb", "bbaa", (0, 4)), ("abc", "aaa", (1, 0)), ("aab", "bba", (0, 2)),
    ((1, 1, 2, 3), (1, 2, 1, 1), (1, 2)), ((None, "x", 3), (3, None, "x"), (0, 3)), ("", "", (0, 0)),
])
def test_bulls_cows_never_spends_a_secret_token_twice(secret, guess, expected):
    assert score_bulls_cows(secret, guess) == expected


@pytest.mark.parametrize("secret, guess, expected", [
    ("abbey", "bubba", (COW, MISS, BULL, MISS, COW)), ("speed", "eerie", (COW, COW, MISS, MISS, MISS)),
    ((1, 2, 2), (2, 2, 2), (MISS, BULL, BULL)), ((1, 2, 3), [3, 1, 2], (COW, COW, COW)),
])
def test_wordle_marks_duplicates(secret, guess, expected):
    assert score_wordle(secret, guess) == expected


@pytest.mark.parametrize("scoring", [score_bulls_cows, score_wordle])
def test_scorers_refuse_unequal_lengths(scoring):
    with pytest.raises(ValueError, match="differ in length"):
        scoring("abc", "ab")


def test_one_word_dictionary_needs_no_guess():
    game = from_function(["solo"], None, score_wordle, name="one")
    guesser = solve(game)
    with pytest.raises(StopIteration) as done:
        next(guesser)
    assert done.value.value == "solo"
    assert play(game, "solo") == ([], "solo")


def test_every_wrong_reply_removes_the_guess():
    game = from_function(WORDS, None, score_wordle, name="words")
    solver = Solver(game, use_tree=False)
    for secret in WORDS[::4]:
        _, state = solver.initial_guess()
        while not state.identified:
            row = solver.guess_row(state)
            before = state.candidates
            state = solver.advance(state, row, game.encode(score_wordle(secret, game.items[row])))
            assert secret in state.candidates and len(state.candidates) < len(before)
            if game.items[row] != secret:
                assert game.items[row] not in state.candidates


@pytest.mark.parametrize("words, scoring", [
    (WORDS, score_wordle), (WORDS, score_bulls_cows),
    (list(product(range(3), repeat=3)), score_bulls_cows), (list(permutations("abcd", 3)), score_wordle),
])
def test_scorer_and_guesser_identify_every_secret_within_dictionary_size(words, scoring):
    game = from_function(words, None, scoring, name="rounds")
    for secret in words:
        history, found = play(game, secret)
        assert found == secret
        assert len(history) < len(words)
        assert [reply for _, reply in history] == list(scorer(scoring, secret)(g for g, _ in history))


def test_guesser_plays_builtin_games_by_labels():
    game = mastermind.game(3, 3)
    history, found = play(game, "213", score_bulls_cows)  # black and white pegs are bulls and cows
    assert found == "213" and all(isinstance(guess, str) for guess, _ in history)
    with pytest.raises(ValueError, match="give play its scoring function"):
        play(game, "213")


# -- the scorers against the naive references ---------------------------------------------------

tokens = st.sampled_from([0, 1, 2, "a", None, (1,)])
pairs = st.integers(0, 7).flatmap(lambda n: st.tuples(st.lists(tokens, min_size=n, max_size=n),
                                                      st.lists(tokens, min_size=n, max_size=n)))


@given(pairs)
def test_scorers_match_references(pair):
    secret, guess = pair
    assert score_bulls_cows(secret, guess) == reference_bulls_cows(secret, guess)
    marks = score_wordle(secret, guess)
    assert marks == reference_wordle(secret, guess)
    # the same tokens are bulls, and as many match in all
    assert (marks.count(BULL), marks.count(BULL) + marks.count(COW)) == (lambda b, c: (b, b + c))(
        *score_bulls_cows(secret, guess))


@given(st.sampled_from([score_wordle, score_bulls_cows]),
       st.lists(st.text("abc", min_size=4, max_size=4), min_size=1, max_size=12, unique=True),
       st.lists(st.text("abcd", min_size=4, max_size=4), max_size=6))
def test_vectorised_tables_equal_calls(scoring, targets, extra):
    fast = from_function(targets, targets + extra, scoring, name="fast", cache=False)
    slow = from_function(targets, targets + extra, lambda s, g: scoring(s, g), name="slow", cache=False)
    assert np.array_equal(fast.rows, slow.rows)
    assert [fast.decode(c) for c in range(fast.n_codes)] == [slow.decode(c) for c in range(slow.n_codes)]
    assert fast.variant == slow.variant and fast.rules_source == slow.rules_source


# -- tabulated games against the built-in ones ------------------------------------------------

def test_mastermind_equals_tabulated_bulls_cows():
    builtin = mastermind.game(3, 3)
    game = from_function(list(product(range(3), repeat=3)), None, score_bulls_cows, name="mm")
    assert isinstance(game, FunctionGame) and game.labels[5] == "012" and game.n_codes == 9
    assert codes(game) == codes(builtin)
    assert game.code(5, 7) == game.encode(score_bulls_cows(game.items[7], game.items[5]))


def test_bulls_equals_tabulated_bulls_cows():
    builtin = bulls.game(2)
    game = from_function(list(permutations(range(10), 2)), None, score_bulls_cows, name="bc")
    assert game.labels == builtin.labels
    assert codes(game) == codes(builtin)


def test_wordle_equals_tabulated_wordle():
    answers, guesses = WORDS[:20], tuple(sorted(WORDS))
    builtin = wordle.game(answers=tuple(sorted(answers)), guesses=guesses)
    game = from_function(sorted(answers), guesses, score_wordle, name="w")
    letters = {BULL: "G", COW: "Y", MISS: "R"}
    assert [["".join(letters[m] for m in marks) for marks in row] for row in codes(game)] == codes(builtin)


# -- building games ---------------------------------------------------------------------------

def test_cache_by_content():
    CALLS.clear()
    first = from_function(["ab", "ba", "bb"], None, counted_bulls_cows, name="cached")
    calls = CALLS["bulls"]
    assert calls >= 9
    assert from_function(["ab", "ba", "bb"], None, counted_bulls_cows, name="cached") is first
    assert CALLS["bulls"] == calls
    again = from_function(["ab", "ba", "bb"], None, counted_bulls_cows, name="cached", cache=False)
    assert again is not first and CALLS["bulls"] > calls and again.fingerprint() == first.fingerprint()
    other = from_function(["ab", "ba", "bb", "aa"], None, counted_bulls_cows, name="cached")
    assert other is not first and other.fingerprint() != first.fingerprint()
    # a partial or a closure with other arguments is another function
    make = partial(from_function, ["ab", "ba"], None)
    assert make(partial(scaled, 1)) is make(partial(scaled, 1))
    assert make(partial(scaled, 1)) is not make(partial(scaled, 2))
    assert make(scaling(1)) is make(scaling(1)) and make(scaling(1)) is not make(scaling(2))


def test_lists_guesses_and_scores_of_any_shape():
    targets = [[1, "x"], [2, "x"], [1, "y"]]
    game = from_function(targets + [[1, "x"]], [[3, "x"]], lambda s, g: [list(score_bulls_cows(s, g))],
                         name="shapes", cache=False)
    assert game.n_targets == 3 and game.n_guesses == 4 and game.items[0] == [3, "x"]
    assert game.decode(game.win_code) == [[2, 0]] and game.encode(([2, 0],)) == game.win_code
    history, found = play(game, [1, "y"])
    assert found == [1, "y"] and len(history) <= 2


def test_bad_games_and_replies_are_refused():
    with pytest.raises(ValueError, match="at least one target"):
        from_function([], None, score_wordle)
    with pytest.raises(ValueError, match="only a correct guess"):
        from_function(["ab", "ba"], None, lambda s, g: sorted(s) == sorted(g))
    with pytest.raises(ValueError, match="always score the same"):
        from_function(["ab", "ba"], None, lambda s, g: (s == g, s))
    with pytest.raises(ValueError, match="hashable"):
        from_function(["ab", "ba"], None, lambda s, g: {s: g})
    with pytest.raises(ValueError, match="game name"):
        from_function(["ab"], None, score_wordle, name="a b")
    game = from_function(WORDS, None, score_wordle, name="words")
    guesser = solve(game)
    guess = next(guesser)
    with pytest.raises(ValueError, match="not a score"):
        guesser.send("no such score")
    guesser = solve(game)
    guess = next(guesser)
    reply, _ = Counter(score_wordle(w, guess) for w in WORDS).most_common(1)[0]
    left = [w for w in WORDS if score_wordle(w, guess) == reply]
    guess = guesser.send(reply)
    impossible = next(game.decode(c) for c in range(game.n_codes)
                      if all(score_wordle(w, guess) != game.decode(c) for w in left))
    with pytest.raises(InconsistentFeedbackError, match="no custom target|no words target"):
        guesser.send(impossible)
    with pytest.raises(ValueError, match="not a score"):
        from_function(["ab", "ba"], None, score_bulls_cows).encode((3, 0))


def test_the_tree_of_a_tabulated_game(tmp_path):
    from pipeline.builders.greedy_tree import Builder, GreedyOptions, max_guesses, to_arrow

    game = from_function(list(product(range(3), repeat=3)), None, score_bulls_cows, name="mm")
    nodes = Builder(game, scoring.feedback_table(game), GreedyOptions(jobs=1)).grow(np.arange(game.n_targets))
    artifacts.write(artifacts.TREE, game, to_arrow(game, nodes),
                    {"targets": game.n_targets, "total_guesses": nodes.subtree[0],
                     "max_guesses": max_guesses(nodes), "strategy": GreedyOptions().describe()}, tmp_path)
    solver = Solver(game, folder=tmp_path)
    assert solver.tree is not None
    total = 0
    for secret in game.items:
        history, found = play(game, secret, solver=solver)
        assert found == secret
        total += len(history)
    live = sum(len(play(game, secret, solver=Solver(game, use_tree=False))[0]) for secret in game.items)
    assert total == live  # the same greedy rule, once identified no guess
