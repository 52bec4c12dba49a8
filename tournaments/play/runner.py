"""Scheduling tournament games and journaling them as they finish.

A tournament is a list of pairings (match: one; round robin: every pair; gauntlet:
the first engine against each other one); each pairing plays its games in pairs
over the same opening with colours swapped.  ``Tournament.run`` hands the schedule,
grouped in colour-swapped pairs, to an executor (``executors``: the local pool of
worker threads by default, or a Dask cluster), which plays every game with
``referee.play_game``; the run is the one writer that appends each finished game to
the journal before it counts, and journals a game id only once.  Games already in
the journal are not played again, so a rerun (or ``--resume``) continues where a
killed run stopped; a rerun with more games per pair extends the schedule
(``continuation.py``).  A game an engine lost by its own fault (a crash, a silence, a failed
restart: the record's ``fault``) stops the run after it is journaled, as cutechess stops,
unless the tournament recovers (``--recover``: the engine is restarted and play goes on).
While it plays, the run keeps the games in progress in a live file beside the journal
(``live.py``: ``<journal>.live.json``, for the GUI's tournament watcher), removed at its end.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable

from mcts_engine.client import EngineSpec
from mcts_engine.client.dxp import check_dxp_play
from mcts_engine.rules import get_game

from ..results.journal import Journal, JournalError
from .conditions import PlayConditions
from .continuation import extension_of
from .executors import Executor, LocalExecutor, pair_batches
from .live import LiveFeed, live_path
from .referee import GameSpec, Lineup

__all__ = ["TournamentSettings", "pairings", "schedule", "Tournament", "EngineFault"]


@dataclass(frozen=True)
class TournamentSettings:
    """What is played: the engines, the schedule (kind, games per pairing, where its numbering
    starts, the smaller game counts it extends) and the conditions every game is played under."""

    conditions: PlayConditions
    engines: tuple[EngineSpec, ...]
    kind: str = "match"                # match | round-robin | gauntlet
    games: int = 2                     # games per pairing
    first_game: int = 0                # the id of the first scheduled game, and
    first_pair: int = 0                # of its pair: the tuner's iterations share one journal
    extended_from: tuple[int, ...] = ()   # the games per pairing of the schedules this one extends

    def identity(self) -> dict:
        """What a journal must match to be continued: everything that decides the games (the
        newer fields only when set, so journals written before them still match)."""
        c = self.conditions
        out = {"game": c.game, "rules": c.rules, "kind": self.kind, "games": self.games,
               "engines": [e.identity() for e in self.engines], "tc": c.tc_identity(),
               "openings": c.openings_identity(), "max_plies": c.adjudication.max_plies}
        if c.game_timeout is not None:
            out["game_timeout"] = c.game_timeout
        if self.first_game or self.first_pair:
            out.update(first_game=self.first_game, first_pair=self.first_pair)
        if self.extended_from:
            out["extended_from"] = list(self.extended_from)
        return out

    def lineup(self) -> Lineup:
        """What every game shares, as the frozen value the referee (and a cluster task) takes."""
        return Lineup(self.conditions, tuple(self.engines))


def pairings(kind: str, names: list[str]) -> list[tuple[str, str]]:
    """The engine pairs of a match, round robin or gauntlet."""
    if len(names) < 2:
        raise ValueError("a tournament needs at least two engines")
    if len(set(names)) != len(names):
        raise ValueError(f"engine names must differ: {', '.join(names)}")
    if kind == "match":
        if len(names) != 2:
            raise ValueError(f"a match is between two engines, not {len(names)}")
        return [(names[0], names[1])]
    if kind == "gauntlet":
        return [(names[0], other) for other in names[1:]]
    if kind == "round-robin":
        return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    raise ValueError(f"unknown tournament kind {kind!r}")


def schedule(settings: TournamentSettings) -> list[GameSpec]:
    """Every game: per pairing, pairs of games over one opening with colours swapped.

    Games are numbered from ``settings.first_game`` and pairs from ``settings.first_pair``,
    pairing by pairing; an extended schedule (``extended_from``: the smaller game counts it
    grew from) numbers the games each extension adds after all the games before it, so the
    games of the schedule it extends keep their ids, pairs and openings.
    """
    out: list[GameSpec] = []
    pair_ids: dict[tuple[int, int], int] = {}
    bounds = (0, *settings.extended_from, settings.games)
    for low, high in zip(bounds, bounds[1:]):
        for p, (a, b) in enumerate(pairings(settings.kind, [e.name for e in settings.engines])):
            for k in range(low, high):
                pair = pair_ids.setdefault((p, k // 2), settings.first_pair + len(pair_ids))
                opening = (k // 2) % len(settings.conditions.openings)
                first, second = (a, b) if k % 2 == 0 else (b, a)
                out.append(GameSpec(settings.first_game + len(out), first, second, opening, pair))
    return out


@dataclass(frozen=True)
class EngineFault:
    """Why a tournament that does not recover stopped: the game an engine lost by its own
    fault (its journaled record), the engine and what happened (``crash``, ``timeout`` ...)."""

    record: dict
    engine: str
    kind: str


class Tournament:
    """Plays a schedule on an executor and journals every finished game.

    ``executor`` is where the games run (default: the local pool of the conditions'
    ``concurrency`` threads); ``on_game`` is called after each journaled game,
    ``should_stop`` (an early stop, e.g. SPRT) is asked after each with every game so far.
    Without ``recover`` the first game an engine loses by its fault stops the run
    (``fault`` then says which).
    """

    def __init__(self, settings: TournamentSettings, journal: Journal, on_game: Callable[[dict], None] | None = None,
                 should_stop: Callable[[list[dict]], bool] | None = None, executor: Executor | None = None,
                 recover: bool = True):
        self.settings = settings          # what is played (``check`` extends it over the journal's schedule)
        self.requested = settings
        self.event: str | None = None      # the PDN Event tag the journal's header keeps (--event)
        self.journal = journal
        self.on_game = on_game              # called (in the writer) after each journaled game
        self.should_stop = should_stop      # early stop (SPRT): asked after each game
        self.executor = executor
        self.recover = recover              # restart a faulty engine and go on
        self.fault: EngineFault | None = None
        conditions = settings.conditions
        self.game = get_game(conditions.game, **conditions.rules)   # an unknown game or bad rule option fails here

    def check(self) -> tuple[list[GameSpec], list[dict]]:
        """(the games still to play, the games already journaled), the journal checked to be
        this tournament's; writes nothing and takes no lock."""
        lineup = self.settings.lineup()
        for spec in self.settings.engines:
            tc = lineup.tc_of(spec.name)        # a bad tc= of an engine fails here
            if spec.protocol == "dxp":
                check_dxp_play(spec, tc.base, self.settings.conditions.concurrency)
        header, done = self.journal.load()
        if header is None and done:
            raise JournalError(f"journal {self.journal.path} has games but no tournament header")
        grown = extension_of(self.requested.identity(), header, self.journal.path, len(done))
        self.settings = replace(self.requested, extended_from=grown)
        finished = {g["id"] for g in done}
        todo = [g for g in schedule(self.settings) if g.id not in finished]
        return todo, done

    def prepare(self) -> tuple[list[GameSpec], list[dict]]:
        """``check``, then write the header of a new journal, or of its tournament extended
        (a header in force from there on; the event kept unless a new one is given).

        Takes the journal's lock first (another manager writing it is refused with its pid),
        held until ``run`` ends (or ``release``)."""
        self.journal.acquire()
        try:
            todo, done = self.check()
            header = self.journal.load()[0]
            if header is None or header.get("settings") != self.settings.identity():
                event = self.event or (header or {}).get("event")
                self.journal.append({"type": "tournament", "settings": self.settings.identity(),
                                     "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
                                     **({"event": event} if event else {})})
        except BaseException:
            self.journal.release()
            raise
        return todo, done

    def release(self) -> None:
        """Give the journal's lock back (``run`` does at its end)."""
        self.journal.release()

    def run(self, todo: list[GameSpec], done: list[dict]) -> list[dict]:
        """Play ``todo`` on the executor; return every journaled game, old and new.

        Each record is journaled as it arrives, once per game id (a game replayed by a
        retried cluster task is not journaled again).  When ``should_stop`` says so no
        new game starts; games already being played are still journaled.
        """
        results = list(done)
        journaled = {r["id"] for r in done}
        executor = self.executor or LocalExecutor(self.settings.conditions.concurrency)
        live = LiveFeed(live_path(self.journal.path), len(todo) + len(done), len(done))   # the games in progress
        stream = executor.play(self.settings.lineup(), pair_batches(todo), live)
        try:
            for record in stream:
                if record["id"] in journaled:
                    continue
                journaled.add(record["id"])
                self.journal.append(record)
                results.append(record)
                if self.on_game is not None:
                    self.on_game(record)
                fault = record.get("fault")
                if fault and not self.recover and self.fault is None:
                    self.fault = EngineFault(record, fault["engine"], fault["kind"])
                    stream.stop()
                if self.should_stop is not None and not stream.stopping and self.should_stop(results):
                    stream.stop()
        finally:
            stream.close()
            live.close()
            self.journal.release()
        return results
