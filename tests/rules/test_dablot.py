"""Dablot Prejjesne (../shared/rules/dablot.md): the worked examples, the lattice, the rule
options, properties over seeded random games, and bad input."""
from __future__ import annotations

import random

import pytest
from support import (check_copy_is_independent, check_fen_round_trip, check_moves_read_back, check_playout_cut_off,
                      check_playout_matches_loop, check_random_move, check_random_move_uniform, random_game)

from mcts_engine.rules import get_game, parse_rule_options
from mcts_engine.rules.base import AmbiguousMove, BadOption, BadPosition, Game, IllegalMove
from mcts_engine.rules.dablot import DablotLattice
from mcts_engine.rules.geometry import indices

DABLOT = get_game("dablot")


def moves_of(state) -> list[str]:
    return sorted(state.move_str(m) for m in state.legal_moves())


# --- the worked examples (dablot.md §10), one test each ----------------------------------------
EX2_STEPS = ("c5-c3 c5-b5 c5-d5 c5-b4 c5-c4 c5-b6 c5-c6 e5-e3 e5-d5 e5-f5 e5-d4 e5-e4 e5-d6 e5-e6 "
             "a1-a3 a1-b1 a1-a2").split()


def example_1():
    s = DABLOT.new_state()
    assert s.to_move == 0 and DABLOT.colours[0] == "B"         # Black moves first
    assert moves_of(s) == sorted("a5-a6 b5-a6 b5-b6 b5-b7 c5-b6 c5-c6 c5-c7 d5-c6 d5-d6 d5-d7 "
                                 "e5-d6 e5-e7 e6-e7 f7-e7 f7-e8".split())
    assert not any(s.is_capture(m) for m in s.legal_moves())


def example_2():
    s = DABLOT.parse_fen("B:BKa1,Pe5,c5:WKf13,Pc7,e7")
    assert moves_of(s) == sorted(EX2_STEPS + ["e5xe9"])
    assert len(s.legal_moves()) == 18
    with pytest.raises(IllegalMove):
        s.parse_move("c5xc9")      # a man may not jump the Prince


def example_3():
    s = DABLOT.parse_fen("B:BKe3,b3:WKa13,b5,e5")
    assert moves_of(s) == ["b3xb7", "e3xe7"]
    with pytest.raises(IllegalMove, match="compulsory"):
        s.parse_move("e3-e4")


def example_4a():
    s = DABLOT.parse_fen("B:BKf1,a1:WKf13,Pa7,a3")
    assert moves_of(s) == ["a1xa5"]
    child = s.copy()
    child.play(s.parse_move("a1xa5"))
    assert child.outcome() is None and "Pa7" in child.fen()   # the chain stopped before the Prince


def example_4b():
    s = DABLOT.parse_fen("B:BKe3,a1:WKe5,a13,b13,c13")
    moves = s.legal_moves()
    assert len(moves) == 11 and sum(s.is_capture(m) for m in moves) == 1
    assert "e3xe7" in moves_of(s)
    s.play(s.parse_move("e3xe7"))
    assert (s.opp | s.own) & s.kings == s.opp & s.kings      # White (to move) has no King
    assert s.own.bit_count() == 3                             # ... though it has three men
    assert s.outcome() == 1.0 and s.legal_moves() == []       # Black wins at once


EXAMPLES = {"1-opening": example_1, "2-rank-restriction": example_2, "3-man-forces-capture": example_3,
            "4a-chain-stops-at-prince": example_4a, "4b-king-captured": example_4b}


@pytest.mark.parametrize("name", EXAMPLES)
def test_worked_example(name):
    EXAMPLES[name]()


