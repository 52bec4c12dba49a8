"""The Life drop game's native rules (``native/src/life.c``) against its Python rules, the
reference (rules/life.py): the generation step on random boards of every size, the worked
examples of the rules text (../shared/rules/life.md §6) and perft from the start on the native
core, seeded random positions of several rule options through the C game interface, the fast
paths (random moves, playouts) drawing as the Python loops do, a seeded search that plays as
the Python-rules search does, bad input, and the switch back to the Python rules.  The
sanitizer build (tests/native/test_native_draughts.py) runs this file too.
"""
from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys

import pytest

from mcts_engine import native
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.settings import Settings
from mcts_engine.mcts.uct import UctAgent
from mcts_engine.rules import get_game, life
from mcts_engine.rules.geometry import indices

if not native.available():
    pytest.skip(f"no native kernel: {native.status()}", allow_module_level=True)

LIFE = get_game("life")
REF = get_game("life", native=False)
RULES = LIFE.kernel
# perft from the start (81 first moves: life.md §2); the reference agrees to depth 4
PERFT = {1: 81, 2: 6665, 3: 575757, 4: 52348077}
OPTIONS = [{}, {"size": 9, "opening": "Bd4;e5;f4+e4:Wd5 f5 c3"}, {"size": 15}, {"size": 26},
           {"size": 7, "opening": "Ba1,b2,c3,d4,e5:Wg7,f6,e4,d5"}, {"size": 20, "opening": "Bj10,k10,j11:Wk11,l12,j9"}]
IDS = ["19", "9-custom", "15", "26", "7-diagonal", "20-centre"]


def position(black: str = "", white: str = "", side: str = "B", game=REF):
    """A reference state from space-separated cell lists (FENs stay Python)."""
    return game.parse_fen(f"{side}:B{','.join(black.split())}:W{','.join(white.split())}")


def native_play(state, cell: str):
    """The state after the native rules drop on ``cell`` (no legality test: the examples drop
    for a side that may have no stones)."""
    child = state.copy()
    child.set_raw(RULES.game_play(state.raw(), state.game.grid.parse_algebraic(cell)))
    return child


def stones(state) -> tuple[set, set]:
    names = state.game.name_of
    return {names[i] for i in indices(state.black)}, {names[i] for i in indices(state.white)}


def outcome(state):
    return RULES.game_outcome(state.raw())


def legal(state) -> list[str]:
    return sorted(state.move_str(m) for m in RULES.game_legal(state.raw()))


def random_board(rng: random.Random, game) -> tuple[int, int]:
    """Random (black, white) masks on ``game``'s board at a random density."""
    density = rng.choice((0.05, 0.2, 0.4, 0.7, 0.95))
    black = white = 0
    for i in indices(game.cells):
        if rng.random() < density:
            if rng.random() < 0.5:
                black |= 1 << i
            else:
                white |= 1 << i
    return black, white


# --- the generation step -------------------------------------------------------------------------
@pytest.mark.parametrize("size", [7, 8, 13, 19, 20, 25, 26])
def test_the_tick_matches_the_python_tick_on_random_boards(size):
    game = get_game("life", size=size, opening="empty")
    reference = get_game("life", size=size, opening="empty", native=False)
    rng = random.Random(size)
    for _ in range(400):
        black, white = random_board(rng, game)
        assert game.kernel.tick(black, white) == reference.tick(black, white), (size, black, white)


def test_the_setup_has_period_two_on_the_native_tick():
    """life.md E10: two ticks of the opening give it back; one gives the E9 board's clusters."""
    start = LIFE.new_state()
    once = RULES.tick(start.black, start.white)
    assert once == REF.tick(start.black, start.white) != (start.black, start.white)
    assert RULES.tick(*once) == (start.black, start.white)


# --- the worked examples (life.md §6) on the native core ------------------------------------------------
def test_e1_birth_tie_isolation_elimination():
    s = native_play(position("d4", "f4"), "e4")
    assert stones(s) == ({"e3", "e4", "e5"}, set()) and s.turn == 1
    assert outcome(s) == 1.0 and legal(s) == []
    s = native_play(position("d4", "f4", side="W"), "e4")
    assert stones(s) == (set(), {"e3", "e4", "e5"}) and outcome(s) == 0.0


