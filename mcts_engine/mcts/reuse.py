"""Tree reuse: keep the tree between moves and start the next search from the subtree of
the position reached.

The protocol identifies a position by its history, (start FEN, move, move, ...).  When
the new history extends the last search's, the moves played since are walked down the
old tree; the node reached (if every move was expanded) becomes the new root, and the
rest of the old tree is freed.  Otherwise the whole old tree is freed at once.
"""
from __future__ import annotations

from ..rules.base import State
from .tree import Budget, Node


class TreeMemory:
    """The last search's root, its history and its position, and the tree's memory budget."""

    def __init__(self, enabled: bool = True, budget_mb: float = 256):
        self.enabled = enabled
        self.budget_mb = budget_mb
        self.root: Node | None = None
        self.history: tuple = ()
        self.state: State | None = None   # the position of ``root``, to walk played moves
        self.budget = Budget.megabytes(budget_mb)

    def clear(self) -> None:
        """Forget the tree (a new game): its memory is released now."""
        self.root, self.history, self.state = None, (), None
        self.budget = Budget.megabytes(self.budget_mb)

    def root_for(self, state: State, history: tuple) -> Node:
        """The old tree's node for ``state`` when ``history`` extends the last search's,
        else a new root; either way it is remembered as the root of this search, and the
        budget measures the tree below it."""
        history = tuple(history)
        node = self._walk(state, history) if self.enabled else None
        self.history = history
        self.state = state.copy()
        if node is None:
            self.root = None                     # the old tree goes before the new one grows
            self.budget = Budget.megabytes(self.budget_mb)
            node = Node.root_of(state)
        else:
            self.budget.measure(node)
        self.root = node
        return node

    def _walk(self, state: State, history: tuple) -> Node | None:
        """The node of the old tree that ``history``'s new moves lead to, if it is ``state``."""
        old, old_history = self.root, self.history
        if old is None or not history or not old_history or self.state is None \
                or history[:len(old_history)] != old_history:
            return None
        node, walker = old, self.state.copy()
        try:
            for text in history[len(old_history):]:
                move = walker.parse_move(text)
                node = next(ch for ch in node.children if ch.move == move)
                walker.play(move)
        except (StopIteration, ValueError):
            return None
        if walker.key() != state.key() or node.to_move != state.to_move:
            return None
        return node
