"""Scheduling and playing tournament games.

A tournament is a list of ``Pairing``s (match: one; round robin: every pair;
gauntlet: the first engine against each other one); each pairing plays its games
in pairs over the same opening with colours swapped.  ``Tournament.run`` plays
the schedule on a pool of worker threads (each worker keeps its own engine
processes alive between games and restarts one that died), validates every move
with our rules, adjudicates, and hands each finished game to one writer that
appends it to the journal before it counts.  Games already in the journal are not
played again, so a rerun (or ``--resume``) continues where a killed run stopped.
"""
from __future__ import annotations

import math
import queue
import random
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

from mcts_engine.rules import RulesError, get_game

from .dxp_engine import check_dxp_play
from .engine import EngineError, EngineSpec, EngineStartError, make_engine
from .process import ProcessEngine
from .records import Journal, JournalError


@dataclass
class TimeControl:
    """How long engines may think: a fixed movetime, a node count, or a clock with increment."""

    movetime: int | None = None        # ms per move
    nodes: int | None = None           # iterations per move
    base: float | None = None          # clock: seconds per game (or per ``moves`` moves)
    increment: float = 0.0             # clock: seconds added after each move
    moves: int | None = None           # clock: moves per period (``40/60+0.6``)
    margin: float = 1.0                # seconds past the limit before a silent engine forfeits
    hang: float = 30.0                 # seconds a node-limited move may take before it forfeits

    @classmethod
    def parse(cls, movetime: int | None, nodes: int | None, tc: str | None, margin_ms: int = 1000) -> "TimeControl":
        """From the command line: ``--movetime MS``, ``--nodes N`` or ``--tc [moves/]seconds[+inc]``."""
        given = [x is not None for x in (movetime, nodes, tc)]
        if sum(given) > 1:
            raise ValueError("give one of --movetime, --nodes, --tc")
        out = cls(margin=margin_ms / 1000)
        if tc is not None:
            text = tc
            try:
                if "/" in text:
                    moves, text = text.split("/", 1)
                    out.moves = int(moves)
                base, _, inc = text.partition("+")
                out.base, out.increment = float(base), float(inc or 0)
            except ValueError:
                raise ValueError(f"--tc {tc!r}: expected [moves/]seconds[+increment], e.g. 60+0.6") from None
            if not (0 < out.base < math.inf and 0 <= out.increment < math.inf):
                raise ValueError(f"--tc {tc!r}: the time must be positive (and finite)")
            if out.moves is not None and out.moves < 1:
                raise ValueError(f"--tc {tc!r}: the moves per period must be at least 1")
        elif nodes is not None:
            out.nodes = nodes
        else:
            out.movetime = movetime if movetime is not None else 100
        return out


@dataclass
class Settings:
    """What is played: the game, the engines, the schedule and the adjudication."""

    game: str
    engines: list[EngineSpec]
    kind: str = "match"                # match | round-robin | gauntlet
    games: int = 2                     # games per pairing
    rules: dict = field(default_factory=dict)
    tc: TimeControl = field(default_factory=TimeControl)
    openings: list[tuple[str | None, list[str]]] = field(default_factory=lambda: [(None, [])])
    concurrency: int = 1
    max_plies: int = 1000              # adjudicated a draw after this many plies
    resign_score: int | None = None    # cp: a side scoring below -this for resign_moves moves resigns
    resign_moves: int = 3
    draw_score: int | None = None      # cp: both |score| <= this for draw_moves moves (after 40 plies): draw
    draw_moves: int = 8
    startup_timeout: float = 10.0
    event: str = "mcts-tournament"
    first_game: int = 0                # the id of the first scheduled game, and
    first_pair: int = 0                # of its pair: the tuner's iterations share one journal

    def identity(self) -> dict:
        """What a journal must match to be continued: everything that decides the games."""
        identity = {"game": self.game, "rules": self.rules, "kind": self.kind, "games": self.games,
                    "engines": [e.identity() for e in self.engines], "tc": asdict(self.tc),
                    "openings": [[fen, moves] for fen, moves in self.openings], "max_plies": self.max_plies}
        if self.first_game or self.first_pair:   # only then, so journals written before still match
            identity.update(first_game=self.first_game, first_pair=self.first_pair)
        return identity


