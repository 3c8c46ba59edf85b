"""`openers --exact`: the exact total guesses of chosen openers, or of the best ones by score.

The search itself is `pipeline.search.openers` (the exact branch and bound of `pipeline.search`),
imported on this path only. Openers come from `--words` (comma-separated guesses, any case) or
are the `--top` best by the greedy criterion (expected remaining candidates).
"""
from __future__ import annotations

from typing import Callable

from solver.game import Game
from solver.games import UsageError


def check_options(exact: bool, cutoff: int | None) -> None:
    """Raise ValueError for option combinations that make no sense."""
    if cutoff is not None and not exact:
        raise UsageError("--cutoff needs --exact")
    if cutoff is not None and cutoff < 1:
        raise UsageError(f"--cutoff must be at least 1, got {cutoff}")


def parse_words(game: Game, text: str) -> list[int]:
    """Return the guess rows of comma-separated guesses (any case, duplicates dropped, order kept);
    ValueError naming every one that is not an allowed guess of `game`."""
    from solver.commands.formats import parse_guess

    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        raise UsageError("--words names no guess")
    rows, bad = [], []
    for part in parts:
        try:
            rows.append(parse_guess(game, part))
        except ValueError:
            bad.append(part.upper())
    if bad:
        what = "words" if game.name == "wordle" else "guesses"
        raise ValueError(f"unknown {what} for {game.title} in --words: {', '.join(bad)}")
    return list(dict.fromkeys(rows))


def exact(game: Game, rows: list[int] | None, top: int, cutoff: int | None = None, jobs: int = 2,
          progress: Callable | None = None) -> list:
    """Return the `OpenerTotal`s of `rows` (default: the `top` best by score), best first."""
    from pipeline.search.openers import cheap_ranking, exact_openers, table_for

    table = table_for(game)
    if rows is None:
        rows = cheap_ranking(game, table, top)
    return exact_openers(game, table, rows, cutoff=cutoff, jobs=jobs, progress=progress)


def line(game: Game, result) -> str:
    """Return one opener's line: ``SALET 7920``, ``TRACE >= 7921`` (cut off), or that no tree
    opening with it finishes within the guess limit."""
    if not result.finishes:
        from pipeline.search.openers import default_options

        return f"{result.label} none within {default_options(game).max_guesses} guesses"
    return f"{result.label} {'' if result.proven_exact else '>= '}{result.total}"


def lines(game: Game, results: list) -> list[str]:
    """Return the output lines of `exact` results, one per opener."""
    return [line(game, r) for r in results]
