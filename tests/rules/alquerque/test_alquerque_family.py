"""The Alquerque family engine (Alquerque, Zamma, Harbagh, Fox and Geese): a slow reference
model of the rules files on coordinates against the bitboard generator, properties over seeded
random games, perft, rule options and bad input.  The worked examples are in
test_alquerque.py, test_zamma.py, test_harbagh.py and test_fox_and_geese.py."""
from __future__ import annotations

import math
import random

import pytest
from support import (check_copy_is_independent, check_fen_round_trip, check_moves_read_back, check_playout_cut_off,
                     check_playout_matches_loop, check_random_move, legal_strs, play_strs, random_game)

from mcts_engine.rules import BadOption, BadPosition, IllegalMove, get_game, parse_rule_options
from mcts_engine.rules.alquerque import GAMES
from support.perft import ALQUERQUE_PERFT

NAMES = sorted(GAMES)
OPTION_GAMES = [("alquerque", {"chain": "optional"}), ("alquerque", {"chain": "single", "capture": "optional"}),
                ("alquerque", {"huff": "yes"}), ("alquerque", {"repetition": "3"}),
                ("zamma", {"removal": "immediate", "man_steps": "forward"}), ("zamma", {"choice": "free"}),
                ("zamma", {"chain": "optional", "king_reverse": "yes"}),
                ("harbagh", {"removal": "end", "promotion": "pass"}), ("harbagh", {"huff": "yes"}),
                ("fox-and-geese", {"lines": "alternating", "geese": "17"}),
                ("fox-and-geese", {"lines": "orthogonal", "capture": "compulsory", "chain": "single"}),
                ("fox-and-geese", {"geese": "french", "fox_start": "d5"})]
ALL_GAMES = [(n, {}) for n in NAMES] + OPTION_GAMES
ALL_IDS = [n + "".join(f"-{k}={v}" for k, v in o.items()) for n, o in ALL_GAMES]


# ----------------------------------------------------------------------------------------
# A slow reference model: points as coordinates, pieces in a dict, rules read off the row
# ----------------------------------------------------------------------------------------
FILES = "abcdefghi"


class Reference:
    """The rules files' move rules, per point and per piece, with no bitboards."""

    def __init__(self, game):
        r = self.rules = game.rules
        self.colours = game.colours
        if r.board == "alquerque":
            pts = {(x, y) for x in range(r.size) for y in range(r.size)}
            self.name = {(x, y): f"{FILES[x]}{y + 1}" for x, y in pts}
            self.dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
            self.has_line = lambda p, d: d[0] == 0 or d[1] == 0 or (p[0] + p[1]) % 2 == 0
        elif r.board == "harbagh":
            # grid points (2f, rank - 1) for odd ranks, centres (2f + 1, rank - 1) for even ranks
            pts = {(2 * f, y) for f in range(5) for y in range(0, 9, 2)}
            pts |= {(2 * f + 1, y) for f in range(4) for y in range(1, 9, 2)}
            self.name = {(x, y): f"{FILES[x // 2]}{y + 1}" for x, y in pts}
            self.dirs = [(2, 0), (-2, 0), (0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)]
            self.has_line = lambda p, d: d[0] % 2 == 1 or p[0] % 2 == 0
        else:
            pts = {(x, y) for x in range(7) for y in range(7) if 2 <= x <= 4 or 2 <= y <= 4}
            self.name = {(x, y): f"{FILES[x]}{y + 1}" for x, y in pts}
            self.dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
            pattern = r.lines
            self.has_line = lambda p, d: (d[0] == 0 or d[1] == 0 or pattern == "all"
                                          or (pattern == "alternating" and (p[0] + p[1]) % 2 == 0))
        self.points = pts
        self.top = max(y for _, y in pts)

    def step(self, p, d):
        q = (p[0] + d[0], p[1] + d[1])
        return q if q in self.points and self.has_line(p, d) else None

    def position(self, fen: str):
        side, *fields = fen.split(":")
        board = {}
        for field in fields:
            if field[0] not in self.colours:
                continue
            owner = self.colours.index(field[0])
            for item in filter(None, field[1:].split(",")):
                king = item[0] == "K"
                p = next(q for q, n in self.name.items() if n == item.lstrip("K"))
                board[p] = (owner, king)
        return board, self.colours.index(side)

    def moves(self, fen: str) -> set[str]:
        r = self.rules
        board, turn = self.position(fen)
        captures, steps = [], []
        forward = 1 if turn == 0 else -1
        for p, (owner, king) in board.items():
            if owner != turn:
                continue
            for d in self.dirs:
                if king:
                    q = self.step(p, d)
                    while q is not None and q not in board:
                        steps.append([p, q])
                        q = self.step(q, d)
                else:
                    kind = "any" if (r.hunt and turn == 1) else r.man_steps
                    dy = d[1] * forward
                    if kind == "any" or dy > 0 or (kind == "no-back" and dy == 0):
                        q = self.step(p, d)
                        if q is not None and q not in board:
                            steps.append([p, q])
            if not (r.hunt and turn == 0):
                rest = dict(board)
                del rest[p]
                self._jumps(rest, turn, king, [p], set(), None, captures)
        if r.choice == "max" and captures:
            best = max(len(c) for c in captures)
            captures = [c for c in captures if len(c) == best]
        out = {"x".join(self.name[q] for q in c) for c in captures}
        if not captures or not (r.capture == "compulsory" and not r.huff):
            out |= {"-".join(self.name[q] for q in s) for s in steps}
        return out

    def _jumps(self, board, turn, king, path, taken, last, out):
        """Extend the capture ``path``; ``taken`` the captured points (still on ``board`` under the strike)."""
        r = self.rules
        p = path[-1]
        promo_y = self.top if turn == 0 else 0
        found = False
        for d in self.dirs:
            if king and last is not None and not r.king_reverse and d == (-last[0], -last[1]):
                continue
            q = self.step(p, d)
            while king and q is not None and q not in board:
                q = self.step(q, d)
            if q is None or q not in board or board[q][0] == turn or q in taken:
                continue
            lands = []
            t = self.step(q, d)
            while t is not None and t not in board:
                lands.append(t)
                if not king:
                    break
                t = self.step(t, d)
            for t in lands:
                found = True
                after = dict(board)
                if r.removal == "immediate":
                    del after[q]
                route = path + [t]
                crowned_stop = not king and t[1] == promo_y and r.promotion == "stop"
                if crowned_stop or r.chain == "single":
                    out.append(route)
                    continue
                if r.chain == "optional":
                    out.append(route)
                    self._jumps(after, turn, king, route, taken | {q}, d, out)
                elif not self._jumps(after, turn, king, route, taken | {q}, d, out):
                    out.append(route)
        return found


