"""The endgame suite: won draughts endings the engine must convert, as data.

Issue 17 asks that the search turn a won ending into a win rather than shuffle until a
no-progress draw.  Each row is a position (our FEN, ``rules/fen.py``), the side that
wins it, and why it is won under our rules (draughts.md §2.4 and the endgame counts of
``rules/draughts/variants.py``: English draws after 40 moves without a man move or a
capture; International after 25 king-only moves, and 3 pieces against a lone king
after 16 moves; Russian after 15 king-only moves, 3 kings against a lone king after
15 moves).  ``mcts-engine bench --endgames`` (``endgames.py``) plays each one out,
the winning side against the same engine defending.

How each row was checked (``docs/benchmarks.md#endgames``): every position's legal moves
agree with pydraughts'.  Rows of four pieces or fewer (``plies`` set) are exact: the
endgame tables (``mcts_engine/tables``, ``mcts-engine tables``) solve the whole ending and
give the plies to the win against the best defence, within the variant's counts.  The
rows of five pieces are textbook wins (a king up in English, four kings against one in
International) that the engine won against itself defending, a game whose every position
pydraughts lists the same moves for.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Endgame:
    """One won ending: its name, the game (a registered draughts variant), the position,
    the colour letter of the side that wins it, why it is won, and ``plies``: the plies to
    the win against the best defence by the endgame tables, None for the rows of more
    pieces than the tables hold (checked by play)."""

    name: str
    game: str
    fen: str
    winner: str
    why: str
    plies: int | None = None


SUITE: tuple[Endgame, ...] = (
    # --- English (short kings; 40 moves without a man move or capture draw) -------------
    Endgame("en-2k1k-a", "english", "W:WK18,K14:BK1", "W",
            "two kings against one in its double corner", plies=15),
    Endgame("en-2k1k-b", "english", "B:WK5:BK22,K27", "B",
            "two kings against one in its double corner", plies=27),
    Endgame("en-2k1k-c", "english", "W:WK10,K11:BK28", "W",
            "two kings against one in the other double corner", plies=21),
    Endgame("en-2k1k-d", "english", "W:WK12,K32:BK15", "W",
            "two kings against one in the centre", plies=31),
    Endgame("en-2k1k-e", "english", "W:WK4,K21:BK16", "W",
            "two kings against one, the kings apart", plies=31),
    Endgame("en-3k2k-a", "english", "W:WK14,K15,K22:BK1,K5", "W",
            "three kings against two in the double corner: a king up (won in play)"),
    Endgame("en-3k2k-b", "english", "B:WK28,K32:BK10,K11,K19", "B",
            "three kings against two in the double corner: a king up (won in play)"),
    Endgame("en-km1k", "english", "W:WK14,27:BK3", "W",
            "king and man against king: the man crowns, then two kings against one", plies=7),
    # --- International (flying kings; 25 king-only moves draw, 3 pieces vs 1 king: 16) --
    Endgame("in-4k1k-a", "international", "W:WK46,K28,K33,K15:BK3", "W",
            "four kings against one, White on the long diagonal (won in play)"),
    Endgame("in-4k1k-b", "international", "W:WK1,K50,K24,K38:BK36", "W",
            "four kings against one, the lone king off the long diagonal (won in play)"),
    Endgame("in-4k1k-c", "international", "W:WK3,K48,K16,K35:BK28", "W",
            "four kings against one on the long diagonal (won in play)"),
    Endgame("in-3k1k-a", "international", "W:WK14,K32,K47:BK25", "W",
            "three kings against one, which is mostly a draw: one of the longest traps", plies=15),
    Endgame("in-3k1k-b", "international", "B:WK2:BK5,K30,K35", "B",
            "three kings against one, Black holds the long diagonal: a trap", plies=3),
    Endgame("in-2k1m", "international", "W:WK46,K5:B38", "W",
            "two kings against a man: the man is caught before it crowns", plies=5),
    Endgame("in-km1m", "international", "W:WK23,40:B16", "W",
            "king and man against a man: a piece up", plies=3),
    # --- Russian (flying kings; 15 king-only moves draw, 3 kings vs 1: 15 moves) --------
    Endgame("ru-3k1k-a", "russian", "W:WKd4,Kh4,Kd8:BKg1", "W",
            "three kings against one, White on the long diagonal", plies=25),
    Endgame("ru-3k1k-b", "russian", "W:WKe1,Kb2,Kg7:BKf8", "W",
            "three kings against one, White on the long diagonal", plies=23),
    Endgame("ru-3k1k-c", "russian", "W:WKe1,Kd2,Kh4:BKd8", "W",
            "three kings against one, the long diagonal still to take", plies=25),
    Endgame("ru-3k1k-d", "russian", "B:WKb8:BKh8,Kd8,Ka3", "B",
            "three kings against one, Black on the long diagonal", plies=23),
    Endgame("ru-km1m", "russian", "W:WKc1,a3:Bh6", "W",
            "king and man against a man: a piece up", plies=3),
)
