"""The lines of `deduce review`: a table of the guesses and the summary (`solver.analysis.review`)."""
from __future__ import annotations

from typing import Sequence

from solver.analysis.notation import parse_answer, parse_guess, parse_step, tokens
from solver.analysis.review import GuessReview, Review
from solver.analysis.values import MARKS, PROVEN
from solver.core.game import Game
from solver.core.registry import UsageError


def parse_game(game: Game, items: Sequence[str], answer: str | None) -> list[tuple[int, int]]:
    """Return the (guess row, code) steps of a game given as GUESS=FEEDBACK items, or as bare guesses
    with the `answer` (their feedback computed); ValueError naming what is wrong."""
    if answer is None:
        bare = [item for item in items if "=" not in item]
        if bare:
            raise UsageError(f"{bare[0]} has no feedback: give the guesses as GUESS=FEEDBACK, or bare guesses with "
                             "--answer WORD (their feedback is computed)")
        return [parse_step(game, item) for item in items]
    target = parse_answer(game, tokens(answer) if game.name in ("battleship", "cards") else [answer])
    steps = []
    for item in items:
        if "=" in item:
            raise UsageError(f"with --answer give bare guesses, not {item.split('=')[0]}=...: the feedback is computed")
        row = parse_guess(game, item)
        steps.append((row, game.code(row, target)))
    return steps


def cost_text(g: GuessReview) -> str:
    """Return a guess's cost as shown: "0", "0.125", "~0.004" (not proven), ">=0.0004" (at least),
    "≈0.9" (from an estimate)."""
    kind = g.cost_kind
    if kind is None:
        return "?"
    if g.cost == 0.0 and kind == PROVEN:
        return "0"
    digits = 4 if 0 < g.cost < 0.01 else 3
    return MARKS[kind] + f"{g.cost:.{digits}f}"


def lines(review: Review, limit: int | None = None) -> list[str]:
    """Return the review's table, its notes and the summary with the share line."""
    width = max([len(g.guess) for g in review.guesses] + [len(g.best_guess) for g in review.guesses] + [5])
    fb = max([len(g.feedback) for g in review.guesses] + [8])
    result = f"solved in {len(review.guesses)}" if review.won else \
        f"lost: not solved in {len(review.guesses)}" if review.lost else f"not solved after {len(review.guesses)}"
    out = [f"Review of {review.title}: {result}" + (f" of {limit} guesses" if limit else " guesses"), "",
           f"{'#':>2}  {'guess':<{width}}  {'feedback':<{fb}}  {'before':>6}  {'after':>5}  {'expected':>8}  "
           f"{'luck':>4}  {'to go':>7}  {'best':<{width}}  {'to go':>7}  {'cost':>8}  {'skill':>5}"]
    for g in review.guesses:
        mine = g.player.text() if g.player is not None else "?"
        best = g.best.text() if g.best is not None else "?"
        luck = "-" if g.decided else f"{g.luck:.0f}"
        skill = "-" if g.skill is None else f"{g.skill:.0f}"
        out.append(f"{g.number:>2}  {g.guess:<{width}}  {g.feedback:<{fb}}  {g.before:>6}  {g.after:>5}  "
                   f"{g.expected_after:>8.1f}  {luck:>4}  {mine:>7}  {g.best_guess:<{width}}  {best:>7}  "
                   f"{cost_text(g):>8}  {skill:>5}")
    out += ["", "before/after: candidates before and after the guess; expected: the candidates it was expected to "
            "leave; luck: 0-100, 50 an average draw; to go: expected guesses to finish with the guess, this one "
            "included (yours, then the best guess's): proven unless marked ~ (a strategy found: at most this), "
            ">= (at least this) or ≈ (a quick estimate from the classes the guess leaves); cost: the difference, "
            "0 for an optimal guess; skill: 100 x 2^(-cost / 0.25), 100 for an optimal guess, 50 for a quarter "
            "of a guess lost."]
    approx = "" if review.exact else " (not every value proven: see the marks)"
    luck = f", luck {review.luck}/100" if review.luck is not None else ""
    out += ["", f"Guesses lost: {review.cost:.3f}{approx}. Skill {review.skill}/100{luck}.",
            "Skill: the mean of your guesses' skill, over the guesses made with more than one candidate left "
            "(the first included) and any that missed a known answer; luck: the mean of the guesses' luck.",
            "", review.share(limit)]
    return out
