"""Hard mode over mark feedback (Wordle's G/Y/R, one base-3 digit a letter): the rule guess by guess.

The exact search narrows its allowed lists by the same rule with the constraint decoded once
(`kernel.narrow`, tested against this function); Wordle's `Game.allowed` applies it to whole lists.

Codes are read as Wordle's: digit i of ``code`` in base 3 (first letter least significant) is 2
for green, 1 for yellow, 0 for grey.
"""
from __future__ import annotations

import numpy as np


def hard_allows(candidate: np.ndarray, guess: np.ndarray, code: int, length: int) -> bool:
    """Return whether hard mode allows the word row `candidate` after `guess` received `code`.

    Plain Python in Numba's subset (the exact search compiles it): every green stays in place and
    each letter marked G or Y is reused at least as many times as it was so marked.
    """
    rest = code
    for i in range(length):
        if rest % 3 == 2 and candidate[i] != guess[i]:
            return False
        rest //= 3
    rest = code
    for i in range(length):
        mark = rest % 3
        rest //= 3
        if mark == 0:
            continue
        need = 0
        first = True
        marks = code
        for j in range(length):
            if guess[j] == guess[i] and marks % 3 != 0:
                need += 1
                first = first and j >= i
            marks //= 3
        if first:
            have = 0
            for j in range(length):
                if candidate[j] == guess[i]:
                    have += 1
            if have < need:
                return False
    return True
