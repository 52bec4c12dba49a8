"""Life (../shared/rules/life.md): the worked examples E1-E10, the bit-parallel tick
against a slow per-cell reference, properties over seeded random games, bad input."""
from __future__ import annotations

import random

import pytest
from support import (check_fen_round_trip, check_playout_cut_off, check_playout_matches_loop, check_random_move,
                      check_random_move_uniform, random_game)

from mcts_engine.native import StopSignal
from mcts_engine.rules import get_game, parse_rule_options
from mcts_engine.rules.base import BadOption, BadPosition, Game, IllegalMove
from mcts_engine.rules.geometry import indices
from mcts_engine.rules.life import EVAL_SCALE

LIFE = get_game("life")


def pos(black: str = "", white: str = "", side: str = "B", game=LIFE):
    """A state from space-separated cell lists."""
    return game.parse_fen(f"{side}:B{','.join(black.split())}:W{','.join(white.split())}")


def stones(state) -> tuple[set, set]:
    names = state.game.name_of
    return {names[i] for i in indices(state.black)}, {names[i] for i in indices(state.white)}


def after(state, move: str):
    """The state after dropping on ``move``.  The examples set up boards where the mover
    may have no stones (a finished game by §4), so this checks only the drop rule."""
    index = state.game.grid.parse_algebraic(move.lstrip("@"))
    assert state.game.drops(state.black, state.white) >> index & 1, move
    if state.outcome() is None:
        assert state.parse_move(move) == index
    child = state.copy()
    child.play(index)
    return child


# --- the slow reference tick (plain loops over cells) -------------------------------------
def reference_tick(size: int, board: dict) -> dict:
    """``board`` maps (row, col) -> 'B' | 'W'; one synchronous generation by life.md §3."""
    out = {}
    for r in range(size):
        for c in range(size):
            b = w = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= r + dr < size and 0 <= c + dc < size:
                        v = board.get((r + dr, c + dc))
                        b += v == "B"
                        w += v == "W"
            n, here = b + w, board.get((r, c))
            if here is None:
                if n == 3:
                    out[(r, c)] = "B" if b >= 2 else "W"
            elif n in (2, 3):
                out[(r, c)] = "W" if w > b else "B" if b > w else here
    return out


def to_masks(game, board: dict) -> tuple[int, int]:
    g = game.grid
    black = sum(g.mask(r, c) for (r, c), v in board.items() if v == "B")
    white = sum(g.mask(r, c) for (r, c), v in board.items() if v == "W")
    return black, white


def random_board(rng: random.Random, size: int) -> dict:
    density = rng.choice((0.05, 0.15, 0.3, 0.5, 0.8))
    border_only = rng.random() < 0.2
    board = {}
    for r in range(size):
        for c in range(size):
            if border_only and 0 < r < size - 1 and 0 < c < size - 1:
                continue
            if rng.random() < density:
                board[(r, c)] = rng.choice("BW")
    return board


@pytest.mark.parametrize("size", [7, 8, 13, 19, 26])
def test_tick_matches_reference(size):
    game = get_game("life", size=size, opening="empty")
    rng = random.Random(size)
    for _ in range(1500 if size <= 13 else 500):
        board = random_board(rng, size)
        black, white = to_masks(game, board)
        assert game.tick(black, white) == to_masks(game, reference_tick(size, board)), board


def test_drops_match_reference():
    rng = random.Random(5)
    for size in (7, 19):
        game = get_game("life", size=size, opening="empty")
        for _ in range(300):
            board = random_board(rng, size)
            black, white = to_masks(game, board)
            want = {game.grid.index(r, c) for r in range(size) for c in range(size)
                    if (r, c) not in board and any((r + dr, c + dc) in board
                                                   for dr in (-1, 0, 1) for dc in (-1, 0, 1))}
            assert set(indices(game.drops(black, white))) == want


# --- the worked examples ----------------------------------------------------------------------
def test_opening():
    s = LIFE.new_state()
    b, w = stones(s)
    assert b == set("d3 c5 e5 i10 k10 o4 p4 q4 o15 p17 q15".split())
    assert w == set("c4 e4 d6 d15 d16 d17 j9 j11 p14 o16 q16".split())
    assert s.to_move == 0 and s.outcome() is None


