"""Gauntlet (../shared/rules/gauntlet.md): the worked examples, the rule options, a slow
reference generator, properties over seeded random games, and bad input."""
from __future__ import annotations

import random

import pytest
from support import (check_copy_is_independent, check_fen_round_trip, check_moves_read_back, check_playout_cut_off,
                      check_playout_matches_loop, check_random_move, check_random_move_uniform, random_game)

from mcts_engine.rules import get_game, parse_rule_options
from mcts_engine.rules.base import BadOption, BadPosition, Game, IllegalMove

GAUNTLET = get_game("gauntlet")


def moves_of(state) -> list[str]:
    return sorted(state.move_str(m) for m in state.legal_moves())


def after(state, text: str):
    child = state.copy()
    child.play(state.parse_move(text))
    return child


# --- the worked examples (gauntlet.md §10), one test each ------------------------------------------
def example_1():
    s = GAUNTLET.new_state()
    assert GAUNTLET.colours[0] == "W" and s.to_move == 0
    assert moves_of(s) == ["b1-b2", "c1-c2", "d1-d2", "e1-e2", "f1-f2", "g1-g2"]
    assert moves_of(after(s, "b1-b2")) == ["a2xc2"]
    assert moves_of(after(s, "g1-g2")) == ["h2xf2"]
    inwards = sorted([f"a{r}-b{r}" for r in range(2, 8)] + [f"h{r}-g{r}" for r in range(2, 8)])
    for first in ("c1-c2", "d1-d2", "e1-e2", "f1-f2"):
        assert moves_of(after(s, first)) == inwards
    assert GAUNTLET.perft(s, 2) == 50


def example_2():
    s = GAUNTLET.parse_fen("W:Wd3,b1:Ld4,a7:Rd6")
    assert moves_of(s) == ["d3xd5", "d3xd5xd7"]
    with pytest.raises(IllegalMove, match="compulsory"):
        s.parse_move("b1-b2")
    longest = get_game("gauntlet", max_capture=True).parse_fen(s.fen())
    assert moves_of(longest) == ["d3xd5xd7"]


def example_3a():
    s = GAUNTLET.parse_fen("W:Wc7,e3:Le4:Rh6")
    assert moves_of(s) == ["e3xe5"]
    with pytest.raises(IllegalMove):
        s.parse_move("c7-c8")


def example_3b():
    s = GAUNTLET.parse_fen("W:Wd3,b1:Ld4:Rd5,h7")
    assert moves_of(s) == ["b1-b2"]
    assert s.outcome() is None


def example_4a():
    s = GAUNTLET.parse_fen("B:Wc4,e2:Lb4:Rh6")
    assert moves_of(s) == ["b4xd4"]
    with pytest.raises(IllegalMove):
        s.parse_move("h6-g6")


def example_4b():
    s = GAUNTLET.parse_fen("W:Wc6:Rc7,h2")
    assert moves_of(s) == ["c6xc8"]
    s = after(s, "c6xc8")
    assert s.outcome() == 1.0 and s.legal_moves() == [] and s.random_move(random.Random(1)) is None


EXAMPLES = {"1-opening": example_1, "2-multiple-jump-any-length": example_2,
            "3a-capture-beats-winning-step": example_3a, "3b-blocked-landing-is-no-capture": example_3b,
            "4a-blockers-capture": example_4a, "4b-win-by-jump": example_4b}


@pytest.mark.parametrize("name", EXAMPLES)
def test_worked_example(name):
    EXAMPLES[name]()