def king_fen(game) -> str:
    """A king-rich position built from the start squares (kings where the game has them)."""
    side, *lists = game.new_state().fen().split(":")
    out = []
    for field in lists:
        items = field[1:].split(",")
        keep = items[:: max(1, len(items) // 4)][:4] if len(items) > 1 else items
        if game.promotion != "none":
            keep = [("K" + i) if k % 2 == 0 else i for k, i in enumerate(keep)]
        out.append(field[0] + ",".join(keep))
    return ":".join([side] + out)


@pytest.mark.parametrize("name,options", ALL_GAMES, ids=ALL_IDS)
def test_moves_match_the_reference_model(name, options):
    game = get_game(name, **options)
    ref = Reference(game)
    starts = [game.new_state(), game.parse_fen(king_fen(game))]
    for seed in range(6):
        for start_index, start in enumerate(starts):
            rng = random.Random(seed * 7 + start_index)
            state = start.copy()
            while state.outcome() is None:
                fen = state.fen()
                assert legal_strs(state) == ref.moves(fen), fen
                state.play(state.random_move(rng))


# ----------------------------------------------------------------------------------------
# Properties over seeded random games
# ----------------------------------------------------------------------------------------
def material(state, player: int) -> int:
    """``player``'s material as the heuristic counts it: men 1, kings 3."""
    pieces = state.pieces(player)
    return (pieces & ~state.kings).bit_count() + 3 * (pieces & state.kings).bit_count()


def material_gain(state, move) -> int:
    """What ``move`` changes in the balance of material for its mover, measured by playing it:
    the opponent's men and kings taken, less the mover's own huffed pieces, plus a crowning."""
    me, after = state.to_move, state.copy()
    after.play(move)
    return (material(after, me) - material(state, me)) - (material(after, 1 - me) - material(state, 1 - me))


def repetition_draw(game, state) -> bool:
    """A draw by repetition (which the FEN cannot carry: it has no history of positions)."""
    return state.drawn and state.quiet < game.no_progress and state.ply < game.max_plies


def check_state(game, state, rng):
    legal = state.legal_moves()
    fen = state.fen()
    again = check_fen_round_trip(game, state)
    if repetition_draw(game, state):
        assert again.outcome() is None and again.legal_moves(), fen
    else:
        assert set(again.legal_moves()) == set(legal), fen
        assert again.outcome() == state.outcome(), fen
    check_moves_read_back(state, legal)
    check_random_move(state, legal, rng)
    outcome = state.outcome()
    if legal:
        assert outcome is None
        assert 0.0 <= state.evaluate() <= 1.0
        for move in legal:
            assert state.is_capture(move) == bool(move[4])
            assert state.heuristic(move) == material_gain(state, move), (fen, state.move_str(move))
        check_copy_is_independent(state, legal[-1])
    else:
        assert outcome in (0.0, 0.5, 1.0)
        if outcome != 0.5:
            assert outcome == (0.0 if state.to_move == 0 else 1.0)   # the side to move lost


@pytest.mark.parametrize("name,options", ALL_GAMES, ids=ALL_IDS)
def test_random_game_invariants(name, options):
    game = get_game(name, **options)
    for seed in range(3):
        rng = random.Random(seed ^ 0x5EED)
        for state in random_game(game, seed, max_plies=game.rules.max_plies + 1):
            check_state(game, state, rng)


@pytest.mark.parametrize("name,options", ALL_GAMES, ids=ALL_IDS)
def test_playout_equals_random_move_loop(name, options):
    game = get_game(name, **options)
    for seed in range(5):
        check_playout_matches_loop(game.new_state(), seed)


def test_playout_cut_off_returns_none():
    check_playout_cut_off(get_game("zamma").new_state(), 3)


def test_draw_rules():
    """50 plies without a capture draw; the ply cap draws; the FEN carries both counters."""
    game = get_game("alquerque")
    state = game.parse_fen("W:Wa1:Be5:H49")
    assert state.outcome() is None
    state.play(state.parse_move("a1-b1"))
    assert state.outcome() == 0.5 and state.legal_moves() == [] and state.random_move(random.Random()) is None
    assert state.fen() == "B:Wb1:Be5:H50:N1"
    capped = game.parse_fen("W:Wa1:Be5:N399")
    capped.play(capped.parse_move("a1-a2"))
    assert capped.outcome() == 0.5
    # a crowning resets Zamma's counter (capture or promotion), not Alquerque's
    zamma = get_game("zamma").parse_fen("B:Ba8:Wi1:H30")
    zamma.play(zamma.parse_move("a8-a9"))
    assert zamma.quiet == 0 and zamma.fen() == "W:BKa9:Wi1:N1"
    # a blocked player loses even when the counter has run out
    blocked = game.parse_fen("B:Wa3,a4,b4,b5,c3,c5:Ba5:H50")
    assert blocked.outcome() == 1.0


def test_threefold_repetition_option():
    game = get_game("alquerque", repetition=3)
    state = game.parse_fen("W:Wa1:Be5")
    cycle = ["a1-a2", "e5-e4", "a2-a1", "e4-e5"]
    for text in cycle * 2:
        assert state.outcome() is None
        state.play(state.parse_move(text))
    assert state.outcome() == 0.5     # the start position for the third time
    assert repetition_draw(game, state)
    check_state(game, state, random.Random(1))   # its FEN reads back undrawn: no history in a FEN


def test_huff_removes_the_man_that_neglected_a_capture():
    game = get_game("alquerque", huff=True)
    state = game.parse_fen("W:Wa1,e1:Bb2,d4,a5")
    assert "e1-d1" in legal_strs(state) and "a1xc3xe5" in legal_strs(state)
    after = play_strs(state, "e1-d1")
    assert after.key() == game.parse_fen("B:Wd1:Bb2,d4,a5").key()   # a1 could capture: huffed
    moved = play_strs(state, "a1-a2")
    assert moved.key() == game.parse_fen("B:We1:Bb2,d4,a5").key()   # the mover itself is huffed


def test_a_king_keeps_its_crown_where_it_took_a_man():
    """With immediate removal a flying king may land where it took a man earlier in the chain:
    it stays a king there (a bug once demoted it), and the move's heuristic is the 3 men."""
    state = get_game("zamma", removal="immediate").parse_fen("B:BKa3:Wa4,b8,e4")
    move = state.parse_move("a3xa9xf4xa4")
    assert play_strs(state, "a3xa9xf4xa4").fen() == "W:BKa4:W:N1"
    assert state.heuristic(move) == 3


@pytest.mark.parametrize("fen,step,value", [("B:Ba3:Wa4", "a3-b3", -1), ("B:BKa1:Wa5", "a1-a2", -3),
                                            ("B:Bb8:Wc8", "b8-a9", -1)])
def test_a_huffed_mover_costs_what_it_was(fen, step, value):
    """A huffed man or king that moves is lost at its value before the move, and a man huffed
    on its crowning square gains nothing from the crown."""
    state = get_game("zamma", huff="yes").parse_fen(fen)
    assert state.heuristic(state.parse_move(step)) == value
    assert play_strs(state, step).pieces(0) == 0


def test_geese_variants_and_fox_start():
    assert get_game("fox-and-geese", geese=15).new_state().fen() == "G:Gc1,d1,e1,c2,d2,e2,a3,b3,c3,d3,e3,f3,g3,a4,g4:Fd4"
    assert get_game("fox-and-geese", geese="french").new_state().pieces(0).bit_count() == 17
    assert get_game("fox-and-geese", geese="17").options["geese"] == "british"
    assert get_game("fox-and-geese", fox_start="d7").new_state().fen().endswith(":Fd7")


# ----------------------------------------------------------------------------------------
# Perft, uniform random moves, evaluation, options and bad input
# ----------------------------------------------------------------------------------------
PERFT = ALQUERQUE_PERFT
TREE_DEPTH = {"alquerque": 6, "zamma": 5, "harbagh": 5, "fox-and-geese": 2}


@pytest.mark.parametrize("name", NAMES)
def test_perft_from_start(name):
    game = get_game(name)
    state = game.new_state()
    counts = [game.perft(state, d) for d in range(1, len(PERFT[name]) + 1)]
    assert counts == PERFT[name]
    # the raw-mask perft agrees with the generic walk over states
    assert counts[3] == super(type(game), game).perft(state, 4)


@pytest.mark.parametrize("name", NAMES)
def test_every_node_near_the_start_matches_the_reference_model(name):
    """The whole tree of the first plies, node by node, against the reference model."""
    game = get_game(name)
    ref = Reference(game)

    def walk(state, depth):
        assert legal_strs(state) == ref.moves(state.fen()), state.fen()
        if depth:
            for move in state.legal_moves():
                child = state.copy()
                child.play(move)
                walk(child, depth - 1)

    walk(game.new_state(), TREE_DEPTH[name])


@pytest.mark.parametrize("name,fen", [("fox-and-geese", "F:Gd4,e5,c5:Fc4"), ("zamma", None),
                                      ("harbagh", "B:BKc5,a1:Wc3,c7,e9")])
def test_random_move_is_uniform(name, fen):
    game = get_game(name)
    state = game.new_state() if fen is None else game.parse_fen(fen)
    legal = state.legal_moves()
    rng = random.Random(7)
    freq = dict.fromkeys(legal, 0)
    draws = 4000 * len(legal)
    for _ in range(draws):
        freq[state.random_move(rng)] += 1
    expected = draws / len(legal)
    worst = max(abs(f - expected) for f in freq.values())
    assert worst < 5 * math.sqrt(expected), freq


def test_evaluate_scores_material_and_the_trapped_fox():
    alq = get_game("alquerque")
    assert alq.new_state().evaluate() == 0.5
    assert alq.parse_fen("W:Wa1,b1:Be5").evaluate() == pytest.approx(2 / 3)
    fox = get_game("fox-and-geese")
    trapped = fox.parse_fen("F:Gc7,e7,c6,d6,e6,b5,d5,f5,c1,d1,e1,c2,d2:Fd7")
    free = fox.parse_fen("F:Gc1,d1,e1,c2,d2,e2,a3,b3,c3,d3,e3,f3,g3:Fd5")
    few = fox.parse_fen("F:Gc1,d1,e1:Fd5")
    assert trapped.evaluate() > free.evaluate() > few.evaluate()


def test_board_text_shows_pieces_and_side():
    text = get_game("harbagh").new_state().board_text()
    assert text.splitlines()[0].startswith(" 9 w   w")
    assert "B (first player) to move" in text
    assert "f" in get_game("fox-and-geese").new_state().board_text()


@pytest.mark.parametrize("name", NAMES)
def test_options_from_the_rules_string(name):
    game = get_game(name, **parse_rule_options("no-progress=30,max_plies=0,repetition=3"))
    assert game.options["no_progress"] == 30 and game.options["max_plies"] == 0
    assert game.options["repetition"] == 3
    assert set(game.options) >= {"capture", "chain", "choice", "removal", "promotion", "huff"}


@pytest.mark.parametrize("name,options,needle", [
    ("alquerque", {"colour": "red"}, "colour"),
    ("alquerque", {"geese": "13"}, "geese"),
    ("zamma", {"removal": "later"}, "later"),
    ("harbagh", {"huff": "maybe"}, "maybe"),
    ("harbagh", {"no_progress": "-3"}, "no_progress"),
    ("fox-and-geese", {"lines": "hex"}, "hex"),
    ("fox-and-geese", {"geese": "12"}, "12"),
    ("fox-and-geese", {"fox_start": "a1"}, "a1"),
    ("fox-and-geese", {"fox_start": "d3"}, "d3"),
    ("alquerque", {"repetition": "1"}, "repetition"),
])
def test_bad_options(name, options, needle):
    with pytest.raises(BadOption, match=needle):
        get_game(name, **options)


@pytest.mark.parametrize("name,fen,needle", [
    ("alquerque", "", "side to move"),
    ("alquerque", "X:Wa1:Be5", "side to move"),
    ("alquerque", "W:Wa1:Bf5", "f5"),
    ("alquerque", "W:Wa1,a1:Be5", "a1"),
    ("alquerque", "W:WKa1:Be5", "no kings"),
    ("alquerque", "W:Wa1:Be5:Ra1", "Ra1"),
    ("alquerque", "W:Wa1:Wb1", "twice"),
    ("alquerque", "W:Wa1:Be5:Hx", "Hx"),
    ("harbagh", "B:Be2:Wa1", "e2"),
    ("fox-and-geese", "G:Ga1:Fd4", "a1"),
    ("fox-and-geese", "W:Ga3:Fd4", "side to move"),
])
def test_bad_fens(name, fen, needle):
    with pytest.raises(BadPosition, match=needle):
        get_game(name).parse_fen(fen)


@pytest.mark.parametrize("name,fen,text,needle", [
    ("alquerque", None, "", "notation"),
    ("alquerque", None, "b2c3", "notation"),
    ("alquerque", None, "b2-z9", "z9"),
    ("alquerque", None, "a1-a2", "illegal"),
    ("alquerque", "W:Wa1,e1:Bb2,d4,a5", "e1-e2", "compulsory"),
    ("alquerque", "B:Wa3,a4,b4,b5,c3,c5:Ba5", "a5-a4", "over"),
    ("harbagh", None, "e2-c5", "e2"),
    ("fox-and-geese", None, "d4-d5", "illegal"),
])
def test_bad_moves(name, fen, text, needle):
    game = get_game(name)
    state = game.new_state() if fen is None else game.parse_fen(fen)
    with pytest.raises(IllegalMove, match=needle):
        state.parse_move(text)


def test_short_capture_forms_and_ambiguity():
    """``fromxto`` names a capture when one route fits; several routes raise AmbiguousMove."""
    from mcts_engine.rules import AmbiguousMove
    game = get_game("alquerque")
    state = game.parse_fen("W:Wa1,e1:Bb2,d4,a5")
    assert state.move_str(state.parse_move("a1xe5")) == "a1xc3xe5"
    assert state.move_str(state.parse_move("a1-c3-e5")) == "a1xc3xe5"
    # two routes from c1 around the square b2-c2 / d2-c3... : c1xa3xc5 and c1xe3xc5
    two = game.parse_fen("W:Wc1:Bb2,d2,b4,d4")
    assert legal_strs(two) == {"c1xa3xc5xe3xc1", "c1xe3xc5xa3xc1"}
    with pytest.raises(AmbiguousMove) as err:
        two.parse_move("c1xc1")
    assert len(err.value.candidates) == 2


# ----------------------------------------------------------------------------------------
# The line boards of geometry.py
# ----------------------------------------------------------------------------------------
def test_line_boards():
    from mcts_engine.rules.geometry import alquerque_board, cross_board, harbagh_board

    def around(board, name):
        index = next(i for i, n in board.names.items() if n == name)
        return {board.names[j] for j in board.neighbours(index)}

    alq = alquerque_board(5)
    assert len(alq.names) == 25
    assert around(alq, "b1") == {"a1", "c1", "b2"}                 # a weak point: no diagonals
    assert around(alq, "a1") == {"b1", "a2", "b2"}
    harbagh = harbagh_board()
    assert len(harbagh.names) == 41
    assert around(harbagh, "a1") == {"b1", "a3", "a2"}
    assert around(harbagh, "b4") == {"b3", "c3", "b5", "c5"}       # a centre: its cell's corners
    assert around(harbagh, "c5") == {"b5", "d5", "c3", "c7", "b4", "c4", "b6", "c6"}
    cross = cross_board()
    assert len(cross.names) == 33
    assert around(cross, "c6") == {"b5", "c5", "d5", "d6", "c7", "d7"}   # the notch diagonal c6-b5
    assert around(cross_board(pattern="alternating"), "c6") == {"c5", "d6", "c7"}
    assert around(cross_board(pattern="orthogonal"), "d4") == {"c4", "e4", "d3", "d5"}
