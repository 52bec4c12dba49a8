"""Harbagh (../shared/rules/harbagh.md §10): every worked example, one test each."""
from __future__ import annotations

import pytest

from mcts_engine.rules import get_game
from support import legal_strs, play_strs

GAME = get_game("harbagh")
REPLIES = {"c3-c5": {"c7xc3", "b5xc3"}, "b4-c5": {"c6xb4"}, "c4-c5": {"b6xc4", "d6xc4"}, "d5-c5": {"b5xd5"}}


def test_example1_opening():
    """Ex. 1: Black's 4 opening moves onto c5 (from a centre, a grid point, a centre, sideways)."""
    assert legal_strs(GAME.new_state()) == {"b4-c5", "c3-c5", "c4-c5", "d5-c5"}


@pytest.mark.parametrize("opening", sorted(REPLIES))
def test_example2_replies(opening):
    """Ex. 2: White must capture after each opening (6 positions after two plies)."""
    assert legal_strs(play_strs(GAME.new_state(), opening)) == REPLIES[opening]


def test_example2_perft():
    assert GAME.perft(GAME.new_state(), 2) == 6


def test_example3_maximum_capture_and_promotion_ending_the_move():
    """Ex. 3: only b1xb5xb9 (2 pieces beats e1xe5's 1); crowned on b9, no jump over c9."""
    state = GAME.parse_fen("B:Bb1,e1:Wb3,b7,e3,c9")
    assert legal_strs(state) == {"b1xb5xb9"}
    after = play_strs(state, "b1xb5xb9")
    assert after.key() == GAME.parse_fen("W:BKb9,e1:We3,c9").key()
    # without the maximum rule e1xe5 would be legal too
    free = get_game("harbagh", choice="free").parse_fen("B:Bb1,e1:Wb3,b7,e3,c9")
    assert legal_strs(free) == {"b1xb5xb9", "e1xe5"}


def test_example4_kings_may_not_turn_back():
    """Ex. 4: only c5xc9 and c5xc1; c5xc9xc1 and c5xc1xc9 are illegal."""
    state = GAME.parse_fen("B:BKc5:Wc3,c7")
    assert legal_strs(state) == {"c5xc9", "c5xc1"}
    # the turn back is what forbids them: allowed, they would be the maximal captures
    reverse = get_game("harbagh", king_reverse="yes").parse_fen("B:BKc5:Wc3,c7")
    assert legal_strs(reverse) == {"c5xc9xc1", "c5xc1xc9"}
