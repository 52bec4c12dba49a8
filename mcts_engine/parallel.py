"""Parallel UCT over processes: ``Threads N`` = this process plus N-1 worker processes.

CPython threads cannot run playouts side by side, so extra searchers are processes
(the ``multiprocess`` package, started with ``spawn`` so that a worker never inherits
the protocol's threads or its stdin).  The workers form a persistent ``WorkerPool``,
started once per engine process and reused by every ``go``.

Two modes (engine option ``Parallel``):

* ``root`` (default): every searcher grows its own tree from the same root with its
  own seed; at the end of the ``go`` the root children's statistics are merged
  (summed visits, or a majority vote of each searcher's choice, option
  ``ParallelMerge``).  A worker keeps its tree between moves (tree reuse).
* ``tree``: this process owns the one tree.  It selects a batch of leaves, marking
  each path with a virtual loss (the visit is counted before its result is known,
  so the next selection looks elsewhere), farms the playouts out to the workers and
  runs its own share, then backs the results up.  Worth it where playouts are
  expensive compared with the tree work (Rithmomachia, Life).

With ``Seed`` and a ``nodes`` limit both modes are deterministic: root mode gives
each searcher a fixed share of the nodes and a fixed seed; tree mode uses batches
of fixed size and seeds each batch's playouts from the seed and the batch number.

A worker that dies is reported (``on_note``, an ``info string``) and the search
goes on with the rest; the pool starts a replacement at the next ``go``.  Workers
exit when told to, when the pool is closed, and when their pipe to this process
breaks (so even a killed engine leaves no worker behind).
"""
from __future__ import annotations

import contextlib
import queue
import random
import sys
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable, Hashable

from .playouts import make_playout
from .rules.base import Game, State
from .search import Agent, InfoCallback, Limits, SearchInfo, SearchResult, Settings, budget, now
from .uct import Node, UctAgent, final_choice, set_score

STOP_WAIT = 2.0          # seconds a worker may take to answer after a stop before it is replaced
SILENT_WAIT = 120.0      # seconds a worker searching a nodes share may go without a report
START_WAIT = 30.0        # seconds a new worker may take to start (imports on a loaded machine)
SEED_STRIDE = 7919       # worker i searches with seed + i * SEED_STRIDE


# --- root statistics: what a searcher reports and how reports are merged -----------------

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


def root_children(root: Node | None) -> list[RootChild]:
    """The statistics of ``root``'s children, small enough to send between processes."""
    if root is None:
        return []
    return [RootChild(ch.move, ch.n, ch.w, ch.d, ch.proven, ch.proof) for ch in root.children]


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


# --- the worker process ---------------------------------------------------------------

def _worker_main(conn, index: int) -> None:
    """A worker process's entry point (see ``WorkerLoop``)."""
    WorkerLoop(conn, index).run()