# --- board, start, lines --------------------------------------------------------------------------
def test_lattice_points_and_lines():
    lat = DablotLattice()
    assert lat.points.bit_count() == 72 and lat.corners.bit_count() == 42 and lat.centres.bit_count() == 30
    names = set(lat.name_of.values())
    assert {"a1", "f13", "a2", "e12"} <= names and "f2" not in names and "a14" not in names
    i = lat.parse_point

    def neighbours(name):
        out = set()
        for d, src in lat.dirs:
            if src >> i(name) & 1:
                out.add(lat.name_of[i(name) + d])
        return out

    # §1: NE of a1 is a2, NE of a2 is b3, N of a1 is a3, E of a1 is b1; centres link only to corners
    assert neighbours("a1") == {"a2", "a3", "b1"}
    assert neighbours("a2") == {"a1", "b1", "a3", "b3"}
    assert neighbours("c5") == {"b4", "c4", "b6", "c6", "b5", "d5", "c3", "c7"}
    assert neighbours("f13") == {"e12", "e13", "f11"}
    # the diagonal a1-a2-b3-b4-c5 runs straight on: a jump from a1 over a2 lands on b3
    jumps = {(lat.name_of[m.bit_length() - 1], lat.name_of[li]) for m, _, li in lat.jumps[i("a1")]}
    assert jumps == {("a2", "b3"), ("a3", "a5"), ("b1", "c1")}
    assert {lat.name_of[li] for _, _, li in lat.jumps[i("c6")]} == {"b4", "b8", "d4", "d8"}


def test_start_position():
    s = DABLOT.new_state()
    black, white = s.own, s.opp
    assert black.bit_count() == white.bit_count() == 30
    assert s.fen().startswith("B:BKf7,Pe6,a1,")
    assert ":WKa7,Pa8,a9," in s.fen()
    empty = DABLOT.points & ~(black | white)
    assert {DABLOT.name_of[i] for i in indices(empty)} == set("b7 c7 d7 e7 a6 b6 c6 d6 b8 c8 d8 e8".split())
    assert s.outcome() is None and s.evaluate() == 0.5


def test_perft_matches_generic_walk():
    s = DABLOT.new_state()
    assert [DABLOT.perft(s, d) for d in (1, 2, 3)] == [15, 169, 2345]
    assert Game.perft(DABLOT, s, 3) == 2345
    s = DABLOT.parse_fen("B:BKe3,a1,c5,c7:WKe5,a13,b13,c13,c6,b6")
    assert DABLOT.perft(s, 3) == Game.perft(DABLOT, s, 3)


# --- capture rules in detail ---------------------------------------------------------------------------
def test_chain_must_continue_and_direction_may_change():
    # man a1 takes a3, then from a5 it can go on over b5 (east) to c5: the chain a1xa5xc5 is forced
    s = DABLOT.parse_fen("B:BKf1,a1:WKf13,a3,b5")
    assert moves_of(s) == ["a1xa5xc5"]
    s.play(s.parse_move("a1xc5"))        # the short form names the only capture from a1 to c5
    assert "a3" not in s.fen() and "b5" not in s.fen()


def test_optional_chain_lets_a_player_stop():
    game = get_game("dablot", chain="optional")
    s = game.parse_fen("B:BKf1,a1:WKf13,a3,b5")
    assert moves_of(s) == ["a1xa5", "a1xa5xc5"]


def test_king_takes_prince_then_continues():
    s = DABLOT.parse_fen("B:BKa1,b3:WKf13,Pa3,a6,e9")
    # only the King can capture (over the Prince, then over the man a6 on the diagonal a5-a6-b7)
    assert [m for m in moves_of(s) if "x" in m] == ["a1xa5xb7"]
    assert len(s.legal_moves()) > 1                  # capture optional: only the King captures


def test_prince_takes_prince_not_king():
    # the Prince a1 may jump the Prince a2 (to b3) but not the King a3 (to a5)
    s = DABLOT.parse_fen("B:BKf1,Pa1,b1:WKa3,Pa2,f13,a13")
    assert [m for m in moves_of(s) if "x" in m] == ["a1xb3"]
    assert len(s.legal_moves()) == 7                  # optional: no man can capture


def test_compulsory_never():
    game = get_game("dablot", compulsory="never")
    s = game.parse_fen("B:BKe3,b3:WKa13,b5,e5")
    assert "b3-a3" in moves_of(s) and {"b3xb7", "e3xe7"} <= set(moves_of(s))


# A chain may end on the point it started from (dablot.md §4: any direction, captured pieces
# leave at once, the mover's own point is empty behind it): the piece stays on that point.
# c7 over d7 to e7, over d8 to d9, over c8 back to c7, or the other way round; the White
# King on d5 (no man may jump it) stops d9 from going on over d7.
CLOSED_ROUTES = ["c7xd9xe7xc7", "c7xe7xd9xc7"]


