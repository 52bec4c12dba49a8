"""Dablot's native rules (``native/src/dablot.c``, ``DablotRules``) against its Python rules, the
reference: the perft table, the worked examples of dablot.md, seeded random games and random
positions (every rule option), the playouts' random draws, the search on them, and bad input.
The sanitizer build (tests/native/test_native_draughts.py) runs this file too."""
from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys

import pytest
from support.native_rules import check_along_games, check_position, check_same_draws

from mcts_engine import native
from mcts_engine.agents import make_agent
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.settings import Settings
from mcts_engine.native import StopSignal
from mcts_engine.rules import get_game
from mcts_engine.rules.base import BadPosition
from mcts_engine.rules.dablot import DablotState, dablot_spec, make_game
from mcts_engine.rules.geometry import indices

if not native.available():
    pytest.skip(f"no native kernel: {native.status()}", allow_module_level=True)

OPTIONS = [{}, {"compulsory": "never"}, {"chain": "optional"}, {"win": "ludii"}, {"first": "W"},
           {"compulsory": "never", "chain": "optional", "win": "ludii", "no_capture_plies": 8, "max_plies": 90}]
IDS = ["default", "never", "optional", "ludii", "white-first", "all-and-short-draws"]


def games(**options):
    """(the native game, the Python reference) with ``options``."""
    game, reference = get_game("dablot", **options), get_game("dablot", native=False, **options)
    assert game.native and game.kernel is not None and not reference.native
    return game, reference


def random_position(reference, rng: random.Random) -> DablotState:
    """A random position: a few pieces a side at random points, a King each (mostly), a Prince
    sometimes, either side to move, the draw counters anywhere up to their limits."""
    points = list(indices(reference.points))
    rng.shuffle(points)
    n_own, n_opp = rng.randint(1, 9), rng.randint(1, 9)
    own, opp = points[:n_own], points[n_own:n_own + n_opp]
    kings = princes = 0
    for side in (own, opp):
        if rng.random() < 0.9:
            kings |= 1 << side[0]
        if len(side) > 1 and rng.random() < 0.6:
            princes |= 1 << side[1]
    state = DablotState(reference, sum(1 << p for p in own), sum(1 << p for p in opp), kings, princes,
                        rng.randint(0, 1))
    state.quiet = rng.randint(0, min(51, reference.no_capture))
    state.ply = rng.randint(0, min(401, reference.max_plies))
    return state


# --- perft (tests/rules/test_dablot.py's table) and the worked examples (dablot.md §10) ---------------

def test_perft_from_the_start():
    game, reference = games()
    start = game.new_state()
    assert [game.perft(start, d) for d in (1, 2, 3)] == [15, 169, 2345]
    assert game.kernel.game_perft(start.raw(), 3) == 2345
    assert game.perft(start, 4) == reference.perft(reference.new_state(), 4)
    s = game.parse_fen("B:BKe3,a1,c5,c7:WKe5,a13,b13,c13,c6,b6")
    assert game.perft(s, 3) == reference.perft(reference.parse_fen(s.fen()), 3)


@pytest.mark.parametrize("fen,count", [
    (None, 15),                                          # Example 1: the opening
    ("B:BKa1,Pe5,c5:WKf13,Pc7,e7", 18),                  # Example 2: rank restriction, optional capture
    ("B:BKe3,b3:WKa13,b5,e5", 2),                        # Example 3: a man's capture forces a capture
    ("B:BKf1,a1:WKf13,Pa7,a3", 1),                       # Example 4a: the chain stops before a Prince
    ("B:BKe3,a1:WKe5,a13,b13,c13", 11),                  # Example 4b: only the King captures
    ("B:BKa1,c7:WKd5,f13,d7,c8,d8", 2),                  # a closed chain (the fix: the man stays)
], ids=["1", "2", "3", "4a", "4b", "closed-chain"])
def test_worked_examples_on_the_native_rules(fen, count):
    game, reference = games()
    state = reference.new_state() if fen is None else reference.parse_fen(fen)
    moves = check_position(game.kernel, state, moves_checked=20)
    assert len(moves) == count


def test_example_4b_capturing_the_king_wins_at_once():
    game, reference = games()
    state = reference.parse_fen("B:BKe3,a1:WKe5,a13,b13,c13")
    after = game.kernel.game_play(state.raw(), state.parse_move("e3xe7"))
    assert game.kernel.game_outcome(after) == 1.0 and game.kernel.game_legal(after) == []


# --- seeded games and random positions, every option -------------------------------------------------

@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_the_native_rules_agree_along_seeded_games(options):
    game, reference = games(**options)
    assert check_along_games(game.kernel, reference, seed=len(str(options)), games=3, plies=250) > 25


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_the_native_rules_agree_on_random_positions(options):
    game, reference = games(**options)
    rng = random.Random(7)
    ended = set()
    for _ in range(150):
        state = random_position(reference, rng)
        check_position(game.kernel, state)
        ended.add(state.outcome())
    assert None in ended and len(ended) > 1


@pytest.mark.parametrize("options", OPTIONS[:4], ids=IDS[:4])
def test_playouts_draw_as_the_python_loop(options):
    game, reference = games(**options)
    rng = random.Random(3)
    for seed in range(12):
        python_state = random_position(reference, rng) if seed % 2 else reference.new_state()
        native_state = game.parse_fen(python_state.fen())
        check_same_draws(native_state, python_state, seed, max_plies=[1, 7, 400][seed % 3])


