"""A review of a played game: each guess rated by the guesses it costs against the best guess.

`review(game, steps)` replays (guess row, code) steps and returns a `Review`. For each guess, in
the state before it:

* candidates before and after it, and the candidates it was expected to leave (sum of squared
  group sizes over the candidates: the greedy rule's figure);
* the expected guesses to finish (this one included) with the player's guess and with the best
  guess (`solver.analysis.values.rate`: the tree, the opener ranking, else the exact search within
  the budget), the best guess itself, and the cost: the difference (0 for an optimal guess; when the
  search found the player's guess no worse than the solver's, the player's is the best);
* luck: where the group the answer fell into stands among the groups the guess could have left,
  over equally likely answers: 100 x (the share of answers that would have left more candidates +
  half the share that would have left as many); 50 is an average draw, a win at once counts as
  leaving none.

Every guess has both values (`values.rate` falls back to a marked estimate), so every guess is rated.
A guess's skill is 100 x 2^(-cost / SKILL_HALF_COST): 100 for an optimal guess, 50 for one that loses
SKILL_HALF_COST guesses (a quarter of a guess), about 6 for one that loses a whole guess. The game's
summary: the total cost in guesses, a skill score (the mean of the guesses' skill over every guess
made while more than one candidate was left, the first included, and any guess that missed a
known answer) and a luck score (the mean luck of the guesses made with a choice left), both 0-100.
A game has at most the game's guess limit of guesses (`check_guess_limit`); one that ends unsolved
there is lost, and says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np

from solver.analysis import values
from solver.analysis.notation import GuessLimitError, check_guess_limit, show_feedback
from solver.analysis.values import ToGo, figure
from solver.analysis.walk import feedback_codes, replay
from solver.core.runtime import get_solver
from solver.core.game import Game
from solver.core.registry import get_game, registered
from solver.games.boards import Boards, guesses_allowed

TIE = 1e-9  # expected guesses closer than this are equal
SKILL_HALF_COST = 0.25  # expected guesses lost that halve a guess's skill
OVERTIME_PLAY = 4  # guesses past the limit the solver's own game may take (it never needs them where it guarantees)


class ReviewError(ValueError):
    """A history that cannot be reviewed (empty); bad guesses and feedback raise ValueError too."""


@dataclass(frozen=True)
class GuessReview:
    """One guess of a reviewed game."""

    number: int  # 1 for the first guess
    guess: str
    feedback: str  # as the game shows it
    before: int  # candidates before the guess
    after: int  # candidates after it (0 once it won)
    expected_after: float  # candidates it was expected to leave
    player: ToGo | None  # expected guesses to finish with the player's guess (None: not rated in time)
    best_guess: str
    best: ToGo | None  # with the best guess
    luck: float  # 0-100, 50 an average draw
    candidates: tuple[str, ...] = ()  # the candidates before the guess

    @property
    def optimal(self) -> bool:
        """Return True when the guess is the best one (or as good: its cost is 0)."""
        return self.cost == 0.0

    @property
    def cost(self) -> float | None:
        """Return the expected guesses lost by this guess against the best (0 for an optimal one), or
        None when either value is not known."""
        if self.guess == self.best_guess:
            return 0.0
        if self.player is None or self.best is None:
            return None
        return max(self.player.expected - self.best.expected, 0.0) if self.player.expected > self.best.expected + TIE \
            else 0.0

    @property
    def exact(self) -> bool:
        """Return True when the cost is proven (both values proven, or the player played the best guess
        of a proven value)."""
        if self.guess == self.best_guess:
            return self.best is not None and self.best.exact
        return self.player is not None and self.best is not None and self.player.exact and self.best.exact

    @property
    def cost_kind(self) -> str | None:
        """Return how far the cost is known: values.PROVEN, values.BOUND (at least this: the player's
        value is a lower bound) or values.APPROXIMATE; None when not known."""
        if self.cost is None:
            return None
        if self.exact:
            return values.PROVEN
        if values.ESTIMATE in (getattr(self.player, "kind", None), getattr(self.best, "kind", None)):
            return values.ESTIMATE
        if self.player is not None and self.player.kind == values.BOUND and self.best is not None and self.best.exact:
            return values.BOUND
        return values.APPROXIMATE

    @property
    def skill(self) -> float | None:
        """Return 100 x 2^(-cost / SKILL_HALF_COST): 100 for an optimal guess, 50 for one losing a quarter
        of a guess; None if the cost is not known."""
        if self.cost is None:
            return None
        return 100.0 * 2.0 ** (-self.cost / SKILL_HALF_COST)

    def cost_text(self) -> str:
        """Return the cost as every face shows it: "0", "0.125", "~0.004" (not proven), ">=0.125" (at least),
        "≈0.900" (from an estimate), "?" (not known)."""
        kind = self.cost_kind
        if kind is None:
            return "?"
        if self.cost == 0.0 and kind == values.PROVEN:
            return "0"
        return values.MARKS[kind] + figure(self.cost)

    @property
    def decided(self) -> bool:
        """Return True when one candidate was left before the guess (no choice, no luck)."""
        return self.before == 1


@dataclass(frozen=True)
class Review:
    """A reviewed game: its guesses and the summary scores."""

    title: str
    guesses: tuple[GuessReview, ...]
    won: bool
    limit: int | None = None  # the game's guess limit (None: none)
    answer: str | None = None  # the answer, when known (won, given, or the one candidate left)
    # the solver's own game for the same answer: (guess row, code) each; () when the answer is not known
    solver_game: tuple[tuple[int, int], ...] = ()
    game: Game | None = field(default=None, repr=False, compare=False)  # the game reviewed

    @property
    def lost(self) -> bool:
        """Return True when the game ended unsolved at its guess limit."""
        return not self.won and self.limit is not None and len(self.guesses) >= self.limit

    @property
    def cost(self) -> float:
        """Return the total expected guesses lost, over the guesses whose cost is known."""
        return sum(g.cost for g in self.guesses if g.cost is not None)

    @property
    def exact(self) -> bool:
        """Return True when every guess's cost is proven."""
        return all(g.exact for g in self.guesses)

    @property
    def skill(self) -> int | None:
        """Return the skill score, 0-100: the mean of the guesses' skill (None: none is known)."""
        scores = [g.skill for g in self.guesses if g.skill is not None and (not g.decided or g.cost)]
        return round(sum(scores) / len(scores)) if scores else (100 if self.guesses else None)

    @property
    def luck(self) -> int | None:
        """Return the luck score, 0-100: the mean luck of the guesses made with a choice left."""
        scores = [g.luck for g in self.guesses if not g.decided]
        return round(sum(scores) / len(scores)) if scores else None

    def solver_game_shown(self) -> list[tuple[str, str]]:
        """Return the solver's own game for the same answer as (guess, feedback as shown) pairs."""
        game = self.game
        return [(game.labels[row], show_feedback(game, code)) for row, code in self.solver_game]

    def cost_text(self) -> str:
        """Return the guesses lost in all as shown: "~" first when not every cost is proven."""
        return ("" if self.exact else "~") + figure(self.cost)

    def summary_line(self, limit: int | None = None) -> str:
        """Return a one-line summary to share: game, guesses (of `limit`), skill, luck and cost."""
        count = f"{len(self.guesses)}/{limit}" if limit else str(len(self.guesses))
        result = count if self.won else f"lost after {count}" if self.lost else f"not solved after {count}"
        parts = [f"{self.title} {result}", f"skill {self.skill}", f"luck {self.luck}" if self.luck is not None else "",
                 f"{self.cost_text()} guesses lost"]
        return "deduce review: " + ", ".join(p for p in parts if p)


