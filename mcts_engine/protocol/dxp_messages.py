"""DamExchange (DXP) messages and their framing: the codec both ends of a DXP game share.

DXP (mesander.nl/damexchange) sends messages of 1 to 127 ASCII characters over a TCP
stream, each ended by a NUL (layer 1, port 27531 by default).  The first character is
the message type (layer 2):

========  =====================================================================
``R``     GAMEREQ (initiator): version ``01``, initiator name (32), follower colour
          ``W``/``Z``, thinking time in minutes (3), number of moves (3, ``000`` =
          no limit), ``A`` (the start position) or ``B`` + colour to move + one
          of ``e w z W Z`` per square
``A``     GAMEACC (follower): follower name (32), acceptance code ``0`` yes, ``1``
          wrong version, ``2`` not this game (another is welcome), ``3`` no games
``M``     MOVE: seconds used (4), from (2), to (2), number captured (2), captured
          squares (2 each, any order)
``E``     GAMEEND: reason ``0`` none, ``1`` I lose, ``2`` draw, ``3`` I win; stop code
          ``0`` (another game is welcome) or ``1`` (no more games)
``C``     CHAT: free text
``B``     BACKREQ: move number (3), colour to move ``W``/``Z``
``K``     BACKACC: ``0`` yes, ``1`` no, ``2`` play on
========  =====================================================================

Each message is a frozen dataclass with ``encode()``; ``parse_message`` reads one and
raises ``DxpError`` naming what is wrong.  ``DxpChannel`` frames them on a socket.
"""
from __future__ import annotations

import select
import socket
import threading
import time
from dataclasses import dataclass

DXP_PORT = 27531
NAME_WIDTH = 32
MAX_MESSAGE = 127        # characters of a message we send (DXP's limit)
# Seconds between two messages we send.  Clients derived from DXC100 (pydraughts' DXPEngine
# among them) take what one recv() returns as one message: a GAMEACC and our first move
# arriving together would lose the move, and the client would wait for it for ever.
MESSAGE_GAP = 0.05
MAX_RECEIVE = 1024       # bytes of a message we take before closing the connection
RECEIVE_CHUNK = 4096
SEND_TIMEOUT = 10.0      # seconds a peer may leave a message of ours untaken before the connection closes
DXP_LETTERS = str.maketrans("zZ", "bB")      # a DXP position's Black ("zwart") as Hub's b
HUB_LETTERS = str.maketrans("bB", "zZ")      # and back: a Hub position's pieces as DXP writes them


class DxpError(ValueError):
    """A malformed DXP message; the message names the problem."""


def _name(text: str) -> str:
    """A program name as DXP writes it: 32 characters, padded with blanks."""
    return text.strip().ljust(NAME_WIDTH)[:NAME_WIDTH]


def _number(text: str, what: str) -> int:
    if not text.isdigit():
        raise DxpError(f"{what} {text!r} is not a number")
    return int(text)


@dataclass(frozen=True)
class GameRequest:
    """GAMEREQ: the initiator asks for a game; ``position`` None = the usual start position."""

    initiator: str
    follower_colour: str            # W or Z
    minutes: int                    # thinking time per player for the whole game
    moves: int                      # moves of the game (0 = no limit)
    position: str | None = None     # one of e w z W Z per square, in the square numbers' order
    colour_to_move: str = "W"
    version: int = 1

    def encode(self) -> str:
        """The message text."""
        text = f"R{self.version:02d}{_name(self.initiator)}{self.follower_colour}{self.minutes:03d}{self.moves:03d}"
        return text + ("A" if self.position is None else f"B{self.colour_to_move}{self.position}")


@dataclass(frozen=True)
class GameAccept:
    """GAMEACC: the follower's answer to a GAMEREQ (``code`` 0 = accepted)."""

    follower: str
    code: str = "0"

    def encode(self) -> str:
        """The message text."""
        return f"A{_name(self.follower)}{self.code}"


@dataclass(frozen=True)
class MoveMessage:
    """MOVE: one move as square numbers (captured squares in any order)."""

    seconds: int
    source: int
    target: int
    captured: tuple[int, ...] = ()

    def encode(self) -> str:
        """The message text."""
        return (f"M{min(self.seconds, 9999):04d}{self.source:02d}{self.target:02d}{len(self.captured):02d}"
                + "".join(f"{c:02d}" for c in self.captured))


@dataclass(frozen=True)
class GameEnd:
    """GAMEEND: ``reason`` 0 none, 1 I lose, 2 draw, 3 I win; ``stop`` 1 = no further game."""

    reason: str = "0"
    stop: str = "0"

    def encode(self) -> str:
        """The message text."""
        return f"E{self.reason}{self.stop}"


@dataclass(frozen=True)
class Chat:
    """CHAT: free text (at most 126 characters)."""

    text: str

    def encode(self) -> str:
        """The message text."""
        return "C" + "".join(c if 32 <= ord(c) < 127 else "?" for c in self.text)[:MAX_MESSAGE - 1]


@dataclass(frozen=True)
class BackRequest:
    """BACKREQ: go back to move ``move_number`` with ``colour`` (W or Z) to move."""

    move_number: int
    colour: str

    def encode(self) -> str:
        """The message text."""
        return f"B{self.move_number:03d}{self.colour}"


@dataclass(frozen=True)
class BackAccept:
    """BACKACC: ``code`` 0 = went back, 1 = will not, 2 = play on instead."""

    code: str

    def encode(self) -> str:
        """The message text."""
        return f"K{self.code}"


Message = GameRequest | GameAccept | MoveMessage | GameEnd | Chat | BackRequest | BackAccept


