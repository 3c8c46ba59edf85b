"""The card guessing game: n distinct cards (n = 1..4) hidden from a 52-card deck.

Card text is rank then suit: ranks 2 3 4 5 6 7 8 9 T J Q K A (ace high), suits C D H S.
Feedback ``(correct_cards, lower_ranks, correct_ranks, higher_ranks, correct_suits)``:

* correct_cards: answer cards that are also in the guess;
* lower_ranks: answer cards ranked below the lowest guess rank;
* correct_ranks: rank matches, each guess card counted once (multiset intersection);
* higher_ranks: answer cards ranked above the highest guess rank;
* correct_suits: suit matches, each guess card counted once.

Encoded row (what `rule` reads): ``[card ids..., ranks..., suits..., rank occurrences...,
suit occurrences..., lowest rank, highest rank]`` with rank 0 = "2" .. 12 = "A", suit 0 = C .. 3 = S,
card id = suit*13 + rank (the deck order 2C..AC, 2D.., .., AS), and the occurrence of card i = how
many earlier cards of the hand share its rank (or suit).
Feedback code: the five fields as digits of base n+1.
"""
from __future__ import annotations

import inspect
from functools import lru_cache, partial
from itertools import chain, combinations, permutations
from typing import NamedTuple, Sequence

import numpy as np

from solver.core.bounded_input import excerpt
from solver.core.runtime import State, get_solver, next_from
from solver.core.game import Game, check_feedback, digits, is_integer, mixed_radix, sequence_items, unique_tokens
from solver.core.symmetry import canonical_from_points, canonical_rows, subset_permutations
from solver.games import FEEDBACK_NOTATION

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"  # ♣ ♦ ♥ ♠, in the order of SUITS
DECK_SIZE = len(RANKS) * len(SUITS)
MAX_CARDS = 4


FEEDBACK_HELP = FEEDBACK_NOTATION["cards"]


class Card(NamedTuple):
    """A playing card: rank 0 ("2") .. 12 ("A") and suit 0 (C) .. 3 (S)."""

    rank: int
    suit: int

    @property
    def id(self) -> int:
        """Return the card's position in the deck order 2C..AC, 2D..AD, 2H..AH, 2S..AS."""
        return self.suit * len(RANKS) + self.rank

    def __str__(self) -> str:
        return from_card(self)

    __repr__ = __str__  # as people write it, in lists too


def to_card(text: str) -> Card | None:
    """Return the Card of text like "TH", "10H" or "2C" (rank then suit; the suit also as its symbol,
    "2♣"), or None if it is not one."""
    if not isinstance(text, str):
        return None
    text = text.replace("\ufe0f", "")  # the emoji form of a suit symbol
    text = "T" + text[2:] if text.startswith("10") else text
    if len(text) != 2:
        return None
    rank, suit = RANKS.find(text[0]), max(SUITS.find(text[1]), SUIT_SYMBOLS.find(text[1]))
    if rank < 0 or suit < 0:
        return None
    return Card(rank, suit)


def from_card(card: Card) -> str:
    """Return the text of a card, e.g. "TH"."""
    return RANKS[card.rank] + SUITS[card.suit]


def parse_cards(texts: Sequence[str], count: int | None = None) -> list[Card]:
    """Return distinct cards parsed from `texts` (exactly `count` if given); ValueError names a bad token."""
    cards = []
    for text in texts:
        card = to_card(text)
        if card is None:
            raise ValueError(f"not a card (rank 2-10 J Q K A, or T for 10, then suit C D H S): {excerpt(text)}")
        cards.append(card)
    if count is None and not 1 <= len(cards) <= MAX_CARDS:
        raise ValueError(f"expected 1 to {MAX_CARDS} cards, got {len(cards)}")
    unique_tokens([from_card(c) for c in cards], count, "card")
    return cards


@lru_cache(maxsize=None)
def make_rule(n: int):
    """Return the rule for hands of `n` cards (a closure: Numba compiles `n` as a constant).

    Branch-free so that Numba can unroll and vectorise it. A multiset intersection of ranks (or
    suits) counts answer card i when the guess has more cards of its rank than the answer has
    before position i (`occurrence`, precomputed in the row): that is sum over ranks of min(counts).
    """

    def rule(guess: np.ndarray, target: np.ndarray) -> int:
        """Return the feedback code of one guess row against one answer row."""
        correct = 0
        lower = 0
        higher = 0
        ranks = 0
        suits = 0
        for i in range(n):
            same_rank = 0
            same_suit = 0
            for j in range(n):
                correct += target[i] == guess[j]
                same_rank += target[n + i] == guess[n + j]
                same_suit += target[2 * n + i] == guess[2 * n + j]
            ranks += same_rank > target[3 * n + i]
            suits += same_suit > target[4 * n + i]
            lower += target[n + i] < guess[5 * n]
            higher += target[n + i] > guess[5 * n + 1]
        b = n + 1
        return (((correct * b + lower) * b + ranks) * b + higher) * b + suits

    return rule


