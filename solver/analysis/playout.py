"""Playing every target of a game (or a sample) with its solver: guesses per target, and openers compared.

Targets are played together by `walk.walk` (one lookup or live computation per state, shared by
the targets that reach it). `openers` forces each of the best first guesses (by expected remaining
candidates) and lets the solver finish: the tree when the opener is the tree's, live otherwise.
`deduce bench` and `deduce openers` print these (`solver.cli.bench`); the exact totals of openers
(`openers --exact`) come from the pipeline (`pipeline.builders.opener_ranking`).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from solver.analysis.several_boards import play as play_boards
from solver.analysis.scores import Scores
from solver.analysis.walk import start_state, walk
from solver.core.game import Game
from solver.core.registry import UsageError
from solver.core.runtime import get_solver
from solver.games.boards import check_count, guesses_allowed


@dataclass
class Result:
    """Guesses per target of one run: {guesses: number of targets}, its wall time, and the targets
    that took the most guesses."""

    game: Game
    counts: dict[int, int]
    seconds: float
    source: str  # how the guesses were chosen
    hardest: tuple[str, ...] = ()  # labels of every target needing `worst` guesses, in the game's order
    sampled_from: int | None = None  # with --sample: the number of targets the sample was drawn from
    title: str = ""  # what was played, if not `game.title` (several boards)
    limit: int | None = None  # the guesses allowed, if not `game.max_guesses` (several boards)
    unit: str = "target"  # what each count counts: a target, or a set of answers (several boards)

    @property
    def over_limit(self) -> int | None:
        """Return the targets needing more guesses than the game allows (None: the game has no limit)."""
        limit = self.allowed
        return None if limit is None else sum(n for g, n in self.counts.items() if g > limit)

    @property
    def allowed(self) -> int | None:
        """Return the guesses the game allows (None: no limit)."""
        return self.limit if self.limit is not None else self.game.max_guesses

    @property
    def name(self) -> str:
        return self.title or self.game.title

    @property
    def targets(self) -> int:
        return sum(self.counts.values())

    @property
    def total(self) -> int:
        return sum(g * n for g, n in self.counts.items())

    @property
    def mean(self) -> float:
        return self.total / self.targets

    @property
    def std(self) -> float:
        """Return the population standard deviation of the guesses per target."""
        mean = self.mean
        return math.sqrt(sum(n * (g - mean) ** 2 for g, n in self.counts.items()) / self.targets)

    @property
    def worst(self) -> int:
        return max(self.counts)


def run(game: Game, sample: int | None = None, seed: int = 0, first: int | None = None, on_solved=None) -> Result:
    """Play every target of `game` (or a random `sample` of them); `first` forces the opener;
    `on_solved(n)` is told as targets finish (for progress)."""
    solver = get_solver(game)
    targets = game.target_index
    if sample is not None:
        if sample < 1:
            raise UsageError(f"--sample must be at least 1, got {sample}")
        rng = np.random.default_rng(seed)
        targets = np.sort(rng.choice(targets, size=min(sample, targets.size), replace=False))
    nodes = walk(solver, start_state(solver), targets, first, on_solved)
    source = "precomputed tree" if solver.tree is not None else (
        f"live computation (tree file unusable: {solver.tree_error})" if solver.tree_error
        else "live computation (no tree file)")
    if first is not None and solver.tree is not None and first != solver.tree.guess[0]:
        source = "forced opener, then live computation"
    guesses = nodes.guesses_per_target(0)
    worst = max(guesses.values())
    hardest = tuple(game.labels[row] for row in sorted(guesses) if guesses[row] == worst)
    return Result(game, nodes.histogram(0), nodes.seconds, source, hardest,
                  game.n_targets if sample is not None else None)


BOARD_SETS = 1000  # random sets of answers `run_boards` plays unless told a sample


def run_boards(game: Game, count: int, sample: int | None = None, seed: int = 0, on_solved=None) -> Result:
    """Play `sample` (default BOARD_SETS) random sets of `count` different answers on as many boards with
    the several-boards solver (`solver.games.boards`); `on_solved(1)` after each set (progress). The counts
    are per set: the guesses until every board is solved."""
    sets = BOARD_SETS if sample is None else sample
    if sets < 1:
        raise UsageError(f"--sample must be at least 1, got {sets}")
    check_count(count)
    rng = np.random.default_rng(seed)
    began, lengths, played = time.perf_counter(), [], []
    for _ in range(sets):
        answers = [int(game.target_index[i]) for i in rng.choice(game.n_targets, count, replace=False)]
        lengths.append(len(play_boards(game, answers)))
        played.append(answers)
        if on_solved is not None:
            on_solved(1)
    worst = max(lengths)
    hardest = tuple("+".join(game.labels[row] for row in answers)
                    for answers, n in zip(played, lengths) if n == worst)
    counts = {int(n): int(c) for n, c in enumerate(np.bincount(lengths)) if c}
    return Result(game, counts, time.perf_counter() - began, "the several-boards solver, live", hardest, None,
                  f"{game.title} on {count} boards", guesses_allowed(count), "answer set")


@dataclass
class Opener:
    """An opening guess: its figures at the start and the result of playing every target after it."""

    label: str
    expected: float
    entropy: float
    result: Result
    is_tree_opener: bool


def openers(game: Game, top: int, rows: list[int] | None = None, on_done=None) -> list[Opener]:
    """Return the `top` openers by expected remaining candidates, or the given guess `rows`, plus the
    tree's own opener (for comparison), sorted by total guesses; `on_done(1)` after each (progress)."""
    if top < 1:
        raise UsageError(f"--top must be at least 1, got {top}")
    tree_opener = _tree_opener(game)
    scores = Scores.compute(game, np.arange(game.n_targets, dtype=np.int64), every_guess=True)
    if rows is not None:
        wanted = set(opener_rows(game, rows))
        ranked = [s for s in scores.top(game.n_guesses) if s.row in wanted]
    else:
        ranked = scores.top(top)
        if tree_opener is not None and tree_opener not in [s.row for s in ranked]:
            ranked += [s for s in scores.top(game.n_guesses) if s.row == tree_opener]  # for comparison
    out = []
    for s in ranked:
        out.append(Opener(s.label, s.expected, s.entropy, run(game, first=s.row), s.row == tree_opener))
        if on_done is not None:
            on_done(1)
    return sorted(out, key=lambda o: (o.result.total, o.expected))


def _tree_opener(game: Game) -> int | None:
    tree = get_solver(game).tree
    return int(tree.guess[0]) if tree is not None else None


def opener_rows(game: Game, rows: list[int]) -> list[int]:
    """Return the openers `openers` plays for the given guess rows: each once, then the tree's own
    opener when it is not among them (for comparison)."""
    out = list(dict.fromkeys(rows))
    tree_opener = _tree_opener(game)
    return out + [tree_opener] if tree_opener is not None and tree_opener not in out else out
