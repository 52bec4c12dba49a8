"""The engine after an internal error and on out-of-range options (issue 30).

The reproductions: a search that failed (a rules callback raising, ``Widening 1e308``'s
overflow) played the first legal move; ``Widening 1e308`` was accepted by ``setoption``;
``ProgressWeight`` failed every Rithmomachia search (the option is gone now: refused as
unknown).  A failed search now answers ``info string`` with the error and plays the move its
finished iterations chose, read before the tree is dropped.  (The malformed ``go`` lines
answering one ``bestmove`` each are in ``test_protocol.py``.)  What this change added is imported
inside the tests that need it, so that the reproductions fail by their assertions on the code
before it.
"""
from __future__ import annotations


import pytest

from mcts_engine.native import StopSignal
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts import uct
from mcts_engine.mcts.settings import Settings
from mcts_engine.mcts.uct import UctAgent
from mcts_engine.rules.base import NO_LIMIT
from support.drivers import EngineProcess, InProcessEngine
from support.toy_games import TakeAway, TakeAwayState


class FailsLate(TakeAwayState):
    """Take-away whose playouts raise from the ``after``-th on (counted per class)."""

    playouts = 0
    after = 10 ** 9

    def copy(self):
        return FailsLate(self.stones, self.to_move, self.winner, self.ply)

    def playout(self, rng, max_plies=NO_LIMIT):
        FailsLate.playouts += 1
        if FailsLate.playouts >= FailsLate.after:
            raise RuntimeError("a playout failed on purpose")
        return super().playout(rng, max_plies)


def test_a_failed_search_carries_the_move_its_finished_iterations_chose_and_then_forgets_the_tree():
    from mcts_engine.mcts.agent import SearchFailed
    game = TakeAway(40)
    FailsLate.playouts, FailsLate.after = 0, 700
    agent = UctAgent(game, Settings(seed=4, solver=False))
    with pytest.raises(SearchFailed, match="on purpose") as caught:
        agent.search(FailsLate(40), Limits(nodes=5000), StopSignal(), None, ("40",))
    found = caught.value.result
    assert found is not None and 0 < found.info.nodes < 700
    assert agent.core.dump(1) is None                       # forgotten after it was read
    FailsLate.playouts, FailsLate.after = 0, 10 ** 9             # the same search, stopped there by a limit
    again = UctAgent(game, Settings(seed=4, solver=False)).search(FailsLate(40), Limits(nodes=found.info.nodes),
                                                                  StopSignal(), None, ("40",))
    assert (found.move, found.info.nodes) == (again.move, again.info.nodes)


def test_a_search_that_fails_at_once_has_no_move_to_offer():
    from mcts_engine.mcts.agent import SearchFailed
    FailsLate.playouts, FailsLate.after = 0, 1
    agent = UctAgent(TakeAway(12), Settings(seed=4))
    with pytest.raises(SearchFailed) as caught:
        agent.search(FailsLate(12), Limits(nodes=100), StopSignal())
    assert caught.value.result is None


def test_the_engine_answers_a_failed_search_with_the_error_and_its_best_move(monkeypatch):
    """On main: ``search failed`` and the first legal move, whatever the search had found."""
    real = uct.search_info
    calls = {"n": 0}

    def failing(report, elapsed):       # the second progress report fails: the core's run raises it
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("the core failed on purpose")
        return real(report, elapsed)

    monkeypatch.setattr(uct, "search_info", failing)
    engine = InProcessEngine()
    try:
        engine.ask("setoption name Seed value 9")
        engine.ask("position startpos moves 11-15 23-19 8-11")
        engine.send("go movetime 5000")
        lines = engine.until("bestmove")
        errors = [s for s in lines if s.startswith("info string error: search failed: RuntimeError: the core failed")]
        assert len(errors) == 1, lines
        iterations = int(errors[0].split("after ")[1].split()[0])
        move = lines[-1].split()[1]
        assert iterations > 0 and move in engine.query("moves").split()
        assert not any(s.startswith("bestmove") for s in engine.sync())
        monkeypatch.setattr(uct, "search_info", real)
        engine.ask("ucinewgame")
        engine.ask("position startpos moves 11-15 23-19 8-11")
        _, same = engine.go(f"nodes {iterations}")              # the search the failure cut short
        assert same == move
    finally:
        engine.close()


def test_widening_1e308_is_refused_at_setoption_and_the_search_goes_on():
    """On main it was accepted, then every search failed (``OverflowError``) and played a random move."""
    engine = EngineProcess()
    try:
        lines = engine.ask("setoption name Widening value 1e308")
        assert len(lines) == 1 and "Widening" in lines[0] and "[0, 100]" in lines[0], lines
        lines, move = engine.go("nodes 300")
        assert not any("error" in s for s in lines) and move in engine.query("moves").split()
    finally:
        engine.close()


def test_progress_weight_is_refused_and_rithmomachia_searches():
    """On main ``ProgressWeight`` made every Rithmomachia search fail (``progress() missing 1 argument``)."""
    engine = EngineProcess()
    try:
        engine.ask("setoption name UCI_Variant value rithmomachia")
        lines = engine.ask("setoption name ProgressWeight value 1")
        assert len(lines) == 1 and "unknown option 'ProgressWeight'" in lines[0], lines
        lines, move = engine.go("nodes 200")
        assert not any("error" in s for s in lines) and move in engine.query("moves").split()
    finally:
        engine.close()


def test_rule_options_without_a_start_position_are_refused_and_go_still_answers():
    """``Rules men_rows=99`` was taken, though its start position put men of both sides on one
    square: the go that followed got an internal error and no bestmove (found by the fuzz), and
    the kernel and the Python rules judged it differently.  Now the option is refused, naming
    it, on both rules cores, and the engine goes on with its rules."""
    engine = InProcessEngine()
    try:
        lines = engine.ask("setoption name Rules value men_rows=99")      # past the option's bounds now
        assert len(lines) == 1 and lines[0].startswith("info string error") and "men_rows=99" in lines[0], lines
        lines = engine.ask("setoption name Rules value men_rows=5")       # within them, but not on this board
        assert len(lines) == 1 and lines[0].startswith("info string error") and "men_rows=5" in lines[0], lines
        assert "at most 4 rows" in lines[0], lines
        _, move = engine.go("nodes 20")
        assert move in engine.query("moves").split()
    finally:
        engine.close()
