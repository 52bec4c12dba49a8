"""Where tournament games are played: the local pool of worker threads (the default),
or the workers of a Dask ``distributed`` cluster (``--cluster``, in ``cluster.py``).

An ``Executor`` takes the tournament's ``Lineup`` (its engines and ``PlayConditions``) and its games in ``Batch``es
(colour-swapped pairs) and returns a ``GameStream`` of journal records, yielded as
games finish.  Every executor plays every game with ``referee.play_game``; the driver
(``runner.Tournament``) is the only one that writes the journal, so resume, SPRT
stops, reports and game records are the same whichever executor played.

* ``LocalExecutor``: ``concurrency`` threads, each keeping its own engine processes
  alive from one game to the next.
* ``cluster.DaskExecutor``: one Dask task per batch (see ``cluster.py``, which also
  holds ``open_executor``: the one a command asked for with or without ``--cluster``).
"""
from __future__ import annotations

import abc
import queue
import threading
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from .live import LiveFeed
from .referee import Engines, GameSpec, Lineup, play_game


class ExecutorError(RuntimeError):
    """Games could not be played for a reason that is no engine's fault (a bug, a cluster
    fault); the games finished before it are in the journal."""


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
    def play(self, lineup: Lineup, batches: list[Batch], live: LiveFeed | None = None) -> GameStream:
        """Start playing ``batches``; their records arrive through the stream.  ``live`` (the
        run's live feed) hears of every move where the referees run in this process."""

    def close(self) -> None:
        """Free the executor's resources (a cluster it started, its connection)."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# --- the local pool --------------------------------------------------------------------------

class LocalExecutor(Executor):
    """``concurrency`` worker threads on this machine, each with its own engine processes;
    ``io_log`` sees every line to and from them (``ProcessEngine.io_log``)."""

    def __init__(self, concurrency: int = 1, io_log: Callable[[str, str, str], None] | None = None):
        self.concurrency = max(1, concurrency)
        self.io_log = io_log

    def play(self, lineup: Lineup, batches: list[Batch], live: LiveFeed | None = None) -> GameStream:
        """Start the threads on the batches' games (each referee telling ``live`` its moves)."""
        return _LocalStream(lineup, [g for b in batches for g in b.games], self.concurrency, self.io_log, live)


@dataclass(frozen=True)
class _Failure:
    """A worker thread's game ended in an exception (not an engine's fault: a bug)."""

    game: GameSpec
    error: BaseException


class _LocalStream(GameStream):
    def __init__(self, lineup: Lineup, games: list[GameSpec], concurrency: int,
                 io_log: Callable[[str, str, str], None] | None, live: LiveFeed | None = None):
        self._lineup = lineup
        self._io_log = io_log
        self._live = live
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
        with Engines(self._lineup, self._io_log, self._live) as engines:
            while not self._halt.is_set():
                try:
                    game = self._work.get_nowait()
                except queue.Empty:
                    return
                try:
                    self._finished.put(play_game(self._lineup, game, engines))
                except Exception as err:      # a bug must end the run, not hang it
                    self._finished.put(_Failure(game, err))
