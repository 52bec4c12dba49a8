"""Cross-checks of the draughts move generator against independent implementations.

Two references from the ``test`` extra (``support.require``: a test skips when its reference
is not installed, and fails instead when the ``CI`` environment variable is set):

* **pydraughts** (``pip install pydraughts``; tested with 0.6.7), a pure-Python
  implementation of English, Italian, Russian, Brazilian, International
  (pydraughts calls it ``standard``), Frisian, Frysk! (``frysk!``), Antidraughts and
  Breakthrough.  We play seeded
  random games with *our* engine, and at positions along them build a
  pydraughts board from our FEN and compare the complete legal move sets.
* **OpenSpiel** ``checkers`` (``pip install open_spiel``; tested with 2.0.2),
  C++ English checkers.  OpenSpiel cannot be set up from a FEN, so both
  engines replay the same random games from the start position and the move
  sets are compared at every ply.

A move is compared as ``(start, end, frozenset(captured squares), crowned)``
in our notation (PDN numbers, or algebraic names for Russian/Brazilian).  Our
``legal_moves()`` lists one move per FMJD identity (start, end, captured
set, resulting kind); both references list one entry per *route*, so their
lists are collapsed into sets before the comparison (different capture
orders of the same pieces are the same move).

Notation facts established empirically (see ``test_pydraughts_numbering`` and
``test_openspiel_start_and_orientation``, which pin them down):

* pydraughts ``english``: numbers equal PDN numbers (Black on 1-12 moves first,
  ``9-13 ... 12-16``); its FEN is the PDN FEN (``B:W21..32:B1..12``).
* pydraughts ``italian``: numbers equal the Italian PDN diagram of
  ``shared/rules/draughts.md`` (square 1 = a8 in White's far-left corner,
  White on 21-32 moves first: ``21-17, 21-18, ..., 24-20``).  Orientation
  checked on an edge position: a White man on 17 (a4, left edge) has only
  17-13 and one on 24 (h3, right edge) only 24-20, in both engines.
* pydraughts ``russian``/``brazilian``: ``Move.steps_move``/``captures`` use
  pydraughts' own numbers, rank by rank from White's side, left to right:
  a1=1, c1=2, e1=3, g1=4, b2=5, ..., h8=32 (White on 1-12).  FENs may be given
  in algebraic squares.  ``_pyd_algebraic`` below converts.
* pydraughts ``standard``/``frisian``: numbers equal the 10x10 PDN numbers.
* pydraughts reads the two FEN sections by position (white list first); our
  ``fen()`` writes White's list first, so it is passed on unchanged.
* OpenSpiel ``checkers``: player 0 (drawn ``o``, ``8`` when crowned) moves
  first and sits at the bottom of ``str(state)``; it is English *Black*.  Its
  squares are ``file+rank`` seen from player 0's side, i.e. the PDN diagram
  turned through 180 degrees: PDN 12 = a3, PDN 16 = b4, PDN 1 = g1,
  PDN 32 = b8 (``_OS_SQUARE``).  A multi-jump is one action per single jump,
  with ``current_player()`` unchanged in between; a man that is crowned by a
  jump stops (English rule).

Known differences that are excluded or not covered (by construction):

* Turkish is not cross-checked against pydraughts (its Turkish kings are known
  to be wrong, see ``shared/rules/draughts.md``: they also fly over pieces, own
  and enemy, without capturing; on 2,646 king positions of 60 random games our
  moves were always a subset of pydraughts', 764 positions had extra ones there).
* Italian last tie-break (draughts.md 2.3.1 / 3.3): pydraughts compares only the
  index of the *first* king in each sequence; DCTL compares the whole pattern
  of kings in capture order.  Our engine implements the same first-king key
  as pydraughts, so positions where the two keys differ (the first kings
  tie, later kings differ) cannot show up as a disagreement here; they are a
  blind spot of this cross-check, not a tested agreement with DCTL.
* Draw rules and other history-dependent rules are not compared: positions are
  rebuilt from FEN on both sides (``game.parse_fen(fen)`` on ours), so the
  Frisian "same king at most 3 times in a row" restriction is off in both
  (pydraughts applies it only from its own move stack).
* OpenSpiel's draw rule (40 actions without a capture, counting man moves)
  differs from ours; a game's comparison stops when either engine declares a
  draw.  Games that end because the side to move has no move are compared.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
from multiprocess import Pool
from support import require

from mcts_engine.rules import get_game
from mcts_engine.rules.geometry import bits
from support.pydraughts_moves import BIG, FILES, PYDRAUGHTS_VARIANTS
from support.pydraughts_moves import fmt_moves as _fmt
from support.pydraughts_moves import mismatch_report as _mismatch_report
from support.pydraughts_moves import our_moves as _our_moves
from support.pydraughts_moves import pydraughts as _pydraughts
from support.pydraughts_moves import their_moves as _their_moves
from support.pydraughts_moves import their_routes as _their_routes

def _sample_positions(game, seeds, budget: int, quiet_every: int = 4, max_plies: int = 400):
    """FENs along seeded random games of our engine, biased toward the interesting plies.

    Every ply is taken once the game has kings or when the side to move must
    capture; before that only every ``quiet_every``-th quiet ply.  The final position of a
    game that ends by a lack of moves is included (both sides must then agree on
    the empty move list).  Stops after ``budget`` positions.
    """
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state()
        for ply in range(max_plies):
            outcome = state.outcome()
            has_kings = state.kings != 0
            if outcome is not None:
                if outcome != 0.5 and not (has_kings and game.variant.goal == "crown"):
                    out.append(state.fen())   # (a breakthrough ends at its first king: pydraughts
                break                         # still lists moves there, it ends games elsewhere)
            move = state.random_move(rng)
            if has_kings or move[2] or ply % quiet_every == 0:
                out.append(state.fen())
                if len(out) >= budget:
                    return out
            state.play(move)
    return out


def _crosscheck_pydraughts(variant: str, seeds, budget: int, quiet_every: int = 4) -> Counter:
    draughts = _pydraughts()
    game = get_game(variant)
    fens = _sample_positions(game, seeds, budget, quiet_every)
    failures = []
    stats = Counter()
    for fen in fens:
        state = game.parse_fen(fen)
        assert state.fen() == fen, f"FEN round trip changed {fen!r} into {state.fen()!r}"
        ours = _our_moves(game, state)
        routes = _their_routes(draughts, variant, fen)
        theirs = set(routes)
        stats["positions"] += 1
        stats["with kings"] += state.kings != 0
        stats["no legal move"] += not ours
        stats["captures"] += any(m[2] for m in ours)
        stats["king captures"] += any(m[2] for m in ours) and bool(state.own & state.kings)
        stats["multi-captures"] += any(len(m[2]) > 1 for m in ours)
        stats["crowning moves"] += any(m[3] for m in ours)
        stats["same start+end, other captures"] += len({m[:2] for m in ours if m[2]}) < sum(1 for m in ours if m[2])
        stats["several routes for one move"] += len(routes) > len(theirs)
        if ours != theirs:
            failures.append((fen, ours, theirs))
    assert not failures, _mismatch_report(f"{variant} vs pydraughts", failures)
    return stats


# minimum coverage per variant of the default (fast) run: the sampled positions
# must keep exercising kings, multi-captures and crowning, whatever the seeds give
_MIN_COVERAGE = {"positions": 800, "with kings": 150, "captures": 250, "multi-captures": 30,
                 "crowning moves": 20, "no legal move": 5}
# where a variant's games cannot give that much: Breakthrough ends at its first king, a Frysk!
# game has 10 men, and an Antidraughts game rarely ends blocked
_COVERAGE_FOR = {"breakthrough": {"with kings": 0, "no legal move": 0, "crowning moves": 10},
                 "frysk": {"positions": 600, "captures": 100, "multi-captures": 10},
                 "antidraughts": {"no legal move": 0}}


@pytest.mark.parametrize("variant", list(PYDRAUGHTS_VARIANTS))
def test_pydraughts_random_positions(variant):
    """Legal move sets agree with pydraughts at 800-1000 positions of random games per variant."""
    big = variant in BIG   # 10x10: longer games, kings come later
    stats = _crosscheck_pydraughts(variant, range(1000, 1100), budget=800 if big else 1000,
                                   quiet_every=10 if big else 4)
    wanted = {**_MIN_COVERAGE, **_COVERAGE_FOR.get(variant, {})}
    low = {k: (stats[k], v) for k, v in wanted.items() if stats[k] < v}
    assert not low, f"{variant}: too little coverage (got, wanted) {low}; stats {dict(stats)}"


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(PYDRAUGHTS_VARIANTS))
def test_pydraughts_random_positions_many(variant):
    """The same comparison over many more games (every sampled ply of 100 games, 60 on 10x10),
    the even and the odd games in two processes side by side (each game is its own seed: the
    same positions as in one)."""
    games = 60 if variant in BIG else 100
    with Pool(2) as pool:
        pool.starmap(_crosscheck_pydraughts, [(variant, range(first, games, 2), 1 << 30) for first in (0, 1)])


@pytest.mark.parametrize("variant, fen, expected", [
    # start positions: pydraughts' numbering and the side to move (PDN moves)
    ("english", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
     {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}),
    ("italian", "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
     {"21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"}),
    ("russian", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
     {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}),
    ("brazilian", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
     {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}),
    ("international", "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
                      ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
     {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}),
    ("frisian", "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
                ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
     {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}),
    # Italian orientation: 17 = a4 (left edge), 24 = h3 (right edge) have one step each
    ("italian", "W:W17,24:B1", {"17-13", "24-20"}),
    # Russian numbering off the start rows: a man on h4 (pydraughts 16) and a king on a1 (1)
    ("russian", "W:Wh4,Ka1:Bh8", {"h4-g5", "a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7"}),
])
def test_pydraughts_numbering(variant, fen, expected):
    """Pins down pydraughts' square numbering against our notation on small known cases."""
    draughts = _pydraughts()
    game = get_game(variant)
    state = game.parse_fen(fen)
    assert {state.move_str(m) for m in state.legal_moves()} == expected
    theirs = _their_moves(draughts, variant, fen)
    assert {f"{s}-{e}" for s, e, cap, _ in theirs} == expected
    assert _our_moves(game, state) == theirs


