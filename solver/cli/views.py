"""The `tree` command: the node a history reaches, as a summary, an indented tree or Graphviz.

On the precomputed tree the node is read from the artifact; a history that leaves the tree (or a
game without a tree) is played out live by `walk.walk`, which gives the same per-node figures.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from solver.analysis.notation import history_text, label_list, show_feedback
from solver.analysis.values import figure
from solver.analysis.walk import NodeArrays, play_out, replay
from solver.core.runtime import Solver, State
from solver.core.registry import UsageError


@dataclass
class View:
    """The node a history reaches: its state, the nodes around it and where they come from."""

    solver: Solver
    state: State
    nodes: NodeArrays
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
        return View(solver, state, NodeArrays.from_tree(solver.tree), state.node, live=False)
    return View(solver, state, play_out(solver, state), 0, live=True)


def summary(view: View, show: int) -> list[str]:
    """Return the lines describing the node: source, guess, candidates (at most `show`), guesses."""
    game, nodes, node = view.solver.game, view.nodes, view.node
    history = view.state.history
    lines = [f"{game.title} {'after ' + history_text(game, history) if history else 'at the start'}"]
    if view.state.history and view.state.history[-1][1] == game.win_code:
        return lines + [f"already solved: the answer is {game.labels[view.state.history[-1][0]]}"]
    if view.solver.tree is None and view.solver.tree_error:
        lines.append(f"tree file unusable, computed live: {view.solver.tree_error}")
    elif view.solver.tree is None:
        lines.append("no precomputed tree file for this game: computed live")
    elif view.live:
        first = {"book": "its guess from the opener book, computed ahead", "rule": "its guess plain (one or two "
                 "candidates)"}.get(view.state.source, "its guess computed live")
        lines.append(f"this history leaves the precomputed tree: {first}, the guesses below it played out live "
                     "(the solver's strategy: at most these figures)")
    else:
        lines.append(f"tree node {node} at depth {int(nodes.depth[node])}")
    remaining = int(nodes.remaining[node])
    lines.append(f"guess to play: {view.label}")
    shown = view.state.candidates[:show] if show else view.state.candidates
    more = f" (first {len(shown)})" if len(shown) < remaining else ""
    lines.append(f"candidates: {remaining}{more}: {label_list(game, shown)}" if shown else f"candidates: {remaining}")
    lines.append(f"guesses from here, this one included: {figure(nodes.expected(node))} expected, "
                 f"{nodes.worst(node)} at worst")
    return lines


def _node_text(view: View, n: int) -> str:
    nodes = view.nodes
    return (f"{view.solver.game.labels[int(nodes.guess[n])]}  ({int(nodes.remaining[n])} left, "
            f"{figure(nodes.expected(n))} expected, {nodes.worst(n)} worst)")


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


TILE_COLOURS = {"G": "#6aaa64", "Y": "#c9b458", "R": "#787c7e"}  # Wordle's own green, yellow and grey


def _edge_label(game, code: int) -> str:
    """Return a Graphviz edge label: Wordle marks as a row of coloured tiles, else the feedback text."""
    text = show_feedback(game, code)
    if game.name != "wordle":
        return f'"{text}"'
    cells = "".join(f'<td bgcolor="{TILE_COLOURS[mark]}" width="10" height="10"></td>' for mark in text)
    return f'<<table border="0" cellspacing="1" cellpadding="0"><tr>{cells}</tr></table>>'


def dot(view: View, levels: int, max_nodes: int = 200) -> str:
    """Return Graphviz source of the node and `levels` levels below it, left to right.

    Nodes are taken level by level until `max_nodes` (counting the "N more" node of a parent whose
    children did not all fit; the graph's label counts what was left out), so a wide tree stays a
    readable picture.
    """
    if max_nodes < 1:
        raise UsageError(f"--max-nodes must be at least 1, got {max_nodes}")
    game, nodes = view.solver.game, view.nodes
    out = ["digraph deduce {", "  rankdir=LR;", '  node [shape=box, fontname="monospace"];']

    def node_line(node: int) -> str:
        return f'  n{node} [label="{game.labels[int(nodes.guess[node])]}\\n{int(nodes.remaining[node])} left"];'

    out.append(node_line(view.node))
    shown, hidden, level, frontier = 1, 0, 0, [view.node]
    while frontier and level < levels:
        below = []
        for parent in frontier:
            children = list(nodes.children(parent))
            room = max_nodes - shown
            if room <= 0:
                hidden += len(children)
                continue
            fit = children if len(children) <= room else children[:room - 1]
            for child in fit:
                out.append(node_line(child))
                out.append(f"  n{parent} -> n{child} [label={_edge_label(game, int(nodes.code[child]))}];")
            below += fit
            shown += len(fit)
            if len(fit) < len(children):
                out.append(f'  more{parent} [label="{len(children) - len(fit)} more", shape=plaintext];')
                out.append(f"  n{parent} -> more{parent} [style=dashed];")
                shown += 1
        frontier, level = below, level + 1
    if hidden:
        out.append(f'  label="and at least {hidden} more nodes (--max-nodes {max_nodes})"; labelloc=b;')
    out.append("}")
    return "\n".join(out) + "\n"
