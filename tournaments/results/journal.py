"""The results journal: append-only JSON lines, for resuming.

The journal's first line describes the tournament (``{"type": "tournament", ...}``);
every later line is one finished game (``{"type": "game", "id": ...}``), written
and flushed to disk before the game counts.  A manager killed mid-write leaves at
most one broken last line, which ``load`` skips, so no finished game is lost and
none is counted twice.  (A game of the journal as PDN text: ``mcts_engine.records``.)
"""
from __future__ import annotations

import json
import os
from typing import Iterable

__all__ = ["header_and_games", "JournalError", "Journal"]


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


class JournalError(ValueError):
    """A journal that cannot be used for this tournament (names the file and why)."""


class Journal:
    """An append-only JSON-lines file of finished games, flushed and synced per line."""

    def __init__(self, path: str):
        self.path = path

    def records(self) -> list[dict]:
        """Every record in the file, in order (none if it does not exist); a broken last line
        is skipped, a broken line before it is an error naming the line."""
        if not os.path.exists(self.path):
            return []
        out = []
        with open(self.path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                if number >= len(lines) - 1:   # the last line, cut short by a kill: ignore it
                    continue
                raise JournalError(f"journal {self.path}: line {number} is not JSON") from None
            if not isinstance(record, dict):
                raise JournalError(f"journal {self.path}: line {number} is not a JSON object")
            out.append(record)
        return out

    def load(self) -> tuple[dict | None, list[dict]]:
        """(the tournament header or None, the game records); a broken last line is skipped.

        Lines of other types (a tune journal's ``tune`` and ``iteration`` lines) are left out;
        with several tournament headers (one per tune iteration) the last one counts.
        """
        return header_and_games(self.records())

    def append(self, record: dict) -> None:
        """Write one record as a line and make sure it is on disk before returning."""
        self._repair_tail()
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def _repair_tail(self) -> None:
        """Cut a broken last line (a write interrupted by a kill) so the next line starts clean."""
        if not os.path.exists(self.path):
            return
        with open(self.path, "rb+") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            if size == 0:
                return
            f.seek(max(0, size - 1))
            if f.read(1) == b"\n":
                return
            f.seek(0)
            data = f.read()
            keep = data.rfind(b"\n") + 1
            f.seek(keep)
            f.truncate()