@pytest.mark.parametrize("variant, expected_moves", [("russian", 3), ("brazilian", 1)])
def test_pydraughts_worked_example(variant, expected_moves):
    """draughts.md section 6 (promotion on the fly, rule 1.6, majority rule): same moves as pydraughts.

    Random play rarely reaches these rules, so the worked example is checked directly.
    """
    draughts = _pydraughts()
    game = get_game(variant)
    fen = "W:Wh2:Ba7,b4,e5,e7,g3,g5,g7"
    ours = _our_moves(game, game.parse_fen(fen))
    theirs = _their_moves(draughts, variant, fen)
    assert ours == theirs, _mismatch_report(f"{variant} vs pydraughts", [(fen, ours, theirs)])
    assert len(ours) == expected_moves, _fmt(ours)


# ----------------------------------------------------------------------------
# OpenSpiel checkers (English rules)
# ----------------------------------------------------------------------------

def _pyspiel():
    return require("pyspiel", "open_spiel is not installed (pip install open_spiel)")


def _build_os_squares() -> dict[str, str]:
    """English PDN number -> OpenSpiel square (file+rank seen from player 0 = Black)."""
    out = {}
    for n in range(1, 33):
        row_from_top = (n - 1) // 4                 # in the PDN diagram, drawn from White's side
        white_rank = 8 - row_from_top
        white_file = 2 * ((n - 1) % 4) + (1 if row_from_top % 2 == 0 else 0)
        out[str(n)] = f"{FILES[7 - white_file]}{9 - white_rank}"   # turned through 180 degrees
    return out


