"""Tournament games on a Dask ``distributed`` cluster (``--cluster``, the ``cluster`` extra).

``DaskExecutor`` submits one task per ``Batch`` (a colour-swapped pair) and yields
the records as tasks finish (``as_completed``); the driver journals them.

* A task (``play_batch``) is a plain function of frozen values: the tournament's
  ``Lineup`` (the engine specs of the command line and the ``PlayConditions``),
  the batch, the manager's project fingerprint and the run's id.  It plays the games
  on its worker with ``referee.play_game`` (our rules validate every move) and
  returns the records, each naming the worker.  Each game bounds its own wall time,
  so a task ends by itself: Dask cannot interrupt a running task.
* Engines are subprocesses of the worker.  Starting one costs about 0.3 s of CPU
  (a Python interpreter and its imports), as much as a fast game's worth of moves,
  so a worker keeps the engines of a finished task idle for the next task of the
  same run (``_IdleEngines``), as a local worker thread keeps its own; the driver
  ends them when the run ends (``release_engines``), and a worker ends any left idle
  for ``IDLE_SECONDS`` (a manager that was killed).  An engine that forfeits is
  killed at once (its whole process group).
* Before a run every worker is checked (``check_worker``, a task pinned to it): the
  same project version as the manager, and every engine starts there.  A problem is
  one ``ClusterError`` naming the worker and the command.
* Faults: a worker that dies mid-task loses nothing finished: the scheduler runs the
  task again on another worker (``distributed.scheduler.allowed-failures``, 3 by
  default; a task that raised is retried ``RETRIES`` times), which replays its games
  from the start; the driver journals a game id only once.  An early stop (SPRT)
  cancels the tasks no worker has started.
* Our engine's command is sent as a bare ``mcts-engine`` and found on each worker
  next to its own Python (``portable``/``localized``); any other command runs on the
  worker as written, so it must exist there.
"""
from __future__ import annotations

import atexit
import functools
import hashlib
import re
import socket
import threading
import time
import uuid
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Callable, Iterator

import mcts_engine
import tournaments
from mcts_engine.client import EngineError
from mcts_engine.client.specs import portable_cmd, resolve_cmd

from .executors import Batch, Executor, ExecutorError, GameStream, LocalExecutor
from .live import LiveFeed
from .referee import Engines, Lineup, play_game

RETRIES = 2                 # times a task that raised is run again (worker deaths: the scheduler's allowed-failures)
CONNECT_TIMEOUT = 30.0      # seconds to reach a scheduler and to see its first worker
CHECK_TIMEOUT = 120.0       # seconds for every worker's start-up check
IDLE_SECONDS = 30.0         # a worker ends engines left idle this long (their run's driver is gone)


class ClusterError(ExecutorError):
    """The cluster cannot play this tournament: unreachable, no workers, or a worker with
    another project version or without an engine's command (names the worker)."""


@dataclass(frozen=True)
class ClusterTarget:
    """Which cluster ``--cluster`` names: a scheduler's address, or ``local:N`` worker processes."""

    address: str | None = None
    local_workers: int | None = None

    @classmethod
    def parse(cls, text: str) -> "ClusterTarget":
        """``tcp://host:8786`` (any Dask address: ``tls://``, ``host:port``) or ``local:N``."""
        text = text.strip()
        match = re.fullmatch(r"local:(\d+)", text)
        if match:
            workers = int(match.group(1))
            if workers < 1:
                raise ValueError(f"--cluster {text!r}: a local cluster needs at least one worker")
            return cls(local_workers=workers)
        if re.fullmatch(r"([a-z][a-z0-9+.-]*://)?[^\s/:]+:\d+", text):
            return cls(address=text)
        raise ValueError(f"--cluster {text!r}: expected a scheduler address (tcp://HOST:PORT, "
                         "tls://HOST:PORT) or local:N (N worker processes on this machine)")

    def __str__(self) -> str:
        return self.address if self.address is not None else f"local:{self.local_workers}"


