"""Rithmomachia glorious victories (rules file §7.2.1 and its options).

A side wins when its enemy territory holds three distinct pieces, at least one its
own, standing in a line (equal spacing, any step vector unless ``glorious_lines``
narrows it) or a right angle (corner plus two cells at equal distance on its rank and
file), whose values (a pyramid offers its total or any one component) form an
arithmetic, geometric or harmonic progression.  ``glorious_author_literal`` restores
the reference's slips: a pyramid's own values may form a progression on one cell,
constant triples count, and the right angle opening East and South is missed.
"""
from __future__ import annotations

from math import gcd

from ..geometry import indices


def progression(a: int, b: int, c: int, constant_ok: bool) -> bool:
    """Whether three values, in any order, are arithmetic, geometric or harmonic (§7.2.1 item 4)."""
    a, b, c = sorted((a, b, c))
    if a == c:
        return constant_ok
    if a == b or b == c:
        return False
    return b - a == c - b or b * b == a * c or b * (a + c) == 2 * a * c


def _values(piece) -> list[int]:
    if type(piece) is tuple:
        comps, alive = piece
        vals = [cc >> 2 for i, cc in enumerate(comps) if alive >> i & 1]
        return vals + [sum(vals)]
    return [piece >> 2]


def glorious_win(state, side: int) -> bool:
    """Whether ``side`` (0 White, 1 Black) has a glorious victory on the current position."""
    g = state.game
    o = g.options
    if o["glorious"] == "after_pyramid" and state.m[(side ^ 1) * 4 + 3]:
        return False
    literal = o["glorious_author_literal"]
    area = g.territory[side]
    occ = state.occupancy(0) | state.occupancy(1)
    own = state.occupancy(side) & area
    if not own:
        return False
    board, stride = state.board, g.stride
    cells = indices(occ & area)
    pos = {i: divmod(i, stride) for i in cells}
    values = {i: _values(board[i]) for i in cells}
    if literal:
        for i in indices(own):
            if type(board[i]) is tuple and _three_from_one(values[i]):
                return True
    lines = o["glorious_lines"]
    ordered, unobstructed = o["glorious_ordered"], o["glorious_unobstructed"]

    def at(r: int, c: int) -> int | None:
        if 0 <= r < g.ranks and 0 <= c < 8:
            i = r * stride + c
            if i in pos:
                return i
        return None

    def line_ok(p: int, q: int, z: int) -> bool:
        """p, q, z in line order (q in the middle)."""
        (r1, c1), (r2, c2) = pos[p], pos[q]
        dr, dc = r2 - r1, c2 - c1
        if lines == "orthogonal" and dr and dc:
            return False
        if lines == "orthogonal_diagonal" and dr and dc and abs(dr) != abs(dc):
            return False
        if unobstructed:
            k = gcd(abs(dr), abs(dc))
            sr, sc = dr // k, dc // k
            for a, (r0, c0) in ((p, pos[p]), (q, pos[q])):
                for j in range(1, k):
                    if occ >> ((r0 + j * sr) * stride + c0 + j * sc) & 1:
                        return False
        return True

    def values_ok(p: int, q: int, z: int, middle: int | None) -> bool:
        for a in values[p]:
            for b in values[q]:
                for c in values[z]:
                    if progression(a, b, c, literal):
                        if middle is None:
                            return True
                        mid = {p: a, q: b, z: c}[middle]
                        lo, hi = sorted((a, b, c))[0], sorted((a, b, c))[2]
                        if lo < mid < hi or (literal and lo == hi):
                            return True
        return False

    def angle_ok(corner: int, p: int, q: int) -> bool:
        if not literal:
            return True
        r0, c0 = pos[corner]
        arms = {((pos[a][0] > r0) - (pos[a][0] < r0), (pos[a][1] > c0) - (pos[a][1] < c0)) for a in (p, q)}
        return arms != {(0, 1), (-1, 0)}   # the missed orientation: arms to the East and to the South

    for x in indices(own):
        rx, cx = pos[x]
        for y in cells:
            if y == x:
                continue
            ry, cy = pos[y]
            dr, dc = ry - rx, cy - cx
            # lines: x-y-z, z-x-y, x-z-y
            z = at(ry + dr, cy + dc)
            if z is not None and z not in (x, y) and line_ok(x, y, z) and values_ok(x, y, z, y if ordered else None):
                return True
            z = at(rx - dr, cx - dc)
            if z is not None and z not in (x, y) and line_ok(z, x, y) and values_ok(z, x, y, x if ordered else None):
                return True
            if dr % 2 == 0 and dc % 2 == 0:
                z = at(rx + dr // 2, cx + dc // 2)
                if z is not None and line_ok(x, z, y) and values_ok(x, z, y, z if ordered else None):
                    return True
            # right angles: corner x, corner y, or corner z
            for corner, other in ((x, y), (y, x)):
                r0, c0 = pos[corner]
                ro, co = pos[other]
                if (ro == r0) != (co == c0):
                    k = abs(ro - r0) + abs(co - c0)
                    thirds = ([(r0 + k, c0), (r0 - k, c0)] if ro == r0 else [(r0, c0 + k), (r0, c0 - k)])
                    for r3, c3 in thirds:
                        z = at(r3, c3)
                        if z is not None and angle_ok(corner, other, z) and values_ok(x, y, z, None):
                            return True
            if abs(dr) == abs(dc) and dr:
                for r3, c3 in ((rx, cy), (ry, cx)):
                    z = at(r3, c3)
                    if z is not None and angle_ok(z, x, y) and values_ok(x, y, z, None):
                        return True
    return False


def _three_from_one(vals: list[int]) -> bool:
    """The reference slip: three values of one pyramid (its entries on one cell) in progression."""
    n = len(vals)
    return any(progression(vals[i], vals[j], vals[k], True)
               for i in range(n) for j in range(i + 1, n) for k in range(j + 1, n))