_OS_SQUARE = _build_os_squares()
_PDN_OF_OS = {v: k for k, v in _OS_SQUARE.items()}


def _os_board(state) -> dict[str, str]:
    """OpenSpiel square -> piece character ('o', '8' player 0; '+', '*' player 1; '.' empty)."""
    board = {}
    for line in str(state).splitlines():
        line = line.strip()
        if line and line[0].isdigit():
            rank = line[0]
            for file, ch in zip(FILES, line[1:9]):
                board[f"{file}{rank}"] = ch
    return board


def _os_turn_moves(state) -> dict[tuple, list[int]]:
    """Every whole move of the player to move: (start, end, captured, crowned) in PDN -> its actions.

    A multi-jump is several actions of the same player; the search follows them
    (``clone`` + ``apply_action``) until ``current_player()`` changes.
    """
    player = state.current_player()
    board0 = _os_board(state)
    out: dict[tuple, list[int]] = {}

    def walk(st, start, captured, actions):
        for action in st.legal_actions():
            text = st.action_to_string(player, action)
            frm, to = text[:2], text[2:]
            assert start is None or frm == start[1], f"{text}: a multi-jump continued with another piece"
            df, dr = FILES.index(to[0]) - FILES.index(frm[0]), int(to[1]) - int(frm[1])
            assert abs(df) == abs(dr) in (1, 2), text
            cap = captured
            if abs(df) == 2:
                cap = captured | {f"{FILES[FILES.index(frm[0]) + df // 2]}{int(frm[1]) + dr // 2}"}
            child = st.clone()
            child.apply_action(action)
            origin = start or (frm, frm)
            if child.current_player() == player:
                assert abs(df) == 2, f"{text}: a step did not end the turn"
                walk(child, (origin[0], to), cap, actions + [action])
            else:
                crowned = board0[origin[0]] in "o+" and _os_board(child)[to] in "8*"
                key = (_PDN_OF_OS[origin[0]], _PDN_OF_OS[to], frozenset(_PDN_OF_OS[c] for c in cap), crowned)
                out.setdefault(key, actions + [action])

    walk(state, None, frozenset(), [])
    return out


