"""Rithmomachia's native rules (``native/src/rith_*.c``) against its Python rules, the reference.

Every worked example of ../shared/rules/rithmomachia.md §9 (movement, captures, pyramids, the
common and glorious victories) played on the native core; the perft of the start position of
each option set (the rules text's M8 counts; ../shared/perft has no Rithmomachia table, so the
deeper counts are the Python rules'); seeded random games of every option set, where every
position's moves (in order), outcome, evaluation, whole-board captures of both colours and
random draw, and the position after its moves, agree with the Python rules; playouts from
positions along those games (the native incremental capture resolution against the Python one,
draw for draw); bad input refused with a clear error; ``MCTS_ENGINE_NATIVE=0`` keeps the
Python rules; the search runs on the native rules.  The sanitizer build
(tests/native/test_native_draughts.py) runs this file too.
"""
from __future__ import annotations

import multiprocessing
import os
import random
import subprocess
import sys

import pytest

from mcts_engine import native
from mcts_engine.agents import make_agent, search_plan
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.settings import Settings
from mcts_engine.native import StopSignal
from mcts_engine.rules import get_game
from mcts_engine.rules.rithmomachia import BLACK, WHITE
from support.rithmomachia_examples import C1, C3, C14, CAPTURES, FIRST, GLORIOUS, GLORY, MOVES, fen_of, lost, pieces

if not native.available():
    pytest.skip(f"no native kernel: {native.status()}", allow_module_level=True)

DEFAULT = {}
AUTHOR = {"preset": "author_compat"}
OPTION_SETS = [
    {}, {"preset": "author_compat"}, {"movement": "linear"}, {"movement": "linear", "linear_up_to": True},
    {"siege": "natural"}, {"ambush": "custodial", "custodial_diagonal": True},
    {"pyramid_diagonal3": True, "pyramid_total_only_intact": True, "pyramid_total_only_intact_defence": False},
    {"pyramid_whole_on_component_hit": True, "pyramid_capture_wins": True},
    {"glorious": "on", "glorious_lines": "orthogonal_diagonal", "glorious_unobstructed": True},
    {"glorious": "after_pyramid", "glorious_ordered": True, "glorious_author_literal": True},
    {"glorious": "on", "glorious_lines": "orthogonal"},
    {"board_ranks": 14, "setup": "back_ranks", "first_player": "black", "no_moves": "loss"},
    {"setup": "back_ranks", "max_plies": 60, "value_thresholds": "author", "capture_counting": "author"},
]
IDS = ["-".join(f"{k}={v}" for k, v in o.items()) or "default" for o in OPTION_SETS]


def game(options=None):
    return get_game("rithmomachia", **(options or {}))


def pos(spec: str, side: str = "W", options=None, caps: str = "0/0/0/0"):
    return game(options).parse_fen(fen_of(spec, side, caps))


def native_after(state, move: str):
    """The position after ``move`` as the native rules play it (read back into a state)."""
    child = state.copy()
    child.set_raw(state.game.kernel.game_play(state.raw(), state.parse_move(move)))
    return child


def native_dests(state, cell: str) -> set[str]:
    moves = map(state.move_str, state.game.kernel.game_legal(state.raw()))
    return {m.split("-")[1] for m in moves if m.split("-")[0] == cell}


def test_the_game_runs_on_its_native_rules():
    g = game()
    assert g.native and g.kernel is not None and g.search_rules(g.search_parameters()) is g.kernel
    reference = get_game("rithmomachia", native=False)
    assert not reference.native and reference.kernel is None and reference.search_rules(None) is None


# --- §9 worked examples on the native core --------------------------------------------------------

@pytest.mark.parametrize("name", sorted(MOVES))
def test_movement(name):
    spec, cell, expected = MOVES[name]
    assert native_dests(pos(spec), cell) == expected


def test_m8_initial_move_counts():
    for options, count in (({}, 71), ({"first_player": "black"}, 69)):
        g = game(options)
        assert len(g.kernel.game_legal(g.new_state().raw())) == count
        assert g.kernel.game_perft(g.new_state().raw(), 1) == count


@pytest.mark.parametrize("options", [DEFAULT, AUTHOR], ids=["default", "author_compat"])
@pytest.mark.parametrize("name", sorted(CAPTURES, key=lambda n: int(n[1:])))
def test_capture(name, options):
    spec, side, move, expected, author = CAPTURES[name]
    if options and author is not None:
        expected = author
    before = pos(spec, side, options)
    assert lost(before, native_after(before, move)) == expected


def test_c22_and_c23_pyramids_lose_components_and_whole():
    s = native_after(pos(CAPTURES["C22"][0]), "c10-d11")
    assert pieces(s)["e12"] == "BP(S64+S49+T36+T25+xR16)" and s.caps == [1, 16, 0, 0]
    s = native_after(pos(CAPTURES["C23"][0], "B"), "g7-f6")
    assert "e5" not in pieces(s) and s.caps == [0, 0, 6, 91]


