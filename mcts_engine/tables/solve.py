"""Solving one material: retrograde analysis over the rules' own move generator.

A table holds, for every position of a material, the plies to the end of the game along
best play when one side can force it: the side to move wins in n plies if one of its moves
leaves the other side lost in n - 1, and is lost in n if every move leaves the other side
winning in at most n - 1 (lost in 0: no move at all).  A material and the one after a quiet
move (the same pieces, the other side to move) are solved together, since play alternates
between them; a capture or a crowning leaves them for a smaller material, whose table is
solved first and read at the edge (an *exit*).

The draw rules are kept conservatively, so a table never claims a win the rules would
draw:

* Counts are not part of a position.  A table's value is good while the game has that many
  quiet plies left (``DraughtsState.quiet_plies_left``): the prober checks it.
* A placement whose endgame count is stricter than its material's usual one (Russian: the
  lone king on the long diagonal, the kings off it) is never solved, so no line of best
  play passes through it.
* An exit through a capture restarts the counts: the smaller table's value counts if it
  fits in the no-progress rule and that material's count.  An exit through a crowning
  restarts only the no-progress rule, so it counts only where the new material has no
  endgame count.
* A line of best play shortens the distance at every ply, so it never repeats a position.

Where none of these cautions had to leave a position unsolved (no stricter placement, no
exit whose value was dropped), a table is ``exact``: a position it leaves unknown is a
draw, whatever the counts (they only add draws).

The analysis itself is numpy over the positions' moves: each position's successors are
listed once with the rules' ``legal`` and ``child``, then results spread backwards level by
level (a loss makes its predecessors wins; a win counts down its predecessors' moves left,
and a position with none left is lost).
"""
from __future__ import annotations

import os
from array import array
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..rules.base import Game
from .material import Material, Numbering

UNKNOWN = 0           # no forced result: a draw, or a win the draw rules may spoil
# The solver's peak memory: so much a numbered position (its degree, value, counters and the
# predecessors' starts) and so much a move (its target, then the sorted key its predecessor
# comes from: _Graph.predecessors).  Fitted to what three builds' peaks added to the process
# (English 3K-3K: 24.6 M positions, 91 M moves, 1.8 GB; International 4K-1K: 23.0 M, 300 M,
# 4.0 GB; International 3K1M-1K/0: 98 M, 962 M, 13.8 GB), and 9% above each.
BYTES_PER_POSITION = 36
BYTES_PER_MOVE = 12
# The Python walk lists a position's moves as it goes, so its check assumes this many a
# position (International's flying kings make 8 to 14; English's 5).
WALK_MOVES_PER_POSITION = 16
# Node indices are 32-bit: the positions plus the exits' nodes (one per distinct value).
MAX_NODES = 2 ** 31 - 2 ** 17
KEY_CHUNK = 1 << 20           # positions whose moves become sort keys at a time
# a move leaving the material, as the kernel's table_graph lists it (TableExit, native/src/draughts.h)
EXIT = np.dtype([("at", "<i8"), ("index", "<i8"), ("classes", "i1", (4,)), ("turn", "i1"), ("pad", "V3")])


@dataclass(frozen=True)
class Table:
    """One material's solved positions.

    ``values[numbering.index(...)]``: ``UNKNOWN``, or the plies to the end along best play
    plus one, positive where the side to move wins and negative where it loses.
    ``count``: the endgame count (plies since the last capture) of the material's usual
    placements, None where none applies.  ``exact``: every position left unknown is a draw.
    """

    material: Material
    numbering: Numbering
    values: np.ndarray
    count: int | None
    exact: bool

    def value(self, own: int, opp: int, kings: int) -> int:
        """The stored value of one position of this material (``own``: the side to move's)."""
        return int(self.values[self.numbering.index(own, opp, kings)])


def plies_of(value: int) -> int:
    """The plies to the end a non-zero table value stands for."""
    return abs(value) - 1


