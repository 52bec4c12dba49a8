"""Fanorona (../shared/rules/fanorona.md): the worked examples, the rule options, draws,
a slow per-point reference move generator, properties over seeded random games, bad
input, and the command line."""
from __future__ import annotations

import json
import math
import random

import pytest
from click.testing import CliRunner
from support import (check_copy_is_independent, check_fen_round_trip, check_moves_read_back, check_playout_cut_off,
                      check_playout_matches_loop, check_random_move, check_random_move_uniform, random_game)

from mcts_engine.cli import main
from mcts_engine.rules import get_game, parse_rule_options
from mcts_engine.rules.base import AmbiguousMove, BadOption, BadPosition, IllegalMove
from mcts_engine.rules.fanorona import START_FEN
from mcts_engine.rules.geometry import indices

GAME = get_game("fanorona")
FILES = "abcdefghi"


def board_fen(white: str, black: str, side: str = "w", quiet: int = 0, ply: int = 10) -> str:
    """A FEN from space-separated point lists (ply 10: past the first turns)."""
    grid = {}
    for colour, names in (("W", white), ("B", black)):
        for name in names.split():
            grid[(FILES.index(name[0]), int(name[1:]))] = colour
    ranks = []
    for rank in range(5, 0, -1):
        text, run = "", 0
        for col in range(9):
            ch = grid.get((col, rank))
            if ch:
                text += (str(run) if run else "") + ch
                run = 0
            else:
                run += 1
        ranks.append(text + (str(run) if run else ""))
    return f"{'/'.join(ranks)} {side} {quiet} {ply}"


def names(mask: int) -> set[str]:
    return {GAME.name_of[i] for i in indices(mask)}


def move_table(state) -> dict[str, set[str]]:
    """Every legal move's text and the stones it captures."""
    return {state.move_str(m): names(m[2]) for m in state.legal_moves()}


def after(state, *moves: str):
    state = state.copy()
    for text in moves:
        state.play(state.parse_move(text))
    return state


# --- the worked examples (fanorona.md §10), one test each ------------------------------------------

EX2_MOVES = {
    "d4-c3(A)": "b2 a1",
    "d4-c3(A)-d3(A)": "b2 a1 e3",
    "d4-c3(A)-d3(W)": "b2 a1 b3",
    "d4-d3(A)": "d2 d1",
    "d4-d3(A)-c3(A)": "d2 d1 b3",
    "d4-d3(A)-c3(A)-d2(A)": "d2 d1 b3 e1",
    "d4-d3(A)-c3(W)": "d2 d1 e3",
    "d4-d3(A)-c3(W)-d2(A)": "d2 d1 e3 e1",
    "d4-d3(A)-c3(W)-d2(A)-e3(W)": "d2 d1 e3 e1 c1",
    "c4-c3(A)": "c2 c1",
    "c4-c3(A)-d3(A)": "c2 c1 e3",
    "c4-c3(A)-d3(W)": "c2 c1 b3",
    "b4-c3(A)": "d2 e1",
    "b4-c3(A)-d3(A)": "d2 e1 e3",
    "b4-c3(A)-d3(A)-d2(A)": "d2 e1 e3 d1",
    "b4-c3(A)-d3(A)-d2(A)-e3(W)": "d2 e1 e3 d1 c1",
    "b4-c3(A)-d3(W)": "d2 e1 b3",
    "b4-c3(A)-d3(W)-d2(A)": "d2 e1 b3 d1",
}
EX2_FEN = board_fen("a1 b1 c1 d1 e1 f1 g1 h1 i1 a2 b2 c2 d2 e2 f2 g2 h2 i2 b3 e3 g3 i3",
                    "a4 b4 c4 d4 e4 f4 g4 h4 i4 a5 b5 c5 d5 e5 f5 g5 h5 i5 a3 f3 h3", "b", ply=1)