def better(one: ToGo, other: ToGo) -> bool:
    """Return True when value `one` is better than `other`: fewer candidates lost past the guess limit, else
    fewer expected guesses (by more than TIE)."""
    if one.lost != other.lost:
        return one.lost < other.lost
    return one.expected < other.expected - TIE


def luck_of(sizes: np.ndarray, landed: int) -> float:
    """Return the luck of landing in a group of `landed` candidates (0: a win) when each answer's
    group has the size in `sizes` (one entry per candidate): 100 x (share of larger + half the equal)."""
    larger = float((sizes > landed).sum())
    equal = float((sizes == landed).sum())
    return 100.0 * (larger + 0.5 * equal) / sizes.size


def solver_play(game: Game, answer: int, guesses: int) -> tuple[tuple[int, int], ...]:
    """Return the solver's own game against target row `answer`: (guess row, code) for each guess, until it
    wins or has made `guesses` guesses."""
    solver = get_solver(game)
    state = replay(solver, ())
    played = []
    while len(played) < guesses:
        row = solver.guess_row(state) if state.remaining > 1 else int(game.target_index[state.candidate_positions[0]])
        code = game.code(row, answer)
        played.append((row, code))
        if code == game.win_code:
            break
        state = solver.advance(state, row, code)
    return tuple(played)


