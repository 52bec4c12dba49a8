"""The tournament journal's lines, read one way by everyone who reads them.

A journal is a file of JSON lines: a tournament header (``{"type": "tournament", "settings":
{...}}``), then one line per finished game (``{"type": "game", "id": ...}``); a tune journal
adds its ``tune`` header and ``iteration`` lines, and one tournament header per iteration.
The manager writes it (``tournaments/results/journal.py``: under a lock, a line with its
newline in one write, synced before the game counts); this module is the one reader, for the
manager's resume and ``report``, the tuner and the GUI's watcher, so that all of them count
the same games:

* A record counts when its line is complete.  A line ended by its newline is complete; the
  file's last line without its newline is complete if it is a whole JSON object (the write
  went through but its newline was lost: the next writer adds the newline, ``tail_repair``)
  and incomplete otherwise (cut short by a kill: skipped here, cut by the next writer).
* Every complete line is a JSON object of a known type, and every game line agrees with the
  tournament header in force (the last one before it): its game and rule options, two
  different players of the header's engines, an integer id no other game line has, a pair
  index with at most one other game of its pairing, a score of 0, 0.5 or 1, moves as texts.
  Anything else is one ``JournalError`` naming the file, the line and what is wrong, never
  a game silently counted or left out.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Iterable

__all__ = ["JournalError", "JournalContents", "TailRepair", "KNOWN_TYPES", "parse_records", "read_records",
           "header_and_games", "read_journal", "tail_repair"]

KNOWN_TYPES = ("tournament", "game", "tune", "iteration")
SCORES = (0, 0.5, 1)


class JournalError(ValueError):
    """A journal that cannot be used (names the file, the line and why)."""


@dataclass(frozen=True)
class JournalContents:
    """What a journal holds: its tournament header in force at the end (or None) and its games."""

    header: dict | None
    games: list[dict]


@dataclass(frozen=True)
class TailRepair:
    """What the writer does to the file's last line before it appends: ``add_newline`` (a whole
    record that lost its newline) or cut the file back to ``keep`` bytes (a line cut short)."""

    add_newline: bool = False
    keep: int | None = None


@dataclass
class _Header:
    """The tournament header in force: what its game lines must agree with."""

    game: str
    rules: dict
    names: tuple[str, ...]


def tail_repair(data: bytes) -> TailRepair:
    """How to repair ``data``, a journal's bytes from its last newline on (or the whole file):
    nothing when it ends with a newline or is empty, else the repair that makes the last line
    count exactly as the readers count it."""
    if not data or data.endswith(b"\n"):
        return TailRepair()
    start = data.rfind(b"\n") + 1
    if _whole_object(data[start:]) is not None:
        return TailRepair(add_newline=True)
    return TailRepair(keep=start)


def _whole_object(line: bytes) -> dict | None:
    """The last line as a record, or None if it was cut short (not a whole JSON object)."""
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def read_records(path: str) -> list[dict]:
    """Every complete record of the journal at ``path``, checked (none if the file does not exist)."""
    if not os.path.exists(path):
        return []
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        raise JournalError(f"journal {path}: {err.strerror or err}") from None
    return parse_records(data, path)


def parse_records(data: bytes, path: str) -> list[dict]:
    """The complete records of a journal's bytes ``data`` (the file ``path``, for the messages), checked."""
    lines = data.split(b"\n")
    last = lines.pop()                 # after the final newline: b"" when the file ends with one
    checker = _Checker(path)
    out = []
    for number, raw in enumerate(lines, 1):
        if raw.strip():
            out.append(checker.check(number, _record(raw, number, path)))
    if last.strip():
        record = _whole_object(last)
        if record is not None:         # a whole record that lost its newline: it counts
            out.append(checker.check(len(lines) + 1, record))
    return out


def _record(raw: bytes, number: int, path: str) -> dict:
    """One complete line as a JSON object, or a JournalError naming it."""
    try:
        record = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise JournalError(f"journal {path}: line {number} is not UTF-8 text") from None
    except ValueError:
        raise JournalError(f"journal {path}: line {number} is not JSON") from None
    if not isinstance(record, dict):
        raise JournalError(f"journal {path}: line {number} is not a JSON object")
    return record


