"""Rithmomachia (../shared/rules/rithmomachia.md): every worked example of §9, for the
default options and for the option columns they give (``author_compat`` and others)."""
from __future__ import annotations

import pytest

from mcts_engine.rules import get_game
from mcts_engine.rules.rithmomachia import BLACK, WHITE
from support.rithmomachia_examples import (C1, C3, C14, CAPTURES, FIRST, GLORIOUS, GLORY, MOVES, P91, P190,
                                           fen_of, lost, pieces)

DEFAULT = {}
AUTHOR = {"preset": "author_compat"}


def game(options=None):
    return get_game("rithmomachia", **(options or {}))


def pos(spec: str, side: str = "W", options=None, caps: str = "0/0/0/0"):
    return game(options).parse_fen(fen_of(spec, side, caps))


def after(state, move: str):
    child = state.copy()
    child.play(state.parse_move(move))
    return child


def dests(state, cell: str) -> set[str]:
    return {m.split("-")[1] for m in map(state.move_str, state.legal_moves()) if m.split("-")[0] == cell}


# --- 9.1 movement -----------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(MOVES))
def test_movement(name):
    spec, cell, expected = MOVES[name]
    assert dests(pos(spec), cell) == expected


def test_m8_initial_move_counts():
    assert len(game().new_state().legal_moves()) == 71
    assert len(game({"first_player": "black"}).new_state().legal_moves()) == 69


# --- 9.2 captures -----------------------------------------------------------------------
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