def open_executor(cluster: ClusterTarget | None, concurrency: int = 1,
                  io_log: Callable[[str, str, str], None] | None = None) -> Executor:
    """The local pool of ``concurrency`` threads (``io_log`` seeing its engines' lines), or a
    connection to ``cluster`` (a ``DaskExecutor``; ClusterError when it cannot be reached or
    has no workers).  Commands open it once, in a ``with``, and pass it to each
    ``Tournament`` they run."""
    if cluster is None:
        return LocalExecutor(concurrency, io_log)
    return DaskExecutor.connect(cluster)


@functools.cache
def project_fingerprint() -> str:
    """This installation's version and a digest of its Python sources: workers and the
    manager must agree on it, so every game is refereed by the same rules."""
    digest = hashlib.sha256()
    for package in (mcts_engine, tournaments):
        root = Path(package.__file__).parent
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root.parent)).encode())
            digest.update(path.read_bytes())
    try:
        version = metadata.version("mcts-engine")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return f"{version} (sources {digest.hexdigest()[:12]})"


def portable(lineup: Lineup) -> Lineup:
    """The lineup as sent to workers: our engine's command as bare ``mcts-engine``."""
    return replace(lineup, engines=tuple(replace(e, cmd=portable_cmd(e.cmd)) for e in lineup.engines))


def localized(lineup: Lineup) -> Lineup:
    """The lineup as a worker runs it: ``mcts-engine`` found next to its own Python."""
    return replace(lineup, engines=tuple(replace(e, cmd=resolve_cmd(e.cmd)) for e in lineup.engines))


@dataclass(frozen=True)
class BatchResult:
    """What a task returns: the batch's journal records, each naming its worker (``worker``)."""

    records: tuple[dict, ...]


@dataclass(frozen=True)
class WorkerCheck:
    """One worker's answer to the start-up check."""

    worker: str           # how messages name it: name, address, host
    fingerprint: str
    problems: tuple[str, ...]


def _this_worker() -> tuple[str, str]:
    """(this Dask worker's address, how messages name it: its name and address, and host)."""
    from distributed import get_worker
    worker = get_worker()
    name = str(worker.name)
    label = worker.address if name == worker.address else f"{name} ({worker.address})"
    return worker.address, f"{label} on {socket.gethostname()}"


class _IdleEngines:
    """The engine sets a worker process keeps between the tasks of a run, by run id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: dict[str, list[tuple[float, Engines]]] = {}
        self._released: set[str] = set()
        self._reaper: threading.Thread | None = None

    def borrow(self, run: str, lineup: Lineup) -> Engines:
        """An idle set of the run's engines, or a new one (engines start on first use)."""
        with self._lock:
            sets = self._idle.get(run)
            if sets:
                return sets.pop()[1]
        return Engines(lineup)

    def give_back(self, run: str, engines: Engines) -> None:
        """Keep ``engines`` for the run's next task (ended at once if the run was released)."""
        with self._lock:
            keep = run not in self._released
            if keep:
                self._idle.setdefault(run, []).append((time.monotonic(), engines))
                if self._reaper is None:
                    self._reaper = threading.Thread(target=self._reap, daemon=True, name="idle-engines")
                    self._reaper.start()
                    atexit.register(self.release, None)
        if not keep:
            engines.close()

    def release(self, run: str | None) -> int:
        """End the idle engines of ``run`` (None: of every run); how many sets were ended."""
        with self._lock:
            if run is None:
                ending = [e for sets in self._idle.values() for _, e in sets]
                self._idle.clear()
            else:
                ending = [e for _, e in self._idle.pop(run, [])]
                self._released.add(run)
        for engines in ending:
            engines.close()
        return len(ending)

    def _reap(self) -> None:
        while True:
            time.sleep(IDLE_SECONDS / 3)
            cutoff = time.monotonic() - IDLE_SECONDS
            with self._lock:
                ending = [e for sets in self._idle.values() for since, e in sets if since < cutoff]
                for run in list(self._idle):
                    self._idle[run] = [(since, e) for since, e in self._idle[run] if since >= cutoff]
                    if not self._idle[run]:
                        del self._idle[run]
            for engines in ending:
                engines.close()


