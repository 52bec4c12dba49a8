"""The lidraughts and Hub variants: Frysk!, Antidraughts, Breakthrough and Killer draughts.

Each is a row of the draughts table (``rules/draughts/variants.py``) that changes one or two
parameters of International or Frisian draughts; their rules are in docs/games.md.
Here: the worked examples of those notes, start perft against pydraughts (live at a
small depth; the deeper figures in ``PYDRAUGHTS_PERFT`` were measured with pydraughts
0.6.7 and are compared with ours), and Killer's landing rule against a reference
written from the rule's text on top of International's capture sequences.
"""
from __future__ import annotations

import random

import pytest

from support import require
from mcts_engine.rules import get_game

# pydraughts 0.6.7's start perft (its own variant names), measured by walking
# Board.legal_moves / push / pop; depth 6 takes pydraughts minutes, so it is recorded here
PYDRAUGHTS_PERFT = {
    "frysk": ("frysk!", [9, 81, 657, 5329, 41829, 328329]),
    "antidraughts": ("antidraughts", [9, 81, 658, 4265, 27117, 167140]),
    "breakthrough": ("breakthrough", [9, 81, 658, 4265, 27117, 167140]),
}
LIVE_DEPTH = {"frysk": 4, "antidraughts": 3, "breakthrough": 3}     # a few seconds of pydraughts


@pytest.mark.parametrize("name", sorted(PYDRAUGHTS_PERFT))
def test_start_perft_equals_pydraughts_figures(name):
    game = get_game(name)
    counts = PYDRAUGHTS_PERFT[name][1]
    assert [game.perft(game.new_state(), d) for d in range(1, len(counts) + 1)] == counts


def pydraughts_perft(board, depth: int) -> int:
    """pydraughts' own leaf count (one move per route; from the start positions routes = moves)."""
    if depth == 0:
        return 1
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += pydraughts_perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize("name", sorted(PYDRAUGHTS_PERFT))
def test_start_perft_against_pydraughts_live(name):
    draughts = require("draughts", "pydraughts is not installed (pip install pydraughts)", attribute="Board")
    variant, counts = PYDRAUGHTS_PERFT[name]
    depth = LIVE_DEPTH[name]
    assert pydraughts_perft(draughts.Board(variant=variant), depth) == counts[depth - 1]


def test_killer_start_perft_is_international():
    """No king can appear in six plies, so Killer's start perft is International's."""
    killer, international = get_game("killer"), get_game("international")
    assert [killer.perft(killer.new_state(), d) for d in range(1, 6)] == \
        [international.perft(international.new_state(), d) for d in range(1, 6)]


# --- Frysk! ---------------------------------------------------------------------------------------

def test_frysk_is_frisian_with_five_men():
    game = get_game("frysk")
    assert game.new_state().fen() == "W:W46,47,48,49,50:B1,2,3,4,5"
    assert get_game("frysk!") is game                       # pydraughts' and lidraughts' spelling
    # Frisian's rules: a man captures orthogonally too (47 over 37 to 27: two rows up, same file)
    state = game.parse_fen("W:W47:B37")
    assert [state.move_str(m) for m in state.legal_moves()] == ["47x27"]


# --- Antidraughts ---------------------------------------------------------------------------------

def test_antidraughts_a_player_without_a_move_wins():
    anti, intl = get_game("antidraughts"), get_game("international")
    blocked = "W:W46:B41,37"               # White's man on 46 can neither step nor capture
    assert anti.parse_fen(blocked).outcome() == 1.0 and intl.parse_fen(blocked).outcome() == 0.0
    assert anti.parse_fen("B:W28:B").outcome() == 0.0           # Black has no piece left: Black wins
    # captures stay compulsory, majority rule included: 28x19x8 (taking 23 and 13) is the only move
    state = anti.parse_fen("W:W28,40:B23,13")
    assert [state.move_str(m) for m in state.legal_moves()] == ["28x8"]


def test_antidraughts_playouts_and_evaluation_follow_the_goal():
    game = get_game("antidraughts")
    state = game.parse_fen("W:W28,33,39:B3")               # White has more material: worse here
    assert state.evaluate() < 0.5
    rng = random.Random(3)
    results = {game.parse_fen("W:W46:B41,37").playout(rng) for _ in range(3)}
    assert results == {1.0}                                 # the blocked side to move has won


# --- Breakthrough ---------------------------------------------------------------------------------

