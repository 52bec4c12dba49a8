"""Scheduling tournament games and journaling them as they finish.

A tournament is a list of pairings (match: one; round robin: every pair; gauntlet:
the first engine against each other one); each pairing plays its games in pairs
over the same opening with colours swapped.  ``Tournament.run`` hands the schedule,
grouped in colour-swapped pairs, to an executor (``executors``: the local pool of
worker threads by default, or a Dask cluster), which plays every game with
``referee.play_game``; the run is the one writer that appends each finished game to
the journal before it counts, and journals a game id only once.  Games already in
the journal are not played again, so a rerun (or ``--resume``) continues where a
killed run stopped.
"""
from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

from mcts_engine.rules import RulesError, get_game

from mcts_engine.client import EngineSpec
from mcts_engine.client.dxp import check_dxp_play

from .executors import Executor, LocalExecutor, pair_batches
from .journal import Journal, JournalError
from .referee import Adjudication, Conditions, GameSpec, Opening, TimeControl

__all__ = ["Settings", "TimeControl", "GameSpec", "pairings", "schedule", "random_openings", "read_openings",
           "Tournament"]


@dataclass
class Settings:
    """What is played: the game, the engines, the schedule and the adjudication."""

    game: str
    engines: list[EngineSpec]
    kind: str = "match"                # match | round-robin | gauntlet
    games: int = 2                     # games per pairing
    rules: dict = field(default_factory=dict)
    tc: TimeControl = field(default_factory=lambda: TimeControl(movetime=100))
    openings: list[tuple[str | None, list[str]]] = field(default_factory=lambda: [(None, [])])
    concurrency: int = 1
    max_plies: int = 1000              # adjudicated a draw after this many plies
    resign_score: int | None = None    # cp: a side scoring below -this for resign_moves moves resigns
    resign_moves: int = 3
    draw_score: int | None = None      # cp: both |score| <= this for draw_moves moves (after 40 plies): draw
    draw_moves: int = 8
    startup_timeout: float = 10.0
    event: str = "mcts-tournament"
    game_timeout: float | None = None  # wall seconds a game may last (None: what the time control allows)
    first_game: int = 0                # the id of the first scheduled game, and
    first_pair: int = 0                # of its pair: the tuner's iterations share one journal

    def identity(self) -> dict:
        """What a journal must match to be continued: everything that decides the games (the
        newer fields only when set, so journals written before them still match)."""
        out = {"game": self.game, "rules": self.rules, "kind": self.kind, "games": self.games,
               "engines": [e.identity() for e in self.engines], "tc": asdict(self.tc),
               "openings": [[fen, moves] for fen, moves in self.openings], "max_plies": self.max_plies}
        if self.game_timeout is not None:
            out["game_timeout"] = self.game_timeout
        if self.first_game or self.first_pair:
            out.update(first_game=self.first_game, first_pair=self.first_pair)
        return out

    def conditions(self) -> Conditions:
        """What every game shares, as the frozen value the referee (and a cluster task) takes."""
        return Conditions(game=self.game, rules=dict(self.rules), engines=tuple(self.engines), tc=self.tc,
                          openings=tuple(Opening(fen, tuple(moves)) for fen, moves in self.openings),
                          adjudication=Adjudication(self.max_plies, self.resign_score, self.resign_moves,
                                                    self.draw_score, self.draw_moves),
                          startup_timeout=self.startup_timeout, game_timeout=self.game_timeout)


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
    """Plays a schedule on an executor and journals every finished game.

    ``executor`` is where the games run (default: the local pool of
    ``settings.concurrency`` threads); ``on_game`` is called after each journaled game,
    ``should_stop`` (an early stop, e.g. SPRT) is asked after each with every game so far.
    """

    def __init__(self, settings: Settings, journal: Journal, on_game: Callable[[dict], None] | None = None,
                 should_stop: Callable[[list[dict]], bool] | None = None, executor: Executor | None = None):
        self.settings = settings
        self.journal = journal
        self.on_game = on_game              # called (in the writer) after each journaled game
        self.should_stop = should_stop      # early stop (SPRT): asked after each game
        self.executor = executor
        self.game = get_game(settings.game, **settings.rules)   # an unknown game or bad rule option fails here

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
        """Play ``todo`` on the executor; return every journaled game, old and new.

        Each record is journaled as it arrives, once per game id (a game replayed by a
        retried cluster task is not journaled again).  When ``should_stop`` says so no
        new game starts; games already being played are still journaled.
        """
        results = list(done)
        journaled = {r["id"] for r in done}
        executor = self.executor or LocalExecutor(self.settings.concurrency)
        stream = executor.play(self.settings.conditions(), pair_batches(todo))
        try:
            for record in stream:
                if record["id"] in journaled:
                    continue
                journaled.add(record["id"])
                self.journal.append(record)
                results.append(record)
                if self.on_game is not None:
                    self.on_game(record)
                if self.should_stop is not None and not stream.stopping and self.should_stop(results):
                    stream.stop()
        finally:
            stream.close()
        return results
