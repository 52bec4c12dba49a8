"""Checks shared by the tests of games whose whole rules are native (Fanorona, Dablot): the native
rules seen through the C game interface (``Rules.game_*``) and through the states' fast paths,
against the Python rules (the reference, ``get_game(name, native=False)``), on seeded positions."""
from __future__ import annotations

import random


def check_position(rules, state, moves_checked: int = 8) -> list:
    """The native rules agree with the Python ``state`` (a reference state) at its position: the
    legal moves in their order, the outcome, the evaluation to the last bit, and for the first
    ``moves_checked`` moves the position after, the heuristic and the capture flag.  Returns the
    legal moves."""
    raw = state.raw()
    moves = state.legal_moves()
    assert rules.game_legal(raw) == moves, state.fen()
    assert rules.game_outcome(raw) == state.outcome(), state.fen()
    assert rules.game_evaluate(raw) == state.evaluate(), state.fen()
    for move in moves[:moves_checked]:
        after = state.copy()
        after.play(move)
        assert rules.game_play(raw, move) == after.raw(), (state.fen(), state.move_str(move))
        assert rules.game_heuristic(raw, move) == state.heuristic(move), (state.fen(), state.move_str(move))
        assert rules.game_is_capture(raw, move) == state.is_capture(move)
    return moves


def check_along_games(rules, reference, seed: int, games: int = 3, plies: int = 200) -> int:
    """``check_position`` at every position of ``games`` seeded random games of the Python game
    ``reference``; the number of positions checked."""
    rng = random.Random(seed)
    positions = 0
    for _ in range(games):
        state = reference.new_state()
        for _ in range(plies):
            moves = check_position(rules, state)
            positions += 1
            if not moves:
                break
            state.play(moves[int(rng.random() * len(moves))])
    return positions


def check_same_draws(native_state, python_state, seed: int, max_plies: int) -> None:
    """``playout`` and ``random_move`` on the native rules draw from a ``random.Random`` exactly as
    the Python loops do: the same move, the same result and position after, and the same number
    of draws (the generators agree afterwards)."""
    a, b = random.Random(seed), random.Random(seed)
    assert native_state.random_move(a) == python_state.random_move(b), python_state.fen()
    assert a.random() == b.random()
    fast, slow = native_state.copy(), python_state.copy()
    assert fast.playout(a, max_plies) == slow.playout(b, max_plies), python_state.fen()
    assert fast.raw() == slow.raw() and fast.fen() == slow.fen()
    assert a.random() == b.random()