class WorkerLoop:
    """A worker's life: answer ``search``, ``playouts`` and ``newgame`` until ``quit`` or EOF.

    A listener thread reads the pipe, so that ``stop`` reaches a running search at once;
    the main thread runs one job at a time.  A ``stop`` of job k stops every job up to k,
    including one that arrives after the stop (the master may stop a job before it starts).
    """

    def __init__(self, conn, index: int):
        self.conn = conn
        self.index = index
        self.inbox: queue.Queue = queue.Queue()
        self.lock = threading.Lock()
        self.job, self.stopped, self.event = -1, -1, threading.Event()
        self.agent, self.agent_key = None, None
        self.policy, self.policy_key = None, None

    def listen(self) -> None:
        """The listener thread: stops are handled at once, everything else is queued."""
        while True:
            try:
                msg = self.conn.recv()
            except (EOFError, OSError):
                msg = ("quit",)   # the engine is gone: stop and exit
            if msg[0] == "stop":
                with self.lock:
                    self.stopped = max(self.stopped, msg[1])
                    if self.job <= msg[1]:
                        self.event.set()
                continue
            if msg[0] == "quit":
                self.event.set()
            self.inbox.put(msg)
            if msg[0] == "quit":
                return

    def run(self) -> None:
        """The main thread: one message at a time until ``quit``."""
        threading.Thread(target=self.listen, name="listener", daemon=True).start()
        self.conn.send(("ready", self.index))
        while True:
            msg = self.inbox.get()
            if msg[0] == "quit":
                break
            try:
                self.handle(msg)
            except (EOFError, OSError):
                break
            except Exception as err:  # report, and stay alive for the next job
                try:
                    self.conn.send(("error", msg[1] if len(msg) > 1 else -1, f"{type(err).__name__}: {err}"))
                except OSError:
                    break
        self.conn.close()

    def handle(self, msg) -> None:
        """One message: ``newgame``, ``search`` (root parallel) or ``playouts`` (tree parallel)."""
        if msg[0] == "newgame":
            if self.agent is not None:
                self.agent.new_game()
            if self.policy is not None:
                self.policy.new_game()
            return
        event = self._start_job(msg[1])
        if msg[0] == "search":
            _, job, state, limits, history, settings = msg
            key = (id(state.game), settings)
            if self.agent is None or self.agent_key != key:
                self.agent, self.agent_key = UctAgent(state.game, settings), key
            self._search(job, state, limits, history, event)
        elif msg[0] == "playouts":
            _, job, states, seed, settings = msg
            key = (settings.playout, settings.playout_depth, settings.epsilon)
            if self.policy is None or self.policy_key != key:
                self.policy, self.policy_key = make_playout(*key), key
            rng = random.Random(seed)
            results = []
            for state in states:
                if event.is_set():
                    break
                results.append(self.policy.run(state, rng))
            self.conn.send(("playouts", job, results))

    def _start_job(self, job: int) -> threading.Event:
        """The stop flag of a new job (already set if a stop for it came first)."""
        event = threading.Event()
        with self.lock:
            self.job, self.event = job, event
            if self.stopped >= job:
                event.set()
        return event

    def _search(self, job: int, state: State, limits: Limits, history: tuple,
                event: threading.Event) -> None:
        """One root-parallel search: progress reports while searching, then the final report."""
        agent, conn = self.agent, self.conn

        def progress(info: SearchInfo) -> None:
            conn.send(("progress", job, info.nodes, root_children(agent.root), info.seldepth, info.pv))

        result = agent.search(state, limits, event, progress, history)
        info = result.info
        conn.send(("result", job, info.nodes, root_children(agent.root), info.seldepth,
                   info.depth, info.pv, result.move))


# --- the pool -------------------------------------------------------------------------

@contextlib.contextmanager
def _main_module_hidden():
    """Hide ``__main__``'s file and spec while a worker is spawned.

    ``spawn`` re-runs the parent's main script in the child unless told otherwise; a
    worker needs only this package, and re-running a user's script (or a script read
    from stdin, which cannot be re-run) would be wrong.
    """
    main = sys.modules.get("__main__")
    saved = {name: main.__dict__[name] for name in ("__file__", "__spec__") if name in main.__dict__}
    try:
        main.__dict__.pop("__file__", None)
        main.__dict__["__spec__"] = None
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


class Worker:
    """One worker process and this side of its pipe."""

    def __init__(self, ctx, index: int):
        self.index = index
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_main, args=(child, index),
                                   name=f"mcts-worker-{index}", daemon=True)
        with _main_module_hidden():
            self.process.start()
        child.close()
        self.ready = False
        self.dead = False

    @property
    def pid(self) -> int | None:
        """The worker's process id."""
        return self.process.pid

    def send(self, msg) -> bool:
        """Send a message; False (and the worker marked dead) if the pipe is broken."""
        if self.dead:
            return False
        try:
            self.conn.send(msg)
            return True
        except (OSError, BrokenPipeError, ValueError):
            self.dead = True
            return False

    def recv(self, timeout: float):
        """The next message within ``timeout`` seconds, None on timeout; EOFError if the worker died."""
        if self.dead:
            raise EOFError
        try:
            if not self.conn.poll(timeout):
                return None
            return self.conn.recv()
        except (EOFError, OSError, ValueError):
            self.dead = True
            raise EOFError from None

    def wait_ready(self, timeout: float) -> bool:
        """Wait for the worker's ``ready`` message."""
        deadline = time.monotonic() + timeout
        while not self.ready:
            try:
                msg = self.recv(max(0.0, deadline - time.monotonic()))
            except EOFError:
                return False
            if msg is None:
                return False
            self.ready = msg[0] == "ready"
        return True

    def stop(self, timeout: float = 1.0) -> None:
        """Ask the worker to quit; kill it if it does not within ``timeout``; reap it."""
        self.send(("quit",))
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout)
        self.dead = True
        try:
            self.conn.close()
        except OSError:
            pass

    def describe_death(self) -> str:
        """Why the worker is gone, for an info string."""
        self.process.join(0.05)
        code = self.process.exitcode
        how = "is not answering" if code is None else (
            f"was killed by signal {-code}" if code < 0 else f"exited with code {code}")
        return f"search worker {self.index} (pid {self.pid}) {how}"


