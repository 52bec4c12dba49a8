"""The messages between the page and the server, and their validation (the one place).

Every WebSocket frame from the page is a JSON object with a ``type``; ``parse_message``
turns it into one of the typed messages below or raises ``BadMessage`` naming what is
wrong.  Nothing else in the server reads raw page data, so a malformed or hostile
frame (not JSON, an unknown type, a missing or mistyped field, an oversized text, a
line break that could smuggle a command to the engine) gets one error and changes
nothing.  What a value means for a game (is this a legal move, a real game name, a
configured engine) is checked later by the rules and the session, which answer with
their own messages.

Page -> server (``type`` and fields)::

    new      game, rules="", fen=None     a new game (rule options as key=value,...)
    fen      fen                          load a position of the current game
    click    point                        a click on a point of the board
    move     move                         a move in the game's notation (the move list)
    cancel                                drop the move being entered
    undo                                  take back a ply (the engine's too, in play)
    players  players=[p0, p1]             "human" or "engine" for each player
    engine   name                         which configured engine plays and analyses
    limits   movetime=ms | nodes=n        the engine's time per move
    go                                    the engine plays the side to move now
    analyse  on                           infinite analysis of the position, or stop it
    stop                                  stop the engine (its move is played in play)
    record                                the game as PDN / PGN-like text
    ping     id                           answered by pong (latency checks)
    restore  game, rules, fen, moves,     a reconnecting page's game put back in one frame
             players, engine, limits

Server -> page: ``hello`` (games, engines, defaults), ``state`` (the board, the
selection, the moves, the result), ``info`` (the engine's search), ``engine`` (its
status), ``error`` (a refused message or click), ``record``, ``pong``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..client import GoLimits
from .session import MAX_PLIES

MAX_FRAME = 131_072      # characters in one frame from the page (a restore of a long game fits)
MAX_TEXT = 2_000         # characters in a FEN or a rule-options string
MAX_NAME = 64            # characters in a game, engine, point or move name
MAX_MOVE = 200           # characters in a move
PLAYER_KINDS = ("human", "engine")
MOVETIME_RANGE = (10, 3_600_000)     # ms
NODES_RANGE = (1, 100_000_000)


class BadMessage(ValueError):
    """A frame from the page that is not a valid message (the text says what is wrong)."""


@dataclass(frozen=True)
class StartGame:
    """A new game (``new``): its name, rule options and start FEN (None: the start position)."""

    game: str
    rules: str = ""
    fen: str | None = None


@dataclass(frozen=True)
class LoadFen:
    """The current game from a FEN (``fen``)."""

    fen: str


@dataclass(frozen=True)
class Click:
    """A click on a point of the board (``click``)."""

    point: str


@dataclass(frozen=True)
class PlayMove:
    """A move in the game's notation (``move``, from the move list)."""

    move: str


@dataclass(frozen=True)
class Cancel:
    """Drop the move being entered (``cancel``)."""


@dataclass(frozen=True)
class Undo:
    """Take back a ply (``undo``)."""


@dataclass(frozen=True)
class Players:
    """Who plays each side, ``human`` or ``engine`` (``players``)."""

    players: tuple[str, str]


@dataclass(frozen=True)
class ChooseEngine:
    """Which of the server's engines plays and analyses (``engine``)."""

    name: str


@dataclass(frozen=True)
class SetLimits:
    """The engine's time per move (``limits``): a move time in ms or a node count."""

    movetime: int | None = None
    nodes: int | None = None

    def go_limits(self) -> GoLimits:
        """The limits as the engine client takes them."""
        return GoLimits(nodes=self.nodes) if self.nodes else GoLimits(movetime=self.movetime)


@dataclass(frozen=True)
class Go:
    """The engine plays the side to move now (``go``)."""


@dataclass(frozen=True)
class Analyse:
    """Infinite analysis on or off (``analyse``)."""

    on: bool


@dataclass(frozen=True)
class Stop:
    """Stop the engine (``stop``)."""


@dataclass(frozen=True)
class Record:
    """Ask for the game as PDN / PGN-like text (``record``)."""


@dataclass(frozen=True)
class Ping:
    """A latency check, answered by ``pong`` with the same id (``ping``)."""

    id: int = 0


@dataclass(frozen=True)
class Restore:
    """A reconnecting page's game put back in one frame (``restore``): the game, its rule
    options and start FEN, the moves played, who plays, the engine and its limits."""

    game: str
    rules: str
    fen: str | None
    moves: tuple[str, ...]
    players: tuple[str, str]
    engine: str | None = None
    limits: SetLimits | None = None


Message = (StartGame | LoadFen | Click | PlayMove | Cancel | Undo | Players | ChooseEngine | SetLimits | Go | Analyse
           | Stop | Record | Ping | Restore)


