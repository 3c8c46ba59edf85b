"""A decision tree under construction: its nodes in depth-first order, as the tree artifacts store them."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Nodes:
    """Tree nodes in depth-first order (node id = position); parent -1 and feedback -1 at the root."""

    parent: list[int] = field(default_factory=list)
    feedback: list[int] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    guess: list[int] = field(default_factory=list)
    remaining: list[int] = field(default_factory=list)
    subtree: list[int] = field(default_factory=list)

    def add(self, parent: int, code: int, depth: int, guess: int, remaining: int) -> int:
        self.parent.append(parent)
        self.feedback.append(code)
        self.depth.append(depth)
        self.guess.append(guess)
        self.remaining.append(remaining)
        self.subtree.append(0)
        return len(self.parent) - 1

    def graft(self, other: "Nodes", parent: int) -> None:
        """Append `other` (a subtree whose root has parent -1) below node `parent`."""
        offset = len(self.parent)
        for i in range(len(other.parent)):
            self.parent.append(parent if other.parent[i] < 0 else other.parent[i] + offset)
            self.feedback.append(other.feedback[i])
            self.depth.append(other.depth[i])
            self.guess.append(other.guess[i])
            self.remaining.append(other.remaining[i])
            self.subtree.append(other.subtree[i])
