"""A capture chain that ends where it started keeps the capturing piece, in every game of
the Alquerque family.

Men (and Fox and Geese's fox, Zamma's and Harbagh's flying kings) jump in any direction
and the mover's start point is empty during the move (alquerque.md §4: "may pass over or
land on points it has already visited"), so a chain can run round a ring of men and come
back: round a square of the 5x5 / 9x9 boards, round a triangle of Harbagh's lattice.
``play`` (and the playout, and perft's child, which share ``AlquerqueGame.apply``) must
leave the piece, with its rank, on its point.
"""
from __future__ import annotations

import pytest
from support import check_playout_matches_loop

from mcts_engine.rules import get_game

SQUARE = ["a1xa3xc3xc1xa1", "a1xc1xc3xa3xa1"]
CASES = [   # game, position, the two closing routes, the position after either
    ("alquerque", "W:Wa1:Ba2,b1,b3,c2,e5", SQUARE, "B:Wa1:Be5"),
    ("zamma", "B:Ba1:Wa2,b1,b3,c2,i9", SQUARE, "W:Ba1:Wi9"),
    ("zamma", "B:BKa1:Wa2,b1,b3,c2,i9", SQUARE, "W:BKa1:Wi9"),
    ("harbagh", "B:Bc3:Wd3,d4,c4,a9", ["c3xd5xe3xc3", "c3xe3xd5xc3"], "W:Bc3:Wa9"),
    ("harbagh", "B:BKc3:Wd3,d4,c4,a9", ["c3xd5xe3xc3", "c3xe3xd5xc3"], "W:BKc3:Wa9"),
    ("fox-and-geese", "F:Gc4,d3,d5,e4,a3:Fc3", ["c3xc5xe5xe3xc3", "c3xe3xe5xc5xc3"], "G:Ga3:Fc3"),
]


@pytest.mark.parametrize("name,fen,routes,after", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_chain_back_to_its_point_keeps_the_piece(name, fen, routes, after):
    game = get_game(name)
    state = game.parse_fen(fen)
    closing = sorted(state.move_str(m) for m in state.legal_moves() if m[0] == m[1])
    assert closing == sorted(routes)
    for text in routes:
        child = state.copy()
        move = child.parse_move(text)
        child.play(move)
        assert child.fen() == f"{after}:N1" and child.outcome() is None
        raw = game._child((state.own, state.opp, state.kings, state.turn), move)
        assert raw == (child.own, child.opp, child.kings, child.turn)
    for seed in range(4):
        check_playout_matches_loop(state, seed)
