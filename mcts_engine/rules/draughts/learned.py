"""The learned draughts evaluation: pattern weights over board regions, fitted to the engine's
own games by ``mcts-engine train-eval`` (``mcts_engine/training``), and material terms.

What it reads (docs/search.md#the-learned-evaluation), all from the side to move's point of
view (the board turned half a turn when the second player moves, so that the mover's men always
run up the board):

* **patterns**: the board is covered by overlapping regions of 8 squares each (``PatternLayout``:
  4x4 windows on a dark-square board, 2x4 on a board played on every square; a window every
  ``stride`` rows and columns, one of ``STRIDES``); a region's contents (empty, the mover's man,
  the other side's man, square by square; kings count as empty) are one base-3 index into that
  region's table of weights;
* **scalars** (``SCALARS``): a constant (the worth of the move), men and kings each side has
  more than the other, having a king where the other side has none, kings on the long diagonal,
  and the left-right balance of the men (``balance``: how far each side's men lean to one side
  of the board, as Scan reads it; a side's lean is the sum over its men of ``2 * column -
  (n - 1)``, and the feature is the mover's absolute lean less the other side's);
* **king squares**: a weight for a king on each square, seen from its owner's side of the board
  (the mover's kings add theirs, the other side's subtract theirs).

Each weight is a pair of integers, one for a full board and one for an empty board, blended by
the pieces left (a tapered evaluation: ``num = S_full * p + S_empty * (P - p)`` with ``p`` the
pieces on the board, at most ``P`` = the start position's).  The sum is a logit in 1/``unit``
per ``P`` pieces: the side to move's winning chance is ``1 / (1 + exp(-num / (P * unit)))``.
Integers add exactly, so this module (the reference) and the native kernel's copy
(native/src/draughts_impl.h, ``learned_evaluate``) agree to the last bit.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

import numpy as np

from ..geometry import DarkGrid

REGION_SQUARES = 8              # squares a region reads (at most)
PATTERN_SIZE = 3 ** REGION_SQUARES
SCALARS = ("to_move", "men", "kings", "king_lead", "diagonal_kings", "balance")
KING_BITS = 128                 # the king squares' table: one row per bit of the widest board word
MAX_WEIGHT = 1 << 24            # the largest weight a file may hold (the sums stay exact in 64 bits)
STRIDES = (2, 1)                # the layouts a weights file may be fitted on: a window every 2 rows and columns, or every one


@dataclass(frozen=True)
class PatternLayout:
    """The regions the learned evaluation reads on one board (``pattern_layout``).

    ``regions``: each region's squares as bit indices, lowest first (digit j of the region's
    index is its j-th square); ``top_bit``: the half turn of the board maps bit ``b`` to
    ``top_bit - b`` (the mover's view of the second player); ``diagonal``: the long diagonal's
    squares; ``start_pieces``: ``P``, the pieces of the start position; ``signature``: names
    the layout in a weights file (a file of another layout is refused); ``columns``: each
    column's squares, left to right (the balance feature).
    """

    regions: tuple[tuple[int, ...], ...]
    top_bit: int
    diagonal: int
    start_pieces: int
    signature: str
    columns: tuple[int, ...]


def pattern_layout(game, stride: int = 2) -> PatternLayout:
    """The layout of a ``DraughtsGame``'s board: 4x4 windows every ``stride`` rows and columns on
    a dark-square board (8 squares each; at stride 2: 9 regions at 8x8, 16 at 10x10, 25 at 12x12;
    at stride 1: 25, 49 and 81), 2x4 windows on every row pair and every ``stride`` columns on a
    board played on every square (21 at 8x8 and stride 2)."""
    if stride not in STRIDES:
        raise ValueError(f"pattern stride {stride}: one of {', '.join(map(str, STRIDES))} expected")
    grid, n = game.grid, game.variant.size
    dark = isinstance(grid, DarkGrid)
    height = 4 if dark else 2
    rows = range(0, n - height + 1, stride if dark else 1)
    regions = []
    for r0 in rows:
        for c0 in range(0, n - 3, stride):
            squares = sorted(grid.mask(r, c).bit_length() - 1 for r in range(r0, r0 + height)
                             for c in range(c0, c0 + 4) if grid.mask(r, c) & game.points)
            regions.append(tuple(squares))
    if not regions or any(len(r) > REGION_SQUARES for r in regions):
        raise ValueError(f"{game.name}: no pattern layout for a {n}x{n} board")
    top = game.points.bit_length() - 1
    for r in range(n):
        for c in range(n):
            here, there = grid.mask(r, c), grid.mask(n - 1 - r, n - 1 - c)
            if here and there != 1 << (top - (here.bit_length() - 1)):
                raise ValueError(f"{game.name}: the half turn of the board is no bit reversal")
    diagonal = sum(grid.mask(i, i) for i in range(n)) or sum(grid.mask(i, n - 1 - i) for i in range(n))
    digest = hashlib.sha1(repr((regions, top, diagonal)).encode()).hexdigest()[:12]
    signature = f"{'dark' if dark else 'all'}-{n}x{n}-{len(regions)}x{height}x4-{digest}"
    columns = tuple(sum(grid.mask(r, c) for r in range(n)) & game.points for c in range(n))
    return PatternLayout(tuple(regions), top, diagonal, game.start_pieces, signature, columns)


def layout_named(game, signature: str) -> PatternLayout:
    """The layout of ``game``'s board whose signature a weights file names (one of the
    ``STRIDES``); ValueError naming both where none is."""
    layouts = [pattern_layout(game, stride) for stride in STRIDES]
    for layout in layouts:
        if layout.signature == signature:
            return layout
    raise ValueError(f"weights of layout {signature}, where {game.name}'s board has "
                     + " or ".join(layout.signature for layout in layouts))


def rotate(x: int, top_bit: int) -> int:
    """The half turn of the board: bit ``b`` of ``x`` to bit ``top_bit - b``."""
    return int(format(x, f"0{top_bit + 1}b")[::-1], 2) if x else 0


def segments(region: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """A region's squares as runs of consecutive bits ``(shift, width, digit)``: the native
    kernel gathers a region's men with one shift and mask per run (the digits of the run's
    squares start at ``digit``)."""
    runs: list[list[int]] = []
    for digit, bit in enumerate(region):
        if runs and runs[-1][0] + runs[-1][1] == bit:
            runs[-1][1] += 1
        else:
            runs.append([bit, 1, digit])
    return tuple((shift, width, digit) for shift, width, digit in runs)


def region_index(region: tuple[int, ...], mine: int, theirs: int) -> int:
    """A region's base-3 index: digit j is 1 for the mover's man on its j-th square, 2 for the
    other side's, 0 otherwise."""
    index = 0
    for j, bit in enumerate(region):
        index += 3 ** j * (1 if mine >> bit & 1 else 2 if theirs >> bit & 1 else 0)
    return index


