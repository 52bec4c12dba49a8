"""pydraughts' own tournament and DXP client against our engine, as a new user would run them.

* ``RoundRobin`` (pydraughts' tournament, the library behind the lidraughts bot bridge)
  with our engine as both Hub players plays one whole game on a real clock in every
  variant pydraughts knows: no client warning or error, every move legal for pydraughts
  (its ``Move`` would raise otherwise) and, replayed from the PDN it writes, for our rules;
  a game pydraughts ends by a win ends so by our rules too.
* ``DXPEngine`` (pydraughts' DXP initiator) plays a whole game against ``mcts-engine dxp``.

Games on a clock are not reproducible, so these tests check behaviour, not moves.
"""
from __future__ import annotations

import logging
import random
import re
import subprocess
import threading
import time

import pytest

from support import require
from support.drivers import engine_command, engine_env
from mcts_engine.protocol.conventions import SquareTranslation
from mcts_engine.rules import get_game

# pydraughts' variant name -> ours (pydraughts sends its own name in set-param variant)
VARIANTS = {"standard": "international", "english": "english", "italian": "italian", "russian": "russian",
            "brazilian": "brazilian", "turkish": "turkish", "frisian": "frisian", "frysk!": "frysk",
            "antidraughts": "antidraughts", "breakthrough": "breakthrough"}
CLOCK = (1.0, 0.02)        # seconds a game per side, increment: about 5 s a game


def pdn_moves(text: str) -> tuple[str, list[str]]:
    """(the result, the move texts) of a one-game PDN as pydraughts writes it."""
    result = re.search(r'\[Result "([^"]*)"\]', text).group(1)
    body = " ".join(line for line in text.splitlines() if not line.startswith("["))
    moves = [t for t in body.split() if not re.fullmatch(r"\d+\.(\.\.)?|[012]-[012]|\*", t)]
    return result, moves


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_pydraughts_round_robin_plays_a_whole_game_over_hub(variant, tmp_path, caplog):
    draughts = require("draughts", "pydraughts is not installed (pip install pydraughts)", attribute="Board")
    from draughts.tournament import RoundRobin
    caplog.set_level(logging.WARNING, logger="pydraughts")
    players = [(engine_command(), "hub", {"variant": variant, "Seed": seed}, None) for seed in (1, 2)]
    pdn = tmp_path / "games.pdn"
    tournament = RoundRobin(str(pdn), players, *CLOCK, variant=variant, games_per_pair=1)
    scores = tournament.play()
    assert [r.getMessage() for r in caplog.records] == []       # pydraughts logs every unexpected line
    assert sorted(scores) in ([0, 2], [1, 1])                   # one game, scored 2-0, 1-1 or 0-2
    result, moves = pdn_moves(pdn.read_text())
    assert len(moves) >= 10
    state = get_game(VARIANTS[variant]).new_state()
    for text in moves:
        state.play_on()                  # pydraughts is the arbiter: its game goes on past our draws
        state.play(state.parse_move(text))
    if result in ("2-0", "0-2"):         # won by the rules, not by a move limit
        board = draughts.Board(variant=variant)
        white_first = board.turn == draughts.WHITE
        first_won = (result == "2-0") == white_first
        assert state.outcome() == (1.0 if first_won else 0.0), (result, state.fen())


@pytest.fixture
def dxp_follower(request):
    """``mcts-engine dxp`` on a free loopback port (seeded, 24 iterations a move); yields the port.

    A watchdog kills it after a minute, so a client waiting for a move that never comes fails
    instead of hanging (pydraughts' DXPEngine would wait for ever)."""
    game = getattr(request, "param", "international")
    proc = subprocess.Popen([*engine_command(), "dxp", "--port", "0", "--game", game, "--nodes", "24",
                             "--option", "Seed=3"], stdout=subprocess.PIPE, text=True, env=engine_env())
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        first = proc.stdout.readline()
        assert first.startswith("dxp: listening on 127.0.0.1:"), first
        yield int(first.split()[3].rsplit(":", 1)[1])
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait(10)
        proc.stdout.close()


@pytest.mark.parametrize("dxp_follower, variant", [("international", "standard"), ("russian", "russian")],
                         indirect=["dxp_follower"], ids=["international", "russian"])
def test_pydraughts_dxp_engine_plays_a_whole_game(dxp_follower, variant, monkeypatch):
    """pydraughts' DXP initiator against our follower; pydraughts plays seeded random moves."""
    draughts = require("draughts", "pydraughts is not installed (pip install pydraughts)", attribute="Board")
    from draughts.engine import DXPEngine
    import draughts.engines.dxp_communication.dxp_classes as dxp_classes

    class NoSleep:           # pydraughts sleeps 7 s before it closes a socket
        sleep = staticmethod(lambda seconds: None)
        perf_counter_ns = staticmethod(time.perf_counter_ns)
    monkeypatch.setattr(dxp_classes, "time", NoSleep)
    engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": dxp_follower, "initial-time": 60})
    board = draughts.Board(variant)
    mirror = get_game(VARIANTS[variant]).new_state()
    translation = SquareTranslation(mirror.game)      # pydraughts' square numbers -> ours
    rng = random.Random(11)
    plies = ours = 0
    try:
        while not board.is_over() and mirror.outcome() is None and plies < 400:
            if plies % 2 == 0:
                move = engine.play(board).move              # our engine: legal for pydraughts ...
                assert move is not None, "no move from the follower"
                ours += 1
            else:
                move = rng.choice(board.legal_moves())
            mirror.play(mirror.parse_hub_move(translation.move_in(move.hub_move)))   # ... and for our rules
            board.push(move)
            plies += 1
    finally:
        engine.quit()
    assert board.is_over() or mirror.outcome() is not None
    assert ours >= 10 and engine.id["name"] == "mcts-engine"
