"""The search tree: nodes, the descent (with or without virtual loss), backup and solver proofs.

Every node stores its statistics from the point of view of the player who made the
move into it (``mover``); whose turn it is comes from the state's ``to_move``, never
from depth parity, so games whose turns do not alternate strictly work too.

One iteration is ``descend`` (select through fully expanded nodes, expand one untried
move) then, if the leaf's result is not known, a playout, then ``backup``.  Every
agent calls these same two functions: the one-process agent counts a visit when it
backs the result up; tree-parallel search counts it on the way down (``virtual_loss``),
so that the next descent of the same batch looks elsewhere, and takes it back with
``undo_virtual_loss`` if the playout never ran.

MCTS-Solver (``prove``): a node whose game is over is proven; a node with a proven win
for the player to move there is a proven win, one whose children are all proven is
proven at the best of them (wins, draws and losses).
"""
from __future__ import annotations

import random
from typing import Callable

from ..rules.base import State


class Node:
    """One position in the tree, reached by ``move`` from ``parent``."""

    __slots__ = ("move", "parent", "children", "untried", "n", "w", "d", "mover", "to_move",
                 "proven", "proof")

    def __init__(self, move, parent: "Node | None", mover: int, to_move: int):
        self.move = move
        self.parent = parent
        self.children: list[Node] = []
        self.untried: list | None = None   # legal moves not expanded yet; None = not listed yet
        self.n = 0                         # visits
        self.w = 0.0                       # sum of results for ``mover``
        self.d = 0                         # playouts that ended in a draw
        self.mover = mover                 # the player who made ``move``
        self.to_move = to_move             # the player to move in this node's position
        self.proven: float | None = None   # proven result for ``mover`` (1, 0.5, 0) or None
        self.proof = 0                     # plies to the end along the proof

    @classmethod
    def root_of(cls, state: State) -> "Node":
        """A fresh root for ``state`` (its mover is the other player)."""
        return cls(None, None, 1 - state.to_move, state.to_move)

    def mean(self) -> float:
        """Average result for the mover (0.5 before any visit)."""
        return self.w / self.n if self.n else 0.5


class Leaf:
    """Where a descent ended: the node, the state there, the depth, and the first player's
    result if it is already known (a finished game or a proof), else None (a playout is due)."""

    __slots__ = ("node", "state", "depth", "result")

    def __init__(self, node: Node, state: State, depth: int, result: float | None):
        self.node = node
        self.state = state
        self.depth = depth
        self.result = result


Select = Callable[[Node], Node]


def descend(root: Node, state: State, select: Select, solver: bool, rng: random.Random,
            virtual_loss: bool = False) -> Leaf:
    """Walk from ``root`` (``state`` is a copy of its position, changed in place) by
    ``select`` through fully expanded nodes and expand one untried move.

    With ``virtual_loss`` every node on the path, the new leaf included, counts its
    visit now (``backup(..., counted=True)`` must follow, or ``undo_virtual_loss``).
    """
    node, depth = root, 0
    if virtual_loss:
        node.n += 1
    while True:
        if node.proven is not None:
            return Leaf(node, state, depth, node.proven if node.mover == 0 else 1.0 - node.proven)
        if node.untried is None:
            node.untried = state.legal_moves()
            rng.shuffle(node.untried)
            if not node.untried:  # the game is over here
                result = state.outcome()
                prove(node, result if node.mover == 0 else 1.0 - result, solver)
                return Leaf(node, state, depth, result)
        if node.untried:
            move = node.untried.pop()
            state.play(move)
            child = Node(move, node, node.to_move, state.to_move)
            if virtual_loss:
                child.n = 1
            node.children.append(child)
            result = state.outcome()
            if result is not None:
                prove(child, result if child.mover == 0 else 1.0 - result, solver)
            return Leaf(child, state, depth + 1, result)
        node = select(node)
        if virtual_loss:
            node.n += 1
        state.play(node.move)
        depth += 1


def backup(node: Node, result: float, counted: bool = False) -> None:
    """Add the first player's ``result`` to every node from ``node`` up, from each mover's
    point of view; ``counted``: the visits were already counted on the way down."""
    draw = result == 0.5
    while node is not None:
        if not counted:
            node.n += 1
        node.w += result if node.mover == 0 else 1.0 - result
        if draw:
            node.d += 1
        node = node.parent


def undo_virtual_loss(node: Node) -> None:
    """Take back the visits of a path whose playout never ran; drop an unvisited new leaf
    (its move goes back to the untried moves)."""
    leaf = node
    while node is not None:
        node.n -= 1
        node = node.parent
    parent = leaf.parent
    if leaf.n == 0 and parent is not None and not leaf.children:
        parent.children.remove(leaf)
        if parent.untried is not None:
            parent.untried.append(leaf.move)


def prove(node: Node, value: float, solver: bool) -> None:
    """Mark a finished game at ``node`` (``value`` for its mover) and, with ``solver``,
    propagate proofs upward: a proven win for the chooser proves the parent (shortest
    proof), and a parent whose children are all proven takes the best of them."""
    node.proven, node.proof = value, 0
    if not solver:
        return
    while node.parent is not None:
        parent = node.parent
        chooser = parent.to_move            # == child.mover for every child
        if node.proven == 1.0:
            wins = [ch.proof for ch in parent.children if ch.proven == 1.0]
            best, proof = 1.0, min(wins) + 1
        elif parent.untried == [] and all(ch.proven is not None for ch in parent.children):
            best = max(ch.proven for ch in parent.children)
            proof = max(ch.proof for ch in parent.children if ch.proven == best) + 1
        else:
            return
        if parent.proven is not None:
            return
        parent.proven = best if parent.mover == chooser else 1.0 - best
        parent.proof = proof
        node = parent


def principal_variation(first: Node) -> list:
    """``first``'s move, then the most visited child's move at each level below it."""
    node, pv = first, [first.move]
    while node.children:
        node = max(node.children, key=lambda ch: ch.n)
        pv.append(node.move)
    return pv
