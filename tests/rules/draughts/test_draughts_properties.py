"""Property tests over random games of every registered draughts variant.

Hypothesis draws the seeds (``derandomize=True``, so every run is the same);
the games themselves are played with ``random.Random(seed)`` through
``State.random_move``.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support import (check_copy_is_independent, check_fen_round_trip, check_moves_read_back,
                      check_playout_matches_loop, check_random_move, check_random_move_uniform, chi2_sf,
                      random_game)

from mcts_engine.rules import get_game
from mcts_engine.rules.draughts.variants import VARIANTS

GAMES = sorted(VARIANTS)  # every draughts variant
# a few rule options on top of the registered variants (name, options)
OPTION_GAMES = [("turkish", {"promotion": "pass"}), ("turkish", {"removal": "end"}),
                ("international", {"promotion": "fly"}), ("thai", {"men_rows": 3}),
                ("italian", {"choice": "max-kings"}), ("russian", {"removal": "immediate"}),
                ("frisian", {"choice": "max"}), ("english", {"king_range": "flying"})]
ALL_GAMES = [(name, {}) for name in GAMES] + OPTION_GAMES
ALL_IDS = [name + "".join(f"-{k}={v}" for k, v in opts.items()) for name, opts in ALL_GAMES]
MAX_PLIES = 400  # every variant's no-progress counter ends a random game well before this
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def endgame_fens(game) -> list[str]:
    """Two king-rich positions built from the start squares of ``game`` (valid in every variant).

    Each side keeps four of its start squares (the outer two as kings), or only its two
    outer squares as kings: random play from them reaches the draw rules far more often.
    """
    side, *lists = game.new_state().fen().split(":")
    mixed, kings = [], []
    for field in lists:
        colour, items = field[0], field[1:].split(",")
        n = len(items)
        picks = [0, n // 3, 2 * n // 3, n - 1]
        mixed.append(colour + ",".join(("K" if i in (0, n - 1) else "") + items[i] for i in picks))
        kings.append(colour + ",".join("K" + items[i] for i in (0, n - 1)))
    return [":".join([side] + mixed), ":".join([side] + kings)]


def starts(game):
    return [game.new_state()] + [game.parse_fen(f) for f in endgame_fens(game)]


def _frozen(state) -> int:
    """The Frisian king that may not make another plain move (history the FEN cannot carry)."""
    return state._frozen()


def expected_result(game, state) -> float:
    """The first player's score of a won or lost end: the side to move has no move and lost
    (antidraughts: won), or (breakthrough) the one side with a king has won."""
    goal = game.variant.goal
    if goal == "crown" and state.kings:
        p0 = state.own if state.to_move == 0 else state.opp
        if bool(state.kings & p0) != bool(state.kings & ~p0):
            return 1.0 if state.kings & p0 else 0.0
    lost = 0.0 if state.to_move == 0 else 1.0
    return 1.0 - lost if goal == "lose" else lost


def check_state(game, state, rng):
    legal = state.legal_moves()
    legal_set = set(legal)
    assert len(legal_set) == len(legal), "duplicate moves"
    fen = state.fen()

    # FEN round trip: same position, same moves (the FEN carries no history, so a drawn
    # position or a Frisian king run may only gain moves), and fen() is a fixpoint
    again = check_fen_round_trip(game, state)
    assert game.parse_fen(again.fen()).key() == state.key()
    again_set = set(again.legal_moves())
    outcome = state.outcome()
    if outcome is None and not _frozen(state):
        assert again_set == legal_set, fen
    else:
        assert legal_set <= again_set, fen

    # notation: every move prints to a text that reads back as the same move
    check_moves_read_back(state, legal)

    # outcome is None exactly while there is a legal move
    if legal:
        assert outcome is None, fen
    else:
        assert outcome in (0.0, 0.5, 1.0), fen
        if outcome != 0.5:
            assert outcome == expected_result(game, state), fen
            assert not again_set or _frozen(state), fen

    # random_move returns a legal move (None when there is none)
    check_random_move(state, legal, rng)

    # copy() is independent, and play() is deterministic
    if legal:
        check_copy_is_independent(state, legal[-1])
        twin, twin2 = state.copy(), state.copy()
        twin.play(legal[-1])
        twin2.play(legal[-1])
        assert twin2.key() == twin.key() and twin2.fen() == twin.fen()


@pytest.mark.parametrize("name,options", ALL_GAMES, ids=ALL_IDS)
@settings(derandomize=True, max_examples=25, deadline=None)
@given(seed=SEEDS)
@example(seed=242)   # regression seeds: each reaches a capture whose written route
@example(seed=285)   # another capture's route contains (pool, russian, thai and
@example(seed=311)   # russian with removal=immediate)
@example(seed=1021)
def test_random_game_invariants(name, options, seed):
    game = get_game(name, **options)
    rng = random.Random(seed ^ 0x5EED)
    for start in starts(game):
        for state in random_game(game, seed, start, MAX_PLIES):
            check_state(game, state, rng)


# ----------------------------------------------------------------------------
# jumpers() agrees with the full capture search
# ----------------------------------------------------------------------------

def check_jumpers(game, own, opp, kings, turn):
    starters = game.jumpers(own, opp, kings, turn)
    found = 0
    for seq in game.sequences(own, opp, kings, turn, own):
        found |= seq[0]
    assert (starters != 0) == (found != 0)
    assert found & ~starters == 0  # every piece that can capture is among the starters
    assert starters & ~own == 0


@pytest.mark.parametrize("name,options", ALL_GAMES, ids=ALL_IDS)
@settings(derandomize=True, max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_jumpers_matches_capture_search(name, options, seed):
    game = get_game(name, **options)
    for state in (s for start in starts(game) for s in random_game(game, seed, start, MAX_PLIES)):
        own, opp, kings, turn = state.own, state.opp, state.kings, state.turn
        check_jumpers(game, own, opp, kings, turn)
        check_jumpers(game, opp, own, kings, turn ^ 1)  # the other side, same board


# ----------------------------------------------------------------------------
# random_move is uniform over the legal moves
# ----------------------------------------------------------------------------

UNIFORM = [
    ("english", None, 7),
    ("international", None, 9),
    ("turkish", None, 8),
    ("russian", "W:WKc3,d4:Ba7", 8),                       # king steps spread over many buckets
    ("frisian", "W:W32,38,K46:B1,K5", None),
    ("russian", "W:Wh2:Ba7,b4,e5,e7,g3,g5,g7", 3),          # §6: one move has two routes
    ("russian", "W:WKa1:Bc3,f6", 2),                       # four routes, two moves
    ("russian", "W:WKd2:Bc3,c5,e3,e5", 3),                 # two routes end on d2
    ("english", "W:W22:B9,10,17,18", 2),
]


@pytest.mark.parametrize("name,fen,count", UNIFORM, ids=[f"{u[0]}-{i}" for i, u in enumerate(UNIFORM)])
def test_random_move_is_uniform(name, fen, count):
    game = get_game(name)
    state = game.new_state() if fen is None else game.parse_fen(fen)
    if count is not None:
        assert len(state.legal_moves()) == count
    check_random_move_uniform(state, 20_000, 20240611)


def test_chi2_sf_sanity():
    assert chi2_sf(0.0, 3) == 1.0
    assert abs(chi2_sf(3.841458820694124, 1) - 0.05) < 1e-6
    assert abs(chi2_sf(18.307038053275146, 10) - 0.05) < 1e-6


# ----------------------------------------------------------------------------
# playout() is the random_move / play loop
# ----------------------------------------------------------------------------

PLAYOUT_STARTS = {
    "russian": "W:WKa1,c3,e3:Bb6,d6,Kh8",
    "frisian": "W:W32,38,K46:B1,7,K5",
    "international": "W:WK46,K47,K48:BK4",
}


@pytest.mark.parametrize("name", GAMES)
@settings(derandomize=True, max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_playout_equals_random_move_loop(name, seed):
    game = get_game(name)
    positions = starts(game)
    if name in PLAYOUT_STARTS:
        positions.append(game.parse_fen(PLAYOUT_STARTS[name]))
    for start in positions:
        check_playout_matches_loop(start, seed)
