"""A search worker process: its loop, from start to ``Quit`` (or the engine's death).

A listener thread reads the pipe, so that a ``StopJob`` reaches a running search at
once; the main thread runs one job at a time.  A stop of job k stops every job up to
k, including one that arrives after the stop (the engine may stop a job before it
starts).  An exception in a job is reported (``JobFailed``) and the worker lives on.
"""
from __future__ import annotations

import queue
import random
import threading

from ..mcts.agent import SearchInfo
from ..mcts.final import root_children
from ..mcts.playouts import Playout, PlayoutSpec
from ..mcts.uct import UctAgent
from .messages import (JobFailed, NewGame, PlayoutJob, PlayoutResults, Quit, Ready, SearchJob,
                       SearchReport, StopJob)


def worker_main(conn, index: int) -> None:
    """A worker process's entry point."""
    WorkerLoop(conn, index).run()


class WorkerLoop:
    """A worker's life: answer jobs until ``Quit`` or end of input."""

    def __init__(self, conn, index: int):
        self.conn = conn
        self.index = index
        self.inbox: queue.Queue = queue.Queue()
        self.lock = threading.Lock()
        self.job, self.stopped, self.event = -1, -1, threading.Event()
        self.agent: UctAgent | None = None
        self.agent_key = None
        self.policy: Playout | None = None
        self.policy_key: PlayoutSpec | None = None

    def listen(self) -> None:
        """The listener thread: stops are handled at once, everything else is queued."""
        while True:
            try:
                msg = self.conn.recv()
            except (EOFError, OSError):
                msg = Quit()   # the engine is gone: stop and exit
            if isinstance(msg, StopJob):
                with self.lock:
                    self.stopped = max(self.stopped, msg.job)
                    if self.job <= msg.job:
                        self.event.set()
                continue
            if isinstance(msg, Quit):
                self.event.set()
            self.inbox.put(msg)
            if isinstance(msg, Quit):
                return

    def run(self) -> None:
        """The main thread: one message at a time until ``Quit``."""
        threading.Thread(target=self.listen, name="listener", daemon=True).start()
        self.conn.send(Ready(self.index))
        while True:
            msg = self.inbox.get()
            if isinstance(msg, Quit):
                break
            try:
                self.handle(msg)
            except (EOFError, OSError):
                break
            except Exception as err:  # report, and stay alive for the next job
                try:
                    job = msg.job if isinstance(msg, (SearchJob, PlayoutJob)) else -1
                    self.conn.send(JobFailed(job, f"{type(err).__name__}: {err}"))
                except OSError:
                    break
        self.conn.close()

    def handle(self, msg) -> None:
        """One message: ``NewGame``, ``SearchJob`` or ``PlayoutJob``."""
        if isinstance(msg, NewGame):
            if self.agent is not None:
                self.agent.new_game()
            if self.policy is not None:
                self.policy.new_game()
        elif isinstance(msg, SearchJob):
            self.search(msg, self._start_job(msg.job))
        elif isinstance(msg, PlayoutJob):
            self.playouts(msg, self._start_job(msg.job))
        else:
            raise TypeError(f"unknown message {msg!r}")

    def _start_job(self, job: int) -> threading.Event:
        """The stop flag of a new job (already set if a stop for it came first)."""
        event = threading.Event()
        with self.lock:
            self.job, self.event = job, event
            if self.stopped >= job:
                event.set()
        return event

    def search(self, msg: SearchJob, event: threading.Event) -> None:
        """One root-parallel search: progress reports while searching, then the final report."""
        key = (msg.game, msg.settings)      # the game itself, not its id: an id can be reused
        if self.agent is None or self.agent_key != key:
            self.agent, self.agent_key = UctAgent(msg.game, msg.settings), key
        agent, conn = self.agent, self.conn

        def progress(info: SearchInfo) -> None:
            conn.send(SearchReport(msg.job, info.nodes, root_children(agent.root), info.seldepth, info.pv,
                                   hashfull=info.hashfull))

        result = agent.search(msg.state, msg.limits, event, progress, msg.history)
        info = result.info
        conn.send(SearchReport(msg.job, info.nodes, root_children(agent.root), info.seldepth, info.pv,
                               info.depth, result.move, final=True, hashfull=info.hashfull))

    def playouts(self, msg: PlayoutJob, event: threading.Event) -> None:
        """One tree-parallel batch: a playout from each state, until done or stopped."""
        settings = msg.settings
        spec = settings.playout_spec
        if self.policy is None or self.policy_key != spec:
            self.policy, self.policy_key = spec.make(), spec
        rng = random.Random(msg.seed)
        results = []
        if settings.amaf:        # RAVE/GRAVE: the master counts the moves too
            moves = []
            for state in msg.states:
                if event.is_set():
                    break
                record = self.policy.run_recorded(state, rng)
                results.append(record.outcome)
                moves.append(record.moves)
            self.conn.send(PlayoutResults(msg.job, results, moves))
            return
        for state in msg.states:
            if event.is_set():
                break
            results.append(self.policy.run(state, rng))
        self.conn.send(PlayoutResults(msg.job, results))