def test_e1_birth_tie_isolation_elimination():
    s = after(pos("d4", "f4"), "@e4")
    assert stones(s) == ({"e3", "e4", "e5"}, set())
    assert s.to_move == 1 and s.outcome() == 1.0 and s.legal_moves() == []
    s = after(pos("d4", "f4", side="W"), "@e4")
    assert stones(s) == (set(), {"e3", "e4", "e5"})
    assert s.outcome() == 0.0


def test_e2_own_stone_recoloured_delayed_loss():
    s = after(pos("", "d4 f4"), "@e4")
    assert stones(s) == (set(), {"e3", "e4", "e5"})
    assert s.outcome() is None
    moves = s.legal_moves()
    assert len(moves) == 12
    for m in moves:
        child = s.copy()
        child.play(m)
        assert child.white and child.outcome() == 0.0


def test_e3_recolour_enemy_stone():
    s = after(pos("d5 e5", "d4"), "@e4")
    assert stones(s) == ({"d4", "d5", "e4", "e5"}, set())
    assert s.outcome() == 1.0


def test_e4_dropped_stone_recoloured():
    s = after(pos("d4 d5 e5", "", side="W"), "@e4")
    assert stones(s) == ({"d4", "d5", "e4", "e5"}, set())
    assert s.to_move == 0 and s.outcome() is None
    assert len(s.legal_moves()) == 12
    for m in s.legal_moves():
        child = s.copy()
        child.play(m)
        assert child.black and child.outcome() == 1.0


def test_e5_dropped_stone_dies_but_blocks_birth():
    start = pos("", "i10 i11 j10")
    s = after(start, "@k11")
    assert stones(s) == (set(), {"i10", "i11", "j10"})
    assert s.outcome() is None
    assert LIFE.tick(start.black, start.white) == pos("", "i10 i11 j10 j11").key()[1:]


def test_e6_mutual_isolation_and_delayed_loss():
    s = after(pos("", "a1 b1 a2 b2 j10"), "@k11")
    assert stones(s) == (set(), {"a1", "b1", "a2", "b2"})
    assert s.outcome() is None
    assert len(s.legal_moves()) == 5
    for m in s.legal_moves():
        child = s.copy()
        child.play(m)
        assert child.white and child.outcome() == 0.0
    s = after(pos("", "j10"), "@k11")
    assert stones(s) == (set(), set())
    assert s.to_move == 1 and s.outcome() == 0.0   # W to move on an empty board wins
    assert s.legal_moves() == [] and s.random_move(random.Random(1)) is None


def test_e7_edge_no_wrap():
    s = after(pos("a1", "c1"), "@b1")
    assert stones(s) == ({"b1", "b2"}, set())
    assert s.outcome() == 1.0
    assert stones(after(pos("a5", "c5"), "@b5")) == ({"b4", "b5", "b6"}, set())
    assert stones(after(pos("a1", "c1", side="W"), "@b1")) == (set(), {"b1", "b2"})


def test_e8_legality():
    s = pos("a1")
    assert sorted(s.move_str(m) for m in s.legal_moves()) == ["@a2", "@b1", "@b2"]
    empty = pos()
    assert empty.legal_moves() == [] and LIFE.drops(0, 0) == 0
    assert len(LIFE.new_state().legal_moves()) == 81


E9_B = "c4 e4 d6 i9 j9 k9 i11 j11 k11 p3 p4 p5 p14 o16 q16"
E9_W = "d3 c5 e5 c16 d16 e16 i10 k10 o15 p17 q15"


def test_e9_first_move_from_opening():
    s = after(LIFE.new_state(), "@j10")
    assert stones(s) == (set(E9_B.split()), set(E9_W.split()))
    assert s.to_move == 1 and s.outcome() is None


def test_e10_setup_has_period_two():
    start = LIFE.new_state()
    once = LIFE.tick(start.black, start.white)
    # the E9 board with the centre W i10 k10, B j9 j11 (no births, no drop)
    want = pos(" ".join(set(E9_B.split()) - {"i9", "k9", "i11", "k11"}), E9_W)
    assert once == (want.black, want.white)
    assert LIFE.tick(*once) == (start.black, start.white)