EXAMPLES = [
    # (id, start: a FEN or None for the start position, moves played first, expected moves)
    ("1-opening", None, (), {"f2-e3(A)": "d4 c5", "e2-e3(A)": "e4 e5", "d2-e3(A)": "f4 g5",
                             "d3-e3(A)": "f3", "d3-e3(W)": "c3"}),
    ("2-reply", None, ("d3-e3(W)",), EX2_MOVES),
    ("2-position", EX2_FEN, (), EX2_MOVES),
    ("3-same-direction", board_fen("c3", "b3 f3"), (), {"c3-d3(W)": "b3"}),
    ("3-reply", board_fen("c3", "b3 f3"), ("c3-d3(W)",), {"f3-e3(A)": "d3"}),
    ("4-no-revisit", board_fen("c3", "b3 b4 d1"), (),
     {"c3-d3(W)": "b3", "c3-d3(W)-d2(A)": "b3 d1", "c3-d2(W)": "b4", "c3-d2(W)-d3(W)": "b4 d1"}),
]


@pytest.mark.parametrize("start,played,expected", [e[1:] for e in EXAMPLES], ids=[e[0] for e in EXAMPLES])
def test_worked_example(start, played, expected):
    state = after(GAME.new_state() if start is None else GAME.parse_fen(start), *played)
    assert move_table(state) == {m: set(c.split()) for m, c in expected.items()}
    assert state.outcome() is None


def test_example_1_start_position():
    state = GAME.new_state()
    assert state.fen() == START_FEN == "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w 0 0"
    assert state.to_move == 0 and GAME.colours == ("W", "B")
    assert state.white.bit_count() == state.black.bit_count() == 22
    assert all(state.move_str(m).endswith("e3(A)") or state.move_str(m).endswith("e3(W)")
               for m in state.legal_moves())


def test_example_2_position_is_reached_by_d3_e3_w():
    reached = after(GAME.new_state(), "d3-e3(W)")
    assert reached.key() == GAME.parse_fen(EX2_FEN).key()


def test_example_3_the_reply_line_stops_at_the_empty_c3():
    state = after(GAME.parse_fen(board_fen("c3", "b3 f3")), "c3-d3(W)", "f3-e3(A)")
    assert names(state.white) == set() and names(state.black) == {"e3"}
    assert state.legal_moves() == [] and state.outcome() == 0.0   # White has no stone: Black wins


# --- the rule options (§9) ---------------------------------------------------------------------------

def test_compulsory_chain_lists_only_maximal_chains():
    game = get_game("fanorona", chain="compulsory")
    state = after(game.new_state(), "d3-e3(W)")
    maximal = {m for m in EX2_MOVES if not any(o != m and o.startswith(m + "-") for o in EX2_MOVES)}
    assert set(move_table(state)) == maximal
    assert len(maximal) == 8


def test_first_turn_single_capture_only_black_first_turn_changes():
    game = get_game("fanorona", **parse_rule_options("first_turn_single_capture=true"))
    assert set(move_table(game.new_state())) == set(move_table(GAME.new_state()))
    state = after(game.new_state(), "d3-e3(W)")
    assert set(move_table(state)) == {"d4-c3(A)", "d4-d3(A)", "c4-c3(A)", "b4-c3(A)"}
    later = game.parse_fen(EX2_FEN.replace(" 1", " 3"))   # the same board at ply 3: chains again
    assert set(move_table(later)) == set(EX2_MOVES)


def test_dagaz_removal_cannot_reenter_a_point_emptied_by_a_line():
    # c2-c3 approaches c4 and takes the line c4 c5; then c3-d4 (approach e5), then d4-c5
    # (withdrawal from e3) enters c5, which Dagaz still sees as occupied.
    fen = board_fen("c2", "c4 c5 e5 e3")
    chain = "c2-c3(A)-d4(A)-c5(W)"
    assert move_table(GAME.parse_fen(fen))[chain] == {"c4", "c5", "e5", "e3"}
    dagaz = get_game("fanorona", removal="dagaz").parse_fen(fen)
    assert chain not in move_table(dagaz)
    assert move_table(dagaz)["c2-c3(A)-d4(A)"] == {"c4", "c5", "e5"}


