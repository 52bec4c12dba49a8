"""The one search loop: limits, deadline and info reports, for every agent.

``Searcher.run(group)`` runs the group's trees (``TreeGroup``: one tree, or one per thread)
in slices of at most ``SLICE_SECONDS`` until a limit is reached: a node count, the deadline
from ``budget``, a tree depth, a proven root with every move tried (``go infinite`` then
waits for ``stop``), or ``stop``.  Between slices the protocol's thread answers ``stop``,
``isready`` and ``ponderhit`` at once: a native tree releases the GIL while it runs.

Reports: under a pure node limit (``Limits.nodes_only``) an ``info`` every
``max(1000, nodes / 8)`` iterations, so equal seeds give identical output; otherwise
every half second; always one final report.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from .agent import InfoCallback, SearchInfo
from .final import RootChild, final_choice, merge_children, set_score
from .limits import Limits, budget, now, split_nodes
from .settings import Settings

REPORT_SECONDS = 0.5
SLICE_SECONDS = 0.01      # the longest a slice of native search runs between two looks at the clock
FOREVER = 1 << 62         # "no iteration limit" for a slice
MAX_DEPTH = 1 << 30       # a deeper depth limit is no limit (the core counts depth in an int)


@dataclass
class Progress:
    """What a search has done so far, summed over its trees."""

    iterations: int = 0       # finished iterations (results backed up)
    depth_sum: int = 0        # tree depth reached, summed over the descents
    seldepth: int = 0         # deepest tree node reached
    hashfull: int = 0         # per mille of the fullest tree's arena


class TreeGroup:
    """The trees one search runs: one, or one per thread (root parallel: each searches the
    same position in its own arena, their root statistics merged).  Slices run side by side
    on OS threads; a native tree releases the GIL while it runs."""

    def __init__(self, trees: list):
        self.trees = trees
        self.pool = ThreadPoolExecutor(len(trees) - 1, "searcher") if len(trees) > 1 else None

    def close(self) -> None:
        """Stop the helper threads."""
        if self.pool is not None:
            self.pool.shutdown(wait=True)

    def run(self, remaining: list[int | None], seconds: float, depth: int | None = None) -> None:
        """One slice: each tree at most its ``remaining`` iterations (None: no limit; 0 or less:
        it sits this slice out) and ``seconds``, and until it reaches the tree ``depth`` if given."""
        jobs = [(tree, FOREVER if left is None else left) for tree, left in zip(self.trees, remaining)
                if left is None or left > 0]
        if not jobs:
            return
        depth = min(depth or 0, MAX_DEPTH)
        futures = [self.pool.submit(tree.run, left, seconds, depth) for tree, left in jobs[1:]]
        error = None
        try:
            jobs[0][0].run(jobs[0][1], seconds, depth)
        except BaseException as err:     # wait for the others before passing it on
            error = err
        for future in futures:
            try:
                future.result()
            except BaseException as err:
                error = error or err
        if error is not None:
            raise error

    def iterations(self) -> list[int]:
        """Each tree's iterations so far."""
        return [tree.stats()["iterations"] for tree in self.trees]

    def progress(self) -> Progress:
        """The iterations, depths and memory of every tree, summed (the deepest, the fullest)."""
        stats = [tree.stats() for tree in self.trees]
        return Progress(sum(s["iterations"] for s in stats), sum(s["depth_sum"] for s in stats),
                        max(s["seldepth"] for s in stats), max(s["hashfull"] for s in stats))

    def done(self) -> bool:
        """Whether a tree proved its root with every move tried (the others have nothing to add)."""
        return any(tree.root_done() for tree in self.trees)

    def children(self) -> list[RootChild]:
        """The root moves' statistics, summed over the trees (proofs are exact: any counts)."""
        reports = [[RootChild(*child) for child in tree.root_children()] for tree in self.trees]
        return reports[0] if len(reports) == 1 else merge_children(reports)

    def pv(self, move) -> list:
        """The longest principal variation among the trees that starts with ``move``."""
        best: list = [move]
        for tree in self.trees:
            for index, child in enumerate(tree.root_children()):
                if child[0] == move:
                    line = tree.pv(index)
                    if len(line) > len(best):
                        best = line
        return best


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

    def run(self, group: TreeGroup) -> SearchInfo:
        """Search in slices until a limit; the final report (also passed to ``on_info``)."""
        limits, stop, on_info = self.limits, self.stop, self.on_info
        by_nodes = limits.nodes_only()
        report_every = max(1000, (limits.nodes or 0) // 8) if by_nodes else 0
        shares = split_nodes(limits.nodes, len(group.trees))    # each tree's iterations (None: no limit)
        reported = 0
        next_report = self.start + REPORT_SECONDS
        while not stop.is_set():
            done = group.iterations()
            remaining = [None if share is None else share - n for share, n in zip(shares, done)]
            if limits.nodes is not None and all(left <= 0 for left in remaining):
                break
            if group.done():
                if not limits.infinite:
                    break
                stop.wait(0.01)   # solved, but `go infinite` waits for stop
                continue
            t = now()
            if self.deadline is not None and t >= self.deadline:
                break
            seconds = SLICE_SECONDS if self.deadline is None else max(0.0005, min(SLICE_SECONDS, self.deadline - t))
            if by_nodes and len(remaining) == 1:      # end slices at the report points: the same output every run
                remaining[0] = min(remaining[0], (done[0] // report_every + 1) * report_every - done[0])
            group.run(remaining, seconds, limits.depth)
            progress = group.progress()
            if limits.depth is not None and progress.seldepth >= limits.depth:
                break
            if on_info is None:
                continue
            t = now()
            if by_nodes:
                block = progress.iterations // report_every
                if block > reported and progress.iterations < limits.nodes:
                    reported = block
                    on_info(self.info(group, progress, t))
            elif t >= next_report:
                # on a fixed beat, so that reports come twice a second however long a slice is;
                # a search that fell a whole beat behind starts a new one
                next_report += REPORT_SECONDS
                if next_report <= t:
                    next_report = t + REPORT_SECONDS
                on_info(self.info(group, progress, t))
        info = self.info(group, group.progress(), now())
        if on_info is not None:
            on_info(info)
        return info

    def info(self, group: TreeGroup, progress: Progress, t: float) -> SearchInfo:
        """The search's progress at time ``t``, from the side to move's point of view."""
        info = SearchInfo(nodes=progress.iterations, time=t - self.start, seldepth=progress.seldepth,
                          depth=progress.depth_sum / progress.iterations if progress.iterations else 0.0,
                          hashfull=progress.hashfull)
        best = final_choice(group.children(), self.final_move)
        if best is not None:
            set_score(info, best)
            info.pv = group.pv(best.move)
        return info
