"""Root-parallel UCT (``Parallel root``): every searcher grows its own tree, merged at the end.

Each worker gets a ``SearchJob`` with its own seed (and, under a node limit, a fixed
share of the nodes); this process searches its share with its own ``UctAgent``.  While
searching, the local searcher's reports merge in the workers' latest ``SearchReport``s;
at the end the root children's statistics are summed and the move chosen as in one tree
(``ParallelMerge visits``), or by a majority vote of the searchers (``vote``).  Each
worker keeps its tree between moves (tree reuse).  Under a node limit, the share of a
worker that died, failed or was given up is searched here after the others finished.
"""
from __future__ import annotations

import threading
from dataclasses import replace
from typing import Hashable

from ..parallel.messages import JobFailed, SearchJob, SearchReport, StopJob
from ..parallel.pool import Worker
from ..rules.base import State
from .agent import InfoCallback, SearchInfo, SearchResult
from .final import final_choice, majority_vote, merge_children, root_children, set_score
from .limits import Limits, now, split_nodes
from .parallel_agent import ParallelAgent
from .searcher import Searcher

STOP_WAIT = 2.0          # seconds a worker may take to answer after a stop before it is replaced
SILENT_WAIT = 120.0      # seconds a worker searching a nodes share may go without a report


class RootParallelAgent(ParallelAgent):
    """Root parallel search over this process and the pool's workers."""

    def search(self, state: State, limits: Limits, stop: threading.Event,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Start the workers' searches, search here, collect and merge."""
        workers = self.start_job()
        shares = split_nodes(limits.nodes, 1 + len(workers))
        reports: dict[int, SearchReport] = {}      # worker index -> latest report
        busy = self._send_jobs(workers, shares[1:], state, limits, history)
        start = now()
        emitted: list[SearchInfo] = []

        def merged_info(info: SearchInfo) -> None:
            for w in list(busy):
                self._drain(w, reports, busy, now())
            if on_info is not None:
                emitted.append(self._merged_info(info, reports, now() - start))
                on_info(emitted[-1])

        local_limits = replace(limits, nodes=shares[0])
        result = self.local.search(state, local_limits, stop, merged_info if busy else on_info, history)
        self._collect(busy, reports, stop, fixed=limits.nodes_only())
        if limits.nodes_only() and not stop.is_set():
            result = self._make_up(state, limits.nodes, result, reports, stop)
        if not reports:
            return result
        info = self._merged_info(result.info, reports, now() - start)
        merged = merge_children([root_children(self.local.root)] + [r.children for r in reports.values()])
        if self.settings.merge == "vote":
            choices = [result.move] + [r.move for r in reports.values() if r.final]
            best = majority_vote(choices, merged)
        else:
            best = final_choice(merged, self.settings.final_move)
        if best is None:
            return result
        set_score(info, best)
        info.pv = self._pv_for(best.move, result, reports)
        ponder = info.pv[1] if len(info.pv) > 1 else None
        if emitted and emitted[-1].same_report(info):
            info = emitted[-1]   # already printed: the caller prints a final info only if new
        return SearchResult(best.move, ponder, info)

    def _make_up(self, state: State, nodes: int, result: SearchResult, reports: dict,
                 stop: threading.Event) -> SearchResult:
        """Under a node limit, search here the share of a worker that died, failed or hung
        (what its last report did not count), so that the search still has ``nodes`` iterations."""
        missing = nodes - result.info.nodes - sum(r.nodes for r in reports.values())
        if missing <= 0:
            return result
        local = self.local
        tree = local.tree
        extra = Searcher(Limits(nodes=missing), stop, None, self.settings).run(
            tree, lambda progress: local.iterate(tree, state, progress))
        before = result.info
        total = before.nodes + extra.nodes
        info = replace(extra, nodes=total, time=before.time + extra.time,
                       seldepth=max(before.seldepth, extra.seldepth),
                       depth=(before.depth * before.nodes + extra.depth * extra.nodes) / total if total else 0.0)
        return local.result(tree, state, info)

    def _send_jobs(self, workers: list[Worker], shares: list, state: State, limits: Limits,
                   history: tuple) -> list[Worker]:
        """Send each worker with a share its search; the workers now busy."""
        busy = []
        for w, share in zip(workers, shares):
            if share == 0:
                continue
            job = SearchJob(self.job, self.game, state, replace(limits, nodes=share), history,
                            self.worker_settings(w))
            if w.send(job):
                busy.append(w)
            else:
                self.died(w)
        return busy

    def _collect(self, busy: list[Worker], reports: dict, stop: threading.Event, fixed: bool) -> None:
        """Wait for the workers' final reports.  Under a nodes limit (``fixed``) each worker
        finishes its share unless ``stop`` comes; otherwise they are told to stop now.  A
        worker silent for too long is given up (and replaced at the next go)."""
        told = None
        last_heard = {w.index: now() for w in busy}
        while busy:
            if told is None and (not fixed or stop.is_set()):
                for w in busy:
                    w.send(StopJob(self.job))
                told = now()
            for w in list(busy):
                before = reports.get(w.index)
                self._drain(w, reports, busy, now() + 0.01)
                if reports.get(w.index) is not before:
                    last_heard[w.index] = now()
                silent = now() - (told if told is not None else last_heard[w.index])
                if w in busy and silent > (STOP_WAIT if told is not None else SILENT_WAIT):
                    self.silent(w)
                    busy.remove(w)

    def _drain(self, w: Worker, reports: dict, busy: list, deadline: float) -> None:
        """Read ``w``'s messages until none is waiting by ``deadline`` or its final report came.

        Keeps the latest report of this job in ``reports``; a final report (or a failure,
        or the worker's death) removes ``w`` from ``busy``.
        """
        try:
            while w in busy:
                msg = w.recv(max(0.0, deadline - now()))
                if msg is None:
                    return
                if isinstance(msg, SearchReport) and msg.job == self.job:
                    reports[w.index] = msg
                    if msg.final:
                        busy.remove(w)
                elif isinstance(msg, JobFailed) and msg.job == self.job:
                    self.note(f"search worker {w.index} failed: {msg.error}; the search goes on without it")
                    busy.remove(w)
        except EOFError:
            self.died(w)
            busy.remove(w)

    def _merged_info(self, local: SearchInfo, reports: dict, elapsed: float) -> SearchInfo:
        """The local searcher's info with the workers' latest reports merged in."""
        merged = merge_children([root_children(self.local.root)] + [r.children for r in reports.values()])
        nodes = local.nodes + sum(r.nodes for r in reports.values())
        hashfulls = [h for h in [local.hashfull] + [r.hashfull for r in reports.values()] if h is not None]
        info = SearchInfo(nodes=nodes, time=elapsed, depth=local.depth,
                          seldepth=max([local.seldepth] + [r.seldepth for r in reports.values()]),
                          hashfull=max(hashfulls) if hashfulls else None)
        best = final_choice(merged, self.settings.final_move)
        if best is not None:
            set_score(info, best)
            info.pv = local.pv if local.pv and local.pv[0] == best.move else [best.move]
        return info

    @staticmethod
    def _pv_for(move, result: SearchResult, reports: dict) -> list:
        """The longest principal variation among the searchers that starts with ``move``."""
        pvs = [result.info.pv] + [r.pv for r in reports.values()]
        pvs = [pv for pv in pvs if pv and pv[0] == move]
        return max(pvs, key=len) if pvs else [move]
