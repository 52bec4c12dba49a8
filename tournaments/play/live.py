"""The games being played, for whoever watches a running tournament: ``<journal>.live.json``.

The journal holds finished games only; a page that shows the game in progress (the GUI's
tournament watcher) reads this small file beside it instead.  The driver writes it, as it
alone writes the journal: the run (``runner.Tournament.run``) opens a ``LiveFeed`` for its
journal, the local pool's referee threads (in the driver's process) report each game's start,
every move and its end to it (``referee.Engines.live``), and the feed rewrites the file whole,
atomically (a temporary file renamed over it), so a reader never sees half of it.  Writes are
at most one every ``INTERVAL`` seconds (a fast match plays hundreds of moves a second); a move
held back is written by a timer within that interval, a game's start and end at once.  The
file is removed when the run ends; a manager killed meanwhile leaves it behind, naming its
``pid``, and the next run on the journal writes it afresh.  Games played on a Dask cluster
are not fed (their referees are on other machines): the file then lists no game.

The format (``format`` 1, documented for readers in docs/gui.md)::

    {"format": 1, "journal": "match.jsonl", "pid": 4242, "host": "box", "updated": 1764251446.2,
     "run_started": 1764251440.0, "games_total": 4, "games_done_at_start": 0,
     "games": [{"id": 1, "number": 2, "pair": 0, "game": "english", "rules": {},
                "players": ["Eval", "UCT"], "start_fen": "B:W21,...:B1,...", "started": 1764251445.1,
                "clocks_ms": [null, null], "turn_started": 1764251446.1,
                "plies": [{"move": "11-15", "time_ms": 12, "cp": 25, "depth": 4, "seldepth": 9,
                           "nodes": 1000, "pv": ["11-15", "23-19"]}, ...],
                "result": null}]}

``result`` is ``{"score_first": 1.0, "reason": "..."}`` once the game is over; a finished game
stays listed until a new game starts (so a reader sees how it ended before the journal does).
"""
from __future__ import annotations

import json
import os
import socket
import threading
import time
from typing import Callable

from mcts_engine.client import GoResult

__all__ = ["LIVE_FORMAT", "SUFFIX", "INTERVAL", "live_path", "ply_entry", "LiveFeed"]

LIVE_FORMAT = 1
SUFFIX = ".live.json"
INTERVAL = 0.1          # seconds between two writes of the file, at least
MAX_PV = 12             # moves of a principal variation kept


def live_path(journal_path: str) -> str:
    """The live file of the journal at ``journal_path``."""
    return str(journal_path) + SUFFIX


def ply_entry(move: str, answer: GoResult) -> dict:
    """One move of the live file: the move, its time, and the engine's last score, depth,
    selective depth, nodes and principal variation (what it said of them)."""
    info, score = answer.info, answer.info.score
    entry: dict = {"move": move, "time_ms": round(answer.elapsed * 1000)}
    fields = (("cp", score.cp if score else None), ("mate", score.mate if score else None), ("depth", info.depth),
              ("seldepth", info.seldepth), ("nodes", info.nodes))
    entry.update((key, value) for key, value in fields if value is not None)
    if info.pv:
        entry["pv"] = list(info.pv[:MAX_PV])
    return entry


def _clocks_ms(clocks) -> list:
    return [None if c is None else round(c * 1000) for c in clocks]


class LiveFeed:
    """The live file of one run: the games in progress, rewritten (at most every ``interval``
    seconds) as the referees report them.  Thread-safe: every worker thread reports to it.
    A write that fails (a full disk) turns the feed off; it never stops a game."""

    def __init__(self, path: str, games_total: int, games_done: int, interval: float = INTERVAL,
                 clock: Callable[[], float] = time.time):
        self.path = path
        self.interval = interval
        self.clock = clock
        self.error: OSError | None = None
        self._closed = False
        self._lock = threading.Lock()
        self._games: dict[int, dict] = {}
        self._timer: threading.Timer | None = None
        self._written = float("-inf")
        self._head = {"format": LIVE_FORMAT, "journal": os.path.basename(str(path)[:-len(SUFFIX)]
                                                                           if str(path).endswith(SUFFIX) else path),
                      "pid": os.getpid(), "host": socket.gethostname(), "run_started": clock(),
                      "games_total": games_total, "games_done_at_start": games_done}
        with self._lock:
            self._write()

    def started(self, record: dict, clocks) -> None:
        """A game starts (its journal record as the referee begins it, the clocks in seconds)."""
        now = self.clock()
        with self._lock:
            for gid in [g for g, game in self._games.items() if game["result"] is not None]:
                del self._games[gid]          # a finished game gives its place to the new one
            self._games[record["id"]] = {
                "id": record["id"], "number": record["id"] + 1, "pair": record.get("pair"), "game": record["game"],
                "rules": record.get("rules", {}), "players": list(record["players"]), "start_fen": record["start_fen"],
                "started": now, "clocks_ms": _clocks_ms(clocks), "turn_started": now, "plies": [], "result": None}
            self._write()

    def moved(self, record: dict, answer: GoResult, clocks) -> None:
        """The game of ``record`` has a new move (its last), played on ``answer``; the clocks after it."""
        with self._lock:
            game = self._games.get(record["id"])
            if game is None:
                return
            game["plies"].append(ply_entry(record["moves"][-1], answer))
            game["clocks_ms"] = _clocks_ms(clocks)
            game["turn_started"] = self.clock()
            self._write_soon()

    def finished(self, record: dict) -> None:
        """The game of ``record`` is over (its ``score_first`` and ``reason`` set)."""
        with self._lock:
            game = self._games.get(record["id"])
            if game is None:
                return
            game["result"] = {"score_first": record["score_first"], "reason": record["reason"]}
            self._write()

    def close(self) -> None:
        """The run is over: the file is removed."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._games.clear()
            self._closed = True
            try:
                os.remove(self.path)
            except OSError:
                pass

    def snapshot(self) -> dict:
        """What the file holds now (or would, once written)."""
        with self._lock:
            return json.loads(json.dumps(self._content()))

    def _content(self) -> dict:
        return {**self._head, "updated": self.clock(), "games": [g for _, g in sorted(self._games.items())]}

    def _write_soon(self) -> None:
        """Write now if the last write is ``interval`` old, else once it is (a timer)."""
        wait = self._written + self.interval - self.clock()
        if wait <= 0:
            self._write()
        elif self._timer is None and self.error is None and not self._closed:
            self._timer = threading.Timer(wait, self._flush)
            self._timer.daemon = True
            self._timer.start()

    def _flush(self) -> None:
        with self._lock:
            self._timer = None
            self._write()

    def _write(self) -> None:
        """Rewrite the file whole: a temporary file beside it, renamed over it (lock held)."""
        if self.error is not None or self._closed:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        temporary = f"{self.path}.tmp"          # one writer: the journal lock's holder
        try:
            with open(temporary, "w", encoding="utf-8") as out:
                json.dump(self._content(), out, separators=(",", ":"))
            os.replace(temporary, self.path)
        except OSError as err:
            self.error = err
            try:
                os.remove(temporary)
            except OSError:
                pass
        self._written = self.clock()