def test_e2_own_stone_recoloured_and_the_delayed_loss():
    s = native_play(position("", "d4 f4"), "e4")
    assert stones(s) == (set(), {"e3", "e4", "e5"}) and outcome(s) is None
    replies = legal(s)
    assert len(replies) == 12
    for reply in replies:
        after = native_play(s, reply[1:])
        assert after.white and outcome(after) == 0.0


def test_e3_recolour_an_enemy_stone():
    s = native_play(position("d5 e5", "d4"), "e4")
    assert stones(s) == ({"d4", "d5", "e4", "e5"}, set()) and outcome(s) == 1.0


def test_e4_the_dropped_stone_recoloured():
    s = native_play(position("d4 d5 e5", "", side="W"), "e4")
    assert stones(s) == ({"d4", "d5", "e4", "e5"}, set()) and s.turn == 0 and outcome(s) is None
    assert len(legal(s)) == 12
    assert all(outcome(native_play(s, reply[1:])) == 1.0 for reply in legal(s))


def test_e5_the_dropped_stone_dies_but_blocks_a_birth():
    start = position("", "i10 i11 j10")
    s = native_play(start, "k11")
    assert stones(s) == (set(), {"i10", "i11", "j10"}) and outcome(s) is None
    assert RULES.tick(start.black, start.white) == position("", "i10 i11 j10 j11").key()[1:]


def test_e6_mutual_isolation_and_the_empty_board():
    s = native_play(position("", "a1 b1 a2 b2 j10"), "k11")
    assert stones(s) == (set(), {"a1", "b1", "a2", "b2"}) and outcome(s) is None
    assert len(legal(s)) == 5
    assert all(outcome(native_play(s, reply[1:])) == 0.0 for reply in legal(s))
    s = native_play(position("", "j10"), "k11")
    assert stones(s) == (set(), set()) and s.turn == 1
    assert outcome(s) == 0.0 and legal(s) == []            # W to move on an empty board wins
    assert RULES.random_move(s.raw(), random.Random(1)) is None


def test_e7_the_edge_does_not_wrap():
    s = native_play(position("a1", "c1"), "b1")
    assert stones(s) == ({"b1", "b2"}, set()) and outcome(s) == 1.0
    assert stones(native_play(position("a5", "c5"), "b5")) == ({"b4", "b5", "b6"}, set())
    assert stones(native_play(position("a1", "c1", side="W"), "b1")) == (set(), {"b1", "b2"})
    right = native_play(position("s1", "q1"), "r1")                # the other edge: the ghost column
    assert stones(right) == ({"r1", "r2"}, set())


def test_e8_legality_at_a_corner_on_an_empty_board_and_from_the_start():
    assert legal(position("a1")) == ["@a2", "@b1", "@b2"]
    assert legal(position()) == [] and legal(position("", "", "W")) == []
    assert len(RULES.game_legal(LIFE.new_state().raw())) == 81


def test_e9_the_first_move_from_the_opening():
    s = native_play(LIFE.new_state(), "j10")
    assert stones(s) == (set("c4 e4 d6 i9 j9 k9 i11 j11 k11 p3 p4 p5 p14 o16 q16".split()),
                         set("d3 c5 e5 c16 d16 e16 i10 k10 o15 p17 q15".split()))
    assert s.turn == 1 and outcome(s) is None


def test_a_full_board_is_a_draw():
    game = get_game("life", size=7, opening="empty")
    full = game.parse_fen("W:W" + ",".join(game.name_of[i] for i in indices(game.cells)))
    assert game.kernel.game_legal(full.raw()) == [] and game.kernel.game_outcome(full.raw()) == 0.5


# --- perft -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("depth", sorted(PERFT))
def test_perft_from_the_start_on_both_cores(depth):
    assert LIFE.perft(LIFE.new_state(), depth) == PERFT[depth]            # native, last ply counted
    if depth <= 3:
        assert RULES.game_perft(LIFE.new_state().raw(), depth) == PERFT[depth]   # through the interface
        assert REF.perft(REF.new_state(), depth) == PERFT[depth]