# --- a slow reference generator (per square, from the rules text) ------------------------------------
def reference_moves(game, fen: str) -> set[str]:
    """Legal moves by gauntlet.md §3-6 on a dict board: one square at a time."""
    side, *fields = fen.split(":")
    board = {}
    for f in fields:
        for sq in filter(None, f[1:].split(",")):
            board[(ord(sq[0]) - 97, int(sq[1:]) - 1)] = f[0]
    files, ranks = game.files, game.ranks
    if any(k == "W" and r == ranks - 1 for (c, r), k in board.items()):
        return set()
    direction = {"W": (0, 1), "L": (1, 0), "R": (-1, 0)}
    mine = ("W",) if side == "W" else ("L", "R")

    def name(c, r):
        return f"{chr(97 + c)}{r + 1}"

    def on(c, r):
        return 0 <= c < files and 0 <= r < ranks

    caps, steps = [], []
    for (c, r), kind in board.items():
        if kind not in mine:
            continue
        dc, dr = direction[kind]
        if on(c + dc, r + dr) and (c + dc, r + dr) not in board:
            steps.append((f"{name(c, r)}-{name(c + dc, r + dr)}", 0))
        path, x, y = [name(c, r)], c, r
        while True:
            mid, land = (x + dc, y + dr), (x + 2 * dc, y + 2 * dr)
            if not (on(*land) and board.get(mid) not in (None, *mine) and land not in board):
                break
            x, y = land
            path.append(name(x, y))
            caps.append(("x".join(path), len(path) - 1))
    if game.max_capture and caps:
        best = max(n for _, n in caps)
        caps = [(t, n) for t, n in caps if n == best]
    if caps and game.compulsory:
        return {t for t, _ in caps}
    return {t for t, _ in caps + steps}


# --- properties over seeded random games ---------------------------------------------------------------
GAMES = [("default", {}), ("max-capture", {"max_capture": "1"}), ("optional", {"compulsory": "off"}),
         ("5x4", {"size": "5x4"}), ("10x10", {"size": "10x10", "max_capture": True}),
         ("8x7", {"size": "8x7"})]


def check_state(game, state, rng) -> None:
    legal = state.legal_moves()
    fen = state.fen()
    assert set(check_fen_round_trip(game, state).legal_moves()) == set(legal)
    texts = check_moves_read_back(state, legal)
    assert set(texts) == reference_moves(game, fen), fen
    for m, text in zip(legal, texts):
        assert state.is_capture(m) == ("x" in text)
        if "x" in text:
            parts = text.split("x")
            assert state.parse_move(f"{parts[0]}x{parts[-1]}") == m      # the short form
    outcome = state.outcome()
    assert (outcome is None) == bool(legal), fen
    if outcome is not None:
        # White wins with a runner home; otherwise the side to move is stuck and loses
        home = state.runners & game.goal
        assert outcome == (1.0 if home else 0.0 if state.to_move == 0 else 1.0)
    assert 0.0 <= state.evaluate() <= 1.0
    check_random_move(state, legal, rng)
    if legal:
        check_copy_is_independent(state, legal[-1])


@pytest.mark.parametrize("label,options", GAMES, ids=[g[0] for g in GAMES])
def test_random_game_properties(label, options):
    game = get_game("gauntlet", **options)
    rng = random.Random(7)
    for seed in range(25):
        states = random_game(game, seed, max_plies=400)
        assert all(a.ply < b.ply for a, b in zip(states, states[1:]))
        for s in states:
            check_state(game, s, rng)
        assert states[-1].outcome() in (0.0, 1.0)      # never a draw


def test_playout_equals_random_move_loop():
    for seed in range(30):
        for game in (GAUNTLET, get_game("gauntlet", compulsory=False, max_capture=True)):
            check_playout_matches_loop(game.new_state(), seed)
    check_playout_cut_off(GAUNTLET.new_state(), 2)


def test_random_move_uniform():
    check_random_move_uniform(GAUNTLET.new_state(), 6000, 11, p_min=1e-3)


def test_perft_matches_generic_walk():
    s = GAUNTLET.new_state()
    assert [GAUNTLET.perft(s, d) for d in (1, 2, 3, 4)] == [6, 50, 250, 2228]
    assert Game.perft(GAUNTLET, s, 4) == 2228
    s = GAUNTLET.parse_fen("B:Wc4,e2,d3:Lb4,a3:Rh6,e3")
    assert GAUNTLET.perft(s, 4) == Game.perft(GAUNTLET, s, 4)