def test_options_are_reported_and_checked():
    assert GAME.options == {"chain": "optional", "first_turn_single_capture": False, "removal": "immediate",
                            "no_capture_plies": 50, "max_plies": 400}
    game = get_game("fanorona", **parse_rule_options("chain=compulsory,no-capture-plies=10,max_plies=0"))
    assert game.options["chain"] == "compulsory" and game.options["no_capture_plies"] == 10
    for bad in ({"chain": "sometimes"}, {"removal": "late"}, {"first_turn_single_capture": "maybe"},
                {"max_plies": "-1"}, {"no_capture_plies": "x"}, {"vela": "yes"}):
        with pytest.raises(BadOption, match=str(list(bad.values())[0]) if "vela" not in bad else "vela"):
            get_game("fanorona", **bad)


# --- end of game and draws (§6, §7) ----------------------------------------------------------------

def test_no_capture_draw_after_50_quiet_plies():
    fen = board_fen("a1", "i5", quiet=49, ply=100)
    state = GAME.parse_fen(fen)
    assert state.outcome() is None and len(state.legal_moves()) == 3
    state.play(state.legal_moves()[0])
    assert state.quiet == 50 and state.outcome() == 0.5
    assert state.legal_moves() == [] and state.random_move(random.Random(1)) is None
    assert state.fen().endswith(" 50 101")
    assert get_game("fanorona", no_capture_plies=0).parse_fen(state.fen()).outcome() is None


def test_capture_resets_the_quiet_count_and_ply_cap_draws():
    state = GAME.parse_fen(board_fen("c3", "b3 f3 i5", quiet=49, ply=20))
    state.play(state.parse_move("c3-d3(W)"))
    assert state.quiet == 0 and state.outcome() is None
    capped = GAME.parse_fen(board_fen("a1", "i5", ply=399))
    assert capped.outcome() is None
    capped.play(capped.legal_moves()[0])
    assert capped.outcome() == 0.5
    assert get_game("fanorona", max_plies=0).parse_fen(capped.fen()).outcome() is None


def test_a_side_without_a_move_loses():
    # White's a1 is hemmed in by Black's stones, with nothing to capture
    blocked = GAME.parse_fen(board_fen("a1", "a2 b2 b1 a3 b3 c1 c2 c3", side="w"))
    assert blocked.legal_moves() == [] and blocked.outcome() == 0.0
    no_white = GAME.parse_fen(board_fen("", "e3", side="w"))
    assert no_white.legal_moves() == [] and no_white.outcome() == 0.0
    no_black = GAME.parse_fen(board_fen("e3", "", side="b"))
    assert no_black.legal_moves() == [] and no_black.outcome() == 1.0


def test_paika_only_without_a_capture_anywhere():
    state = GAME.parse_fen(board_fen("a1 i1", "i3"))   # i1-i2 approaches i3: no paika at all
    assert set(move_table(state)) == {"i1-i2(A)"}
    quiet = GAME.parse_fen(board_fen("a1", "i5"))
    assert set(move_table(quiet)) == {"a1-b1", "a1-a2", "a1-b2"}   # a1 is strong: a diagonal
    weak = GAME.parse_fen(board_fen("b1", "i5"))
    assert set(move_table(weak)) == {"b1-a1", "b1-c1", "b1-b2"}     # b1 is weak: no diagonal


# --- a slow reference generator, written from the rules text, point by point -----------------------

DIRS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr]


def ref_line(p, d) -> tuple | None:
    """The point one step from p along d, if the board has that line."""
    (c, r), (dc, dr) = p, d
    q = (c + dc, r + dr)
    if not (0 <= q[0] < 9 and 1 <= q[1] <= 5):
        return None
    if dc and dr and (c + 1 + r) % 2:   # diagonals only through strong points (a = 1)
        return None
    return q