_IDLE = _IdleEngines()


def play_batch(lineup: Lineup, batch: Batch, fingerprint: str, run: str) -> BatchResult:
    """A cluster task: play the batch's games on this worker and return their records.

    The engines are the run's idle ones on this worker, or start here; each game
    bounds its own wall time (``PlayConditions.time_limit``), so the task ends by itself.
    A worker of another project version refuses (ClusterError).
    """
    worker, label = _this_worker()
    if project_fingerprint() != fingerprint:
        raise ClusterError(f"worker {label} runs mcts-engine {project_fingerprint()}, "
                           f"the manager {fingerprint}: install the same version on every worker")
    lineup = localized(lineup)
    engines = _IDLE.borrow(run, lineup)
    try:
        records = tuple({**play_game(lineup, game, engines), "worker": worker} for game in batch.games)
    except BaseException:
        engines.close()
        raise
    _IDLE.give_back(run, engines)
    return BatchResult(records)


def release_engines(run: str) -> None:
    """Run on every worker when a run ends: end its idle engines (in a thread: quitting
    takes a moment and this runs in the worker's event loop)."""
    threading.Thread(target=_IDLE.release, args=(run,), daemon=True, name="release-engines").start()


def check_worker(lineup: Lineup, names: tuple[str, ...], fingerprint: str, run: str) -> WorkerCheck:
    """A cluster task pinned to one worker: does it run the manager's project version, and
    do the engines ``names`` start there (handshake, options and game accepted)?  When all
    is well the engines it started are kept for the run's first task on this worker."""
    _, worker = _this_worker()
    mine = project_fingerprint()
    problems = []
    if mine != fingerprint:
        problems.append(f"runs mcts-engine {mine}, the manager {fingerprint}: install the same version")
    lineup = localized(lineup)
    engines = Engines(lineup)
    for name in names:
        try:
            engines.get(name)
        except EngineError as err:
            engines.discard(name)
            spec = lineup.engine(name)
            problems.append(f"cannot start engine {name!r} (cmd: {' '.join(spec.cmd)}"
                            f"{', cwd: ' + spec.cwd if spec.cwd else ''}): {err}")
    if problems:
        engines.close()
    else:
        _IDLE.give_back(run, engines)
    return WorkerCheck(worker, mine, tuple(problems))


