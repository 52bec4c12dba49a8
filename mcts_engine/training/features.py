"""The learned evaluation's features of many positions at once, with numpy: the same features
``rules/draughts/learned.py`` reads one position at a time (a test checks that a fitted model
scores every position here as the reference does).

Each position becomes: the column of each region's pattern in the flat weight table (region
``r``'s index plus ``r * PATTERN_SIZE``), the scalar features followed by one column per bit of
the board for the king squares (+1 for the mover's king there, -1 for the other side's, each
seen from its owner's side), and the full board's share of the blend, ``min(pieces, P) / P``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..rules.draughts.learned import PATTERN_SIZE, REGION_SQUARES, SCALARS, PatternLayout
from .dataset import Positions

CHUNK = 1 << 16          # positions per numpy pass (their bit matrices stay small)


@dataclass
class Features:
    """The features of ``n`` positions: ``columns`` (n, regions) int32, ``scalars`` (n,
    ``scalar_count(layout)``) float64 (``SCALARS``, then the king squares), ``phase`` (n,)
    float64."""

    columns: np.ndarray
    scalars: np.ndarray
    phase: np.ndarray

    def __len__(self) -> int:
        return len(self.phase)

    def take(self, rows: np.ndarray) -> "Features":
        """The features of ``rows`` (indices or a boolean mask)."""
        return Features(self.columns[rows], self.scalars[rows], self.phase[rows])


def scalar_count(layout: PatternLayout) -> int:
    """The scalar columns of a layout's features: ``SCALARS``, then one per bit of the board."""
    return len(SCALARS) + layout.top_bit + 1


def _turned(bits: np.ndarray, rows: np.ndarray, top: int) -> np.ndarray:
    """``bits`` with the board of ``rows`` turned half a turn (bit b to bit ``top - b``)."""
    out = bits.copy()
    out[rows, :top + 1] = bits[rows, top::-1]
    return out


def board_bits(words: np.ndarray) -> np.ndarray:
    """(n, 2) uint64 masks (low, high) as an (n, 128) uint8 matrix of their bits, bit 0 first."""
    raw = np.ascontiguousarray(words, dtype="<u8").view(np.uint8).reshape(-1, 16)
    return np.unpackbits(raw, axis=1, bitorder="little")


def _chunk_features(layout: PatternLayout, positions: Positions) -> Features:
    own, opp, kings = board_bits(positions.own), board_bits(positions.opp), board_bits(positions.kings)
    second = positions.turn == 1
    top = layout.top_bit
    men_mine = _turned(own & (1 - kings), second, top)        # the mover's view of the board
    men_theirs = _turned(opp & (1 - kings), second, top)
    powers = 3 ** np.arange(REGION_SQUARES, dtype=np.int32)
    columns = np.empty((len(positions), len(layout.regions)), dtype=np.int32)
    for r, region in enumerate(layout.regions):
        squares = list(region)
        digits = men_mine[:, squares].astype(np.int32) + 2 * men_theirs[:, squares].astype(np.int32)
        columns[:, r] = digits @ powers[:len(squares)] + r * PATTERN_SIZE
    diagonal = board_bits(_mask_words(layout.diagonal))[0]
    own_k, opp_k = (own & kings).astype(np.int64), (opp & kings).astype(np.int64)
    n_own_k, n_opp_k = own_k.sum(1), opp_k.sum(1)
    n = len(layout.columns)
    skew = sum((2 * c - (n - 1)) * board_bits(_mask_words(mask))[0].astype(np.int64)
               for c, mask in enumerate(layout.columns))
    scalars = np.stack([
        np.ones(len(positions)),
        men_mine.sum(1, dtype=np.int64) - men_theirs.sum(1, dtype=np.int64),
        n_own_k - n_opp_k,
        (n_own_k > 0).astype(np.int64) - (n_opp_k > 0),
        own_k @ diagonal.astype(np.int64) - opp_k @ diagonal.astype(np.int64),
        np.abs(men_mine.astype(np.int64) @ skew) - np.abs(men_theirs.astype(np.int64) @ skew),
    ], axis=1).astype(np.float64)
    king_squares = (_turned(own & kings, second, top)[:, :top + 1].astype(np.float64)
                    - _turned(opp & kings, ~second, top)[:, :top + 1])
    pieces = np.minimum((own | opp).sum(1, dtype=np.int64), layout.start_pieces)
    return Features(columns, np.concatenate([scalars, king_squares], axis=1), pieces / layout.start_pieces)


def _mask_words(mask: int) -> np.ndarray:
    return np.array([[mask & ((1 << 64) - 1), mask >> 64]], dtype=np.uint64)


def features(layout: PatternLayout, positions: Positions) -> Features:
    """The features of every position (in chunks of ``CHUNK``)."""
    parts = [_chunk_features(layout, positions.take(np.arange(i, min(i + CHUNK, len(positions)))))
             for i in range(0, len(positions), CHUNK)]
    if not parts:
        return Features(np.zeros((0, len(layout.regions)), np.int32), np.zeros((0, scalar_count(layout))),
                        np.zeros(0))
    return Features(np.concatenate([p.columns for p in parts]), np.concatenate([p.scalars for p in parts]),
                    np.concatenate([p.phase for p in parts]))
