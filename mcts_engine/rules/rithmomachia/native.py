"""The bridge to Rithmomachia's native rules: the game handed to C as numbers, never as text.

``native_rules(game)`` gives the ``RithmomachiaRules`` of a ``RithmomachiaGame`` (None where
the native core is missing or switched off, ``MCTS_ENGINE_NATIVE=0``): ``native_spec`` reads
the movement patterns, siege rays, custodial pairs, slide directions and option values the
Python game already chose, so the C code (``native/src/rith_*.c``) lays out the same per-cell
tables with the same on-board tests and derives no rule of its own.

Positions cross as ``RithmomachiaState.raw()`` (one flat tuple of ints, ``raw_position``) and
come back through ``set_raw``; moves are the Python rules' ints (``from * 256 + to``).
"""
from __future__ import annotations

from typing import Any

from ... import native
from .options import MAX_COMPONENTS, MAX_COUNT, MAX_PYRAMIDS, MAX_VALUE

_GLORIOUS = {"off": 0, "on": 1, "after_pyramid": 2}
_LINES = {"any": 0, "orthogonal": 1, "orthogonal_diagonal": 2}


def native_spec(game) -> dict[str, Any]:
    """Everything the native rules need of ``game``, as ints and tuples of ints."""
    o = game.options
    linear = game.linear
    return {
        "ranks": game.ranks, "first": game.first,
        "patterns": tuple(tuple((dr, dc, n, int(every)) for dr, dc, n, every in pats) for pats in game.patterns),
        "diag3": tuple((dr, dc, n, int(every)) for dr, dc, n, every in game.diag3),
        # natural siege (§8.2.5): each shape's directions, its reach the shape's move length
        "ray_dirs": tuple(tuple(dirs) for dirs in game.reach_dirs),
        "custodial": tuple((a, b, d, e) for (a, b), (d, e) in game.custodial_pairs),
        # the slides a vacated cell can open (the incremental capture resolution's vline)
        "slide_dirs": tuple(game.slide_dirs),
        "linear": int(linear), "natural_siege": int(game.natural_siege),
        "movement_ambush": int(game.movement_ambush), "same_piece_pairs": int(game.same_piece_pairs),
        "eq_any_component": int(o["pyramid_equality_any_component"]), "division": int(o["eruption_division"]),
        "blocking": int(game.blocking), "total_only_intact": int(o["pyramid_total_only_intact"]),
        "total_defence": int(o["pyramid_total_only_intact_defence"]),
        "whole_on_part": int(o["pyramid_whole_on_component_hit"]),
        "count_author": int(o["capture_counting"] == "author"),
        "glorious": _GLORIOUS[o["glorious"]], "glorious_literal": int(o["glorious_author_literal"]),
        "glorious_lines": _LINES[o["glorious_lines"]], "glorious_ordered": int(o["glorious_ordered"]),
        "glorious_unobstructed": int(o["glorious_unobstructed"]),
        "pyramid_capture_wins": int(o["pyramid_capture_wins"]), "no_moves_loss": int(o["no_moves"] == "loss"),
        "win_count": o["win_piece_count"], "threshold_white": game.thresholds[0],
        "threshold_black": game.thresholds[1], "max_plies": o["max_plies"] or 0,
        # what a position may hold (options.py): the native rules refuse limits past their own
        "max_value": MAX_VALUE, "max_pyramids": MAX_PYRAMIDS, "max_components": MAX_COMPONENTS,
        "max_count": MAX_COUNT,
    }


def native_rules(game):
    """The native rules of ``game``, or None where the native core is not available."""
    if not native.available():
        return None
    return native.core.RithmomachiaRules(native_spec(game))


def raw_position(side: int, ply: int, caps: list, result: int | None, board: dict, white: int) -> tuple:
    """A position as one flat tuple of ints: (side, ply, the four capture counters, winner or -1),
    then per piece in ascending cell order (cell, colour, value << 2 | shape), or for a pyramid
    (cell, colour, 0, alive mask, component count, component codes...)."""
    out = [side, ply, *caps, -1 if result is None else result]
    for i in sorted(board):
        piece = board[i]
        colour = 0 if white >> i & 1 else 1
        if type(piece) is tuple:
            comps, alive = piece
            out += (i, colour, 0, alive, len(comps), *comps)
        else:
            out += (i, colour, piece)
    return tuple(out)


def read_raw(raw: tuple) -> tuple[int, int, list, int | None, dict, int]:
    """``raw_position``'s arguments back from its tuple: (side, ply, caps, result, board, white)."""
    side, ply, c0, c1, c2, c3, result = raw[:7]
    board: dict = {}
    white = 0
    i = 7
    while i < len(raw):
        cell, colour, code = raw[i:i + 3]
        if code:
            board[cell] = code
            i += 3
        else:
            alive, n = raw[i + 3], raw[i + 4]
            board[cell] = (tuple(raw[i + 5:i + 5 + n]), alive)
            i += 5 + n
        if colour == 0:
            white |= 1 << cell
    return side, ply, [c0, c1, c2, c3], None if result < 0 else result, board, white