@pytest.mark.slow
def test_perft_5_from_the_start():
    assert LIFE.perft(LIFE.new_state(), 5) == 5007689797


# --- seeded random positions through the game interface ------------------------------------------------
def check_position(game, reference, state, rng) -> None:
    """The native rules agree with the reference at ``state`` (a reference state)."""
    rules, raw = game.kernel, state.raw()
    moves = state.legal_moves()
    assert rules.game_legal(raw) == moves, state.fen()
    assert rules.game_outcome(raw) == state.outcome(), state.fen()
    assert rules.game_evaluate(raw) == state.evaluate(), state.fen()
    for move in rng.sample(moves, min(len(moves), 5)):
        after = state.copy()
        after.play(move)
        assert rules.game_play(raw, move) == after.raw(), (state.fen(), move)
        assert rules.game_heuristic(raw, move) == state.heuristic(move)
        assert rules.game_is_capture(raw, move) == state.is_capture(move)


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_random_games_agree_with_the_python_rules(options):
    game, reference = get_game("life", **options), get_game("life", native=False, **options)
    rng = random.Random(len(str(options)))
    checked = 0
    while checked < 200:
        state = reference.new_state()
        while state.outcome() is None and state.ply < 150:
            check_position(game, reference, state, rng)
            if state.ply % 25 == 0:        # the bulk count and the interface's walk
                assert game.kernel.perft(state.raw(), 2) == reference.perft(state, 2) == \
                    game.kernel.game_perft(state.raw(), 2)
            state.play(state.random_move(rng))
            checked += 1
        check_position(game, reference, state, rng)


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_random_boards_agree_with_the_python_rules(options):
    """Positions no game reaches too (dense, sparse, either side to move)."""
    game, reference = get_game("life", **options), get_game("life", native=False, **options)
    rng = random.Random(7)
    for _ in range(40):
        black, white = random_board(rng, game)
        state = reference.new_state()
        state.set_raw((black, white, rng.randrange(2), rng.randrange(100)))
        check_position(game, reference, state, rng)


# --- the fast paths draw as the Python loops do --------------------------------------------------------
@pytest.mark.parametrize("options", OPTIONS[:3], ids=IDS[:3])
def test_playouts_and_random_moves_draw_as_the_python_loops(options):
    game, reference = get_game("life", **options), get_game("life", native=False, **options)
    for seed in range(25):
        fast, slow = game.new_state(), reference.new_state()
        fast_cells, slow_cells = [], []
        assert fast.recorded_playout(random.Random(seed), fast_cells) == \
            slow.recorded_playout(random.Random(seed), slow_cells)
        assert fast.raw() == slow.raw() and fast_cells == slow_cells
        rng_fast, rng_slow = random.Random(seed), random.Random(seed)
        state = reference.new_state()
        for _ in range(30):
            move = state.random_move(rng_slow)
            assert game.kernel.random_move(state.raw(), rng_fast) == move
            if move is None:
                break
            state.play(move)


def test_a_playout_cut_off_stops_there():
    state = LIFE.new_state()
    assert state.playout(random.Random(1), max_plies=5) is None
    assert state.ply == 5 and state.outcome() is None
    big, big_reference = get_game("life", size=26), get_game("life", size=26, native=False)
    for limit in (600, 1000):                       # the recorded loop's chunks (512 plies) joined
        long, reference, cells, ref_cells = big.new_state(), big_reference.new_state(), [], []
        assert long.recorded_playout(random.Random(158), cells, max_plies=limit) == \
            reference.recorded_playout(random.Random(158), ref_cells, max_plies=limit)
        assert cells == ref_cells and long.raw() == reference.raw() and len(cells) > 512


def test_native_playouts_match_the_rules_texts_statistics():
    """life.md §7: random against random from the opening, B wins about 54%, no draws, about
    87 plies a game; here on the native playouts (their own random numbers, seeded)."""
    wins, draws, losses, plies = RULES.playouts(LIFE.new_state().raw(), 4000, 2)
    assert wins + draws + losses == 4000 and draws == 0
    assert 0.51 < wins / 4000 < 0.57 and 82 < plies / 4000 < 92
    assert RULES.playouts(LIFE.new_state().raw(), 50, 9) == RULES.playouts(LIFE.new_state().raw(), 50, 9)


