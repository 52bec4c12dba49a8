"""Moves between our rules and a reference engine's: keys, square maps and the checks.

A draughts move is identified the way FMJD identifies it: by its start square, its end
square and the set of pieces it captures (``MoveKey``).  Our rules list one legal move per
key; OpenSpiel spells a capture as one action per jump, py-draughts as a route of squares,
but both reduce to the same key.  So a move crosses between the two sides only as a key:

* our move -> key in our square names (``key_of``) -> the engine's names (``SquareMap``)
  -> the worker finds the engine's move with that key (or says it has none);
* the engine's answer -> key in its names -> ours -> the legal move of OUR rules with
  that key (``check_answer``), else ``ForeignMoveError`` naming the move and the position.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from ..rules import State


class ForeignMoveError(ValueError):
    """A reference engine's move (or move list) that our rules do not allow."""


@dataclass(frozen=True)
class MoveKey:
    """A draughts move as start square, end square and the squares of the pieces it takes."""

    start: str
    end: str
    captures: frozenset[str] = frozenset()

    def text(self) -> str:
        """``12-16`` for a plain move, ``15x24 (takes 19)`` style for a capture, for messages."""
        if not self.captures:
            return f"{self.start}-{self.end}"
        return f"{self.start}x{self.end} (takes {','.join(sorted(self.captures, key=_square_order))})"

    def to_wire(self) -> list:
        """The key as the worker protocol's MOVE: ``[start, end, [captured, ...]]``."""
        return [self.start, self.end, sorted(self.captures, key=_square_order)]

    @staticmethod
    def from_wire(data: object) -> "MoveKey":
        """A MOVE from a worker; raises ForeignMoveError when it is malformed."""
        try:
            start, end, captures = data
            if not all(isinstance(x, str) for x in (start, end, *captures)):
                raise TypeError
            return MoveKey(start, end, frozenset(captures))
        except (TypeError, ValueError):
            raise ForeignMoveError(f"the engine's answer {data!r} is not a move "
                                   "([start, end, [captured, ...]])") from None


def _square_order(name: str):
    return (0, int(name), "") if name.isdigit() else (1, 0, name)


def key_of(state: State, move) -> MoveKey:
    """The key of one of our legal moves, in our square names."""
    path = state.move_path(move)
    return MoveKey(path.points[0], path.points[-1], frozenset(path.captures))


def legal_by_key(state: State) -> dict[MoveKey, object]:
    """Our legal moves by key."""
    return {key_of(state, move): move for move in state.legal_moves()}


@dataclass(frozen=True)
class SquareMap:
    """Our square names <-> a reference engine's, for one game."""

    ours_to_theirs: Mapping[str, str]

    def theirs_to_ours(self) -> dict[str, str]:
        """The map the other way round."""
        return {v: k for k, v in self.ours_to_theirs.items()}

    def to_theirs(self, key: MoveKey) -> MoveKey:
        """A key of ours in the engine's names."""
        m = self.ours_to_theirs
        return MoveKey(m[key.start], m[key.end], frozenset(m[c] for c in key.captures))

    def to_ours(self, key: MoveKey) -> MoveKey:
        """A key of the engine's in our names; ForeignMoveError for a square we do not have."""
        m = self.theirs_to_ours()
        try:
            return MoveKey(m[key.start], m[key.end], frozenset(m[c] for c in key.captures))
        except KeyError as err:
            raise ForeignMoveError(f"the engine's move {key.text()} names square {err.args[0]!r}, "
                                   "which is not a playing square") from None


def identity_map(names: Iterable[str]) -> SquareMap:
    """Both sides name the squares alike (py-draughts' International: PDN 1-50)."""
    return SquareMap({n: n for n in names})


def check_answer(state: State, squares: SquareMap, wire_move: object) -> object:
    """The legal move of our rules that the engine's answer names; raises ForeignMoveError
    (naming the move in both notations and the position) when our rules have no such move."""
    theirs = MoveKey.from_wire(wire_move)
    ours = squares.to_ours(theirs)
    move = legal_by_key(state).get(ours)
    if move is None:
        legal = ", ".join(state.move_str(m) for m in state.legal_moves())
        raise ForeignMoveError(f"the engine played {ours.text()} (its notation: {theirs.text()}), which our "
                               f"rules do not allow in {state.fen()}; legal: {legal}")
    return move


def compare_legal(state: State, squares: SquareMap, wire_moves: Sequence[object]) -> str | None:
    """None when the engine's legal moves (from a worker) are exactly ours, else a message
    naming the moves only it lists and the moves only we list (both in our notation)."""
    try:
        theirs = {squares.to_ours(MoveKey.from_wire(m)) for m in wire_moves}
    except ForeignMoveError as err:
        return str(err)
    ours = legal_by_key(state)
    extra = sorted((k.text() for k in theirs - set(ours)), key=str)
    missing = sorted(state.move_str(ours[k]) for k in set(ours) - theirs)
    if not extra and not missing:
        return None
    parts = []
    if extra:
        parts.append("it lists moves our rules forbid: " + ", ".join(extra))
    if missing:
        parts.append("it lacks moves our rules allow: " + ", ".join(missing))
    return f"the engine's legal moves differ from ours in {state.fen()}: " + "; ".join(parts)
