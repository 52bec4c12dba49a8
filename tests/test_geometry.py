"""The bit layout: shifts, ghost columns, masks and names at the edges."""
from mcts_engine.rules.geometry import Grid, bits, indices, shift


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