@dataclass
class GameSpec:
    """One scheduled game."""

    id: int
    first: str            # engine name playing the first player
    second: str
    opening: int          # index into Settings.openings
    pair: int             # games with the same pair id are one colour-swapped pair


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


def schedule(settings: Settings) -> list[GameSpec]:
    """Every game: per pairing, pairs of games over one opening with colours swapped.

    Games are numbered from ``settings.first_game`` and pairs from ``settings.first_pair``.
    """
    out: list[GameSpec] = []
    pair_id = settings.first_pair
    for a, b in pairings(settings.kind, [e.name for e in settings.engines]):
        for k in range(settings.games):
            opening = (k // 2) % len(settings.openings)
            first, second = (a, b) if k % 2 == 0 else (b, a)
            out.append(GameSpec(settings.first_game + len(out), first, second, opening, pair_id + k // 2))
        pair_id += (settings.games + 1) // 2
    return out


def random_openings(game_name: str, rules: dict, plies: int, count: int, seed: int) -> list[tuple[None, list[str]]]:
    """``count`` distinct openings of ``plies`` random legal moves from the start (seeded)."""
    game = get_game(game_name, **rules)
    rng = random.Random(seed)
    seen, out = set(), []
    for _ in range(count * 50):
        state = game.new_state()
        moves = []
        for _ in range(plies):
            move = state.random_move(rng)
            if move is None:
                break
            moves.append(state.move_str(move))
            state.play(move)
        if len(moves) < plies or state.outcome() is not None or tuple(moves) in seen:
            continue
        seen.add(tuple(moves))
        out.append((None, moves))
        if len(out) == count:
            break
    return out or [(None, [])]


def read_openings(path: str, game_name: str, rules: dict) -> list[tuple[str | None, list[str]]]:
    """An openings file: one opening a line, a FEN, a move list, or ``FEN | moves``; # comments.

    Every opening is checked with our rules; a bad one is an error naming its line.
    """
    game = get_game(game_name, **rules)
    out = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            fen, moves = None, line
            if "|" in line:
                fen, moves = (part.strip() for part in line.split("|", 1))
            elif len(line.split()) == 1 and line[:2].upper() in ("W:", "B:"):
                fen, moves = line, ""
            try:
                state = game.parse_fen(fen) if fen else game.new_state()
                for text in moves.split():
                    state.play(state.parse_move(text))
            except RulesError as err:
                raise ValueError(f"{path}:{number}: bad opening: {err}") from None
            if state.outcome() is not None:
                raise ValueError(f"{path}:{number}: the opening ends the game")
            out.append((fen, moves.split()))
    if not out:
        raise ValueError(f"{path}: no openings")
    return out


class Tournament:
    """Plays a schedule on a pool of workers and journals every finished game."""

    def __init__(self, settings: Settings, journal: Journal, on_game: Callable[[dict], None] | None = None,
                 should_stop: Callable[[list[dict]], bool] | None = None):
        self.settings = settings
        self.journal = journal
        self.on_game = on_game              # called (in the writer) after each journaled game
        self.should_stop = should_stop      # early stop (SPRT): asked after each game
        self.game = get_game(settings.game, **settings.rules)
        self.specs = {e.name: e for e in settings.engines}
        self.stopping = threading.Event()

    def prepare(self) -> tuple[list[GameSpec], list[dict]]:
        """(the games still to play, the games already journaled); writes the header of a new journal."""
        for spec in self.settings.engines:
            if spec.protocol == "dxp":
                check_dxp_play(spec, self.settings.tc.base, self.settings.concurrency)
        header, done = self.journal.load()
        identity = self.settings.identity()
        if header is None:
            if done:
                raise JournalError(f"journal {self.journal.path} has games but no tournament header")
            self.journal.append({"type": "tournament", "settings": identity,
                                 "started": time.strftime("%Y-%m-%dT%H:%M:%S")})
        elif header.get("settings") != identity:
            raise JournalError(f"journal {self.journal.path} was written for a different tournament "
                               "(game, engines, time control, openings or schedule differ); "
                               "use another --journal or the same settings")
        finished = {g["id"] for g in done}
        todo = [g for g in schedule(self.settings) if g.id not in finished]
        return todo, done

    def run(self, todo: list[GameSpec], done: list[dict]) -> list[dict]:
        """Play ``todo`` (on ``concurrency`` workers); return every journaled game, old and new."""
        results = list(done)
        work: queue.Queue = queue.Queue()
        for spec in todo:
            work.put(spec)
        finished: queue.Queue = queue.Queue()
        workers = [threading.Thread(target=self._worker, args=(work, finished), daemon=True, name=f"worker{i}")
                   for i in range(max(1, min(self.settings.concurrency, len(todo) or 1)))]
        for w in workers:
            w.start()
        remaining = len(todo)
        try:
            while remaining:
                record = finished.get()
                remaining -= 1
                if record is None:   # a worker gave up its game because of a stop
                    continue
                self.journal.append(record)
                results.append(record)
                if self.on_game is not None:
                    self.on_game(record)
                if self.should_stop is not None and not self.stopping.is_set() and self.should_stop(results):
                    self.stopping.set()
                    remaining -= self._drain(work)
        finally:
            self.stopping.set()
            for w in workers:
                w.join(timeout=60)
        return results

    @staticmethod
    def _drain(work: queue.Queue) -> int:
        dropped = 0
        while True:
            try:
                work.get_nowait()
                dropped += 1
            except queue.Empty:
                return dropped

    # --- a worker ---------------------------------------------------------------------------
    def _worker(self, work: queue.Queue, finished: queue.Queue) -> None:
        engines: dict[str, ProcessEngine] = {}
        try:
            while not self.stopping.is_set():
                try:
                    spec = work.get_nowait()
                except queue.Empty:
                    return
                finished.put(self.play(spec, engines))
        finally:
            for engine in engines.values():
                engine.quit()

    def _engine(self, name: str, engines: dict[str, ProcessEngine]) -> ProcessEngine:
        """This worker's live engine process called ``name`` (started or restarted as needed)."""
        engine = engines.get(name)
        if engine is not None and engine.alive:
            return engine
        if engine is not None:
            engine.quit()
        engine = make_engine(self.specs[name], self.settings.startup_timeout, game=self.game.name,
                             rules=self.settings.rules)
        engines[name] = engine
        engine.start()
        return engine

    def play(self, spec: GameSpec, engines: dict[str, ProcessEngine]) -> dict:
        """Play one game to its end and return its journal record."""
        s = self.settings
        fen, opening_moves = s.openings[spec.opening]
        state = self.game.parse_fen(fen) if fen else self.game.new_state()
        for text in opening_moves:
            state.play(state.parse_move(text))
        start_fen = state.fen()
        players = (spec.first, spec.second)
        record = {"type": "game", "id": spec.id, "pair": spec.pair, "game": s.game, "rules": s.rules,
                  "players": list(players), "opening": {"fen": fen, "moves": opening_moves},
                  "start_fen": start_fen, "moves": [], "times_ms": [], "infos": []}
        score_first, reason = self._play_moves(state, players, engines, record)
        record.update(score_first=score_first, reason=reason, plies=len(record["moves"]),
                      finished=time.strftime("%Y-%m-%dT%H:%M:%S"))
        return record

    def _play_moves(self, state, players, engines, record) -> tuple[float, str]:
        """The game loop; returns (score of the first player, why the game ended)."""
        s, tc = self.settings, self.settings.tc
        clock = [tc.base, tc.base] if tc.base is not None else None
        resign_count = [0, 0]
        played = [0, 0]                    # moves made by each player (clock periods)
        draw_count = 0
        for p in (0, 1):
            try:
                self._engine(players[p], engines).new_game()
            except EngineStartError as err:
                return self._loss(p, f"{players[p]} failed to start: {err}", engines, players[p])
            except EngineError as err:
                return self._loss(p, f"{players[p]} {err.reason}: {err}", engines, players[p])
        moves: list[str] = []
        # engines are told the game as it was set up: from the start position (``position
        # startpos``, for engines without FEN support) with the opening's moves, or from its FEN
        opening = record["opening"]
        start_fen = opening["fen"]
        before = list(opening["moves"]) if start_fen is None else []
        if start_fen is not None and opening["moves"]:
            start_fen = record["start_fen"]
        while True:
            outcome = state.outcome()
            if outcome is not None:
                return outcome, self._rules_reason(state, outcome)
            if len(moves) >= s.max_plies:
                return 0.5, f"adjudicated: {s.max_plies} plies"
            p = state.to_move
            name = players[p]
            limits, timeout = self._limits(tc, clock, p, played[p])
            try:
                engine = self._engine(name, engines)
                answer = engine.go(start_fen, before + moves, limits, timeout)
            except EngineStartError as err:
                return self._loss(p, f"{name} failed to start: {err}", engines, name)
            except EngineError as err:
                return self._loss(p, f"{name} {err.reason}: {err}", engines, name)
            if clock is not None:
                clock[p] -= answer.elapsed
                if clock[p] < -tc.margin:
                    return (0.0 if p == 0 else 1.0), f"{name} lost on time"
                clock[p] = max(clock[p], 0.0) + tc.increment
                played[p] += 1
                if tc.moves and played[p] % tc.moves == 0:
                    clock[p] += tc.base                  # a new period of the x/y time control
            try:
                move = state.parse_move(answer.move)
            except RulesError as err:
                return (0.0 if p == 0 else 1.0), f"{name} played an illegal move: {err}"
            text = state.move_str(move)
            state.play(move)
            moves.append(text)
            record["moves"].append(text)
            record["times_ms"].append(round(answer.elapsed * 1000))
            record["infos"].append({k: v for k, v in (("cp", answer.score_cp), ("mate", answer.mate),
                                                       ("depth", answer.depth), ("nodes", answer.nodes))
                                    if v is not None})
            verdict = self._score_adjudication(answer, p, len(moves), resign_count, draw_count)
            if isinstance(verdict, tuple):
                return verdict
            draw_count = verdict

    def _score_adjudication(self, answer, p, plies, resign_count, draw_count):
        """Resign and draw adjudication by engine scores (both optional); the new draw count or a verdict."""
        s = self.settings
        cp = answer.score_cp if answer.mate is None else (100000 if answer.mate > 0 else -100000)
        if s.resign_score is not None and cp is not None:
            resign_count[p] = resign_count[p] + 1 if cp <= -s.resign_score else 0
            if resign_count[p] >= s.resign_moves:
                return (0.0 if p == 0 else 1.0), "adjudicated: resign by score"
        if s.draw_score is not None and cp is not None and plies >= 40:
            draw_count = draw_count + 1 if abs(cp) <= s.draw_score else 0
            if draw_count >= 2 * s.draw_moves:
                return 0.5, "adjudicated: draw by score"
        return draw_count

    def _loss(self, p: int, reason: str, engines: dict, name: str) -> tuple[float, str]:
        """Player ``p`` forfeits; its engine process is discarded (a new one starts next game)."""
        engine = engines.pop(name, None)
        if engine is not None:
            engine.kill()
        return (0.0 if p == 0 else 1.0), reason

    @staticmethod
    def _rules_reason(state, outcome: float) -> str:
        if outcome == 0.5:
            return "draw by the rules"
        return f"{'first' if outcome == 1.0 else 'second'} player wins by the rules"

    def _limits(self, tc: TimeControl, clock, p: int, played: int) -> tuple[dict, float]:
        """The ``go`` limits for player ``p``, who has made ``played`` moves, and how long to
        wait for its answer."""
        if tc.nodes is not None:
            return {"nodes": tc.nodes}, tc.hang
        if clock is None:
            return {"movetime": tc.movetime}, tc.movetime / 1000 + tc.margin
        ms = [int(clock[0] * 1000), int(clock[1] * 1000)]
        inc = int(tc.increment * 1000)
        # UGI names by player, and UCI names by colour for engines that only know those
        white = 0 if self.game.colours[0] == "W" else 1
        limits = {"p1time": ms[0], "p2time": ms[1], "p1inc": inc, "p2inc": inc,
                  "wtime": ms[white], "btime": ms[1 - white], "winc": inc, "binc": inc}
        if tc.moves:
            limits["movestogo"] = tc.moves - played % tc.moves   # moves left in this period
        return limits, clock[p] + tc.margin
