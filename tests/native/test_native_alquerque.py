"""The Alquerque family's native rules (``native/src/alquerque*.c``, ``AlquerqueRules``) against its
Python rules (``rules/alquerque.py``), the reference, beyond what test_native_games.py checks of
every native game: every rule option row along seeded random games (moves in the same order, the
raw position after each move, outcome, evaluation to the last bit, heuristics, random moves and
playouts drawing alike); random placements (hypothesis, derandomized); the perft table from the
start; the worked examples of the rules files (../shared/rules) listed, played and searched on the
native core; capture routes too long for a move slot; the draw counters and the repetition
history; bad input; and the Python rules with the native core switched off.  The sanitizer build
(tests/native/test_native_draughts.py) runs this file too.
"""
from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from support import ROOT, sanitized
from support.perft import ALQUERQUE_PERFT
from mcts_engine import native
from mcts_engine.agents import make_agent
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.settings import Settings
from mcts_engine.native import StopSignal
from mcts_engine.rules import get_game
from mcts_engine.rules.alquerque import make_game
from mcts_engine.rules.alquerque_kernel import rules_spec
from mcts_engine.rules.geometry import indices

if not native.available():
    pytest.skip(f"no native core: {native.status()}", allow_module_level=True)

# every rule option at least once, in combinations (the games' own rows first)
ROWS = [
    ("alquerque", {}), ("alquerque", {"chain": "optional"}), ("alquerque", {"chain": "single", "capture": "optional"}),
    ("alquerque", {"huff": "yes"}), ("alquerque", {"huff": "yes", "choice": "max"}),
    ("alquerque", {"repetition": "3", "no_progress": "12"}),
    ("alquerque", {"promotion": "stop", "man_steps": "no-back", "progress": "capture-or-promotion"}),
    ("alquerque", {"promotion": "pass", "man_steps": "forward", "removal": "end", "king_reverse": "yes"}),
    ("zamma", {}), ("zamma", {"removal": "immediate", "man_steps": "forward"}),
    ("zamma", {"choice": "free", "progress": "capture"}), ("zamma", {"chain": "optional", "king_reverse": "yes"}),
    ("zamma", {"chain": "single", "promotion": "pass", "repetition": "2"}),
    ("zamma", {"capture": "optional", "max_plies": "90"}),
    ("harbagh", {}), ("harbagh", {"removal": "end", "promotion": "pass"}), ("harbagh", {"huff": "yes"}),
    ("harbagh", {"promotion": "none", "man_steps": "any", "no_progress": "0", "max_plies": "150"}),
    ("fox-and-geese", {}), ("fox-and-geese", {"lines": "alternating", "geese": "17"}),
    ("fox-and-geese", {"lines": "orthogonal", "capture": "compulsory", "chain": "single"}),
    ("fox-and-geese", {"geese": "french", "fox_start": "d5", "chain": "optional"}),
    ("fox-and-geese", {"geese": "15", "huff": "yes", "repetition": "3", "promotion": "stop"}),
]
IDS = [name + "".join(f"-{k}={v}" for k, v in options.items()) for name, options in ROWS]


def games(name: str, options: dict):
    """The game on its native rules and on its Python rules (the reference)."""
    fast, ref = get_game(name, **options), get_game(name, native=False, **options)
    assert fast.native and fast.kernel is not None and not ref.native and ref.kernel is None
    return fast, ref


def check_position(rules, state) -> list:
    """Everything the game interface says of ``state`` (a Python-rules state) against the state itself;
    returns its legal moves."""
    raw, fen = state.raw(), state.fen()
    moves = state.legal_moves()
    assert rules.game_legal(raw) == moves, fen
    assert rules.game_outcome(raw) == state.outcome(), fen
    assert rules.game_evaluate(raw) == state.evaluate(), fen        # to the last bit
    for move in moves:
        after = state.copy()
        after.play(move)
        assert rules.game_play(raw, move) == after.raw(), (fen, state.move_str(move))
        assert rules.game_heuristic(raw, move) == state.heuristic(move), (fen, state.move_str(move))
        assert rules.game_is_capture(raw, move) == state.is_capture(move)
    return moves


# --- every option row along seeded random games ---------------------------------------------------