def _row(cards: Sequence[Card]) -> list[int]:
    """Return the encoded row: ids, ranks, suits, rank and suit occurrence indices, min and max rank."""
    ordered = sorted(cards, key=lambda c: c.id)
    ranks = [c.rank for c in ordered]
    suits = [c.suit for c in ordered]
    rank_seen = [ranks[:i].count(r) for i, r in enumerate(ranks)]
    suit_seen = [suits[:i].count(s) for i, s in enumerate(suits)]
    return [c.id for c in ordered] + ranks + suits + rank_seen + suit_seen + [min(ranks), max(ranks)]


def label(cards: Sequence[Card]) -> str:
    """Return the canonical text of a hand: deck order, space separated ("2C AS")."""
    return " ".join(from_card(c) for c in sorted(cards, key=lambda c: c.id))


def hand_text(label: str, symbols: bool = False) -> str:
    """Return a hand as card players write it: by rank, then suit ("2D AC" for the label "AC 2D"),
    with the suits as symbols when `symbols` ("2♦ A♣")."""
    hand = sorted((to_card(token) for token in label.split()), key=lambda c: (c.rank, c.suit))
    suits = SUIT_SYMBOLS if symbols else SUITS
    return " ".join(RANKS[c.rank] + suits[c.suit] for c in hand)


