"""DXP (DamExchange) follower mode: ``mcts-engine dxp`` waits for an initiator and plays its games.

An initiator (the DAM GUI, GWD, pydraughts' ``DXPEngine``, our tournament manager)
connects over TCP (port 27531 by default) and sends a GAMEREQ; ``DxpFollower``, one
dialect over the same engine ``Session`` as Hub and ours, answers it and plays:

* GAMEREQ: accepted (``0``) when its position fits the game we play (``--game``,
  default international; the squares as ``conventions.py`` numbers them for the
  client); another version gets ``1``, a position of another board ``2``.  We play the
  requested colour with the requested clock: minutes for the whole game, spread over
  the number of moves (or 30 more moves when it gives none).  ``--nodes`` or
  ``--movetime`` replace the clock by a fixed limit per move (and a GAMEREQ of 0
  minutes gets 1 s a move).
* MOVE: the initiator's move, validated by our rules; then our move.  An illegal move
  gets a CHAT naming it and a GAMEEND.
* On our turn in a finished game (our rules: no move left, or a draw), or once the
  game's number of moves is played, we send GAMEEND (reason 1 I lose, 2 draw, 3 I win,
  0 unknown) instead of a move, as Scan does; the initiator confirms it.
* GAMEEND from the initiator: the search (if any) is dropped and the GAMEEND confirmed
  with the same stop code.  BACKREQ: accepted (``0``) when the position it names was
  reached in this game, else ``1``; after going back we move if it is our turn.  CHAT:
  printed.  BACKACC: ignored (we never ask to go back).
* A dropped connection ends its game; the server waits for the next connection.

The client is the arbiter of draws in the moves it sends: a move after a position our
rules call drawn is played on (``State.play_on``), as in Hub mode.
"""
from __future__ import annotations

import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, TextIO

from ..mcts.agent import SearchInfo
from ..mcts.limits import Limits
from ..rules import RulesError, State
from .conventions import SquareTranslation
from .dxp_messages import (DXP_LETTERS, DXP_PORT, BackAccept, BackRequest, Chat, DxpChannel, DxpError, GameAccept,
                           GameEnd, GameRequest, MoveMessage, parse_message)
from .session import ENGINE_NAME, FinishedSearch, Session, build_position

DEFAULT_MOVETIME = 1.0          # seconds a move when the GAMEREQ gives no time


@dataclass
class DxpSettings:
    """How the follower plays: the game, engine options, and optional fixed limits per move."""

    game: str = "international"
    options: dict[str, str] = field(default_factory=dict)
    nodes: int | None = None
    movetime: float | None = None       # seconds


def dxp_colour(letter: str) -> str:
    """DXP's W/Z as the rules' W/B."""
    return "B" if letter == "Z" else letter


def move_numbers(text: str) -> tuple[int, int, tuple[int, ...]]:
    """A move in numbered Hub notation (``32-28``, ``28x19x23``) as (from, to, captured)."""
    parts = [int(p) for p in text.replace("x", "-").split("-")]
    return parts[0], parts[1], tuple(parts[2:])


