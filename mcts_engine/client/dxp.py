"""The DXP driver: a DamExchange follower plays in our tournaments (``protocol=dxp`` in an
engine spec), with the manager as the DXP initiator.

The engine is started as ``cmd`` when the spec has one (``{port}`` in it becomes a free port;
e.g. ``cmd="mcts-engine dxp --port {port}"``) and reached over TCP at ``host:port``; without a
``cmd`` it must already be listening there (a DXP program on another machine).

A game: at its first ``go`` the driver sends GAMEREQ (the follower plays the side to move;
the start position as DXP's ``A`` or its squares; the time control of ``dxp_clock``: the
tournament's clock in whole minutes, or a move time as minutes for so many moves), then
every opponent move as a MOVE, and reads the engine's MOVE.  ``new_game`` and ``quit`` end a running game with GAMEEND (and wait for its
confirmation).  DXP has no node limit and no ``stop``: a silent engine times out.

Squares are numbered as the clients number the game (``mcts_engine.protocol.conventions``),
and the engine's move comes back in our notation; our rules still validate it.  A GAMEEND
from the engine where our rules go on (a resignation, a draw claim) loses the game for it.
"""
from __future__ import annotations

import socket
import time
from dataclasses import dataclass

from ..protocol.conventions import SquareTranslation
from ..protocol.dxp_messages import (HUB_LETTERS, BackAccept, BackRequest, Chat, DxpChannel, DxpError, GameAccept,
                                     GameEnd, GameRequest, MoveMessage, parse_message)
from ..rules import RulesError, get_game
from .errors import EngineCrash, EngineProtocolError, EngineStartError, EngineTimeout
from .info import GoResult
from .limits import GoLimits
from .process import STOP_GRACE, ProcessEngine
from .specs import EngineSpec

__all__ = ["DxpEngineProcess", "DxpClock", "dxp_clock", "check_dxp_play", "free_port"]

INITIATOR = "mcts-tournament"
CONNECT_POLL = 0.1          # seconds between connection attempts while the follower starts
END_TIMEOUT = 5.0           # seconds to wait for the confirmation of our GAMEEND
REASONS = {"0": "no reason given", "1": "it gives up", "2": "it claims a draw", "3": "it claims a win"}


def free_port(host: str) -> int:
    """A TCP port that is free on ``host`` now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class DxpClock:
    """A GAMEREQ's time control: ``minutes`` a player for a game of ``moves`` moves (0: no limit)."""

    minutes: int
    moves: int


def check_dxp_play(spec: EngineSpec, clock_seconds: float | None, concurrency: int) -> None:
    """Refuse (ValueError naming the engine) a tournament a DXP engine cannot play fairly.

    DXP's only time control is a game clock in whole minutes, and a follower spends it
    as it sees fit (Scan plans on about 30 moves to go), so a move time or a node count
    cannot be given to it: the tournament needs ``--tc`` of at least 60 s.  A follower on
    a fixed port (no ``{port}`` in its command, or one already listening) plays one game
    at a time: ``--concurrency 1``."""
    if clock_seconds is None or clock_seconds < 60:
        raise ValueError(f"engine {spec.name!r} speaks DXP, whose only time control is a game clock in whole "
                         "minutes: use --tc with at least 60 s (e.g. --tc 120), not --movetime or --nodes")
    if concurrency > 1 and spec.port is not None:
        raise ValueError(f"engine {spec.name!r} is a DXP follower on the fixed port {spec.port}, which plays one "
                         "game at a time: use --concurrency 1 (or {port} in its cmd for a free port per game)")


