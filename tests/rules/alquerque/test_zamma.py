"""Zamma (../shared/rules/zamma.md §10): every worked example, one test each."""
from __future__ import annotations

import pytest

from mcts_engine.rules import IllegalMove, get_game
from support import legal_strs, play_strs

GAME = get_game("zamma")
REPLIES = {"d4-e5": {"f6xd4"}, "e4-e5": {"e6xe4"}, "f5-e5": {"d5xf5"}, "f4-e5": {"d6xf4", "f6xf4", "h6xf4"}}


def test_example1_opening():
    """Ex. 1: Black's 4 opening moves, all onto e5."""
    assert legal_strs(GAME.new_state()) == {"d4-e5", "e4-e5", "f4-e5", "f5-e5"}


@pytest.mark.parametrize("opening", sorted(REPLIES))
def test_example2_replies_are_compulsory_captures(opening):
    """Ex. 2: White's replies to each opening (6 positions after two plies)."""
    assert legal_strs(play_strs(GAME.new_state(), opening)) == REPLIES[opening]


def test_example2_perft():
    """Ex. 2: 6 positions after two plies."""
    assert GAME.perft(GAME.new_state(), 2) == 6


def test_example3_flying_king_turkish_strike_maximum_capture():
    """Ex. 3: exactly a3xd3xd1xb1 and a3xd3xd1xa1 (3 captures each); c3 blocks a1-e5 until the end."""
    fen = "B:BKa3,e3:Wc3,d2,c1,e5"
    state = GAME.parse_fen(fen)
    assert legal_strs(state) == {"a3xd3xd1xb1", "a3xd3xd1xa1"}
    assert all(len(m[4]) == 3 for m in state.legal_moves())
    after = play_strs(state, "a3xd3xd1xa1")
    assert after.key() == GAME.parse_fen("W:BKa1,e3:We5").key()
    # the control: with immediate removal the maximal moves take 4
    immediate = get_game("zamma", removal="immediate").parse_fen(fen)
    assert legal_strs(immediate) == {f"a3xd3xd1xa1x{p}" for p in ("f6", "g7", "h8", "i9")}


def test_example4_promotion_stops_a_capture():
    """Ex. 4: c7xc9 only; crowned on c9, the move ends although d9 could be jumped."""
    state = GAME.parse_fen("B:Bc7:Wc8,d9")
    assert legal_strs(state) == {"c7xc9"}
    with pytest.raises(IllegalMove):
        state.parse_move("c7xc9xe9")
    after = play_strs(state, "c7xc9")
    assert after.key() == GAME.parse_fen("W:BKc9:Wd9").key()
    assert after.to_move == 1
