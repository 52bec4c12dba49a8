"""DXP (DamExchange): the message codec, the follower's answers to every message, the server.

The follower is driven in-process (its messages collected in a list) except for the server
test, which talks to ``serve_dxp`` over a loopback socket.  Searches are seeded and
node-limited, so every run is the same.
"""
from __future__ import annotations

import io
import queue
import socket
import threading
import time

import pytest

from mcts_engine.mcts.limits import Limits
from mcts_engine.protocol.dxp import DxpFollower, DxpSettings, serve_dxp
from mcts_engine.protocol.dxp_messages import (BackAccept, BackRequest, Chat, DxpChannel, DxpError, GameAccept,
                                               GameEnd, GameRequest, MoveMessage, parse_message)
from mcts_engine.rules import get_game

START = "z" * 20 + "e" * 10 + "w" * 20


# --- the codec ----------------------------------------------------------------------------------

@pytest.mark.parametrize("message, text", [
    (GameRequest("Tornado voor Windows 4.0", "W", 60, 65), "R01Tornado voor Windows 4.0        W060065A"),
    (GameRequest("GUI", "Z", 5, 0, START, "W"), "R01GUI" + " " * 29 + "Z005000BW" + START),
    (GameAccept("Tornado voor Windows 4.0"), "ATornado voor Windows 4.0        0"),
    (MoveMessage(1, 6, 11), "M0001061100"),
    (MoveMessage(12, 5, 25, (4, 22, 12, 23)), "M0012052504042212" + "23"),
    (GameEnd("0", "0"), "E00"),
    (Chat("What do you think about move 35?"), "CWhat do you think about move 35?"),
    (BackRequest(5, "Z"), "B005Z"),
    (BackAccept("1"), "K1"),
])
def test_messages_encode_as_the_dxp_pages_show_and_read_back(message, text):
    assert message.encode() == text
    assert parse_message(text) == message


@pytest.mark.parametrize("text, why", [
    ("", "empty"), ("X12", "unknown message type"), ("R01short", "too short"),
    ("R01" + " " * 32 + "Q001000A", "follower colour"), ("M00010611", "too short"),
    ("M000106110212", "fewer than 2"), ("B005Q", "W or Z"), ("Mabcd061100", "not a number"),
])
def test_malformed_messages_are_named(text, why):
    with pytest.raises(DxpError, match=why):
        parse_message(text)


# --- the follower, in-process ------------------------------------------------------------------

class Initiator:
    """Collects the follower's messages; waits for the next one with a timeout."""

    def __init__(self, **settings):
        self.inbox: queue.Queue = queue.Queue()
        self.logs: list[str] = []
        self.follower = DxpFollower(lambda m: self.inbox.put(m), DxpSettings(**{"nodes": 24,
                                    "options": {"Seed": "5"}, **settings}), self.logs.append)

    def send(self, message) -> None:
        self.follower.handle(message if isinstance(message, str) else message.encode())

    def receive(self, timeout: float = 20.0):
        return self.inbox.get(timeout=timeout)

    def quiet(self, wait: float = 0.3) -> bool:
        time.sleep(wait)
        return self.inbox.empty()

    def close(self) -> None:
        self.follower.connection_lost()


@pytest.fixture
def initiator():
    ini = Initiator()
    yield ini
    ini.close()


def test_follower_as_white_accepts_and_moves_first(initiator):
    initiator.send(GameRequest("tester", "W", 10, 0))
    assert initiator.receive() == GameAccept("mcts-engine", "0")
    move = initiator.receive()
    state = get_game("international").new_state()
    state.play(state.parse_hub_move(f"{move.source}-{move.target}"))        # legal for our rules
    assert 31 <= move.source <= 35 and move.captured == ()


def test_follower_as_black_answers_each_move_and_ends_a_game_the_initiator_ends(initiator):
    initiator.send(GameRequest("tester", "Z", 10, 0))
    assert initiator.receive().code == "0" and initiator.quiet()      # White (the initiator) is to move
    initiator.send(MoveMessage(0, 32, 28))
    reply = initiator.receive()
    assert isinstance(reply, MoveMessage) and 16 <= reply.source <= 20
    initiator.send(Chat("nice move"))
    assert initiator.quiet() and "chat: nice move" in initiator.logs      # a chat needs no answer
    initiator.send(GameEnd("0", "0"))
    assert initiator.receive() == GameEnd("0", "0")                        # confirmed, same stop code
    initiator.send(MoveMessage(0, 33, 29))
    assert initiator.quiet()                                               # no game: moves are ignored


def test_follower_names_an_illegal_move_and_ends_the_game(initiator):
    initiator.send(GameRequest("tester", "Z", 10, 0))
    initiator.receive()
    initiator.send(MoveMessage(0, 32, 27, (5,)))
    chat, end = initiator.receive(), initiator.receive()
    assert isinstance(chat, Chat) and "illegal move 32x27x5" in chat.text
    assert end == GameEnd("0", "0")
    initiator.send(GameEnd("0", "0"))                 # the initiator confirms: nothing more
    assert initiator.quiet()


def test_follower_refuses_other_versions_and_other_boards(initiator):
    initiator.send("R02tester" + " " * 26 + "W001000A")
    assert initiator.receive() == GameAccept("mcts-engine", "1")
    initiator.send(GameRequest("tester", "W", 1, 0, "z" * 12 + "e" * 8 + "w" * 12, "W"))   # an 8x8 board
    assert initiator.receive() == GameAccept("mcts-engine", "2")
    assert initiator.quiet()


