"""Rithmomachia (../shared/rules/rithmomachia.md): every worked example of §9, for the
default options and for the option columns they give (``author_compat`` and others)."""
from __future__ import annotations

import pytest

from mcts_engine.rules import get_game
from mcts_engine.rules.rithmomachia import BLACK, WHITE, piece_text

P91 = "P(S36+S25+T16+T9+R4+R1)"
P190 = "P(S64+S49+T36+T25+R16)"
DEFAULT = {}
AUTHOR = {"preset": "author_compat"}


def game(options=None):
    return get_game("rithmomachia", **(options or {}))


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


def pos(spec: str, side: str = "W", options=None, caps: str = "0/0/0/0"):
    return game(options).parse_fen(fen_of(spec, side, caps))


def after(state, move: str):
    child = state.copy()
    child.play(state.parse_move(move))
    return child


def pieces(state) -> dict[str, str]:
    """cell name -> colour + piece text."""
    g = state.game
    white = state.occupancy(WHITE)
    return {g.name_of[i]: ("W" if white >> i & 1 else "B") + piece_text(p) for i, p in state.board.items()}


def dests(state, cell: str) -> set[str]:
    return {m.split("-")[1] for m in map(state.move_str, state.legal_moves()) if m.split("-")[0] == cell}


def lost(before, after_state) -> dict[str, str]:
    """Pieces of ``before`` that changed or vanished in ``after_state`` (the mover's piece excluded)."""
    a, b = pieces(before), pieces(after_state)
    return {cell: p for cell, p in a.items() if b.get(cell) != p and p[0] == ("B" if before.side == WHITE else "W")}


# --- 9.1 movement -----------------------------------------------------------------------
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


@pytest.mark.parametrize("name", sorted(MOVES))
def test_movement(name):
    spec, cell, expected = MOVES[name]
    assert dests(pos(spec), cell) == expected


def test_m8_initial_move_counts():
    assert len(game().new_state().legal_moves()) == 71
    assert len(game({"first_player": "black"}).new_state().legal_moves()) == 69


# --- 9.2 captures -----------------------------------------------------------------------
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


@pytest.mark.parametrize("options", [DEFAULT, AUTHOR], ids=["default", "author_compat"])
@pytest.mark.parametrize("name", sorted(CAPTURES, key=lambda n: int(n[1:])))
def test_capture(name, options):
    spec, side, move, expected, author = CAPTURES[name]
    if options and author is not None:
        expected = author
    before = pos(spec, side, options)
    assert lost(before, after(before, move)) == expected


def test_c22_pyramid_keeps_the_rest():
    s = after(pos(CAPTURES["C22"][0]), "c10-d11")
    assert pieces(s)["e12"] == "BP(S64+S49+T36+T25+xR16)"
    assert s.game.parse_fen(s.fen()).key() == s.key()
    from mcts_engine.rules.rithmomachia import piece_total
    assert piece_total(s.board[s.game.index("e12")]) == 174
    assert s.caps == [1, 16, 0, 0]


def test_c23_whole_pyramid_counts_six_components():
    s = after(pos(CAPTURES["C23"][0], "B"), "g7-f6")
    assert s.caps == [0, 0, 6, 91]


# --- the initial position ------------------------------------------------------------------
FIRST = {"I1": ("a3-b6", "b14", "BS225"), "I2": ("a4-b7", "b12", "BT90"), "I3": ("c4-b6", "b14", "BS225"),
         "I4": ("g4-h7", "h13", "BS28"), "I5": ("b4-c7", "c11", "BR9"), "I6": ("b4-e3", "e11", "BR5"),
         "I7": ("g5-g7", "g12", "BT12")}


@pytest.mark.parametrize("options", [DEFAULT, AUTHOR], ids=["default", "author_compat"])
@pytest.mark.parametrize("name", sorted(FIRST))
def test_first_move_captures(name, options):
    move, cell, piece = FIRST[name]
    start = game(options).new_state()
    expected = {cell: piece} if options is DEFAULT or name <= "I4" else {}
    assert lost(start, after(start, move)) == expected


