"""Where tournament games are played: the local pool of worker threads (the default),
or the workers of a Dask ``distributed`` cluster (``--cluster``).

Both play every game with ``referee.play_game`` and hand back journal records; the
driver (``runner.Tournament``) is the only one that writes the journal, so resume,
SPRT stops, reports and game records are the same whichever executor played.

* ``LocalExecutor``: ``concurrency`` threads, each keeping its own engine processes
  alive from one game to the next.
* ``DaskExecutor``: one task per ``Batch`` (a colour-swapped pair of games).  A task
  (``play_batch``) starts the pair's engines as subprocesses on its worker, plays the
  games, ends the engines (process groups) and returns the records.  Before a run
  every worker is checked (``check_worker``): the same project version as the
  manager, and every engine starts there; a problem is one error naming the worker
  and the command.  A worker that dies mid-task loses nothing finished: the
  scheduler runs the task again on another worker, which replays its games from the
  start, and the driver journals a game id only once.

Everything a task is sent is a frozen dataclass of plain values (``Conditions``,
``Batch``): the engine specs of the command line and the tournament's openings and
limits, nothing else.  ``distributed`` is imported only when a cluster is used
(the ``cluster`` extra).
"""
from __future__ import annotations

import abc
import functools
import hashlib
import queue
import re
import socket
import threading
import uuid
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Iterable, Iterator

from .engine import EngineError, EngineProcess, portable_cmd, resolve_cmd
from .referee import Conditions, Engines, GameSpec, play_game

RETRIES = 2                 # times a task that raised is run again (worker deaths: the scheduler's allowed-failures)
CONNECT_TIMEOUT = 30.0      # seconds to reach a scheduler and to see its first worker
CHECK_TIMEOUT = 120.0       # seconds for every worker's start-up check


class ExecutorError(RuntimeError):
    """Games could not be played for a reason that is no engine's fault (a bug, a cluster
    fault); the games finished before it are in the journal."""


class ClusterError(ExecutorError):
    """The cluster cannot play this tournament: unreachable, no workers, or a worker with
    another project version or without an engine's command (names the worker)."""


@dataclass(frozen=True)
class Batch:
    """Games one worker plays one after the other with the same engine processes: a
    colour-swapped pair (or what is left of it on resume)."""

    games: tuple[GameSpec, ...]

    def ids(self) -> str:
        """The game ids, for messages: ``4, 5``."""
        return ", ".join(str(g.id) for g in self.games)


def pair_batches(games: Iterable[GameSpec]) -> list[Batch]:
    """The games grouped by colour-swapped pair, in schedule order."""
    pairs: dict[int, list[GameSpec]] = {}
    for game in games:
        pairs.setdefault(game.pair, []).append(game)
    return [Batch(tuple(pair)) for pair in pairs.values()]


class GameStream(abc.ABC):
    """The records of a run's games, yielded as the games finish."""

    stopping = False

    @abc.abstractmethod
    def __iter__(self) -> Iterator[dict]:
        """Each finished game's record, as it arrives; ExecutorError if games cannot be played."""

    @abc.abstractmethod
    def stop(self) -> None:
        """Start no more games (an early stop); games already being played still arrive."""

    @abc.abstractmethod
    def close(self) -> None:
        """End the run now: queued games are dropped, threads joined, tasks cancelled."""


class Executor(abc.ABC):
    """Plays batches of games somewhere; a context manager that frees what it holds."""

    @abc.abstractmethod
    def play(self, conditions: Conditions, batches: list[Batch]) -> GameStream:
        """Start playing ``batches``; their records arrive through the stream."""

    def close(self) -> None:
        """Free the executor's resources (a cluster it started, its connection)."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# --- the local pool --------------------------------------------------------------------------

class LocalExecutor(Executor):
    """``concurrency`` worker threads on this machine, each with its own engine processes."""

    def __init__(self, concurrency: int = 1):
        self.concurrency = max(1, concurrency)

    def play(self, conditions: Conditions, batches: list[Batch]) -> GameStream:
        """Start the threads on the batches' games."""
        return _LocalStream(conditions, [g for b in batches for g in b.games], self.concurrency)


@dataclass(frozen=True)
class _Failure:
    """A worker thread's game ended in an exception (not an engine's fault: a bug)."""

    game: GameSpec
    error: BaseException