def test_a_closed_chain_leaves_the_man_on_its_point():
    s = DABLOT.parse_fen("B:BKa1,c7:WKd5,f13,d7,c8,d8")
    assert moves_of(s) == CLOSED_ROUTES                # a man can capture: capturing is compulsory
    for text in CLOSED_ROUTES:
        child = s.copy()
        move = child.parse_move(text)
        child.play(move)
        assert child.fen().startswith("W:BKa1,c7:WKd5,f13") and child.outcome() is None
        raw = DABLOT._child((s.own, s.opp, s.kings, s.princes), move)
        assert raw == (child.own, child.opp, child.kings, child.princes)
    for seed in range(4):                              # the fast playout path plays the same move
        child = s.copy()
        assert child.playout(random.Random(seed), max_plies=1) is None
        assert child.fen().startswith("W:BKa1,c7:WKd5,f13")


def test_a_closed_chain_keeps_the_king():
    s = DABLOT.parse_fen("B:BKc7,a1:WKd5,f13,d7,c8,d8")
    assert set(CLOSED_ROUTES) <= set(moves_of(s))
    for text in CLOSED_ROUTES:
        child = s.copy()
        child.play(child.parse_move(text))
        assert child.fen().startswith("W:BKc7,a1:WKd5,f13") and child.outcome() is None
    s = DABLOT.parse_fen("B:BKc7,a1:WKd5,d7,c8,d8")           # White is left with its King alone
    move = s.parse_move(CLOSED_ROUTES[0])
    assert s.heuristic(move) == 100.0
    s.play(move)
    assert s.fen().startswith("W:BKc7,a1:WKd5") and s.outcome() == 1.0


def test_one_piece_left_loses():
    s = DABLOT.parse_fen("B:BKe3,a1:WKe5,c13")
    s.play(s.parse_move("e3xe7"))
    assert s.outcome() == 1.0
    s = DABLOT.parse_fen("W:BKe1:WKe5,c13")       # Black (not to move) is down to one piece
    assert s.outcome() == 0.0 and s.legal_moves() == []


def test_no_move_loses():
    # the White King a13 and man b13 are boxed in: every landing point beyond a Black man is taken
    s = DABLOT.parse_fen("W:BKf1,a11,a12,b12,c13,b11,a9,d13,b9,c11:WKa13,b13")
    assert s.legal_moves() == [] and s.outcome() == 1.0


def test_ludii_win_rules():
    game = get_game("dablot", win="ludii")
    s = game.parse_fen("B:BKe3,a1:WKe5,a13")
    s.play(s.parse_move("e3xe7"))
    assert s.outcome() is None                    # a King lost is not the end under Ludii
    s = game.parse_fen("B:BKe3:WKe5")
    assert s.legal_moves() == [] and s.outcome() == 0.5     # the two Kings alone: draw
    s = game.parse_fen("B:BKe3,a1:We4")
    s.play(s.parse_move("e3xf5"))
    assert s.outcome() == 1.0                     # White has no piece left


def test_draw_counters():
    s = DABLOT.parse_fen("B:BKa1,a3:WKf13,f11:H49")
    assert s.outcome() is None
    s.play(s.parse_move("a3-a5"))
    assert s.outcome() == 0.5 and s.legal_moves() == [] and s.fen().endswith(":H50:N1")
    s = DABLOT.parse_fen("B:BKa1,a3:WKf13,f11:N399")
    s.play(s.legal_moves()[0])
    assert s.outcome() == 0.5
    game = get_game("dablot", no_capture_plies=0, max_plies="0")
    s = game.parse_fen("B:BKa1,a3:WKf13,f11:H5000:N5000")
    assert s.outcome() is None


def test_first_white_option():
    game = get_game("dablot", **parse_rule_options("first=W"))
    s = game.new_state()
    assert game.colours == ("W", "B") and s.fen().startswith("W:")
    assert moves_of(s) == sorted("a7-a6 a7-b7 a8-b7 b9-b7 b9-b8 c9-b8 c9-c7 c9-c8 d9-c8 d9-d7 d9-d8 "
                                 "e9-d8 e9-e7 e9-e8 f9-e8".split())
    assert game.options["first"] == "W"