def test_a_position_without_a_move_draws_once_as_the_python_pick_does():
    """DablotState._pick draws a number before it finds there is no move at all."""
    game, reference = games()
    fen = "W:BKf1,a11,a12,b12,c13,b11,a9,d13,b9,c11:WKa13,b13"
    check_same_draws(game.parse_fen(fen), reference.parse_fen(fen), seed=5, max_plies=10)


def test_a_position_with_more_steps_than_a_byte_compares_draws_as_the_python_loop():
    """129 steps (Ludii's win: thirty pieces against one man): a draw of the last one takes the
    native pick's other path, its comparison of running counts a byte wide holding 127."""
    game, reference = games(win="ludii")
    fen = ("B:BKa1,Pc1,e1,c2,b3,d3,e3,f3,a4,b4,c4,a5,c5,e5,e6,b7,d7,f7,a8,a9,c9,e9,a10,b11,d11,f11,a12,e12,"
           "c13,e13:Wa13")
    python_state = reference.parse_fen(fen)
    assert len(python_state.legal_moves()) == 129
    seeds = [seed for seed in range(2000) if int(random.Random(seed).random() * 129) == 128][:4]
    assert seeds
    for seed in seeds:
        check_same_draws(game.parse_fen(fen), python_state, seed, max_plies=3)
        fast, slow = game.parse_fen(fen), python_state.copy()
        assert fast.playout(random.Random(seed), 1) == slow.playout(random.Random(seed), 1)
        assert fast.raw() == slow.raw()


def test_the_perft_counts_of_random_positions():
    game, reference = games()
    rng = random.Random(11)
    for _ in range(20):
        state = random_position(reference, rng)
        assert game.kernel.perft(state.raw(), 2) == reference.perft(state, 2)


# --- the search on the native rules ----------------------------------------------------------------

@pytest.mark.parametrize("threads", [1, 2])
def test_a_search_on_the_native_rules_plays_a_legal_move(threads):
    game = get_game("dablot")
    agent = make_agent(game, Settings(seed=1, threads=threads))
    try:
        result = agent.search(game.new_state(), Limits(nodes=3000), StopSignal())
    finally:
        agent.close()
    assert result.move in game.new_state().legal_moves() and result.info.nodes >= 3000


def test_a_seeded_search_on_one_thread_repeats_itself():
    game = get_game("dablot")
    runs = []
    for _ in range(2):
        agent = make_agent(game, Settings(seed=4, playout_depth=6))
        try:
            result = agent.search(game.new_state(), Limits(nodes=2000), StopSignal())
        finally:
            agent.close()
        runs.append((result.move, result.info.nodes, result.info.score))
    assert runs[0] == runs[1]


# --- bad input -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("move, words", [
    ("e5-e6", "not a Dablot move"),
    ((1, 1 << 4, 0, ()), "not a Dablot move"),            # a1 to c1: not a step along a line
    ((1 << 500, 1, 0, ()), "not a mask of the Dablot board"),
    ((1, 1 << 1, 0, ()), "not a point"),                  # bit 1 is a ghost of the lattice
    ((1, 1 << 28, 1 << 26, (28,)), "not a Dablot move"),  # a1 over a2 to b3 taking a3: not the jumped point
    ((1, 1 << 28, 1 << 14, (27,)), "not a Dablot move"),  # a landing point off the lattice
])
def test_a_value_that_is_no_move_is_refused(move, words):
    game = get_game("dablot")
    with pytest.raises((ValueError, TypeError), match=words):
        game.kernel.game_play(game.new_state().raw(), move)


def test_bad_raw_positions_are_refused():
    game = get_game("dablot")
    start = game.new_state().raw()
    with pytest.raises(ValueError, match="overlap"):
        game.kernel.game_legal((start[0], start[0]) + start[2:])
    with pytest.raises(ValueError, match="turn"):
        game.kernel.game_legal(start[:4] + (2,) + start[5:])
    with pytest.raises(TypeError, match="raw position"):
        game.kernel.game_legal(start[:6])


def test_bad_specs_are_refused():
    spec = dablot_spec(get_game("dablot", native=False))
    for key, value, words in [("step_order", (0,) * 8, "repeats"), ("max_plies", 0, "max_plies"),
                              ("dirs", spec["dirs"][:7], "8 items"), ("points", (5, 3), "ascending"),
                              ("step_order", (1, 0, 2, 3, 4, 5, 6, 7), "not the scan's"),
                              ("points", spec["points"][:71], "71 points")]:
        with pytest.raises(ValueError, match=words):
            native.core.DablotRules(dict(spec, **{key: value}))


@pytest.mark.parametrize("fen", ["B:BKa1,a3:WKf13,f11:H99999999999999999999",
                                 "B:BKa1,a3:WKf13,f11:N4611686018427387905"])
def test_counters_past_the_native_range_are_a_bad_position(fen):
    with pytest.raises(BadPosition, match="at most"):
        get_game("dablot").parse_fen(fen)


def test_switched_off_dablot_runs_its_python_rules():
    code = "from mcts_engine.rules import get_game; g = get_game('dablot'); print(g.native, g.kernel)"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, MCTS_ENGINE_NATIVE="0"),
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False None", out.stderr


def test_a_game_outside_the_registry_pickles_without_its_native_rules():
    game = make_game(chain="optional")
    copy = pickle.loads(pickle.dumps(game))
    assert copy.native and copy.kernel is not None and copy.kernel is not game.kernel
    state = copy.new_state()
    assert copy.kernel.game_legal(state.raw()) == state.legal_moves()
