"""The drawing contract (``State.board_view``, ``State.move_path``) in every registered game.

What a GUI relies on: every piece stands on a named point, every line joins two points,
every legal move's click path runs over points and starts where the mover's piece
stands (or is a drop's one cell), and no two legal moves share both their path and
their captures (so clicks always tell them apart), along seeded random games.
"""
from __future__ import annotations

import json
import random

import pytest

from mcts_engine.rules import get_game, list_games
from mcts_engine.rules.base import State
from mcts_engine.rules.view import BoardView, MovePath

GAMES = list_games()


def _positions(name: str, seed: int = 1, plies: int = 40):
    game = get_game(name)
    state = game.new_state()
    rng = random.Random(seed)
    out = [state.copy()]
    for _ in range(plies):
        move = state.random_move(rng)
        if move is None:
            break
        state.play(move)
        out.append(state.copy())
    return out


@pytest.mark.parametrize("name", GAMES)
def test_view_is_consistent(name):
    for state in _positions(name):
        view = state.board_view()
        assert isinstance(view, BoardView)
        names = [p.name for p in view.points]
        assert len(names) == len(set(names)), "point names repeat"
        assert all(0 <= p.x <= view.width and 0 <= p.y <= view.height for p in view.points)
        occupied = [pc.point for pc in view.pieces]
        assert set(occupied) <= set(names) and len(occupied) == len(set(occupied))
        assert all(pc.owner in (0, 1) for pc in view.pieces)
        assert all(a in names and b in names and a != b for a, b in view.lines)
        assert view.cells or view.lines, "a board has cells or lines"
        json.dumps(view.to_dict())     # plain data the page receives


@pytest.mark.parametrize("name", GAMES)
def test_move_paths_tell_moves_apart(name):
    for state in _positions(name):
        view = state.board_view()
        names = {p.name for p in view.points}
        mine = {pc.point for pc in view.pieces if pc.owner == state.to_move}
        seen = {}
        for move in state.legal_moves():
            path = state.move_path(move)
            assert isinstance(path, MovePath) and path.points, state.move_str(move)
            assert set(path.points) <= names and set(path.captures) <= names
            if len(path.points) > 1:
                assert path.points[0] in mine, (state.fen(), state.move_str(move))
            key = (path.points, path.captures)
            assert key not in seen, f"{state.move_str(move)} and {seen[key]} enter alike"
            seen[key] = state.move_str(move)


def test_geometry_of_some_boards():
    english = get_game("english").new_state().board_view()
    assert (english.width, english.height, len(english.points), english.point_labels) == (8, 8, 32, True)
    assert {c.shade for c in english.cells} == {"dark", "light"}
    italian = get_game("italian").new_state().board_view()
    # the rotated board: the first player's near-left corner (a1) is light
    assert next(c.shade for c in italian.cells if (c.x, c.y) == (0, 0)) == "light"
    assert next(c.shade for c in english.cells if (c.x, c.y) == (0, 0)) == "dark"
    turkish = get_game("turkish").new_state().board_view()
    assert {c.shade for c in turkish.cells} == {"plain"} and len(turkish.points) == 64
    assert [f for f, _ in turkish.files] == list("abcdefgh")
    fanorona = get_game("fanorona").new_state().board_view()
    assert len(fanorona.points) == 45 and len(fanorona.lines) == 8 * 4 + 9 * 4 + 40   # rows, columns, diagonals
    dablot = get_game("dablot").new_state().board_view()
    assert len(dablot.points) == 72 and {pc.kind for pc in dablot.pieces} == {"man", "prince", "king"}
    geese = get_game("fox-and-geese").new_state().board_view()
    assert sorted(pc.kind for pc in geese.pieces).count("goose") == 13
    gauntlet = get_game("gauntlet").new_state().board_view()
    assert {pc.kind for pc in gauntlet.pieces} == {"runner", "left", "right"}


def test_rithmomachia_pieces_and_pyramids():
    view = get_game("rithmomachia").new_state().board_view()
    assert (view.width, view.height) == (8, 16)
    pieces = {pc.point: pc for pc in view.pieces}
    assert pieces["g4"].kind == "pyramid" and pieces["g4"].label == "91"
    assert pieces["g4"].parts == ("S36", "S25", "T16", "T9", "R4", "R1")
    assert (pieces["a3"].kind, pieces["a3"].label, pieces["a3"].owner) == ("square", "25", 0)
    assert (pieces["c11"].kind, pieces["c11"].label, pieces["c11"].owner) == ("round", "9", 1)


def test_captures_are_marked():
    fanorona = get_game("fanorona").new_state()
    paths = {fanorona.move_str(m): fanorona.move_path(m) for m in fanorona.legal_moves()}
    assert paths["d3-e3(A)"] == MovePath(("d3", "e3"), ("f3",))
    assert paths["d3-e3(W)"] == MovePath(("d3", "e3"), ("c3",))
    english = get_game("english").parse_fen("B:W13,14,22,23:B9")   # a fork after the first hop
    paths = sorted((english.move_path(m) for m in english.legal_moves()), key=lambda p: p.points)
    assert paths == [MovePath(("9", "18", "25"), ("14", "22")), MovePath(("9", "18", "27"), ("14", "23"))]


def test_default_view_is_empty():
    class Bare(State):
        to_move, ply = 0, 0
        legal_moves = play = copy = outcome = fen = move_str = parse_move = key = lambda self, *a: None
    assert Bare().board_view() == BoardView() and Bare().move_path(None) == MovePath()
