"""Naive reference rules written straight from the specifications, for the tests only.

Deliberately different from the fast rules: plain loops over text, no encodings, no bit masks.
`cards_many` is the one exception, the card rule's definitions written over arrays of many pairs at
once (for the 270725 targets of cards n4), checked against `cards` in tests/test_trees.py.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

RANKS = "23456789TJQKA"


def battleship(target: list[str], guess: list[str]) -> tuple[int, int, int]:
    """Feedback (exact, one_away, two_away) for location texts like "A1"."""
    out = [0, 0, 0]
    for shot in guess:
        dist = min(max(abs(ord(shot[0]) - ord(ship[0])), abs(int(shot[1]) - int(ship[1]))) for ship in target)
        if dist <= 2:
            out[dist] += 1
    return tuple(out)


def cards(answer: list[str], guess: list[str]) -> tuple[int, int, int, int, int]:
    """Feedback of the card game for card texts like "TH"."""
    a_ranks = [RANKS.index(c[0]) for c in answer]
    g_ranks = [RANKS.index(c[0]) for c in guess]
    correct = len(set(answer) & set(guess))
    lower = sum(r < min(g_ranks) for r in a_ranks)
    higher = sum(r > max(g_ranks) for r in a_ranks)
    ranks = sum((Counter(a_ranks) & Counter(g_ranks)).values())
    suits = sum((Counter(c[1] for c in answer) & Counter(c[1] for c in guess)).values())
    return correct, lower, ranks, higher, suits


def wordle(answer: str, guess: str) -> str:
    """Marks G/Y/R: greens first, then yellows left to right while unused answer letters remain."""
    marks = ["R"] * len(guess)
    unused = Counter(a for a, g in zip(answer, guess) if a != g)
    for i, (a, g) in enumerate(zip(answer, guess)):
        if a == g:
            marks[i] = "G"
        elif unused[g] > 0:
            marks[i] = "Y"
            unused[g] -= 1
    return "".join(marks)


def mastermind(secret: str, guess: str) -> tuple[int, int]:
    """(black, white) for codes like "1122"."""
    black = sum(s == g for s, g in zip(secret, guess))
    return black, sum((Counter(secret) & Counter(guess)).values()) - black


def bulls(secret: str, guess: str) -> tuple[int, int]:
    """(bulls, cows) for codes of distinct digits like "0123"."""
    b = sum(s == g for s, g in zip(secret, guess))
    return b, len(set(secret) & set(guess)) - b


def wordle_hard_ok(history: list[tuple[str, str]], guess: str) -> bool:
    """Whether `guess` keeps Wordle's hard mode after `history` of (word, marks G/Y/R), from the rules:
    every letter marked green stays in its place, and every letter marked green or yellow in a row is
    used at least as many times as that row so marked it."""
    guess = guess.upper()
    for word, marks in history:
        word, marks = word.upper(), marks.upper()
        for i in range(len(word)):
            if marks[i] == "G" and guess[i] != word[i]:
                return False
        for i in range(len(word)):
            if marks[i] not in "GY":
                continue
            shown = 0
            for j in range(len(word)):
                if word[j] == word[i] and marks[j] in "GY":
                    shown += 1
            used = 0
            for letter in guess:
                if letter == word[i]:
                    used += 1
            if used < shown:
                return False
    return True


SUITS = "CDHS"


def cards_arrays(hands) -> tuple:
    """Return (ranks, suits) of hand texts like "2C 5D KH AS": int arrays [hand, card], the rank's index
    in RANKS and the suit's in SUITS, for `cards_many`."""
    cards_of = [hand.split() for hand in hands]
    ranks = np.array([[RANKS.index(c[0]) for c in hand] for hand in cards_of], dtype=np.int64)
    suits = np.array([[SUITS.index(c[1]) for c in hand] for hand in cards_of], dtype=np.int64)
    return ranks, suits


def cards_many(answer_ranks, answer_suits, guess_ranks, guess_suits):
    """`cards` of many (answer, guess) pairs at once, row i of each array one pair (`cards_arrays`):
    an int array [pair, 5] of (correct, lower, ranks, higher, suits). The same definitions in array
    form: cards in both hands; answer ranks below the guess's lowest, above its highest; the common
    part of the two multisets of ranks, and of suits (the smaller count of each value, summed)."""
    same = (answer_ranks[:, :, None] == guess_ranks[:, None, :]) & (answer_suits[:, :, None] == guess_suits[:, None, :])
    correct = same.sum(axis=(1, 2))
    lower = (answer_ranks < guess_ranks.min(axis=1, keepdims=True)).sum(axis=1)
    higher = (answer_ranks > guess_ranks.max(axis=1, keepdims=True)).sum(axis=1)

    def counts(values, size):  # [pair, value]: how many cards of the hand have each value
        return (values[:, :, None] == np.arange(size)).sum(axis=1)

    ranks = np.minimum(counts(answer_ranks, len(RANKS)), counts(guess_ranks, len(RANKS))).sum(axis=1)
    suits = np.minimum(counts(answer_suits, len(SUITS)), counts(guess_suits, len(SUITS))).sum(axis=1)
    return np.stack([correct, lower, ranks, higher, suits], axis=1)