@pytest.mark.parametrize("options", [DEFAULT, AUTHOR], ids=["default", "author_compat"])
@pytest.mark.parametrize("name", sorted(FIRST))
def test_first_move_captures(name, options):
    move, cell, piece = FIRST[name]
    start = game(options).new_state()
    expected = {cell: piece} if options is DEFAULT or name <= "I4" else {}
    assert lost(start, native_after(start, move)) == expected


def capturing_first_moves(options) -> set[str]:
    s = game(options).new_state()
    kernel, raw = s.game.kernel, s.raw()
    return {s.move_str(m) for m in kernel.game_legal(raw) if kernel.game_is_capture(raw, m)}


def test_i8_i9_exactly_the_listed_first_moves_capture():
    assert capturing_first_moves(DEFAULT) == {move for move, _, _ in FIRST.values()}
    assert capturing_first_moves(AUTHOR) == {FIRST[n][0] for n in ("I1", "I2", "I3", "I4")}
    black = {"first_player": "black"}
    assert capturing_first_moves(black) == {"b14-a11", "f13-d14", "g12-g10", "h13-g10", "a13-b10", "a13-d14"}
    assert pieces(native_after(game(black).new_state(), "h13-g10"))["g4"] == "WP(S36+S25+T16+T9+xR4+R1)"
    assert capturing_first_moves(dict(black, preset="author_compat")) == {"g12-g10"}


def test_v1_fifteen_pieces_win():
    s = native_after(pos(C1, caps="14/100/0/0"), "a1-b2")
    assert s.caps[:2] == [15, 116] and s.result == WHITE
    assert s.game.kernel.game_outcome(s.raw()) == 1.0 and s.game.kernel.game_legal(s.raw()) == []


@pytest.mark.parametrize("options,caps", [(DEFAULT, [5, 190]), (AUTHOR, [6, 380])], ids=["default", "author_compat"])
def test_v2_intact_pyramid_count(options, caps):
    s = native_after(pos("W R2 c14; B P190 a16, B R3 h1", options=options), "c14-b15")
    assert "a16" not in pieces(s) and s.caps[:2] == caps


@pytest.mark.parametrize("options,before,wins", [
    (DEFAULT, 1300, True), (DEFAULT, 970, False), (AUTHOR, 970, True), (AUTHOR, 960, False)])
def test_v3_white_value_threshold(options, before, wins):
    s = native_after(pos(C1, options=options, caps=f"1/{before}/0/0"), "a1-b2")
    assert s.caps[1] == before + 16
    assert s.game.kernel.game_outcome(s.raw()) == (1.0 if wins else None)


@pytest.mark.parametrize("options,before,wins", [
    (DEFAULT, 980, True), (DEFAULT, 970, False), (AUTHOR, 980, False), (AUTHOR, 1310, True)])
def test_v4_black_value_threshold(options, before, wins):
    spec, gain = (C14, 4) if options is DEFAULT else (C3, 25)
    s = native_after(pos(spec, "B", options, caps=f"0/0/1/{before}"), "h16-g15")
    assert s.caps[3] == before + gain
    assert s.game.kernel.game_outcome(s.raw()) == (0.0 if wins else None)


@pytest.mark.parametrize("name", list(GLORIOUS))
def test_glorious(name):
    spec, side, move, options, winner = GLORIOUS[name]
    before = pos(spec, side, options)
    s = native_after(before, move)
    assert lost(before, s) == {} and s.result == winner
    if winner is not None:
        assert s.game.kernel.game_outcome(s.raw()) == (1.0 if winner == WHITE else 0.0)
    assert native_after(pos(spec, side), move).result is None   # off by default


def test_glorious_needs_its_arrangement():
    for spec, move in (("W R4 c10, B T12 d11, W R36 f12", "f12-g13"), ("W R4 c12, W T6 g12, B T12 e9", "g12-e12")):
        assert native_after(pos(spec, options=GLORY), move).result is None


def test_pyramid_capture_wins_and_no_move_rules():
    s = native_after(pos("W R2 c14; B P190 a16, B R3 h1", options={"pyramid_capture_wins": True}), "c14-b15")
    assert s.result == WHITE
    # Black's lone round on a1 is stuck behind White's pieces: draw by default, a loss as an option
    stuck = "W R2 h16, W R4 b2, W R6 c3; B R3 a1"
    for options, result in (({}, 0.5), ({"no_moves": "loss"}, 1.0)):
        s = pos(stuck, "B", options)
        assert s.game.kernel.game_outcome(s.raw()) == s.outcome() == result
    capped = pos("W R2 a1; B R3 h16", options={"max_plies": 10}).game.parse_fen("W:Wa1=R2:Bh16=R3:N10")
    assert capped.game.kernel.game_outcome(capped.raw()) == 0.5 and capped.game.kernel.game_legal(capped.raw()) == []


