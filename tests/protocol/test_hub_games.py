"""Hub mode plays a whole game of every registered game through a real Hub client, and
reads back every move it writes.

The engine is the console script in a subprocess.  The clients: pydraughts' ``HubEngine``
for the draughts variants pydraughts knows, and our own ``HubDriver`` (tests/drivers.py)
for every game.  Searches are seeded and limited by nodes (``level nodes=...``), so a game
is fast and the same every run.  Every ``go`` must end in one ``done``, no ``error`` line
may appear, every move must be legal by our rules, and the game runs until the rules end
it or a ply cap.
"""
from __future__ import annotations

import logging
import random

import pytest

from support import require
from support.drivers import EngineProcess, HubDriver, InProcessEngine, engine_command
from mcts_engine.protocol.conventions import SquareTranslation
from mcts_engine.rules import get_game, list_games

NODES = 24                 # per search: enough to find captures, small enough for speed
PLY_CAP = 160              # a whole game unless it runs longer than this
SCAN_NUMBERING = {"international", "frisian", "canadian"}
SLOW_GAMES = {"rithmomachia"}   # over ~5 s a game here

# pydraughts' variant name -> ours: every variant pydraughts knows.  pydraughts writes English,
# Russian, Brazilian and Turkish in its own numbering and colours; the Hub dialect translates
# them (mcts_engine/protocol/conventions.py).
PYDRAUGHTS_VARIANTS = {"standard": "international", "frisian": "frisian", "italian": "italian",
                       "english": "english", "russian": "russian", "brazilian": "brazilian",
                       "turkish": "turkish", "frysk!": "frysk", "antidraughts": "antidraughts",
                       "breakthrough": "breakthrough"}


def hub_start(game) -> str:
    """The start position as a Hub position string where Hub numbers squares as we do (Scan's
    10x10 boards and their 12x12 extension), else as our FEN."""
    if game.name not in SCAN_NUMBERING:
        return game.new_state().fen()
    side, *lists = game.new_state().fen().split(":")
    board = ["e"] * game.hub_squares
    for part in lists:
        colour = part[0]
        for item in filter(None, part[1:].split(",")):
            king = item.startswith("K")
            board[int(item.lstrip("K")) - 1] = colour.upper() if king else colour.lower()
    return side + "".join(board)


def game_params(name: str) -> list:
    return [pytest.param(name, marks=pytest.mark.slow) if name in SLOW_GAMES else name]


@pytest.mark.parametrize("name", [p for name in list_games() for p in game_params(name)])
def test_our_hub_client_plays_a_whole_game(name):
    game = get_game(name)
    mirror = game.new_state()
    translation = SquareTranslation(game)     # the Hub clients' numbering of this game (conventions.py)
    start = hub_start(game)
    engine = EngineProcess()
    hub = HubDriver(engine)
    try:
        lines = hub.handshake(variant=name, Seed=7)
        assert lines[0].startswith("id name=mcts-engine") and lines[-1] == "wait"
        hub.engine.send("new-game")
        moves: list[str] = []
        while mirror.outcome() is None and len(moves) < PLY_CAP:
            hub.position(start, moves)
            infos, move, ponder = hub.think(f"nodes={NODES}")
            assert all(s.startswith("info ") for s in infos), infos
            played = mirror.parse_hub_move(translation.move_in(move))   # legal by our rules, in Hub notation
            assert translation.move_out(mirror.hub_move_str(played)) == move
            mirror.play(played)
            if ponder is not None:
                mirror.copy().parse_hub_move(translation.move_in(ponder))
            moves.append(move)
        assert hub.errors == []
        assert hub.ping() == []
        assert engine.close() == 0
    finally:
        engine.kill()
    assert mirror.outcome() is not None or len(moves) == PLY_CAP


@pytest.mark.parametrize("variant", sorted(PYDRAUGHTS_VARIANTS))
def test_pydraughts_hub_engine_plays_a_whole_game(variant, caplog):
    draughts = require("draughts", "pydraughts is not installed (pip install pydraughts)", attribute="Board")
    from draughts.engine import HubEngine, Limit
    ours = PYDRAUGHTS_VARIANTS[variant]
    board = draughts.Board(variant=variant)
    mirror = get_game(ours).new_state()
    translation = SquareTranslation(get_game(ours))      # pydraughts' numbering -> ours
    caplog.set_level(logging.WARNING, logger="pydraughts")
    engine = HubEngine(engine_command())
    try:
        assert engine.id["name"] == "mcts-engine" and ours in engine.variants
        engine.setoption("variant", variant)          # pydraughts' own name of the variant
        engine.setoption("Seed", 7)
        engine.init()
        plies = 0
        while not board.is_over() and mirror.outcome() is None and plies < PLY_CAP:
            result = engine.play(board, Limit(nodes=NODES), ponder=False)
            mirror.play(mirror.parse_hub_move(translation.move_in(result.move.hub_move)))  # legal for us too
            board.push(result.move)
            plies += 1
        engine.ping()
        engine.quit()
        assert engine.p.wait(10) == 0
    finally:
        if engine.p.poll() is None:
            engine.kill_process()
    assert [r.getMessage() for r in caplog.records] == []   # pydraughts logs every unexpected line
    assert board.is_over() or mirror.outcome() is not None or plies == PLY_CAP


def hub_positions(game, seed: int, plies: int = 200) -> list:
    """Positions of a seeded random game (its first ``plies`` plies): the start, the middle,
    the first where a capture is legal, and the one with the longest move text."""
    rng, state, states = random.Random(seed), game.new_state(), []
    while len(states) < plies and (move := state.random_move(rng)) is not None:
        states.append(state.copy())
        state.play(move)
    picked = [states[0], states[len(states) // 2]]
    picked += [s for s in states if any(s.is_capture(m) for m in s.legal_moves())][:1]
    picked.append(max(states, key=lambda s: max(len(s.hub_move_str(m)) for m in s.legal_moves())))
    return picked


@pytest.mark.parametrize("name", list_games())
def test_every_move_hub_writes_is_read_back_by_pos(name):
    """Hub mode, every game, in-process: every legal move of random positions, as the
    engine's ``done`` and ``info pv`` write it (``hub_move_str`` in the clients' numbering,
    conventions.py), is accepted by ``pos moves=`` (one token, read back as the same move);
    after one of them a ``go`` answers from the position it leads to."""
    game = get_game(name)
    translation = SquareTranslation(game)
    engine = InProcessEngine()
    hub = HubDriver(engine)
    try:
        hub.handshake(variant=name, Agent="random", Seed=3)
        for state in hub_positions(game, seed=len(name)):
            texts = [translation.move_out(state.hub_move_str(move)) for move in state.legal_moves()]
            assert texts and all(len(t.split()) == 1 and '"' not in t for t in texts), texts
            for text in texts:
                hub.position(state.fen(), [text])
            assert hub.ping() == [] and hub.errors == [], (state.fen(), hub.errors[:3])
            after = state.copy()
            after.play(after.parse_hub_move(translation.move_in(texts[-1])))
            if after.outcome() is None:
                _, move, _ = hub.think("nodes=1")
                after.parse_hub_move(translation.move_in(move))       # legal where the last pos left the engine
        assert hub.errors == []
    finally:
        engine.close()
