"""Legal moves as pydraughts (an independent implementation) and our rules give them, in one
shape for comparing: (start, end, frozenset(captured), crowned) in our notation.  Shared by
the draughts cross-checks and the endgame suite's checks."""
from __future__ import annotations

from mcts_engine.rules.geometry import bits

from . import require

FILES = "abcdefgh"

# our variant name -> pydraughts variant name (no Turkish: see rules/draughts/test_crosscheck.py)
PYDRAUGHTS_VARIANTS = {
    "english": "english",
    "italian": "italian",
    "russian": "russian",
    "brazilian": "brazilian",
    "international": "standard",
    "frisian": "frisian",
    # the lidraughts variants (pydraughts' names); Killer draughts is not in pydraughts
    "frysk": "frysk!",
    "antidraughts": "antidraughts",
    "breakthrough": "breakthrough",
}
BIG = {"international", "frisian", "frysk", "antidraughts", "breakthrough"}   # 10x10: longer games

# The squares on which a man of the colour crowns, per variant, written from the
# PDN diagrams of shared/rules/draughts.md (independent of both engines).  Only
# used to decide for which pydraughts moves the crowned flag must be looked up by
# playing the move (a man's route must touch the crowning row to be crowned).
RANK8 = frozenset(f + "8" for f in "bdfh")
RANK1 = frozenset(f + "1" for f in "aceg")
PROMOTION = {
    "english": {"B": frozenset(map(str, range(29, 33))), "W": frozenset(map(str, range(1, 5)))},
    "italian": {"W": frozenset(map(str, range(1, 5))), "B": frozenset(map(str, range(29, 33)))},
    "russian": {"W": RANK8, "B": RANK1},
    "brazilian": {"W": RANK8, "B": RANK1},
    "international": {"W": frozenset(map(str, range(1, 6))), "B": frozenset(map(str, range(46, 51)))},
    "frisian": {"W": frozenset(map(str, range(1, 6))), "B": frozenset(map(str, range(46, 51)))},
}
for _name in ("frysk", "antidraughts", "breakthrough"):
    PROMOTION[_name] = PROMOTION["international"]


# ----------------------------------------------------------------------------
# helpers shared by both references
# ----------------------------------------------------------------------------

def our_moves(game, state) -> set[tuple]:
    """Our legal moves as (start, end, frozenset(captured), crowned) in our notation."""
    moves = state.legal_moves()
    assert len(set(moves)) == len(moves), f"{state.fen()}: duplicate moves in legal_moves()"
    name = game.square_name
    return {(name(f), name(t), frozenset(name(c) for c in bits(cap)), bool(crown))
            for f, t, cap, crown in moves}


def fmt_moves(moves) -> list[str]:
    out = []
    for start, end, captured, crowned in sorted(moves, key=lambda m: (m[0], m[1], sorted(m[2]), m[3])):
        text = f"{start}{'x' if captured else '-'}{end}"
        if captured:
            text += " [" + ",".join(sorted(captured, key=lambda s: (len(s), s))) + "]"
        if crowned:
            text += " crowned"
        out.append(text)
    return out


def mismatch_report(title: str, failures: list[tuple[str, set, set]], limit: int = 8) -> str:
    lines = [f"{title}: {len(failures)} position(s) disagree"]
    for fen, ours, theirs in failures[:limit]:
        lines.append(f"  FEN {fen}")
        lines.append(f"    only ours:   {fmt_moves(ours - theirs)}")
        lines.append(f"    only theirs: {fmt_moves(theirs - ours)}")
    if len(failures) > limit:
        lines.append(f"  ... and {len(failures) - limit} more")
    return "\n".join(lines)


# ----------------------------------------------------------------------------
# pydraughts
# ----------------------------------------------------------------------------

def pydraughts():
    return require("draughts", "pydraughts is not installed (pip install pydraughts)", attribute="Board")


def pyd_algebraic(number: int) -> str:
    """pydraughts' Russian/Brazilian square number -> algebraic name (a1=1, c1=2, ..., h8=32)."""
    rank = (number - 1) // 4 + 1
    file = 2 * ((number - 1) % 4) + (0 if rank % 2 == 1 else 1)
    return f"{FILES[file]}{rank}"


def pyd_namer(variant: str):
    if variant in ("russian", "brazilian"):
        return pyd_algebraic
    return str


def their_moves(draughts, variant: str, fen: str) -> set[tuple]:
    """pydraughts' legal moves of ``fen`` as (start, end, frozenset(captured), crowned), our notation."""
    return set(their_routes(draughts, variant, fen))


def their_routes(draughts, variant: str, fen: str) -> list[tuple]:
    """Like ``their_moves`` but one entry per pydraughts Move, i.e. per capture route."""
    board = draughts.Board(PYDRAUGHTS_VARIANTS[variant], fen=fen)
    name = pyd_namer(variant)
    side = fen[0].upper()
    promotion = PROMOTION[variant][side]
    men = set()
    for field in fen.split(":")[1:]:
        if field[:1].upper() == side:
            men = {item for item in field[1:].split(",") if item and item[0] not in "Kk"}
    out = []
    for move in board.legal_moves():
        route = [name(n) for n in move.steps_move]
        captured = frozenset(name(n) for n in (move.captures or []))
        crowned = False
        if route[0] in men and any(sq in promotion for sq in route[1:]):
            # pydraughts has no crowned flag: play the move and look at the end square
            after = board.copy()
            after.push(move)
            items = {item for field in after.fen.split(":")[1:] for item in field[1:].split(",")}
            crowned = "K" + route[-1] in items
        out.append((route[0], route[-1], captured, crowned))
    return out
