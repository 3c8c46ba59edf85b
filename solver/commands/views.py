"""The `tree` command: the node a history reaches, as a summary, an indented tree or Graphviz.

On the precomputed tree the node is read from the artifact; a history that leaves the tree (or a
game without a tree) is played out live by `walk.walk`, which gives the same per-node figures.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from solver.commands.formats import history_text, label_list, show_feedback
from solver.commands.walk import Nodes, replay, walk
from solver.engine import Solver, State


@dataclass
class View:
    """The node a history reaches: its state, the nodes around it and where they come from."""

    solver: Solver
    state: State
    nodes: Nodes
    node: int
    live: bool  # True: computed live (off the tree, or no tree for this game)

    @property
    def label(self) -> str:
        """Return the text of the guess to play at the node."""
        return self.solver.game.labels[int(self.nodes.guess[self.node])]


def locate(solver: Solver, steps: Sequence[tuple[int, int]]) -> View:
    """Return the view of the node reached by `steps` of (guess row, code)."""
    state = replay(solver, steps)
    if state.node is not None and solver.tree is not None:
        return View(solver, state, Nodes.from_tree(solver.tree), state.node, live=False)
    return View(solver, state, walk(solver, state), 0, live=True)


def summary(view: View, show: int) -> list[str]:
    """Return the lines describing the node: source, guess, candidates (at most `show`), guesses."""
    game, nodes, node = view.solver.game, view.nodes, view.node
    lines = [f"{game.key} after {history_text(game, view.state.history)}"]
    if view.state.history and view.state.history[-1][1] == game.win_code:
        return lines + [f"already solved: the answer is {game.labels[view.state.history[-1][0]]}"]
    if view.solver.tree is None and view.solver.tree_error:
        lines.append(f"tree file unusable, computed live: {view.solver.tree_error}")
    elif view.solver.tree is None:
        lines.append("no precomputed tree file for this game: computed live")
    elif view.live:
        lines.append("this history leaves the precomputed tree: computed live")
    else:
        lines.append(f"tree node {node} at depth {int(nodes.depth[node])}")
    remaining = int(nodes.remaining[node])
    lines.append(f"guess to play: {view.label}")
    shown = view.state.candidates[:show] if show else view.state.candidates
    more = f" (first {len(shown)})" if len(shown) < remaining else ""
    lines.append(f"candidates: {remaining}{more}: {label_list(game, shown)}" if shown else f"candidates: {remaining}")
    lines.append(f"guesses from here, this one included: {nodes.expected(node):.3f} expected, "
                 f"{nodes.worst(node)} at worst")
    return lines


def _node_text(view: View, n: int) -> str:
    nodes = view.nodes
    return (f"{view.solver.game.labels[int(nodes.guess[n])]}  ({int(nodes.remaining[n])} left, "
            f"{nodes.expected(n):.2f} expected, {nodes.worst(n)} worst)")


def indented(view: View, levels: int) -> list[str]:
    """Return the node and `levels` levels below it, one line per node: "FEEDBACK -> GUESS (...)"."""
    game, nodes = view.solver.game, view.nodes
    lines = [_node_text(view, view.node)]

    def down(node: int, level: int) -> None:
        for child in nodes.children(node):
            lines.append("  " * level + f"{show_feedback(game, int(nodes.code[child]))} -> {_node_text(view, child)}")
            if level < levels:
                down(child, level + 1)

    if levels > 0:
        down(view.node, 1)
    return lines


def dot(view: View, levels: int) -> str:
    """Return Graphviz source of the node and `levels` levels below it."""
    game, nodes = view.solver.game, view.nodes
    out = ["digraph deduce {", '  node [shape=box, fontname="monospace"];']

    def add(node: int, level: int) -> None:
        out.append(f'  n{node} [label="{game.labels[int(nodes.guess[node])]}\\n{int(nodes.remaining[node])} left"];')
        if level >= levels:
            return
        for child in nodes.children(node):
            add(child, level + 1)
            out.append(f'  n{node} -> n{child} [label="{show_feedback(game, int(nodes.code[child]))}"];')

    add(view.node, 0)
    out.append("}")
    return "\n".join(out) + "\n"
