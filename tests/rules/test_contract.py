"""The rules contract (mcts_engine/rules/base.py): what a game gets by default, that every
registered game keeps the declared signatures, and the Hub protocol notation."""
from __future__ import annotations

import inspect
import random
import subprocess
import sys

import pytest
from support import random_game
from support.toy_games import TakeAway

from mcts_engine.rules import BadPosition, IllegalMove, get_game, list_games
from mcts_engine.rules.base import NO_LIMIT, Game, State, count_limit, material_share, perft_walk
from mcts_engine.rules.draughts.variants import VARIANTS

# --- the defaults, on a toy game that implements only the abstract core --------------------------

TOY = TakeAway(10)


def test_the_toy_overrides_nothing_but_the_core():
    optional = ("random_move", "playout", "evaluate", "heuristic", "is_capture", "board_text", "hub_move_str",
                "parse_hub_move", "play_on", "hub_position")
    assert all(getattr(type(TOY.new_state()), name) is getattr(State, name) for name in optional)
    assert all(getattr(TakeAway, name) is getattr(Game, name)
               for name in ("perft", "parse_hub_position", "square_numbering"))
    assert TOY.new_state().play_on() is False and TOY.square_numbering("top-left") == ()
    assert TOY.new_state().hub_position() == TOY.new_state().fen()


def test_default_playout_is_the_random_move_loop():
    for seed in range(20):
        fast, slow = TOY.new_state(), TOY.new_state()
        result = fast.playout(random.Random(seed))
        rng = random.Random(seed)
        while (move := slow.random_move(rng)) is not None:
            slow.play(move)
        assert fast.key() == slow.key() and fast.ply == slow.ply and result == slow.outcome() in (0.0, 1.0)
    cut = TOY.new_state()
    assert cut.playout(random.Random(1), max_plies=2) is None and cut.ply == 2 and cut.outcome() is None
    assert inspect.signature(State.playout).parameters["max_plies"].default == NO_LIMIT


def test_default_random_move_draws_once_over_the_legal_moves():
    state, rng, twin = TOY.new_state(), random.Random(3), random.Random(3)
    assert state.random_move(rng) == state.legal_moves()[int(twin.random() * 3)]
    assert rng.random() == twin.random()
    assert TakeAway(0).new_state().random_move(rng) is None


def test_default_knowledge_and_display():
    state = TOY.new_state()
    move = state.legal_moves()[0]
    assert state.evaluate() == 0.5                      # the material-free default
    assert state.heuristic(move) == 0.0 and state.is_capture(move) is False
    assert state.board_text() == state.fen()            # no drawing: the FEN
    assert state.hub_move_str(move) == state.move_str(move) == "1"
    assert state.parse_hub_move("2") == state.parse_move("2") == 2
    with pytest.raises(IllegalMove):
        state.parse_hub_move("4")


def test_default_game_members():
    assert TOY.players == 2 and TOY.colours == ("W", "B") and TOY.options == {} and TOY.hub_squares == 0
    assert TOY.schema.parse({}) == {}
    with pytest.raises(BadPosition) as err:
        TOY.parse_hub_position("W" + "e" * 10)
    assert str(err.value) == "take-away has no Hub position string (its squares are not numbered): send its FEN instead"
    assert TOY.perft(TOY.new_state(), 3) == 27           # take 1, 2 or 3, three times: 9 stones at most
    assert Game.perft(TOY, TOY.new_state(), 0) == 1


def test_shared_helpers():
    assert count_limit(0) == NO_LIMIT and count_limit(50) == 50
    assert material_share(0, 0, 0) == 0.5 and material_share(3, 1, 0) == 0.75 and material_share(3, 1, 1) == 0.25
    # perft_walk over a raw position: a pile of 4 stones, take 1 or 2 (after 2, 2 the pile is empty)
    legal = lambda n: [k for k in (1, 2) if k <= n]     # noqa: E731
    assert [perft_walk(legal, lambda pos, k: (pos[0] - k,), (4,), d) for d in range(5)] == [1, 2, 4, 4, 1]


# --- every registered game keeps the declared contract ---------------------------------------------

@pytest.mark.parametrize("name", list_games())
def test_every_game_declares_the_contract(name):
    game = get_game(name)
    state = game.new_state()
    assert isinstance(game, Game) and isinstance(state, State) and game.players == 2
    assert len(game.colours) == 2 and all(len(c) == 1 for c in game.colours)
    assert isinstance(game.hub_squares, int)
    params = inspect.signature(type(state).playout).parameters
    assert list(params) == ["self", "rng", "max_plies"] and params["max_plies"].default == NO_LIMIT
    assert state.to_move == 0 and state.ply == 0
    rng = random.Random(1)
    before = state.ply
    assert state.playout(rng, 6) is None and state.ply == before + 6        # every state counts its plies
    assert 0.0 <= state.evaluate() <= 1.0 and state.board_text()
    move = state.legal_moves()[0]
    assert isinstance(state.heuristic(move), float | int) and isinstance(state.is_capture(move), bool)


def test_the_registry_names_every_game_of_the_families_and_imports_each_on_first_use():
    """The registry's names come from the families' own tables (a new row is registered), and
    a fresh interpreter that asks for one game has imported no other game's rules."""
    from mcts_engine.rules.alquerque import GAMES
    assert set(VARIANTS) | set(GAMES) <= set(list_games())
    assert set(list_games()) - set(VARIANTS) - set(GAMES) == {"life", "dablot", "gauntlet", "fanorona", "rithmomachia"}
    probe = ("import sys; from mcts_engine.rules import get_game; get_game('english'); "
             "print(sorted(m for m in sys.modules if m.startswith('mcts_engine.rules.') and m.count('.') == 2))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "draughts" in loaded and not any(other in loaded for other in
                                            ("alquerque'", "life", "dablot", "gauntlet", "fanorona", "rithmomachia"))


