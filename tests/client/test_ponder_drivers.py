"""Pondering through the drivers, against our engine as a real process: ``go ponder`` on the
expected reply, then ``ponderhit`` (Hub: ``ponder-hit``) when it is played, else ``stop`` and a
fresh search; the time of an answer is counted from the engine's turn (a fake clock: the time
spent pondering is never in it).  DXP has no pondering; an engine without a Ponder option may
not be sent ``go ponder``."""
from __future__ import annotations

import pytest

from mcts_engine.client import EngineProtocolError, EngineSpec, EngineStartError, GoLimits, make_engine
from mcts_engine.client.dxp import DxpEngineProcess
from mcts_engine.client.specs import parse_engine_arg
from mcts_engine.rules import get_game
from support import FAKES
from support.tournament import PY

NODES = GoLimits(nodes=200)


def started(spec_text: str, game: str = "english"):
    """The engine of ``spec_text`` started, its sent lines logged, its clock a fake one at 0."""
    sent: list[str] = []
    engine = make_engine(parse_engine_arg(spec_text), game=game,
                         io_log=lambda name, way, line: sent.append(line) if way == ">" else None)
    engine.start()
    now = [0.0]
    engine.timer = lambda: now[0]
    return engine, sent, now


def other_reply(game: str, moves: list[str], expected: str) -> str:
    """A legal reply after ``moves`` that is not ``expected``."""
    state = get_game(game).new_state()
    for text in moves:
        state.play(state.parse_move(text))
    return next(state.move_str(m) for m in state.legal_moves() if state.move_str(m) != expected)


# the engines play plain UCT (Defaults plain), seeded: the lines, and so a reply that is not the
# only legal one to miss with, do not change with a game's measured defaults
@pytest.mark.parametrize("spec, hit, go, think", [
    ("name=P cmd=mcts-engine option.Seed=1 option.Defaults=plain ponder", "ponderhit", "go ponder nodes 200", "go nodes 200"),
    ('name=P protocol=hub cmd="mcts-engine hub" option.Seed=1 option.Defaults=plain ponder', "ponder-hit", "go ponder",
     "go think"),
])
def test_a_ponder_search_ends_in_ponderhit_or_in_stop_and_a_fresh_search(spec, hit, go, think):
    engine, sent, now = started(spec)
    try:
        engine.new_game()
        first = engine.go(None, [], NODES, 30)
        assert first.ponder is not None and first.pondered is None
        engine.ponder(None, [first.move], first.ponder, NODES)
        assert engine.pondering and sent[-1] == go
        now[0] = 100.0                                   # the opponent thinks for 100 s
        answer = engine.go(None, [first.move, first.ponder], NODES, 30)
        assert answer.pondered == "hit" and answer.elapsed == 0.0 and not engine.pondering
        assert sent[-1] == hit
        line = [first.move, first.ponder, answer.move]
        engine.ponder(None, line, answer.ponder, NODES)
        now[0] = 200.0
        played = other_reply("english", line, answer.ponder)
        missed = engine.go(None, line + [played], NODES, 30)
        assert missed.pondered == "miss" and missed.elapsed == 0.0
        after_stop = sent[sent.index("stop"):]
        assert after_stop[-1] == think and len(after_stop) in (3, 4)   # stop, position (Hub: pos, level), go
        state = get_game("english").new_state()
        for text in line + [played]:
            state.play(state.parse_move(text))
        assert missed.move in [state.move_str(m) for m in state.legal_moves()]
        engine.ponder(None, line + [played, missed.move], missed.ponder, NODES)
        engine.stop_pondering()                          # the game ended meanwhile
        assert not engine.pondering and sent[-1] == "stop"
        assert engine.ping() >= 0                        # the ponder search's move was read and dropped
    finally:
        engine.quit()


def test_the_time_after_ponderhit_is_charged_and_the_time_before_it_is_not():
    """A clock that advances only while the engine answers: the answer's elapsed time is
    what passed after ponderhit, not the opponent's thinking before it."""
    engine, sent, now = started("name=P cmd=mcts-engine option.Seed=2 ponder")
    try:
        first = engine.go(None, [], NODES, 30)
        engine.ponder(None, [first.move], first.ponder, NODES)
        now[0] = 50.0
        hooked = engine.on_info
        engine.on_info = lambda line: now.__setitem__(0, 50.25)   # the engine's search takes 0.25 s
        answer = engine.go(None, [first.move, first.ponder], NODES, 30)
        engine.on_info = hooked
        assert answer.pondered == "hit" and answer.elapsed == pytest.approx(0.25)
    finally:
        engine.quit()


def test_an_engine_with_no_ponder_option_may_not_ponder():
    spec = parse_engine_arg(f'name=G cmd="{PY} {FAKES / "good.py"}" ponder')
    with pytest.raises(EngineStartError, match="declares no Ponder option"):
        make_engine(spec, game="english").start()


def test_dxp_has_no_pondering():
    engine = DxpEngineProcess(EngineSpec("D", [], protocol="dxp", port=27531))
    assert not engine.pondering
    with pytest.raises(EngineProtocolError, match="protocol dxp has no pondering"):
        engine.ponder(None, [], "32-28", NODES)
