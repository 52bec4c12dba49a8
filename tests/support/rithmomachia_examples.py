"""Rithmomachia's worked examples (../shared/rules/rithmomachia.md §9) as data, for the tests of
its Python rules (tests/rules/rithmomachia/test_rithmomachia.py) and of its native rules
(tests/native/test_native_rithmomachia.py): one source for both cores."""
from __future__ import annotations

from mcts_engine.rules.rithmomachia import BLACK, WHITE, piece_text

P91 = "P(S36+S25+T16+T9+R4+R1)"
P190 = "P(S64+S49+T36+T25+R16)"


def fen_of(spec: str, side: str = "W", caps: str = "0/0/0/0") -> str:
    """A FEN from ``"W R16 d5, W P91 e5; B T16 e6"`` (colour, piece, cell; ',' or ';' between)."""
    lists = {"W": [], "B": []}
    for item in spec.replace(";", ",").split(","):
        item = item.strip()
        if not item:
            continue
        colour, piece, cell = item.split()
        piece = {"P91": P91, "P190": P190}.get(piece, piece)
        lists[colour].append(f"{cell}={piece}")
    return f"{side}:W{','.join(lists['W'])}:B{','.join(lists['B'])}:C{caps}"


def pieces(state) -> dict[str, str]:
    """cell name -> colour + piece text."""
    g = state.game
    white = state.occupancy(WHITE)
    return {g.name_of[i]: ("W" if white >> i & 1 else "B") + piece_text(p) for i, p in state.board.items()}


def lost(before, after_state) -> dict[str, str]:
    """Pieces of ``before`` that changed or vanished in ``after_state`` (the mover's piece excluded)."""
    a, b = pieces(before), pieces(after_state)
    return {cell: p for cell, p in a.items() if b.get(cell) != p and p[0] == ("B" if before.side == WHITE else "W")}


# --- 9.1 movement ---------------------------------------------------------------------
M1 = set("b3 b4 b5 c2 c6 d2 d6 e2 e6 f3 f4 f5".split())
M3 = set("a3 a4 a5 c1 c7 d1 d7 e1 e7 g3 g4 g5".split())
MOVES = {
    "M1": ("W T9 d4; B R3 h16", "d4", M1),
    "M2": ("W T9 d4, W R2 d5; B R3 h16", "d4", M1 - {"d6"}),
    "M3": ("W S15 d4; B R3 h16", "d4", M3),
    "M4": ("W S15 d4; B R3 d6, B R5 h16", "d4", M3 - {"d7"}),
    "M5": ("W R2 a1; B R3 h16", "a1", {"b2"}),
    "M6": ("W T9 a1; B R3 h16", "a1", {"a3", "b3", "c1", "c2"}),
    "M7": ("W P(xS36+xS25+xT16+xT9+R4+R1) d4; B R3 h16", "d4", {"c3", "c5", "e3", "e5"}),
}