class _LocalStream(GameStream):
    def __init__(self, conditions: Conditions, games: list[GameSpec], concurrency: int):
        self._conditions = conditions
        self._work: queue.Queue = queue.Queue()
        for game in games:
            self._work.put(game)
        self._finished: queue.Queue = queue.Queue()
        self._remaining = len(games)
        self._halt = threading.Event()
        self._threads = [threading.Thread(target=self._worker, daemon=True, name=f"game-worker{i}")
                         for i in range(min(concurrency, len(games)))]
        for thread in self._threads:
            thread.start()

    def __iter__(self) -> Iterator[dict]:
        while self._remaining > 0:
            item = self._finished.get()
            self._remaining -= 1
            if isinstance(item, _Failure):
                raise ExecutorError(f"game {item.game.id} could not be played: "
                                    f"{type(item.error).__name__}: {item.error}") from item.error
            yield item

    def stop(self) -> None:
        self.stopping = True
        self._halt.set()
        self._remaining -= self._drain()

    def close(self) -> None:
        self.stop()
        for thread in self._threads:
            thread.join(timeout=60)

    def _drain(self) -> int:
        dropped = 0
        while True:
            try:
                self._work.get_nowait()
                dropped += 1
            except queue.Empty:
                return dropped

    def _worker(self) -> None:
        with Engines(self._conditions) as engines:
            while not self._halt.is_set():
                try:
                    game = self._work.get_nowait()
                except queue.Empty:
                    return
                try:
                    self._finished.put(play_game(self._conditions, game, engines))
                except Exception as err:      # a bug must end the run, not hang it
                    self._finished.put(_Failure(game, err))


# --- the cluster -------------------------------------------------------------------------------

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


def open_executor(cluster: ClusterTarget | None, concurrency: int = 1) -> Executor:
    """The local pool of ``concurrency`` threads, or a connection to ``cluster``."""
    if cluster is None:
        return LocalExecutor(concurrency)
    return DaskExecutor.connect(cluster)


@functools.cache
def project_fingerprint() -> str:
    """This installation's version and a digest of its Python sources: workers and the
    manager must agree on it, so every game is refereed by the same rules."""
    import mcts_engine
    import tournaments
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


def portable(conditions: Conditions) -> Conditions:
    """The conditions as sent to workers: our engine's command as bare ``mcts-engine``."""
    return replace(conditions, engines=tuple(replace(e, cmd=portable_cmd(e.cmd)) for e in conditions.engines))


def localized(conditions: Conditions) -> Conditions:
    """The conditions as a worker runs them: ``mcts-engine`` found next to its own Python."""
    return replace(conditions, engines=tuple(replace(e, cmd=resolve_cmd(e.cmd)) for e in conditions.engines))


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


def play_batch(conditions: Conditions, batch: Batch, fingerprint: str) -> BatchResult:
    """A cluster task: play the batch's games on this worker and return their records.

    Engines start here and are ended (their whole process groups) before returning;
    each game bounds its own wall time (``Conditions.time_limit``), so the task ends
    by itself.  A worker of another project version refuses (ClusterError).
    """
    worker, label = _this_worker()
    if project_fingerprint() != fingerprint:
        raise ClusterError(f"worker {label} runs mcts-engine {project_fingerprint()}, "
                           f"the manager {fingerprint}: install the same version on every worker")
    conditions = localized(conditions)
    with Engines(conditions) as engines:
        records = tuple({**play_game(conditions, game, engines), "worker": worker} for game in batch.games)
    return BatchResult(records)


def check_worker(conditions: Conditions, fingerprint: str) -> WorkerCheck:
    """A cluster task pinned to one worker: does it run the manager's project version, and
    does every engine start there (handshake, options and game accepted)?"""
    _, worker = _this_worker()
    mine = project_fingerprint()
    problems = []
    if mine != fingerprint:
        problems.append(f"runs mcts-engine {mine}, the manager {fingerprint}: install the same version")
    for spec in localized(conditions).engines:
        engine = EngineProcess(spec, conditions.startup_timeout, game=conditions.game, rules=conditions.rules)
        try:
            engine.start()
        except EngineError as err:
            problems.append(f"cannot start engine {spec.name!r} (cmd: {' '.join(spec.cmd)}"
                            f"{', cwd: ' + spec.cwd if spec.cwd else ''}): {err}")
        finally:
            engine.quit()
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
                                       dashboard_address=None)
                client = Client(cluster)
                client.wait_for_workers(target.local_workers, timeout=CONNECT_TIMEOUT)
            else:
                client = Client(target.address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as err:
            if cluster is not None:
                cluster.close()
            raise ClusterError(f"cannot reach the Dask scheduler at {target}: {err}") from None
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

    def check(self, conditions: Conditions) -> None:
        """Every worker runs this project version and starts every engine; else ClusterError
        naming each worker and what it lacks (engines checked once per worker)."""
        pending = {}
        for worker in self.workers():
            engines = tuple(e for e in conditions.engines if (worker, repr(e)) not in self._checked)
            if engines:
                pending[worker] = (engines, self.client.submit(
                    check_worker, replace(conditions, engines=engines), self.fingerprint, workers=[worker],
                    allow_other_workers=False, pure=False, key=f"mcts-check-{uuid.uuid4().hex}"))
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

    def play(self, conditions: Conditions, batches: list[Batch]) -> GameStream:
        """Check the workers, then submit one task per batch."""
        sent = portable(conditions)
        if batches:
            self.check(sent)
        return _DaskStream(self, sent, batches)

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


class _DaskStream(GameStream):
    def __init__(self, executor: DaskExecutor, conditions: Conditions, batches: list[Batch]):
        from distributed import as_completed
        self._client = executor.client
        run = uuid.uuid4().hex[:8]
        self._batches = {}
        futures = []
        for batch in batches:
            future = self._client.submit(play_batch, conditions, batch, executor.fingerprint, pure=False,
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