def review(game: Game, steps: Sequence[tuple[int, int]], budget: float | None = None,
           answer: int | None = None, limit: int | None = None, own: bool = True) -> Review:
    """Return the review of a game played as (guess row, code) `steps`, with the solver's own game beside it
    when the answer is known (`answer`, a target row: given, else the winning guess, else the one candidate
    left); ValueError (one line) for a history the game refuses (ReviewError when empty), or an answer the
    history rules out. `budget`: seconds per rating (default: the solver's). `limit`: the guesses the game
    allowed, if not the game's own (a board of several: guesses past the game's own limit are valued
    playing on past it). `own`: play the solver's own game for the answer (else none is given)."""
    if not steps:
        raise ReviewError("nothing to review: give the game's guesses (GUESS=FEEDBACK, or guesses with --answer)")
    if limit is None:
        check_guess_limit(game, len(steps))
    elif len(steps) > limit:
        raise GuessLimitError(f"{len(steps)} guesses on a board, more than the {limit} the game allows")
    solver = get_solver(game)
    final = replay(solver, steps)  # checks the whole history first: one error before any work
    won = steps[-1][1] == game.win_code
    if answer is None and (won or final.remaining == 1):
        answer = steps[-1][0] if won else int(game.target_index[final.candidate_positions[0]])
    if answer is not None and any(game.code(row, answer) != code for row, code in steps):
        raise ReviewError(f"{game.labels[answer]} does not give the feedback of this game")
    reviewed = []
    for number, (row, code) in enumerate(steps, start=1):
        state = replay(solver, steps[:number - 1])
        positions = state.candidate_positions
        codes = feedback_codes(game, row, game.target_index[positions])
        counts = np.bincount(codes, minlength=game.n_codes)
        sizes = counts[codes]
        sizes[codes == game.win_code] = 0  # the answer guessed: nothing left
        after = 0 if code == game.win_code else int(counts[code])
        expected_after = float((counts.astype(np.float64) ** 2).sum()) / positions.size
        best_row = solver.guess_row(state) if positions.size > 1 else int(game.target_index[positions[0]])
        rated = values.rate(state, [row, best_row], budget, large=True, worst=False) if positions.size > 1 else {}
        player, best = rated.get(row), rated.get(best_row)
        if positions.size == 1:
            left = values.guesses_left(state)
            one = ToGo(best_row, 1.0, 1, values.PROVEN, values.RULE, 1, left=left)
            player, best = (one if row == best_row else None), one
            if row != best_row:  # a miss, then the answer
                player = ToGo(row, 2.0, 2, values.PROVEN, values.RULE, 1, lost=int(left == 1), left=left)
        if player is not None and best is not None and better(player, best):
            best_row, best = row, player  # the search found the player's guess better than the solver's
        reviewed.append(GuessReview(number, game.labels[row], show_feedback(game, code), int(positions.size), after,
                                    expected_after, player, game.labels[best_row], best, luck_of(sizes, after),
                                    state.candidates))
    limit = game.max_guesses if limit is None else limit
    mine = (() if answer is None or not own
            else solver_play(game, answer, (game.max_guesses or len(steps)) + OVERTIME_PLAY))
    return Review(game.title, tuple(reviewed), won, limit, None if answer is None else game.labels[answer], mine, game)


