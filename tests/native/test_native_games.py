"""Every game with native rules against its Python rules, through the C game interface alone.

The search core sees a game only through ``game.h``; a native rules object offers that same
view to Python (``game_legal``, ``game_play``, ``game_outcome``, ``game_evaluate``,
``game_heuristic``, ``game_is_capture``, ``game_perft``, ``native/src/rules_object.c``).  Along
seeded random games, every position's moves (the same moves in the same order), the position
after each move (its raw form), the outcome, the evaluation (to the last bit), the move
heuristics and capture flags, and a shallow perft agree with the Python rules, for every
registered game whose rules are native.  Run under ASan and UBSan too
(tests/native/test_native_draughts.py's slow test).
"""
from __future__ import annotations

import random

import pytest

from mcts_engine import native
from mcts_engine.rules import get_game, list_games

if not native.available():
    pytest.skip(f"no native kernel: {native.status()}", allow_module_level=True)

NATIVE = [name for name in list_games() if get_game(name).search_rules(get_game(name).search_parameters()) is not None]


def reference_state(name: str, state):
    """``state`` as the Python rules (the reference) see it."""
    reference = get_game(name, native=False)
    return reference.parse_fen(state.fen()) if reference is not get_game(name) else state


def test_every_registered_game_is_native():
    """Issue 35: no game of the registry reaches the search through Python callbacks."""
    assert NATIVE == list_games()


@pytest.mark.parametrize("name", NATIVE)
def test_the_game_interface_agrees_with_the_python_rules_along_games(name):
    game = get_game(name)
    rules = game.search_rules(game.search_parameters())
    rng = random.Random(len(name))
    positions = 0
    for _ in range(4):
        state = game.new_state()
        for _ in range(120):
            raw = state.raw()
            moves = state.legal_moves()
            assert rules.game_legal(raw) == moves, state.fen()
            assert rules.game_outcome(raw) == state.outcome(), state.fen()
            assert rules.game_evaluate(raw) == state.evaluate(), state.fen()
            positions += 1
            if not moves:
                break
            for move in moves[:6]:
                after = state.copy()
                after.play(move)
                assert rules.game_play(raw, move) == after.raw(), (state.fen(), state.move_str(move))
                assert rules.game_heuristic(raw, move) == state.heuristic(move)
                assert rules.game_is_capture(raw, move) == state.is_capture(move)
            state.play(moves[int(rng.random() * len(moves))])
    assert positions > 100


@pytest.mark.parametrize("name", NATIVE)
def test_the_game_interface_counts_the_perft_of_the_python_rules(name):
    game = get_game(name)
    rules = game.search_rules(game.search_parameters())
    reference = get_game(name, native=False)
    start = game.new_state()
    assert rules.game_perft(start.raw(), 3) == reference.perft(reference.new_state(), 3)


def test_random_playouts_through_the_interface_end_within_the_cap():
    game = get_game("antidraughts", squares="all")
    wins, draws, losses, cut = game.kernel.game_playouts(game.new_state().raw(), 20, 1)
    assert wins + draws + losses + cut == 20 and cut > 0          # random kings never end there
