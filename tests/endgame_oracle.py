"""An exact oracle for king-only endings with a lone defending king, on our own rules.

``wins_within(game, fen, plies)``: whether the side with more kings forces the capture of
the lone king within ``plies`` plies from ``fen`` (a win under any count that runs at least
that long since the last capture).  It solves the whole ending (every placement of the
kings, either side to move) by retrograde passes over our move generator: the strong side
wins in n plies if one move wins in n - 1 (a capture of the lone king: 1), the lone king
loses in n if it has no move or every move loses in at most n - 1, and a move that takes a
strong king leaves the table as not won (a conservative verdict).  A distance-to-win line
never repeats a position, so repetition draws cannot spoil it.  Used by the endgame-suite
test to check the suite's theory rows (``mcts_engine/endgame_suite.py``).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from mcts_engine.rules import get_game


@lru_cache(maxsize=None)
def solve(game_name: str, strong_kings: int) -> dict:
    """Distance to win in plies, {(turn_is_strong, strong mask, weak mask): plies}, for every
    won position of ``strong_kings`` kings against a lone king in ``game_name``."""
    game = get_game(game_name)
    squares = [1 << i for i in sorted(game.name_of)]
    positions = []
    for strong in combinations(squares, strong_kings):
        smask = sum(strong)
        for w in squares:
            if not w & smask:
                positions.append((True, smask, w))
                positions.append((False, smask, w))
    moves = {}
    for key in positions:
        strong_turn, smask, wmask = key
        kings = smask | wmask
        out = []
        own, opp = (smask, wmask) if strong_turn else (wmask, smask)
        for frm, to, cap, _ in game.legal(own, opp, kings, 0):
            mine = own ^ frm ^ to
            rest = opp & ~cap
            if strong_turn:
                out.append("win" if not rest else (False, mine, rest))
            else:
                out.append("out" if cap else (True, rest, mine))
        moves[key] = out
    dtw: dict = {}
    n = 0
    while True:
        n += 1
        found = []
        for key, outs in moves.items():
            if key in dtw:
                continue
            if key[0]:
                if any(o == "win" or (o != "out" and dtw.get(o, n) < n) for o in outs):
                    found.append(key)
            elif all(o != "out" and dtw.get(o, n) < n for o in outs):
                found.append(key)
        if not found:
            return dtw
        for key in found:
            dtw[key] = n


def wins_within(game_name: str, fen: str, plies: int) -> bool:
    """Whether the side with more kings in ``fen`` (kings only, against one king) forces the
    capture of the lone king within ``plies`` plies."""
    game = get_game(game_name)
    state = game.parse_fen(fen)
    own, opp = state.own, state.opp
    assert own | opp == state.kings, f"{fen}: kings only"
    strong_turn = own.bit_count() > opp.bit_count()
    smask, wmask = (own, opp) if strong_turn else (opp, own)
    assert wmask.bit_count() == 1, f"{fen}: one defending king"
    found = solve(game.name, smask.bit_count()).get((strong_turn, smask, wmask))
    return found is not None and found <= plies