class TableTooLarge(MemoryError):
    """A material whose solving would need more memory than the machine has available: said
    before the work starts, where the operating system would kill the build hours in.
    ``material``: the one refused (a smaller ending of the one asked for, perhaps); ``needed``:
    the bytes it needs."""

    def __init__(self, message: str, material: Material, needed: int):
        super().__init__(message)
        self.material = material
        self.needed = needed


def available_memory() -> int | None:
    """The bytes this machine can give a new allocation now (Linux's MemAvailable), else its
    physical memory, else None (unknown: no check)."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def memory_needed(positions: int, moves: int) -> int:
    """The bytes solving ``positions`` numbered positions with ``moves`` moves among them takes
    at its peak."""
    return positions * BYTES_PER_POSITION + moves * BYTES_PER_MOVE


def fits_in_memory(needed: int) -> bool:
    """Whether ``needed`` bytes are available now (unknown counts as available)."""
    available = available_memory()
    return available is None or needed <= available


def check_memory(game: Game, material: Material, positions: int, moves: int | None) -> None:
    """Raise ``TableTooLarge`` when solving ``positions`` numbered positions of ``material`` with
    ``moves`` moves among them (None: not counted yet, the positions alone) would need more
    memory than is available, or more nodes than 32-bit indices hold."""
    needed = memory_needed(positions, moves or 0)
    if positions > MAX_NODES or not fits_in_memory(needed):
        available = available_memory()
        what = (f"at least {_size(needed)} to solve ({positions:,} positions with the ending after its quiet moves, "
                f"before their moves)" if moves is None else
                f"about {_size(needed)} to solve ({positions:,} positions with the ending after its quiet moves, "
                f"{moves:,} moves among them)")
        raise TableTooLarge(
            f"{material.name} of {game.name} needs {what} and this machine has "
            f"{_size(available) if available is not None else 'an unknown amount'} available: not built "
            f"(the smaller endings build; docs/tables.md)", material, needed)


def _size(n: int) -> str:
    return f"{n / 1e9:.1f} GB" if n >= 1e9 else f"{n / 1e6:.0f} MB"


def solve(game: Game, material: Material, smaller: Callable[[Material], Table]) -> list[Table]:
    """Solve ``material`` and the material after its quiet moves (one table when they are the
    same); ``smaller(m)`` gives the solved table of a material an exit leads to.
    ``TableTooLarge`` where the machine lacks the memory, said once the moves are counted and
    before they are listed."""
    materials = [material]
    if material.after_quiet_move() != material:
        materials.append(material.after_quiet_move())
    numberings = [Numbering(game, m) for m in materials]
    offsets = [0, numberings[0].size]
    total = sum(n.size for n in numberings)
    check_memory(game, material, total, None)       # the positions alone, before counting their moves
    graph = _Graph(total)
    exits: dict[int, int] = {}                      # an exit's value -> its node after the positions
    pairs = [(numbering, offsets[k], numberings[(k + 1) % len(numberings)], offsets[(k + 1) % len(numberings)])
             for k, numbering in enumerate(numberings)]
    if game.kernel is not None:
        # the kernel counts the moves first, so the check knows them before they are listed
        limits = [_kernel_count(game, numbering, offset, after, graph) for numbering, offset, after, _ in pairs]
        check_memory(game, material, total, int(graph.degree.sum(dtype=np.int64)))
        for numbering, offset, after, after_offset in pairs:
            _kernel_list(game, numbering, offset, after, after_offset, graph, exits, smaller)
    else:
        check_memory(game, material, total, total * WALK_MOVES_PER_POSITION)
        limits = [_count_limits(game, numbering) for numbering, *_ in pairs]
        for numbering, offset, after, after_offset in pairs:
            _list_moves(game, numbering, offset, after, after_offset, graph, exits, smaller)
    values = graph.solve(exits, [(offsets[k], limits[k]) for k in range(len(numberings))])
    exact = graph.exact and not any(_stricter(lim) for lim in limits)
    return [Table(m, n, values[o:o + n.size].copy(), _usual(lim), exact)
            for m, n, o, lim in zip(materials, numberings, offsets, limits)]


class _Graph:
    """The positions' moves as arrays: ``degree`` per position, ``targets`` per move (a
    position's index, or an exit's node after them; 32-bit, one array per material, in the
    positions' order), ``valid`` for the placements in use."""

    def __init__(self, total: int):
        self.total = total
        self.exact = True            # no exit's value was dropped for the draw rules' sake
        self.degree = np.zeros(total, np.int32)
        self.valid = np.zeros(total, bool)
        self.targets: list[np.ndarray] = []

    def rows(self, offset: int, size: int) -> tuple[np.ndarray, np.ndarray]:
        """One material's slices of ``valid`` (as bytes, for the kernel) and ``degree``."""
        return self.valid[offset:offset + size].view(np.uint8), self.degree[offset:offset + size]

    def add_targets(self, targets: np.ndarray) -> None:
        """One material's moves' targets, kept in 32 bits (``check_memory`` bounds the nodes)."""
        self.targets.append(targets.astype(np.int32))

    def solve(self, exits: dict[int, int], limits: list[tuple[int, np.ndarray | None]]) -> np.ndarray:
        """Every position's value (``Table.values``), spread backwards from the lost positions
        and the exits; placements with a stricter count (``limits``) stay unknown."""
        n, nodes = self.total, self.total + len(exits)
        preds, starts = self.predecessors(nodes)         # first: the moves' peak, before the values'
        value = np.zeros(nodes, np.int32)
        for v, node in exits.items():
            value[n + node] = v
        open_ = self.valid.copy()
        for offset, limit in limits:
            if limit is not None:
                usual = limit.max()
                open_[offset:offset + len(limit)] &= limit >= usual
        lost_now = open_ & (self.degree == 0)
        value[:n][lost_now] = -1
        left = np.zeros(nodes, np.int32)
        left[:n] = self.degree
        level = 0
        frontier = np.flatnonzero(value != 0)
        levels = np.abs(value[frontier]) - 1
        pending: dict[int, list[np.ndarray]] = {}          # level -> the nodes valued at it, in arrays
        for at in np.unique(levels):
            pending[int(at)] = [frontier[levels == at]]
        while pending:
            here = np.concatenate(pending.pop(level, [np.zeros(0, np.int64)]))
            if len(here):
                # a position with a move into a loss wins in one more ply
                before = _gather(preds, starts, here[value[here] < 0])
                won = np.unique(before[open_[before] & (value[before] == 0)])
                value[won] = level + 2
                # a position whose every move leads to a win for the other side is lost
                before = _gather(preds, starts, here[value[here] > 0])
                if len(before):
                    hit, times = np.unique(before, return_counts=True)
                    left[hit] -= times.astype(np.int32)
                    lost = hit[(left[hit] == 0) & open_[hit] & (value[hit] == 0)]
                    value[lost] = -(level + 2)
                    fresh = np.concatenate((won, lost))
                else:
                    fresh = won
                if len(fresh):
                    pending.setdefault(level + 1, []).append(fresh)
            level += 1
        if np.abs(value[:n]).max(initial=0) > np.iinfo(np.int16).max:
            raise OverflowError("a table's distance does not fit in 16 bits")
        return value[:n].astype(np.int16)

    def predecessors(self, nodes: int) -> tuple[np.ndarray, np.ndarray]:
        """Each node's predecessors, node after node (``preds[starts[v]:starts[v + 1]]``), each
        node's in increasing order.  Every move becomes one 64-bit key, its target above its
        source, and the keys are sorted in place: at the peak a move costs 12 bytes (its
        32-bit target and its key, then its key and its 32-bit predecessor), where an argsort
        took 20."""
        targets = np.concatenate(self.targets) if self.targets else np.zeros(0, np.int32)
        self.targets = []
        starts = np.zeros(nodes + 1, np.int64)
        np.cumsum(np.bincount(targets, minlength=nodes), out=starts[1:])
        keys = np.empty(len(targets), np.int64)
        ends = np.cumsum(self.degree, dtype=np.int64)
        for lo in range(0, self.total, KEY_CHUNK):
            hi = min(self.total, lo + KEY_CHUNK)
            a, b = (int(ends[lo - 1]) if lo else 0), int(ends[hi - 1])
            part = keys[a:b]
            part[:] = targets[a:b]
            part <<= 32
            part |= np.repeat(np.arange(lo, hi, dtype=np.int64), self.degree[lo:hi])
        del targets, ends
        keys.sort()
        np.bitwise_and(keys, 0xFFFFFFFF, out=keys)
        preds = keys.astype(np.int32)
        return preds, starts