def test_options_listed():
    assert DABLOT.options == {"compulsory": "dagaz", "chain": "compulsory", "win": "dagaz", "first": "B",
                              "no_capture_plies": 50, "max_plies": 400}


# --- bad input -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{"nope": 1}, {"compulsory": "always"}, {"chain": "maybe"},
                                     {"win": "x"}, {"first": "red"}, {"max_plies": "-1"},
                                     {"no_capture_plies": "ten"}])
def test_bad_options(options):
    with pytest.raises(BadOption, match=list(options)[0]):
        get_game("dablot", **options)


@pytest.mark.parametrize("fen", ["", "X:Ba1", "B:Ba1,a1:WKf13", "B:Bf2:WKa1", "B:BKa1,Kb1:WKf13",
                                 "B:BPa1,Pb1:WKf13", "B:Ba1:Wa1", "B:Ba1:Z", "B:Ba1:Ba3",
                                 "B:BKa1:WKf13:Hx", "B:Bz9"])
def test_bad_fen(fen):
    with pytest.raises(BadPosition):
        DABLOT.parse_fen(fen)


@pytest.mark.parametrize("text", ["", "a5", "a5-a9", "a5xa7", "z1-a2", "a5-a6-a7", "f7xe8", "a5--a6", "e6"])
def test_bad_moves(text):
    with pytest.raises(IllegalMove):
        DABLOT.new_state().parse_move(text)


def test_paths_identify_moves_and_short_forms():
    # the King c5 takes c6, d5, c4 round a triangle either way back to c5: two moves (§8: a
    # move is its full path); the short form c5xc5 names both, c5xe5 only one
    s = DABLOT.parse_fen("B:BKc5,a1:WKf13,c6,d5,c4")
    assert [m for m in moves_of(s) if "x" in m] == ["c5xd3xd7xc5", "c5xd7xd3xc5", "c5xe5"]
    with pytest.raises(AmbiguousMove) as err:
        s.parse_move("c5xc5")
    assert sorted(err.value.candidates) == ["c5xd3xd7xc5", "c5xd7xd3xc5"]
    assert s.move_str(s.parse_move("c5xe5")) == "c5xe5"
    with pytest.raises(IllegalMove):
        s.parse_move("c5xd3xc5")


# --- a slow reference generator (coordinates, from the rules text) -------------------------------------
def _points() -> set:
    """(x, y) in half-cell units: grid points have both even, centres both odd."""
    return {(x, y) for x in range(11) for y in range(13) if x % 2 == y % 2}


POINTS = _points()


def _name(p) -> str:
    return f"{chr(97 + p[0] // 2)}{p[1] + 1}"


def _lines(p) -> list:
    """The directions of the lines through ``p`` (dablot.md §1)."""
    diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    return diag + ([(2, 0), (-2, 0), (0, 2), (0, -2)] if p[0] % 2 == 0 else [])


def reference_moves(game, fen: str) -> set[str]:
    """Legal moves by dablot.md §3-6 (and the rule options) on a dict board, one point at a time."""
    side, *fields = fen.split(":")
    board = {}
    for f in fields:
        if f[0] not in "BW":
            continue
        for item in filter(None, f[1:].split(",")):
            rank = {"K": 2, "P": 1}.get(item[0], 0)
            sq = item[1:] if rank else item
            board[((ord(sq[0]) - 97) * 2 + (1 if int(sq[1:]) % 2 == 0 else 0), int(sq[1:]) - 1)] = (f[0], rank)
    opts = game.options
    me, them = side, "W" if side == "B" else "B"
    mine = {p: r for p, (c, r) in board.items() if c == me}
    theirs = {p: r for p, (c, r) in board.items() if c == them}
    if opts["win"] == "dagaz":
        for pieces in (mine, theirs):
            if 2 not in pieces.values() or len(pieces) <= 1:
                return set()
    elif not mine or not theirs or (len(mine) == len(theirs) == 1 and 2 in mine.values() and 2 in theirs.values()):
        return set()
    caps, man_can = set(), False
    for p, rank in mine.items():
        def walk(at, taken, path):
            more = False
            for dx, dy in _lines(at):
                mid, land = (at[0] + dx, at[1] + dy), (at[0] + 2 * dx, at[1] + 2 * dy)
                if mid in taken or land not in POINTS or mid not in theirs or theirs[mid] > rank:
                    continue
                if land in board and land != p and land not in taken:
                    continue
                more = True
                walk(land, taken | {mid}, path + [land])
            if len(path) > 1 and (opts["chain"] == "optional" or not more):
                caps.add("x".join(_name(q) for q in path))
        before = len(caps)
        walk(p, frozenset(), [p])
        man_can |= rank == 0 and len(caps) > before
    if man_can and opts["compulsory"] == "dagaz":
        return caps
    steps = {f"{_name(p)}-{_name((p[0] + dx, p[1] + dy))}" for p in mine for dx, dy in _lines(p)
             if (p[0] + dx, p[1] + dy) in POINTS and (p[0] + dx, p[1] + dy) not in board}
    return caps | steps


