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

One game at a time (``DxpServer``): while an initiator plays, another one's GAMEREQ gets
GAMEACC ``3`` (no games) at once and its connection is closed.  A connection that says
nothing holds nothing: it is closed after ``--idle-timeout`` seconds, and at once when a
newcomer finds every one of the ``MAX_OPEN`` places taken (the oldest silent one makes
room; one that never finished its first message counts as silent); a playing initiator
silent longer than that, beyond its own clock, is disconnected; a message past
``max_message`` bytes without its NUL closes the connection; every log line is cut to
``LOG_WIDTH`` characters.

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

from ..engine import Limits, SearchInfo
from ..rules import RulesError, State
from .conventions import SquareTranslation
from .dxp_messages import (DXP_LETTERS, DXP_PORT, MAX_RECEIVE, BackAccept, BackRequest, Chat, DxpChannel, DxpError,
                           GameAccept, GameEnd, GameRequest, MessageTooLong, MoveMessage, parse_message)
from .session import ENGINE_NAME, FinishedSearch, Session, replay

DEFAULT_MOVETIME = 1.0          # seconds a move when the GAMEREQ gives no time
IDLE_TIMEOUT = 120.0            # seconds an initiator may stay silent (more in a game: its clock)
REFUSED = "3"                   # GAMEACC's code for "no games" (we are playing one)
MAX_OPEN = 16                   # connections open at once: one playing, the others silent or being refused
SLOT_GRACE = 0.25               # seconds a newcomer waits for a game that is just ending
POLL = 0.5                      # seconds between two looks at an initiator's silence
LOG_WIDTH = 200                 # characters of a log line (an initiator's text is cut to fit)


@dataclass
class DxpSettings:
    """How the follower plays: the game, engine options, optional fixed limits per move, and how
    long an initiator may stay silent and how long its messages may be."""

    game: str = "international"
    options: dict[str, str] = field(default_factory=dict)
    nodes: int | None = None
    movetime: float | None = None       # seconds
    idle_timeout: float = IDLE_TIMEOUT  # seconds of silence (beyond the initiator's clock in a game)
    max_message: int = MAX_RECEIVE      # bytes of one message


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
        self.moves: list = []               # the game's moves (the rules' values, checked as they came in)
        self.player = 0                     # the player we are (0 = who moves first)
        self.clock: float | None = None     # our seconds left (None: no clock)
        self.move_limit = 0                 # moves of the game (0 = none)
        self.ended_by_us = False
        self.search_ply: int | None = None  # the ply our running search is for (None: none wanted)
        self.search_started = 0.0
        self.their_clock = 0.0              # the initiator's seconds for the whole game (its GAMEREQ)
        self.last_heard = time.monotonic()  # the initiator's last message, or our last move to it

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
            self.moves.append(done.move)
            self.send(MoveMessage(round(seconds), source, target, captured))
            self.last_heard = time.monotonic()          # its thinking time starts now
            self.log(f"we play {state.move_str(done.move)}")

    # --- the game ------------------------------------------------------------------------------
    def position(self):
        """The game so far as a session Position (draws the initiator played past are waived)."""
        return replay(self.start.copy(), self.moves, arbiter=True)

    def patience(self) -> float | None:
        """The seconds the initiator may now stay silent: none while our search runs (it waits
        for us); on its move in a game, the idle time-out plus its clock; else the idle time-out."""
        with self.lock:
            if self.playing and self.search_ply is not None:
                return None
            return self.settings.idle_timeout + (self.their_clock if self.playing else 0.0)

    def idle(self) -> bool:
        """Whether the initiator has been silent longer than its ``patience``."""
        limit = self.patience()
        return limit is not None and time.monotonic() - self.last_heard > limit

    def handle(self, text: str) -> None:
        """One message from the initiator."""
        self.last_heard = time.monotonic()
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
        self.their_clock = request.minutes * 60.0
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
        self.moves.append(move)
        self.log(f"they play {state.move_str(move)}")
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


class DxpLog:
    """The follower's log: whole lines from any thread, each cut to ``width`` characters with its
    control characters shown as ``?`` (an initiator's text can neither flood nor forge lines)."""

    def __init__(self, out: TextIO, width: int = LOG_WIDTH):
        self.out, self.width = out, width
        self.lock = threading.Lock()

    def __call__(self, text: str) -> None:
        """Write one line."""
        line = "".join(c if c.isprintable() else "?" for c in text)
        if len(line) > self.width:
            line = f"{line[:self.width]}... ({len(line) - self.width} more characters)"
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()


@dataclass(eq=False)
class Connection:
    """One open connection of the server: its channel, who it is, and whether it has sent its
    first whole message (until then it is silent, and gives its place to a newcomer)."""

    channel: DxpChannel
    who: str
    spoke: bool = False


