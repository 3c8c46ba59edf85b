"""The lines of `deduce review`: a table of the guesses and the summary (`solver.analysis.review`), of one board
or several."""
from __future__ import annotations

from typing import Sequence

from solver.analysis.notation import parse_answer, parse_guess, parse_step, tokens
from solver.analysis.several_boards import show_board_feedback
from solver.analysis.review import BoardsReview, Review
from solver.analysis.values import ToGo
from solver.core.game import Game
from solver.core.registry import UsageError


def answer_row(game: Game, answer: str) -> int:
    """Return the target row of an answer given as `--answer` text; ValueError if it is not an answer."""
    return parse_answer(game, tokens(answer) if game.name in ("battleship", "cards") else [answer])


def bare_guesses(game: Game, items: Sequence[str]) -> list[int]:
    """Return the guess rows of bare guesses (a game of several boards, reviewed with its answers); UsageError
    for one given with feedback."""
    for item in items:
        if "=" in item:
            raise UsageError(f"with --boards give bare guesses and --answer, not {item.split('=')[0]}=...: the "
                             "feedback of each board is computed")
    return [parse_guess(game, item) for item in items]


def parse_game(game: Game, items: Sequence[str], answer: str | None) -> list[tuple[int, int]]:
    """Return the (guess row, code) steps of a game given as GUESS=FEEDBACK items, or as bare guesses
    with the `answer` (their feedback computed); ValueError naming what is wrong."""
    if answer is None:
        bare = [item for item in items if "=" not in item]
        if bare:
            raise UsageError(f"{bare[0]} has no feedback: give the guesses as GUESS=FEEDBACK, or bare guesses with "
                             "--answer WORD (their feedback is computed)")
        return [parse_step(game, item) for item in items]
    target = answer_row(game, answer)
    steps = []
    for item in items:
        if "=" in item:
            raise UsageError(f"with --answer give bare guesses, not {item.split('=')[0]}=...: the feedback is computed")
        row = parse_guess(game, item)
        steps.append((row, game.code(row, target)))
    return steps


def value_text(value: ToGo | None) -> str:
    """Return a value as the review's table shows it: the figure with its mark, and "-N" when N candidates
    cannot be finished within the guess limit."""
    if value is None:
        return "?"
    return value.text() + (" " + value.short_limit() if value.lost else "")


LEGEND = ("before/after: candidates before and after the guess; expected: the candidates it was expected to "
          "leave; luck: 0-100, 50 an average draw; to go: expected guesses to finish with the guess, this one "
          "included (yours, then the best guess's): proven unless marked ~ (a strategy found: at most this), "
          ">= (at least this) or ≈ (a quick estimate from the classes the guess leaves); -N: N answers cannot "
          "be finished within the guess limit (-N+: at least N), the figure then counting the game played on past "
          "it; cost: the difference, 0 for an optimal guess; skill: 100 x 2^(-cost / 0.25), 100 for an optimal "
          "guess, 50 for a quarter of a guess lost.")
SCORES = ("Skill: the mean of your guesses' skill, over the guesses made with more than one candidate left "
          "(the first included) and any that missed a known answer; luck: the mean of the guesses' luck.")
WORDS_SHOWN = 60  # candidates listed per guess with --words (then "... and N more")


def table(review: Review) -> list[str]:
    """Return the table of a review's guesses: each against the best guess, with its cost, skill and luck."""
    width = max([len(g.guess) for g in review.guesses] + [len(g.best_guess) for g in review.guesses] + [5])
    fb = max([len(g.feedback) for g in review.guesses] + [8])
    mine = [value_text(g.player) for g in review.guesses]
    best = [value_text(g.best) for g in review.guesses]
    go = max(len(text) for text in mine + best + ["to go  "])
    out = [f"{'#':>2}  {'guess':<{width}}  {'feedback':<{fb}}  {'before':>6}  {'after':>5}  {'expected':>8}  "
           f"{'luck':>4}  {'to go':>{go}}  {'best':<{width}}  {'to go':>{go}}  {'cost':>8}  {'skill':>5}"]
    for g, my_value, best_value in zip(review.guesses, mine, best):
        luck = "-" if g.decided else f"{g.luck:.0f}"
        skill = "-" if g.skill is None else f"{g.skill:.0f}"
        out.append(f"{g.number:>2}  {g.guess:<{width}}  {g.feedback:<{fb}}  {g.before:>6}  {g.after:>5}  "
                   f"{g.expected_after:>8.1f}  {luck:>4}  {my_value:>{go}}  {g.best_guess:<{width}}  "
                   f"{best_value:>{go}}  "
                   f"{g.cost_text():>8}  {skill:>5}")
    return out


