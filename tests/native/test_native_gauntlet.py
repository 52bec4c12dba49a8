"""Gauntlet's native rules (``native/src/gauntlet.c``) against its Python rules, the reference
(rules/gauntlet.py): the worked examples of the rules text (../shared/rules/gauntlet.md §10)
and perft from the start (docs/games.md#perft) on the native core, seeded random games and
random placements under every rule option through the C game interface, the fast paths
drawing as the Python loops do, a seeded search that plays as the Python-rules search does,
bad input, and the switch back to the Python rules.  The sanitizer build
(tests/native/test_native_draughts.py) runs this file too.
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
from mcts_engine.rules import gauntlet, get_game
from mcts_engine.rules.geometry import indices

if not native.available():
    pytest.skip(f"no native kernel: {native.status()}", allow_module_level=True)

GAUNTLET = get_game("gauntlet")
REF = get_game("gauntlet", native=False)
RULES = GAUNTLET.kernel
# perft from the start (docs/games.md#perft, each depth checked there against a slow reference)
PERFT = {1: 6, 2: 50, 3: 250, 4: 2228, 5: 11164, 6: 97276, 7: 481196, 8: 4005546, 9: 19419568}
OPTIONS = [{}, {"max_capture": True}, {"compulsory": False}, {"size": "5x4"}, {"size": "10x10", "max_capture": True},
           {"size": "8x7"}, {"size": "9x9", "compulsory": False, "max_capture": True}]
IDS = ["default", "max-capture", "optional", "5x4", "10x10-max", "8x7", "9x9-optional-max"]


def moves(state, game=GAUNTLET) -> list[str]:
    """The native rules' legal moves of a reference state, in notation."""
    return sorted(state.move_str(m) for m in game.kernel.game_legal(state.raw()))


def after(state, text: str, game=GAUNTLET):
    child = state.copy()
    child.set_raw(game.kernel.game_play(state.raw(), state.parse_move(text)))
    return child


# --- the worked examples (gauntlet.md §10) on the native core ---------------------------------------------
def test_example_1_the_opening_and_first_replies():
    s = REF.new_state()
    assert moves(s) == ["b1-b2", "c1-c2", "d1-d2", "e1-e2", "f1-f2", "g1-g2"]
    assert moves(after(s, "b1-b2")) == ["a2xc2"] and moves(after(s, "g1-g2")) == ["h2xf2"]
    inwards = sorted([f"a{r}-b{r}" for r in range(2, 8)] + [f"h{r}-g{r}" for r in range(2, 8)])
    for first in ("c1-c2", "d1-d2", "e1-e2", "f1-f2"):
        assert moves(after(s, first)) == inwards
    assert RULES.game_perft(s.raw(), 2) == 50


def test_example_2_a_straight_multiple_jump_of_any_length():
    s = REF.parse_fen("W:Wd3,b1:Ld4,a7:Rd6")
    assert moves(s) == ["d3xd5", "d3xd5xd7"]
    longest = get_game("gauntlet", max_capture=True)
    assert moves(longest.parse_fen(s.fen()), longest) == ["d3xd5xd7"]


def test_example_3_capture_priority_and_only_real_captures():
    assert moves(REF.parse_fen("W:Wc7,e3:Le4:Rh6")) == ["e3xe5"]        # beats the winning c7-c8
    blocked = REF.parse_fen("W:Wd3,b1:Ld4:Rd5,h7")                      # d5 taken: no capture
    assert moves(blocked) == ["b1-b2"] and RULES.game_outcome(blocked.raw()) is None


def test_example_4_blockers_capture_and_a_win_by_a_jump():
    assert moves(REF.parse_fen("B:Wc4,e2:Lb4:Rh6")) == ["b4xd4"]
    s = after(REF.parse_fen("W:Wc6:Rc7,h2"), "c6xc8")
    assert RULES.game_outcome(s.raw()) == 1.0 and RULES.game_legal(s.raw()) == []
    assert RULES.random_move(s.raw(), random.Random(1)) is None


def test_a_side_without_a_move_loses():
    stuck_white = REF.parse_fen("W:Wd5:Ld6,d7:Rh2")             # the runner is blocked, no capture
    assert RULES.game_legal(stuck_white.raw()) == [] and RULES.game_outcome(stuck_white.raw()) == 0.0
    assert stuck_white.outcome() == 0.0
    no_blockers = REF.parse_fen("B:Wd5")
    assert RULES.game_outcome(no_blockers.raw()) == 1.0


