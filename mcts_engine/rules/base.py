"""The rules contract every game implements, and the errors it raises.

Search, protocol and tournaments talk to games only through this contract, so a
rule lives in exactly one place (the game's module).  See ``../shared/DESIGN.md`` §3.

A ``Game`` is an immutable rule set (a variant plus options); a ``State`` is one
position of that game including whatever history its draw rules need, so that
``State.outcome()`` is the single truth about the end of a game.
"""
from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from typing import Any, Hashable


class RulesError(ValueError):
    """Base class of every error raised by the rules layer."""


class UnknownGame(RulesError):
    """A game or variant name that is not registered."""


class BadOption(RulesError):
    """A rule option that the game does not have, or a value it does not allow."""


class BadPosition(RulesError):
    """A FEN (position text) that cannot be read or describes an impossible position."""


class IllegalMove(RulesError):
    """A move text that is malformed or not legal in the position."""


class AmbiguousMove(IllegalMove):
    """A short move text that matches several legal moves; ``candidates`` lists them."""

    def __init__(self, message: str, candidates: list[str]):
        super().__init__(message)
        self.candidates = candidates


class State(ABC):
    """One position of a game, with the history its draw rules need."""

    to_move: int  # 0 = the player who moves first from the start position

    @abstractmethod
    def legal_moves(self) -> list:
        """All legal moves; a multi-capture is one move.  Empty when the game is over."""

    @abstractmethod
    def play(self, move) -> None:
        """Apply a move in place.  No validation: the move must come from legal_moves()."""

    @abstractmethod
    def copy(self) -> "State":
        """An independent copy (cheap)."""

    @abstractmethod
    def outcome(self) -> float | None:
        """None while the game runs, else the first player's score: 1.0, 0.5 or 0.0."""

    @abstractmethod
    def fen(self) -> str:
        """The position as text that ``Game.parse_fen`` reads back."""

    @abstractmethod
    def move_str(self, move) -> str:
        """A legal move in protocol notation."""

    @abstractmethod
    def parse_move(self, text: str):
        """The legal move that ``text`` names; raises IllegalMove / AmbiguousMove."""

    @abstractmethod
    def key(self) -> Hashable:
        """Position identity (pieces and side to move), for repetition and transpositions."""

    def random_move(self, rng: random.Random):
        """A uniformly random legal move, or None when there is none.

        Games override this with a fast path that avoids listing every move.
        """
        moves = self.legal_moves()
        return moves[int(rng.random() * len(moves))] if moves else None


class Game(ABC):
    """A rule set: a game or variant with its options fixed."""

    name: str
    players: int = 2
    options: dict[str, Any]

    def __reduce_ex__(self, protocol):
        """Pickle a registered game as its name and options, so that a state sent to a search
        process is a few hundred bytes and unpickles onto the receiver's own cached game."""
        from . import _registered
        if _registered(self):
            return (_game_from_registry, (self.name, tuple(getattr(self, "options", {}).items())))
        return super().__reduce_ex__(protocol)

    @abstractmethod
    def new_state(self) -> State:
        """The start position."""

    @abstractmethod
    def parse_fen(self, text: str) -> State:
        """A position from its FEN; raises BadPosition naming what is wrong."""

    def perft(self, state: State, depth: int) -> int:
        """Leaf count of the legal-move tree ``depth`` plies deep (draw rules ignored).

        Games may override this with a faster walk over their raw position.
        """
        if depth <= 0:
            return 1
        moves = state.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            child = state.copy()
            child.play(move)
            total += self.perft(child, depth - 1)
        return total


def _game_from_registry(name: str, options: tuple) -> Game:
    """Unpickling a registered game: the receiver's cached game of that name and options."""
    from . import _CACHE, get_game
    wanted = dict(options)
    for game in _CACHE.values():
        if game.name == name and getattr(game, "options", {}) == wanted:
            return game
    return get_game(name, **wanted)


def divide(game: Game, state: State, depth: int) -> list[tuple[str, int]]:
    """Per root move (in notation), the perft count of the subtree below it."""
    out = []
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        out.append((state.move_str(move), game.perft(child, depth - 1) if depth > 1 else 1))
    return out


def single_match(state: State, text: str, matches: list, why: str = ""):
    """The one legal move in ``matches`` that the move text ``text`` names.

    Raises IllegalMove (quoting the text, the position and ``why``) when there is none, and
    AmbiguousMove listing the full notations when there are several.  Every game's
    ``parse_move`` ends here, so the errors read the same in every game.
    """
    if not matches:
        raise IllegalMove(f"move {text!r} is illegal in {state.fen()}{why}")
    if len(matches) > 1:
        names = [state.move_str(m) for m in matches]
        raise AmbiguousMove(f"move {text!r} is ambiguous: it could be {', '.join(names)}", names)
    return matches[0]


def is_subsequence(needle: list, hay: tuple) -> bool:
    """Whether ``needle``'s items occur in ``hay`` in order (not necessarily adjacent): a short
    capture text naming some of a route's landing points matches that route."""
    it = iter(hay)
    return all(any(x == h for h in it) for x in needle)


def parse_rule_options(text: str) -> dict[str, str]:
    """Read the ``Rules`` option string ``key=value,key=value`` into a dict.

    Raises BadOption naming the piece that has no ``=``.
    """
    options: dict[str, str] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise BadOption(f"rule option {part!r} is not key=value")
        options[key.strip().lower().replace("-", "_")] = value.strip()
    return options


def cpu_time() -> float:
    """Process CPU time in seconds (what benchmarks measure)."""
    return time.process_time()
