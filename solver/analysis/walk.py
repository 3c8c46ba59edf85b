"""Playing a strategy over many targets at once, and the tree of states it goes through.

`walk` plays every given target from a solver state, grouping the targets that share a history,
so each state's guess is looked up (on the precomputed tree) or computed (live) once. The result
is a `NodeArrays` table in the layout of a tree artifact, which `NodeArrays.from_tree` also builds from a
loaded tree: the `tree`, `bench` and `openers` commands read both the same way.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from solver.analysis.notation import check_allowed, plural
from solver.core.runtime import Solver, State, Tree
from solver.core.game import Game

# up to this many targets the rule runs in Python: no Numba load for small splits; up to 8 times as many
# while the kernels are not loaded yet (loading them takes 0.2-0.3 s: a review on the tree need not pay it)
PYTHON_RULE_LIMIT = 512
# candidates: above this, an off-tree state's subtree is not played out live (each of its states is a live
# search: cards n=4 after a first guess, 17550 candidates, took minutes; Mastermind's whole game, 1296,
# seconds)
PLAY_OUT_LIMIT = 2000


class PlayOutTooLarge(ValueError):
    """An off-tree subtree too large to play out live; the message says how large and what to ask instead."""


def play_out(solver: Solver, state: State, limit: int = PLAY_OUT_LIMIT) -> "NodeArrays":
    """Return `walk(solver, state)`, the subtree the solver plays from an off-tree `state`, unless it has
    more than `limit` candidates: PlayOutTooLarge then."""
    if state.remaining > limit:
        raise PlayOutTooLarge(f"{state.remaining} candidates after {state.history_text()} are too many to play "
                              f"out live (at most {limit}): give one more GUESS=FEEDBACK to see the tree below it")
    return walk(solver, state)


@dataclass
class NodeArrays:
    """States in which a guess is played: per-node arrays, parents before their children.

    `code` is the feedback that led from the parent (-1 at a root); `subtree` the guesses needed
    to finish every candidate of the node, counted from its own guess.
    """

    parent: np.ndarray
    code: np.ndarray
    depth: np.ndarray
    guess: np.ndarray
    remaining: np.ndarray
    subtree: np.ndarray
    seconds: float = 0.0  # wall time of the walk that built them
    _kids: dict[int, list[int]] | None = field(default=None, repr=False)

    @classmethod
    def from_tree(cls, tree: Tree) -> "NodeArrays":
        """Return the nodes of a loaded tree artifact."""
        return cls(tree.parent, tree.feedback, tree.depth.astype(np.int64), tree.guess, tree.remaining, tree.subtree)

    def children(self, node: int) -> list[int]:
        """Return the children of `node`, in feedback-code order."""
        if self._kids is None:
            kids: dict[int, list[int]] = {}
            for child in np.argsort(self.parent, kind="stable")[1:].tolist():
                kids.setdefault(int(self.parent[child]), []).append(child)
            self._kids = {k: sorted(v, key=lambda c: self.code[c]) for k, v in kids.items()}
        return self._kids.get(node, [])

    def below(self, node: int) -> list[int]:
        """Return `node` and all its descendants, parents first."""
        out, todo = [], [node]
        while todo:
            current = todo.pop()
            out.append(current)
            todo.extend(reversed(self.children(current)))
        return out

    def expected(self, node: int) -> float:
        """Return the average number of guesses of the node's candidates, counting its own guess."""
        return float(self.subtree[node]) / float(self.remaining[node])

    def worst(self, node: int) -> int:
        """Return the most guesses any candidate of the node needs, counting its own guess."""
        return int(max(self.depth[n] for n in self.below(node)) - self.depth[node] + 1)

    def histogram(self, node: int = 0) -> dict[int, int]:
        """Return {guesses: targets} for the candidates of `node` (guesses counted from its guess)."""
        counts: dict[int, int] = {}
        for n in self.below(node):
            solved = int(self.remaining[n]) - sum(int(self.remaining[c]) for c in self.children(n))
            if solved:
                guesses = int(self.depth[n] - self.depth[node]) + 1
                counts[guesses] = counts.get(guesses, 0) + solved
        return dict(sorted(counts.items()))

    def guesses_per_target(self, node: int = 0) -> dict[int, int]:
        """Return {target row: guesses} for the candidates of `node` (guesses counted from its guess).

        A node finishes at most one candidate, its own guess: when no child takes a candidate away.
        """
        out: dict[int, int] = {}
        for n in self.below(node):
            if int(self.remaining[n]) > sum(int(self.remaining[c]) for c in self.children(n)):
                out[int(self.guess[n])] = int(self.depth[n] - self.depth[node]) + 1
        return out