# --- perft -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("depth", sorted(PERFT)[:8])
def test_perft_from_the_start_on_both_cores(depth):
    assert GAUNTLET.perft(GAUNTLET.new_state(), depth) == PERFT[depth]        # native, through the interface
    if depth <= 5:
        assert REF.perft(REF.new_state(), depth) == PERFT[depth]


@pytest.mark.slow
def test_perft_9_from_the_start():
    assert GAUNTLET.perft(GAUNTLET.new_state(), 9) == PERFT[9]


# --- seeded random positions through the game interface ------------------------------------------------
def check_position(game, state, rng) -> None:
    """The native rules agree with the reference at ``state`` (a reference state)."""
    rules, raw = game.kernel, state.raw()
    legal = state.legal_moves()
    assert rules.game_legal(raw) == legal, state.fen()
    assert rules.game_outcome(raw) == state.outcome(), state.fen()
    assert rules.game_evaluate(raw) == state.evaluate(), state.fen()
    for move in rng.sample(legal, min(len(legal), 6)):
        child = state.copy()
        child.play(move)
        assert rules.game_play(raw, move) == child.raw(), (state.fen(), state.move_str(move))
        assert rules.game_heuristic(raw, move) == state.heuristic(move)
        assert rules.game_is_capture(raw, move) == state.is_capture(move)


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_random_games_agree_with_the_python_rules(options):
    game, reference = get_game("gauntlet", **options), get_game("gauntlet", native=False, **options)
    rng = random.Random(len(IDS[OPTIONS.index(options)]))
    for _ in range(30):
        state = reference.new_state()
        while state.outcome() is None:
            check_position(game, state, rng)
            if state.ply % 9 == 0:         # the interface's walk and the bulk count
                assert game.kernel.game_perft(state.raw(), 3) == reference.perft(state, 3) == \
                    game.kernel.perft(state.raw(), 3)
            state.play(state.random_move(rng))
        check_position(game, state, rng)


def random_placement(reference, rng: random.Random):
    """A reference state with pieces placed at random where they may stand (a runner home too)."""
    runners = [i for i in indices(reference.runner_squares) if rng.random() < 0.3]
    blockers = [i for i in indices(reference.blocker_squares) if i not in runners and rng.random() < 0.35]
    left = [i for i in blockers if rng.random() < 0.5]
    state = reference.new_state()
    state.set_raw((sum(1 << i for i in runners), sum(1 << i for i in left),
                   sum(1 << i for i in blockers if i not in left), rng.randrange(2), 0))
    return state


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_random_placements_agree_with_the_python_rules(options):
    game, reference = get_game("gauntlet", **options), get_game("gauntlet", native=False, **options)
    rng = random.Random(11)
    for _ in range(300):
        check_position(game, random_placement(reference, rng), rng)


# --- the fast paths draw as the Python loops do --------------------------------------------------------
@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_playouts_and_random_moves_draw_as_the_python_loops(options):
    game, reference = get_game("gauntlet", **options), get_game("gauntlet", native=False, **options)
    for seed in range(30):
        fast, slow = game.new_state(), reference.new_state()
        assert fast.playout(random.Random(seed)) == slow.playout(random.Random(seed))
        assert fast.raw() == slow.raw()
        state, rng_fast, rng_slow = random_placement(reference, random.Random(seed)), random.Random(seed), \
            random.Random(seed)
        for _ in range(20):
            move = state.random_move(rng_slow)
            assert game.kernel.random_move(state.raw(), rng_fast) == move
            if move is None:
                break
            state.play(move)
    cut = game.new_state()
    assert cut.playout(random.Random(1), max_plies=3) is None and cut.ply == 3


def test_native_playouts_are_seeded_and_end():
    raw = GAUNTLET.new_state().raw()
    wins, draws, losses, plies = RULES.playouts(raw, 2000, 4)
    assert wins + losses == 2000 and draws == 0 and 20 < plies / 2000 < 40
    assert RULES.playouts(raw, 50, 9) == RULES.playouts(raw, 50, 9)