def lean(layout: PatternLayout, men: int) -> int:
    """How far ``men`` lean to one side of the board: the sum of ``2 * column - (n - 1)``."""
    n = len(layout.columns)
    return sum((2 * c - (n - 1)) * (men & mask).bit_count() for c, mask in enumerate(layout.columns))


def scalar_features(layout: PatternLayout, own: int, opp: int, kings: int) -> tuple[int, ...]:
    """The scalar features (``SCALARS``' order) for the side to move (``own``)."""
    own_k, opp_k = own & kings, opp & kings
    n_own_k, n_opp_k = own_k.bit_count(), opp_k.bit_count()
    men = (own & ~kings).bit_count() - (opp & ~kings).bit_count()
    lead = int(n_own_k > 0) - int(n_opp_k > 0)
    diagonal = (own_k & layout.diagonal).bit_count() - (opp_k & layout.diagonal).bit_count()
    balance = abs(lean(layout, own & ~kings)) - abs(lean(layout, opp & ~kings))
    return (1, men, n_own_k - n_opp_k, lead, diagonal, balance)


def king_views(layout: PatternLayout, own: int, opp: int, kings: int, turn: int) -> tuple[int, int]:
    """The mover's and the other side's kings, each seen from its owner's side of the board
    (the second player's turned half a turn): what the king squares' weights are read by."""
    own_k, opp_k = own & kings, opp & kings
    return (rotate(own_k, layout.top_bit) if turn else own_k,
            opp_k if turn else rotate(opp_k, layout.top_bit))


