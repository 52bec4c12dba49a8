"""Root parallel search over worker processes, for games on their Python rules.

A game whose rules run in Python holds the GIL while it searches, so its ``Threads N`` are
this process plus N-1 worker processes (``parallel.pool``).  Every searcher grows its own
tree: each worker runs a ``SearchTask`` (its own ``UctAgent``, its own seed and, under a
node limit, a fixed share of the nodes) and reports its root statistics; this process
searches its share meanwhile.  At the end the root children's statistics are summed and the
move chosen as in one tree (``ParallelMerge visits``) or by a majority vote of the searchers
(``vote``).  Each worker keeps its tree between moves (tree reuse).  Under a node limit the
share of a worker that died, failed or was given up is searched here afterwards.

Games with native rules run their threads inside ``UctAgent`` instead (OS threads, one
arena each): no process, no pickling.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Hashable

from ..native import StopSignal
from ..parallel.messages import JobFailed, StopJob
from ..parallel.pool import Worker, WorkerPool, is_shared, shared_pool
from ..rules.base import Game, State
from .agent import Agent, InfoCallback, SearchFailed, SearchInfo, SearchResult
from .core import merged_choice, root_children
from .limits import Limits, now, split_nodes
from .report import RootChild, set_score
from .settings import Settings
from .uct import UctAgent

SEED_STRIDE = 7919       # worker i searches with seed + i * SEED_STRIDE
STOP_WAIT = 2.0          # seconds a worker may take to answer after a stop before it is replaced
SILENT_WAIT = 120.0      # seconds a worker searching a nodes share may go without a report
START_WAIT = 30.0        # seconds a new worker may take to load the search (imports on a loaded machine)


# --- the tasks a worker runs ---------------------------------------------------------------

@dataclass(frozen=True)
class SearchReport:
    """A worker's statistics: progress while searching, then the final report (``final``) with
    the move that searcher would play."""

    job: int
    nodes: int
    children: list[RootChild]
    seldepth: int
    pv: list = field(default_factory=list)
    move: object = None
    final: bool = False
    hashfull: int | None = None


@dataclass(frozen=True)
class SearchTask:
    """Search ``state`` of ``game`` in your own tree and report its root statistics (the game
    travels with the state: a registered game pickles as its name and options)."""

    job: int
    game: Game
    state: State
    limits: Limits
    history: tuple
    settings: Settings

    def run(self, context: dict, stop: StopSignal, send: Callable[[Any], None]) -> None:
        """Search with the worker's agent (made again when the game or settings change)."""
        key = (self.game, self.settings)
        if context.get("key") != key:
            if context.get("agent") is not None:
                context["agent"].close()
            context["agent"], context["key"] = UctAgent(self.game, self.settings), key
        agent = context["agent"]

        def progress(info: SearchInfo) -> None:
            send(SearchReport(self.job, info.nodes, root_children(agent.core), info.seldepth, info.pv,
                              hashfull=info.hashfull))

        try:
            result = agent.search(self.state, self.limits, stop, progress, self.history)
        except SearchFailed as failed:     # the worker fails with the search's own error
            raise failed.error from None
        info = result.info
        send(SearchReport(self.job, info.nodes, root_children(agent.core), info.seldepth, info.pv, result.move,
                          final=True, hashfull=info.hashfull))


@dataclass(frozen=True)
class NewGameTask:
    """Forget the last game's tree and statistics, and reseed; answer ``SearchReady``.

    Reading the first such task is also when a fresh worker imports the search (the transport
    imports none of it), so an agent waits for the answers before its first search."""

    job: int = 0

    def run(self, context: dict, stop: StopSignal, send: Callable[[Any], None]) -> None:
        """Reset the worker's agent, if it has one."""
        if context.get("agent") is not None:
            context["agent"].new_game()
        send(SearchReady(self.job))


@dataclass(frozen=True)
class SearchReady:
    """A worker has the search loaded and its agent reset (the answer to ``NewGameTask``)."""

    job: int


# --- this side ---------------------------------------------------------------------------------