def test_i8_exactly_the_listed_first_moves_capture():
    for options, names in ((DEFAULT, FIRST), (AUTHOR, ["I1", "I2", "I3", "I4"])):
        s = game(options).new_state()
        capturing = {s.move_str(m) for m in s.legal_moves() if s.is_capture(m)}
        assert capturing == {FIRST[n][0] for n in names}


def test_i9_black_first():
    s = game({"first_player": "black"}).new_state()
    assert s.to_move == 0 and s.side == BLACK
    capturing = {s.move_str(m) for m in s.legal_moves() if s.is_capture(m)}
    assert capturing == {"b14-a11", "f13-d14", "g12-g10", "h13-g10", "a13-b10", "a13-d14"}
    h13 = after(s, "h13-g10")
    assert pieces(h13)["g4"] == "WP(S36+S25+T16+T9+xR4+R1)"
    s = game({"first_player": "black", "preset": "author_compat"}).new_state()
    assert {s.move_str(m) for m in s.legal_moves() if s.is_capture(m)} == {"g12-g10"}
    assert lost(s, after(s, "g12-g10")) == {"g5": "WT72"}


# --- 9.3 end of the game ---------------------------------------------------------------------
def test_v1_fifteen_pieces_win():
    s = pos(C1, caps="14/100/0/0")
    assert s.outcome() is None
    s = after(s, "a1-b2")
    assert s.caps[:2] == [15, 116] and s.outcome() == 1.0 and s.legal_moves() == []


@pytest.mark.parametrize("options,caps", [(DEFAULT, [5, 190]), (AUTHOR, [6, 380])], ids=["default", "author_compat"])
def test_v2_intact_pyramid_count(options, caps):
    s = after(pos("W R2 c14; B P190 a16, B R3 h1", options=options), "c14-b15")
    assert "a16" not in pieces(s) and s.caps[:2] == caps


@pytest.mark.parametrize("options,before,wins", [
    (DEFAULT, 1300, True), (DEFAULT, 970, False), (AUTHOR, 970, True), (AUTHOR, 960, False)],
    ids=["default-1316", "default-986", "author-986", "author-976"])
def test_v3_white_value_threshold(options, before, wins):
    s = after(pos(C1, options=options, caps=f"1/{before}/0/0"), "a1-b2")
    assert s.caps[1] == before + 16
    assert s.outcome() == (1.0 if wins else None)


@pytest.mark.parametrize("options,before,wins", [
    (DEFAULT, 980, True), (DEFAULT, 970, False), (AUTHOR, 980, False), (AUTHOR, 1310, True)],
    ids=["default-989", "default-979", "author-989", "author-1319"])
def test_v4_black_value_threshold(options, before, wins):
    # C15: Black's move takes W R4 by eruption division (author_compat has no division: C4 instead)
    if options is DEFAULT:
        s, move, gain = pos(C14, "B", options, caps=f"0/0/1/{before}"), "h16-g15", 4
    else:
        s, move, gain = pos(C3, "B", options, caps=f"0/0/1/{before}"), "h16-g15", 25
    s = after(s, move)
    assert s.caps[3] == before + gain
    assert s.outcome() == (0.0 if wins else None)


# --- 9.4 glorious victories --------------------------------------------------------------------
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


@pytest.mark.parametrize("name", list(GLORIOUS))
def test_glorious(name):
    spec, side, move, options, winner = GLORIOUS[name]
    before = pos(spec, side, options)
    s = after(before, move)
    assert lost(before, s) == {}
    assert s.result == winner
    if winner is not None:
        assert s.outcome() == (1.0 if winner == WHITE else 0.0)
    off = after(pos(spec, side), move)
    assert off.result is None   # glorious victories are off by default


def test_g5_g6_g7_need_their_arrangement():
    # the same values out of line / out of the right angle: no win
    for spec, move in (("W R4 c10, B T12 d11, W R36 f12", "f12-g13"), ("W R4 c12, W T6 g12, B T12 e9", "g12-e12")):
        assert after(pos(spec, options=GLORY), move).result is None
