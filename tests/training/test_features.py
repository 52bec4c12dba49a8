"""The fit's features (training/features.py, numpy over many positions) against the reference
(rules/draughts/learned.py, one position at a time): a model with integer weights scores every
position as ``learned_evaluate`` does, on every kind of board and at every layout stride."""
from __future__ import annotations

import random

import numpy as np
import pytest

from mcts_engine.rules.draughts import make_game
from mcts_engine.rules.draughts.learned import (KING_BITS, PATTERN_SIZE, SCALARS, STRIDES, LearnedWeights, learned_evaluate,
                                                pattern_layout)
from mcts_engine.training.dataset import Positions, _words
from mcts_engine.training.features import features
from mcts_engine.training.fit import integer_model

BOARDS = ("english", "international", "canadian", "turkish")    # 8x8, 10x10, 12x12 dark; 8x8 every square


def random_states(game, count: int, seed: int) -> list:
    """``count`` states of seeded random games, kings and the second player's moves among them."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        state = game.new_state()
        while len(out) < count and state.legal_moves():
            out.append(state.copy())
            moves = state.legal_moves()
            state.play(moves[rng.randrange(len(moves))])
    return out


def as_positions(states: list) -> Positions:
    n = len(states)
    return Positions(_words([s.own for s in states]), _words([s.opp for s in states]),
                     _words([s.kings for s in states]), np.array([s.turn for s in states], dtype=np.int8),
                     np.zeros(n), np.full(n, -1.0), np.zeros(n), np.zeros(n, dtype=np.int32))


@pytest.mark.parametrize("stride", STRIDES)
@pytest.mark.parametrize("name", BOARDS)
def test_a_model_scores_each_position_as_the_reference(name, stride):
    game = make_game(name, native=False)
    layout = pattern_layout(game, stride)
    rng = np.random.default_rng(len(name) + stride)
    patterns = rng.integers(-3000, 3000, size=(len(layout.regions), PATTERN_SIZE, 2), dtype=np.int32)
    scalars = tuple((int(a), int(b)) for a, b in rng.integers(-9000, 9000, size=(len(SCALARS), 2)))
    kings = np.zeros((KING_BITS, 2), dtype=np.int32)
    kings[:layout.top_bit + 1] = rng.integers(-9000, 9000, size=(layout.top_bit + 1, 2))
    weights = LearnedWeights(name, layout.signature, 1000, scalars, patterns, (), kings)
    states = random_states(game, 400, seed=stride)
    assert {s.turn for s in states} == {0, 1} and any(s.kings for s in states)
    chances = integer_model(weights, layout).chances(features(layout, as_positions(states)))
    for state, chance in zip(states, chances):
        first = learned_evaluate(layout, weights, state.own, state.opp, state.kings, state.turn)
        assert chance == pytest.approx(first if state.turn == 0 else 1.0 - first, abs=1e-12), state.fen()