@pytest.mark.parametrize("size", [15, 17, 21, 26])
def test_standard_opening_other_sizes(size):
    game = get_game("life", size=str(size))
    s = game.new_state()
    assert s.black.bit_count() == s.white.bit_count() == 11
    assert game.tick(*game.tick(s.black, s.white)) == (s.black, s.white)
    assert len(s.legal_moves()) == 81


# --- properties over seeded random games ------------------------------------------------------------
GAMES = [("life", {}), ("life", {"size": 9, "opening": "Bd4;e5;f4+e4:Wd5 f5 c3"}), ("life", {"size": 15})]


@pytest.mark.parametrize("name,options", GAMES, ids=["19", "9-custom", "15"])
def test_random_game_properties(name, options):
    game = get_game(name, **options)
    rng = random.Random(5)
    for seed in range(12):
        states = random_game(game, seed, max_plies=5000)
        for k, s in enumerate(states):
            check_fen_round_trip(game, s)
            moves = s.legal_moves()
            check_random_move(s, moves, rng)
            assert (s.outcome() is None) == bool(moves)
            d = s.black.bit_count() - s.white.bit_count()
            assert s.evaluate() == pytest.approx(0.5 + 0.5 * d / (abs(d) + EVAL_SCALE))
            assert 0.0 < s.evaluate() < 1.0
            if k % 7 == 0:
                for m in moves:
                    assert s.parse_move(s.move_str(m)) == m
                    assert s.parse_move(s.move_str(m)[1:].upper()) == m
            if k:   # a colour gone from the board never comes back
                prev = states[k - 1]
                assert prev.black or not s.black
                assert prev.white or not s.white
        assert states[-1].outcome() in (0.0, 1.0, 0.5)


def test_playout_equals_random_move_loop():
    for seed in range(40):
        for game in (LIFE, get_game("life", size=9, opening="Bd4;e5;f4:Wd5;f5")):
            check_playout_matches_loop(game.new_state(), seed)
    check_playout_cut_off(LIFE.new_state(), 5)


def test_random_move_uniform():
    s = LIFE.new_state()
    moves = s.legal_moves()
    check_random_move_uniform(s, 81 * 200, 7, p_min=1e-3)
    # the k-th set bit search, both branches
    x = LIFE.drops(s.black, s.white)
    assert [LIFE.kth_bit(x, k) for k in range(81)] == moves


def test_perft_matches_generic():
    s = LIFE.new_state()
    for depth in (1, 2):
        assert LIFE.perft(s, depth) == Game.perft(LIFE, s, depth)
    assert LIFE.perft(s, 1) == 81
    s = pos("", "a1 b1 a2 b2 j10")
    assert LIFE.perft(s, 3) == Game.perft(LIFE, s, 3)


def test_full_board_is_a_draw():
    game = get_game("life", size=7, opening="empty")
    s = game.parse_fen("B:B" + ",".join(game.name_of[i] for i in indices(game.cells)))
    assert s.legal_moves() == [] and s.outcome() == 0.5


def test_greedy_heuristic_and_capture():
    s = pos("d5 e5", "d4")
    m = s.parse_move("@e4")
    assert s.heuristic(m) == 3.0 and s.is_capture(m)   # E3: balance 2-1 becomes 4-0
    s = pos("d4 d5 e5", "f9", side="W")               # E4 (W keeps a far stone): the drop turns black
    m = s.parse_move("@e4")
    assert s.heuristic(m) == -2.0 and not s.is_capture(m)   # 1-3 becomes 0-4 (f9 dies)


@pytest.mark.parametrize("black,white,expected", [
    ("", "", 0.5),                                   # empty board: balance 0
    ("d5 e5", "d4", 0.5 + 0.5 * 1 / 9),              # balance +1
    ("e3 e4 e5", "", 0.5 + 0.5 * 3 / 11),            # E1's result: +3
    ("a1 b1 c1 d1 e1 f1 g1 h1", "", 0.75),           # a lead of EVAL_SCALE = 8 stones
    ("", "a1 b1 c1 d1 e1 f1 g1 h1", 0.25),
    ("a1 b1 c1 d1 e1 f1 g1 h1 i1 j1 k1 l1 m1 n1 o1 p1 q1 r1 s1 a2 b2 c2 d2 e2", "", 0.5 + 0.5 * 24 / 32),
])
def test_evaluate_squashes_the_stone_balance(black, white, expected):
    assert EVAL_SCALE == 8
    assert pos(black, white).evaluate() == pytest.approx(expected, abs=1e-12)
    assert pos(black, white, side="W").evaluate() == pytest.approx(expected, abs=1e-12)   # no tempo term
    assert LIFE.new_state().evaluate() == 0.5    # the opening: 11 against 11


