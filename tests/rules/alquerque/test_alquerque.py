"""Alquerque (../shared/rules/alquerque.md §10): every worked example, one test each."""
from __future__ import annotations

import pytest

from mcts_engine.rules import get_game
from support import legal_strs, play_strs

GAME = get_game("alquerque")
OPENING_LINES = [
    # White's opening, Black's forced replies, White's forced answer to each reply (§10 Ex. 1)
    ("b2-c3", {"d4xb2": {"a1xc3"}}),
    ("c2-c3", {"c4xc2": {"c1xc3"}}),
    ("d2-c3", {"b4xd2": {"b2xb4", "e1xc3"}, "d4xd2": {"d1xd3"}}),
    ("d3-c3", {"b3xd3": {"e3xc3"}}),
]


def test_example1_opening_moves():
    """Ex. 1: exactly 4 opening moves; Black's replies and White's answers are forced captures."""
    start = GAME.new_state()
    assert legal_strs(start) == {"b2-c3", "c2-c3", "d2-c3", "d3-c3"}
    assert {m for m, _ in OPENING_LINES} == legal_strs(start)
    for opening, replies in OPENING_LINES:
        after = play_strs(start, opening)
        assert legal_strs(after) == set(replies), opening
        for reply, answers in replies.items():
            assert legal_strs(play_strs(after, reply)) == answers, (opening, reply)
    assert [GAME.perft(start, d) for d in (1, 2, 3)] == [4, 5, 6]


def test_example2_compulsory_capture_and_continuation():
    """Ex. 2: one legal move a1xc3xe5; the result is White e5, e1 against Black a5, Black to move."""
    state = GAME.parse_fen("W:Wa1,e1:Bb2,d4,a5")
    assert legal_strs(state) == {"a1xc3xe5"}
    for illegal in ("a1xc3", "e1-e2", "e1-d1"):
        with pytest.raises(Exception):
            state.parse_move(illegal)
    after = play_strs(state, "a1xc3xe5")
    assert after.key() == GAME.parse_fen("B:We1,e5:Ba5").key()
    assert after.to_move == 1


def test_example3_no_majority_rule():
    """Ex. 3: both c3xa3 (1 capture) and c3xc5xa5 (2 captures) are legal."""
    state = GAME.parse_fen("W:Wc3:Bb3,c4,b5")
    assert legal_strs(state) == {"c3xa3", "c3xc5xa5"}
    assert sorted(len(m[4]) for m in state.legal_moves()) == [1, 2]


def test_example4_blocked_side_loses():
    """Ex. 4: Black (a5) has no legal move: Black loses, White wins."""
    state = GAME.parse_fen("B:Wa3,a4,b4,b5,c3,c5:Ba5")
    assert state.legal_moves() == []
    assert state.outcome() == 1.0