def parse_message(text: str) -> Message:
    """One DXP message from its text; raises DxpError."""
    if not text:
        raise DxpError("an empty message")
    kind, body = text[0], text[1:]
    try:
        if kind == "R":
            if len(body) < 41:
                raise DxpError(f"GAMEREQ {text!r} is too short")
            colour = body[34]
            if colour not in "WZ":
                raise DxpError(f"GAMEREQ follower colour {colour!r} is not W or Z")
            start = body[41]
            if start == "A":
                position, to_move = None, "W"
            elif start == "B" and len(body) > 43:
                to_move, position = body[42], body[43:].rstrip()
                if to_move not in "WZ" or any(c not in "ewzWZ" for c in position):
                    raise DxpError(f"GAMEREQ position {body[42:]!r} is not W or Z then e w z W Z per square")
            else:
                raise DxpError(f"GAMEREQ starting position {start!r} is not A or B with a position")
            return GameRequest(body[2:34].strip(), colour, _number(body[35:38], "thinking time"),
                               _number(body[38:41], "number of moves"), position, to_move,
                               _number(body[0:2], "version"))
        if kind == "A":
            if len(body) < NAME_WIDTH + 1:
                raise DxpError(f"GAMEACC {text!r} is too short")
            return GameAccept(body[:NAME_WIDTH].strip(), body[NAME_WIDTH])
        if kind == "M":
            if len(body) < 10:
                raise DxpError(f"MOVE {text!r} is too short")
            count = _number(body[8:10], "number captured")
            fields = body[10:10 + 2 * count]
            if len(fields) != 2 * count:
                raise DxpError(f"MOVE {text!r} lists fewer than {count} captured squares")
            captured = tuple(_number(fields[i:i + 2], "captured square") for i in range(0, 2 * count, 2))
            return MoveMessage(_number(body[0:4], "time"), _number(body[4:6], "from square"),
                               _number(body[6:8], "to square"), captured)
        if kind == "E":
            if len(body) < 2:
                raise DxpError(f"GAMEEND {text!r} is too short")
            return GameEnd(body[0], body[1])
        if kind == "C":
            return Chat(body)
        if kind == "B":
            if len(body) < 4 or body[3] not in "WZ":
                raise DxpError(f"BACKREQ {text!r} is not a move number and W or Z")
            return BackRequest(_number(body[0:3], "move number"), body[3])
        if kind == "K":
            if not body:
                raise DxpError(f"BACKACC {text!r} has no acceptance code")
            return BackAccept(body[0])
    except IndexError:
        raise DxpError(f"message {text!r} is too short") from None
    raise DxpError(f"unknown message type {kind!r} in {text!r}")


class MessageTooLong(DxpError):
    """A message that grew past the channel's limit without its NUL (the connection is closed)."""


class DxpChannel:
    """DXP layer 1 on a connected TCP socket: messages ended by NUL; ``send`` is thread-safe.

    A message may be at most ``max_message`` bytes (DXP's own limit is 127 characters; the
    default leaves room for long chats): a peer that sends more without its NUL gets its
    connection closed (``MessageTooLong``).  Receiving scans each byte once, so a long stream
    costs linear time; a send that the peer does not take within ``SEND_TIMEOUT`` seconds
    closes the connection.  Two messages we send are ``MESSAGE_GAP`` apart.
    """

    def __init__(self, sock: socket.socket, max_message: int = MAX_RECEIVE):
        self.sock = sock
        self.max_message = max_message
        self._last_send = float("-inf")      # when our last message left (MESSAGE_GAP)
        self._buffer = bytearray()
        self._scanned = 0                 # bytes of the buffer already searched for a NUL
        self._lock = threading.Lock()
        self.closed = False
        sock.settimeout(SEND_TIMEOUT)     # receiving waits in select(), so this bounds sends only

    def receive(self, timeout: float | None = None) -> str | None:
        """The next message text; None once the peer has closed the connection (or it broke).

        With ``timeout`` (seconds), raises ``TimeoutError`` when no whole message came in time;
        raises ``MessageTooLong`` (and closes) when a message passes ``max_message`` bytes.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            end = self._buffer.find(b"\0", self._scanned)
            if end >= 0:
                message = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                self._scanned = 0
                return message.decode("ascii", errors="replace").strip()
            self._scanned = len(self._buffer)
            if len(self._buffer) > self.max_message:
                self.close()
                raise MessageTooLong(f"a message longer than {self.max_message} bytes without its NUL")
            chunk = self._read(deadline)
            if not chunk:
                self.closed = True
                return None
            self._buffer += chunk

    def _read(self, deadline: float | None) -> bytes:
        """The next bytes from the socket (b"" once it is closed); TimeoutError past ``deadline``."""
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:
            raise TimeoutError("no DXP message in time")
        try:
            ready, _, _ = select.select([self.sock], [], [], wait)
        except (OSError, ValueError):              # closed meanwhile (ValueError: its fd is -1)
            return b""
        if not ready:
            raise TimeoutError("no DXP message in time")
        try:
            return self.sock.recv(RECEIVE_CHUNK)
        except OSError:
            return b""

    def send(self, message: Message | str) -> bool:
        """Send one message; False when the connection is gone (or the peer stopped reading)."""
        text = message if isinstance(message, str) else message.encode()
        with self._lock:
            wait = self._last_send + MESSAGE_GAP - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                self.sock.sendall(text.encode("ascii", errors="replace")[:MAX_MESSAGE] + b"\0")
                self._last_send = time.monotonic()
                return True
            except OSError:
                self.closed = True
                return False

    def close(self) -> None:
        """Close the connection (idempotent)."""
        self.closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
