"""The bit layout: shifts, ghost columns, masks and names at the edges."""
from mcts_engine.rules.geometry import DIAGONAL, Grid, bits, indices, shift


def test_every_direction_is_one_shift_and_ghosts_stop_wrapping():
    grid = Grid(8, 8)
    east, west, north, south = grid.delta(0, 1), grid.delta(0, -1), grid.delta(1, 0), grid.delta(-1, 0)
    h1, a2 = grid.mask(0, 7), grid.mask(1, 0)
    assert shift(h1, east) & grid.points == 0          # off the east edge: a ghost bit
    assert shift(a2, west) & grid.points == 0          # off the west edge: the ghost of row 0
    assert shift(grid.mask(7, 3), north) & grid.points == 0
    assert shift(grid.mask(0, 3), south) == 0
    assert shift(grid.mask(3, 3), grid.delta(1, 1)) == grid.mask(4, 4)
    assert shift(grid.mask(3, 3), grid.delta(-1, -1)) == grid.mask(2, 2)


def test_two_ghost_columns_stop_two_cell_steps():
    grid = Grid(10, 10, ghost=2)
    two_east = grid.delta(0, 2)
    for col in (8, 9):
        assert shift(grid.mask(4, col), two_east) & grid.points == 0
    assert shift(grid.mask(4, 7), two_east) == grid.mask(4, 9)


def test_partial_lines_for_alquerque_style_boards():
    grid = Grid(5, 5)
    diagonal_points = grid.where(lambda r, c: (r + c) % 2 == 0)
    north_east = grid.line_from(1, 1, diagonal_points)
    assert north_east >> grid.index(0, 0) & 1
    assert not north_east >> grid.index(0, 1) & 1      # no diagonal through b1
    assert not north_east >> grid.index(4, 4) & 1      # the line ends at the corner


def test_names_and_numbering_at_the_edges():
    grid = Grid(8, 8, points=Grid(8, 8).where(lambda r, c: (r + c) % 2 == 0))
    assert grid.algebraic(grid.index(0, 0)) == "a1"
    assert grid.parse_algebraic("h8") == grid.index(7, 7)
    assert grid.parse_algebraic("b1") is None           # a light square
    assert grid.parse_algebraic("i1") is None and grid.parse_algebraic("a9") is None
    order = grid.numbering(top_down=True, left_to_right=True)
    assert len(order) == 32 and order[0] == grid.index(7, 1) and order[-1] == grid.index(0, 6)


def test_bit_iteration():
    assert list(bits(0b10110)) == [2, 4, 16]
    assert indices(0b10110) == [1, 2, 4]
    assert indices(0) == []


def test_dark_grid_steps_land_on_the_neighbour_or_off_the_board():
    """Every step of every draughts direction, from every dark square: the shift lands on the
    geometric neighbour when it is on the board, else on no square (a ghost bit or off the
    int), so the move generator never wraps a step from one edge to the other."""
    from mcts_engine.rules.geometry import DarkGrid

    for size, invert, ghost, steps in ((8, False, 1, DIAGONAL), (8, True, 1, DIAGONAL), (10, False, 1, DIAGONAL),
                                       (12, False, 1, DIAGONAL),
                                       (10, False, 3, DIAGONAL + ((2, 0), (-2, 0), (0, 2), (0, -2)))):
        grid = DarkGrid(size, invert, ghost)
        assert grid.points.bit_count() == size * size // 2
        for i in indices(grid.points):
            r, c = grid.coords(i)
            for dr, dc in steps:
                landed = 1 << i
                for n in (1, 2, 3):       # a step, a jump's landing, a flying king's ray
                    landed = shift(landed, grid.delta(dr, dc)) & grid.points
                    assert landed == grid.mask(r + n * dr, c + n * dc), (size, ghost, (r, c), (dr, dc))


def test_dark_grid_names_and_order():
    """Square names, numbering and the row-major bit order of the dense layout."""
    from mcts_engine.rules.geometry import DarkGrid

    grid = DarkGrid(8)
    assert grid.points.bit_length() == 36 and DarkGrid(10).points.bit_length() == 55
    assert DarkGrid(10, ghost=3).points.bit_length() == 64
    assert grid.algebraic(grid.index(0, 0)) == "a1" and grid.parse_algebraic("b1") is None
    order = grid.numbering(top_down=True, left_to_right=True)
    assert len(order) == 32 and order[0] == grid.index(7, 1) and order[-1] == grid.index(0, 6)
    assert indices(grid.points) == sorted(grid.index(r, c) for r in range(8) for c in range(8) if (r + c) % 2 == 0)
