"""Several Wordle boards at once (Dordle: 2, Quordle: 4, Octordle: 8): each guess is scored on every
unsolved board, and the game ends when every board is solved.

`Boards` is an immutable state: the game, the candidate targets left on each board and which boards
are solved. The solver chooses one guess for all boards together:

- a board down to one candidate is played at once;
- with two boards open, a look-ahead (`solver.core.search.board_chances`): each guess is rated by the chances
  that both boards are solved within 1, 2 and 3 more guesses after it, under the best play over a pool
  (the candidates and the greedy rule's leading guesses), computed exactly for the pool; the greedy
  rule's LOOKAHEAD_FIRST leading guesses and every candidate are rated to depth 2, and the
  LOOKAHEAD_WIDTH best of them to depth 3;
- with three boards open or more, the spread rule: the guess minimising the sum, over the unsolved boards,
  of the chance the guess does not solve the board plus SPREAD_WEIGHT times the expected log2 of the
  candidates left on it (a board the guess solves counts 0).

- one board left open: the greedy rule (`greedy_order`: the least sum, over the unsolved boards, of the
  expected number of candidates left, a board the guess solves leaving none), which also orders the
  look-ahead's guesses.

Ties go to the greedy rule's order (a guess that is a candidate on some board, then the lowest row), so
the choice is deterministic.

Hard mode (`Boards.start(game, count, hard=True)`, or a hard variant of Wordle): every guess must use the
revealed hints of at least one board not yet solved (satisfy its hard-mode rule); a board's rule lapses
once it is solved. Demanding every board's rule at once would leave most games unwinnable: a letter yellow
on one board and grey on another forbids the other's answer (measured with TRACE first: 579 of 1000 random
Dordle answer pairs and 279 of 300 Quordle sets could no longer be won after the first guess). Under the
rule of one board, a candidate of any unsolved board is always allowed, so every game can be won. The
solver's choice is the best guess so allowed (the look-ahead's later guesses are not restricted: they only
rate the first). The first guess is OPENER (measured: docs, "Several boards"). There is no
tree: every choice is computed live.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np

from solver.core.bounded_input import excerpt
from solver.core.game import Game
from solver.games.wordle import code_to_marks, hard_mode_allows, hard_mode_mask

MAX_BOARDS = 32
SOLVED = -1  # the code recorded for a board that was solved before a guess
# the first guess on several boards: the best of the openers measured with this strategy on 1000 random
# answer sets of Dordle (docs, "Several boards"; the greedy rule's own first guess is ROATE)
OPENER = "TRACE"
LOOKAHEAD_FIRST = 200  # the greedy rule's leading guesses rated by the look-ahead (with every candidate)
LOOKAHEAD_INNER = 60  # the greedy rule's leading guesses tried below the first (with the candidates)
LOOKAHEAD_WIDTH = 20  # guesses of the depth-2 pass rated again at depth 3
ORDER_DIGITS = 9  # decimals of the ratings compared (sums of floats in another order tie)
# the spread rule's weight of the expected log2 of the candidates left against the boards left unsolved:
# chosen on Quordle's answer sets of seed 2 (0.3: 6.860, 0.4: 6.875, 0.5: 6.876; 0.2 let a set take 10
# guesses on seed 1), measured on those of seed 1 (docs, "Several boards")
SPREAD_WEIGHT = 0.3


def guesses_allowed(count: int) -> int:
    """Return the guesses a player gets with `count` boards, as in the published games: 5 more than
    the boards (Wordle 6, Dordle 7, Quordle 9, Octordle 13)."""
    return count + 5


def check_count(count: int) -> int:
    """Return `count` if it is a number of boards (1 to 32); ValueError otherwise."""
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or not 1 <= count <= MAX_BOARDS:
        raise ValueError(f"the number of boards must be 1 to {MAX_BOARDS}, got {excerpt(count)}")
    return int(count)


def check_distinct(answers: Sequence[str]) -> None:
    """Raise ValueError if an answer is given twice: the boards of a game have different answers
    (the rule of `deduce play --boards` and of the `wordle` program's `-b`)."""
    seen: set[str] = set()
    for answer in answers:
        if answer in seen:
            raise ValueError(f"the answers must all be different: {answer} is given twice")
        seen.add(answer)


@dataclass(frozen=True)
class Boards:
    """What is known on every board: candidate target positions (into `game.target_index`) and whether
    it is solved; `history` holds (guess row, code per board, SOLVED for boards solved earlier); `hard`:
    every guess must satisfy the hard-mode rule of at least one unsolved board."""

    game: Game
    candidates: tuple[np.ndarray, ...]
    solved: tuple[bool, ...]
    history: tuple[tuple[int, tuple[int, ...]], ...] = ()
    hard: bool = False

    @classmethod
    def start(cls, game: Game, count: int, hard: bool = False) -> "Boards":
        """Return the state before the first guess on `count` boards of `game`, in hard mode if `hard` or if
        `game` is a hard variant (its `allowed` rule set); ValueError for hard mode on a game other than Wordle."""
        hard = bool(hard) or game.allowed is not None
        if hard and game.name != "wordle":
            raise ValueError(f"hard mode is Wordle's rule: {game.title} has none")
        everything = np.arange(game.n_targets, dtype=np.int64)
        return cls(game, (everything,) * check_count(count), (False,) * count, hard=hard)

    @property
    def count(self) -> int:
        return len(self.candidates)

    @property
    def done(self) -> bool:
        """Return True when every board is solved."""
        return all(self.solved)

    @property
    def open_boards(self) -> list[int]:
        """Return the indices of the boards not solved yet."""
        return [b for b, solved in enumerate(self.solved) if not solved]

    def board_steps(self, board: int) -> list[tuple[int, int]]:
        """Return the (guess row, code) steps board `board` received (the guesses made while it was open)."""
        return [(row, codes[board]) for row, codes in self.history if codes[board] != SOLVED]

    def allowed(self) -> np.ndarray | None:
        """Return a bool mask over the guess rows that may be played next: in hard mode those that the hard-mode
        rule of at least one unsolved board allows (a board without a guess yet allows every guess); None in
        normal mode (every guess)."""
        if not self.hard:
            return None
        rule = self.game.allowed or hard_mode_mask
        mask = np.zeros(self.game.n_guesses, dtype=bool)
        for b in self.open_boards:
            steps = self.board_steps(b)
            if not steps:
                return np.ones(self.game.n_guesses, dtype=bool)
            mask |= rule(self.game, steps)
        return mask

    def refusal(self, guess: int) -> str | None:
        """Return why hard mode forbids guess row `guess` now (it uses the hints of no unsolved board: "board 1:
        letter 1 must be S; board 2: ..."), or None if it may be played."""
        if not self.hard:
            return None
        game, length = self.game, len(self.game.labels[0])
        reasons = []
        for b in self.open_boards:
            played = [(game.labels[row], code_to_marks(code, length)) for row, code in self.board_steps(b)]
            reason = hard_mode_allows(played, game.labels[guess])
            if reason is None:
                return None
            reasons.append(f"board {b + 1}: {reason}" if self.count > 1 else reason)
        return "; ".join(reasons)

    def remaining(self) -> list[int]:
        """Return the number of candidates left on each board (0 on a solved board)."""
        return [0 if solved else int(c.size) for c, solved in zip(self.candidates, self.solved)]

    def after(self, guess: int, codes: dict[int, int]) -> "Boards":
        """Return the state after guess row `guess` received `codes` (board index -> feedback code) on
        every unsolved board; ValueError naming the board if a code is missing, not a code, or
        contradicts that board's candidates, or if hard mode forbids the guess."""
        game = self.game
        if not 0 <= guess < game.n_guesses:
            raise ValueError(f"guess row {excerpt(guess)} is outside 0..{game.n_guesses - 1}")
        if self.done:
            raise ValueError("every board is solved already")
        refused = self.refusal(guess)
        if refused is not None:
            raise ValueError(f"hard mode forbids {game.labels[guess]}: {refused}")
        missing = [b + 1 for b in self.open_boards if b not in codes]
        extra = sorted(b + 1 for b in codes if not 0 <= b < self.count or self.solved[b])
        if missing or extra:
            raise ValueError(f"feedback is needed for the unsolved boards {_numbers(self.open_boards)}"
                             + (f", not for board {_numbers([b - 1 for b in extra])}" if extra else ""))
        candidates, solved, recorded = list(self.candidates), list(self.solved), []
        for b in range(self.count):
            if self.solved[b]:
                recorded.append(SOLVED)
                continue
            code = int(codes[b])
            if not 0 <= code < game.n_codes:
                raise ValueError(f"board {b + 1}: feedback code {code} is outside 0..{game.n_codes - 1}")
            left = self.candidates[b]
            keep = left[_codes(game, guess, left) == code]
            if keep.size == 0:
                raise ValueError(f"board {b + 1}: no answer gives {game.labels[guess]}={game.decode(code)} "
                                 f"after the earlier feedback")
            candidates[b], solved[b] = keep, code == game.win_code
            recorded.append(code)
        return Boards(game, tuple(candidates), tuple(solved), self.history + ((guess, tuple(recorded)),), self.hard)

    def choose(self) -> int:
        """Return the guess row the solver plays next (see the module docstring); in hard mode one that
        the rule of at least one unsolved board allows (`allowed`)."""
        if self.done:
            raise ValueError("every board is solved already")
        boards, allowed = self.open_boards, self.allowed()
        for b in boards:
            if self.candidates[b].size == 1:
                row = int(self.game.target_index[self.candidates[b][0]])
                if allowed is None or allowed[row]:
                    return row
        if all(self.candidates[b].size == self.game.n_targets for b in boards):
            row = opening(self.game)
            if allowed is None or allowed[row]:
                return row
        sets = [self.candidates[b] for b in boards]
        if len(sets) == 2:
            return lookahead_guess(self.game, sets[0], sets[1], allowed)
        order = (spread_order if len(sets) >= 3 else greedy_order)(self.game, sets)
        return int((order if allowed is None else order[allowed[order]])[0])


def _numbers(boards: list[int]) -> str:
    return ", ".join(str(b + 1) for b in boards)


def _codes(game: Game, guess: int, positions: np.ndarray) -> np.ndarray:
    """Return the feedback codes of guess row `guess` against the targets at `positions`."""
    from solver.core import scoring  # defers Numba to the compute path

    return scoring.feedback_table(game, [guess], game.target_index[positions])[0]


def expected_left(game: Game, pool: np.ndarray, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (expected candidates left on a board after each guess of `pool`, whether each is a
    candidate there) for a board with these candidate target positions: the sum of the squared
    sizes of the classes other than the win, divided by the number of candidates."""
    from solver.core import scoring  # defers Numba to the compute path

    sum_sq, _ = scoring.partition_scores(game, pool, game.target_index[positions])
    is_candidate = np.isin(pool, game.target_index[positions])
    return (sum_sq - is_candidate) / positions.size, is_candidate


def greedy_order(game: Game, boards: list[np.ndarray]) -> np.ndarray:
    """Return every guess row, best first by the greedy rule: the sum of `expected_left` over `boards`
    (candidate target positions of each unsolved board), ties to a candidate of some board, then the
    lowest row."""
    pool = np.arange(game.n_guesses, dtype=np.int64)
    total = np.zeros(pool.size)
    any_candidate = np.zeros(pool.size, dtype=bool)
    for positions in boards:
        left, is_candidate = expected_left(game, pool, positions)
        total += left
        any_candidate |= is_candidate
    return pool[np.lexsort((pool, ~any_candidate, np.round(total, ORDER_DIGITS)))]  # last key sorts first


def spread_order(game: Game, boards: list[np.ndarray]) -> np.ndarray:
    """Return every guess row, best first by the spread rule: the sum, over `boards` (candidate target
    positions of each unsolved board), of the chance the guess leaves the board unsolved plus SPREAD_WEIGHT
    times the expected log2 of its candidates left (log2 n minus the entropy of the guess's classes; a
    solved board counts 0); ties to a candidate of some board, then the lowest row."""
    from solver.core import scoring  # defers Numba to the compute path

    pool = np.arange(game.n_guesses, dtype=np.int64)
    total = np.zeros(pool.size)
    any_candidate = np.zeros(pool.size, dtype=bool)
    for positions in boards:
        _, entropy = scoring.partition_scores(game, pool, game.target_index[positions])
        is_candidate = np.isin(pool, game.target_index[positions])
        total += 1.0 - is_candidate / positions.size + SPREAD_WEIGHT * (np.log2(positions.size) - entropy)
        any_candidate |= is_candidate
    return pool[np.lexsort((pool, ~any_candidate, np.round(total, ORDER_DIGITS)))]  # last key sorts first


def best_guess(game: Game, boards: list[np.ndarray]) -> int:
    """Return the greedy rule's guess row for `boards` (`greedy_order`'s first)."""
    return int(greedy_order(game, boards)[0])


def lookahead_guess(game: Game, board_a: np.ndarray, board_b: np.ndarray, allowed: np.ndarray | None = None) -> int:
    """Return the guess row the look-ahead plays on two open boards (candidate target positions of each;
    see the module docstring), among the rows of the bool mask `allowed` (hard mode; None: every row)."""
    from solver.core import scoring  # defers Numba to the compute path
    from solver.core.search.board_chances import compile_notice, rate_guesses  # defers Numba to the compute path

    compile_notice()  # before the greedy order and the table: their kernels compile in seconds, these in 10
    order = greedy_order(game, [board_a, board_b])
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    columns = np.union1d(board_a, board_b)
    answers = game.target_index[columns]
    if allowed is None:
        first = np.union1d(order[:LOOKAHEAD_FIRST], answers)
    else:  # never empty: the last guess satisfies every rule its own feedback and the earlier ones set
        first = np.union1d(order[allowed[order]][:LOOKAHEAD_FIRST], answers[allowed[answers]])
    rows = np.union1d(np.union1d(first, order[:LOOKAHEAD_INNER]), answers)  # answers: in `first` unless hard mode
    table = scoring.feedback_table(game, rows, answers)
    local = {int(row): i for i, row in enumerate(rows)}
    own = np.array([local[int(row)] for row in answers], dtype=np.int64)
    first_local = np.array([local[int(row)] for row in first], dtype=np.int64)
    inner_local = np.array([local[int(row)] for row in order[:LOOKAHEAD_INNER]], dtype=np.int64)
    a_local, b_local = np.searchsorted(columns, board_a), np.searchsorted(columns, board_b)
    cheap = rate_guesses(table, own, first_local, a_local, b_local, inner_local, game.win_code, 2)
    leading = np.lexsort((rank[first], -np.round(cheap, ORDER_DIGITS)))[:LOOKAHEAD_WIDTH]
    deep = rate_guesses(table, own, first_local[leading], a_local, b_local, inner_local, game.win_code, 3)
    best = np.lexsort((rank[first[leading]], -np.round(cheap[leading], ORDER_DIGITS), -np.round(deep, ORDER_DIGITS)))[0]
    return int(first[leading[best]])


@lru_cache(maxsize=16)
def opening(game: Game) -> int:
    """Return the first guess on any number of boards: OPENER when the game has it, else the greedy rule's
    guess for one board (all boards alike)."""
    if OPENER in game.labels:
        return game.index_of(OPENER)
    return best_guess(game, [np.arange(game.n_targets, dtype=np.int64)])
