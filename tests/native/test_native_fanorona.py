"""Fanorona's native rules (``native/src/fanorona.c``, ``FanoronaRules``) against its Python
rules, the reference.  The capture chains: the same moves, the same tuples, in the same order as
``extend`` (and ``extend_dagaz``), in every chain mode, on the positions of seeded random games.
The whole rules through the C game interface: the perft table, the worked examples of
fanorona.md, seeded random games and random positions (every rule option), the playouts' random
draws, the search on them.  Bad arguments are errors naming them; with the kernel switched off
(``MCTS_ENGINE_NATIVE=0``) Fanorona runs its Python rules.  The sanitizer build
(tests/native/test_native_draughts.py) runs this file too.
"""
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
from mcts_engine.rules import fanorona as F
from mcts_engine.rules import get_game
from mcts_engine.rules.base import BadPosition

MODES = (F.OPTIONAL, F.COMPULSORY, F.SINGLE)


def compiled():
    chains = F.compiled_chains()
    if chains is None:
        pytest.skip(f"no compiled chains: {native.status()}")
    return chains


def positions(games: int, seed: int):
    """(own, opp, capturers) of every position with a capture in ``games`` seeded random games."""
    game, rng = get_game("fanorona"), random.Random(seed)
    for _ in range(games):
        state = game.new_state()
        while state.outcome() is None:
            starters = F.capturers(state.own, state.opp)
            if starters:
                yield state.own, state.opp, starters
            state.play(rng.choice(state.legal_moves()))


def test_the_compiled_chains_list_the_python_rules_moves_in_their_order():
    chains, game = compiled(), get_game("fanorona")
    checked = 0
    for own, opp, starters in positions(40, seed=7):
        for mode in MODES:
            assert chains(own, opp, starters, mode) == game.python_chains(own, opp, starters, mode), (own, opp, mode)
            checked += 1
    assert checked > 1000


def test_no_compiled_chain_comes_back_to_its_start():
    """fanorona.md §4 rule 2 (Example 4): the start point counts as visited, so no chain ends
    where it began (d3 or d2 back to c3 would approach b3); compiled and Python alike."""
    chains, game = compiled(), get_game("fanorona")
    state = game.parse_fen("9/1B7/1BW6/9/3B5 w 0 10")          # White c3; Black b3, b4, d1
    starters = F.capturers(state.own, state.opp)
    for mode in MODES:
        moves = chains(state.own, state.opp, starters, mode)
        assert moves == game.python_chains(state.own, state.opp, starters, mode)
        assert moves and all(m[0] not in [step >> 1 for step in m[3:]] for m in moves), mode
    assert sorted(state.move_str(m) for m in state.legal_moves()) == [
        "c3-d2(W)", "c3-d2(W)-d3(W)", "c3-d3(W)", "c3-d3(W)-d2(A)"]


@pytest.mark.slow
def test_the_compiled_chains_agree_over_many_games():
    chains, game = compiled(), get_game("fanorona")
    for own, opp, starters in positions(400, seed=8):
        for mode in MODES:
            assert chains(own, opp, starters, mode) == game.python_chains(own, opp, starters, mode), (own, opp, mode)


@pytest.mark.parametrize("options", [{}, {"chain": "compulsory"}, {"first_turn_single_capture": "true"}])
def test_games_use_them_and_play_as_on_the_python_rules(options):
    """A game with each chain rule lists the moves the Python chains list, from the start on."""
    compiled()
    game, rng = get_game("fanorona", **options), random.Random(3)
    assert game.compiled is not None
    state = game.new_state()
    for _ in range(60):
        if state.outcome() is not None:
            break
        starters = F.capturers(state.own, state.opp)
        mode = F.SINGLE if game.first_turn_single and state.ply < 2 else game.mode
        expected = game.python_chains(state.own, state.opp, starters, mode) if starters else None
        moves = state.legal_moves()
        if expected is not None:
            assert moves == expected
        state.play(rng.choice(moves))


def test_dagaz_removal_is_compiled_too():
    """Dagaz's removal (only each line's first stone leaves during the chain) runs in the native
    rules as well: the same moves as the Python ``extend_dagaz``, in every chain mode."""
    compiled()
    game = get_game("fanorona", removal="dagaz")
    assert game.compiled is not None
    checked = 0
    for own, opp, starters in positions(20, seed=9):
        for mode in MODES:
            assert game.compiled(own, opp, starters, mode) == game.python_chains(own, opp, starters, mode)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("args, words", [
    ((1, 1, 1, 0), "overlapping"),
    ((1 << 63, 0, 0, 0), "off the board"),
    ((F.START_WHITE, F.START_BLACK, F.START_BLACK, 0), "starters not own"),
    ((F.START_WHITE, F.START_BLACK, 0, 7), "chain mode 7"),
])
def test_bad_arguments_are_errors_naming_them(args, words):
    with pytest.raises(ValueError, match=words):
        compiled()(*args)