def dxp_clock(limits: GoLimits, player: int) -> DxpClock:
    """The GAMEREQ time control for a tournament clock: the follower's (``player``; 0 = first)
    time left in whole minutes, rounded down (DXP cannot say less), for the rest of the game
    (``moves`` 0: a DXP game with a move count ends after it, which our games must not)."""
    left = limits.clock.time_ms[player] if limits.clock is not None else 0
    minutes = int(left // 60000)
    if minutes < 1:
        raise EngineProtocolError(f"a DXP engine's clock is whole minutes: {left / 1000:g} s "
                                  "left is less than one")
    return DxpClock(min(999, minutes), 0)


class DxpEngineProcess(ProcessEngine):
    """A DXP follower, reached over TCP (and started as a process when its spec has a command)."""

    def __init__(self, spec: EngineSpec, *args, **kwargs):
        super().__init__(spec, *args, **kwargs)
        self.rules_game = get_game(self.game or "international", **self.rules)
        self.translation = SquareTranslation(self.rules_game, numbered_moves=True)
        self.port = spec.port
        self.channel: DxpChannel | None = None
        self.known: list[str] | None = None      # the running game's moves (our notation); None: no game

    @property
    def alive(self) -> bool:
        """Connected (and, when we started it, the process runs)."""
        if self.channel is None or self.channel.closed or self._closed:
            return False
        return self._proc is None or super().alive

    def start(self) -> "DxpEngineProcess":
        """Start the follower (if the spec has a command), then connect."""
        if self.spec.cmd:
            if self.port is None:
                self.port = free_port(self.spec.host)
            self.spec = EngineSpec(**{**vars(self.spec), "cmd": [c.replace("{port}", str(self.port))
                                                                 for c in self.spec.cmd]})
            return super().start()
        self._handshake()
        return self

    def _handshake(self) -> None:
        """Connect to the follower, retrying while it starts (until the startup timeout)."""
        deadline = time.monotonic() + self.startup_timeout
        while True:
            try:
                sock = socket.create_connection((self.spec.host, self.port), timeout=self.startup_timeout)
                break
            except OSError as err:
                if self._proc is not None and self._leader_exited():
                    raise self._exited("before it listened")
                if time.monotonic() >= deadline:
                    raise EngineStartError(f"engine {self.name!r}: cannot connect to {self.spec.host}:"
                                           f"{self.port}: {err}", engine=self.name) from None
                time.sleep(CONNECT_POLL)
        self.channel = DxpChannel(sock)

    # --- games -------------------------------------------------------------------------------
    def new_game(self, timeout: float = END_TIMEOUT) -> None:
        """End the running game (if any); the next ``go`` requests a new one."""
        self._end_game("0", timeout)

    def ping(self, timeout: float = END_TIMEOUT) -> float:
        """DXP has no ping: 0 while connected."""
        if not self.alive:
            raise self._error(EngineCrash, "the DXP connection is closed")
        return 0.0

    def go(self, start_fen: str | None, moves: list[str], limits: GoLimits, timeout: float) -> GoResult:
        """Request the game at its first move, send the opponent's moves since, read the engine's."""
        game = self.rules_game
        state = game.parse_fen(start_fen) if start_fen else game.new_state()
        if self.known is None or moves[:len(self.known)] != self.known:
            for text in moves:
                state.play(state.parse_move(text))
            self._end_game("0")
            self._request(state, start_fen is None and not moves, limits)
            self.known = list(moves)
        else:
            for text in self.known:
                state.play(state.parse_move(text))
            for text in moves[len(self.known):]:
                move = state.parse_move(text)
                self._send(MoveMessage(0, *self._numbers(state, move)))
                state.play(move)
                self.known.append(text)
        return self._answer(state, timeout)

    def _request(self, position, at_start: bool, limits: GoLimits) -> None:
        """GAMEREQ for a game from ``position`` (the follower is to move there), then its acceptance.

        The position goes as DXP's ``A`` when it is the start position with White to move,
        else square by square (the moves before it are not sent: DXP's moves are the
        initiator's own)."""
        colours = self.rules_game.colours
        colour = "Z" if colours[position.to_move] == "B" else "W"
        cells = None
        if not (at_start and colours[0] == "W"):
            cells = self.translation.position_out(position.hub_position())[1:].translate(HUB_LETTERS)
        clock = dxp_clock(limits, position.to_move)
        self._send(GameRequest(INITIATOR, colour, clock.minutes, clock.moves, cells, colour))
        answer = self._receive(time.monotonic() + self.startup_timeout, "GAMEACC")
        if not isinstance(answer, GameAccept):
            raise self._error(EngineProtocolError, f"{type(answer).__name__} instead of GAMEACC")
        if answer.code != "0":
            raise self._error(EngineStartError, f"the follower refused the game (GAMEACC code {answer.code})")
        self.id_name = answer.follower or self.id_name

    def _answer(self, state, timeout: float) -> GoResult:
        """The engine's MOVE, in our notation."""
        start, deadline = self.timer(), time.monotonic() + timeout + STOP_GRACE
        infos: list[str] = []
        while True:
            message = self._receive(deadline, "MOVE")
            if isinstance(message, Chat):
                infos.append(f"chat {message.text}")
            elif isinstance(message, BackRequest):
                self._send(BackAccept("1"))
            elif isinstance(message, GameEnd):
                self._send(GameEnd("0", message.stop))
                self.known = None
                raise self._error(EngineProtocolError, f"it ended the game where our rules go on (DXP GAMEEND: "
                                  f"{REASONS.get(message.reason, message.reason)})")
            elif isinstance(message, MoveMessage):
                text = (f"{message.source}-{message.target}" if not message.captured else
                        "x".join(str(n) for n in (message.source, message.target, *message.captured)))
                try:
                    move = state.parse_hub_move(self.translation.move_in(text))
                    text = state.move_str(move)
                except RulesError:
                    pass      # handed on as written: our rules refuse it
                self.known.append(text)
                return GoResult(text, None, self.timer() - start, lines=tuple(infos))

    def _numbers(self, state, move) -> tuple[int, int, tuple[int, ...]]:
        """A legal move as DXP's square numbers: from, to, captured."""
        parts = [int(p) for p in self.translation.move_out(state.hub_move_str(move)).replace("x", "-").split("-")]
        return parts[0], parts[1], tuple(parts[2:])

    def _end_game(self, reason: str, timeout: float = END_TIMEOUT, stop: str = "0") -> None:
        """GAMEEND for a running game, then its confirmation (chats skipped; a timeout is forgiven)."""
        if self.known is None or not self.alive:
            self.known = None
            return
        self.known = None
        self._send(GameEnd(reason, stop))
        deadline = time.monotonic() + timeout
        try:
            while not isinstance(self._receive(deadline, "GAMEEND"), GameEnd):
                pass
        except EngineTimeout:
            pass

    # --- the connection ----------------------------------------------------------------------
    def _send(self, message) -> None:
        self.log(">", message.encode())
        if self.channel is None or not self.channel.send(message):
            raise self._gone("while sending")

    def _receive(self, deadline: float, what: str):
        """The next message before ``deadline``; EngineTimeout, EngineCrash, EngineProtocolError."""
        while True:
            try:
                text = self.channel.receive(max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                raise self._error(EngineTimeout, f"no {what} in time") from None
            if text is None:
                raise self._gone(f"while waiting for {what}")
            self.log("<", text)
            try:
                return parse_message(text)
            except DxpError as err:
                raise self._error(EngineProtocolError, str(err)) from None

    def _gone(self, when: str):
        """The connection broke: the engine is gone (its process killed and reaped)."""
        if self._proc is not None:
            return self._exited(f"(DXP connection lost {when})")
        return self._error(EngineCrash, f"the DXP connection was lost {when}")

    def quit(self, timeout: float = 0.5, term_timeout: float = 1.0) -> int | None:
        """End the game (stop code 1: no more games), close the connection, end the process."""
        if self.channel is not None:
            try:
                self._end_game("0", 1.0, stop="1")
            except Exception:   # a broken connection: nothing to end
                pass
            self.channel.close()
        return super().quit(timeout, term_timeout)

    def kill(self) -> int | None:
        """Close the connection and kill the process now."""
        if self.channel is not None:
            self.channel.close()
        return super().kill()