def ref_moves(board: dict, me: str, ply: int, chain="optional", single_first=False, dagaz=False) -> set:
    """Every legal move as (text, captured names) straight from fanorona.md §3-§4."""
    foe = "B" if me == "W" else "W"
    name = lambda p: f"{FILES[p[0]]}{p[1]}"
    out = set()

    def run(b, first, d, start_board):
        line, p = [], first
        while p is not None and (start_board if dagaz else b).get(p) == foe:
            line.append(p)
            p = ref_line(p, d)
        return line

    def steps(b, p, visited, last):
        for d in DIRS:
            q = ref_line(p, d)
            if q is None or q in visited or b.get(q) or d == last:
                continue
            beyond = ref_line(q, d)
            if beyond is not None and b.get(beyond) == foe:
                yield q, d, "A", beyond, d
            back = (-d[0], -d[1])
            behind = ref_line(p, back)
            if behind is not None and b.get(behind) == foe:
                yield q, d, "W", behind, back

    def extend(b, p, visited, last, text, taken, start_board, depth):
        found = False
        for q, d, kind, first, away in steps(b, p, visited, last):
            found = True
            line = run(b, first, away, start_board)
            nb = dict(b)
            del nb[p]
            nb[q] = me
            for x in (line if not dagaz else [first]):
                del nb[x]
            t, cap = f"{text}-{name(q)}({kind})", taken | {name(x) for x in line}
            more = False
            if not (single_first and ply < 2):
                more = extend(nb, q, visited | {q}, d, t, cap, start_board, depth + 1)
            if chain == "optional" or not more:
                out.add((t, frozenset(cap)))
        return found

    for p, v in list(board.items()):
        if v == me:
            extend(board, p, {p}, None, name(p), frozenset(), board, 0)
    if out:
        return out
    for p, v in board.items():
        if v == me:
            for d in DIRS:
                q = ref_line(p, d)
                if q is not None and not board.get(q):
                    out.add((f"{name(p)}-{name(q)}", frozenset()))
    return out


def ref_board(state) -> dict:
    b = {}
    for colour, mask in (("W", state.white), ("B", state.black)):
        for i in indices(mask):
            r, c = divmod(i, 10)
            b[(c, r + 1)] = colour
    return b


def fast_moves(state) -> set:
    return {(state.move_str(m), frozenset(names(m[2]))) for m in state.legal_moves()}


def check_against_reference(game, state, **ref_options):
    want = ref_moves(ref_board(state), "WB"[state.to_move], state.ply, **ref_options)
    assert fast_moves(state) == want, state.fen()


def random_board(rng: random.Random) -> str:
    points = [f"{f}{r}" for f in FILES for r in range(1, 6)]
    rng.shuffle(points)
    nw, nb = rng.randint(0, 12), rng.randint(0, 12)
    return board_fen(" ".join(points[:nw]), " ".join(points[nw:nw + nb]), rng.choice("wb"), ply=rng.randint(0, 3))


REF_OPTIONS = [({}, {}), ({"chain": "compulsory"}, {"chain": "compulsory"}),
               ({"first_turn_single_capture": "true"}, {"single_first": True}),
               ({"removal": "dagaz"}, {"dagaz": True})]


@pytest.mark.parametrize("options,ref_options", REF_OPTIONS, ids=["default", "compulsory", "first-turn", "dagaz"])
def test_generator_matches_reference(options, ref_options):
    game = get_game("fanorona", **options)
    rng = random.Random(7)
    for _ in range(150):
        check_against_reference(game, game.parse_fen(random_board(rng)), **ref_options)
    for seed in range(12):
        state, grng = game.new_state(), random.Random(seed)
        while (move := state.random_move(grng)) is not None:
            check_against_reference(game, state, **ref_options)
            state.play(move)


def test_every_first_move_reply_matches_reference():
    start = GAME.new_state()
    for move in start.legal_moves():
        child = start.copy()
        child.play(move)
        check_against_reference(GAME, child)


def ref_perft(board: dict, me: str, ply: int, depth: int, **options) -> int:
    if depth == 0:
        return 1
    moves = ref_moves(board, me, ply, **options)
    if depth == 1:
        return len(moves)
    total = 0
    for text, cap in moves:
        points = [(FILES.index(p[0]), int(p[1])) for p in text.replace("(A)", "").replace("(W)", "").split("-")]
        b = dict(board)
        for c in cap:   # first: the stone may end on a point it emptied by a capture
            del b[(FILES.index(c[0]), int(c[1:]))]
        del b[points[0]]
        b[points[-1]] = me
        total += ref_perft(b, "B" if me == "W" else "W", ply + 1, depth - 1, **options)
    return total