# --- perft -----------------------------------------------------------------------------------------

#: perft of the start, default options: depth 1 is the rules text's M8; the rest the Python
#: rules' count (../shared/perft has no Rithmomachia table), which the slow test recounts
PERFT_START = [71, 4904, 355809, 25216990]


def test_perft_of_the_start_on_the_native_rules():
    g = game()
    assert [g.kernel.game_perft(g.new_state().raw(), d) for d in range(1, 5)] == PERFT_START


def _python_perft_3_below(first_moves: range) -> int:
    """The Python rules' perft 3 below each of the start's moves numbered in ``first_moves``, summed."""
    reference = get_game("rithmomachia", native=False)
    start = reference.new_state()
    moves = start.legal_moves()
    total = 0
    for i in first_moves:
        child = start.copy()
        child.play(moves[i])
        total += reference.perft(child, 3)
    return total


@pytest.mark.slow
def test_perft_4_of_the_python_rules():
    """The start's perft 4 on the Python rules: the perft 3 below each first move (the walk
    ``perft`` itself makes one level down), the moves shared between two processes, one per core
    (the count alone is half a minute on the Python rules)."""
    reference = get_game("rithmomachia", native=False)
    count = len(reference.new_state().legal_moves())
    assert count == PERFT_START[0]
    halves = [range(0, count, 2), range(1, count, 2)]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert sum(pool.map(_python_perft_3_below, halves)) == PERFT_START[3]


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_perft_agrees_with_the_python_rules(options):
    g = game(options)
    reference = get_game("rithmomachia", native=False, **options)
    start = g.new_state()
    for depth in (1, 2):
        assert g.perft(start, depth) == reference.perft(reference.new_state(), depth)


@pytest.mark.slow
@pytest.mark.parametrize("options", [DEFAULT, AUTHOR, {"first_player": "black"}], ids=["default", "author", "black"])
def test_perft_3_agrees_with_the_python_rules(options):
    g = game(options)
    reference = get_game("rithmomachia", native=False, **options)
    assert g.perft(g.new_state(), 3) == reference.perft(reference.new_state(), 3)


# --- seeded random games beyond the start -----------------------------------------------------------

def random_states(options, seed: int, plies: int = 3000):
    """The positions of a seeded random game on the Python rules (the reference), start included."""
    reference = get_game("rithmomachia", native=False, **options)
    rng = random.Random(seed)
    state = reference.new_state()
    out = [state.copy()]
    for _ in range(plies):
        move = state.random_move(rng)
        if move is None:
            break
        state.play(move)
        out.append(state.copy())
    return out


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_every_position_of_a_random_game_agrees(options):
    kernel = game(options).kernel
    states = random_states(options, seed=len(IDS[OPTION_SETS.index(options)]))
    for k, s in enumerate(states):
        raw = s.raw()
        moves = s.legal_moves()
        assert kernel.game_legal(raw) == moves, s.fen()
        assert kernel.game_outcome(raw) == s.outcome() and kernel.game_evaluate(raw) == s.evaluate(), s.fen()
        for colour in (WHITE, BLACK):
            assert sorted(kernel.captures(raw, colour)) == sorted(s.full_hits(colour)), (s.fen(), colour)
        assert kernel.random_move(raw, random.Random(k)) == s.random_move(random.Random(k)), s.fen()
        for move in moves if k % 9 == 0 else moves[:2]:
            child = s.copy()
            child.play(move)
            assert kernel.game_play(raw, move) == child.raw(), (s.fen(), s.move_str(move))
            assert kernel.game_heuristic(raw, move) == s.heuristic(move)
            assert kernel.game_is_capture(raw, move) == s.is_capture(move)
    assert states[-1].outcome() is not None


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_playouts_draw_and_resolve_as_the_python_rules(options):
    # a whole random game and short playouts along another, the same draws on both cores: the
    # native incremental capture resolution ends where the Python one does, position for position
    kernel = game(options).kernel
    reference = get_game("rithmomachia", native=False, **options)
    start = reference.new_state()
    result, raw = kernel.playout(start.raw(), random.Random(5), 1 << 62)
    assert result == start.playout(random.Random(5)) and raw == start.raw()
    for k, s in enumerate(random_states(options, seed=11)[::6]):
        expected = s.copy()
        outcome = expected.playout(random.Random(k), 15)
        assert kernel.playout(s.raw(), random.Random(k), 15) == (outcome, expected.raw()), s.fen()