class _Checker:
    """Checks the lines of one journal in order: types, headers, and each game line against the
    header in force, its id and its pair against the games before it."""

    def __init__(self, path: str):
        self.path = path
        self.header: _Header | None = None
        self.ids: dict[int, int] = {}                         # game id -> its line
        self.pairs: dict[tuple, list[int]] = {}               # (players, pair) -> lines

    def check(self, number: int, record: dict) -> dict:
        """``record`` (line ``number``) if it is sound; else a JournalError naming the line."""
        kind = record.get("type")
        if kind not in KNOWN_TYPES:
            self.fail(number, f"a record of unknown type {_shown(kind)} (known: {', '.join(KNOWN_TYPES)})")
        if kind == "tournament":
            self.header = self.tournament(number, record.get("settings"))
        elif kind == "game":
            self.game(number, record)
        return record

    def fail(self, number: int, why: str) -> None:
        """Raise the error of line ``number``."""
        raise JournalError(f"journal {self.path}: line {number}: {why}")

    def tournament(self, number: int, settings) -> _Header:
        """The header a tournament line declares, checked."""
        if not isinstance(settings, dict):
            self.fail(number, "a tournament header without its settings")
        game, rules, engines = settings.get("game"), settings.get("rules", {}), settings.get("engines")
        if not isinstance(game, str) or not game:
            self.fail(number, "a tournament header without its game")
        if not isinstance(rules, dict):
            self.fail(number, f"a tournament header whose rule options {_shown(rules)} are not an object")
        if not isinstance(engines, list) or not all(isinstance(e, dict) and isinstance(e.get("name"), str)
                                                    for e in engines):
            self.fail(number, "a tournament header without its engines' names")
        names = tuple(e["name"] for e in engines)
        if len(names) < 2 or len(set(names)) != len(names):
            self.fail(number, f"a tournament header with engines {', '.join(names) or 'none'} "
                              "(at least two, each name once)")
        return _Header(game, rules, names)

    def game(self, number: int, record: dict) -> None:
        """Check one game line against the header in force and the games before it."""
        header = self.header
        if header is None:
            self.fail(number, "a game line before any tournament header")
        game_id = record.get("id")
        if not _integer(game_id) or game_id < 0:
            self.fail(number, f"game id {_shown(game_id)} is not a whole number >= 0")
        if game_id in self.ids:
            self.fail(number, f"game {game_id} again (first at line {self.ids[game_id]})")
        self.ids[game_id] = number
        what = f"game {game_id}"
        if record.get("game") != header.game:
            self.fail(number, f"{what} is of game {_shown(record.get('game'))}; the tournament plays "
                              f"{header.game!r}")
        if record.get("rules", {}) != header.rules:
            self.fail(number, f"{what} has rule options {_shown(record.get('rules'))}; the tournament's are "
                              f"{_shown(header.rules)}")
        self.players(number, what, record.get("players"), header)
        score = record.get("score_first")
        if isinstance(score, bool) or score not in SCORES:
            self.fail(number, f"{what} scores {_shown(score)} for its first player (0, 0.5 or 1)")
        self.pair(number, what, record)
        self.texts(number, what, record)

    def players(self, number: int, what: str, players, header: _Header) -> None:
        """Two different players, both engines of the header."""
        if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) for p in players) \
                or players[0] == players[1]:
            self.fail(number, f"{what} has players {_shown(players)} (two different engine names)")
        for name in players:
            if name not in header.names:
                self.fail(number, f"{what} is played by {name!r}, not an engine of the tournament "
                                  f"({', '.join(header.names)})")

    def pair(self, number: int, what: str, record: dict) -> None:
        """A pair index (or none) shared by at most two games of one pairing."""
        pair = record.get("pair")
        if pair is None:
            return
        if not _integer(pair) or pair < 0:
            self.fail(number, f"{what} has pair {_shown(pair)} (a whole number >= 0)")
        key = (frozenset(record["players"]), pair)
        lines = self.pairs.setdefault(key, [])
        if len(lines) == 2:
            self.fail(number, f"{what} is a third game of pair {pair} (the others at lines {lines[0]} and "
                              f"{lines[1]})")
        lines.append(number)

    def texts(self, number: int, what: str, record: dict) -> None:
        """Moves a list of texts; the start position and the reason texts."""
        moves = record.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            self.fail(number, f"{what} has moves that are not a list of texts")
        for key in ("start_fen", "reason"):
            if key in record and not isinstance(record[key], str):
                self.fail(number, f"{what} has {key} {_shown(record[key])} (a text)")


def _integer(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _shown(value, limit: int = 60) -> str:
    """A value as JSON for a message, cut to ``limit`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def header_and_games(records: Iterable[dict]) -> tuple[dict | None, list[dict]]:
    """The last tournament header (or None) and the game records among ``records``; lines of
    other types (a tune journal's ``tune`` and ``iteration`` lines) are left out."""
    header, games = None, []
    for record in records:
        if record.get("type") == "tournament":
            header = record
        elif record.get("type") == "game":
            games.append(record)
    return header, games


def read_journal(path: str) -> JournalContents:
    """The journal at ``path``: its last tournament header and its games, checked."""
    return JournalContents(*header_and_games(read_records(path)))
