"""What a search reports: the core's statistics of the chosen root move as a ``SearchInfo``.

The final choice itself is the native core's (``native/src/final.c``: one definition for one
tree, for threads, and for worker processes through ``merge_roots``); this module only turns
the chosen move's statistics into the reported score, wdl, mate and principal variation.
"""
from __future__ import annotations

from dataclasses import dataclass

from .agent import SearchInfo


@dataclass
class RootChild:
    """One root move's statistics in one searcher's tree (or summed over several)."""

    move: object
    n: int
    w: float
    d: int
    proven: float | None
    proof: int

    def mean(self) -> float:
        """Average result for the mover (0.5 before any visit)."""
        return self.w / self.n if self.n else 0.5

    def as_tuple(self) -> tuple:
        """(move, n, w, d, proven, proof), as the core's ``merge_roots`` reads it."""
        return (self.move, self.n, self.w, self.d, self.proven, self.proof)


def set_score(info: SearchInfo, best) -> None:
    """Fill ``info``'s score, wdl and mate from the statistics of the chosen root child
    (anything with ``n``, ``w``, ``d``, ``proven``, ``proof``: a ``RootChild`` or a core ``Report``)."""
    info.score = best.proven if best.proven is not None else (best.w / best.n if best.n else 0.5)
    if best.n:
        win = (best.w - 0.5 * best.d) / best.n
        draw = best.d / best.n
        w, d = round(1000 * win), round(1000 * draw)
        info.wdl = (w, d, max(0, 1000 - w - d))
    if best.proven is not None:
        moves = (best.proof + 2) // 2
        info.mate = {1.0: moves, 0.0: -moves}.get(best.proven)
        info.wdl = {1.0: (1000, 0, 0), 0.5: (0, 1000, 0), 0.0: (0, 0, 1000)}[best.proven]


def search_info(report, elapsed: float) -> SearchInfo:
    """A core ``Report`` (the search's progress and its chosen move) as the ``SearchInfo`` the
    protocol prints, ``elapsed`` seconds into the search."""
    info = SearchInfo(nodes=report.iterations, time=elapsed, seldepth=report.seldepth,
                      depth=report.depth_sum / report.iterations if report.iterations else 0.0,
                      hashfull=report.hashfull)
    if report.move is not None:
        set_score(info, report)
        info.pv = list(report.pv)
    return info