def test_the_state_fast_paths_are_native_and_draw_as_the_python_loop():
    fast, slow = game().new_state(), get_game("rithmomachia", native=False).new_state()
    assert fast.playout(random.Random(3), 40) == slow.playout(random.Random(3), 40)
    assert fast.raw() == slow.raw() and fast.fen() == slow.fen()
    assert fast.random_move(random.Random(4)) == slow.random_move(random.Random(4))
    fast.play(fast.random_move(random.Random(4)))      # a state read back from raw plays on in Python
    slow.play(slow.random_move(random.Random(4)))
    assert fast.key() == slow.key()


def test_batch_playouts_end_and_count_their_plies():
    g = game()
    wins, draws, losses, plies = g.kernel.playouts(g.new_state().raw(), 20, 7)
    assert wins + draws + losses == 20 and plies > 20 * 50
    assert g.kernel.game_playouts(g.new_state().raw(), 20, 7)[3] == 0        # none cut off at the cap


# --- bad input ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("move", [-1, 1 << 16, 11 * 256 + 8, 8 * 256 + 9, 3 * 256 + 3, 16 * 11 * 256 + 1])
def test_a_value_that_is_not_a_move_of_the_board_is_refused(move):
    g = game()
    with pytest.raises(ValueError, match="is not a move of the 8x16 board"):
        g.kernel.game_play(g.new_state().raw(), move)


def test_a_move_that_is_not_an_int_or_not_the_movers_is_refused():
    g = game()
    raw = g.new_state().raw()
    with pytest.raises(TypeError, match="is an int"):
        g.kernel.game_play(raw, "a3-b6")
    with pytest.raises(Exception):
        g.kernel.game_play(raw, 0 * 256 + 12)      # a1 is empty: the native play refuses it too


@pytest.mark.parametrize("raw, why", [
    ((0, 0, 0, 0, 0, 0), "at least 7"),
    ((2, 0, 0, 0, 0, 0, -1), "item 0"),
    ((0, 0, 0, 0, 0, 0, -1, 8, 0, 9), "off the board"),
    ((0, 0, 0, 0, 0, 0, -1, 0, 0, 9, 0, 1, 13), "given twice"),
    ((0, 0, 0, 0, 0, 0, -1, 0, 0, 7), "value << 2 | shape"),
    ((0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 4, 2, 9, 13), "alive mask"),
    ((0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 1), "ends inside"),
    ((0, 0, 0, 0, 0, 0, -1, 0, 0, 1 << 26), "a value from 1 to 2"),
    ((0, 0, 0, 0, 0, 0, -1, 0, 0, 1 << 40), "item 9"),
    ((0, 0, 0, 0, 0, 0, -1, 0, 0, "R9"), "item 9"),
])
def test_a_bad_raw_position_is_refused_naming_what_is_wrong(raw, why):
    with pytest.raises(ValueError, match=why):
        game().kernel.game_legal(raw)


def test_a_bad_spec_is_refused_naming_the_field():
    from mcts_engine.rules.rithmomachia.native import native_spec
    spec = native_spec(game())
    for field, value, why in (("ranks", 40, "ranks"), ("glorious", 3, "glorious"), ("win_count", 0, "win_count"),
                              ("patterns", (((9, 0, 1, 0),),) * 3, "movement pattern"),
                              ("diag3", ((1, 1, 3),), "diag3"), ("custodial", ((2, 0, -1, 0),), "unit steps"),
                              ("max_value", 1 << 24, "max_value"), ("max_components", 17, "max_components"),
                              ("max_pyramids", 9, "max_pyramids"), ("max_count", (1 << 60) + 1, "max_count")):
        with pytest.raises(ValueError, match=why):
            native.core.RithmomachiaRules(dict(spec, **{field: value}))


def test_switched_off_the_python_rules_run():
    code = ("from mcts_engine.rules import get_game; g = get_game('rithmomachia'); "
            "print(g.native, g.kernel, g.search_rules(None))")
    env = dict(os.environ, MCTS_ENGINE_NATIVE="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "None", "None"]


# --- the search -------------------------------------------------------------------------------------

def test_a_search_runs_on_the_native_rules_with_threads():
    g = game()
    state = g.new_state()
    for threads in (1, 2):
        settings = Settings(seed=3, threads=threads)
        assert search_plan(g, settings).trees == threads and not search_plan(g, settings).workers
        result = make_agent(g, settings).search(state, Limits(nodes=400), StopSignal())
        assert result.move in state.legal_moves() and result.info.nodes >= 400


def test_a_game_outside_the_registry_pickles_without_its_native_rules():
    import pickle
    from mcts_engine.rules.rithmomachia import make_game
    g = make_game(glorious="on")
    again = pickle.loads(pickle.dumps(g))
    assert again.kernel is not None and again.kernel is not g.kernel and again.options == g.options
    assert again.kernel.game_legal(again.new_state().raw()) == g.new_state().legal_moves()