def test_switched_off_fanorona_runs_its_python_chains():
    code = "from mcts_engine.rules import get_game; print(get_game('fanorona').compiled)"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, MCTS_ENGINE_NATIVE="0"),
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "None", out.stderr


# --- the whole rules in the native core (FanoronaRules through the C game interface) -------------------

OPTIONS = [{}, {"chain": "compulsory"}, {"first_turn_single_capture": "true"}, {"removal": "dagaz"},
           {"chain": "compulsory", "removal": "dagaz", "no_capture_plies": 6, "max_plies": 60}]
IDS = ["default", "compulsory", "first-single", "dagaz", "all-and-short-draws"]
FILES = "abcdefghi"


def games(**options):
    """(the native game, the Python reference) with ``options``."""
    compiled()
    game, reference = get_game("fanorona", **options), get_game("fanorona", native=False, **options)
    assert game.native and game.kernel is not None and not reference.native and reference.compiled is None
    return game, reference


def board_fen(white: str, black: str, side: str = "w", quiet: int = 0, ply: int = 10) -> str:
    """A FEN from space-separated point lists (ply 10: past the first turns)."""
    at = {(FILES.index(n[0]), int(n[1:])): c for c, names in (("W", white), ("B", black)) for n in names.split()}
    ranks = []
    for rank in range(5, 0, -1):
        text, run = "", 0
        for col in range(9):
            if (col, rank) in at:
                text += (str(run) if run else "") + at[(col, rank)]
                run = 0
            else:
                run += 1
        ranks.append(text + (str(run) if run else ""))
    return f"{'/'.join(ranks)} {side} {quiet} {ply}"


def random_position(reference, rng: random.Random):
    """A random sparse board (up to nine stones a side), either side to move, the counters anywhere
    up to their limits (a draw now and then)."""
    points = [f"{f}{r}" for f in FILES for r in range(1, 6)]
    rng.shuffle(points)
    w, b = rng.randint(0, 9), rng.randint(0, 9)
    fen = board_fen(" ".join(points[:w]), " ".join(points[w:w + b]), rng.choice("wb"),
                    rng.randint(0, min(51, reference.quiet_limit)), rng.randint(0, min(401, reference.ply_limit)))
    return reference.parse_fen(fen)


def test_the_perft_table_on_the_native_rules():
    """tests/rules/test_fanorona.py's table: [1, 5, 39, 724, 18026], 431,852 at 5; compulsory chains
    [1, 5, 21, 223]; through FanoronaRules.perft and through the game interface."""
    game, _ = games()
    start = game.new_state()
    assert [game.perft(start, d) for d in range(6)] == [1, 5, 39, 724, 18026, 431852]
    assert game.kernel.game_perft(start.raw(), 4) == 18026
    compulsory, _ = games(chain="compulsory")
    assert [compulsory.perft(compulsory.new_state(), d) for d in range(4)] == [1, 5, 21, 223]


@pytest.mark.parametrize("fen,played,count", [
    (None, (), 5),                                        # Example 1: the opening, every move ends on e3
    (None, ("d3-e3(W)",), 18),                            # Example 2: Black's reply, prefixes count
    (board_fen("c3", "b3 f3"), (), 1),                    # Example 3: not the same direction twice
    (board_fen("c3", "b3 f3"), ("c3-d3(W)",), 1),         # ... and Black's only reply
    (board_fen("c3", "b3 b4 d1"), (), 4),                 # Example 4: no return to a visited point
], ids=["1", "2", "3", "3-reply", "4"])
def test_worked_examples_on_the_native_rules(fen, played, count):
    game, reference = games()
    state = reference.new_state() if fen is None else reference.parse_fen(fen)
    for text in played:
        state.play(state.parse_move(text))
    assert len(check_position(game.kernel, state, moves_checked=20)) == count


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_the_native_rules_agree_along_seeded_games(options):
    game, reference = games(**options)
    assert check_along_games(game.kernel, reference, seed=len(IDS[OPTIONS.index(options)]), games=3) > 25


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_the_native_rules_agree_on_random_positions(options):
    game, reference = games(**options)
    rng = random.Random(5)
    ended = set()
    for _ in range(150):
        state = random_position(reference, rng)
        check_position(game.kernel, state)
        ended.add(state.outcome())
    assert {None, 0.0, 1.0} <= ended


@pytest.mark.parametrize("options", OPTIONS[:4], ids=IDS[:4])
def test_playouts_draw_as_the_python_loop(options):
    game, reference = games(**options)
    rng = random.Random(2)
    for seed in range(12):
        python_state = random_position(reference, rng) if seed % 2 else reference.new_state()
        check_same_draws(game.parse_fen(python_state.fen()), python_state, seed, max_plies=[1, 5, 400][seed % 3])


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_the_playouts_two_compilations_play_the_same_games(options):
    """The playout is compiled twice (fanorona_playout.c: for fast BMI and pext, and plain); the
    spec's ``plain_bits`` keeps a rule set on the plain one.  Both play the same games from the
    start and from seeded random positions, with native and with Python random numbers."""
    game, reference = games(**options)
    spec = F.fanorona_spec(game.mode, game.first_turn_single, game.dagaz, game.quiet_limit, game.ply_limit)
    fast, plain = native.core.FanoronaRules(spec), native.core.FanoronaRules(dict(spec, plain_bits=1))
    start = game.new_state().raw()
    assert fast.playouts(start, 300, 5) == plain.playouts(start, 300, 5)
    rng = random.Random(31)
    for seed in range(20):
        raw = random_position(reference, rng).raw() if seed % 2 else start
        assert fast.playout(raw, random.Random(seed), 400) == plain.playout(raw, random.Random(seed), 400)