class DxpFollower:
    """The DXP follower dialect over one engine session; also the session's output.

    ``send`` delivers a message to the initiator; ``log`` prints a line for the person
    watching.  Messages are handled one at a time (``handle``); the search runs in the
    session's thread and delivers our move through ``finished``.
    """

    def __init__(self, send: Callable[[object], object], settings: DxpSettings,
                 log: Callable[[str], None] = print):
        self.send = send
        self.settings = settings
        self.log = log
        self.session = Session(self)
        self.session.set_option("UCI_Variant", settings.game)
        for name, value in settings.options.items():
            self.session.set_option(name, value)
        self.game = self.session.game
        self.translation = SquareTranslation(self.game, numbered_moves=True)
        self.lock = threading.RLock()
        self.playing = False
        self.start: State | None = None
        self.moves: list[str] = []          # the game's moves, in our notation
        self.player = 0                     # the player we are (0 = who moves first)
        self.clock: float | None = None     # our seconds left (None: no clock)
        self.move_limit = 0                 # moves of the game (0 = none)
        self.ended_by_us = False
        self.search_ply: int | None = None  # the ply our running search is for (None: none wanted)
        self.search_started = 0.0

    # --- the session's output ------------------------------------------------------------------
    def info(self, state: State, info: SearchInfo) -> None:
        """Progress reports are not part of DXP."""

    def note(self, text: str) -> None:
        """Something to tell the person watching."""
        self.log(f"info: {text}")

    def error(self, text: str) -> None:
        """Something went wrong (logged; DXP has no error message)."""
        self.log(f"error: {text}")

    def finished(self, done: FinishedSearch) -> None:
        """Our search is over: play its move and send it, unless the game moved on meanwhile."""
        with self.lock:
            if not self.playing or self.search_ply != len(self.moves) or done.move is None:
                return
            self.search_ply = None
            state = self.position().state
            seconds = time.perf_counter() - self.search_started
            if self.clock is not None:
                self.clock = max(0.0, self.clock - seconds)
            source, target, captured = move_numbers(self.translation.move_out(state.hub_move_str(done.move)))
            self.moves.append(state.move_str(done.move))
            self.send(MoveMessage(round(seconds), source, target, captured))
            self.log(f"we play {self.moves[-1]}")

    # --- the game ------------------------------------------------------------------------------
    def position(self):
        """The game so far as a session Position (draws the initiator played past are waived)."""
        return build_position(self.start.copy(), self.moves, arbiter=True)

    def handle(self, text: str) -> None:
        """One message from the initiator."""
        try:
            message = parse_message(text)
        except DxpError as err:
            self.log(f"error: {err}")
            return
        with self.lock:
            if isinstance(message, GameRequest):
                self.on_game_request(message)
            elif isinstance(message, MoveMessage):
                self.on_move(message)
            elif isinstance(message, GameEnd):
                self.on_game_end(message)
            elif isinstance(message, Chat):
                self.log(f"chat: {message.text}")
            elif isinstance(message, BackRequest):
                self.on_back_request(message)
            else:
                self.log(f"ignored: {text}")

    def on_game_request(self, request: GameRequest) -> None:
        """GAMEREQ: accept a game of our board, set it up, and move if we are to move."""
        self.drop_search()
        if request.version != 1:
            self.send(GameAccept(ENGINE_NAME, "1"))
            return
        try:
            if request.position is None:
                start = self.game.new_state()
            else:   # DXP's colour letters are real colours, its cells in the client's frame
                side = self.translation.colour_out(dxp_colour(request.colour_to_move))
                text = side + request.position.translate(DXP_LETTERS)
                start = self.game.parse_hub_position(self.translation.position_in(text))
        except RulesError as err:
            self.log(f"refused a game: {err}")
            self.send(GameAccept(ENGINE_NAME, "2"))
            return
        self.start, self.moves, self.playing, self.ended_by_us = start, [], True, False
        self.player = self.game.colours.index(dxp_colour(request.follower_colour))
        self.clock = request.minutes * 60.0 if request.minutes > 0 else None
        self.move_limit = request.moves
        self.session.new_game()
        self.send(GameAccept(ENGINE_NAME, "0"))
        self.log(f"game against {request.initiator or 'the initiator'}: we play "
                 f"{'first' if self.player == 0 else 'second'}, {request.minutes} min, {request.moves or 'all'} moves")
        self.our_turn()

    def on_move(self, message: MoveMessage) -> None:
        """MOVE: the initiator's move; then ours."""
        if not self.playing:
            self.log("ignored a move outside a game")
            return
        state = self.position().state
        if state.to_move == self.player:
            self.log("ignored a move while it is our turn")
            return
        text = f"{message.source}-{message.target}" if not message.captured else \
            "x".join(str(n) for n in (message.source, message.target, *message.captured))
        try:
            move = state.parse_hub_move(self.translation.move_in(text))
        except RulesError as err:
            self.send(Chat(f"illegal move {text}: {err}"))
            self.end_game(GameEnd("0", "0"))
            return
        self.moves.append(state.move_str(move))
        self.log(f"they play {self.moves[-1]}")
        self.our_turn()

    def our_turn(self) -> None:
        """Search for our move, or end the game when it is over (our rules) or its moves are played."""
        position = self.position()
        state = position.state
        if state.to_move != self.player:
            return
        # our rules' verdict here: a draw they call now (waived in ``position``) or a win
        outcome = 0.5 if len(self.moves) in position.waived else state.outcome()
        if outcome is not None:
            ours = outcome if self.player == 0 else 1.0 - outcome
            self.end_game(GameEnd({1.0: "3", 0.0: "1"}.get(ours, "2"), "0"))
            return
        if self.move_limit and len(self.moves) >= 2 * self.move_limit:
            self.end_game(GameEnd("0", "0"))
            return
        self.session.set_position(position)
        self.search_ply = len(self.moves)
        self.search_started = time.perf_counter()
        self.session.go(self.limits())

    def limits(self) -> Limits:
        """This move's search limits: the fixed ones of the settings, else our share of the clock."""
        s = self.settings
        if s.nodes is not None:
            return Limits(nodes=s.nodes)
        if s.movetime is not None:
            return Limits(movetime=s.movetime)
        if self.clock is None:
            return Limits(movetime=DEFAULT_MOVETIME)
        ours = len(self.moves) // 2
        togo = max(1, self.move_limit - ours) if self.move_limit else None
        return Limits(time_left=self.clock, movestogo=togo)

    def end_game(self, message: GameEnd) -> None:
        """Send GAMEEND on our turn; the initiator's GAMEEND confirms it."""
        self.drop_search()
        self.ended_by_us = True
        self.send(message)
        self.log(f"we end the game (reason {message.reason})")

    def on_game_end(self, message: GameEnd) -> None:
        """GAMEEND: confirm the initiator's, or take it as the confirmation of ours."""
        self.drop_search()
        if self.playing and not self.ended_by_us:
            self.send(GameEnd("0", message.stop))
            self.log(f"the initiator ends the game (reason {message.reason}, stop code {message.stop})")
        self.playing = False
        self.ended_by_us = False

    def on_back_request(self, message: BackRequest) -> None:
        """BACKREQ: go back to the position it names, if this game reached it."""
        ply = self.ply_of(message.move_number, dxp_colour(message.colour)) if self.playing else None
        if ply is None:
            self.send(BackAccept("1"))
            return
        self.drop_search()
        del self.moves[ply:]
        self.send(BackAccept("0"))
        self.log(f"back to move {message.move_number}")
        self.our_turn()

    def ply_of(self, number: int, colour: str) -> int | None:
        """The ply (moves from the start) at which move ``number`` is due with ``colour`` to move."""
        offset = self.start.to_move       # a move number counts a first player's move and the reply
        for ply in range(len(self.moves) + 1):
            side = self.game.colours[(self.start.to_move + ply) % 2]
            if side == colour and 1 + (ply + offset) // 2 == number:
                return ply
        return None

    def drop_search(self) -> None:
        """Stop a running search; its move is not sent."""
        self.search_ply = None
        self.session.stop()

    def connection_lost(self) -> None:
        """The initiator is gone: end the game and the session."""
        with self.lock:
            self.playing = False
            self.search_ply = None
        self.session.shutdown()


def serve_dxp(settings: DxpSettings, host: str = "127.0.0.1", port: int = DXP_PORT,
              out: TextIO | None = None, connections: int | None = None) -> int:
    """Listen on ``host:port`` and play every connecting initiator's games, one connection at a
    time, until interrupted (or ``connections`` connections ended); returns 0.

    The first line printed is ``dxp: listening on HOST:PORT`` (with the port the system chose
    for port 0).
    """
    out = out or sys.stdout
    lock = threading.Lock()

    def log(text: str) -> None:
        with lock:
            out.write(text + "\n")
            out.flush()

    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((host, port))
    server.listen(1)
    log(f"dxp: listening on {host}:{server.getsockname()[1]} as the follower, playing {settings.game}")
    served = 0
    try:
        while connections is None or served < connections:
            conn, address = server.accept()
            served += 1
            channel = DxpChannel(conn)
            log(f"dxp: connection from {address[0]}:{address[1]}")
            follower = DxpFollower(channel.send, settings, log)
            try:
                while True:
                    text = channel.receive()
                    if text is None:
                        break
                    if text:
                        follower.handle(text)
            finally:
                follower.connection_lost()
                channel.close()
                log("dxp: connection closed; waiting for the next initiator")
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