# --- properties over seeded random games -----------------------------------------------------------------
GAMES = [("default", {}), ("ludii", {"compulsory": "never", "chain": "optional", "win": "ludii"}),
         ("white-first", {"first": "W", "no_capture_plies": 20})]


def check_state(game, state, rng, full: bool) -> None:
    legal = state.legal_moves()
    fen = state.fen()
    assert set(check_fen_round_trip(game, state).legal_moves()) == set(legal)
    assert len(set(legal)) == len(legal)
    outcome = state.outcome()
    assert (outcome is None) == bool(legal), fen
    if outcome is not None:
        assert outcome in (0.0, 0.5, 1.0)
    assert 0.0 <= state.evaluate() <= 1.0
    check_random_move(state, legal, rng)
    if full:
        texts = check_moves_read_back(state, legal)
        if outcome != 0.5:
            assert set(texts) == reference_moves(game, fen), fen
        for m, text in zip(legal, texts):
            assert state.is_capture(m) == ("x" in text)
    if legal:
        check_copy_is_independent(state, legal[-1])


@pytest.mark.parametrize("label,options", GAMES, ids=[g[0] for g in GAMES])
def test_random_game_properties(label, options):
    game = get_game("dablot", **options)
    rng = random.Random(99)
    for seed in range(12):
        states = random_game(game, seed)
        for k, s in enumerate(states):
            check_state(game, s, rng, full=k % 2 == 0)
        last = states[-1]
        assert last.outcome() is not None


def test_random_games_end_by_the_rules():
    """Every random game ends: won (King taken / one piece / no move) or drawn by the counters."""
    outcomes = {0.0: 0, 0.5: 0, 1.0: 0}
    for seed in range(30):
        s = DABLOT.new_state()
        result = s.playout(random.Random(seed))
        assert result == s.outcome() is not None
        assert s.ply <= 400
        outcomes[result] += 1
    assert outcomes[0.0] and outcomes[1.0] and outcomes[0.5]


def test_playout_equals_random_move_loop():
    for seed in range(8):
        for game in (DABLOT, get_game("dablot", compulsory="never", chain="optional")):
            check_playout_matches_loop(game.new_state(), seed)
    check_playout_cut_off(DABLOT.new_state(), 3)


def test_random_move_uniform():
    s = DABLOT.parse_fen("B:BKe3,a1:WKe5,a13,b13,c13")        # 10 steps + an optional King capture
    assert len(check_random_move_uniform(s, 11 * 1000, 4, p_min=1e-3)) == 11


def test_heuristic_and_capture():
    s = DABLOT.parse_fen("B:BKe3,a1:WKe5,a13,b13,c13")
    win = s.parse_move("e3xe7")
    assert s.is_capture(win) and s.heuristic(win) == 100.0
    s = DABLOT.parse_fen("B:BKa1,Pe5,c5:WKf13,Pc7,e7,a13")
    assert s.heuristic(s.parse_move("e5xe9")) == 1.0 and s.heuristic(s.parse_move("c5-c6")) == 0.0
    assert "k" in DABLOT.new_state().board_text() and "Black (first player) to move" in DABLOT.new_state().board_text()