def test_the_perft_counts_of_random_positions():
    game, reference = games()
    rng = random.Random(13)
    for _ in range(20):
        state = random_position(reference, rng)
        assert game.kernel.perft(state.raw(), 3) == reference.perft(state, 3)


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_the_playouts_walk_finds_the_listed_moves(options):
    """The playouts' own chain walk (light moves, compiled per chain mode; perft runs it too)
    finds the moves the Python rules list, and after them the same positions: perft 2 on
    seeded random positions, some of them in the first turns, under every rule option."""
    game, reference = games(**options)
    rng = random.Random(29)
    for i in range(40):
        state = random_position(reference, rng)
        if i % 4 == 0:
            state = reference.parse_fen(state.fen().rsplit(" ", 1)[0] + f" {i % 8 // 4}")
        assert game.kernel.perft(state.raw(), 2) == reference.perft(state, 2), state.fen()


@pytest.mark.parametrize("threads", [1, 2])
def test_a_search_on_the_native_rules_plays_a_legal_move(threads):
    game, _ = games()
    agent = make_agent(game, Settings(seed=1, threads=threads, playout_depth=1, minimax_weight=0.31))
    try:
        result = agent.search(game.new_state(), Limits(nodes=5000), StopSignal())
    finally:
        agent.close()
    assert result.move in game.new_state().legal_moves() and result.info.nodes >= 5000


@pytest.mark.parametrize("move, words", [
    ("c3-d3", "not a Fanorona move"),
    ((21, 22), "not a Fanorona move"),                 # too short
    ((21, 23, 0), "not a Fanorona move"),              # two points away: no paika
    ((21, 22, 1 << 5), "not a Fanorona move"),         # a paika takes nothing
    ((21, 22, 1 << 23, 46), "not a Fanorona move"),    # the step's code names a point two away
    ((21, 22, 1 << 23, 44, 46), "not a Fanorona move"),  # the path does not end on `to`
    ((21, 22, 1 << 9), "not a Fanorona move"),         # a ghost point taken
    ((21, 22, -1, 44), "not a mask"),
])
def test_a_value_that_is_no_move_is_refused(move, words):
    game, _ = games()
    with pytest.raises(ValueError, match=words):
        game.kernel.game_play(game.new_state().raw(), move)


def test_bad_raw_positions_are_refused():
    game, _ = games()
    start = game.new_state().raw()
    for raw, error, words in [((start[0], start[0]) + start[2:], ValueError, "overlap"),
                              ((1 << 9,) + start[1:], ValueError, "off the board"),
                              (start[:2] + (2,) + start[3:], ValueError, "turn"),
                              (start[:3] + (-1,) + start[4:], ValueError, "ply"),
                              (start[:4], TypeError, "raw position")]:
        with pytest.raises(error, match=words):
            game.kernel.game_legal(raw)


def test_bad_specs_are_refused():
    spec = F.fanorona_spec()
    for key, value, words in [("delta", (1, -1, 10, -10, 11, -11, 9, -8), "directions"), ("mode", 2, "mode"),
                              ("max_stones", 30, "max_stones"), ("lines", (0,) * 7, "8 items"),
                              ("quiet_limit", 0, "quiet_limit"), ("plain_bits", 2, "plain_bits")]:
        with pytest.raises(ValueError, match=words):
            native.core.FanoronaRules(dict(spec, **{key: value}))
    with pytest.raises(TypeError, match="dict"):
        native.core.FanoronaRules(list(spec))


@pytest.mark.parametrize("fen", ["9/9/4W4/9/8B w 99999999999999999999 0", "9/9/4W4/9/8B w 0 4611686018427387905"])
def test_counters_past_the_native_range_are_a_bad_position(fen):
    with pytest.raises(BadPosition, match="at most"):
        get_game("fanorona").parse_fen(fen)


def test_switched_off_fanorona_runs_its_python_rules():
    code = "from mcts_engine.rules import get_game; g = get_game('fanorona'); print(g.native, g.kernel)"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, MCTS_ENGINE_NATIVE="0"),
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False None", out.stderr


def test_a_game_outside_the_registry_pickles_without_its_native_rules():
    game = F.make_game(chain="compulsory")
    copy = pickle.loads(pickle.dumps(game))
    assert copy.native and copy.kernel is not None and copy.kernel is not game.kernel
    assert copy.compiled is not None
    state = copy.new_state()
    assert copy.kernel.game_legal(state.raw()) == state.legal_moves()
