"""The rules contract every game implements, declared whole, and the errors it raises
(defined in ``errors.py``, re-exported here).

Search, protocol and tournaments talk to games only through this contract, so a
rule lives in exactly one place (the game's module) and no caller probes a game with
``hasattr``: every member any caller uses is declared here, with a default where a
game may have nothing better to offer.  docs/architecture.md#the-rules-contract says why it is so shaped.

A ``Game`` is an immutable rule set (a variant plus options); a ``State`` is one
position of that game including whatever history its draw rules need, so that
``State.outcome()`` is the single truth about the end of a game.

The drawing members ``State.board_view`` and ``State.move_path`` (for the web GUI) return
the values of ``view.py``.

Also here: ``TurnState`` (a state whose mover is ``turn``) and the small helpers the
games' contract methods share: ``read_move_squares`` and ``single_match`` (the start
and the end of a ``parse_move``), ``perft_walk`` (perft over raw positions),
``count_limit`` (draw counters), ``material_share`` (a material ``evaluate``) and ``divide``.
"""
from __future__ import annotations

import math

import random
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Hashable, Mapping

from .errors import AmbiguousMove, BadOption, BadPosition, IllegalMove, RulesError, UnknownGame
from .options import Schema
from .view import BoardView, MovePath

__all__ = ["State", "TurnState", "Game", "NO_LIMIT", "RulesError", "UnknownGame", "BadOption", "BadPosition",
           "IllegalMove", "AmbiguousMove", "divide", "read_move_squares", "single_match", "is_subsequence",
           "perft_walk", "count_limit", "material_share", "BoardView", "MovePath", "NoSearchParameters"]

#: "No limit" for ply counts: larger than any game can last, and still a plain int for ``range``.
NO_LIMIT = 1 << 62


@dataclass(frozen=True)
class NoSearchParameters:
    """The search parameters of a game that declares none of its own (``Game.search_parameters``)."""