def test_perft_from_the_start_matches_reference():
    assert [GAME.perft(GAME.new_state(), d) for d in range(5)] == [1, 5, 39, 724, 18026]
    assert ref_perft(ref_board(GAME.new_state()), "W", 0, 4) == 18026
    assert GAME.perft(GAME.parse_fen(EX2_FEN), 2) == ref_perft(ref_board(GAME.parse_fen(EX2_FEN)), "B", 1, 2)
    compulsory = get_game("fanorona", chain="compulsory")
    assert [compulsory.perft(compulsory.new_state(), d) for d in range(4)] == [1, 5, 21, 223]
    assert ref_perft(ref_board(GAME.new_state()), "W", 0, 3, chain="compulsory") == 223


@pytest.mark.slow
def test_perft_5_matches_reference():
    assert GAME.perft(GAME.new_state(), 5) == 431852
    assert ref_perft(ref_board(GAME.new_state()), "W", 0, 5) == 431852


# --- properties over seeded random games -------------------------------------------------------------

def check_state(game, state, rng):
    legal = state.legal_moves()
    fen = state.fen()
    again = check_fen_round_trip(game, state)
    assert again.legal_moves() == legal and again.outcome() == state.outcome()
    check_moves_read_back(state, legal)
    outcome = state.outcome()
    if legal:
        assert outcome is None, fen
    else:
        assert outcome in (0.0, 0.5, 1.0), fen
        if outcome != 0.5:
            assert outcome == (0.0 if state.to_move == 0 else 1.0), fen
    check_random_move(state, legal, rng)
    if legal:
        check_copy_is_independent(state, legal[-1])
        assert 0.0 <= state.evaluate() <= 1.0
        assert state.is_capture(legal[-1]) == (state.heuristic(legal[-1]) > 0)


PROPERTY_GAMES = [("default", {}), ("compulsory", {"chain": "compulsory"}), ("dagaz", {"removal": "dagaz"}),
                  ("short-draws", {"no_capture_plies": 6, "max_plies": 60, "first_turn_single_capture": True}),
                  ("ply-cap", {"max_plies": 24})]


@pytest.mark.parametrize("options", [o for _, o in PROPERTY_GAMES], ids=[i for i, _ in PROPERTY_GAMES])
def test_random_game_invariants(options):
    game = get_game("fanorona", **options)
    rng = random.Random(99)
    ended = []
    for seed in range(25):
        # from the start, and from a sparse random board (long paika walks reach the draw rules)
        for start in (game.new_state(), game.parse_fen(random_board(random.Random(seed)))):
            for state in random_game(game, seed, start, max_plies=500):
                check_state(game, state, rng)
            ended.append(state.outcome())
    assert {0.0, 1.0} <= set(ended)


@pytest.mark.parametrize("seed", range(8))
def test_playout_equals_random_move_loop(seed):
    for start in (GAME.new_state(), GAME.parse_fen(EX2_FEN), GAME.parse_fen(board_fen("a1 c3", "g5 i5 e3"))):
        check_playout_matches_loop(start, seed)
    check_playout_cut_off(GAME.new_state(), 2)


@pytest.mark.parametrize("fen", [EX2_FEN, board_fen("a1 e3 h2", "i5 a5")], ids=["captures", "paikas"])
def test_random_move_is_uniform(fen):
    check_random_move_uniform(GAME.parse_fen(fen), 12_000, 11)


# --- notation and bad input ----------------------------------------------------------------------------

