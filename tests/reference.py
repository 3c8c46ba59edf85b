"""Naive reference rules written straight from the specifications, for the tests only.

Deliberately different from the fast rules: plain loops over text, no encodings, no bit masks.
"""
from __future__ import annotations

from collections import Counter

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