# --- the search --------------------------------------------------------------------------------------
@pytest.mark.parametrize("settings", [dict(playout="greedy-eps", playout_depth=4), dict(playout="mast", playout_depth=8),
                                      dict(prior_weight=1.0, playout="greedy-eps", playout_depth=2, minimax_weight=0.3),
                                      dict(leaf_depth=2, nodes=40)],
                         ids=["greedy-eps", "mast", "priors-minimax", "alpha-beta-leaves"])
def test_a_seeded_search_plays_as_on_the_python_rules(settings):
    """Where the core draws every random number (every playout policy but ``random``, whose
    native playouts draw from the core's generator instead of the Python one), the native
    rules' search is the Python-rules search, to the last statistic."""
    results, settings = [], dict(settings)
    nodes = settings.pop("nodes", 600)
    for game in (LIFE, REF):
        result = UctAgent(game, Settings(seed=7, **settings)).search(game.new_state(), Limits(nodes=nodes),
                                                                    native.StopSignal())
        results.append((result.move, result.info.score, result.info.pv, result.info.nodes))
    assert results[0] == results[1]


def test_the_native_rules_search_with_threads():
    assert LIFE.native and LIFE.search_rules(LIFE.search_parameters()) is RULES
    result = UctAgent(LIFE, Settings(seed=1, threads=2, playout_depth=4)).search(
        LIFE.new_state(), Limits(nodes=4000), native.StopSignal())
    assert result.move in LIFE.new_state().legal_moves()


# --- bad input ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("move,error", [(19, ValueError), (-1, ValueError), (380, ValueError), (1 << 70, ValueError),
                                        ("a1", TypeError), (3.0, TypeError), (None, TypeError)])
def test_a_value_that_is_no_cell_is_refused(move, error):
    with pytest.raises(error):
        RULES.game_play(LIFE.new_state().raw(), move)


@pytest.mark.parametrize("raw,error", [
    ((1, 1, 0, 0), ValueError),                # a cell with both colours
    ((1 << 19, 0, 0, 0), ValueError),          # the ghost column
    ((0, 1 << 380, 0, 0), ValueError),         # above the board
    ((-1, 0, 0, 0), ValueError),
    ((1, 0, 2, 0), ValueError),                # turn
    ((1, 0, 0), TypeError),
    ([1, 0, 0, 0], TypeError),
    (("1", 0, 0, 0), TypeError),
])
def test_a_bad_raw_position_is_refused(raw, error):
    with pytest.raises(error):
        RULES.game_legal(raw)


@pytest.mark.parametrize("args", [(6, 7, 8), (27, 28, 8), (19, 19, 8), (19, 20, 0), (19, 20, "8")])
def test_bad_rules_are_refused(args):
    with pytest.raises((ValueError, TypeError)):
        native.core.LifeRules(*args)


def test_rules_without_their_numbers_refuse_to_work():
    empty = native.core.LifeRules.__new__(native.core.LifeRules)
    raw = LIFE.new_state().raw()
    for call in (lambda: empty.tick(0, 0), lambda: empty.perft(raw, 1), lambda: empty.playouts(raw, 1, 1),
                 lambda: empty.random_move(raw, random.Random(1)), lambda: empty.playout(raw, random.Random(1), 5),
                 lambda: empty.game_legal(raw)):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(TypeError, match="once"):
        RULES.__init__(19, 20, 8)


# --- the Python rules stay the reference and the fallback --------------------------------------------------
def test_the_python_rules_run_without_the_kernel():
    assert REF.kernel is None and not REF.native and REF.search_rules(REF.search_parameters()) is None
    code = "from mcts_engine.rules import get_game; g = get_game('life'); print(g.kernel, g.native)"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, MCTS_ENGINE_NATIVE="0"),
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["None", "False"], out.stderr


def test_a_game_outside_the_registry_pickles_without_its_kernel():
    game = life.make_game(size=11, opening="empty")
    again = pickle.loads(pickle.dumps(game))
    assert again.kernel is not None and again.kernel is not game.kernel and again.native
    assert pickle.loads(pickle.dumps(LIFE)) is LIFE
