"""Boards as bit layouts on Python ints.

A board of ``rows x cols`` cells is laid row by row on the bits of an int, with
``ghost`` unused bit columns at the end of every row.  Bit ``row * stride + col``
(``stride = cols + ghost``) is the cell in row ``row`` (0 = the first player's
near side, rank 1) and column ``col`` (0 = file a).

Why ghost columns: a step in any direction is then one shift by a constant
``delta``.  A step off the east or west edge lands on a ghost bit, a step off the
top lands above the board and a step off the bottom falls off the int, so the
caller's next ``& empty`` (or ``& points``) drops it with no extra edge mask.
One ghost column serves single diagonal and orthogonal steps; a board that also
steps two columns at once (Frisian orthogonal jumps on dark squares) asks for two.

Boards whose lines exist only at some points (Alquerque's diagonals) use
``line_from(delta, where)``: the points of ``where`` from which a step along
``delta`` stays on the board.

Coordinates (``a1``) and PDN square numbers are translated here, at the edges;
hot loops never see them.
"""
from __future__ import annotations

from typing import Iterator

FILES = "abcdefghijklmnopqrstuvwxyz"


def shift(x: int, delta: int) -> int:
    """Move every bit of ``x`` by ``delta`` positions (negative = towards bit 0)."""
    return x << delta if delta >= 0 else x >> -delta


def bits(x: int) -> Iterator[int]:
    """Yield the single-bit masks of ``x``, lowest first."""
    while x:
        low = x & -x
        yield low
        x ^= low