def _gather(preds: np.ndarray, starts: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """The predecessors of ``nodes``, concatenated (with repeats)."""
    if not len(nodes):
        return np.zeros(0, np.int64)
    begin, end = starts[nodes], starts[nodes + 1]
    lengths = end - begin
    shift = np.repeat(begin - np.concatenate(([0], np.cumsum(lengths)[:-1])), lengths)
    return preds[shift + np.arange(lengths.sum())]


def _kernel_count(game, numbering: Numbering, offset: int, after: Numbering, graph: _Graph) -> np.ndarray | None:
    """The kernel's first pass over ``numbering`` (``table_graph``): each position's moves
    counted into ``graph.degree``, its placements marked in ``graph.valid``.  Returns the
    placements' endgame counts."""
    size = numbering.size
    valid, degree = graph.rows(offset, size)
    limit = None if game.endgame_counts is None else np.full(size, -1, np.int32)
    game.kernel.table_graph(numbering.classes, numbering.material.turn, after.classes, valid, degree, limit,
                            None, None)
    return limit


def _kernel_list(game, numbering: Numbering, offset: int, after: Numbering, after_offset: int,
                 graph: _Graph, exits: dict[int, int], smaller: Callable[[Material], Table]) -> None:
    """``_list_moves`` in the native kernel (``table_graph``'s second pass, over the counts of
    ``_kernel_count``); the moves leaving the material come back to be valued here."""
    kernel, size = game.kernel, numbering.size
    valid, degree = graph.rows(offset, size)
    starts = np.zeros(size, np.int64)
    np.cumsum(degree[:-1], out=starts[1:])
    targets = np.empty(int(degree.sum(dtype=np.int64)), np.int64)
    leaving = np.frombuffer(kernel.table_graph(numbering.classes, numbering.material.turn, after.classes, valid,
                                               degree, None, starts, targets), EXIT)
    del starts
    targets[targets >= 0] += after_offset
    values, exact = _exit_values(leaving, numbering.material.pieces, smaller, game.no_progress)
    graph.exact &= exact
    distinct, inverse = np.unique(values, return_inverse=True)
    nodes = np.array([exits.setdefault(int(v), len(exits)) for v in distinct], np.int64)
    targets[leaving["at"]] = graph.total + nodes[inverse]
    graph.add_targets(targets)


def _exit_values(leaving: np.ndarray, pieces: int, smaller: Callable[[Material], Table],
                 no_progress: int) -> tuple[np.ndarray, bool]:
    """``_exit_value`` over the kernel's exits (``EXIT`` records), one smaller table at a
    time: each exit's value, and whether all of them are exact."""
    values = np.zeros(len(leaving), np.int64)
    values[leaving["index"] < 0] = -1                       # no piece left: lost at once
    exact = True
    classes = leaving["classes"].astype(np.int64)
    keys = (((classes[:, 0] * 8 + classes[:, 1]) * 8 + classes[:, 2]) * 8 + classes[:, 3]) * 2 + leaving["turn"]
    for key in np.unique(keys[leaving["index"] >= 0]):
        rows = np.flatnonzero((keys == key) & (leaving["index"] >= 0))
        material = Material(*(int(c) for c in classes[rows[0]]), int(leaving["turn"][rows[0]]))
        table = smaller(material)
        found = table.values[leaving["index"][rows]].astype(np.int64)
        room = _exit_room(material.pieces < pieces, table.count, no_progress)
        kept = (found != UNKNOWN) & (np.abs(found) - 1 <= room)
        values[rows] = np.where(kept, found, UNKNOWN)
        exact &= table.exact and not ((found != UNKNOWN) & ~kept).any()
    return values, exact


def _list_moves(game, numbering: Numbering, offset: int, after: Numbering, after_offset: int,
                graph: _Graph, exits: dict[int, int], smaller: Callable[[Material], Table]) -> None:
    """Each position's moves into ``graph``: quiet moves as the index of the position after
    (in ``after``'s numbering), the others as the exit node of their value.  The Python
    rules' walk, the reference ``_kernel_list`` is checked against."""
    legal, child = game.legal, game.child
    turn = numbering.material.turn
    pieces, kings_count = numbering.material.pieces, numbering.material.own_kings + numbering.material.opp_kings
    targets, degree, valid = array("q"), graph.degree, graph.valid
    total = graph.total
    no_progress = game.no_progress
    # a quiet move changes only the mover's squares: the position after it is numbered
    # (``Numbering.index``) from the unmoved side's ranks, found once per position, and the
    # mover's new ones
    rank_k, rank_m, rank_ok, rank_om = after.rank
    w0, w1, w2, _ = after.weights
    for i, own, opp, kings in numbering.positions():
        moves = legal(own, opp, kings, turn)
        slot = offset + i
        valid[slot] = True
        degree[slot] = len(moves)
        base = after_offset + rank_k[opp & kings] * w0 + rank_m[opp & ~kings] * w1
        for move in moves:
            position = child((own, opp, kings, turn), move)
            nxt, moved, nkings = position[0], position[1], position[2]
            if (nxt | moved).bit_count() == pieces and nkings.bit_count() == kings_count:
                targets.append(base + rank_ok[moved & nkings] * w2 + rank_om[moved & ~nkings])
                continue
            nturn = position[3]
            v, exact = _exit_value(nxt, moved, nkings, nturn, pieces, smaller, no_progress)
            graph.exact &= exact
            targets.append(total + exits.setdefault(v, len(exits)))
    graph.add_targets(np.frombuffer(targets, dtype=np.int64) if len(targets) else np.zeros(0, np.int64))


def _exit_value(own: int, opp: int, kings: int, turn: int, pieces: int,
                smaller: Callable[[Material], Table], no_progress: int) -> tuple[int, bool]:
    """The value, for the side to move there, of the position a capture or crowning leads to
    (lost at once without a piece, else the smaller table's value where it fits in the draw
    rules: see the module's notes, else unknown), and whether that value is exact."""
    if not own:
        return -1, True
    table = smaller(Material.of(own, opp, kings, turn))
    v = table.value(own, opp, kings)
    if v == UNKNOWN:
        return UNKNOWN, table.exact
    room = _exit_room((own | opp).bit_count() < pieces, table.count, no_progress)
    return (v, table.exact) if plies_of(v) <= room else (UNKNOWN, False)


def _exit_room(captured: bool, count: int | None, no_progress: int) -> int:
    """The plies a smaller table's value may take and still count after an exit (-1: none):
    a capture restarts the counts, so the no-progress rule and that material's count bound
    it; a crowning restarts only the no-progress rule, so it counts only into a material
    without an endgame count."""
    if captured:
        return no_progress if count is None else min(no_progress, count)
    return no_progress if count is None else -1


def _count_limits(game, numbering: Numbering) -> np.ndarray | None:
    """Each placement's endgame count (a large number where none applies, -1 in the slots no
    placement uses), or None for a game without counts."""
    if game.endgame_counts is None:
        return None
    big = np.iinfo(np.int32).max
    limit = np.full(numbering.size, -1, np.int32)
    endgame_limit = game.endgame_limit
    for i, own, opp, kings in numbering.positions():
        found = endgame_limit(own, opp, kings)
        limit[i] = big if found is None else found
    return limit


def _stricter(limit: np.ndarray | None) -> bool:
    """Whether some placement has a stricter count than its material's usual one."""
    return limit is not None and bool(((limit >= 0) & (limit < limit.max())).any())


def _usual(limit: np.ndarray | None) -> int | None:
    """A material's usual count: its placements' largest (None: no count applies)."""
    if limit is None:
        return None
    usual = int(limit.max())
    return None if usual == np.iinfo(np.int32).max else usual
