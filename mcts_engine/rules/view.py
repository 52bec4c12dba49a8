"""What a board looks like and how a move is entered on it: the drawing contract.

Two contract members of ``State`` (declared in ``base.py``) return these values:

* ``board_view()`` -> ``BoardView``: the points a piece can stand on (name and x/y),
  the shaded cells of a square board, the lines of a line board, the pieces (owner,
  kind, label, pyramid components) and the names along the edges.  A GUI draws any
  game from it without knowing the game.
* ``move_path(move)`` -> ``MovePath``: the points a person clicks to enter a legal
  move (from, each landing point, to; a drop's one cell) and the points whose pieces
  the move captures, so a GUI can resolve clicks against the legal moves and mark
  what a move will take.

Coordinates are in board units with x to the right and y upwards, seen from the
first player's side: a square board of ``cols x rows`` cells spans ``0..cols`` by
``0..rows``, cell (row, col) is the unit square at (col, row) and its point is the
cell's centre.  Line boards put their points at the same centres (the lines join
them), so one drawing code serves both.  The helpers at the end build views from
``geometry.Grid`` layouts; each game's ``board_view`` only lists its pieces.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable, Iterable

from .geometry import FILES, Grid, indices


@dataclass(frozen=True)
class ViewPoint:
    """A point a piece can stand on: its notation name and its centre in board units."""

    name: str
    x: float
    y: float


@dataclass(frozen=True)
class ViewCell:
    """A unit square drawn on a square board: lower-left corner (x, y) and its shade
    (``dark``, ``light`` or ``plain`` for one-coloured boards)."""

    x: float
    y: float
    shade: str


@dataclass(frozen=True)
class ViewPiece:
    """A piece on a point.

    ``owner`` is the player (0 moves first); ``kind`` names its shape (``man``,
    ``king``, ``stone``, ``prince``, ``runner``, ``left``/``right`` blockers, ``goose``,
    ``fox``, ``round``, ``triangle``, ``square``, ``pyramid``); ``label`` is text drawn on
    it (a Rithmomachia value); ``parts`` a pyramid's components (``S36``; a lost one
    prefixed with ``x``).
    """

    point: str
    owner: int
    kind: str
    label: str = ""
    parts: tuple[str, ...] = ()


@dataclass(frozen=True)
class BoardView:
    """Everything needed to draw a position of any game.

    ``width`` x ``height`` is the board's extent in board units; ``cells`` are drawn
    first, then ``lines`` (pairs of point names), then ``pieces``.  ``files`` and
    ``ranks`` are edge labels with their x (below the board) and y (left of it);
    ``point_labels`` asks for every point's name to be drawn on it (numbered draughts
    squares).  ``piece_size`` is a piece's radius in board units.  An empty view
    (no points) means the game has no drawing: a GUI lists the moves instead.
    """

    width: float = 0
    height: float = 0
    points: tuple[ViewPoint, ...] = ()
    cells: tuple[ViewCell, ...] = ()
    lines: tuple[tuple[str, str], ...] = ()
    pieces: tuple[ViewPiece, ...] = ()
    files: tuple[tuple[str, float], ...] = ()
    ranks: tuple[tuple[str, float], ...] = ()
    point_labels: bool = False
    piece_size: float = 0.42

    def to_dict(self) -> dict:
        """The view as plain JSON-ready data (lists and dicts)."""
        return asdict(self)


@dataclass(frozen=True)
class MovePath:
    """How a legal move is entered by clicks, and what it takes.

    ``points``: the point names clicked in order (the start, then every landing
    point; a drop's one cell); empty for a game without a drawing.  ``captures``: the
    points whose pieces the move removes or changes (Fanorona's approach and
    withdrawal moves with the same path differ only here, so a click on a stone the
    move takes tells them apart).
    """

    points: tuple[str, ...] = ()
    captures: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """The path as plain JSON-ready data."""
        return {"points": list(self.points), "captures": list(self.captures)}


# --- helpers the games' board_view / move_path share -------------------------------------

def centre(grid: Grid, index: int) -> tuple[float, float]:
    """(x, y) of the centre of a grid cell given by bit index."""
    r, c = grid.coords(index)
    return c + 0.5, r + 0.5


def grid_points(grid: Grid, names: dict[int, str], mask: int | None = None) -> tuple[ViewPoint, ...]:
    """The points of ``mask`` (default: the grid's points) named by ``names``."""
    out = []
    for i in indices(grid.points if mask is None else mask):
        x, y = centre(grid, i)
        out.append(ViewPoint(names[i], x, y))
    return tuple(out)


def edge_labels(grid: Grid, file_step: int = 1, rank_names: Callable[[int], str] | None = None
                ) -> tuple[tuple[tuple[str, float], ...], tuple[tuple[str, float], ...]]:
    """File letters under every ``file_step``-th column and rank numbers beside every row."""
    files = tuple((FILES[c // file_step], c + 0.5) for c in range(0, grid.cols, file_step))
    ranks = tuple(((rank_names or (lambda r: str(r + 1)))(r), r + 0.5) for r in range(grid.rows))
    return files, ranks


def square_view(grid: Grid, names: dict[int, str], pieces: Iterable[ViewPiece], *,
                shade: Callable[[int, int], str], algebraic: bool = True) -> BoardView:
    """A square board: every cell shaded by ``shade(row, col)``; the grid's points named.

    ``algebraic`` puts file letters and rank numbers on the edges; otherwise (PDN
    numbers) every point's name is drawn on it.
    """
    cells = tuple(ViewCell(c, r, shade(r, c)) for r in range(grid.rows) for c in range(grid.cols))
    files, ranks = edge_labels(grid) if algebraic else ((), ())
    return BoardView(grid.cols, grid.rows, grid_points(grid, names), cells, (), tuple(pieces), files, ranks,
                     point_labels=not algebraic)


def line_view(grid: Grid, names: dict[int, str], steps: Iterable[tuple[int, int]], pieces: Iterable[ViewPiece],
              *, file_step: int = 1, piece_size: float = 0.36) -> BoardView:
    """A line board: the grid's points and a line for every ``(delta, from-mask)`` in ``steps``
    (one step along ``delta`` from each point of the mask, the way ``LineBoard.lines`` and
    Dablot's directions are kept; give each direction once or both ways, duplicates merge)."""
    seen, lines = set(), []
    for delta, mask in steps:
        for i in indices(mask):
            j = i + delta
            if j < 0 or not grid.points >> j & 1:
                continue
            key = (min(i, j), max(i, j))
            if key not in seen:
                seen.add(key)
                lines.append((names[key[0]], names[key[1]]))
    files, ranks = edge_labels(grid, file_step)
    return BoardView(grid.cols, grid.rows, grid_points(grid, names), (), tuple(lines), tuple(pieces), files, ranks,
                     piece_size=piece_size)


def mask_names(names: dict[int, str], mask: int) -> tuple[str, ...]:
    """The names of the points of a mask, lowest bit first."""
    return tuple(names[i] for i in indices(mask))
