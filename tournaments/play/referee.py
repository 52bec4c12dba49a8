"""One game between two engine processes, refereed by our rules.

This is the only place a tournament game is played, wherever it runs: a worker
thread of the local pool and a task on a Dask worker both call ``play_game``.  So
everything it is given is a plain, picklable, frozen value (a ``Lineup``: the engines and
the ``PlayConditions`` every game of a run shares; ``GameSpec`` for the one game), and it
returns the game's journal record (a dict of JSON values).

Engines whose spec says ``ponder`` think on the opponent's time, as under cutechess-cli's
``-pondering``: after its move an engine ponders on the reply it expects (the driver sends
``go ponder``), and its next turn is a ``ponderhit`` when the opponent played that reply, else
``stop`` and a fresh search (``mcts_engine.client.ponder``); the time charged to its clock is
what the driver measured from its turn's start (from the ponderhit; from the ``stop``), never
the pondering.  An engine that dies while pondering forfeits as after any crash.

The referee validates every move with our rules and adjudicates: the game's end by
the rules, the ply cap, an illegal move, a crash, a silence past the move's limit,
a lost clock, a failed start, optional resign and draw by engine scores, and the
game's own time limit.  That last one bounds a whole game in wall time (each
engine's ``go`` waits at most until it), so a game always ends by itself: a Dask
task cannot be interrupted from outside.  An engine that forfeits is killed (its
whole process group) and started afresh for the next game; the record's ``fault``
names it and what happened (``crash``, ``timeout``, ``protocol``, ``start``), so the
runner can stop the tournament unless it was asked to recover (``--recover``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from mcts_engine.client import (Clock, EngineError, EngineSpec, EngineStartError, EngineTimeout, GoLimits, GoResult,
                                ProcessEngine, make_engine)
from mcts_engine.rules import RulesError, get_game
from mcts_engine.tables import TableSet

from .adjudication import Adjudicator
from .conditions import PlayConditions, TimeControl
from .live import LiveFeed

__all__ = ["Lineup", "GameSpec", "Engines", "play_game"]


@dataclass(frozen=True)
class Lineup:
    """What every game of a run shares: the engines and the conditions they play under.
    Sent whole to each cluster task."""

    conditions: PlayConditions
    engines: tuple[EngineSpec, ...]

    def engine(self, name: str) -> EngineSpec:
        """The spec of the engine called ``name``."""
        for spec in self.engines:
            if spec.name == name:
                return spec
        raise KeyError(f"no engine {name!r} in this tournament ({', '.join(e.name for e in self.engines)})")

    def tc_of(self, name: str) -> TimeControl:
        """The time control of engine ``name``: its spec's own (``tc=``, ``st=``, ``nodes=``) or
        the tournament's."""
        spec, c = self.engine(name), self.conditions
        return TimeControl.of_engine(spec.tc, c.tc.margin, name) if spec.tc else c.tc


@dataclass(frozen=True)
class GameSpec:
    """One scheduled game."""

    id: int
    first: str            # engine name playing the first player
    second: str
    opening: int          # index into the openings
    pair: int             # games with the same pair id are one colour-swapped pair


class Engines:
    """The live engine processes of one worker (a thread of the local pool, or one cluster
    task): started on first use, restarted after a forfeit, all ended by ``close``.
    ``io_log`` is handed to every engine process (``ProcessEngine.io_log``); ``live``, the run's
    live feed (``live_feed``), hears of every game's start, moves and end (``live.py``)."""

    def __init__(self, lineup: Lineup, io_log: Callable[[str, str, str], None] | None = None,
                 live: LiveFeed | None = None):
        self.lineup = lineup
        self.io_log = io_log
        self.live_feed = live
        self._live: dict[str, ProcessEngine] = {}
        self._tables = None

    def get(self, name: str) -> ProcessEngine:
        """The live process of engine ``name`` (started, or restarted if it died)."""
        engine = self._live.get(name)
        if engine is not None and engine.alive:
            return engine
        if engine is not None:
            engine.quit()
        c = self.lineup.conditions
        engine = make_engine(self.lineup.engine(name), c.startup_timeout, game=c.game, rules=c.rules,
                             io_log=self.io_log)
        self._live[name] = engine
        engine.start()
        return engine

    def current(self, name: str) -> ProcessEngine | None:
        """The process started for engine ``name``, alive or not (None: none started): a
        pondering engine that died is reported as a crash, never restarted in mid-game."""
        return self._live.get(name)

    def tables(self):
        """The endgame tables the referee adjudicates by (``Adjudication.tablebases``), loaded
        once per worker; None when table adjudication is off."""
        c = self.lineup.conditions
        if c.adjudication.tablebases is None:
            return None
        if self._tables is None:
            self._tables = TableSet(get_game(c.game, **c.rules), c.adjudication.tablebases)
        return self._tables

    def discard(self, name: str) -> None:
        """Kill engine ``name``'s process group now (a forfeit); a fresh one starts next game."""
        engine = self._live.pop(name, None)
        if engine is not None:
            engine.kill()

    def close(self) -> None:
        """End every engine (``quit``, then signals to the whole process group)."""
        while self._live:
            _, engine = self._live.popitem()
            engine.quit()

    def __enter__(self) -> "Engines":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def play_game(lineup: Lineup, spec: GameSpec, engines: Engines) -> dict:
    """Play one game to its end with ``engines`` (the lineup's live processes) and return its journal record."""
    conditions = lineup.conditions
    opening = conditions.openings[spec.opening]
    game = get_game(conditions.game, **conditions.rules)
    state = game.parse_fen(opening.fen) if opening.fen else game.new_state()
    for text in opening.moves:
        state.play(state.parse_move(text))
    record = {"type": "game", "id": spec.id, "pair": spec.pair, "game": conditions.game, "rules": conditions.rules,
              "players": [spec.first, spec.second], "opening": {"fen": opening.fen, "moves": list(opening.moves)},
              "start_fen": state.fen(), "moves": [], "times_ms": [], "infos": []}
    score_first, reason = _Game(conditions, engines, game.colours, state, record).play()
    record.update(score_first=score_first, reason=reason, plies=len(record["moves"]),
                  finished=time.strftime("%Y-%m-%dT%H:%M:%S"))
    if engines.live_feed is not None:
        engines.live_feed.finished(record)
    return record