# --- Hub notation --------------------------------------------------------------------------------

def hub_text_before(game, state, move) -> str:
    """What the Hub dialect of the protocol wrote for a draughts move before the notation moved
    into the rules (HubDialect.move_text): captures as from x to x captured..., sorted by name."""
    frm, to, cap = move[0], move[1], move[2]
    if not cap:
        return state.move_str(move)
    caps, bits = [], cap
    while bits:
        low = bits & -bits
        caps.append(game.square_name(low))
        bits ^= low
    caps.sort(key=lambda s: (len(s), s))
    return "x".join([game.square_name(frm), game.square_name(to)] + caps)


def positions(game, seeds: int = 4, every: int = 3) -> list:
    """The start, and every ``every``-th position of a few seeded random games (captures among them)."""
    out = [game.new_state()]
    for seed in range(seeds):
        out += random_game(game, seed, max_plies=2000)[::every]
    return out


@pytest.mark.parametrize("name", list_games())
def test_hub_notation_round_trips(name):
    game = get_game(name)
    captures = 0
    for state in positions(game, seeds=1 if name == "rithmomachia" else 4, every=5 if name == "rithmomachia" else 3):
        for move in state.legal_moves():
            text = state.hub_move_str(move)
            assert state.parse_hub_move(text) == move, (state.fen(), text)
            if name in VARIANTS:
                assert text == hub_text_before(game, state, move)
                captures += move[2] != 0
            else:
                assert text == state.move_str(move)        # the other games have no Hub notation of their own
    if name in VARIANTS:
        assert captures >= 10


def test_hub_capture_lists_the_captured_squares_in_numeric_order():
    game = get_game("international")
    state = game.new_state()
    for text in ("32-28", "19-23"):
        state.play(state.parse_move(text))
    move = state.parse_move("28x19")
    assert state.hub_move_str(move) == "28x19x23" and state.parse_hub_move("28x19x23") == move
    state = get_game("english").parse_fen("W:W14,20,23,25,26,27,29,30,32:B1,3,4,5,7,8,12,16,18")
    move = state.parse_move("20x2")         # a double capture: 16 then 7, written 7 before 16
    assert state.hub_move_str(move) == "20x2x7x16" and state.parse_hub_move("20x2x16x7") == move
    assert state.parse_hub_move("20x11x2") == move                     # our own notation still reads


def hub_position(game, state) -> str:
    """A state as a Hub position string: side, then w b W B e per square of ``square_numbering()``."""
    p0 = state.own if state.turn == 0 else state.opp
    cells = []
    for name in game.square_numbering():
        bit = game.parse_square(name)
        if not (state.own | state.opp) & bit:
            cells.append("e")
        else:
            colour = game.colours[0] if p0 & bit else game.colours[1]
            cells.append(colour.upper() if state.kings & bit else colour.lower())
    return game.colours[state.turn] + "".join(cells)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_hub_position_round_trips(name):
    game = get_game(name)
    dark = VARIANTS[name].squares == "dark"
    assert game.hub_squares == ({8: 32, 10: 50, 12: 72}[VARIANTS[name].size] if dark else 64)
    if VARIANTS[name].notation == "numeric":     # the order of the PDN numbers
        assert game.square_numbering() == tuple(str(n) for n in range(1, game.hub_squares + 1))
    for state in positions(game, seeds=2, every=7):
        assert state.hub_position() == hub_position(game, state)
        assert game.parse_hub_position(state.hub_position()).key() == state.key()


def test_hub_position_strings():
    game = get_game("international")
    assert game.parse_hub_position("W" + "b" * 20 + "e" * 10 + "w" * 20).key() == game.new_state().key()
    state = game.parse_hub_position("B" + "e" * 10 + "W" + "e" * 33 + "b" + "e" * 5)
    assert state.fen() == "B:WK11:B45" and state.to_move == 1
    for bad in ("W" + "e" * 49, "X" + "e" * 50, "W" + "x" * 50):
        with pytest.raises(BadPosition, match="bad Hub position"):
            game.parse_hub_position(bad)


def test_square_numbering_from_each_corner():
    russian, english, turkish = get_game("russian"), get_game("english"), get_game("turkish")
    assert russian.square_numbering()[:5] == ("a1", "c1", "e1", "g1", "b2")     # algebraic: a1 first
    assert russian.square_numbering("top-left")[:5] == ("b8", "d8", "f8", "h8", "a7")
    assert turkish.square_numbering("top-left")[:9] == ("a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "a7")
    # English is numbered from the first player's (Black's) near right: seen from the far left
    # (Black's top-left) the first square is White's square 32
    assert english.square_numbering()[0] == "1" and english.square_numbering("top-left")[:4] == ("32", "31", "30", "29")
    state = russian.parse_hub_position("W" + "w" * 12 + "e" * 8 + "b" * 12)   # a1 first: the start
    assert state.key() == russian.new_state().key()


@pytest.mark.parametrize("name", ["alquerque", "dablot", "gauntlet", "fanorona", "life", "rithmomachia"])
def test_games_without_numbered_squares_have_no_hub_position(name):
    game = get_game(name)
    assert game.hub_squares == 0 and game.square_numbering() == ()
    with pytest.raises(BadPosition, match="send its FEN instead"):
        game.parse_hub_position("W" + "e" * 32)
