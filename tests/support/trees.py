"""Hand-made search trees for the search core's tests: nodes with given statistics, a root
over them, and the UCB1 selection cases that every selection rule must agree with when its
enhancements are off."""
from __future__ import annotations

from mcts_engine.mcts.tree import Node


def make_node(move, n: int, w: float, d: int = 0, proven: float | None = None, proof: int = 0,
              parent: Node | None = None, mover: int = 0) -> Node:
    """A node with the given statistics (for the mover), attached to ``parent`` if given."""
    node = Node(move, mover, 1 - mover)
    node.n, node.w, node.d, node.proven, node.proof = n, w, d, proven, proof
    node.untried = []
    if parent is not None:
        parent.add_child(node)
    return node


def make_root(*children: tuple) -> Node:
    """A root (player 0 to move) whose children have the given (move, n, w[, d, proven, proof])."""
    root = Node(None, 1, 0)
    root.untried = []
    for spec in children:
        make_node(*spec, parent=root, mover=0)
    root.n = sum(ch.n for ch in root.children)
    return root


SELECTION_CASES = [
    # (children, c, the child UCB1 enters)
    ([("a", 10, 6.0), ("b", 10, 5.0)], 1.0, "a"),                   # equal visits: best mean
    ([("a", 100, 60.0), ("b", 2, 0.9)], 1.0, "b"),                  # exploration wins
    ([("a", 100, 60.0), ("b", 2, 0.9)], 0.0, "a"),                  # c = 0: greedy
    ([("a", 100, 90.0), ("b", 1, 0.0, 0, 1.0, 0)], 1.0, "b"),       # a proven win is entered at once
    ([("a", 1, 1.0, 0, 0.0, 0), ("b", 100, 10.0)], 5.0, "b"),       # a proven loss never
    ([("a", 3, 0.0, 0, 0.0, 0), ("b", 5, 0.0, 0, 0.0, 0)], 1.0, "b"),   # all lost: most visited
]