def limit_notes(review: Review, limit: int | None) -> list[str]:
    """Return a line for each guess (the player's or the best) that cannot finish every candidate within the
    game's guess `limit`, saying how many it loses."""
    notes = []
    if limit is None:
        return notes
    for g in review.guesses:
        for who, value in ((g.guess, g.player), (f"the best, {g.best_guess}", g.best)):
            if value is not None and value.lost and (who == g.guess or g.best_guess != g.guess):
                notes.append(f"{g.number:>2}  {who}: {value.limit_text(limit)}")
    if not notes:
        return []
    return ["", "Guesses that cannot finish every candidate within the limit (valued playing on past it):", *notes]


def side_by_side(mine: Sequence[str], theirs: Sequence[str], title: str) -> list[str]:
    """Return two games as columns under `title`: the player's and the solver's, one guess a line."""
    width = max(len(text) for text in list(mine) + ["you"])
    out = ["", title, f"{'#':>2}  {'you':<{width}}  the solver"]
    for number in range(max(len(mine), len(theirs))):
        a = mine[number] if number < len(mine) else ""
        b = theirs[number] if number < len(theirs) else ""
        out.append(f"{number + 1:>2}  {a:<{width}}  {b}".rstrip())
    return out


def word_lines(review: Review) -> list[str]:
    """Return the candidates before each guess (WORDS_SHOWN at most a line)."""
    out = ["", "The answers possible before each guess:"]
    for g in review.guesses:
        listed = " ".join(g.candidates[:WORDS_SHOWN])
        more = f" ... and {len(g.candidates) - WORDS_SHOWN} more" if len(g.candidates) > WORDS_SHOWN else ""
        out.append(f"{g.number:>2}  ({g.before}) {listed}{more}")
    return out


def lines(review: Review, limit: int | None = None, words: bool = False) -> list[str]:
    """Return the review's table, its notes, the solver's own game for the same answer, the candidates before
    each guess (`words`) and the summary with the share line."""
    result = f"solved in {len(review.guesses)}" if review.won else \
        f"lost: not solved in {len(review.guesses)}" if review.lost else f"not solved after {len(review.guesses)}"
    out = [f"Review of {review.title}: {result}" + (f" of {limit} guesses" if limit else " guesses"), ""]
    out += table(review) + limit_notes(review, review.limit)
    if review.solver_game:
        out += side_by_side([f"{g.guess} {g.feedback}" for g in review.guesses],
                            [f"{guess} {feedback}" for guess, feedback in review.solver_game_shown()],
                            f"Your game and the solver's for the answer {review.answer}:")
    if words:
        out += word_lines(review)
    approx = "" if review.exact else " (not every value proven: see the marks)"
    luck = f", luck {review.luck}/100" if review.luck is not None else ""
    return out + ["", LEGEND, "", f"Guesses lost: {review.cost_text()}{approx}. Skill {review.skill}/100{luck}.",
                  SCORES, "", review.summary_line(limit)]


def board_lines(review: BoardsReview, words: bool = False) -> list[str]:
    """Return the review of a game of several boards: each board's table and notes (headed by its answer), the
    player's and the solver's games side by side, and the summary with the share line."""
    count = len(review.boards)
    result = "solved" if review.won else "lost: not solved"
    out = [f"Review of wordle on {count} boards: {result} in {review.guesses} of {review.limit} guesses",
           "Each board is reviewed as a Wordle game of its own over the guesses made while it was open: the best "
           "guess is the best for that board alone (no optimum of several boards is known), and a board's guesses "
           "past its 6th are valued playing on past a single board's limit."]
    for number, board in enumerate(review.boards, start=1):
        state = f"solved in {len(board.guesses)}" if board.won else f"not solved in {len(board.guesses)}"
        elsewhere = [str(number) for number in review.elsewhere(number - 1)]
        out += ["", f"Board {number}, answer {board.answer}: {state}", *table(board),
                *limit_notes(board, board.game.max_guesses)]
        if elsewhere:
            out.append(f"   guess{'es' if len(elsewhere) > 1 else ''} {', '.join(elsewhere)}: this board's answer "
                       "was known, the guess played for another board: not counted here")
        if words:
            out += word_lines(board)
    game = review.boards[0].game
    played = max(review.boards, key=lambda b: len(b.guesses)).guesses
    mine = [g.guess for g in played]
    theirs = [f"{game.labels[row]}  {show_board_feedback(game, codes)}" for row, codes in review.solver_game]
    out += side_by_side(mine, theirs, f"Your game and the solver's for the answers {', '.join(review.answers)} "
                                      f"(you: {review.guesses} guesses, the solver: {len(review.solver_game)}):")
    approx = "" if review.exact else " (not every value proven: see the marks)"
    luck = f", luck {review.luck}/100" if review.luck is not None else ""
    return out + ["", LEGEND, "", f"Guesses lost, every board: {review.cost_text()}{approx}. Skill "
                  f"{review.skill}/100{luck}.", SCORES + " Every board's guesses count, but those played for "
                  "another board once this one's answer was known.", "", review.summary_line()]