def test_follower_starts_from_a_requested_position_and_claims_the_end():
    ini = Initiator()
    try:
        # White (us) to move with one man that cannot move: we have lost, and say so instead of moving
        blocked = ["e"] * 50
        blocked[45], blocked[40], blocked[36] = "w", "z", "z"      # 46 blocked by 41, 37 covers
        ini.send(GameRequest("tester", "W", 1, 0, "".join(blocked), "W"))
        assert ini.receive().code == "0"
        assert ini.receive() == GameEnd("1", "0")                  # reason 1: I lose
        ini.send(GameEnd("0", "0"))                                # the confirmation: nothing more
        assert ini.quiet()
    finally:
        ini.close()


def test_follower_goes_back_on_backreq(initiator):
    initiator.send(GameRequest("tester", "Z", 10, 0))
    initiator.receive()
    initiator.send(MoveMessage(0, 32, 28))
    first = initiator.receive()
    initiator.send(BackRequest(9, "W"))                       # a position this game never reached
    assert initiator.receive() == BackAccept("1")
    initiator.send(BackRequest(1, "Z"))                       # back to Black's first move: ours again
    assert initiator.receive() == BackAccept("0")
    again = initiator.receive()                                # a new search of the same position:
    for reply in (first, again):                               # a legal Black reply to 32-28 (the
        state = get_game("international").new_state()          # seed's stream has moved on, so it
        state.play(state.parse_hub_move("32-28"))              # need not be the same move)
        state.play(state.parse_hub_move(f"{reply.source}-{reply.target}"))
    initiator.send(BackRequest(1, "W"))                       # back to the start: White (them) to move
    assert initiator.receive() == BackAccept("0") and initiator.quiet()
    initiator.send(MoveMessage(0, 31, 27))
    assert isinstance(initiator.receive(), MoveMessage)


def test_follower_limits_follow_the_requested_clock():
    ini = Initiator(nodes=None)
    try:
        follower = ini.follower
        follower.clock, follower.move_limit, follower.moves = 600.0, 50, ["32-28", "19-23"]
        assert follower.limits() == Limits(time_left=600.0, movestogo=49)
        follower.move_limit = 0
        assert follower.limits() == Limits(time_left=600.0)
        follower.clock = None                                  # a GAMEREQ of 0 minutes
        assert follower.limits() == Limits(movetime=1.0)
        follower.settings.movetime = 0.25
        assert follower.limits() == Limits(movetime=0.25)
    finally:
        ini.close()


def test_follower_ends_the_game_when_its_moves_are_played(initiator):
    initiator.send(GameRequest("tester", "Z", 10, 1))          # a one-move game
    initiator.receive()
    initiator.send(MoveMessage(0, 32, 28))
    assert isinstance(initiator.receive(), MoveMessage)
    initiator.send(MoveMessage(0, 37, 32))
    assert initiator.receive() == GameEnd("0", "0")


# --- the server over a socket --------------------------------------------------------------------

class Lines(io.StringIO):
    """A text stream whose first line (the port) a test can wait for."""

    def __init__(self):
        super().__init__()
        self.first = threading.Event()

    def write(self, text: str) -> int:
        n = super().write(text)
        self.first.set()
        return n


def test_server_survives_a_dropped_connection():
    out = Lines()
    server = threading.Thread(target=serve_dxp, args=(DxpSettings(nodes=16),), daemon=True,
                              kwargs={"port": 0, "out": out, "connections": 2})
    server.start()
    assert out.first.wait(10)
    port = int(out.getvalue().split()[3].rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:   # dropped mid-game
        channel = DxpChannel(sock)
        channel.send(GameRequest("first", "W", 1, 0))
        assert parse_message(channel.receive(10)).code == "0"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        channel = DxpChannel(sock)
        channel.send(GameRequest("second", "Z", 1, 0))
        assert parse_message(channel.receive(10)).code == "0"
        channel.send(MoveMessage(0, 33, 28))
        assert isinstance(parse_message(channel.receive(20)), MoveMessage)
    server.join(10)
    assert not server.is_alive()
    log = out.getvalue()
    assert log.count("connection closed; waiting for the next initiator") == 2


def test_two_messages_we_send_arrive_apart():
    """pydraughts' DXPEngine reads one recv() as one message: a GAMEACC and our first move sent
    back to back reached it as one, the move was lost and the client waited for ever; each
    message we send now leaves MESSAGE_GAP after the one before, so a client waiting in recv()
    gets them one by one."""
    from mcts_engine.protocol.dxp_messages import MESSAGE_GAP
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.settimeout(5)
        reads: list[bytes] = []
        reader = threading.Thread(target=lambda: reads.extend([theirs.recv(1024), theirs.recv(1024)]))
        reader.start()
        channel = DxpChannel(ours)
        started = time.monotonic()
        channel.send(GameAccept("mcts-engine", "0"))
        channel.send(Chat("hello"))
        assert time.monotonic() - started >= MESSAGE_GAP
        reader.join(5)
        assert [r[:1] for r in reads] == [b"A", b"C"] and all(r.count(b"\0") == 1 for r in reads)