class WorkerPool:
    """Persistent worker processes, started once and reused by every search."""

    def __init__(self):
        import multiprocess
        self._ctx = multiprocess.get_context("spawn")
        self.workers: list[Worker] = []
        self._next_index = 1
        self._jobs = 0
        self.lock = threading.Lock()

    def ensure(self, count: int) -> list[str]:
        """Have exactly ``count`` live workers: replace dead ones, start or stop some.

        Returns notes about workers that had died or could not start.
        """
        notes = []
        with self.lock:
            for w in [w for w in self.workers if w.dead or not w.process.is_alive()]:
                notes.append(w.describe_death() + "; starting a new one")
                w.stop(0.1)
                self.workers.remove(w)
            while len(self.workers) > count:
                self.workers.pop().stop()
            fresh = []
            while len(self.workers) < count:
                w = Worker(self._ctx, self._next_index)
                self._next_index += 1
                self.workers.append(w)
                fresh.append(w)
            for w in fresh:
                if not w.wait_ready(START_WAIT):
                    notes.append(w.describe_death() + " at start; searching without it")
                    w.stop(0.1)
                    self.workers.remove(w)
        return notes

    def next_job(self) -> int:
        """A new job number: workers ignore messages of old jobs and a stop of job k stops
        every job up to k, so the numbers rise across every agent that uses the pool."""
        with self.lock:
            self._jobs += 1
            return self._jobs

    def live(self) -> list[Worker]:
        """The workers believed alive."""
        return [w for w in self.workers if not w.dead]

    def broadcast(self, msg) -> None:
        """Send ``msg`` to every live worker."""
        for w in self.live():
            w.send(msg)

    def close(self) -> None:
        """Stop every worker and reap it (no process is left behind)."""
        with self.lock:
            for w in self.workers:
                w.send(("quit",))
            for w in self.workers:
                w.stop()
            self.workers = []


_POOL: WorkerPool | None = None


def shared_pool() -> WorkerPool:
    """This process's worker pool (created on first use, closed at exit)."""
    global _POOL
    if _POOL is None:
        import atexit
        _POOL = WorkerPool()
        atexit.register(close_pool)
    return _POOL


def resize_pool(workers: int) -> list[str]:
    """Have ``workers`` worker processes in this process's pool (no pool is made for 0)."""
    if workers <= 0 and _POOL is None:
        return []
    return shared_pool().ensure(max(0, workers))


def close_pool() -> None:
    """Stop this process's workers, if any were started."""
    global _POOL
    if _POOL is not None:
        _POOL.close()
        _POOL = None


# --- the agent ------------------------------------------------------------------------

