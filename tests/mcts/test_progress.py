"""Endgame conversion: the rules contract's ``progress()`` (draughts: material first, then
how confined the weaker side is) and the ``ProgressWeight`` option that mixes it into
each iteration's result."""
from __future__ import annotations

import random

import pytest

from mcts_engine.mcts.settings import Settings
from mcts_engine.mcts.uct import UctAgent
from mcts_engine.protocol.options import OptionError, OptionValues
from mcts_engine.rules import get_game


def strong_view(game: str, fen: str) -> float:
    """``progress()`` from the point of view of the side with more material."""
    state = get_game(game).parse_fen(fen)
    value = state.progress()
    kings, kv = state.kings, state.game.king_value
    own = (state.own & ~kings).bit_count() + kv * (state.own & kings).bit_count()
    opp = (state.opp & ~kings).bit_count() + kv * (state.opp & kings).bit_count()
    strong = state.turn if own > opp else state.turn ^ 1
    return value if strong == 0 else 1.0 - value


@pytest.mark.parametrize("game,better,worse", [
    # a lone king in the double corner, the kings close, beats the same kings far off
    ("english", "B:WK18,K14:BK1", "B:WK30,K29:BK1"),
    # fewer safe squares: the lone king on the edge against a king on its diagonal
    ("english", "B:WK19,K15:BK12", "B:WK27,K15:BK12"),
    # a capture is due: the piece counts as taken (a lone king about to be taken beats a free one)
    ("international", "W:WK46,K28,K33:BK19", "W:WK46,K17,K34:BK4"),
    # four kings against one beat three against one, whatever the confinement
    ("international", "W:WK46,K28,K33,K15:BK3", "W:WK46,K28,K33:BK3"),
    # the weaker side about to take a king: even material (0.5), worse for the stronger side
    ("english", "B:WK18,K14:BK1", "B:WK18,K14:BK10"),
])
def test_progress_ranks_positions_of_a_won_ending(game, better, worse):
    assert strong_view(game, better) > strong_view(game, worse) >= 0.5


def test_progress_is_neutral_without_a_material_lead_or_in_other_goals():
    assert get_game("english").parse_fen("W:WK18:BK1").progress() == 0.5
    assert get_game("antidraughts").parse_fen("W:WK46,K28:BK3").progress() == 0.5
    assert get_game("life").new_state().progress() == 0.5       # the contract's default


def test_progress_is_for_the_first_player_whoever_moves():
    game = get_game("english")            # Black moves first: Black's lead is above 0.5
    assert game.parse_fen("B:WK5:BK22,K27").progress() > 0.5
    assert game.parse_fen("W:WK5:BK22,K27").progress() > 0.5
    assert game.parse_fen("W:WK18,K14:BK1").progress() < 0.5


def test_progress_weight_mixes_progress_into_the_leaf_result():
    game = get_game("english")
    state = game.parse_fen("W:WK18,K14:BK1")
    plain = UctAgent(game, Settings(seed=1))
    assert plain.simulate == plain.policy.run                         # off: the plain playout path
    pure = UctAgent(game, Settings(seed=1, progress_weight=1.0))
    leaf = state.copy()
    assert pure.simulate(leaf, random.Random(1)) == state.progress()
    assert leaf.fen() == state.fen()                                 # weight 1: no playout ran
    half = UctAgent(game, Settings(seed=1, progress_weight=0.5))
    result = half.simulate(state.copy(), random.Random(1))
    assert result in {0.5 * state.progress() + 0.5 * r for r in (0.0, 0.5, 1.0)}


def test_the_option_sets_the_weight_and_rejects_bad_values():
    values = OptionValues()
    values.apply(values.check("ProgressWeight", "0.25"))
    assert values.settings().progress_weight == 0.25
    assert OptionValues().settings().progress_weight == 0.0
    for text in ("-0.1", "1.5", "x"):
        with pytest.raises(OptionError):
            OptionValues().check("ProgressWeight", text)