class DxpServer:
    """The connections of one listening follower: one plays its games, the others are refused.

    Each connection has a thread.  Its first message is awaited (at most the idle time-out: a
    socket that never speaks holds nothing, and when a newcomer finds ``MAX_OPEN`` connections
    open, the oldest silent one is closed to make room); then it takes the one game slot
    (waiting ``SLOT_GRACE`` for a game that is just ending) and plays, or is refused at once:
    GAMEACC with code 3, no games, and closed.  A playing initiator silent beyond its patience
    (``DxpFollower.patience``) or sending a message past the size limit is disconnected.
    """

    def __init__(self, settings: DxpSettings, log: Callable[[str], None], connections: int | None = None):
        self.settings, self.log, self.limit = settings, log, connections
        self.slot = threading.Lock()            # the one game
        self.guard = threading.Lock()
        self.open: list[Connection] = []        # connections open now, oldest first
        self.played = 0                         # connections that played, to their end
        self.finished = threading.Event()       # ``connections`` of them have ended

    def admit(self, conn: socket.socket, address) -> None:
        """Take a new connection: when ``MAX_OPEN`` are open, the oldest silent one is closed to
        make room, and only when every open one has spoken is the newcomer closed at once."""
        connection = Connection(DxpChannel(conn, self.settings.max_message), f"{address[0]}:{address[1]}")
        with self.guard:
            full = len(self.open) >= MAX_OPEN
            silent = next((c for c in self.open if not c.spoke), None) if full else None
            if full and silent is None:
                admitted = False
            else:
                admitted = True
                if silent is not None:
                    self.open.remove(silent)
                self.open.append(connection)
        if not admitted:
            connection.channel.close()
            self.log(f"dxp: closed a connection from {address[0]}: {MAX_OPEN} are open already, none silent")
            return
        if silent is not None:
            silent.channel.close()              # its thread's receive ends: it said nothing
            self.log(f"dxp: closed {silent.who}: silent, and a newcomer needs its place ({MAX_OPEN} open)")
        threading.Thread(target=self.handle, args=(connection,), daemon=True).start()

    def handle(self, connection: Connection) -> None:
        """One connection, from its first message to its end."""
        channel, who = connection.channel, connection.who
        self.log(f"dxp: connection from {who}")
        try:
            first = self.first_message(channel, who)
            with self.guard:
                connection.spoke = first is not None and connection in self.open
            if not connection.spoke:
                return
            if not self.slot.acquire(timeout=SLOT_GRACE):
                self.refuse(channel, who, first)
                return
            try:
                self.play(channel, who, first)
            finally:
                self.slot.release()
                self.ended()
        finally:
            channel.close()
            with self.guard:
                if connection in self.open:
                    self.open.remove(connection)

    def first_message(self, channel: DxpChannel, who: str) -> str | None:
        """The connection's first message, or None (it said nothing in time, closed, or sent too much)."""
        try:
            text = channel.receive(self.settings.idle_timeout)
        except TimeoutError:
            self.log(f"dxp: {who} said nothing for {self.settings.idle_timeout:g} s; closed")
            return None
        except MessageTooLong as err:
            self.log(f"dxp: closed {who}: {err}")
            return None
        return text or None

    def refuse(self, channel: DxpChannel, who: str, first: str) -> None:
        """Another initiator plays: a GAMEREQ gets GAMEACC 3 (no games), anything else a close."""
        try:
            request = isinstance(parse_message(first), GameRequest)
        except DxpError:
            request = False
        if request:
            channel.send(GameAccept(ENGINE_NAME, REFUSED))
        self.log(f"dxp: refused {who}: another initiator is playing" + (" (GAMEACC 3)" if request else ""))

    def play(self, channel: DxpChannel, who: str, first: str) -> None:
        """Play the connection's games until it closes, falls silent or floods us."""
        follower = DxpFollower(channel.send, self.settings, self.log)
        try:
            follower.handle(first)
            while True:
                try:
                    text = channel.receive(POLL)
                except TimeoutError:
                    if follower.idle():
                        self.log(f"dxp: {who} was silent for {follower.patience():g} s; closed")
                        return
                    continue
                except MessageTooLong as err:
                    self.log(f"dxp: closed {who}: {err}")
                    return
                if text is None:
                    return
                if text:
                    follower.handle(text)
        finally:
            follower.connection_lost()
            channel.close()
            self.log("dxp: connection closed; waiting for the next initiator")

    def ended(self) -> None:
        """A played connection has ended (the server stops after ``connections`` of them)."""
        with self.guard:
            self.played += 1
            if self.limit is not None and self.played >= self.limit:
                self.finished.set()


def serve_dxp(settings: DxpSettings, host: str = "127.0.0.1", port: int = DXP_PORT,
              out: TextIO | None = None, connections: int | None = None) -> int:
    """Listen on ``host:port`` and play every connecting initiator's games, one initiator at a
    time (``DxpServer``: the others refused), until interrupted (or ``connections`` played
    connections ended); returns 0.

    The first line printed is ``dxp: listening on HOST:PORT`` (with the port the system chose
    for port 0).
    """
    log = DxpLog(out or sys.stdout)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(MAX_OPEN)
    listener.settimeout(POLL)
    log(f"dxp: listening on {host}:{listener.getsockname()[1]} as the follower, playing {settings.game}")
    server = DxpServer(settings, log, connections)
    try:
        while not server.finished.is_set():
            try:
                conn, address = listener.accept()
            except socket.timeout:
                continue
            conn.settimeout(None)
            server.admit(conn, address)
    except KeyboardInterrupt:
        pass
    finally:
        listener.close()
    return 0