@dataclass
class _Fields:
    """The fields of one frame, read with their type and bounds checked."""

    data: dict
    kind: str
    used: set = field(default_factory=set)

    def text(self, key: str, limit: int = MAX_NAME, optional: bool = False, blank: bool = False) -> str | None:
        self.used.add(key)
        value = self.data.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise BadMessage(f"{self.kind}: {key!r} must be a text")
        if len(value) > limit:
            raise BadMessage(f"{self.kind}: {key!r} is longer than {limit} characters")
        if any(ord(ch) < 32 or ch == "\x7f" for ch in value):
            raise BadMessage(f"{self.kind}: {key!r} has a control character (a line break?)")
        if not blank and not value.strip():
            raise BadMessage(f"{self.kind}: {key!r} is empty")
        return value.strip()

    def integer(self, key: str, low: int, high: int) -> int | None:
        self.used.add(key)
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadMessage(f"{self.kind}: {key!r} must be a whole number")
        if not low <= value <= high:
            raise BadMessage(f"{self.kind}: {key!r} must be from {low} to {high}")
        return value

    def texts(self, key: str, count: int, limit: int) -> tuple[str, ...]:
        self.used.add(key)
        value = self.data.get(key)
        if not isinstance(value, list) or len(value) > count:
            raise BadMessage(f"{self.kind}: {key!r} must be a list of at most {count} texts")
        inner = _Fields({str(i): v for i, v in enumerate(value)}, f"{self.kind} {key}")
        return tuple(inner.text(str(i), limit) for i in range(len(value)))

    def flag(self, key: str) -> bool:
        self.used.add(key)
        value = self.data.get(key)
        if not isinstance(value, bool):
            raise BadMessage(f"{self.kind}: {key!r} must be true or false")
        return value

    def done(self) -> None:
        extra = sorted(set(self.data) - self.used - {"type"})
        if extra:
            raise BadMessage(f"{self.kind}: unknown field(s) {', '.join(map(repr, extra[:5]))}")


def _players(f: _Fields) -> Players:
    f.used.add("players")
    value = f.data.get("players")
    if not (isinstance(value, list) and len(value) == 2 and all(v in PLAYER_KINDS for v in value)):
        raise BadMessage(f"players: 'players' must be two of {', '.join(PLAYER_KINDS)}")
    return Players((value[0], value[1]))


def _limits(f: _Fields) -> SetLimits:
    movetime = f.integer("movetime", *MOVETIME_RANGE)
    nodes = f.integer("nodes", *NODES_RANGE)
    if (movetime is None) == (nodes is None):
        raise BadMessage("limits: give exactly one of 'movetime' (ms) and 'nodes'")
    return SetLimits(movetime, nodes)


def _restore(f: _Fields) -> Restore:
    f.used.add("limits")
    limits = f.data.get("limits")
    if limits is not None:
        if not isinstance(limits, dict):
            raise BadMessage("restore: 'limits' must be an object")
        inner = _Fields(limits, "restore limits")
        limits = _limits(inner)
        inner.done()
    return Restore(f.text("game"), f.text("rules", MAX_TEXT, optional=True, blank=True) or "",
                   f.text("fen", MAX_TEXT, optional=True), f.texts("moves", MAX_PLIES, MAX_MOVE),
                   _players(f).players, f.text("engine", optional=True), limits)


_READERS = {
    "new": lambda f: StartGame(f.text("game"), f.text("rules", MAX_TEXT, optional=True, blank=True) or "",
                             f.text("fen", MAX_TEXT, optional=True)),
    "fen": lambda f: LoadFen(f.text("fen", MAX_TEXT)),
    "click": lambda f: Click(f.text("point")),
    "move": lambda f: PlayMove(f.text("move", MAX_MOVE)),
    "cancel": lambda f: Cancel(),
    "undo": lambda f: Undo(),
    "players": _players,
    "engine": lambda f: ChooseEngine(f.text("name")),
    "limits": _limits,
    "go": lambda f: Go(),
    "analyse": lambda f: Analyse(f.flag("on")),
    "stop": lambda f: Stop(),
    "record": lambda f: Record(),
    "ping": lambda f: Ping(f.integer("id", 0, 2**53) or 0),
    "restore": _restore,
}
TYPES = tuple(_READERS)


def parse_message(frame: Any) -> Message:
    """The typed message of one frame from the page; BadMessage says what is wrong."""
    if not isinstance(frame, str):
        raise BadMessage("a message must be a JSON text frame")
    if len(frame) > MAX_FRAME:
        raise BadMessage(f"message longer than {MAX_FRAME} characters")
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):
        raise BadMessage("message is not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("message must be a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _READERS:
        shown = kind[:MAX_NAME] if isinstance(kind, str) else kind if isinstance(kind, (int, float)) else type(kind).__name__
        raise BadMessage(f"unknown message type {shown!r}; known: {', '.join(TYPES)}")
    fields = _Fields(data, kind)
    message = _READERS[kind](fields)
    fields.done()
    return message
