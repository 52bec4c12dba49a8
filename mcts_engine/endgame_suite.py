"""The endgame suite: won draughts endings the engine must convert, as data.

Issue 17 asks that the search turn a won ending into a win rather than shuffle until a
no-progress draw.  Each row is a position (our FEN, ``rules/fen.py``), the side that
wins it, and why it is won under our rules (draughts.md §2.4 and the endgame counts of
``rules/draughts_variants.py``: English draws after 40 moves without a man move or a
capture; International after 25 king-only moves, and 3 pieces against a lone king
after 16 moves; Russian after 15 king-only moves, 3 kings against a lone king after
15 moves).  ``mcts-engine bench --endgames`` (``endgames.py``) plays each one out,
the winning side against the same engine defending.

How each row was checked (``docs/benchmarks.md#endgames``): the position is legal in
pydraughts (the same move lists), and the engine at a deep search (``verified_nodes``
iterations a move, Progress on) wins it against itself defending at the same depth, a
game that pydraughts replays move by move to the same result.  These are positions of
the textbook classes (a king up in English, four kings, or three holding the long
diagonal, against one in International and Russian, a piece up with men), not computer
proofs: a row that the deep check did not win was dropped.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Endgame:
    """One won ending: its name, the game (a registered draughts variant), the position,
    the colour letter of the side that wins it, and the reason it is won."""

    name: str
    game: str
    fen: str
    winner: str
    why: str


SUITE: tuple[Endgame, ...] = (
    # --- English (short kings; 40 moves without a man move or capture draw) -------------
    Endgame("en-2k1k-a", "english", "W:WK18,K14:BK1", "W",
            "two kings against one in its double corner: oracle, won in 15 plies"),
    Endgame("en-2k1k-b", "english", "B:WK5:BK22,K27", "B",
            "two kings against one in its double corner: oracle, won in 27 plies"),
    Endgame("en-2k1k-c", "english", "W:WK10,K11:BK28", "W",
            "two kings against one in the other double corner: oracle, won in 21 plies"),
    Endgame("en-2k1k-d", "english", "W:WK12,K32:BK15", "W",
            "two kings against one in the centre: oracle, won in 31 plies"),
    Endgame("en-2k1k-e", "english", "W:WK4,K21:BK16", "W",
            "two kings against one, the kings apart: oracle, won in 31 plies"),
    Endgame("en-3k2k-a", "english", "W:WK14,K15,K22:BK1,K5", "W",
            "three kings against two in the double corner: a king up (won in play)"),
    Endgame("en-3k2k-b", "english", "B:WK28,K32:BK10,K11,K19", "B",
            "three kings against two in the double corner: a king up (won in play)"),
    Endgame("en-km1k", "english", "W:WK14,27:BK3", "W",
            "king and man against king: the man crowns, then two kings against one (won in play)"),
    # --- International (flying kings; 25 king-only moves draw, 3 pieces vs 1 king: 16) --
    Endgame("in-4k1k-a", "international", "W:WK46,K28,K33,K15:BK3", "W",
            "four kings against one, White on the long diagonal (won in play)"),
    Endgame("in-4k1k-b", "international", "W:WK1,K50,K24,K38:BK36", "W",
            "four kings against one, the lone king off the long diagonal (won in play)"),
    Endgame("in-4k1k-c", "international", "W:WK3,K48,K16,K35:BK28", "W",
            "four kings against one on the long diagonal (won in play)"),
    Endgame("in-3k1k-a", "international", "W:WK46,K17,K34:BK4", "W",
            "three kings against one holding the long diagonal, 16 moves (won in play)"),
    Endgame("in-3k1k-b", "international", "B:WK2:BK5,K30,K35", "B",
            "three kings against one, Black holds the long diagonal, 16 moves (won in play)"),
    Endgame("in-3k1k-c", "international", "W:WK41,K12,K44:BK9", "W",
            "three kings against one, White holds the long diagonal, 16 moves (won in play)"),
    Endgame("in-2k1m", "international", "W:WK46,K5:B38", "W",
            "two kings against a man: the man is caught before it crowns (won in play)"),
    Endgame("in-km1m", "international", "W:WK23,40:B16", "W",
            "king and man against a man: a piece up (won in play)"),
    # --- Russian (flying kings; 15 king-only moves draw, 3 kings vs 1: 15 moves) --------
    Endgame("ru-3k1k-a", "russian", "W:WKc1,Kg1,Kd2:BKh6", "W",
            "three kings against one, White on the double diagonals: oracle, won in 9 plies"),
    Endgame("ru-3k1k-b", "russian", "W:WKc1,Kd2,Kh2:BKh6", "W",
            "three kings against one: oracle, won in 9 plies"),
    Endgame("ru-3k1k-c", "russian", "W:WKa1,Kc3,Kg5:BKb2", "W",
            "three kings against one on the long diagonal: oracle, won in 9 plies"),
    Endgame("ru-3k1k-d", "russian", "B:WKa3:BKf8,Kd8,Kf6", "B",
            "three kings against one, Black holds the double diagonals: oracle, won in 9 plies"),
    Endgame("ru-km1m", "russian", "W:WKc1,a3:Bh6", "W",
            "king and man against a man: a piece up (won in play)"),
)