# --- the search --------------------------------------------------------------------------------------
@pytest.mark.parametrize("settings", [dict(playout="greedy-eps", playout_depth=4), dict(playout="mast"),
                                      dict(prior_weight=1.0, playout="greedy-eps", minimax_weight=0.3),
                                      dict(leaf_depth=3)],
                         ids=["greedy-eps", "mast", "priors-minimax", "alpha-beta-leaves"])
def test_a_seeded_search_plays_as_on_the_python_rules(settings):
    """Where the core draws every random number (every playout policy but ``random``), the
    native rules' search is the Python-rules search, to the last statistic."""
    results = []
    for game in (GAUNTLET, REF):
        result = UctAgent(game, Settings(seed=5, **settings)).search(game.new_state(), Limits(nodes=800),
                                                                    native.StopSignal())
        results.append((result.move, result.info.score, result.info.pv, result.info.nodes))
    assert results[0] == results[1]


# --- bad input ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("move,error", [
    ((1 << 1, 1 << 10, 0), None),                   # b1-b2: a move
    ((0, 1 << 10, 0), ValueError),                  # no from square
    ((1 << 1 | 1 << 2, 1 << 10, 0), ValueError),     # two from squares
    ((1 << 1, 1 << 8, 0), ValueError),               # to the ghost column
    ((1 << 1, 1 << 10, 1 << 80), ValueError),        # captures off the board
    ((1 << 1, 1 << 10), ValueError),
    ("b1-b2", ValueError),
    ((1.0, 2, 0), TypeError),
])
def test_a_value_that_is_no_move_is_refused(move, error):
    raw = GAUNTLET.new_state().raw()
    if error is None:
        assert RULES.game_play(raw, move)[0] == GAUNTLET.new_state().runners ^ (1 << 1 | 1 << 10)
        return
    with pytest.raises(error):
        RULES.game_play(raw, move)


@pytest.mark.parametrize("raw,error", [
    ((2, 2, 0, 0, 0), ValueError),                  # two pieces on one square
    ((1 << 8, 0, 0, 0, 0), ValueError),             # the ghost column
    ((0, 1 << 72, 0, 0, 0), ValueError),            # above the board
    ((0, 0, 0, 3, 0), ValueError),                  # turn
    ((0, 0, 0, 0), TypeError),
    ((-2, 0, 0, 0, 0), ValueError),
])
def test_a_bad_raw_position_is_refused(raw, error):
    with pytest.raises(error):
        RULES.game_legal(raw)


def test_rules_without_their_numbers_refuse_to_work():
    empty = native.core.GauntletRules.__new__(native.core.GauntletRules)
    raw = GAUNTLET.new_state().raw()
    for call in (lambda: empty.perft(raw, 1), lambda: empty.playouts(raw, 1, 1), lambda: empty.game_legal(raw),
                 lambda: empty.random_move(raw, random.Random(1)), lambda: empty.playout(raw, random.Random(1), 5)):
        with pytest.raises(TypeError):
            call()


def test_bad_rules_are_refused():
    good = dict(files=8, ranks=8, stride=9, cells=REF.cells, goal=REF.goal, n_runners=6, n_blockers=12,
                max_capture=0, compulsory=1)
    assert native.core.GauntletRules(**good)
    for change in (dict(stride=8), dict(files=20), dict(goal=0), dict(cells=1 << 100), dict(max_capture=2),
                   dict(n_runners=0), dict(ranks=14), dict(cells="x")):
        with pytest.raises((ValueError, TypeError)):
            native.core.GauntletRules(**{**good, **change})


# --- the Python rules stay the reference and the fallback --------------------------------------------------
def test_the_python_rules_run_without_the_kernel():
    assert REF.kernel is None and not REF.native and REF.search_rules(REF.search_parameters()) is None
    code = "from mcts_engine.rules import get_game; g = get_game('gauntlet'); print(g.kernel, g.native)"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, MCTS_ENGINE_NATIVE="0"),
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["None", "False"], out.stderr


def test_a_game_outside_the_registry_pickles_without_its_kernel():
    game = gauntlet.make_game(size="6x6")
    again = pickle.loads(pickle.dumps(game))
    assert again.kernel is not None and again.kernel is not game.kernel and again.native
    assert pickle.loads(pickle.dumps(GAUNTLET)) is GAUNTLET