@pytest.mark.parametrize("name,options", ROWS, ids=IDS)
def test_every_option_row_agrees_along_random_games(name, options):
    fast, ref = games(name, options)
    rules = fast.kernel
    positions = 0
    for seed in range(6):
        pick, rng, native_rng, state = random.Random(seed), random.Random(~seed), random.Random(~seed), ref.new_state()
        for _ in range(160):
            moves = check_position(rules, state)
            positions += 1
            native_state = fast.parse_fen(state.fen())
            native_state.set_raw(state.raw())
            assert native_state.random_move(native_rng) == state.random_move(rng), state.fen()
            if not moves:
                break
            state.play(moves[int(pick.random() * len(moves))])
    assert positions > 50


@pytest.mark.parametrize("name,options", ROWS, ids=IDS)
def test_playouts_draw_as_the_python_loop(name, options):
    """The native playout, given a random.Random, plays the Python loop's game: the same draws,
    moves, final position, counters and result; and stops where max_plies says."""
    fast, ref = games(name, options)
    for seed in range(6):
        start = ref.new_state()
        for _ in range(seed * 7):                      # from the start and from later positions
            move = start.random_move(random.Random(seed))
            if move is None:
                break
            start.play(move)
        for limit in (None, 9):
            a, b = start.copy(), fast.parse_fen(start.fen())
            b.set_raw(start.raw())
            kwargs = {} if limit is None else {"max_plies": limit}
            assert b.playout(random.Random(seed), **kwargs) == a.playout(random.Random(seed), **kwargs)
            assert b.raw() == a.raw(), (name, seed, limit)


# --- random placements ----------------------------------------------------------------------------

def placements(game):
    """Random placements of men and kings (kings where the game crowns), either side to move, with
    draw counters below their limits: the crowded and king-rich positions random games seldom reach."""
    points = indices(game.points)
    crowns = game.promotion != "none"

    @st.composite
    def draw(draw_fn):
        chosen = draw_fn(st.lists(st.sampled_from(points), min_size=2, max_size=min(30, len(points)), unique=True))
        own = opp = kings = 0
        for i in chosen:
            if draw_fn(st.integers(0, 1)):
                own |= 1 << i
            else:
                opp |= 1 << i
            if crowns and draw_fn(st.integers(0, 2)) == 0:
                kings |= 1 << i
        return own, opp, kings, draw_fn(st.integers(0, 1)), draw_fn(st.integers(0, 40)), draw_fn(st.integers(0, 5))
    return draw()


@pytest.mark.parametrize("name,options", ROWS, ids=IDS)
def test_random_placements_agree(name, options):
    fast, ref = games(name, options)
    rules = fast.kernel

    @settings(max_examples=sanitized.examples(60), deadline=None, derandomize=True)
    @given(placements(ref))
    def check(drawn):
        own, opp, kings, turn, ply, quiet = drawn
        state = ref.new_state()
        state.own, state.opp, state.kings, state.turn, state.ply, state.quiet = own, opp, kings, turn, ply, quiet
        check_position(rules, state)
        assert rules.perft(state.raw(), 2) == ref.perft(state, 2), state.fen()
        twin = fast.new_state()
        twin.set_raw(state.raw())
        assert twin.random_move(random.Random(ply)) == state.random_move(random.Random(ply)), state.fen()
    check()


# --- perft -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(ALQUERQUE_PERFT))
def test_perft_matches_the_table_through_both_native_paths(name):
    """The table from the start by the native perft (draw rules ignored) and by game_perft through the
    C game interface alone (what the search sees), and one ply deeper against the Python rules."""
    fast, ref = games(name, {})
    start, table = fast.new_state(), ALQUERQUE_PERFT[name]
    assert [fast.perft(start, d) for d in range(1, len(table) + 1)] == table
    assert [fast.kernel.game_perft(start.raw(), d) for d in range(1, len(table) + 1)] == table
    deeper = len(table) + 1 if name != "fox-and-geese" else len(table)
    assert fast.perft(start, deeper) == ref.perft(ref.new_state(), deeper)