def test_openspiel_start_and_orientation():
    """OpenSpiel's player 0 is English Black (moves first); its squares are PDN turned by 180 degrees."""
    pyspiel = _pyspiel()
    state = pyspiel.load_game("checkers").new_initial_state()
    assert state.current_player() == 0
    board = _os_board(state)
    black = {_PDN_OF_OS[sq] for sq, ch in board.items() if ch == "o"}
    white = {_PDN_OF_OS[sq] for sq, ch in board.items() if ch == "+"}
    assert black == set(map(str, range(1, 13))) and white == set(map(str, range(21, 33)))
    assert {state.action_to_string(0, a) for a in state.legal_actions()} == {
        _OS_SQUARE[a] + _OS_SQUARE[b] for a, b in
        [("9", "13"), ("9", "14"), ("10", "14"), ("10", "15"), ("11", "15"), ("11", "16"), ("12", "16")]}
    game = get_game("english")
    assert set(_os_turn_moves(state)) == _our_moves(game, game.new_state())


def _replay_openspiel(seeds, max_plies: int = 400) -> Counter:
    """Replay random games of our English engine in OpenSpiel, comparing every ply."""
    pyspiel = _pyspiel()
    os_game = pyspiel.load_game("checkers")
    game = get_game("english")
    failures = []
    stats = Counter()
    for seed in seeds:
        rng = random.Random(seed)
        ours = game.new_state()
        theirs = os_game.new_initial_state()
        for _ in range(max_plies):
            if theirs.is_terminal():
                if list(theirs.returns()) == [0.0, 0.0]:
                    stats["games stopped at an OpenSpiel draw"] += 1
                    break
                expected = 1.0 if theirs.returns()[0] > 0 else 0.0
                stats["games won by no-move"] += 1
                if ours.outcome() != expected or ours.legal_moves():
                    failures.append((ours.fen(), _our_moves(game, ours), set()))
                break
            outcome = ours.outcome()
            if outcome == 0.5:
                stats["games stopped at our draw"] += 1
                break
            our_set = _our_moves(game, ours)
            their_moves = _os_turn_moves(theirs)
            stats["positions"] += 1
            stats["multi-jumps"] += any(len(m[2]) > 1 for m in our_set)
            stats["crowning moves"] += any(m[3] for m in our_set)
            if our_set != set(their_moves) or outcome is not None:
                failures.append((ours.fen(), our_set, set(their_moves)))
                break
            move = ours.random_move(rng)
            name = game.square_name
            key = (name(move[0]), name(move[1]), frozenset(name(c) for c in bits(move[2])), bool(move[3]))
            for action in their_moves[key]:
                theirs.apply_action(action)
            ours.play(move)
        else:
            stats["games cut at max plies"] += 1
    assert not failures, _mismatch_report("english vs OpenSpiel checkers", failures)
    return stats


def test_openspiel_checkers_replay():
    """Move sets and no-move results agree with OpenSpiel at every ply of 60 random games."""
    stats = _replay_openspiel(range(60))
    assert stats["positions"] >= 2000 and stats["multi-jumps"] >= 20 and stats["games won by no-move"] >= 10, \
        dict(stats)


@pytest.mark.slow
def test_openspiel_checkers_replay_many():
    """The same replay over 1000 games."""
    _replay_openspiel(range(1000, 2000))


# --------------------------------------------------------------------------- Hub protocol
def test_pydraughts_hub_client_plays_a_game_against_our_engine():
    """pydraughts' HubEngine (a real Hub client) drives our engine through the Hub protocol:
    every engine move is legal for pydraughts and for our rules, captures included."""
    import sys
    from pathlib import Path

    _pydraughts()
    from draughts import Board
    from draughts.engine import HubEngine, Limit

    script = Path(sys.executable).parent / "mcts-engine"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "mcts_engine"]
    engine = HubEngine(command)
    try:
        engine.init()
        board = Board("standard")
        ours = get_game("international").new_state()
        rng = random.Random(5)
        engine_captures = plies = 0
        while plies < 200 and not board.is_over() and (plies < 20 or not engine_captures):
            if plies % 2 == 0:
                move = engine.play(board, Limit(time=0.05), ponder=False).move
            else:
                move = rng.choice(board.legal_moves())
            played = ours.parse_move(move.pdn_move)
            engine_captures += plies % 2 == 0 and bool(played[2])
            ours.play(played)
            board.push(move)
            plies += 1
        assert plies >= 20 and engine_captures > 0, (plies, engine_captures)
    finally:
        engine.quit()
