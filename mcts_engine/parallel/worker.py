"""A worker process: its loop, from start to ``Quit`` (or the engine's death).

A listener thread reads the pipe, so that a ``StopJob`` reaches a running task at once;
the main thread runs one task at a time (``Task.run``: the search defines its tasks, so
this loop imports none of it).  A stop of job k stops every job up to k, including one that
arrives after the stop (the engine may stop a job before it starts).  A task that raises is
reported (``JobFailed``) and the worker lives on; so is a message that cannot be read.
"""
from __future__ import annotations

import queue
import threading

from ..native import StopSignal
from .messages import JobFailed, Quit, Ready, StopJob


def worker_main(conn, index: int) -> None:
    """A worker process's entry point."""
    WorkerLoop(conn, index).run()


class WorkerLoop:
    """A worker's life: run tasks until ``Quit`` or end of input."""

    def __init__(self, conn, index: int):
        self.conn = conn
        self.index = index
        self.inbox: queue.Queue = queue.Queue()
        self.lock = threading.Lock()
        self.job, self.stopped, self.event = -1, -1, StopSignal()
        self.context: dict = {}

    def listen(self) -> None:
        """The listener thread: stops are handled at once, everything else is queued."""
        while True:
            try:
                msg = self.conn.recv()
            except (EOFError, OSError):
                msg = Quit()   # the engine is gone: stop and exit
            except Exception as err:  # a message that cannot be unpickled: say so, keep listening
                msg = JobFailed(-1, f"unreadable message: {type(err).__name__}: {err}")
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
                if isinstance(msg, JobFailed):
                    self.conn.send(msg)
                else:
                    msg.run(self.context, self._start_job(msg.job), self.conn.send)
            except (EOFError, OSError):
                break
            except Exception as err:  # report, and stay alive for the next task
                try:
                    self.conn.send(JobFailed(getattr(msg, "job", -1), f"{type(err).__name__}: {err}"))
                except OSError:
                    break
        self.conn.close()

    def _start_job(self, job: int) -> StopSignal:
        """The stop signal of a new job (already set if a stop for it came first)."""
        event = StopSignal()
        with self.lock:
            self.job, self.event = job, event
            if self.stopped >= job:
                event.set()
        return event
