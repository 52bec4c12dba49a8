"""The persistent pool of search worker processes: start, message, reap.

CPython threads cannot run playouts side by side, so extra searchers are processes
(the ``multiprocess`` package, started with ``spawn`` so that a worker never inherits
the protocol's threads or its stdin, and never re-runs the caller's main script).  One
pool per engine process (``shared_pool``), started when ``Threads`` is set or at the
first search, reused by every ``go``; ``Threads 1`` starts nothing.  A dead worker is
reported and replaced at the next ``ensure``; workers exit when told to, when the pool
is closed, and when their pipe to this process breaks (so even a killed engine leaves
no worker behind).
"""
from __future__ import annotations

import atexit
import contextlib
import sys
import threading
import time
from typing import Callable, Iterable, Iterator

from .messages import Quit, Ready
from .worker import worker_main

START_WAIT = 30.0        # seconds a new worker may take to start (imports on a loaded machine)


@contextlib.contextmanager
def main_module_hidden():
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


def _spawn_context():
    """multiprocess's spawn context, imported at the first pool: an engine searching on one
    thread never loads multiprocess and dill (a tenth of its start)."""
    import multiprocess
    return multiprocess.get_context("spawn")


def ordered_map(function: Callable, jobs: Iterable, processes: int) -> Iterator:
    """``function`` over ``jobs``, the results in the jobs' order: in this process where
    ``processes`` is 1, else in that many spawned worker processes (the main module hidden
    from them), which end with the iterator.  Training's self-play and labels use it."""
    if processes <= 1:
        yield from map(function, jobs)
        return
    with main_module_hidden():
        pool = _spawn_context().Pool(processes)
    try:
        yield from pool.imap(function, jobs, chunksize=1)
    finally:
        pool.terminate()
        pool.join()


class Worker:
    """One worker process and this side of its pipe."""

    def __init__(self, ctx, index: int):
        self.index = index
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=worker_main, args=(child, index),
                                   name=f"mcts-worker-{index}", daemon=True)
        with main_module_hidden():
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
        """Wait for the worker's ``Ready`` message."""
        deadline = time.monotonic() + timeout
        while not self.ready:
            try:
                msg = self.recv(max(0.0, deadline - time.monotonic()))
            except EOFError:
                return False
            if msg is None:
                return False
            self.ready = isinstance(msg, Ready)
        return True

    def stop(self, timeout: float = 1.0) -> None:
        """Ask the worker to quit; kill it if it does not within ``timeout``; reap it."""
        self.send(Quit())
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
        self._ctx = _spawn_context()
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
        """A new job number: the engine drops replies of old jobs and a stop of job k stops
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
                w.send(Quit())
            for w in self.workers:
                w.stop()
            self.workers = []


_POOL: WorkerPool | None = None


def shared_pool() -> WorkerPool:
    """This process's worker pool (created on first use, closed at exit)."""
    global _POOL
    if _POOL is None:
        _POOL = WorkerPool()
        atexit.register(close_pool)
    return _POOL


def is_shared(pool: WorkerPool) -> bool:
    """Whether ``pool`` is this process's shared pool (which lives until ``close_pool``)."""
    return pool is _POOL


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