class State(ABC):
    """One position of a game, with the history its draw rules need.

    ``to_move`` (0 or 1) is the player to move: 0 is the player who moves first from
    the start position.  ``ply`` counts the plies played: from 0 at ``new_state()``, or
    from the FEN's ply counter where the game has one; bench reads it to count the
    plies of a playout.  Both are plain attributes or properties of every state.
    ``compulsory_captures`` says that where a capture is legal only captures are (draughts,
    Fanorona): a playout cut off there plays the pending captures before ``evaluate()``.
    """

    to_move: int
    ply: int
    compulsory_captures: bool = False

    # --- the core: every game implements these ------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list:
        """All legal moves; a multi-capture is one move.  Empty when the game is over."""

    @abstractmethod
    def play(self, move) -> None:
        """Apply a move in place.  No validation: the move must come from legal_moves()."""

    @abstractmethod
    def copy(self) -> "State":
        """An independent copy (cheap: the search makes one per iteration)."""

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

    # --- fast paths: a game overrides these when it can do them faster -----------------------
    def random_move(self, rng: random.Random):
        """A uniformly random legal move, or None when there is none.

        Default: one draw ``rng.random()`` over ``legal_moves()``.  Games override it
        with a fast path that avoids listing every move.
        """
        moves = self.legal_moves()
        return moves[int(rng.random() * len(moves))] if moves else None

    def playout(self, rng: random.Random, max_plies: int = NO_LIMIT) -> float | None:
        """Play uniformly random moves in place to the end; return ``outcome()``.

        Returns None when the game still runs after ``max_plies`` plies (a cut-off
        playout: the caller may ``evaluate()``).  Default: the ``random_move`` /
        ``play`` loop.  Games override it with a loop over local variables; an
        override must draw from ``rng`` exactly as this loop does, so that a seeded
        search gives the same result either way.
        """
        for _ in range(max_plies):
            move = self.random_move(rng)
            if move is None:
                return self.outcome()
            self.play(move)
        return self.outcome()

    def recorded_playout(self, rng: random.Random, moves: list, max_plies: int = NO_LIMIT) -> float | None:
        """As ``playout``, appending each move played to ``moves`` as ``(player, move)`` (what
        RAVE/GRAVE's all-moves-as-first statistics count), with the same draws from ``rng``.

        Default: the ``random_move`` / ``play`` loop.  A game whose fast ``playout`` can keep
        the moves (draughts, Life) overrides it to pass ``moves`` to that loop.
        """
        for _ in range(max_plies):
            move = self.random_move(rng)
            if move is None:
                return self.outcome()
            moves.append((self.to_move, move))
            self.play(move)
        return self.outcome()

    # --- knowledge for playout policies, priors and greedy play ----------------------------
    def evaluate(self) -> float:
        """A score in [0, 1] for the first player of a position that is not over.

        Used where a playout is cut off and by greedy play.  Default: 0.5, the
        material-free "no idea"; games score their material (and more) instead.
        """
        return 0.5

    def heuristic(self, move) -> float:
        """A one-ply estimate of how good a legal move is for its mover (higher is better).

        Used by the greedy playout policy and by priors.  Default: 0.0 for every move.
        """
        return 0.0

    def is_capture(self, move) -> bool:
        """Whether a legal move captures (the capture playout policy prefers those).

        Default: False (a game without captures).
        """
        return False

    # --- display and other notations ----------------------------------------------------------
    def board_text(self) -> str:
        """The position drawn as text for people (``d`` in the protocol, ``play``).

        Default: the FEN, for a game without a drawing.
        """
        return self.fen()

    def board_view(self) -> BoardView:
        """The position as a drawing for the web GUI (``view.py``): points with names and x/y,
        cells, lines, pieces, edge names.

        Default: an empty view, for a game without a drawing (a GUI then lists the moves).
        """
        return BoardView()

    def move_path(self, move) -> MovePath:
        """How a legal move is entered by clicks (the points in order) and what it captures.

        Default: an empty path, for a game without a drawing (its moves are picked from a list).
        """
        return MovePath()

    def hub_move_str(self, move) -> str:
        """A legal move in Hub protocol notation (Scan's ``from x to x captured...`` for captures).

        Default: ``move_str(move)``, for games that have no Hub notation of their own.
        """
        return self.move_str(move)

    def parse_hub_move(self, text: str):
        """The legal move that Hub notation ``text`` names; falls back to ``parse_move``.

        Default: ``parse_move(text)``.  Raises IllegalMove / AmbiguousMove.
        """
        return self.parse_move(text)

    def hub_position(self) -> str:
        """The position as a Hub position string: the side to move's colour letter, then one of
        ``w b W B e`` per square in the order of ``game.square_numbering()``.

        Default: the FEN, for games without numbered squares (the Hub dialect reads a FEN too).
        """
        return self.fen()

    # --- across the boundary to the native core ---------------------------------------------
    def raw(self) -> Any:
        """The position as it crosses into the native search core (``Game.search_rules``): one
        plain value its C game reads (the draughts family: a tuple of masks and counters, never
        attribute reads).  Default: the state itself, for a game the core calls back in Python."""
        return self

    # --- when the arbiter is someone else ---------------------------------------------------
    def play_on(self) -> bool:
        """The arbiter (a GUI, a tournament manager with other draw rules) plays on in a position
        our draw rules call drawn: forget that draw, and restart the draw counters from here.

        Returns whether there was such a draw to forget.  Wins and losses are never undone.
        Default: False, for games whose draws are not counted.
        """
        return False


class TurnState(State):
    """A state that keeps the player to move in the attribute ``turn`` (0 or 1)."""

    turn: int

    @property
    def to_move(self) -> int:
        """0 when the first player is to move, else 1."""
        return self.turn


@dataclass(frozen=True)
class SearchFallback:
    """A game's parameters for a search whose own could not run (``Game.search_fallback``)."""
    parameters: Any
    what: str                  # what the search uses, for the client's error line