@pytest.mark.parametrize("name,options", ROWS, ids=IDS)
def test_perft_from_mid_game_positions(name, options):
    fast, ref = games(name, options)
    rng = random.Random(3)
    for _ in range(3):
        state = ref.new_state()
        for _ in range(rng.randrange(4, 30)):
            move = state.random_move(rng)
            if move is None:
                break
            state.play(move)
        assert fast.kernel.perft(state.raw(), 3) == ref.perft(state, 3), state.fen()


# --- the rules files' worked examples on the native core -------------------------------------------

# (game, options, FEN, the legal moves, a move played, the position after it) from §10 of each rules file
EXAMPLES = [
    ("alquerque", {}, "W:Wa1,e1:Bb2,d4,a5", {"a1xc3xe5"}, "a1xc3xe5", "B:We1,e5:Ba5"),
    ("alquerque", {}, "W:Wc3:Bb3,c4,b5", {"c3xa3", "c3xc5xa5"}, "c3xc5xa5", "B:Wa5:Bb3"),
    ("alquerque", {}, "B:Wa3,a4,b4,b5,c3,c5:Ba5", set(), None, None),
    ("zamma", {}, "B:BKa3,e3:Wc3,d2,c1,e5", {"a3xd3xd1xb1", "a3xd3xd1xa1"}, "a3xd3xd1xa1", "W:BKa1,e3:We5"),
    ("zamma", {"removal": "immediate"}, "B:BKa3,e3:Wc3,d2,c1,e5",
     {f"a3xd3xd1xa1x{p}" for p in ("f6", "g7", "h8", "i9")}, "a3xd3xd1xa1xi9", "W:BKi9,e3:W"),
    ("zamma", {}, "B:Bc7:Wc8,d9", {"c7xc9"}, "c7xc9", "W:BKc9:Wd9"),
    ("harbagh", {}, "B:Bb1,e1:Wb3,b7,e3,c9", {"b1xb5xb9"}, "b1xb5xb9", "W:BKb9,e1:We3,c9"),
    ("harbagh", {"choice": "free"}, "B:Bb1,e1:Wb3,b7,e3,c9", {"b1xb5xb9", "e1xe5"}, "e1xe5", "W:Bb1,e5:Wb3,b7,c9"),
    ("harbagh", {}, "B:BKc5:Wc3,c7", {"c5xc9", "c5xc1"}, "c5xc1", "W:BKc1:Wc7"),
    ("harbagh", {"king_reverse": "yes"}, "B:BKc5:Wc3,c7", {"c5xc9xc1", "c5xc1xc9"}, "c5xc9xc1", "W:BKc1:W"),
    ("fox-and-geese", {}, "F:Gd4,e5:Fc4", set("c4-b3 c4-b4 c4-b5 c4-c3 c4-c5 c4-d3 c4-d5 c4xe4xe6".split()),
     "c4xe4xe6", "G:G:Fe6"),
    ("fox-and-geese", {}, "F:Gc7,e7,c6,d6,e6,b5,d5,f5:Fd7", set(), None, None),
]
EXAMPLE_IDS = [f"{e[0]}-{e[2]}" for e in EXAMPLES]


@pytest.mark.parametrize("name,options,fen,legal,move,after", EXAMPLES, ids=EXAMPLE_IDS)
def test_worked_examples_on_the_native_core(name, options, fen, legal, move, after):
    fast, ref = games(name, options)
    state = ref.parse_fen(fen)
    raw = state.raw()
    assert {state.move_str(m) for m in fast.kernel.game_legal(raw)} == legal
    if move is None:                                   # no move: the side to move has lost
        assert fast.kernel.game_outcome(raw) == (0.0 if state.turn == 0 else 1.0)
        return
    played = fast.kernel.game_play(raw, state.parse_move(move))
    assert played[:4] == ref.parse_fen(after).raw()[:4]


@pytest.mark.parametrize("name,options,fen,legal,move,after", [e for e in EXAMPLES if e[3]],
                         ids=[i for e, i in zip(EXAMPLES, EXAMPLE_IDS) if e[3]])