def _hands(n: int) -> tuple[np.ndarray, tuple[str, ...]]:
    """Return (int32[hands, 5n+2] rows, labels) of every hand of `n` cards in deck order (the order of
    `itertools.combinations` over the deck 2C..AS): each row `_row(hand)` and each label `label(hand)`,
    built with NumPy (the 270725 hands of n=4 in about 0.2 s, where a row at a time took 2 s)."""
    ids = np.fromiter(chain.from_iterable(combinations(range(DECK_SIZE), n)), dtype=np.int32)
    ids = ids.reshape(-1, n)  # each hand's card ids ascending: the order `_row` sorts them in
    ranks, suits = ids % len(RANKS), ids // len(RANKS)
    # occurrence of card i: how many earlier cards of the hand share its rank (its suit)
    rank_seen = np.stack([(ranks[:, :i] == ranks[:, i:i + 1]).sum(axis=1) for i in range(n)], axis=1)
    suit_seen = np.stack([(suits[:, :i] == suits[:, i:i + 1]).sum(axis=1) for i in range(n)], axis=1)
    rows = np.concatenate([ids, ranks, suits, rank_seen, suit_seen, ranks.min(axis=1, keepdims=True),
                           ranks.max(axis=1, keepdims=True)], axis=1).astype(np.int32)
    texts = [RANKS[i % len(RANKS)] + SUITS[i // len(RANKS)] for i in range(DECK_SIZE)]  # deck order
    return rows, tuple(map(" ".join, combinations(texts, n)))


@lru_cache(maxsize=None)
def suit_permutations(n: int) -> np.ndarray:
    """Return int32[24, hands]: the row of each hand of `n` cards with its suits permuted, per suit permutation.

    The same suit permutation applied to guess and answer keeps the feedback (it changes no rank,
    and keeps which cards and suits are equal), so these are symmetries of the game.
    """
    return subset_permutations(game(n).rows[:, :n], suit_maps())


@lru_cache(maxsize=None)
def suit_maps() -> np.ndarray:
    """Return int64[24, 52]: the image of each card id under each permutation of the suits."""
    ids = np.arange(DECK_SIZE)
    maps = np.array([np.array(perm)[ids // len(RANKS)] * len(RANKS) + ids % len(RANKS)
                     for perm in permutations(range(len(SUITS)))])
    maps.setflags(write=False)
    return maps


@lru_cache(maxsize=None)
def feedback_symmetries(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (int64[48, hands], int64[48, codes]): the row of each hand of `n` cards under each suit
    permutation, then under each suit permutation after the ranks are reversed (2 for A, 3 for K, ...),
    and the feedback code each maps a code to: itself under a suit permutation; under reversed ranks the
    code with lower_ranks and higher_ranks swapped (a card below the lowest guess rank is then above the
    highest, and equal ranks stay equal). The identity first: `Game.feedback_symmetries`.
    """
    base = n + 1
    suits = suit_permutations(n).astype(np.int64)
    ids = np.arange(DECK_SIZE)
    reversal = (ids // len(RANKS)) * len(RANKS) + (len(RANKS) - 1 - ids % len(RANKS))
    mirror = subset_permutations(game(n).rows[:, :n], np.stack([ids, reversal]))[-1].astype(np.int64)
    codes = np.arange(base**5)
    fields = [codes // base**k % base for k in (4, 3, 2, 1, 0)]  # correct, lower, ranks, higher, suits
    swapped = (((fields[0] * base + fields[3]) * base + fields[2]) * base + fields[1]) * base + fields[4]
    rows = np.concatenate([suits, suits[:, mirror]])
    code_maps = np.concatenate([np.tile(codes, (len(suits), 1)), np.tile(swapped, (len(suits), 1))])
    rows.setflags(write=False)
    code_maps.setflags(write=False)
    return rows, code_maps


@lru_cache(maxsize=None)
def suit_representatives(n: int) -> np.ndarray:
    """Return the rows of the hands that are the smallest row (as sorted card ids) among their suit permutations.

    At the root one hand per suit-permutation class is enough to score: `game(n).canonical([])`.
    """
    return canonical_rows(suit_permutations(n), ())


@lru_cache(maxsize=None)
def game(n: int = 2) -> Game:
    """Return the card game with `n` hidden cards (every n-card hand is a target and a guess)."""
    if not is_integer(n) or not 1 <= n <= MAX_CARDS:
        raise ValueError(f"the card game takes 1 to {MAX_CARDS} cards, got {excerpt(n)}")
    rows, labels = _hands(n)
    base = n + 1
    return Game(
        name="cards",
        variant=f"n{n}",
        rows=rows,
        labels=labels,
        target_index=np.arange(len(labels), dtype=np.int64),
        n_codes=base**5,
        rule=make_rule(n),
        win_code=mixed_radix((n, 0, n, 0, n), base),
        decode=lambda code: digits(code, base, 5),
        encode=lambda fb: mixed_radix(check_feedback(fb, 5, n, "cards"), base),
        rules_source=inspect.getsource(make_rule) + f"n={n}",
        representatives=lambda: suit_representatives(n),
        canonical=canonical_from_points(lambda: game(n).rows[:, :n], suit_maps, partial(suit_permutations, n)),
        feedback_symmetries=partial(feedback_symmetries, n),
        feedback_help=FEEDBACK_HELP,
    ).made_by(game, n)


def check_cards(value: Sequence[Card | str] | str, what: str = "guess") -> list[Card]:
    """Return the 1 to 4 distinct Cards of `value`: a sequence of cards, each a (rank, suit) pair of
    integers or card text ("AS", as `to_card` reads it), or one text of them ("2C AS").

    ValueError naming the bad value or card otherwise (rank 0-12 for 2..A, suit 0-3 for C D H S;
    mappings and sets are not sequences here).
    """
    text = isinstance(value, str) and len(value) <= 16 * MAX_CARDS  # a longer text is not a hand: not split
    items = tuple(value.replace(",", " ").split()) if text else sequence_items(value, MAX_CARDS)
    if items is None or not 1 <= len(items) <= MAX_CARDS:
        raise ValueError(f"cards {what} must be a sequence of 1 to {MAX_CARDS} cards, (rank, suit) pairs or text "
                         f"like \"AS\", got {excerpt(value)}")
    cards = []
    for item in items:
        if isinstance(item, str):
            card = to_card(item.strip().upper())
            if card is None:
                raise ValueError(f"cards {what}: not a card (rank 2-10 J Q K A, or T for 10, then suit C D H S): "
                                 f"{excerpt(item)}")
            cards.append(card)
            continue
        pair = sequence_items(item, 2)
        if (pair is None or len(pair) != 2 or not all(is_integer(v) for v in pair)
                or not (0 <= pair[0] < len(RANKS) and 0 <= pair[1] < len(SUITS))):
            raise ValueError(f"cards {what}: not a card, a (rank 0-{len(RANKS) - 1}, suit 0-{len(SUITS) - 1}) "
                             f"pair of integers or text like \"AS\": {excerpt(item)}")
        cards.append(Card(int(pair[0]), int(pair[1])))
    unique_tokens([from_card(c) for c in cards], None, "card")
    return cards


def feedback(answer: Sequence[Card | str] | str, guess: Sequence[Card | str] | str) -> tuple[int, int, int, int, int]:
    """Return (correct_cards, lower_ranks, correct_ranks, higher_ranks, correct_suits), as ints; `answer`
    and `guess` are each a sequence of cards, (rank, suit) pairs or text ("AS"), or one text ("2C AS")."""
    answer, guess = check_cards(answer, "answer"), check_cards(guess)
    if len(answer) != len(guess):
        raise ValueError(f"answer has {len(answer)} cards but guess has {len(guess)}")
    g = np.array(_row(guess), dtype=np.int32)
    a = np.array(_row(answer), dtype=np.int32)
    return digits(int(make_rule(len(guess))(g, a)), len(guess) + 1, 5)


def _guess_label(guess: Sequence[Card | str] | str) -> str:
    return label(check_cards(guess))


def _guess_value(text: str) -> list[Card]:
    return [to_card(token) for token in text.split()]


def initial_guess(n: int) -> tuple[list[Card], State]:
    """Return (first guess of `n` cards, state), from the precomputed tree."""
    if not is_integer(n) or not 1 <= n <= MAX_CARDS:
        raise ValueError(f"the card game takes 1 to {MAX_CARDS} cards, got {excerpt(n)}")
    text, state = get_solver(game(int(n))).initial_guess()
    return _guess_value(text), state


def next_guess(previous: tuple[Sequence[Card | str] | str, State],
               feedback: tuple[int, int, int, int, int]) -> tuple[list[Card], State]:
    """Return (next guess, new state) after `previous` = (guess, state) received `feedback`; the guess as
    `initial_guess` returned it, or as (rank, suit) pairs or card text ("2C AS")."""
    return next_from(previous, feedback, _guess_label, _guess_value, "cards")