class ParallelAgent(Agent):
    """UCT with ``settings.threads`` searchers: this process's ``UctAgent`` plus workers."""

    def __init__(self, game: Game, settings: Settings, pool: WorkerPool | None = None):
        super().__init__(game, settings)
        self.local = UctAgent(game, settings)
        self.pool = pool or shared_pool()
        self.on_note: Callable[[str], None] | None = None
        self._job = 0
        self.pool_notes(self.pool.ensure(settings.threads - 1))
        self.pool.broadcast(("newgame",))   # workers forget trees and reseed, as a new agent does

    def pool_notes(self, notes: list[str]) -> None:
        """Pass the pool's notes on (as info strings in the engine)."""
        for text in notes:
            if self.on_note is not None:
                self.on_note(text)

    def new_game(self) -> None:
        super().new_game()
        self.local.new_game()
        self.pool.broadcast(("newgame",))

    def close(self) -> None:
        """Stop the workers of a private pool (the shared pool lives until ``close_pool``)."""
        if self.pool is not _POOL:
            self.pool.close()

    def search(self, state: State, limits: Limits, stop: threading.Event,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Search with every searcher and merge (root mode) or share one tree (tree mode)."""
        self.pool_notes(self.pool.ensure(self.settings.threads - 1))
        self._job = self.pool.next_job()
        if self.settings.parallel == "tree":
            return self._tree_search(state, limits, stop, on_info, history)
        return self._root_search(state, limits, stop, on_info, history)

    def _worker_settings(self, worker: Worker) -> Settings:
        seed = self.settings.seed
        if seed:
            seed = (seed + worker.index * SEED_STRIDE) % 2147483647 or 1
        else:
            seed = self.rng.randrange(1, 2147483647)
        return replace(self.settings, seed=seed, threads=1)

    def _died(self, worker: Worker) -> None:
        self.pool_notes([worker.describe_death() + "; the search goes on without it"])
        worker.dead = True

    # --- root parallel --------------------------------------------------------------------
    def _root_search(self, state, limits, stop, on_info, history) -> SearchResult:
        job = self._job
        workers = self.pool.live()
        shares = _split(limits.nodes, 1 + len(workers))
        reports: dict[int, tuple] = {}      # worker index -> latest progress / result
        busy = []
        for w, share in zip(workers, shares[1:]):
            if share == 0:
                continue
            if w.send(("search", job, state, replace(limits, nodes=share), history,
                       self._worker_settings(w))):
                busy.append(w)
            else:
                self._died(w)
        start = now()

        emitted: list[SearchInfo] = []

        def merged_info(info: SearchInfo) -> None:
            for w in list(busy):
                self._drain(w, job, reports, busy, now())
            if on_info is not None:
                emitted.append(self._merged_info(info, reports, now() - start))
                on_info(emitted[-1])

        local_limits = replace(limits, nodes=shares[0])
        result = self.local.search(state, local_limits, stop, merged_info if busy else on_info, history)
        self._collect(job, busy, reports, stop, fixed=limits.nodes_only())
        if not reports:
            return result
        info = self._merged_info(result.info, reports, now() - start)
        merged = merge_children([root_children(self.local.root)]
                                + [r[1] for r in reports.values()])
        if self.settings.merge == "vote":
            choices = [result.move] + [r[5] for r in reports.values() if len(r) > 5]
            best = majority_vote(choices, merged)
        else:
            best = final_choice(merged, self.settings.final_move)
        if best is None:
            return result
        set_score(info, best)
        info.pv = self._pv_for(best.move, result, reports)
        ponder = info.pv[1] if len(info.pv) > 1 else None
        if emitted and _same_report(emitted[-1], info):
            info = emitted[-1]   # already printed: the caller prints a final info only if new
        return SearchResult(best.move, ponder, info)

    def _collect(self, job: int, busy: list, reports: dict, stop: threading.Event, fixed: bool) -> None:
        """Wait for the workers' final reports.  Under a nodes limit (``fixed``) each worker
        finishes its share unless ``stop`` comes; otherwise they are told to stop now.  A
        worker silent for too long is given up (and replaced at the next go)."""
        told = None
        last_heard = {w.index: now() for w in busy}
        while busy:
            if told is None and (not fixed or stop.is_set()):
                for w in busy:
                    w.send(("stop", job))
                told = now()
            for w in list(busy):
                before = reports.get(w.index)
                self._drain(w, job, reports, busy, now() + 0.01)
                if reports.get(w.index) is not before:
                    last_heard[w.index] = now()
                silent = now() - (told if told is not None else last_heard[w.index])
                if w in busy and silent > (STOP_WAIT if told is not None else SILENT_WAIT):
                    self.pool_notes([f"search worker {w.index} (pid {w.pid}) is not answering; "
                                     "searching without it"])
                    w.stop(0.1)
                    busy.remove(w)

    def _drain(self, w: Worker, job: int, reports: dict, busy: list, deadline: float) -> None:
        """Read ``w``'s messages until none is waiting by ``deadline`` or its final result came.

        Keeps the latest report of this job in ``reports``; a final result (or an error,
        or the worker's death) removes ``w`` from ``busy``.
        """
        try:
            while w in busy:
                msg = w.recv(max(0.0, deadline - now()))
                if msg is None:
                    return
                kind, msg_job = msg[0], msg[1]
                if msg_job != job:
                    continue
                if kind == "progress":
                    reports[w.index] = (msg[2], msg[3], msg[4], 0.0, msg[5])
                elif kind == "result":
                    reports[w.index] = msg[2:]
                    busy.remove(w)
                elif kind == "error":
                    self.pool_notes([f"search worker {w.index} failed: {msg[2]}"])
                    busy.remove(w)
        except EOFError:
            self._died(w)
            busy.remove(w)

    def _merged_info(self, local: SearchInfo, reports: dict, elapsed: float) -> SearchInfo:
        """The local searcher's info with the workers' latest reports merged in."""
        merged = merge_children([root_children(self.local.root)] + [r[1] for r in reports.values()])
        nodes = local.nodes + sum(r[0] for r in reports.values())
        info = SearchInfo(nodes=nodes, time=elapsed, depth=local.depth,
                          seldepth=max([local.seldepth] + [r[2] for r in reports.values()]))
        best = final_choice(merged, self.settings.final_move)
        if best is not None:
            set_score(info, best)
            info.pv = local.pv if local.pv and local.pv[0] == best.move else [best.move]
        return info

    def _pv_for(self, move, result: SearchResult, reports: dict) -> list:
        """The longest principal variation among the searchers that starts with ``move``."""
        pvs = [result.info.pv] + [r[4] for r in reports.values()]
        pvs = [pv for pv in pvs if pv and pv[0] == move]
        return max(pvs, key=len) if pvs else [move]

    # --- tree parallel --------------------------------------------------------------------
    def _tree_search(self, state, limits, stop, on_info, history) -> SearchResult:
        local = self.local
        start = now()
        root = local.search_root(state, limits, history)
        seconds = budget(limits, self.settings.move_overhead)
        deadline = None if seconds is None else start + seconds
        fixed = limits.nodes_only()
        iterations = depth_sum = seldepth = batch_no = 0
        per_searcher = 8
        next_report = start + 0.5
        while not stop.is_set():
            if root.proven is not None:
                if not limits.infinite:
                    break
                stop.wait(0.01)
                continue
            if limits.nodes is not None and iterations >= limits.nodes:
                break
            workers = self.pool.live()
            sizes = [per_searcher] * (1 + len(workers))
            if limits.nodes is not None:
                sizes = _split(min(sum(sizes), limits.nodes - iterations), len(sizes))
            t0 = now()
            leaves = self._tree_batch(root, state, sizes, workers, batch_no, stop)
            batch_no += 1
            for leaf in reversed(leaves):   # deepest first, so a dropped leaf's parent can go too
                if leaf[3] is None:
                    _undo_virtual_loss(leaf[0])
            for leaf in leaves:
                depth_sum += leaf[2]
                seldepth = max(seldepth, leaf[2])
                if leaf[3] is not None:
                    _back_up(leaf[0], leaf[3])
                    iterations += 1
            if not fixed:   # aim at about 20 ms of playouts per batch (quick stop, little overhead)
                spent = now() - t0
                per_searcher = max(1, min(64, int(per_searcher * 0.02 / spent) if spent > 0 else 64))
            t = now()
            if deadline is not None and t >= deadline:
                break
            if limits.depth is not None and seldepth >= limits.depth:
                break
            if on_info is not None and not fixed and t >= next_report:
                next_report = t + 0.5
                on_info(local._info(root, state, iterations, t - start, depth_sum, seldepth))
        info = local._info(root, state, iterations, now() - start, depth_sum, seldepth)
        if on_info is not None:
            on_info(info)
        return local.result(root, state, info)

    @staticmethod
    def _select_leaf(root: Node, state: State, c: float, solver: bool, rng) -> list:
        """Descend by UCB1 counting a visit at every node on the way (the virtual loss);
        expand one move.  Returns [leaf, state, depth, result or None if a playout is needed]."""
        node, depth = root, 0
        node.n += 1
        while True:
            if node.proven is not None:
                return [node, state, depth, node.proven if node.mover == 0 else 1.0 - node.proven]
            if node.untried is None:
                node.untried = state.legal_moves()
                rng.shuffle(node.untried)
                if not node.untried:
                    result = state.outcome()
                    UctAgent._prove(node, result if node.mover == 0 else 1.0 - result, solver)
                    return [node, state, depth, result]
            if node.untried:
                move = node.untried.pop()
                state.play(move)
                child = Node(move, node, node.to_move, state.to_move)
                child.n = 1
                node.children.append(child)
                result = state.outcome()
                if result is not None:
                    UctAgent._prove(child, result if child.mover == 0 else 1.0 - result, solver)
                return [child, state, depth + 1, result]
            node = UctAgent._select(node, c)
            node.n += 1
            state.play(node.move)
            depth += 1

    def _tree_batch(self, root: Node, state: State, sizes: list[int], workers: list[Worker],
                    batch_no: int, stop: threading.Event) -> list:
        """Select ``sizes[i]`` leaves for searcher i (0 = this process), each worker's share
        sent as soon as it is selected, so that selecting this process's share overlaps the
        workers' playouts; run this share; gather the workers'.  Returns the leaves, whose
        result is None where a playout did not run (after ``stop``, or a worker died)."""
        c, solver, rng, job = self.settings.uct_c, self.settings.solver, self.local.rng, self._job
        base = self.settings.seed or self.rng.randrange(1, 2147483647)
        seeds = [hash((base, batch_no, i)) & 0x7FFFFFFF for i in range(len(sizes))]
        leaves, sent = [], []
        for i in list(range(1, len(sizes))) + [0]:
            share = [self._select_leaf(root, state.copy(), c, solver, rng) for _ in range(sizes[i])]
            leaves.extend(share)
            pending = [leaf for leaf in share if leaf[3] is None]
            if not pending:
                continue
            if i == 0:
                policy, local_rng = self.local.policy, random.Random(seeds[0])
                for leaf in pending:
                    if stop.is_set():
                        break
                    leaf[3] = policy.run(leaf[1], local_rng)
            elif workers[i - 1].send(("playouts", job, [leaf[1] for leaf in pending], seeds[i],
                                      self.settings)):
                sent.append((workers[i - 1], pending))
            else:
                self._died(workers[i - 1])
        if stop.is_set():
            for w, _ in sent:
                w.send(("stop", job))
        for w, pending in sent:
            for leaf, result in zip(pending, self._await_playouts(w, job)):
                leaf[3] = result
        return leaves

    def _await_playouts(self, w: Worker, job: int) -> list:
        """The worker's results for this job's batch ([] if it died or hangs)."""
        deadline = now() + 60.0
        while True:
            try:
                msg = w.recv(max(0.0, deadline - now()))
            except EOFError:
                self._died(w)
                return []
            if msg is None:
                self.pool_notes([f"search worker {w.index} (pid {w.pid}) is not answering; "
                                 "searching without it"])
                w.stop(0.1)
                return []
            if msg[0] == "playouts" and msg[1] == job:
                return msg[2]
            if msg[0] == "error" and msg[1] == job:
                self.pool_notes([f"search worker {w.index} failed: {msg[2]}"])
                return []


def _same_report(a: SearchInfo, b: SearchInfo) -> bool:
    """Whether two reports say the same (all but the time)."""
    return (a.nodes, a.score, a.mate, a.wdl, a.pv, a.seldepth) == (b.nodes, b.score, b.mate, b.wdl, b.pv,
                                                                   b.seldepth)


def _back_up(node: Node, result: float) -> None:
    """Add a playout's result (the first player's) along the path; the visits were counted
    when the path was selected."""
    draw = result == 0.5
    while node is not None:
        node.w += result if node.mover == 0 else 1.0 - result
        if draw:
            node.d += 1
        node = node.parent


def _undo_virtual_loss(node: Node) -> None:
    """Take back the visits of a path whose playout never ran; drop an unvisited new leaf."""
    leaf = node
    while node is not None:
        node.n -= 1
        node = node.parent
    parent = leaf.parent
    if leaf.n == 0 and parent is not None and not leaf.children:
        parent.children.remove(leaf)
        if parent.untried is not None:
            parent.untried.append(leaf.move)


def _split(nodes: int | None, parts: int) -> list[int | None]:
    """``nodes`` shared out as evenly as possible among ``parts`` searchers (None = no limit)."""
    if nodes is None:
        return [None] * parts
    return [nodes // parts + (1 if i < nodes % parts else 0) for i in range(parts)]