class RootParallelAgent(Agent):
    """Root parallel search over this process and ``workers`` of the pool's worker processes."""

    def __init__(self, game: Game, settings: Settings, workers: int, pool: WorkerPool | None = None):
        super().__init__(game, settings)
        self.local = UctAgent(game, replace(settings, threads=1))
        self.pool = pool or shared_pool()
        self.workers = workers
        self.job = 0
        self.notes(self.pool.ensure(workers))
        self.reset_workers(wait=True)        # workers forget trees and reseed, as a new agent does

    def notes(self, texts: list[str]) -> None:
        """Pass the pool's notes on (as info strings in the engine)."""
        for text in texts:
            self.note(text)

    def new_game(self) -> None:
        super().new_game()
        self.local.new_game()
        self.reset_workers(wait=False)

    def reset_workers(self, wait: bool) -> None:
        """Send every live worker a ``NewGameTask``; with ``wait``, wait (at most ``START_WAIT``)
        for their answers, so a fresh worker has loaded the search before the first one."""
        job = self.pool.next_job()
        workers = self.pool.live()
        for w in workers:
            w.send(NewGameTask(job))
        deadline = now() + START_WAIT
        for w in workers if wait else ():
            try:
                while (msg := w.recv(max(0.0, deadline - now()))) is not None:
                    if isinstance(msg, SearchReady) and msg.job == job:
                        break
            except EOFError:
                continue

    def close(self) -> None:
        """Stop the local threads and the workers of a private pool (the shared pool lives until
        ``close_pool``)."""
        self.local.close()
        if not is_shared(self.pool):
            self.pool.close()

    def worker_settings(self, worker: Worker) -> Settings:
        """The settings a worker searches with: ours, with its own seed and one thread."""
        seed = self.settings.seed
        if seed:
            seed = (seed + worker.index * SEED_STRIDE) % 2147483647 or 1
        else:
            seed = self.rng.randrange(1, 2147483647)
        return replace(self.settings, seed=seed, threads=1)

    def search(self, state: State, limits: Limits, stop: StopSignal,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Start the workers' searches, search here, collect and merge."""
        self.notes(self.pool.ensure(self.workers))
        self.job = self.pool.next_job()
        workers = self.pool.live()
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

        result = self.local.search(state, replace(limits, nodes=shares[0]), stop, merged_info if busy else on_info,
                                   history)
        self._collect(busy, reports, stop, fixed=limits.nodes_only())
        if limits.nodes_only() and not stop.is_set():
            result = self._make_up(state, limits.nodes, result, reports)
        if not reports:
            return result
        info = self._merged_info(result.info, reports, now() - start)
        votes = [result.move] + [r.move for r in reports.values() if r.final] if self.settings.merge == "vote" else None
        _, best = merged_choice(self.settings, self._reports(reports), votes)
        if best is None:
            return result
        set_score(info, best)
        pvs = [pv for pv in [result.info.pv] + [r.pv for r in reports.values()] if pv and pv[0] == best.move]
        info.pv = max(pvs, key=len) if pvs else [best.move]
        ponder = info.pv[1] if len(info.pv) > 1 else None
        if emitted and emitted[-1].same_report(info):
            info = emitted[-1]   # already printed: the caller prints a final info only if new
        return SearchResult(best.move, ponder, info)

    def _make_up(self, state: State, nodes: int, result: SearchResult, reports: dict) -> SearchResult:
        """Under a node limit, search here the share of a worker that died, failed or hung
        (what its last report did not count), so that the search still has ``nodes`` iterations."""
        missing = nodes - result.info.nodes - sum(r.nodes for r in reports.values())
        if missing <= 0:
            return result
        self.local.core.run([missing], root_check=self.local.check_depth)
        return self.local.result(state, now() - result.info.time)

    def _send_jobs(self, workers: list[Worker], shares: list, state: State, limits: Limits,
                   history: tuple) -> list[Worker]:
        """Send each worker with a share its search; the workers now busy."""
        busy = []
        for w, share in zip(workers, shares):
            if share == 0:
                continue
            task = SearchTask(self.job, self.game, state, replace(limits, nodes=share), history,
                              self.worker_settings(w))
            if w.send(task):
                busy.append(w)
            else:
                self.died(w)
        return busy

    def _collect(self, busy: list[Worker], reports: dict, stop: StopSignal, fixed: bool) -> None:
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
                elif isinstance(msg, JobFailed) and msg.job in (self.job, -1):
                    self.note(f"search worker {w.index} failed: {msg.error}; the search goes on without it")
                    busy.remove(w)
        except EOFError:
            self.died(w)
            busy.remove(w)

    def _merged_info(self, local: SearchInfo, reports: dict, elapsed: float) -> SearchInfo:
        """The local searcher's info with the workers' latest reports merged in."""
        _, best = merged_choice(self.settings, self._reports(reports))
        hashfulls = [h for h in [local.hashfull] + [r.hashfull for r in reports.values()] if h is not None]
        info = SearchInfo(nodes=local.nodes + sum(r.nodes for r in reports.values()), time=elapsed,
                          depth=local.depth, seldepth=max([local.seldepth] + [r.seldepth for r in reports.values()]),
                          hashfull=max(hashfulls) if hashfulls else None)
        if best is not None:
            set_score(info, best)
            info.pv = local.pv if local.pv and local.pv[0] == best.move else [best.move]
        return info

    def _reports(self, reports: dict) -> list[list[RootChild]]:
        """Every searcher's root statistics: this process's, then the workers' latest."""
        return [root_children(self.local.core)] + [r.children for r in reports.values()]

    def died(self, worker: Worker) -> None:
        """Report a worker that died during this search (it is replaced at the next one)."""
        self.note(worker.describe_death() + "; the search goes on without it")
        worker.dead = True

    def silent(self, worker: Worker) -> None:
        """Give up a worker that does not answer (it is killed now, replaced later)."""
        self.note(f"search worker {worker.index} (pid {worker.pid}) is not answering; searching without it")
        worker.stop(0.1)