@dataclass(frozen=True, eq=False)
class LearnedWeights:
    """One variant's learned evaluation: its weights and where they came from.

    ``patterns``: int32 of shape (regions, ``PATTERN_SIZE``, 2), the full-board and empty-board
    weight of each index; ``scalars``: the pair of each of ``SCALARS``; ``unit``: weights per
    unit of logit; ``layout``: the ``PatternLayout.signature`` they were fitted on;
    ``header``: the provenance lines of the file (the command that made it, its data);
    ``kings``: int32 of shape (``KING_BITS``, 2), the pair of a king on each bit, seen from its
    owner's side (all 0 in a file from before the king squares).
    """

    variant: str
    layout: str
    unit: int
    scalars: tuple[tuple[int, int], ...]
    patterns: np.ndarray
    header: tuple[str, ...] = ()
    kings: np.ndarray = field(default_factory=lambda: np.zeros((KING_BITS, 2), dtype=np.int32))


def learned_balance(layout: PatternLayout, weights: LearnedWeights, own: int, opp: int, kings: int,
                    turn: int) -> int:
    """The integer ``num`` of the side to move (see the module's docstring)."""
    own_men, opp_men = own & ~kings, opp & ~kings
    mine, theirs = (own_men, opp_men) if turn == 0 else (rotate(own_men, layout.top_bit),
                                                         rotate(opp_men, layout.top_bit))
    full = empty = 0
    for r, region in enumerate(layout.regions):
        pair = weights.patterns[r, region_index(region, mine, theirs)]
        full += int(pair[0])
        empty += int(pair[1])
    for value, (w_full, w_empty) in zip(scalar_features(layout, own, opp, kings), weights.scalars):
        full += w_full * value
        empty += w_empty * value
    mine_k, theirs_k = king_views(layout, own, opp, kings, turn)
    for view, sign in ((mine_k, 1), (theirs_k, -1)):
        for bit in range(view.bit_length()):
            if view >> bit & 1:
                full += sign * int(weights.kings[bit, 0])
                empty += sign * int(weights.kings[bit, 1])
    p = min((own | opp).bit_count(), layout.start_pieces)
    return full * p + empty * (layout.start_pieces - p)


def logistic(num: int, start_pieces: int, unit: int) -> float:
    """The winning chance of a balance ``num`` (as the kernel computes it, to the last bit)."""
    x = float(num) / float(start_pieces * unit)
    return 0.0 if x < -700.0 else 1.0 / (1.0 + math.exp(-x))


def learned_evaluate(layout: PatternLayout, weights: LearnedWeights, own: int, opp: int, kings: int,
                     turn: int) -> float:
    """The first player's winning chance in [0, 1] by the learned evaluation (the reference of
    the kernel's ``learned_evaluate``)."""
    mover = logistic(learned_balance(layout, weights, own, opp, kings, turn), layout.start_pieces, weights.unit)
    return mover if turn == 0 else 1.0 - mover


def learned_spec(layout: PatternLayout, weights: LearnedWeights) -> dict:
    """What the kernel's ``with_learned`` takes: the layout and weights as numbers (the
    pattern weights as the bytes of a native int32 array, never text)."""
    if weights.layout != layout.signature:
        raise ValueError(f"weights of layout {weights.layout} for a board of layout {layout.signature}")
    patterns = np.ascontiguousarray(weights.patterns, dtype=np.int32)
    if patterns.shape != (len(layout.regions), PATTERN_SIZE, 2):
        raise ValueError(f"pattern weights of shape {patterns.shape}, not {(len(layout.regions), PATTERN_SIZE, 2)}")
    kings = np.ascontiguousarray(weights.kings, dtype=np.int32)
    if kings.shape != (KING_BITS, 2) or kings[layout.top_bit + 1:].any():
        raise ValueError(f"king square weights of shape {kings.shape} or beyond bit {layout.top_bit}")
    return {
        "regions": tuple(segments(r) for r in layout.regions),
        "patterns": patterns.tobytes(),
        "kings": kings.tobytes(),
        "columns": layout.columns,
        "scalars": tuple((int(a), int(b)) for a, b in weights.scalars),
        "unit": weights.unit, "top_bit": layout.top_bit, "diagonal": layout.diagonal,
        "start_pieces": layout.start_pieces,
    }