class DaskExecutor(Executor):
    """Games as tasks on a Dask cluster, through a ``distributed.Client``."""

    def __init__(self, client, *, cluster=None, retries: int = RETRIES, fingerprint: str | None = None):
        self.client = client
        self._cluster = cluster                 # a LocalCluster this executor started, closed with it
        self.retries = retries
        self.fingerprint = fingerprint or project_fingerprint()
        self._checked: set[tuple[str, str]] = set()   # (worker, engine) pairs that passed the check

    @classmethod
    def connect(cls, target: ClusterTarget) -> "DaskExecutor":
        """Connect to ``target``'s scheduler (starting a LocalCluster for ``local:N``)."""
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ClusterError("--cluster needs Dask's distributed package: "
                               "pip install 'mcts-engine[cluster]'") from None
        cluster = None
        try:
            if target.local_workers is not None:
                cluster = LocalCluster(n_workers=target.local_workers, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")   # any free port: 8787 may be taken
                client = Client(cluster)
                client.wait_for_workers(target.local_workers, timeout=CONNECT_TIMEOUT)
            else:
                client = Client(target.address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, TypeError, ValueError) as err:   # TypeError: tls:// without TLS settings
            if cluster is not None:
                cluster.close()
            raise ClusterError(f"cannot reach the Dask scheduler at {target}: {err} "
                               "(a tls:// address needs Dask's TLS settings: see docs/cluster.md)") from None
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except TimeoutError:
            client.close()
            raise ClusterError(f"the Dask scheduler at {target} has no workers after {CONNECT_TIMEOUT:g} s "
                               f"(start some: dask worker {target})") from None
        return cls(client, cluster=cluster)

    def workers(self) -> list[str]:
        """The addresses of the cluster's workers now."""
        return sorted(self.client.scheduler_info(n_workers=-1)["workers"])

    def check(self, lineup: Lineup, run: str) -> None:
        """Every worker runs this project version and starts every engine; else ClusterError
        naming each worker and what it lacks (each engine checked once per worker)."""
        pending = {}
        for worker in self.workers():
            engines = tuple(e for e in lineup.engines if (worker, repr(e)) not in self._checked)
            if engines:
                pending[worker] = (engines, self.client.submit(
                    check_worker, lineup, tuple(e.name for e in engines), self.fingerprint, run,
                    workers=[worker], allow_other_workers=False, pure=False, key=f"mcts-check-{run}-{worker}"))
        problems = []
        for worker, (engines, future) in pending.items():
            try:
                answer = future.result(timeout=CHECK_TIMEOUT)
            except Exception as err:      # the worker died, or cannot even unpickle our check
                problems.append(f"worker {worker}: the check failed ({type(err).__name__}: {err}); is "
                                "mcts-engine[cluster] installed there?")
                continue
            problems += [f"worker {answer.worker}: {p}" for p in answer.problems]
            if not answer.problems:
                self._checked.update((worker, repr(e)) for e in engines)
        if problems:
            raise ClusterError("the cluster cannot play this tournament:\n  " + "\n  ".join(problems))

    def play(self, lineup: Lineup, batches: list[Batch], live: LiveFeed | None = None) -> GameStream:
        """Check the workers, then submit one task per batch (``live`` is not fed: the referees
        run on the workers)."""
        sent, run = portable(lineup), uuid.uuid4().hex[:8]
        if batches:
            try:
                self.check(sent, run)
            except ClusterError:
                self.release(run)
                raise
        return _DaskStream(self, sent, batches, run)

    def release(self, run: str) -> None:
        """End the run's idle engines on every worker."""
        try:
            self.client.run(release_engines, run)
        except OSError:               # workers gone: their engines had their stdin closed
            pass

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


class _DaskStream(GameStream):
    def __init__(self, executor: DaskExecutor, lineup: Lineup, batches: list[Batch], run: str):
        from distributed import as_completed
        self._executor = executor
        self._client = executor.client
        self._run = run
        self._batches = {}
        futures = []
        for batch in batches:
            future = self._client.submit(play_batch, lineup, batch, executor.fingerprint, run, pure=False,
                                         retries=executor.retries, key=f"mcts-games-{batch.games[0].id}-{run}")
            self._batches[future.key] = batch
            futures.append(future)
        self._futures = futures
        self._left = len(futures)               # futures still to be yielded or cancelled
        self._completed = as_completed(futures)

    def __iter__(self) -> Iterator[dict]:
        from distributed.client import FutureCancelledError
        while self._left > 0:
            future = next(self._completed)
            if future.status == "cancelled":
                continue                      # counted off by stop()
            self._left -= 1
            try:
                result = future.result()
            except FutureCancelledError:
                continue
            except Exception as err:
                batch = self._batches[future.key]
                raise ExecutorError(f"game(s) {batch.ids()} could not be played on the cluster: "
                                    f"{type(err).__name__}: {err}") from err
            yield from result.records

    def stop(self) -> None:
        """Cancel the tasks no worker has started; the ones being played still arrive."""
        self.stopping = True
        started = {key for keys in self._client.processing().values() for key in keys}
        queued = [f for f in self._futures if not f.done() and f.key not in started]
        self._client.cancel(queued)
        self._left -= len(queued)

    def close(self) -> None:
        unfinished = [f for f in self._futures if not f.done()]
        if unfinished:
            self._client.cancel(unfinished)
        if self._futures:
            self._executor.release(self._run)