def test_short_forms_and_long_form():
    state = GAME.new_state()
    with pytest.raises(AmbiguousMove) as err:
        state.parse_move("d3-e3")
    assert sorted(err.value.candidates) == ["d3-e3(A)", "d3-e3(W)"]
    assert state.move_str(state.parse_move("F2-E3")) == "f2-e3(A)"
    reply = after(state, "d3-e3(W)")
    move = reply.parse_move("d4-d3-c3(W)-d2-e3")
    assert reply.move_str(move) == "d4-d3(A)-c3(W)-d2(A)-e3(W)"
    assert reply.long_str(move) == "d4 - d3 - c3 - d2 - e3 x d2 x d1 x e3 x e1 x c1"
    assert reply.long_str(reply.parse_move("c4-c3(A)")) == "c4 - c3 x c2 x c1"


@pytest.mark.parametrize("text", ["", "e3", "d3-e3(X)", "d3(A)-e3", "z9-e3", "d3--e3", "d3-e3(A)(W)",
                                  "a1-a2", "d3-e3(A)-e4(A)", "f2-e3(W)", "0000"])
def test_bad_moves_raise_illegal_move_naming_the_text(text):
    with pytest.raises(IllegalMove) as err:
        GAME.new_state().parse_move(text)
    assert repr(text) in str(err.value)


def test_no_move_after_the_end():
    with pytest.raises(IllegalMove, match="game is over"):
        GAME.parse_fen(board_fen("", "e3")).parse_move("e3-e4")


@pytest.mark.parametrize("fen,why", [
    ("", "expected"), ("9/9/9/9 w", "4 ranks"), ("9/9/9/9/9 x", "'x'"), ("9/9/9/9/8 w", "8 points"),
    ("9/9/9/9/9X w", "'X'"), ("9/9/9/9/WWWWWWWWWW w", "10 points"), ("9/9/9/9/9 w -1 0", "'-1'"),
    ("9/9/9/9/9 w 0 z", "'z'"), ("9/9/9/9/9 w 0 0 0", "expected"), ("9/9/90/9/9 w", "'0'"),
    ("WWWWWWWWW/WWWWWWWWW/WWWWW4/9/9 w", "23 stones")])
def test_bad_fens_raise_bad_position(fen, why):
    with pytest.raises(BadPosition) as err:
        GAME.parse_fen(fen)
    assert why in str(err.value)


def test_fen_defaults_and_display():
    state = GAME.parse_fen("9/9/4W4/9/8B b")
    assert state.fen() == "9/9/4W4/9/8B b 0 0" and state.to_move == 1
    assert names(state.white) == {"e3"} and names(state.black) == {"i1"}
    text = GAME.new_state().board_text()
    assert text.splitlines()[4] == "3  B---W---B---W---.---B---W---B---W"
    assert text.splitlines()[1] == "   | \\ | / | \\ | / | \\ | / | \\ | / |"
    assert GAME.new_state().evaluate() == 0.5
    # three stones against one: balance 2, slope 0.5 * sqrt(44 / 4)
    assert GAME.parse_fen(board_fen("a1 b1 c1", "i5")).evaluate() == pytest.approx(1 / (1 + math.exp(-11 ** 0.5)))
    assert GAME.parse_fen(board_fen("i5", "a1 b1 c1")).evaluate() == pytest.approx(1 / (1 + math.exp(11 ** 0.5)))


# --- the command line ---------------------------------------------------------------------------------

def test_cli_perft_and_bench():
    runner = CliRunner()
    result = runner.invoke(main, ["perft", "fanorona", "3"])
    assert result.exit_code == 0 and result.output.strip().splitlines()[-1] == "nodes 724"
    result = runner.invoke(main, ["perft", "fanorona", "2", "--fen", EX2_FEN, "--divide"])
    assert result.exit_code == 0 and "d4-d3(A)-c3(W)-d2(A)-e3(W)" in result.output
    result = runner.invoke(main, ["perft", "fanorona", "2", "--rules", "chain=compulsory"])
    assert result.exit_code == 0 and result.output.strip().splitlines()[-1] == "nodes 21"
    result = runner.invoke(main, ["bench", "--game", "fanorona", "--seconds", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)["games"][0]
    assert row["game"] == "fanorona" and row["playouts"]["playouts"] >= 1 and row["perft"]["leaves"] > 0
