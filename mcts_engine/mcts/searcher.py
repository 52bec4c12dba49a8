"""The one search loop: limits, deadline and info reports, for every agent.

``Searcher.run(tree, step)`` calls ``step(progress)`` until a limit is reached: a node
count, the deadline from ``budget``, a tree depth, a proven root with every move tried
(``go infinite`` then waits for ``stop``), or ``stop``.  A step is one iteration (the one-process agent) or a
batch of them (tree-parallel search); it records what it did in ``progress``.

Reports: under a pure node limit (``Limits.nodes_only``) an ``info`` every
``max(1000, nodes / 8)`` iterations, so equal seeds give identical output; otherwise
every half second; always one final report.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

from .agent import InfoCallback, SearchInfo
from .final import final_choice, set_score
from .limits import Limits, budget, now
from .settings import Settings
from .tree import Tree, principal_variation

REPORT_SECONDS = 0.5


@dataclass
class Progress:
    """What a search has done so far."""

    iterations: int = 0       # finished iterations (results backed up)
    depth_sum: int = 0        # tree depth reached, summed over the descents
    seldepth: int = 0         # deepest tree node reached

    def descended(self, depth: int) -> None:
        """A descent reached ``depth``."""
        self.depth_sum += depth
        if depth > self.seldepth:
            self.seldepth = depth


Step = Callable[[Progress], None]


class Searcher:
    """One search's clock and reports."""

    def __init__(self, limits: Limits, stop: threading.Event, on_info: InfoCallback | None,
                 settings: Settings):
        self.limits = limits
        self.stop = stop
        self.on_info = on_info
        self.final_move = settings.final_move
        self.start = now()
        seconds = budget(limits, settings.move_overhead)
        self.deadline = None if seconds is None else self.start + seconds
        self.progress = Progress()

    def remaining(self) -> int | None:
        """Iterations left under the node limit (None = no node limit)."""
        nodes = self.limits.nodes
        return None if nodes is None else nodes - self.progress.iterations

    def run(self, tree: Tree, step: Step) -> SearchInfo:
        """Step until a limit; the final report (also passed to ``on_info``)."""
        limits, stop, progress, on_info = self.limits, self.stop, self.progress, self.on_info
        root = tree.root
        deadline = self.deadline
        by_nodes = limits.nodes_only()
        report_every = max(1000, (limits.nodes or 0) // 8) if by_nodes else 0
        reported = 0
        next_report = self.start + REPORT_SECONDS
        while not stop.is_set():
            if limits.nodes is not None and progress.iterations >= limits.nodes:
                break
            if root.proven is not None and not root.untried:
                if not limits.infinite:
                    break
                stop.wait(0.01)   # solved, but `go infinite` waits for stop
                continue
            step(progress)
            if limits.depth is not None and progress.seldepth >= limits.depth:
                break
            t = now()
            if deadline is not None and t >= deadline:
                break
            if on_info is None:
                continue
            if by_nodes:
                block = progress.iterations // report_every
                if block > reported and progress.iterations < limits.nodes:
                    reported = block
                    on_info(self.info(tree, t))
            elif t >= next_report:
                # on a fixed beat, so that reports come twice a second however long a step is;
                # a search that fell a whole beat behind starts a new one
                next_report += REPORT_SECONDS
                if next_report <= t:
                    next_report = t + REPORT_SECONDS
                on_info(self.info(tree, t))
        info = self.info(tree, now())
        if on_info is not None:
            on_info(info)
        return info

    def info(self, tree: Tree, t: float) -> SearchInfo:
        """The search's progress at time ``t``, from the side to move's point of view."""
        p = self.progress
        info = SearchInfo(nodes=p.iterations, time=t - self.start, seldepth=p.seldepth,
                          depth=p.depth_sum / p.iterations if p.iterations else 0.0,
                          hashfull=tree.hashfull())
        best = final_choice(tree.root.children, self.final_move)
        if best is not None:
            set_score(info, best)
            info.pv = principal_variation(best)
        return info