@dataclass(frozen=True)
class BoardsReview:
    """A game of several boards reviewed: each board as a game of its own (`Review`) over the guesses made
    while it was open, and the solver's own game of all the boards for the same answers."""

    boards: tuple[Review, ...]
    limit: int  # the guesses the game allows
    answers: tuple[str, ...]
    solver_game: tuple[tuple[int, tuple[int, ...]], ...]  # (guess row, code per board, SOLVED once solved)
    guesses: int  # the guesses the player made

    @property
    def won(self) -> bool:
        return all(board.won for board in self.boards)

    def elsewhere(self, board: int) -> list[int]:
        """Return the numbers of the guesses of board `board` (0 first) played for another board: made once its
        answer was known, not that answer, while another board was still open. They cost this board nothing
        of its own, and the scores leave them out."""
        reviewed = self.boards[board]
        others = [len(other.guesses) for b, other in enumerate(self.boards) if b != board]
        return [g.number for g in reviewed.guesses
                if g.decided and g.guess != reviewed.answer and any(g.number <= taken for taken in others)]

    def counted(self) -> list[GuessReview]:
        """Return the guesses that count in the scores: every board's, but those played for another board
        (`elsewhere`)."""
        return [g for b, board in enumerate(self.boards) for g in board.guesses if g.number not in self.elsewhere(b)]

    @property
    def cost(self) -> float:
        return sum(g.cost for g in self.counted() if g.cost is not None)

    @property
    def exact(self) -> bool:
        return all(g.exact for g in self.counted())

    @property
    def skill(self) -> int | None:
        """Return the mean skill of the counted guesses (`counted`; as `Review.skill` counts them), 0-100."""
        scores = [g.skill for g in self.counted() if g.skill is not None and (not g.decided or g.cost)]
        return round(sum(scores) / len(scores)) if scores else None

    @property
    def luck(self) -> int | None:
        scores = [g.luck for g in self.counted() if not g.decided]
        return round(sum(scores) / len(scores)) if scores else None

    def cost_text(self) -> str:
        return ("" if self.exact else "~") + figure(self.cost)

    def summary_line(self) -> str:
        """Return a one-line summary: the guesses each board took (X unsolved), skill, luck and cost."""
        taken = "&".join(str(len(board.guesses)) if board.won else "X" for board in self.boards)
        luck = f", luck {self.luck}" if self.luck is not None else ""
        return (f"deduce review: {len(self.boards)} boards {taken}/{self.limit}, skill {self.skill}{luck}, "
                f"{self.cost_text()} guesses lost")


def board_variant(game: Game) -> Game:
    """Return the game one board of a hard game of several boards is rated in: its normal-mode variant (the
    registered one, with its tree, when `game` is registered; else the same lists without the rule)."""
    if game.allowed is None:
        return game
    key = registered(game)
    if key is not None and key[1].startswith("hard"):
        return get_game(key[0], "normal" + key[1][len("hard"):])
    return replace(game, allowed=None, variant=game.variant.replace("hard", "normal", 1))


def check_hard_boards(game: Game, guesses: Sequence[int], answers: Sequence[int]) -> None:
    """Raise ReviewError naming the first of guess rows `guesses` (played on boards of target rows `answers`)
    that keeps the hard-mode rule of no unsolved board, or that comes after every board was solved."""
    state = Boards.start(game, len(answers), hard=True)
    for number, row in enumerate(guesses, start=1):
        if state.done:
            raise ReviewError(f"guess {number} comes after every board was solved")
        refused = state.refusal(int(row))
        if refused is not None:
            raise ReviewError(f"guess {number}: hard mode forbids {game.labels[int(row)]}: {refused}")
        state = state.after(int(row), {b: game.code(int(row), int(a)) for b, a in enumerate(answers)
                                       if not state.solved[b]})


def review_boards(game: Game, guesses: Sequence[int], answers: Sequence[int],
                  solver_game: Sequence[tuple[int, tuple[int, ...]]] = (), budget: float | None = None) -> BoardsReview:
    """Return the review of a game of several boards: guess rows `guesses` played against one target row of
    `answers` per board, the game allowing `guesses_allowed` of them; each board reviewed as a game of its own
    (`review`) over the guesses up to the one that solved it, and `solver_game` (the solver's own play of
    these answers, `solver.analysis.several_boards.play`) beside. In hard mode (a hard variant) each guess must keep the
    rule of at least one unsolved board (`Boards.refusal`), and each board is rated as a normal-mode game
    (`board_variant`: alone, a board's guesses may break its own rule). ReviewError for no guess, a guess after
    every board was solved or one hard mode forbids; GuessLimitError past `limit`."""
    if not guesses:
        raise ReviewError("nothing to review: give the game's guesses and its answers")
    limit = guesses_allowed(len(answers))
    check_guess_limit(game, len(guesses), len(answers))
    if game.allowed is not None:
        check_hard_boards(game, guesses, answers)
        game = board_variant(game)
    boards = []
    for answer in answers:
        steps = []
        for row in guesses:
            steps.append((int(row), game.code(int(row), int(answer))))
            if steps[-1][1] == game.win_code:
                break
        boards.append(review(game, steps, budget, answer=int(answer), limit=limit, own=False))
    solved_at = max(len(board.guesses) for board in boards)
    if all(board.won for board in boards) and solved_at < len(guesses):
        raise ReviewError(f"guess {solved_at + 1} comes after every board was solved")
    return BoardsReview(tuple(boards), limit, tuple(game.labels[int(a)] for a in answers), tuple(solver_game),
                        len(guesses))

