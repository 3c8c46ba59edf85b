"""A deliberately naive exact search, for the tests only: the reference an optimised search must match.

The quantity is the least total number of guesses, summed over all targets, of a decision tree that
identifies every target (the guess that hits a target counts). Written straight from the definition:

    V(H, r) = min over allowed guesses t that make progress on H of
              sum over the classes C of H under t's feedback of
                  1                    if C is the class of the win code (t itself),
                  |C| + V(C, r - 1)    otherwise;
    V(H, 0) = inf for non-empty H, and V = inf when no allowed guess finishes within r.

A guess makes progress unless it leaves all of H in one non-winning class (such a guess only wastes
a turn). Codes come from ``game.code`` (pure Python); no pruning, no bounds, plain memoisation.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from solver.core.game import Game
from solver.games import wordle
from solver.games.wordlists import builtin_answers, builtin_guesses

History = tuple[tuple[int, int], ...]


def code_table(game: Game) -> np.ndarray:
    """Return int64[G, T]: the code of every guess row against every target, from ``game.code``."""
    table = np.empty((game.n_guesses, game.n_targets), dtype=np.int64)
    for guess in range(game.n_guesses):
        for p in range(game.n_targets):
            table[guess, p] = game.code(guess, int(game.target_index[p]))
    return table


def optimal_subtotal(
    game: Game,
    positions: Sequence[int],
    max_guesses: int | None = None,
    hard: bool = False,
    history: History = (),
) -> float:
    """Return V(H, r) for the targets at `positions` (into ``game.target_index``) after `history`.

    `max_guesses` is r (None: no cap). `hard` applies ``game.allowed`` (if the game has one) to
    `history` and to every history below it. Returns ``math.inf`` when no tree fits within the cap.
    """
    table = code_table(game).tolist()  # plain lists: indexing them is much faster than numpy's
    hard = hard and game.allowed is not None
    everything = np.arange(game.n_guesses)
    memo: dict[tuple[tuple[int, ...], int, bytes], float] = {}

    def allowed_guesses(past: History) -> np.ndarray:
        if not hard:
            return everything
        return np.flatnonzero(game.allowed(game, past))

    def value(h: tuple[int, ...], r: int, past: History) -> float:
        if not h:
            return 0
        if r == 0:
            return math.inf
        # Every progress guess shrinks each non-winning class by at least one (the win class holds
        # at most one target), so a tree never needs more than |H| guesses: r >= |H| means no cap.
        r = min(r, len(h))
        guesses = allowed_guesses(past)
        # Hard mode: the allowed set after more history is this set AND'ed with the new constraints,
        # so (H, r, allowed set) determines everything below this node.
        key = (h, r, guesses.tobytes() if hard else b"")
        if key in memo:
            return memo[key]
        best = math.inf
        for guess in guesses.tolist():
            codes = table[guess]
            classes: dict[int, list[int]] = defaultdict(list)
            for p in h:
                classes[codes[p]].append(p)
            if len(classes) == 1 and game.win_code not in classes:
                continue  # no progress
            total: float = 0
            for code, members in classes.items():
                if code == game.win_code:
                    assert len(members) == 1, "the win code must identify a single target"
                    total += 1
                else:
                    total += len(members) + value(tuple(members), r - 1, past + ((guess, code),))
            best = min(best, total)
        memo[key] = best
        return best

    cap = max(game.n_targets, 1) if max_guesses is None else max_guesses
    return value(tuple(sorted(int(p) for p in positions)), cap, tuple(history))


def optimal_total(game: Game, max_guesses: int | None = None, hard: bool = False) -> int | float:
    """Return the least total guesses over all targets of a tree solving `game` in `max_guesses`.

    None means no cap; `hard` restricts guesses with ``game.allowed``. Returns an int, or
    ``math.inf`` when no tree identifies every target within `max_guesses`.
    """
    total = optimal_subtotal(game, range(game.n_targets), max_guesses, hard)
    return total if math.isinf(total) else int(total)


def small_word_lists(n: int = 30, seed: int = 0, extra_guesses: int = 0) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return (answers, guesses): `n` built-in answers drawn with `seed`, plus `extra_guesses` other
    acceptable words as guesses; both sorted and upper case, answers included in guesses."""
    rng = np.random.default_rng(seed)
    pool = builtin_answers()
    answers = tuple(sorted(pool[i] for i in rng.choice(len(pool), n, replace=False)))
    chosen = set(answers)
    others = [w for w in builtin_guesses() if w not in chosen]
    extra = [others[i] for i in rng.choice(len(others), extra_guesses, replace=False)]
    return answers, tuple(sorted(answers + tuple(extra)))


def small_wordle(n: int = 30, seed: int = 0, extra_guesses: int = 0, hard: bool = False) -> Game:
    """Return Wordle on `small_word_lists(n, seed, extra_guesses)` (hard mode if `hard`)."""
    answers, guesses = small_word_lists(n, seed, extra_guesses)
    return wordle.game(hard, answers, guesses)
