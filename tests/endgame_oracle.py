"""An exact oracle for king-only endings against a lone king, on our own rules.

``wins_within(game, fen, plies)``: whether the side with more kings in ``fen`` forces the
capture of the lone king within ``plies`` plies (a win under any count that runs at least
that long).  It solves the whole ending (every placement of the kings, either side to
move) by retrograde passes over our own move generator: the strong side wins in n plies
if one of its moves wins in n - 1 (taking the lone king: 1); the lone king loses in n if
it has no move or every move loses in at most n - 1.  The lone king's captures (captures
are compulsory, so a sacrificed king must be taken) lead into the ending with one strong
king fewer, solved the same way, where a win counts only if it fits in that ending's
strictest count since the capture (conservative: never a win the rules would draw).  A
distance-to-win line never repeats a position, so repetition draws cannot spoil it.  Used
by the endgame-suite test to check the suite's oracle rows (``mcts_engine/endgame_suite.py``).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

from mcts_engine.rules import get_game

NO_COUNT = 10 ** 9


def count_after_capture(game, strong_kings: int) -> int:
    """The fewest plies the rules allow ``strong_kings`` kings against a lone king after a
    capture: the strictest endgame count (over where the kings stand) and the no-progress rule."""
    limits = [game.no_progress]
    if game.endgame_counts is not None:
        for flags in product((False, True), repeat=4):
            found = game.endgame_counts(0, strong_kings, 0, 1, flags[:2], flags[2:])
            if found is not None:
                limits.append(found)
    return min(limit for limit in limits if limit) if any(limits) else NO_COUNT


def _stricter_count(game, smask: int, wmask: int) -> bool:
    """Whether this placement has a stricter endgame count than the ending's usual one
    (Russian: the lone king on the long diagonal, the kings off it: 5 moves).  The oracle
    never counts a win through such a position (conservative)."""
    counts = game.endgame_counts
    if counts is None:
        return False
    longd = game.long_diagonal
    n = smask.bit_count()
    here = counts(0, n, 0, 1, (False, bool(wmask & longd)), (bool(smask & longd), bool(wmask & longd)))
    usual = counts(0, n, 0, 1, (False, False), (False, False))
    return here is not None and (usual is None or here < usual)


@lru_cache(maxsize=None)
def solve(game_name: str, strong_kings: int) -> dict:
    """Plies to win, {(strong side to move, strong mask, lone king mask): plies}, for every
    won position of ``strong_kings`` kings against a lone king in ``game_name``."""
    game = get_game(game_name)
    if strong_kings == 0:
        return {}
    fewer = solve(game_name, strong_kings - 1)
    fewer_limit = count_after_capture(game, strong_kings - 1)
    squares = [1 << i for i in sorted(game.name_of)]
    moves = {}
    for strong in combinations(squares, strong_kings):
        smask = sum(strong)
        for wmask in squares:
            if wmask & smask or _stricter_count(game, smask, wmask):
                continue
            kings = smask | wmask
            for strong_turn in (True, False):
                own, opp = (smask, wmask) if strong_turn else (wmask, smask)
                out = []
                for frm, to, cap, _ in game.legal(own, opp, kings, 0):
                    mine, rest = own ^ frm ^ to, opp & ~cap
                    if strong_turn:
                        out.append("win" if not rest else (False, mine, rest))
                    elif cap:    # into the ending with a king fewer: won there within its count?
                        after = fewer.get((True, rest, mine))
                        out.append("won" if after is not None and after <= fewer_limit else "drawn")
                    else:
                        out.append((True, rest, mine))
                moves[(strong_turn, smask, wmask)] = out
    dtw: dict = {}
    n = 0
    while True:
        n += 1
        found = []
        for key, outs in moves.items():
            if key in dtw:
                continue
            if key[0]:
                if any(o == "win" or dtw.get(o, n) < n for o in outs):
                    found.append(key)
            elif all(o == "won" or (o != "drawn" and dtw.get(o, n) < n) for o in outs):
                found.append(key)
        if not found:
            return dtw
        for key in found:
            dtw[key] = n


def plies_to_win(game_name: str, fen: str) -> int | None:
    """The plies the side with more kings in ``fen`` (kings only, against one king) needs to
    take the lone king against the best defence, or None if it cannot."""
    game = get_game(game_name)
    state = game.parse_fen(fen)
    own, opp = state.own, state.opp
    if own | opp != state.kings or min(own.bit_count(), opp.bit_count()) != 1:
        raise ValueError(f"{fen}: the oracle reads kings only, against one king")
    strong_turn = own.bit_count() > opp.bit_count()
    smask, wmask = (own, opp) if strong_turn else (opp, own)
    return solve(game.name, smask.bit_count()).get((strong_turn, smask, wmask))


def wins_within(game_name: str, fen: str, plies: int) -> bool:
    """Whether the side with more kings in ``fen`` takes the lone king within ``plies`` plies."""
    found = plies_to_win(game_name, fen)
    return found is not None and found <= plies


if __name__ == "__main__":    # check the suite's oracle rows of one game: python tests/endgame_oracle.py russian
    import sys

    from mcts_engine.endgame_suite import SUITE
    for row in SUITE:
        if row.game == sys.argv[1] and row.plies is not None:
            found = plies_to_win(row.game, row.fen)
            print(f"{row.name}: oracle {found} plies, suite says {row.plies}: {'ok' if found == row.plies else 'WRONG'}")