class _Game:
    """The loop of one game: asks the engine to move, validates, keeps clocks, adjudicates."""

    def __init__(self, conditions: PlayConditions, engines: Engines, colours: tuple[str, str], state, record: dict):
        self.c, self.engines, self.state, self.record = conditions, engines, state, record
        self.white = 0 if colours[0] == "W" else 1      # the player of White (clock names by colour)
        self.players = tuple(record["players"])
        self.tcs = tuple(engines.lineup.tc_of(name) for name in self.players)
        self.limit = conditions.time_limit(self.tcs)
        self.deadline = time.monotonic() + self.limit
        self.clock = [tc.base for tc in self.tcs]     # seconds left (None: that side has no clock)
        self.played = [0, 0]               # moves made by each player (clock periods)
        self.adjudicator = Adjudicator(conditions.adjudication, engines.tables())

    def play(self) -> tuple[float, str]:
        """(score of the first player, why the game ended); a ponder search still running at
        the end is stopped."""
        try:
            return self._play()
        finally:
            self._stop_pondering()

    def _play(self) -> tuple[float, str]:
        if self.engines.live_feed is not None:
            self.engines.live_feed.started(self.record, self.clock)
        for p in (0, 1):
            try:
                self.engines.get(self.players[p]).new_game()
            except EngineError as err:
                return self._forfeit(p, err)
        moves = self.record["moves"]
        # engines are told the game as it was set up: from the start position (``position
        # startpos``, for engines without FEN support) with the opening's moves, or from its FEN
        opening = self.record["opening"]
        self.start_fen = opening["fen"]
        self.before = list(opening["moves"]) if self.start_fen is None else []
        if self.start_fen is not None and opening["moves"]:
            self.start_fen = self.record["start_fen"]
        while True:
            outcome = self.state.outcome()
            if outcome is not None:
                return outcome, _rules_reason(outcome)
            if len(moves) >= self.c.adjudication.max_plies:
                return 0.5, f"adjudicated: {self.c.adjudication.max_plies} plies"
            p = self.state.to_move
            if time.monotonic() >= self.deadline:
                return self._over_time(p)
            verdict = self._move(p)
            if verdict is not None:
                return verdict

    def _move(self, p: int) -> tuple[float, str] | None:
        """Player ``p`` moves; a verdict when that ends the game."""
        name, tc = self.players[p], self.tcs[p]
        limits, timeout = self._limits(p)
        timeout = min(timeout, self.deadline - time.monotonic())
        engine = self.engines.current(name)
        try:
            if engine is None or not engine.pondering:
                engine = self.engines.get(name)
            answer = engine.go(self.start_fen, self.before + self.record["moves"], limits, timeout)
        except EngineTimeout as err:
            if time.monotonic() >= self.deadline:
                return self._over_time(p)
            return self._forfeit(p, err)
        except EngineError as err:
            return self._forfeit(p, err)
        crashed = self._ponderer_crashed(1 - p)
        if crashed is not None:
            return crashed
        if self.clock[p] is not None:
            self.clock[p] -= answer.elapsed
            if self.clock[p] < -tc.margin:
                return _loss(p), f"{name} lost on time"
            self.clock[p] = max(self.clock[p], 0.0) + tc.increment
            self.played[p] += 1
            if tc.moves and self.played[p] % tc.moves == 0:
                self.clock[p] += tc.base                  # a new period of the x/y time control
        try:
            move = self.state.parse_move(answer.move)
        except RulesError as err:
            return _loss(p), f"{name} played an illegal move: {err}"
        text = self.state.move_str(move)
        self.state.play(move)
        self.record["moves"].append(text)
        self.record["times_ms"].append(round(answer.elapsed * 1000))
        self.record["infos"].append(_journaled_info(answer))
        if self.engines.live_feed is not None:
            self.engines.live_feed.moved(self.record, answer, self.clock)
        return self._adjudicate(answer, p) or self._ponder(p, engine, answer)

    # --- pondering (cutechess's): the mover thinks on the opponent's time on its expected reply ---
    def _ponder(self, p: int, engine: ProcessEngine, answer: GoResult) -> tuple[float, str] | None:
        """Player ``p`` (its spec's ``ponder``) ponders on the reply it expects, when that reply
        is legal and does not end the game (an illegal one is ignored, as cutechess does),
        with its clock as it stands; a verdict when the engine fails to take it."""
        if not self.engines.lineup.engine(self.players[p]).ponder or answer.ponder is None:
            return None
        try:
            reply = self.state.parse_move(answer.ponder)
        except RulesError:
            return None
        after = self.state.copy()
        after.play(reply)
        if after.outcome() is not None or len(self.record["moves"]) + 1 >= self.c.adjudication.max_plies:
            return None
        try:
            engine.ponder(self.start_fen, self.before + self.record["moves"], self.state.move_str(reply),
                          self._limits(p)[0])
        except EngineError as err:
            return self._forfeit(p, err)
        return None

    def _ponderer_crashed(self, q: int) -> tuple[float, str] | None:
        """Player ``q``'s engine died while it pondered (the other side thinking): it forfeits,
        as after any crash."""
        engine = self.engines.current(self.players[q])
        try:
            if engine is not None:
                engine.check_pondering()
        except EngineError as err:
            return self._forfeit(q, err)
        return None

    def _stop_pondering(self) -> None:
        """The game is over: stop any ponder search; an engine that fails to stop is killed
        (a fresh one starts next game) and the game's result stands."""
        for name in self.players:
            engine = self.engines.current(name)
            if engine is not None and engine.pondering:
                try:
                    engine.stop_pondering()
                except EngineError:
                    self.engines.discard(name)

    def _forfeit(self, p: int, err: EngineError) -> tuple[float, str]:
        """Player ``p`` loses by its engine's fault; the process group is killed."""
        name = self.players[p]
        self.engines.discard(name)
        self.record["fault"] = {"engine": name, "kind": err.reason}
        if isinstance(err, EngineStartError):
            return _loss(p), f"{name} failed to start: {err}"
        return _loss(p), f"{name} {err.reason}: {err}"

    def _over_time(self, p: int) -> tuple[float, str]:
        """The game's time limit passed with player ``p`` to move: it forfeits, its engine is killed."""
        name = self.players[p]
        self.engines.discard(name)
        self.record["fault"] = {"engine": name, "kind": "timeout"}
        return _loss(p), f"{name} exceeded the game time limit ({self.limit:g} s)"

    def _adjudicate(self, answer: GoResult, p: int) -> tuple[float, str] | None:
        """Resign and draw adjudication by engine scores, and by the endgame tables (all optional)."""
        cp = answer.info.score.as_cp() if answer.info.score is not None else None
        return (self.adjudicator.after_move(p, cp, len(self.record["moves"]))
                or self.adjudicator.by_tables(self.state))

    def _limits(self, p: int) -> tuple[GoLimits, float]:
        """The ``go`` limits for player ``p`` and how long to wait for its answer: its own time
        control; on a clock both clocks (a side without one shows the mover's) and increments."""
        tc = self.tcs[p]
        if tc.nodes is not None:
            return GoLimits(nodes=tc.nodes), tc.hang
        if tc.base is None:
            return GoLimits(movetime=tc.movetime), tc.movetime / 1000 + tc.margin
        movestogo = tc.moves - self.played[p] % tc.moves if tc.moves else None   # moves left in this period
        seconds = [self.clock[q] if self.clock[q] is not None else self.clock[p] for q in (0, 1)]
        increments = tuple(int(t.increment * 1000) if t.base is not None else 0 for t in self.tcs)
        limits = GoLimits(clock=Clock((int(seconds[0] * 1000), int(seconds[1] * 1000)), increments[p],
                                      movestogo, self.white, increments))
        return limits, self.clock[p] + tc.margin


def _journaled_info(answer: GoResult) -> dict:
    """What the journal keeps of a move's search: its score (cp or mate), depth and nodes, when
    said, and ``ponder`` ``hit`` or ``miss`` when the engine had pondered before it."""
    info, score = answer.info, answer.info.score
    fields = (("cp", score.cp if score else None), ("mate", score.mate if score else None),
              ("depth", info.depth), ("nodes", info.nodes), ("ponder", answer.pondered))
    return {key: value for key, value in fields if value is not None}


def _loss(p: int) -> float:
    """The first player's score when player ``p`` loses."""
    return 0.0 if p == 0 else 1.0


def _rules_reason(outcome: float) -> str:
    if outcome == 0.5:
        return "draw by the rules"
    return f"{'first' if outcome == 1.0 else 'second'} player wins by the rules"