def test_worked_examples_searched_on_the_native_core(name, options, fen, legal, move, after):
    """A native search of the example plays one of its legal moves; where one wins at once (the fox's
    chain that takes the last geese) it finds it."""
    game = get_game(name, **options)
    state = game.parse_fen(fen)
    agent = make_agent(game, Settings(seed=3, threads=1))
    result = agent.search(state, Limits(nodes=3000), StopSignal())
    agent.close()
    assert state.move_str(result.move) in legal
    if name == "fox-and-geese":
        assert state.move_str(result.move) == "c4xe4xe6"


# --- capture routes too long for a move slot ------------------------------------------------------

RING = ["a2", "a4", "a6", "a8", "b9", "d9", "f9", "h9", "i8", "i6", "i4", "i2", "h1", "f1", "d1"]
LANDINGS = ["a3", "a5", "a7", "a9", "c9", "e9", "g9", "i9", "i7", "i5", "i3", "i1", "g1", "e1", "c1"]


@pytest.mark.parametrize("taken", [10, 11, 12, 15])
def test_long_routes_cross_the_slot_and_are_interned_once(taken):
    """A Zamma man round the board's edge takes ``taken`` men in one move: routes of more than 11
    landings do not fit a move slot and are interned in the rules object, once each, and still list,
    play, convert back and are searched as the Python rules' moves."""
    game, ref = games("zamma", {"promotion": "none"})
    rules = make_game("zamma", promotion="none").kernel       # a rules object of its own: a fresh table
    state = ref.parse_fen(f"B:Ba1,e5:W{','.join(RING[:taken])}")
    moves = state.legal_moves()
    assert [state.move_str(m) for m in moves] == ["x".join(["a1"] + LANDINGS[:taken])]
    for _ in range(2):
        assert rules.game_legal(state.raw()) == moves
        assert rules.interned == (1 if taken > 11 else 0)
    after = state.copy()
    after.play(moves[0])
    assert rules.game_play(state.raw(), moves[0]) == after.raw()
    native_state = game.parse_fen(state.fen())
    agent = make_agent(game, Settings(seed=1, threads=2))
    assert agent.search(native_state, Limits(nodes=200), StopSignal()).move == moves[0]
    agent.close()


# --- draw counters and repetition ------------------------------------------------------------------

def test_the_draw_counters_and_the_repetition_history_cross_as_the_python_state_keeps_them():
    """A cycle played through the native play, raw by raw, carries the history as the Python state
    keeps it, and draws where it does; so do the no-progress counter and the ply cap."""
    fast, ref = games("alquerque", {"repetition": "3"})
    native_raw, python = ref.parse_fen("W:Wa1:Be5").raw(), ref.parse_fen("W:Wa1:Be5")
    for text in ["a1-a2", "e5-e4", "a2-a1", "e4-e5"] * 2:
        move = python.parse_move(text)
        native_raw = fast.kernel.game_play(native_raw, move)
        python.play(move)
        assert native_raw == python.raw()
    assert python.drawn and fast.kernel.game_outcome(native_raw) == 0.5 and fast.kernel.game_legal(native_raw) == []
    quiet = ref.parse_fen("W:Wa1:Be5:H49")
    raw = fast.kernel.game_play(quiet.raw(), quiet.parse_move("a1-b1"))
    assert raw[4:7] == (1, 50, True) and fast.kernel.game_outcome(raw) == 0.5
    capped = ref.parse_fen("W:Wa1:Be5:N399")
    assert fast.kernel.game_play(capped.raw(), capped.parse_move("a1-a2"))[4:7] == (400, 1, True)


# --- the boundary ----------------------------------------------------------------------------------