# --- 9.2 captures ---------------------------------------------------------------------
C1 = "W R16 d5, W R2 a1; B T16 e6, B R3 h16"
C3 = "W T25 d6, W R2 a1; B T25 d8, B R3 h16"
C14 = "W R4 d3, W R2 d5, W R6 a1; B R5 d6, B S28 d9, B R3 h16"
C16 = "W R4 d6, W R2 a1; B R3 d7, B T12 d8, B R5 h16"
C24 = "W P91 d7, W R2 a1; B R9 e8, B R3 h16"
C26 = "W P91 d7, W R2 a1; B R5 e8, B R3 h16"
# id -> (position, side, move, expected losses with default options, with author_compat)
CAPTURES = {
    "C1": (C1, "W", "a1-b2", {"e6": "BT16"}, None),
    "C2": (C1, "B", "h16-g15", {}, None),
    "C3": (C3, "W", "a1-b2", {"d8": "BT25"}, None),
    "C4": (C3, "B", "h16-g15", {"d6": "WT25"}, None),
    "C5": ("W T25 d6, W R2 a1; B T25 e8, B R3 h16", "W", "a1-b2", {"e8": "BT25"}, None),
    "C6": ("W T25 d6, W R2 a1; B T25 d8, B R3 d7, B R5 h16", "W", "a1-b2", {}, None),
    "C7": ("W T25 d6, W R2 a1; B T25 e8, B R3 d7, B R5 e7, B R7 h16", "W", "a1-b2", {"e8": "BT25"}, None),
    "C8": ("W R4 d7, W R8 f9, W R2 a1; B T12 e8, B R3 h16", "W", "a1-b2", {"e8": "BT12"}, None),
    "C9": ("W R4 d7, W R2 a1; B T12 e8, B R3 h16", "W", "a1-b2", {}, None),
    "C10": ("W R4 d7, W R8 g10, W R2 a1; B T12 e8, B R3 h16", "W", "a1-b2", {}, None),
    "C11": ("W R2 d9, W T9 e10, W R4 a1; B R7 e8, B R3 h16", "W", "a1-b2", {"e8": "BR7"}, None),
    "C12": ("W R2 d7, W T6 c8, W R4 a1; B T12 e8, B R3 h16", "W", "a1-b2", {"e8": "BT12"}, None),
    "C13": ("W T6 e6, W R2 f9, W R4 a1; B R3 e8, B R5 h16", "W", "a1-b2", {"e8": "BR3"}, None),
    "C14": (C14, "W", "a1-b2", {"d9": "BS28"}, None),
    "C15": (C14, "B", "h16-g15", {"d3": "WR4"}, {}),
    "C16": (C16, "W", "a1-b2", {"d8": "BT12"}, {}),
    "C17": ("W R4 e9, W R6 e7, W R8 d8, W R2 g9; B R9 e8, B R3 h16", "W", "g9-f8", {"e8": "BR9"}, None),
    "C18": ("W R4 e9, W R6 e7, W R16 f8, W R2 g9; B R7 d8, B R9 e8, B R3 h16", "W", "g9-h10", {}, None),
    "C19": ("W R2 d7, W R4 f7, W R6 d9, W R8 g10; B R9 e8, B R3 h16", "W", "g10-f9", {"e8": "BR9"}, None),
    "C20": ("W R2 a7, W R4 a9, W R6 c9; B R9 a8, B R3 h16", "W", "c9-b8", {"a8": "BR9"}, None),
    "C21": ("W R2 c14; B R9 a16, B R3 h1", "W", "c14-b15", {"a16": "BR9"}, None),
    "C22": ("W R16 c10; B P190 e12, B R3 h1", "W", "c10-d11", {"e12": "B" + P190}, None),
    "C23": ("W P91 e5, W R2 a1; B S66 e8, B R25 g7, B R3 h16", "B", "g7-f6", {"e5": "W" + P91}, None),
    "C24": (C24, "W", "a1-b2", {}, {"e8": "BR9"}),
    "C25": ("W P91 d6, W R2 a1; B R9 e8, B R3 h16", "W", "a1-b2", {"e8": "BR9"}, None),
    "C26": (C26, "W", "a1-b2", {}, {"e8": "BR5"}),
}


# --- the initial position: id -> (White's first move, the cell it takes, the piece) ------
FIRST = {"I1": ("a3-b6", "b14", "BS225"), "I2": ("a4-b7", "b12", "BT90"), "I3": ("c4-b6", "b14", "BS225"),
         "I4": ("g4-h7", "h13", "BS28"), "I5": ("b4-c7", "c11", "BR9"), "I6": ("b4-e3", "e11", "BR5"),
         "I7": ("g5-g7", "g12", "BT12")}


# --- 9.4 glorious victories -------------------------------------------------------------
GLORY = {"glorious": "on"}
# id -> (position, side, move, options, winner or None)
GLORIOUS = {
    "G1": ("W R16 c10, W R36 c9, B T56 e10", "W", "c9-d10", GLORY, WHITE),
    "G2": ("W R16 c10, W R36 d10, B T56 f10, W R2 a1", "W", "a1-b2", GLORY, None),
    # §7.2.1: ranks 1-8 are Black's enemy territory, so this line is a Black win
    "G3": ("W R16 c7, W R36 d7, B T56 e7, W R2 a1", "W", "a1-b2", GLORY, BLACK),
    "G4": ("B R16 c10, B T36 d10, B T56 e10, W R2 a1", "W", "a1-b2", GLORY, None),
    "G5": ("W R4 c10, B T12 d11, W R36 f11", "W", "f11-e12", GLORY, WHITE),
    "G6": ("W R4 c12, W T6 g12, B T12 e10", "W", "g12-e12", GLORY, WHITE),
    "G7": ("W T6 a11, W R4 e12, B T12 c10", "W", "a11-c12", GLORY, WHITE),
    "G7-literal": ("W T6 a11, W R4 e12, B T12 c10", "W", "a11-c12", dict(GLORY, glorious_author_literal=True), None),
    "G8": ("W P91 c11, B R3 h16", "W", "c11-d12", GLORY, None),
    "G8-literal": ("W P91 c11, B R3 h16", "W", "c11-d12", dict(GLORY, glorious_author_literal=True), WHITE),
    "G9": ("W R16 c10, W R36 d10, B T56 e12", "B", "e12-e10", GLORY, WHITE),
    "G10": ("W R36 b9, W R16 d10, B T56 e10", "W", "b9-c10", GLORY, WHITE),
    "G10-ordered": ("W R36 b9, W R16 d10, B T56 e10", "W", "b9-c10", dict(GLORY, glorious_ordered=True), None),
}
