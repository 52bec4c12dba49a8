"""Start-position perft against the published tables of ``shared/perft/README.md``.

The engine merges capture routes with the same start, end, captured set and
resulting kind into one move (the FMJD "drop" convention), so every variant is
checked against its "drop" column.  Shallow depths (a second or less per
variant in total) always run; deeper ones are marked ``slow``.
"""
from __future__ import annotations

import pytest

from mcts_engine.rules import get_game
from mcts_engine.rules.base import Game
from support.perft import PERFT

# deepest depth that runs unmarked (the whole unmarked row takes well under a second)
FAST_DEPTH = {"english": 7, "international": 6, "russian": 7, "brazilian": 7, "pool": 7, "czech": 7,
              "spanish": 7, "italian": 7, "thai": 7, "frisian": 6, "canadian": 5, "turkish": 5}


def _cases():
    for name, (opts, counts) in PERFT.items():
        for depth, expected in enumerate(counts, 1):
            marks = [] if depth <= FAST_DEPTH[name] else [pytest.mark.slow]
            yield pytest.param(name, opts, depth, expected, marks=marks, id=f"{name}-d{depth}")


@pytest.mark.parametrize("name,opts,depth,expected", list(_cases()))
def test_start_perft(name, opts, depth, expected):
    game = get_game(name, **opts)
    assert game.perft(game.new_state(), depth) == expected


# --- divide: the sum over the root moves of perft(child, d-1) is perft(d) ----------

DIVIDE_CASES = [(name, opts, 5) for name, (opts, _) in PERFT.items()]


@pytest.mark.parametrize("name,opts,depth", DIVIDE_CASES, ids=[c[0] for c in DIVIDE_CASES])
def test_divide_sums_to_perft(name, opts, depth):
    game = get_game(name, **opts)
    state = game.new_state()
    parts = []
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        parts.append(game.perft(child, depth - 1))
    assert all(p > 0 for p in parts)
    assert sum(parts) == game.perft(state, depth) == PERFT[name][1][depth - 1]


# Tactical positions (captures, kings, promotion mid-capture): the fast raw perft,
# the generic contract perft (legal_moves/copy/play) and divide must agree.
TACTICAL = [
    ("russian", "W:Wh2:Ba7,b4,e5,e7,g3,g5,g7"),       # draughts.md §6
    ("brazilian", "W:Wh2:Ba7,b4,e5,e7,g3,g5,g7"),
    ("pool", "W:WK29,21,22:B7,9,10,K14,18"),
    ("english", "B:W18,22,23,K27:B9,10,K14,15"),
    ("international", "W:W27,28,32,33,K46:B17,18,19,22,23,K5"),
    ("frisian", "W:W27,28,32,33,K46:B17,18,19,22,23,K5"),
    ("italian", "W:W22,K31,25:B10,K12,K18,19,28"),
    ("spanish", "W:W10,K1:B14,23,K13,K27"),
    ("turkish", "W:WKc1,a3,h3:Bb4,c4,e6,f5,Kh8"),
    ("thai", "B:W15,25,K3:BK22,30"),
    ("czech", "W:Wc3,Ke1:Bd4,f2,Kh8"),
]


@pytest.mark.parametrize("name,fen", TACTICAL, ids=[t[0] for t in TACTICAL])
def test_divide_and_generic_perft_agree_on_tactical_positions(name, fen):
    game = get_game(name)
    state = game.parse_fen(fen)
    for depth in (1, 2, 3, 4):
        fast = game.perft(state, depth)
        assert Game.perft(game, state, depth) == fast
        total = 0
        for move in state.legal_moves():
            child = state.copy()
            child.play(move)
            total += game.perft(child, depth - 1)
        assert total == fast
