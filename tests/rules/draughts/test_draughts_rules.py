"""Deterministic rule examples for the draughts engine.

Every expected answer below was worked out by hand from
``shared/rules/draughts.md`` (the source of truth), not by running the engine.
Squares in comments are algebraic as seen from White's side (Thai: from Black's
side, like its §4.3 diagram); numeric variants give the PDN number first
(e.g. ``22 = c3``).
"""
from __future__ import annotations

import random

import pytest

from mcts_engine.rules import (AmbiguousMove, BadOption, BadPosition, IllegalMove, RulesError, UnknownGame,
                               get_game)
from mcts_engine.rules.draughts.variants import VARIANTS

# ----------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------


def legal_strs(state) -> set[str]:
    return {state.move_str(m) for m in state.legal_moves()}


def details(game, state) -> dict[str, tuple[frozenset, bool]]:
    """move text -> (names of the captured squares, whether a man is crowned by the move)."""
    out = {}
    for frm, to, cap, crowned in state.legal_moves():
        names = frozenset(game.square_name(1 << i) for i in range(cap.bit_length()) if cap >> i & 1)
        text = state.move_str((frm, to, cap, crowned))
        assert text not in out, f"two legal moves print as {text}"
        out[text] = (names, bool(crowned))
    return out


def check(name: str, fen: str, expected, **options):
    """The legal moves of ``fen`` are exactly ``expected``.

    ``expected`` is a set of move texts, or a dict text -> (captured squares, crowned).
    """
    game = get_game(name, **options)
    state = game.parse_fen(fen)
    if isinstance(expected, dict):
        want = {k: (frozenset(v[0]), v[1]) for k, v in expected.items()}
        assert details(game, state) == want
    else:
        assert legal_strs(state) == set(expected)
    return game, state


def play_all(state, texts):
    for text in texts:
        state.play(state.parse_move(text))


def quiet_walk(name: str, fen: str, plies: int, allow=None, **options) -> list[str]:
    """A deterministic sequence of ``plies`` non-capturing moves from ``fen``.

    Found by depth-first search on the same variant with every draw rule switched
    off: no position occurs twice, and after every move neither side has a
    capture.  ``allow(ply, state, move)`` can restrict the moves.  Returns the
    move texts.
    """
    free = get_game(name, repetition=0, no_progress=0, endgame="none", king_move_limit=0, **options)
    start = free.parse_fen(fen)
    seen = {start.key()}
    path: list[str] = []

    def search(state, ply):
        if ply == plies:
            return True
        for move in sorted(state.legal_moves()):
            if move[2] or (allow is not None and not allow(ply, state, move)):
                continue
            child = state.copy()
            child.play(move)
            replies = child.legal_moves()
            if child.key() in seen or not replies or replies[0][2]:
                continue
            seen.add(child.key())
            path.append(state.move_str(move))
            if search(child, ply + 1):
                return True
            path.pop()
            seen.discard(child.key())
        return False

    assert search(start, 0), "no quiet walk found (test setup)"
    return path


def assert_draw_after(name: str, fen: str, plies: int, allow=None, **options):
    """Along a quiet walk the game runs for ``plies - 1`` plies and is drawn after ``plies``."""
    path = quiet_walk(name, fen, plies, allow, **options)
    state = get_game(name, **options).parse_fen(fen)
    assert state.outcome() is None
    for i, text in enumerate(path, 1):
        state.play(state.parse_move(text))
        if i < plies:
            assert state.outcome() is None, f"drawn too early, after {i} plies ({path[:i]})"
        else:
            assert state.outcome() == 0.5, f"not drawn after {i} plies ({path})"
            assert state.legal_moves() == []
            assert state.random_move(random.Random(1)) is None


def on_long_diagonal(game, mask) -> bool:
    name = game.square_name(mask)
    return name[0] == "abcdefgh"[int(name[1:]) - 1]


def is_king_move(state, move) -> bool:
    return bool(move[0] & state.kings)


# ----------------------------------------------------------------------------
# §6 worked example
# ----------------------------------------------------------------------------

SECTION6 = "W:Wh2:Ba7,b4,e5,e7,g3,g5,g7"


def test_section6_russian_three_moves():
    game, state = check("russian", SECTION6, {
        "h2:a5": ({"g3", "e5", "e7", "g7", "g5", "b4"}, True),
        "h2:f4": ({"g3", "g5", "g7", "e7", "e5"}, True),
        "h2:a3": ({"g3", "g5", "g7", "e7", "b4"}, True),
    })
    # the six-piece move must land on d2 after taking g5 (rule 1.6), then take b4 to a5
    six = state.parse_move("h2:a5")
    routes = [s[5] for s in game.sequences(state.own, state.opp, state.kings, state.turn) if s[:4] == six]
    assert routes
    for route in routes:
        names = [game.square_name(r) for r in route]
        assert names[-2:] == ["d2", "a5"], names
    assert state.parse_move("h2:f4:d6:f8:h6:d2:a5") == six
    for stop in ("e3", "c1"):  # stopping there after g5 is not a legal move
        for text in (f"h2:{stop}", f"h2:f4:d6:f8:h6:{stop}"):
            with pytest.raises(IllegalMove):
                state.parse_move(text)
    # the two routes to a3 are one move (same start, end and captured set)
    assert state.parse_move("h2:f4:h6:f8:d6:a3") == state.parse_move("h2:f4:h6:f8:c5:a3")