def indices(x: int) -> list[int]:
    """The bit indices set in ``x``, lowest first."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


class Grid:
    """A rectangular board of ``rows x cols`` cells mapped onto bits with ghost columns.

    ``points`` is the mask of cells that are part of the game (all cells by
    default; the dark squares for draughts).  Directions are plain ints
    (``delta(drow, dcol)``), so a step is ``shift(x, delta)``.
    """

    def __init__(self, rows: int, cols: int, ghost: int = 1, points: int | None = None):
        if rows < 1 or cols < 1 or cols > len(FILES) or ghost < 1:
            raise ValueError(f"bad grid {rows}x{cols} ghost={ghost}")
        self.rows = rows
        self.cols = cols
        self.ghost = ghost
        self.stride = cols + ghost
        self.cells = sum(self.mask(r, c) for r in range(rows) for c in range(cols))
        self.points = self.cells if points is None else points & self.cells

    # --- cells and directions -------------------------------------------------
    def index(self, row: int, col: int) -> int:
        """Bit index of the cell (row, col)."""
        return row * self.stride + col

    def mask(self, row: int, col: int) -> int:
        """Single-bit mask of the cell (row, col)."""
        return 1 << (row * self.stride + col)

    def coords(self, index: int) -> tuple[int, int]:
        """(row, col) of a bit index."""
        return divmod(index, self.stride)

    def delta(self, drow: int, dcol: int) -> int:
        """The shift that moves a cell ``drow`` rows up and ``dcol`` columns right."""
        return drow * self.stride + dcol

    def row_mask(self, row: int) -> int:
        """The points of one row."""
        return sum(self.mask(row, c) for c in range(self.cols)) & self.points

    def col_mask(self, col: int) -> int:
        """The points of one column."""
        return sum(self.mask(r, col) for r in range(self.rows)) & self.points

    def where(self, predicate) -> int:
        """The mask of points whose (row, col) satisfies ``predicate``."""
        return sum(self.mask(r, c) for r in range(self.rows) for c in range(self.cols)
                   if predicate(r, c)) & self.points

    def line_from(self, drow: int, dcol: int, where: int | None = None) -> int:
        """Points of ``where`` (default: all) from which one step (drow, dcol) is a point.

        Boards whose lines exist only at some points (Alquerque's diagonals) keep
        this mask per direction and AND it in before the shift.
        """
        where = self.points if where is None else where
        out = 0
        for r in range(self.rows):
            for c in range(self.cols):
                if (self.mask(r, c) & where and 0 <= r + drow < self.rows
                        and 0 <= c + dcol < self.cols and self.mask(r + drow, c + dcol) & self.points):
                    out |= self.mask(r, c)
        return out

    # --- names at the edges ---------------------------------------------------
    def algebraic(self, index: int) -> str:
        """Name of a cell as file letter + rank number (``a1`` is row 0, col 0)."""
        r, c = self.coords(index)
        return f"{FILES[c]}{r + 1}"

    def parse_algebraic(self, text: str) -> int | None:
        """Bit index of an algebraic cell name, or None if it is not a point."""
        text = text.strip().lower()
        if len(text) < 2 or text[0] not in FILES[: self.cols] or not text[1:].isdigit():
            return None
        col = FILES.index(text[0])
        row = int(text[1:]) - 1
        if not 0 <= row < self.rows:
            return None
        return self.index(row, col) if self.mask(row, col) & self.points else None

    def numbering(self, top_down: bool = True, left_to_right: bool = True) -> list[int]:
        """Bit indices of the points in PDN numbering order (square 1 first).

        PDN numbers run along rows: ``top_down`` starts at the far rank (as seen from
        row 0's side), ``left_to_right`` starts each row at file a.
        """
        rows = range(self.rows - 1, -1, -1) if top_down else range(self.rows)
        cols = range(self.cols) if left_to_right else range(self.cols - 1, -1, -1)
        return [self.index(r, c) for r in rows for c in cols if self.mask(r, c) & self.points]


class DarkGrid(Grid):
    """The dark squares of a ``size`` x ``size`` draughts board, two cells to a bit (Scan's layout).

    Cell ``(row, col)`` is bit ``(row * stride + col) // 2`` with an odd ``stride = size + ghost``:
    the dark squares (``row + col`` of one parity; ``invert``: odd) fill the bits row by row,
    ``ghost`` unused bits after every two rows, and each step between dark squares is one
    shift: ``delta(1, 1) = (stride + 1) / 2`` and ``delta(1, -1) = (stride - 1) / 2`` along the
    diagonals, ``delta(0, 2) = 1`` and ``delta(2, 0) = stride`` two cells along the lines.
    A diagonal step off the east or west edge lands on a ghost bit, so ``ghost = 1`` serves
    boards with diagonal moves; ``ghost = 3`` makes a step two cells sideways off the edge land
    on a ghost too (Frisian orthogonal captures).  A board is 36 bits at 8x8 and 55 (64 with
    ``ghost = 3``) at 10x10, so up to 10x10 the position is one machine word in the native
    kernel and the same int here; 12x12 takes 78 bits.  Squares keep the row-major order of
    ``Grid``, so square ranks (the endgame tables' numbering) are the same in both layouts.
    Light cells have no bit: their ``mask`` is 0.
    """

    def __init__(self, size: int, invert: bool = False, ghost: int = 1):
        if size < 2 or size % 2 or ghost not in (1, 3):
            raise ValueError(f"bad dark-square grid {size}x{size} ghost={ghost}")
        self.rows = self.cols = size
        self.ghost = ghost
        self.stride = size + ghost
        self.parity = 1 if invert else 0
        self._coords = {self.index(r, c): (r, c) for r in range(size) for c in range(size)
                        if (r + c) % 2 == self.parity}
        self.cells = self.points = sum(1 << i for i in self._coords)

    def is_point(self, row: int, col: int) -> bool:
        """Whether ``(row, col)`` is a dark square of the board."""
        return 0 <= row < self.rows and 0 <= col < self.cols and (row + col) % 2 == self.parity

    def index(self, row: int, col: int) -> int:
        """Bit index of a dark square (a light cell shares its neighbour's bit: see ``mask``)."""
        return (row * self.stride + col) // 2

    def mask(self, row: int, col: int) -> int:
        """Single-bit mask of a dark square; 0 for a light cell or a cell off the board."""
        return 1 << self.index(row, col) if self.is_point(row, col) else 0

    def coords(self, index: int) -> tuple[int, int]:
        """(row, col) of a square's bit index."""
        return self._coords[index]

    def delta(self, drow: int, dcol: int) -> int:
        """The shift between dark squares ``drow`` rows up and ``dcol`` columns right."""
        if (drow + dcol) % 2:
            raise ValueError(f"({drow}, {dcol}) leads from a dark square to a light one")
        return (drow * self.stride + dcol) // 2


# --- boards whose lines exist only at some points ------------------------------------
# A line board is a Grid plus, per direction (drow, dcol), the mask of points from which
# a line runs one step that way (``lines``), and the point names.  Move generators AND
# the mask in before the shift, so a step never leaves the drawn lines (and never wraps).

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


class LineBoard:
    """A ``Grid`` with the lines drawn on it: ``lines[(drow, dcol)]`` = points with a line that way.

    ``names`` maps bit index -> point name (algebraic unless the board says otherwise).
    """

    def __init__(self, grid: Grid, lines: dict[tuple[int, int], int], names: dict[int, str] | None = None):
        self.grid = grid
        self.points = grid.points
        self.lines = {d: m for d, m in lines.items() if m}
        self.names = names if names is not None else {i: grid.algebraic(i) for i in indices(grid.points)}

    def delta(self, direction: tuple[int, int]) -> int:
        """The shift of one step along ``direction``."""
        return self.grid.delta(*direction)

    def neighbours(self, index: int) -> list[int]:
        """Bit indices of the points one line-step away from ``index``."""
        out = []
        for d, mask in self.lines.items():
            if mask >> index & 1:
                out.append(index + self.delta(d))
        return sorted(out)


def strong_points(grid: Grid) -> int:
    """Alquerque's "strong" points: (file + rank) even, counting a = 1 and rank 1 = row 0 (a1 is strong)."""
    return grid.where(lambda r, c: (r + c) % 2 == 0)


def _lines(grid: Grid, dirs, where: int | None = None, scale: int = 1) -> dict[tuple[int, int], int]:
    return {(dr * scale, dc * scale): grid.line_from(dr * scale, dc * scale, where) for dr, dc in dirs}


def alquerque_board(size: int = 5) -> LineBoard:
    """A ``size`` x ``size`` Alquerque board: orthogonal lines everywhere, diagonals through strong points.

    Alquerque (5), Zamma (9) and Fanorona-style boards.
    """
    grid = Grid(size, size)
    lines = _lines(grid, ORTHOGONAL)
    lines.update(_lines(grid, DIAGONAL, strong_points(grid)))
    return LineBoard(grid, lines)


def harbagh_board(cols: int = 5, rows: int = 5) -> LineBoard:
    """A grid of ``cols`` x ``rows`` points whose every cell has both diagonals meeting at a centre point.

    Laid out on a (2 rows - 1) x (2 cols - 1) grid: grid points at (even row, even col),
    centres at (odd, odd) (the points with row + col even).  Orthogonal lines join grid
    points two cells apart; diagonals join every point to its diagonal neighbours.
    Names: file letter of the column (a centre takes its cell's left edge) + row + 1,
    so grid points have odd ranks (a1, a3, ...) and centres even ranks (a2, b4, ...).
    """
    probe = Grid(2 * rows - 1, 2 * cols - 1)
    grid = Grid(probe.rows, probe.cols, points=probe.where(lambda r, c: (r + c) % 2 == 0))
    corners = grid.where(lambda r, c: r % 2 == 0 and c % 2 == 0)
    lines = _lines(grid, ORTHOGONAL, corners, scale=2)
    lines.update(_lines(grid, DIAGONAL))
    names = {}
    for i in indices(grid.points):
        r, c = grid.coords(i)
        names[i] = f"{FILES[c // 2]}{r + 1}"
    return LineBoard(grid, lines, names)


def cross_board(size: int = 7, arm: int = 3, pattern: str = "all") -> LineBoard:
    """The cross (plus-shaped) board of ``size`` x ``size`` minus the corner blocks: 33 points for 7/3.

    A point exists iff its column or its row is among the middle ``arm``.  ``pattern``:
    ``all`` links every point to each of its 8 neighbours on the board (Dagaz),
    ``alternating`` keeps the diagonals only through strong points (Alquerque style),
    ``orthogonal`` has no diagonals.
    """
    lo, hi = (size - arm) // 2, (size + arm) // 2
    probe = Grid(size, size)
    grid = Grid(size, size, points=probe.where(lambda r, c: lo <= r < hi or lo <= c < hi))
    lines = _lines(grid, ORTHOGONAL)
    if pattern == "all":
        lines.update(_lines(grid, DIAGONAL))
    elif pattern == "alternating":
        lines.update(_lines(grid, DIAGONAL, strong_points(grid)))
    elif pattern != "orthogonal":
        raise ValueError(f"unknown cross board pattern {pattern!r}")
    return LineBoard(grid, lines)
