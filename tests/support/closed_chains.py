"""Draughts positions where a capture chain ends on the square it started from.

The mover's piece has left its square, so a chain may come back to it (draughts.md rule
1.7): four men of the other side round a square, a diamond on diagonal boards and a
square on orthogonal ones (Turkish, Greek).  A king of every variant can run round
them (but Breakthrough's, which has won already); a man only where men jump backwards as well (``all-diag``, ``all-8``).  Playing
such a move must leave the piece on its square: ``own ^ frm ^ to`` keeps it, while
``own ^ (frm | to)`` would take it off the board.
"""
from __future__ import annotations

from dataclasses import dataclass

from mcts_engine.rules.draughts import DraughtsGame, DraughtsState

DIAMOND = ((1, 1), (3, 1), (3, -1), (1, -1))        # the men taken, around a start two rows below the top
SQUARE = ((1, 0), (2, 1), (1, 2), (0, 1))           # orthogonal boards: round the square to the right


@dataclass(frozen=True)
class ClosedChain:
    """A position of ``game`` (first player to move) with a piece on ``start`` that four men
    surround; ``expected`` says whether a chain ending on ``start`` must be legal."""

    label: str
    state: DraughtsState
    start: int
    taken: int
    expected: bool


def _origin(game: DraughtsGame) -> tuple[int, int]:
    """A start (row, col) on a playing square with room for the shape around it."""
    grid = game.grid
    if game.variant.lines == "orthogonal":
        return 1, 1
    col = 2 if grid.mask(1, 2) else 3
    return 1, col


def closed_chains(game: DraughtsGame) -> list[ClosedChain]:
    """A man and a king of the first player ringed by four men of the second, ready to run round."""
    grid = game.grid
    row, col = _origin(game)
    shape = SQUARE if game.variant.lines == "orthogonal" else DIAMOND
    start = grid.mask(row, col)
    taken = 0
    for dr, dc in shape:
        cell = grid.mask(row + dr, col + dc)
        assert cell, (game.name, row + dr, col + dc)
        taken |= cell
    men_jump_back = game.variant.man_jumps in ("all-diag", "all-8")
    out = [ClosedChain(f"{game.name}-man", DraughtsState(game, start, taken, 0, 0), start, taken, men_jump_back)]
    if not game.crown_wins:                          # Breakthrough: a king on the board has already won
        out.append(ClosedChain(f"{game.name}-king", DraughtsState(game, start, taken, start, 0), start, taken, True))
    return out


def closing_moves(chain: ClosedChain) -> list:
    """The legal moves of the position that end where they began."""
    return [m for m in chain.state.legal_moves() if m[0] == m[1] == chain.start]
