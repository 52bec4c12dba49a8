"""Fox and Geese (../shared/rules/fox-and-geese.md §10): every worked example, one test each."""
from __future__ import annotations

import pytest

from mcts_engine.rules import IllegalMove, get_game
from support import legal_strs, play_strs

GAME = get_game("fox-and-geese")


def test_example1_opening():
    """Ex. 1: the geese's 16 opening moves onto rank 4."""
    assert legal_strs(GAME.new_state()) == set(
        "a3-a4 a3-b4 b3-a4 b3-b4 b3-c4 c3-b4 c3-c4 d3-c4 d3-e4 e3-e4 e3-f4 f3-e4 f3-f4 f3-g4 g3-f4 g3-g4".split())


def test_example2_optional_capture_compulsory_continuation():
    """Ex. 2: seven steps and the chain c4xe4xe6; c4xe4 alone is illegal; after the chain the fox wins."""
    state = GAME.parse_fen("F:Gd4,e5:Fc4")
    assert legal_strs(state) == set("c4-b3 c4-b4 c4-b5 c4-c3 c4-c5 c4-d3 c4-d5 c4xe4xe6".split())
    assert state.parse_move("c4xe6") == state.parse_move("c4xe4xe6")  # the short form names the chain
    with pytest.raises(IllegalMove):
        state.parse_move("c4xe4")
    after = play_strs(state, "c4xe4xe6")
    assert after.key() == GAME.parse_fen("G:G:Fe6").key()
    assert after.legal_moves() == []
    assert after.outcome() == 0.0   # the fox (second player) wins


def test_example3_fox_trapped():
    """Ex. 3: the fox on d7 has no step and no jump: the geese win."""
    state = GAME.parse_fen("F:Gc7,e7,c6,d6,e6,b5,d5,f5:Fd7")
    assert state.legal_moves() == []
    assert state.outcome() == 1.0