def test_evaluate_is_strictly_increasing_in_the_balance():
    """Monotone with no float ties over every balance the board allows, so the greedy
    agent ranks moves exactly as the author's Eval (life.md §7) does."""
    cells = [LIFE.name_of[i] for i in indices(LIFE.cells)]
    values = [pos(" ".join(cells[:d]) if d > 0 else "", " ".join(cells[:-d]) if d < 0 else "").evaluate()
              for d in range(-361, 362, 19)]
    assert all(a < b for a, b in zip(values, values[1:])) and 0.0 < values[0] and values[-1] < 1.0


def test_greedy_agent_plays_the_articles_eval():
    """``Agent greedy`` picks among the moves of the best one-ply balance gain (heuristic),
    over positions of seeded random games."""
    from mcts_engine.agents import make_agent
    from mcts_engine.mcts.limits import Limits
    from mcts_engine.mcts.settings import Settings
    greedy = make_agent(LIFE, Settings(agent="greedy", seed=3))
    for seed in range(3):
        for s in random_game(LIFE, seed, max_plies=5000)[:60:6]:
            moves = s.legal_moves()
            if not moves:
                continue
            best_gain = max(s.heuristic(m) for m in moves)
            best = {m for m in moves if s.heuristic(m) == best_gain}
            ends = {m for m in moves if after(s, s.move_str(m)).outcome() is not None}
            chosen = greedy.search(s, Limits(), StopSignal()).move
            assert chosen in best or chosen in ends


# --- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("fen", ["", "X:Ba1", "B:Ba1:Wa1", "B:Bz1", "B:Ba20", "B:Ba1:Ba2", "B:Qa1",
                                 "B:Ba1,,zz", "1:Ba1"])
def test_bad_fen(fen):
    with pytest.raises(BadPosition) as err:
        LIFE.parse_fen(fen)
    assert repr(fen) in str(err.value)


@pytest.mark.parametrize("move", ["@d3", "@a1", "@t1", "@a0", "k", "", "@", "e4-e5", "@k10x"])
def test_illegal_move(move):
    with pytest.raises(IllegalMove) as err:
        LIFE.new_state().parse_move(move)
    assert repr(move) in str(err.value)


def test_no_move_when_over():
    s = pos("e3 e4 e5", "", side="W")
    with pytest.raises(IllegalMove, match="over"):
        s.parse_move("@e6")


@pytest.mark.parametrize("options,word", [({"size": "abc"}, "size"), ({"size": 5}, "size"), ({"size": 27}, "size"),
                                          ({"colour": "B"}, "colour"), ({"opening": "nonsense"}, "opening"),
                                          ({"opening": "Bz9"}, "opening"),
                                          ({"size": 9}, "opening")])
def test_bad_option(options, word):
    with pytest.raises(BadOption) as err:
        get_game("life", **options)
    assert word in str(err.value)


def test_options_from_rules_string():
    game = get_game("life", **parse_rule_options("size=13,opening=empty"))
    assert game.size == 13 and game.new_state().fen() == "B:B:W"
    game = get_game("life", **parse_rule_options("opening=Bd4;e5:Wd5 f5"))
    assert stones(game.new_state()) == ({"d4", "e5"}, {"d5", "f5"})
    assert game.options == {"size": 19, "opening": "Bd4;e5:Wd5 f5"}


def test_random_play_statistics_match_the_rules_file():
    """life.md §7: random vs random from the opening, B wins about 54 %, 0 draws,
    games of 87 plies on average (median 71).  Seeded, so the figures are fixed."""
    rng = random.Random(2)
    wins = draws = 0
    plies = []
    for _ in range(2000):
        s = LIFE.new_state()
        outcome = s.playout(rng)
        wins += outcome == 1.0
        draws += outcome == 0.5
        plies.append(s.ply)
    plies.sort()
    assert draws == 0
    assert 0.51 < wins / 2000 < 0.57
    assert 82 < sum(plies) / 2000 < 92 and 66 <= plies[1000] <= 76