class Game(ABC):
    """A rule set: a game or variant with its options fixed.

    ``name`` is the registered name; ``players`` is 2 for every game here.
    ``options`` holds the rule options in effect (name -> typed value, in the order of
    ``schema``); ``get_game(game.name, **game.options)`` rebuilds the game.
    ``colours`` are the colour letters of player 0 and player 1 (``("B", "W")`` where
    Black moves first): callers name the sides by them (the protocol's ``wtime``/``btime``,
    White and Black in game records).  The default ``("W", "B")`` says "player 0 is White",
    which is how the clocks and the game records treated a game without colours.
    ``hub_squares`` is the number of squares in a Hub position string, 0 when the game
    has none (then ``parse_hub_position`` refuses and ``square_numbering`` is empty).
    ``endgame_tables`` says that the endgame tables (``mcts_engine/tables``) can solve this
    game's small endings: draughts variants whose only end is a side left without a move,
    which loses, and whose raw positions are the whole state apart from the draw counters.
    ``native`` says that the game's rules run compiled (``mcts_engine/native``): the draughts
    family, Life, Gauntlet and Rithmomachia where the core is built; every other game runs its
    Python rules.  ``kernel`` is those compiled rules (None elsewhere).
    ``search_parameters`` is the game's own search parameters: a frozen dataclass whose fields
    are engine options (``engine_options.engine_field``), listed by the protocol for this game
    only (the draughts family's evaluation terms); ``search_rules(parameters)`` gives the native
    rules the search core runs with them.
    """

    name: str
    players: int = 2
    options: Mapping[str, Any] = MappingProxyType({})   # a game with rule options sets its own dict
    colours: tuple[str, str] = ("W", "B")
    hub_squares: int = 0
    endgame_tables: bool = False
    native: bool = False
    kernel: Any = None
    search_parameters: type = NoSearchParameters
    schema: Schema = Schema("this game")   # the options this game accepts: none by default

    registry_entry: tuple | None = None    # set by the registry: how to rebuild this game by name

    def __reduce_ex__(self, protocol):
        """Pickle a registered game as its name and options (``registry_entry``), so that a
        state sent to a search process is a few hundred bytes and unpickles onto the
        receiver's own cached game; any other game pickles whole."""
        if self.registry_entry is not None:
            return self.registry_entry
        return super().__reduce_ex__(protocol)

    def use_options(self, schema: Schema, values: Mapping[str, Any]) -> None:
        """Record the rule options in effect: ``schema``, and ``options`` read from ``values``
        (a mapping holding at least every option of the schema) in the schema's order."""
        self.schema = schema
        self.options = {name: values[name] for name in schema.names()}

    def search_rules(self, parameters: Any) -> Any:
        """The native rules the search core runs this game on with ``parameters`` (an instance
        of ``search_parameters``), or None where the game runs its Python rules (the core then
        calls its states back).  Default: ``kernel``, for games that declare no parameters."""
        return self.kernel

    def check_search_parameters(self, parameters: Any) -> None:
        """Raise RulesError (naming what is missing) where the search could not run with
        ``parameters`` (an instance of ``search_parameters``): the protocol asks before it takes
        a value of the game's own options.  Default: every value runs."""

    def search_fallback(self, parameters: Any, err: Exception) -> SearchFallback | None:
        """What a search uses instead of ``parameters`` (an instance of ``search_parameters``)
        when its rules could not be made with them (``search_rules`` raised ``err``), or None
        where there is nothing and the error stands.  Default: None."""
        return None

    @abstractmethod
    def new_state(self) -> State:
        """The start position."""

    @abstractmethod
    def parse_fen(self, text: str) -> State:
        """A position from its FEN; raises BadPosition naming what is wrong."""

    def perft(self, state: State, depth: int) -> int:
        """Leaf count of the legal-move tree ``depth`` plies deep (draw rules ignored).

        Default: a walk over ``copy``/``play``.  Games override it with ``perft_walk``
        over their raw positions.
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

    def square_numbering(self, corner: str | None = None) -> tuple[str, ...]:
        """The playing squares' names in the order a numbering from ``corner`` counts them, row by
        row as the first player sees the board (``top-left``, ``top-right``, ``bottom-left``,
        ``bottom-right``); default the game's own order (that of ``parse_hub_position``).

        Clients that number squares their own way (the Hub and DXP dialects' conventions) are
        translated with it.  Default: (), for games without such squares.
        """
        return ()

    def parse_hub_position(self, text: str) -> State:
        """A position from a Hub position string: the side (``W``/``B``), then one of
        ``w b W B e`` per square in the order of ``square_numbering()``.

        Default: BadPosition, for games without numbered squares.
        """
        raise BadPosition(f"{self.name} has no Hub position string (its squares are not numbered): "
                          "send its FEN instead")


def count_limit(plies: int) -> int:
    """A draw-counter option as the limit the state compares with: 0 (off) never triggers."""
    return plies or NO_LIMIT


def material_share(own: float, opp: float, turn: int) -> float:
    """The first player's share of the material, from the side to move's (``own``) and the
    other side's (``opp``) with ``turn`` the side to move: an ``evaluate`` for material
    games.  0.5 on a bare board."""
    if own + opp == 0:
        return 0.5
    share = own / (own + opp)
    return share if turn == 0 else 1.0 - share


def balance_score(balance: float, pieces: int, start_pieces: int, scale: float) -> float:
    """A winning chance in [0, 1] from a material ``balance`` (in men, for the side it is
    counted for), with ``pieces`` on the board of ``start_pieces`` at the start: an
    ``evaluate`` for capture games.

    The logistic of ``scale * balance``, its slope growing as the board empties (times
    ``sqrt(start_pieces / pieces)``), because a man up decides more in an ending than in
    the opening.  Unlike a share of the material (12 against 11 is 0.52) it separates
    positions enough for playout cut-offs and implicit minimax to act on.
    """
    if pieces <= 0:
        return 0.5
    x = scale * balance * (start_pieces / pieces) ** 0.5
    if x < -700.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def perft_walk(legal: Callable[..., list], child: Callable[[tuple, Any], tuple], position: tuple,
               depth: int) -> int:
    """Leaf count of the legal-move tree below a raw ``position`` (a tuple of ints).

    ``legal(*position)`` lists the moves and ``child(position, move)`` is the raw
    position after one: games run perft on these without building states.
    """
    if depth <= 0:
        return 1
    moves = legal(*position)
    if depth == 1:
        return len(moves)
    total = 0
    if depth == 2:   # the last level inline: most of the walk happens here
        for move in moves:
            total += len(legal(*child(position, move)))
        return total
    for move in moves:
        total += perft_walk(legal, child, child(position, move), depth - 1)
    return total


def divide(game: Game, state: State, depth: int) -> list[tuple[str, int]]:
    """Per root move (in notation), the perft count of the subtree below it."""
    out = []
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        out.append((state.move_str(move), game.perft(child, depth - 1) if depth > 1 else 1))
    return out


def read_move_squares(state: State, text: str, *, square: Callable[[str], int | None], separators: str,
                      notation: str, where: str) -> tuple[list[int], list]:
    """The squares a move text names, as single-bit masks, and the legal moves of ``state``.

    ``text`` is split at any of ``separators``; ``square(name)`` gives a name's mask or
    None.  Raises IllegalMove when the text is not ``notation`` (e.g. "in PDN notation
    (e.g. 32-28)"), names something that is not ``where`` (e.g. "a square of english")
    or the game is over.  Every game's ``parse_move`` with ``from-to`` texts starts here.
    """
    parts = re.split(f"[{re.escape(separators)}]", str(text).strip().lower())
    if len(parts) < 2 or not all(parts):
        raise IllegalMove(f"move {text!r} is not {notation}")
    masks = []
    for part in parts:
        mask = square(part)
        if mask is None:
            raise IllegalMove(f"move {text!r}: {part!r} is not {where}")
        masks.append(mask)
    legal = state.legal_moves()
    if not legal:
        raise IllegalMove(f"move {text!r}: the game is over, there is no legal move")
    return masks, legal


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