def start_state(solver: Solver) -> State:
    """Return the state before the first guess (no guess is computed yet)."""
    return State(solver, (), 0 if solver.tree is not None else None)


def replay(solver: Solver, steps: Sequence[tuple[int, int]]) -> State:
    """Return the state after (guess row, code) steps; ValueError if a guess is forbidden or a
    feedback impossible (the message names the history)."""
    state = start_state(solver)
    for number, (row, code) in enumerate(steps):
        if state.history and state.history[-1][1] == solver.game.win_code:
            raise ValueError(f"step {number + 1} comes after a win")
        check_allowed(solver.game, state.history, row)
        state = solver.advance(state, row, code)
    return state


def feedback_codes(game: Game, row: int, targets: np.ndarray) -> np.ndarray:
    """Return the feedback codes (int64) of guess row `row` against target rows `targets`."""
    if targets.size <= PYTHON_RULE_LIMIT or (targets.size <= 8 * PYTHON_RULE_LIMIT
                                             and "solver.core.scoring" not in sys.modules):
        return np.array([game.code(row, t) for t in targets.tolist()], dtype=np.int64)
    from solver.core import scoring  # defers Numba to the compute path

    return scoring.feedback_table(game, [row], targets)[0].astype(np.int64)


def walk(solver: Solver, state: State, targets: np.ndarray | None = None, first: int | None = None,
         on_solved: Callable[[int], None] | None = None) -> NodeArrays:
    """Return the nodes visited when every target (guess rows; default: the state's candidates)
    is played from `state` by the solver's strategy; `first` forces the first guess; `on_solved(n)`
    is told as each node's guess finishes n of the played targets (for progress).

    The guesses are the solver's: its tree while the history follows it, else its live choice
    within its time budget, the opener book's one guess in (`Solver.choose_state`, as `Solver.guess_row`).
    Candidates are split at each node by the feedback of its guess instead of being filtered
    again from the whole history.
    """
    started = time.perf_counter()
    game, tree = solver.game, solver.tree
    positions = state.candidate_positions
    rows = game.target_index[positions]
    playing = np.ones(rows.size, dtype=bool) if targets is None else np.isin(rows, targets)
    columns: dict[str, list[int]] = {k: [] for k in ("parent", "code", "depth", "guess", "remaining", "subtree")}

    def visit(history, node, positions, playing, parent: int, code: int, forced: int | None) -> int:
        if forced is not None:
            row = forced
        elif node is not None:
            row = int(tree.guess[node])
        else:
            greedy, exact, _ = solver.choose_state(positions, history)
            row = exact.guess if exact is not None else greedy.guess
        me = len(columns["parent"])
        count = int(playing.sum())
        for key, value in zip(columns, (parent, code, len(history), row, count, 0)):
            columns[key].append(value)
        codes = feedback_codes(game, row, game.target_index[positions])
        if on_solved is not None and (won := int((codes[playing] == game.win_code).sum())):
            on_solved(won)
        total = count
        on_tree = node is not None and row == tree.guess[node]
        for value in np.unique(codes[playing]).tolist():
            if value == game.win_code:
                continue
            keep = codes == value
            child = visit(history + ((row, value),), tree.child(node, value) if on_tree else None,
                          positions[keep], playing[keep], me, value, None)
            total += columns["subtree"][child]
        columns["subtree"][me] = total
        return me

    node = state.node if tree is not None else None
    visit(state.history, node, positions, playing, -1, -1, first)
    arrays = {k: np.array(v, dtype=np.int64) for k, v in columns.items()}
    return NodeArrays(**arrays, seconds=time.perf_counter() - started)


def play(solver: Solver, answer: int, limit: int = 100) -> list[tuple[int, int]]:
    """Return the (guess row, code) steps the solver plays against target row `answer`."""
    game, state, steps = solver.game, start_state(solver), []
    while len(steps) < limit:
        row = solver.guess_row(state)
        code = game.code(row, answer)
        steps.append((row, code))
        if code == game.win_code:
            return steps
        state = solver.advance(state, row, code)
    raise ValueError(f"no win within {limit} guesses against {game.labels[answer]}")


def verdict(game: Game, guesses: int) -> str:
    """Return the last line of a game won in `guesses`: a win only within the game's guess limit
    (`Game.max_guesses`, Wordle's 6), else "Not solved within 6 (took 9)."."""
    limit = game.max_guesses
    if limit is not None and guesses > limit:
        return f"Not solved within {limit} (took {guesses})."
    return f"You got it in {plural(guesses, 'guess', 'guesses')}!"
