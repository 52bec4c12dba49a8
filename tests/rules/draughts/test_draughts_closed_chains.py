"""A capture chain that ends on its starting square keeps the capturing piece, in every
variant (the Python rules; the native kernel is held to them in tests/native).

A king of every variant can run round four men and come back (draughts.md rule 1.7: the
start square counts as empty); a man can where men jump backwards.  Playing that move,
by ``play``, the perft child and the playout, leaves the piece (and its rank) on its
square and takes the four men.
"""
from __future__ import annotations

import random

import pytest
from support.closed_chains import closed_chains, closing_moves

from mcts_engine.rules.draughts import VARIANTS, DraughtsGame, make_game

CHAINS = [chain for name in sorted(VARIANTS) for chain in closed_chains(make_game(name, native=False))]


@pytest.mark.parametrize("chain", CHAINS, ids=lambda c: c.label)
def test_a_chain_back_to_its_square_keeps_the_piece(chain):
    state = chain.state
    moves = closing_moves(chain)
    assert bool(moves) == chain.expected, [state.move_str(m) for m in state.legal_moves()]
    king = state.kings & chain.start
    for move in moves:
        assert move[2] == chain.taken and not move[3]
        child = state.copy()
        child.play(move)
        assert (child.opp, child.own, child.kings) == (chain.start, 0, king), state.move_str(move)
        raw = DraughtsGame.child((state.own, state.opp, state.kings, state.turn), move)
        assert raw == (child.own, child.opp, child.kings, child.turn)


@pytest.mark.parametrize("chain", [c for c in CHAINS if c.expected], ids=lambda c: c.label)
def test_a_playout_through_a_closed_chain_keeps_the_piece(chain):
    """The fast playout path plays the move ``random_move`` draws, closed chains included."""
    closed = 0
    for seed in range(8):
        fast, loop = chain.state.copy(), chain.state.copy()
        fast.playout(random.Random(seed), 1)
        move = loop.random_move(random.Random(seed))
        loop.play(move)
        assert (fast.own, fast.opp, fast.kings) == (loop.own, loop.opp, loop.kings)
        closed += move[0] == move[1]
    assert closed, "no seed drew the closed chain"
