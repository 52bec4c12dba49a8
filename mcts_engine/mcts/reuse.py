"""Tree reuse: keep the tree between moves and start the next search from the subtree of
the position reached.

The protocol identifies a position by its history, (start FEN, move, move, ...), the moves
as the rules' values.  When the new history extends the last search's, the moves played
since lead from the old root's position to the new one; the tree walks them down to the new
root and keeps that subtree (``Search.set_root(raw, walk)``; the rest of the arena is freed
at once).  Otherwise the search starts from a fresh root.
"""
from __future__ import annotations

from ..rules.base import State


class TreeMemory:
    """The last search's history and root position: what tree reuse walks from."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.history: tuple = ()
        self.state: State | None = None   # the position of the last root

    def clear(self) -> None:
        """Forget the last root (a new game, a restricted search, a failed one)."""
        self.history, self.state = (), None

    def walk(self, state: State, history: tuple) -> list | None:
        """The moves from the last root to ``state`` when ``history`` extends the last search's
        and leads to ``state``, else None (a fresh root)."""
        history = tuple(history)
        old_history = self.history
        if not self.enabled or self.state is None or not history or not old_history \
                or history[:len(old_history)] != old_history:
            return None
        walker, moves = self.state.copy(), list(history[len(old_history):])
        try:
            for move in moves:
                walker.play(move)
        except (ValueError, TypeError, KeyError):   # not moves of this game: no reuse
            return None
        return moves if walker.key() == state.key() else None

    def remember(self, state: State, history: tuple) -> None:
        """``state`` (with ``history``) is the root of the search now running."""
        self.history, self.state = tuple(history), state.copy()