def test_section6_brazilian_one_move():
    check("brazilian", SECTION6, {"h2xf4": ({"g3", "e5", "e7", "g7", "g5"}, False)})


# ----------------------------------------------------------------------------
# §4.3 start positions and first moves
# ----------------------------------------------------------------------------

ENGLISH_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
ITALIAN_START = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
SPANISH_START = "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32"
ARGENTINE_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
RUSSIAN_START = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
INTERNATIONAL_START = ("W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
                       ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20")
INTERNATIONAL_FIRST = {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}
CANADIAN_START = ("W:W" + ",".join(map(str, range(43, 73))) + ":B" + ",".join(map(str, range(1, 31))))
TURKISH_START = ("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
                 ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7")
THAI_START = "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32"

START = {
    "english": (ENGLISH_START, {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}),
    "pool": (ENGLISH_START, {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}),
    "italian": (ITALIAN_START, {"21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"}),
    # Spanish: White on 1-12 moves up: 9=h3, 10=f3, 11=d3, 12=b3; 13=g4, 14=e4, 15=c4, 16=a4
    "spanish": (SPANISH_START, {"9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"}),
    "argentine": (ARGENTINE_START, {"9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"}),
    "russian": (RUSSIAN_START, {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}),
    "brazilian": (RUSSIAN_START, {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}),
    "czech": (RUSSIAN_START, {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}),
    "international": (INTERNATIONAL_START, {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29",
                                            "34-30", "35-30"}),
    "frisian": (INTERNATIONAL_START, {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29",
                                      "34-30", "35-30"}),
    # the lidraughts / Hub variants (their own rules are tested in test_lidraughts_variants.py)
    "antidraughts": (INTERNATIONAL_START, INTERNATIONAL_FIRST),
    "breakthrough": (INTERNATIONAL_START, INTERNATIONAL_FIRST),
    "killer": (INTERNATIONAL_START, INTERNATIONAL_FIRST),
    "frysk": ("W:W46,47,48,49,50:B1,2,3,4,5", {"46-41", "47-41", "47-42", "48-42", "48-43", "49-43", "49-44",
                                               "50-44", "50-45"}),
    # Canadian: White 43-72; the front row 43-48 = a5, c5, ..., k5 moves to 37-42 = b6, d6, ..., l6
    "canadian": (CANADIAN_START, {"43-37", "44-37", "44-38", "45-38", "45-39", "46-39", "46-40", "47-40",
                                  "47-41", "48-41", "48-42"}),
    "turkish": (TURKISH_START, {f"{f}3-{f}4" for f in "abcdefgh"}),
    "greek": (TURKISH_START, {f"{f}3-{f}4" for f in "abcdefgh"}),
    # Thai: Black (first) on 25-32 moves towards the low numbers: 25=b2, 26=d2, ...; 21=a3, 22=c3, ...
    "thai": (THAI_START, {"25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24"}),
}


def test_start_table_covers_every_game():
    assert set(START) == set(VARIANTS)


@pytest.mark.parametrize("name", sorted(START))
def test_start_position_and_first_moves(name):
    fen, moves = START[name]
    game = get_game(name)
    state = game.new_state()
    assert state.fen() == fen
    assert state.to_move == 0
    assert state.outcome() is None
    assert legal_strs(state) == moves
    parsed = game.parse_fen(fen)
    assert parsed.key() == state.key()
    assert parsed.fen() == fen
    assert set(parsed.legal_moves()) == set(state.legal_moves())


def test_thai_start_with_three_rows():
    state = get_game("thai", men_rows=3).new_state()
    assert state.fen() == "B:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32"
    assert legal_strs(state) == {"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}


# ----------------------------------------------------------------------------
# rule parameters, each by the exact set of legal moves
# ----------------------------------------------------------------------------

# --- M5 king range -------------------------------------------------------------

def test_flying_king_moves_any_distance():
    check("russian", "W:WKc3:Ba7", {"c3-b2", "c3-a1", "c3-d2", "c3-e1", "c3-b4", "c3-a5",
                                     "c3-d4", "c3-e5", "c3-f6", "c3-g7", "c3-h8"})


def test_short_king_moves_one_square():
    # 22 = c3, 5 = a7: neighbours 17 = b4, 18 = d4, 25 = b2, 26 = d2
    check("english", "W:WK22:B5", {"22-17", "22-18", "22-25", "22-26"})


def test_flying_king_blocked_by_own_piece():
    # d4 is White's own man: the king's north-east line stops before it
    check("russian", "W:WKc3,d4:Ba7", {"c3-b2", "c3-a1", "c3-d2", "c3-e1", "c3-b4", "c3-a5",
                                        "d4-c5", "d4-e5"})


# --- M6 king landing ------------------------------------------------------------

def test_king_landing_any_russian():
    check("russian", "W:WKa1:Bd4", {"a1:e5", "a1:f6", "a1:g7", "a1:h8"})


def test_king_landing_next_thai_approaches_from_a_distance():
    # Black king 29 = a1 passes 25 = b2, 22 = c3, jumps White's 18 = d4, must stop on 15 = e5
    check("thai", "B:W18:BK29", {"29-15"})


def test_king_landing_any_spanish_vs_next_argentine():
    # 1 = h1; the diagonal goes 5 = g2, 10 = f3, 14 = e4, 19 = d5, 23 = c6, 28 = b7, 32 = a8
    check("spanish", "W:WK1:B14", {"1x19", "1x23", "1x28", "1x32"})
    check("argentine", "B:W14:BK1", {"1x19"})


def test_king_landing_any_turkish_vs_next_greek():
    fen = "W:WKa1,h2:Ba4,h7"
    check("turkish", fen, {"a1xa5", "a1xa6", "a1xa7", "a1xa8"})
    check("greek", fen, {"a1xa5"})


# --- M4 man takes king ------------------------------------------------------------

def test_italian_man_may_not_jump_a_king():
    # 22 = d3 faces 18 = c4 (landing 13 = b5 empty) and 19 = e4
    check("italian", "W:W22:BK18", {"22-19"})
    check("italian", "W:W22:B18", {"22x13"})
    check("italian", "W:WK22:BK18", {"22x13"})  # a king may take a king


# --- C3 choice rules ---------------------------------------------------------------

def test_italian_priority_1_most_pieces():
    # 30 = d1 takes 26 = c2 and 18 = c4 (30x21x14); 24 = h3 could take only 20 = g4
    check("italian", "W:W24,30:B18,20,26", {"30x14": ({"26", "18"}, False)})


def test_italian_priority_2_king_must_capture():
    # man 22 = d3 takes 18 = c4; king 31 = f1 takes 28 = g2: equal count, the king must capture
    check("italian", "W:W22,K31:B18,28", {"31x24"})


def test_italian_priority_3_most_kings():
    # king 22 = d3: 19 = e4 (a man, lands 15) or 18 = c4 (a king, lands 13)
    check("italian", "W:WK22:B19,K18", {"22x13"})


def test_italian_priority_4_earliest_king():
    # king 22 = d3, two routes of two pieces with one king each:
    #   22x15x8  takes 19 (man) then 12 (king)
    #   22x13x6  takes 18 (king) then 10 (man)  <- the king comes first
    fen = "W:WK22:B10,K12,K18,19"
    check("italian", fen, {"22x6": ({"18", "10"}, False)})
    check("italian", fen, {"22x6", "22x8"}, choice="max-kings")


def test_spanish_max_kings_prefers_the_king():
    # man 10 = f3: 14 = e4 (man, lands 19 = d5) or 13 = g4 (king, lands 17 = h5)
    check("spanish", "W:W10:B14,K13", {"10x17"})
    check("spanish", "W:W10:B14,K13", {"10x17", "10x19"}, choice="max")


def test_spanish_no_king_priority():
    # man 12 = b3 takes 15 = c4 (to 19 = d5); king 1 = h1 takes 5 = g2 and may land on
    # 10, 14, 19, 23, 28 or 32: equal counts, no kings taken, so all seven are legal
    check("spanish", "W:W12,K1:B5,15", {"12x19", "1x10", "1x14", "1x19", "1x23", "1x28", "1x32"})


def test_spanish_quantity_before_quality():
    # two men (14 then 23, to 28 = b7) beat one king (13)
    check("spanish", "W:W10:B14,23,K13", {"10x28": ({"14", "23"}, False)})


def test_international_majority():
    # man 32 = d4: 27 = c5 then 17 = c7 (to 12 = d8), or just 28 = e5 (to 23 = f6)
    check("international", "W:W32:B17,27,28", {"32x12": ({"27", "17"}, False)})
    check("international", "W:W32:B17,27,28", {"32x12", "32x23"}, choice="free")


def test_czech_king_must_capture_first():
    fen = "W:Wc3,Ke1:Bd4,f2"
    check("czech", fen, {"e1xg3", "e1xh4"})
    check("russian", fen, {"c3:e5", "e1:g3", "e1:h4"})


def test_frisian_king_worth_more_than_a_man():
    # man 32 = d4: 27 = c5 (a man, to 21) or 28 = e5 (a king, to 23)
    check("frisian", "W:W32:B27,K28", {"32x23"})
    check("frisian", "W:W32:B27,K28", {"32x21", "32x23"}, choice="max")


def test_frisian_two_men_worth_more_than_a_king():
    check("frisian", "W:W32:B17,27,K28", {"32x12": ({"27", "17"}, False)})


def test_frisian_two_kings_worth_more_than_three_men():
    # three men: 27, 17, 8 ending on 3 = f10 (crowned there: the move ends on the far row);
    # two kings: 28, 19 ending on 14 = h8.  2 kings rank between 3 and 4 men.
    fen = "W:W32:B8,17,27,K19,K28"
    check("frisian", fen, {"32x14": ({"28", "19"}, False)})
    check("frisian", fen, {"32x3": ({"27", "17", "8"}, True)}, choice="max")


def test_frisian_king_jumps_orthogonally():
    # king 46 = a1 up the a-file over 26 = a5 to 16 = a7 or 6 = a9
    check("frisian", "W:WK46:B26", {"46x16", "46x6"})
    check("international", "W:WK46:B26", {f"46-{n}" for n in (41, 37, 32, 28, 23, 19, 14, 10, 5)})


def test_frisian_equal_value_king_must_capture():
    # king 46 = a1 takes 41 = b2 (only landing 37: 32 is White's), man 32 = d4 takes 28 = e5
    check("frisian", "W:W32,K46:B28,41", {"46x37"})
    check("frisian", "W:W32,K46:B28,41", {"46x37", "32x23"}, choice="max")


def test_frisian_orthogonal_man_jumps():
    # man 28 = e5 with men on e7 (18), e3 (38), c5 (27), g5 (29): four orthogonal jumps
    fen = "W:W28:B18,27,29,38"
    check("frisian", fen, {"28x8", "28x48", "28x26", "28x30"})
    check("international", fen, {"28-22", "28-23"})


# --- Turkish -----------------------------------------------------------------------

def test_turkish_man_steps_forward_and_sideways():
    check("turkish", "W:Wd4:Ba7,h7", {"d4-d5", "d4-c4", "d4-e4"})
    # a man neither steps nor jumps backwards (d3 behind d4 cannot be taken)
    check("turkish", "W:Wd4,a2:Bd3,h7", {"d4-d5", "d4-c4", "d4-e4", "a2-a3", "a2-b2"})


def test_turkish_king_moves_like_a_rook():
    check("turkish", "W:WKd4:Ba7,h7", {f"d4-{s}" for s in
                                        ["d5", "d6", "d7", "d8", "d3", "d2", "d1", "c4", "b4", "a4",
                                         "e4", "f4", "g4", "h4"]})


def test_turkish_immediate_removal_lets_a_king_recross():
    # c1 up over c4 (to c6), right over e6 (to f6), down over f5 (to f4), then left
    # across c4 (already removed) over b4 to a4: four pieces, the only maximal capture
    fen = "W:WKc1:Bb4,c4,e6,f5"
    check("turkish", fen, {"c1xa4": ({"c4", "e6", "f5", "b4"}, False)})
    # with the Turkish strike the captured c4 blocks: three pieces, four landings
    three = {"c4", "e6", "f5"}
    check("turkish", fen, {f"c1xf{r}": (three, False) for r in "1234"}, removal="end")


def test_turkish_king_may_not_reverse():
    fen = "W:WKd4:Bd2,d6"
    check("turkish", fen, {"d4xd7": ({"d6"}, False), "d4xd8": ({"d6"}, False), "d4xd1": ({"d2"}, False)})
    both = {"d2", "d6"}
    check("turkish", fen, {"d4xd7": (both, False), "d4xd8": (both, False), "d4xd1": (both, False)},
          king_reverse=True)


def test_turkish_promotion_fly_default():
    # e6 takes e7, is crowned on e8 and flies on over d8
    check("turkish", "W:We6:Bd8,e7", {f"e6x{s}": ({"e7", "d8"}, True) for s in ("c8", "b8", "a8")})


def test_turkish_promotion_fly_keeps_the_no_reversal_rule():
    # the new king on e8 may not turn back down the e-file (over e3) after the man's upward jump
    check("turkish", "W:We6:Bd8,e7,e3", {f"e6x{s}": ({"e7", "d8"}, True) for s in ("c8", "b8", "a8")})
    check("turkish", "W:We6:Bd8,e7,e3", {f"e6x{s}": ({"e7", "d8"}, True) for s in ("c8", "b8", "a8")}
          | {f"e6x{s}": ({"e7", "e3"}, True) for s in ("e2", "e1")}, king_reverse=True)


def test_turkish_promotion_pass_option():
    # as a man it jumps d8 sideways to c8; the move ends on the far row, so it is crowned
    check("turkish", "W:We6:Bd8,e7", {"e6xc8": ({"e7", "d8"}, True)}, promotion="pass")


def test_turkish_promotion_stop_option():
    check("turkish", "W:We6:Bd8,e7", {"e6xe8": ({"e7"}, True)}, promotion="stop")


# --- C4 promotion mid-capture: Russian fly / Brazilian, Pool, International pass / stop ---

def test_russian_promotion_on_the_fly():
    # b6 takes c7 to d8, crowned, and flies on over e7
    check("russian", "W:Wb6:Bc7,e7", {f"b6:{s}": ({"c7", "e7"}, True) for s in ("f6", "g5", "h4")})


def test_brazilian_promotion_pass():
    check("brazilian", "W:Wb6:Bc7,e7", {"b6xf6": ({"c7", "e7"}, False)})


def test_czech_promotion_stop():
    check("czech", "W:Wb6:Bc7,e7", {"b6xd8": ({"c7"}, True)})


def test_english_promotion_stop():
    # 9 = b6 takes 6 = c7 to 2 = d8 and stops there, crowned
    check("english", "W:W9:B6,7", {"9x2": ({"6"}, True)})


def test_pool_promotion_pass():
    # the man passes 2 = d8 and jumps back over 7 = e7 to 11 = f6, uncrowned
    check("pool", "W:W9:B6,7", {"9x11": ({"6", "7"}, False)})


def test_international_promotion_pass_and_options():
    # 11 = b8 takes 7 = c9 to 2 = d10, goes on as a man over 8 = e9 to 13 = f8
    fen = "W:W11:B7,8"
    check("international", fen, {"11x13": ({"7", "8"}, False)})
    check("international", fen, {"11x2": ({"7"}, True)}, promotion="stop")
    check("international", fen, {f"11x{s}": ({"7", "8"}, True) for s in ("13", "19", "24", "30", "35")},
          promotion="fly")


# --- C2 removal: Turkish strike vs immediate removal -------------------------------

def test_russian_turkish_strike():
    # a1 takes c3 and must land on d4 or e5 (rule 1.6):
    #   d4: over b6 to a7 (the captured b6 may not be jumped again from a7)
    #   e5: over d6 to c7 (not b8), over b6 to a5; from a5 the captured c3 blocks the way to d2
    fen = "W:WKa1:Bb6,c3,d2,d6"
    check("russian", fen, {"a1:a7": ({"c3", "b6"}, False), "a1:a5": ({"c3", "d6", "b6"}, False)})
    # with immediate removal c3 is gone and a5 goes on over d2 to e1
    check("russian", fen, {"a1:a7": ({"c3", "b6"}, False), "a1:e1": ({"c3", "d6", "b6", "d2"}, False)},
          removal="immediate")


def test_thai_immediate_removal_and_reversal():
    # Black king 22 = c3, White men 15 = e5, 25 = b2.  Thai removes at once and lets the
    # king turn back: over e5 to f6 (11), then back across e5, d4 and c3 over b2 to a1 (29);
    # or the other way round.
    fen = "B:W15,25:BK22"
    check("thai", fen, {"22-29": ({"15", "25"}, False), "22-11": ({"15", "25"}, False)})
    check("thai", fen, {"22-29": ({"25"}, False), "22-11": ({"15"}, False)}, removal="end")
    # the same picture in Russian (Turkish strike, landing anywhere): one piece per move
    check("russian", "W:WKc3:Bb2,e5", {"c3:f6", "c3:g7", "c3:h8", "c3:a1"})


# --- rule 1.6 ------------------------------------------------------------------------

def test_rule_1_6_flying_king_must_land_where_it_can_go_on():
    # a1 over c3 may stop on d4..h8, but only f6 continues (over e7 to d8)
    check("russian", "W:WKa1:Bc3,e7", {"a1:d8": ({"c3", "e7"}, False)})
    # the same in Pool (English numbering): 29 = a1, 22 = c3, 7 = e7, 2 = d8
    check("pool", "W:WK29:B7,22", {"29x2": ({"22", "7"}, False)})


# --- rule 1.7 ------------------------------------------------------------------------

def test_rule_1_7_start_square_counts_as_empty():
    # king d2 around the square c3-c5-e5-e3 in either direction; it may cross d2 and
    # finish on it; the two routes ending on d2 are one move
    four = {"c3", "c5", "e3", "e5"}
    check("russian", "W:WKd2:Bc3,c5,e3,e5", {"d2:d2": (four, False), "d2:e1": (four, False),
                                              "d2:c1": (four, False)})


# --- FMJD de-duplication and notation of ambiguous captures ------------------------

def test_fmjd_same_captured_set_is_one_move():
    # a1 over c3 lands on d4 or e5, from both it takes f6 and lands on g7 or h8:
    # four routes, two moves
    game, state = check("russian", "W:WKa1:Bc3,f6", {"a1:g7": ({"c3", "f6"}, False),
                                                       "a1:h8": ({"c3", "f6"}, False)})
    routes = game.sequences(state.own, state.opp, state.kings, state.turn)
    assert len({s[5] for s in routes}) == 4
    assert state.parse_move("a1:d4:g7") == state.parse_move("a1:e5:g7") == state.parse_move("a1:g7")


def test_fmjd_different_captured_sets_are_two_moves_with_full_routes():
    # English man 22 = c3: over 17 = b4 to 13 = a5, over 9 = b6 to 6 = c7;
    #                  or over 18 = d4 to 15 = e5, over 10 = d6 to 6 = c7
    game, state = check("english", "W:W22:B9,10,17,18", {"22x13x6": ({"17", "9"}, False),
                                                           "22x15x6": ({"18", "10"}, False)})
    with pytest.raises(AmbiguousMove) as info:
        state.parse_move("22x6")
    assert sorted(info.value.candidates) == ["22x13x6", "22x15x6"]
    assert "22x13x6" in str(info.value) and "22x15x6" in str(info.value)
    assert isinstance(info.value, IllegalMove)
    left = state.parse_move("22x13x6")
    assert left[2] == game.parse_square("17") | game.parse_square("9")
    assert state.move_str(left) == "22x13x6"
    assert state.move_str(state.parse_move("22x15x6")) == "22x15x6"


def test_full_route_is_read_exactly_not_as_a_subsequence():
    # Pool, Black man 10 = d6 against White 14 = c5, 15 = e5, 22 = c3, 23 = e3, 24 = g3.
    #   10x19x28:        over e5 to f4, over g3 to h2                 (15, 24)
    #   10x17x26x19x28:  over c5 to b4, c3 to d2, e3 to f4, g3 to h2  (14, 22, 23, 24)
    #   10x10:           round the square back to d6, two routes      (14, 15, 22, 23)
    # The first two share start and end, so both are written in full (§4.4); the full
    # route 10x19x28 names the two-piece move only: 19 is its first landing square.
    game, state = check("pool", "B:W14,15,22,23,24:B10", {
        "10x19x28": ({"15", "24"}, False),
        "10x17x26x19x28": ({"14", "22", "23", "24"}, False),
        "10x10": ({"14", "15", "22", "23"}, False),
    })
    for text in ("10x19x28", "10x17x26x19x28", "10x10"):
        assert state.move_str(state.parse_move(text)) == text
    with pytest.raises(AmbiguousMove) as info:
        state.parse_move("10x28")
    assert sorted(info.value.candidates) == ["10x17x26x19x28", "10x19x28"]


def test_full_route_of_a_flying_king_is_read_exactly():
    # Thai (Black's view, English-shaped numbering): White king 11 = f6; Black men
    # 7 = e7, 16 = g5, 24 = g3.  Jumped men vanish at once and the king stops right behind.
    #   11-2-20-27: over e7 to d8, back across f6 over g5 to h4, over g3 to f2  (7, 16, 24)
    #   11-20-27:   over g5 to h4, over g3 to f2                               (16, 24)
    #   11-2:       over g5 to h4, back across f6 over e7 to d8                (16, 7)
    game, state = check("thai", "W:WK11:B7,16,24", {
        "11-2-20-27": ({"7", "16", "24"}, False),
        "11-20-27": ({"16", "24"}, False),
        "11-2": ({"16", "7"}, False),
    })
    for text in ("11-2-20-27", "11-20-27", "11-2"):
        assert state.move_str(state.parse_move(text)) == text


# ----------------------------------------------------------------------------
# draw rules and the end of the game, through outcome()
# ----------------------------------------------------------------------------

def test_english_threefold_repetition():
    state = get_game("english").parse_fen("W:WK29:BK4")
    shuttle = ["29-25", "4-8", "25-29", "8-4"] * 2
    for i, text in enumerate(shuttle, 1):
        state.play(state.parse_move(text))
        assert state.outcome() == (0.5 if i == 8 else None), i
    assert state.legal_moves() == []


def test_repetition_option_off():
    state = get_game("english", repetition=0).parse_fen("W:WK29:BK4")
    play_all(state, ["29-25", "4-8", "25-29", "8-4"] * 3)
    assert state.outcome() is None


def test_english_no_progress_80_plies():
    assert_draw_after("english", "W:WK29,K30:BK3,K4", 80)


def test_english_man_move_resets_no_progress():
    fen = "W:WK29,K30:BK3,K4,9"  # Black also has a man on 9 = b6

    def allow(ply, state, move):  # 79 king plies, Black's man moves, 80 king plies
        return is_king_move(state, move) != (ply == 79)

    path = quiet_walk("english", fen, 160, allow)
    state = get_game("english").parse_fen(fen)
    for i, text in enumerate(path, 1):
        state.play(state.parse_move(text))
        assert state.outcome() == (0.5 if i == 160 else None), (i, text)


def test_spanish_no_progress_40_plies():
    assert_draw_after("spanish", "W:WK1,K2:BK31,K32", 40)


def test_international_no_progress_50_plies():
    # five pieces: no endgame count applies
    assert_draw_after("international", "W:WK46,K47,K48:BK4,K5", 50)


def test_international_three_vs_lone_king_32_plies():
    assert_draw_after("international", "W:WK46,K47,K48:BK4", 32)


def test_international_king_and_man_vs_lone_king_10_plies():
    assert_draw_after("international", "W:WK46,36:BK4", 10)


def test_international_two_kings_vs_lone_king_10_plies():
    assert_draw_after("international", "W:WK46,K47:BK4", 10)


def _black_off_long_diagonal(ply, state, move):
    return state.to_move == 0 or not on_long_diagonal(state.game, move[1])


def _black_on_white_off_long_diagonal(ply, state, move):
    return on_long_diagonal(state.game, move[1]) == (state.to_move == 1)


def test_russian_three_kings_vs_lone_king_30_plies():
    assert_draw_after("russian", "W:WKc1,Ke1,Kg1:BKh6", 30, _black_off_long_diagonal)


def test_russian_two_vs_lone_king_10_plies():
    assert_draw_after("russian", "W:WKc1,Ke1:BKh6", 10, _black_off_long_diagonal)
    assert_draw_after("russian", "W:WKc1,a3:BKh6", 10, _black_off_long_diagonal)


def test_russian_king_and_two_men_vs_lone_king_on_the_long_diagonal_10_plies():
    assert_draw_after("russian", "W:WKc1,a3,e3:BKh8", 10, _black_on_white_off_long_diagonal)


def test_russian_three_kings_vs_lone_king_on_the_long_diagonal_10_plies():
    # draughts.md §3.2: "3 vs a lone king holding the long diagonal: 5 moves" (pydraughts
    # applies it to three kings too: it checks every rule, the 15-move one does not shadow it)
    assert_draw_after("russian", "W:WKc1,Ke1,Kg1:BKh8", 10, _black_on_white_off_long_diagonal)


def test_russian_three_vs_lone_king_off_the_diagonal_runs_on():
    def allow(ply, state, move):
        return not on_long_diagonal(state.game, move[1])

    fen = "W:WKc1,Ke1,Kg1:BKh6"
    path = quiet_walk("russian", fen, 12, allow)
    state = get_game("russian").parse_fen(fen)
    for text in path:
        state.play(state.parse_move(text))
        assert state.outcome() is None


def test_turkish_one_piece_each_is_a_draw():
    state = get_game("turkish").parse_fen("W:Wd4:Be7")
    assert state.outcome() == 0.5
    assert state.legal_moves() == []
    state = get_game("turkish").parse_fen("W:Wd4:Bd5,h7")
    assert state.outcome() is None
    state.play(state.parse_move("d4xd6"))
    assert state.outcome() == 0.5


def test_turkish_one_piece_each_waits_for_a_winning_capture():
    # the draw by one piece each applies only when the side to move has no capture
    state = get_game("turkish").parse_fen("W:Wd4:Bd5")
    assert state.outcome() is None
    assert [state.move_str(m) for m in state.legal_moves()] == ["d4xd6"]
    state.play(state.legal_moves()[0])
    assert state.outcome() == 1.0  # Black has no piece left


def test_frisian_king_vs_king_4_plies():
    assert_draw_after("frisian", "W:WK46:BK4", 4)


def test_frisian_two_kings_vs_king_14_plies():
    assert_draw_after("frisian", "W:WK46,K47:BK4", 14)


def test_frisian_king_move_limit_with_men():
    # White: king 46 = a1, man 50 = i1; Black: a man walking 1 -> 7 -> 12 -> 18
    state = get_game("frisian").parse_fen("W:W50,K46:B1")
    play_all(state, ["46-41", "1-7", "41-46", "7-12", "46-41", "12-18"])
    assert legal_strs(state) == {"50-44", "50-45"}  # the king on 41 may not move a 4th time
    assert state.outcome() is None
    play_all(state, ["50-44", "18-22"])
    assert "41-46" in legal_strs(state)  # a man move ends the run


def test_frisian_king_move_limit_needs_men():
    state = get_game("frisian").parse_fen("W:WK46:BK1,K4")
    play_all(state, ["46-41", "1-7", "41-46", "4-9", "46-41", "7-1"])
    assert "41-46" in legal_strs(state)


def test_frisian_king_taken_after_its_run_leaves_no_phantom():
    """White's king moves three times (47-42, 42-48, 48-31) and is taken on 31; its run was not
    cleared, and the frozen-king test used to put a phantom king on 31 whose 'capture' of 27
    made the move generator look for captures that do not exist (a ValueError in search, found
    by pydraughts' Hub client playing Frysk!)."""
    state = get_game("frisian").parse_fen("W:WK47,K15,38:BK7,21,2")
    play_all(state, ["47-42", "21-27", "42-48", "7-1", "48-31", "1x41"])
    fresh = get_game("frisian").parse_fen(state.fen())
    assert set(state.legal_moves()) == set(fresh.legal_moves()) and not state.legal_moves()[0][2]
    assert state.random_move(random.Random(1)) in state.legal_moves()
    assert state.copy().playout(random.Random(1)) in (0.0, 0.5, 1.0)


@pytest.mark.parametrize("name,fen,expected", [
    ("russian", "B:Wc3:B", 1.0),          # Black (second) has no pieces
    ("russian", "W:W:Bc5", 0.0),          # White (first) has no pieces
    ("english", "B:W21:B", 0.0),          # English: Black moves first and has no pieces
    ("russian", "W:Wa3:Bb4,c5", 0.0),     # White's only man is blocked
    ("english", "B:W8,11:B4", 0.0),       # Black's 4 = h8 is blocked by 8 = g7 and 11 = f6
    ("turkish", "W:Wa2:Ba3,a4,b2,c2", 0.0),  # White's a2 can neither step nor jump
])
def test_no_legal_move_loses(name, fen, expected):
    state = get_game(name).parse_fen(fen)
    assert state.legal_moves() == []
    assert state.outcome() == expected


# ----------------------------------------------------------------------------
# notation
# ----------------------------------------------------------------------------

def test_parse_step():
    game = get_game("international")
    state = game.new_state()
    move = state.parse_move("32-28")
    assert move == (game.parse_square("32"), game.parse_square("28"), 0, False)
    assert state.move_str(move) == "32-28"


def test_fen_ranges_and_order():
    game = get_game("international")
    assert game.parse_fen("W:W31-50:B1-20").key() == game.new_state().key()
    # the colour letter decides, not the order of the lists
    assert game.parse_fen("W:B1-20:W31-50").key() == game.new_state().key()
    assert game.parse_fen("B:W31-50:B1-20").to_move == 1


def test_parse_full_and_short_capture_routes():
    # English 27 = f2 over 23 = e3 to 18 = d4, over 15 = e5 to 11 = f6
    game = get_game("english")
    state = game.parse_fen("W:W27:B15,23")
    full = state.parse_move("27x18x11")
    assert full == state.parse_move("27x11")
    assert full[2] == game.parse_square("23") | game.parse_square("15")
    assert state.move_str(full) == "27x11"  # canonical: the short form when unambiguous
    with pytest.raises(IllegalMove):
        state.parse_move("27x19x11")  # 19 is not on the route


def test_russian_colon_notation():
    game = get_game("russian")
    state = game.parse_fen(SECTION6)
    for text in ("h2:f4:d6:f8:h6:d2:a5", "h2:a5", "h2xa5", "H2:A5"):
        move = state.parse_move(text)
        assert state.move_str(move) == "h2:a5"
    start = game.new_state()
    assert start.move_str(start.parse_move("c3-d4")) == "c3-d4"


@pytest.mark.parametrize("name,fen,text,canonical", [
    ("international", INTERNATIONAL_START, "32-28", "32-28"),
    ("english", "W:W27:B15,23", "27x18x11", "27x11"),
    ("english", "W:W22:B9,10,17,18", "22x15x6", "22x15x6"),
    ("russian", "W:WKa1:Bc3,f6", "a1:e5:g7", "a1:g7"),
    ("russian", "W:WKa1:Bc3,f6", "a1xh8", "a1:h8"),
    ("thai", "B:W15,25:BK22", "22-11", "22-11"),
    ("thai", "B:W15,25:BK22", "22x11", "22-11"),
    ("turkish", "W:WKc1:Bb4,c4,e6,f5", "c1xc6xf6xf4xa4", "c1xa4"),
])
def test_move_str_of_parse_is_canonical(name, fen, text, canonical):
    state = get_game(name).parse_fen(fen)
    move = state.parse_move(text)
    assert state.move_str(move) == canonical
    assert state.parse_move(canonical) == move


# ----------------------------------------------------------------------------
# bad input
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("name,fen,offending", [
    ("english", "X:W21:B1", "X"),                 # wrong side letter
    ("english", "W:W21,33:B1", "33"),             # no square 33 on 8x8
    ("russian", "W:Wa2:Bh8", "a2"),               # a light square
    ("russian", "W:Wz9:Bh8", "z9"),               # not a square at all
    ("english", "W:W21,22:B22", "22"),            # square given twice
    ("russian", "W:Wc3,c3:Bh8", "c3"),
    ("russian", "W:Wd8:Ba7", "d8"),               # White man on its crowning row
    ("russian", "W:Wc3:Ba1", "a1"),               # Black man on its crowning row
    ("english", "B:W1,21:B12", "1"),
    ("english", "W:Q21:B1", "Q21"),               # junk field
    ("english", "hello world", "hello world"),
    ("english", "", ""),
    ("russian", "W:Wc3:Bh8:Wd4", "W"),            # colour given twice
])
def test_bad_fen(name, fen, offending):
    with pytest.raises(BadPosition) as info:
        get_game(name).parse_fen(fen)
    assert offending in str(info.value)
    assert isinstance(info.value, RulesError) and isinstance(info.value, ValueError)


def test_unknown_game():
    with pytest.raises(UnknownGame) as info:
        get_game("nosuchgame")
    assert "nosuchgame" in str(info.value)
    assert isinstance(info.value, RulesError)


def test_aliases_and_case():
    assert get_game("American").name == "english"
    assert get_game("shashki").name == "russian"


@pytest.mark.parametrize("name,options,offending", [
    ("russian", {"flying": "yes"}, "flying"),
    ("turkish", {"promotion": "sideways"}, "sideways"),
    ("thai", {"men_rows": "lots"}, "lots"),
    ("thai", {"men_rows": -1}, "-1"),
    ("english", {"king_reverse": "maybe"}, "maybe"),
    ("international", {"size": 9}, "9"),
])
def test_bad_option(name, options, offending):
    with pytest.raises(BadOption) as info:
        get_game(name, **options)
    assert offending in str(info.value)


@pytest.mark.parametrize("name,fen,text", [
    ("english", ENGLISH_START, "21-17"),          # White's man, but Black is to move
    ("english", ENGLISH_START, "9-18"),           # not a step
    ("english", ENGLISH_START, "13-17"),          # empty square
    ("russian", RUSSIAN_START, "c3-c4"),          # light square
    ("russian", SECTION6, "h2-g1"),               # a capture is compulsory
    ("russian", SECTION6, "h2:e3"),               # not where any capture ends
    ("international", INTERNATIONAL_START, "31-25"),
])
def test_illegal_move(name, fen, text):
    state = get_game(name).parse_fen(fen)
    with pytest.raises(IllegalMove) as info:
        state.parse_move(text)
    assert text in str(info.value)
    assert not isinstance(info.value, AmbiguousMove)


@pytest.mark.parametrize("text", ["", "hello", "9", "9-", "-13", "9--13", "9-13-", "x", "9x", "99-100",
                                  "9_13", "9 13", "a3-b4"])
def test_garbage_move_text(text):
    state = get_game("english").new_state()
    with pytest.raises(IllegalMove):
        state.parse_move(text)


def test_each_endgame_count_is_at_least_its_rule_sets_floor():
    """``ENDGAME_FLOOR`` lets the draw check skip the count while fewer plies than any count
    have passed since the last capture: no count of a rule set may be below its floor."""
    from itertools import product

    from mcts_engine.rules.draughts.variants import ENDGAME_COUNTS, ENDGAME_FLOOR, ENDGAME_MAX_PIECES
    for name, counts in ENDGAME_COUNTS.items():
        if counts is None:
            continue
        found = set()
        for own_men, own_kings, opp_men, opp_kings in product(range(8), repeat=4):
            if not 2 <= own_men + own_kings + opp_men + opp_kings <= ENDGAME_MAX_PIECES[name]:
                continue
            for flags in product((False, True), repeat=4):
                limit = counts(own_men, own_kings, opp_men, opp_kings, flags[:2], flags[2:])
                if limit is not None:
                    found.add(limit)
        assert found and min(found) == ENDGAME_FLOOR[name], name