def test_breakthrough_the_first_king_wins():
    game = get_game("breakthrough")
    state = game.parse_fen("W:W6,40:B20,25")
    move = state.parse_move("6-1")
    assert move[3] and state.heuristic(move) > state.heuristic(state.parse_move("40-34"))
    state.play(move)
    assert state.outcome() == 1.0 and state.legal_moves() == [] and state.random_move(random.Random(1)) is None
    assert game.parse_fen("W:W40:BK46").outcome() == 0.0    # Black has crowned: Black has won
    # a man passing the crowning row in a capture is not crowned (International rules): play goes on
    state = game.parse_fen("W:W11:B7,8,45")          # 11x2x13: through 2, on the crowning row
    (move,) = state.legal_moves()
    assert not move[3]
    state.play(move)
    assert state.outcome() is None
    # perft stops at the first king
    assert game.perft(game.parse_fen("W:W6:B45"), 3) == 0 and get_game("international").perft(
        get_game("international").parse_fen("W:W6:B45"), 3) > 0


def test_breakthrough_has_no_draw_rules():
    variant = get_game("breakthrough").variant
    assert (variant.repetition, variant.no_progress, variant.endgame) == (0, 0, "none")


# --- Killer draughts --------------------------------------------------------------------------------
# The long diagonal 46-41-37-32-28-23-19-14-10-5; 19-13-8-2 crosses it on 19.

@pytest.mark.parametrize("fen, killer, international", [
    # the last piece taken is a king: stop just behind it
    ("W:WK46:BK28", {"46x23"}, {"46x23", "46x19", "46x14", "46x10", "46x5"}),
    # a man: anywhere behind, as in International
    ("W:WK46:B28", {"46x23", "46x19", "46x14", "46x10", "46x5"}, {"46x23", "46x19", "46x14", "46x10", "46x5"}),
    # a king first, a man last: the rule does not apply; the capture of 13 must follow (majority)
    ("W:WK46:BK28,13", {"46x8", "46x2"}, {"46x8", "46x2"}),
    # a man first, a king last: just behind the king
    ("W:WK46:B28,K13", {"46x8"}, {"46x8", "46x2"}),
    # a man capturing a king lands just behind it anyway
    ("W:W37:BK32", {"37x28"}, {"37x28"}),
])
def test_killer_landing_rule(fen, killer, international):
    for name, expected in (("killer", killer), ("international", international)):
        state = get_game(name).parse_fen(fen)
        assert {state.move_str(m) for m in state.legal_moves()} == expected, name


def _square(n: int) -> tuple[int, int]:
    """International square number -> (row from the top, column)."""
    row, k = divmod(n - 1, 5)
    return row, 2 * k + (1 if row % 2 == 0 else 0)


def killer_reference(state) -> set[tuple]:
    """Killer's legal moves from International's capture sequences and the rule's text: a king whose
    last captured piece is a king must end on the square directly behind it."""
    intl = get_game("international")
    game = state.game
    if not intl.jumpers(state.own, state.opp, state.kings, state.turn):
        return set(state.legal_moves())
    seqs = intl.sequences(state.own, state.opp, state.kings, state.turn)
    best = max(len(s[4]) for s in seqs)
    out = set()
    for frm, to, cap, crowned, order, route in seqs:
        if len(order) != best:
            continue
        if frm & state.kings and order[-1] & state.kings:
            (r1, c1), (r2, c2) = (_square(int(game.square_name(x))) for x in (order[-1], to))
            if abs(r1 - r2) != 1 or abs(c1 - c2) != 1:
                continue
        out.add((frm, to, cap, crowned))
    return out


def test_killer_moves_match_the_reference_in_king_positions():
    game = get_game("killer")
    rng = random.Random(15)
    checked = differ = 0
    for _ in range(300):
        squares = rng.sample(range(1, 51), 9)
        white, black = squares[:4], squares[4:]
        items = lambda xs: ",".join(("K" if i % 2 == 0 or rng.random() < 0.4 else "") + str(x)   # noqa: E731
                                    for i, x in enumerate(xs))
        fen = f"W:W{items(white)}:B{items(black)}"
        try:
            state = game.parse_fen(fen)
        except ValueError:            # a man on its crowning row
            continue
        ours = set(state.legal_moves())
        assert ours == killer_reference(state), fen
        checked += 1
        differ += ours != set(get_game("international").parse_fen(fen).legal_moves())
    assert checked > 150 and differ > 5           # the rule mattered in some positions


def test_killer_a_king_taking_a_king_can_be_taken_back():
    """Freeling's point, on a small scale: Black's king must take White's king on 28 and, in Killer,
    stop on 23, where White's man on 29 (covered by 34) takes it back; in International it may
    fly on to safety."""
    fen = "B:WK28,29,34:BK46"
    killer = get_game("killer").parse_fen(fen)
    assert {killer.move_str(m) for m in killer.legal_moves()} == {"46x23"}
    killer.play(killer.legal_moves()[0])
    assert {killer.move_str(m) for m in killer.legal_moves()} == {"29x18"}
    intl = get_game("international").parse_fen(fen)
    assert {intl.move_str(m) for m in intl.legal_moves()} == {"46x23", "46x19", "46x14", "46x10", "46x5"}