def test_stalemates_lose():
    s = GAUNTLET.parse_fen("W:Wd2:Ld3:Rd4,h7")         # d2 faces d3 and the landing d4 is taken
    assert s.legal_moves() == [] and s.outcome() == 0.0
    s = GAUNTLET.parse_fen("W::Lb7")                   # White without runners: no move, loses
    assert s.legal_moves() == [] and s.outcome() == 0.0
    s = GAUNTLET.parse_fen("B:Wb1:Ra7,a6:Lh5")          # every blocker at the edge it moves toward
    assert s.legal_moves() == [] and s.outcome() == 1.0
    s = GAUNTLET.parse_fen("B:Wb1:Rb7")                 # ... while one that can step still may
    assert moves_of(s) == ["b7-a7"]


def test_runner_home_ends_the_game():
    s = GAUNTLET.parse_fen("B:Wc8,d2:La5")
    assert s.outcome() == 1.0 and s.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        s.parse_move("a5-b5")


def test_optional_capture():
    game = get_game("gauntlet", **parse_rule_options("compulsory=0"))
    s = game.parse_fen("W:Wc7,e3:Le4:Rh6")
    assert moves_of(s) == ["c7-c8", "e3xe5"]
    assert game.options == {"max_capture": False, "compulsory": False, "size": "8x8"}


def test_other_sizes_start():
    game = get_game("gauntlet", size="5x4")
    assert game.new_state().fen() == "W:Wb1,c1,d1:La2,a3:Re2,e3"
    game = get_game("gauntlet", size="10x10")
    s = game.new_state()
    assert s.runners.bit_count() == 8 and (s.left | s.right).bit_count() == 16
    assert moves_of(s)[0] == "b1-b2" and len(s.legal_moves()) == 8


def test_evaluate_and_heuristic():
    s = GAUNTLET.new_state()
    assert 0.0 < s.evaluate() < 0.5            # nobody has moved: the runners are far from home
    near = GAUNTLET.parse_fen("W:Wc7,e3:Lb4,a3:Rh6,h5")
    assert near.evaluate() > s.evaluate()
    win = near.parse_move("c7-c8")
    assert near.heuristic(win) > near.heuristic(near.parse_move("e3-e4")) > 0
    cap = GAUNTLET.parse_fen("W:Wd3,b1:Ld4,a7:Rd6")
    two = cap.parse_move("d3xd7")
    assert cap.is_capture(two) and cap.heuristic(two) > cap.heuristic(cap.parse_move("d3xd5"))
    assert "White (runners) to move" in s.board_text() and s.board_text().count("L") == 6


# --- bad input -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{"nope": 1}, {"max_capture": "maybe"}, {"compulsory": 2},
                                     {"size": "8x9"}, {"size": "big"}])
def test_bad_options(options):
    with pytest.raises(BadOption, match=list(options)[0]):
        get_game("gauntlet", **options)


@pytest.mark.parametrize("fen", ["", "X:Wb1", "W:Wa1", "W:Wh3", "W:La1", "W:Rd8", "W:Wb1:Lb1",
                                 "W:Wb1:Wc1", "W:Zb1", "W:Wi1", "W:Wb9", "W:Wb1,b1"])
def test_bad_fen(fen):
    with pytest.raises(BadPosition):
        GAUNTLET.parse_fen(fen)


@pytest.mark.parametrize("text", ["", "b1", "b1-b3", "b1-c2", "a2-b2", "z1-z2", "b1xb3", "b1--b2", "b1-b2-b3"])
def test_bad_moves(text):
    with pytest.raises(IllegalMove):
        GAUNTLET.new_state().parse_move(text)
