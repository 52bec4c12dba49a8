"""The final-move choice, and root statistics merged over several searchers.

``final_choice`` picks the root child to play (``FinalMove`` robust or max; the native
core's ``tree_final_child`` chooses the same way); root-parallel search sums each searcher's
``RootChild`` statistics with ``merge_children`` and chooses the same way, or lets the searchers vote
(``majority_vote``, ``ParallelMerge vote``).  ``set_score`` turns the chosen child's
statistics into the reported score, wdl and mate.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

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


def final_choice(children: list, final_move: str = "robust"):
    """The root child to play among ``children`` (RootChilds): a proven win (the
    shortest), else the most visited (``robust``) or best mean (``max``) child that is not a
    proven loss, else the proven loss that lasts longest.  None if there is none."""
    if not children:
        return None
    wins = [ch for ch in children if ch.proven == 1.0]
    if wins:
        return min(wins, key=lambda ch: ch.proof)
    alive = [ch for ch in children if ch.proven != 0.0]
    if not alive:
        return max(children, key=lambda ch: ch.proof)
    if final_move == "max":
        return max(alive, key=lambda ch: (ch.proven if ch.proven is not None else ch.mean(), ch.n))
    return max(alive, key=lambda ch: (ch.n, ch.mean()))


def set_score(info: SearchInfo, best) -> None:
    """Fill ``info``'s score, wdl and mate from the statistics of the chosen root child."""
    info.score = best.proven if best.proven is not None else best.mean()
    if best.n:
        win = (best.w - 0.5 * best.d) / best.n
        draw = best.d / best.n
        w, d = round(1000 * win), round(1000 * draw)
        info.wdl = (w, d, max(0, 1000 - w - d))
    if best.proven is not None:
        moves = (best.proof + 2) // 2
        info.mate = {1.0: moves, 0.0: -moves}.get(best.proven)
        info.wdl = {1.0: (1000, 0, 0), 0.5: (0, 1000, 0), 0.0: (0, 0, 1000)}[best.proven]


def merge_children(reports: list[list[RootChild]]) -> list[RootChild]:
    """Sum each root move's statistics over the searchers' reports.

    A proof is exact, so a move proven in any tree is proven in the merge.
    The order is the first appearance of each move, so merging is deterministic.
    """
    merged: dict = {}
    for report in reports:
        for ch in report:
            m = merged.get(ch.move)
            if m is None:
                merged[ch.move] = replace(ch)
                continue
            m.n += ch.n
            m.w += ch.w
            m.d += ch.d
            if m.proven is None and ch.proven is not None:
                m.proven, m.proof = ch.proven, ch.proof
    return list(merged.values())


def majority_vote(choices: list, merged: list[RootChild]):
    """The move most searchers chose; ties go to the move with more summed visits.

    A proven win or loss in the merge overrides the vote (proofs are exact).
    """
    best = final_choice(merged)
    if best is None or best.proven is not None:
        return best
    visits = {ch.move: ch.n for ch in merged if ch.proven != 0.0}
    votes: dict = {}
    for move in choices:
        if move in visits:
            votes[move] = votes.get(move, 0) + 1
    if not votes:
        return best
    move = max(votes, key=lambda m: (votes[m], visits[m]))
    return next(ch for ch in merged if ch.move == move)