def test_bad_input_is_refused_with_a_clear_error():
    fast, ref = games("alquerque", {})
    rules, state = fast.kernel, ref.parse_fen("W:Wa1,e1:Bb2,d4,a5")
    raw, move = state.raw(), state.legal_moves()[0]
    for bad, needle in [((1, 2, 0, False), "tuple"), ((1 << 5, 1, 0, False, ()), "single points"),
                        ((1, 3, 0, False, ()), "single points"), ((1, 2, -1, False, ()), "captured"),
                        ((1, 2, 0, 2, ()), "crowned"), ((1, 2, 0, False, [4]), "route"),
                        ((1, 1 << 14, 0, False, (1 << 7,)), "last point"), ("a1-a2", "tuple")]:
        with pytest.raises(ValueError, match=f"not a move of alquerque.*{needle}"):
            rules.game_play(raw, bad)
    assert rules.game_play(raw, move) is not None
    for bad_raw, needle in [(raw[:7], "raw()"), ((raw[0], raw[0]) + raw[2:], "overlap"),
                            ((1 << 5,) + raw[1:], "not a point"), (raw[:3] + (2,) + raw[4:], "turn"),
                            (raw[:4] + (-1,) + raw[5:], "ply"), (raw[:7] + (((0, 1, 2),),), "key")]:
        with pytest.raises(ValueError, match=needle):
            rules.game_legal(bad_raw)

    class Outside:
        def random(self):
            return 1.0
    with pytest.raises(ValueError, match="outside"):
        fast.new_state().playout(Outside())

    class Raising:
        def random(self):
            raise RuntimeError("no entropy")
    with pytest.raises(RuntimeError, match="no entropy"):
        fast.new_state().random_move(Raising())
    spec = rules_spec(ref)
    for key, value, needle in [("lines", ((40, 1, 0),), "delta"), ("points", 1 << 70, "not a point"),
                               ("repetition", 1, "repetition"), ("chain", 3, "chain"), ("max_plies", 0, "max_plies"),
                               ("king_value", float("nan"), "king_value")]:
        with pytest.raises(ValueError, match=needle):
            native.core.AlquerqueRules(dict(spec, **{key: value}))
    with pytest.raises(ValueError, match="no 'name'"):
        native.core.AlquerqueRules({})
    with pytest.raises(RuntimeError, match="once"):
        rules.__init__(spec)


def test_a_game_outside_the_registry_pickles_and_recompiles():
    game = make_game("harbagh", huff="yes")
    clone = pickle.loads(pickle.dumps(game))
    assert clone.kernel is not None and clone.kernel is not game.kernel
    assert clone.perft(clone.new_state(), 4) == game.perft(game.new_state(), 4)
    assert make_game("harbagh", native=False).kernel is None


def test_the_words_follow_the_boards():
    assert get_game("zamma").kernel.wide and get_game("harbagh").kernel.wide
    assert not get_game("alquerque").kernel.wide and not get_game("fox-and-geese").kernel.wide


def test_a_seeded_native_search_plays_the_same_twice():
    game = get_game("harbagh")
    runs = []
    for _ in range(2):
        agent = make_agent(game, Settings(seed=7, threads=1, playout_depth=8))
        result = agent.search(game.new_state(), Limits(nodes=3000), StopSignal())
        runs.append((result.move, result.info.nodes, result.info.score))
        agent.close()
    assert runs[0] == runs[1] and runs[0][1] == 3000


def test_the_python_rules_run_with_the_native_core_switched_off():
    """``MCTS_ENGINE_NATIVE=0``: the family plays on its Python rules (no native rules object), and
    the search calls them back."""
    code = ("from mcts_engine.rules import get_game\n"
            "from mcts_engine.agents import make_agent\n"
            "from mcts_engine.mcts.settings import Settings\n"
            "from mcts_engine.mcts.limits import Limits\n"
            "from mcts_engine.native import StopSignal\n"
            "import random\n"
            "for name in ('alquerque', 'zamma', 'harbagh', 'fox-and-geese'):\n"
            "    g = get_game(name)\n"
            "    assert not g.native and g.kernel is None and g.search_rules(g.search_parameters()) is None\n"
            "    assert g.new_state().playout(random.Random(1)) in (0.0, 0.5, 1.0)\n"
            "g = get_game('alquerque')\n"
            "r = make_agent(g, Settings(seed=1)).search(g.new_state(), Limits(nodes=200), StopSignal())\n"
            "assert r.move in g.new_state().legal_moves()\n")
    env = dict(os.environ, MCTS_ENGINE_NATIVE="0")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.slow
def test_the_family_s_rules_tests_pass_on_the_python_rules():
    """The family's rules tests once more with the native core switched off (``MCTS_ENGINE_NATIVE=0``):
    where the extension did not build, the games still play by the same rules."""
    env = dict(os.environ, MCTS_ENGINE_NATIVE="0")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "not slow",
                           "rules/alquerque"], cwd=ROOT / "tests", env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
