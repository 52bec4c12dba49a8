"""The results journal (append-only JSON lines, for resuming) and game records (PDN).

The journal's first line describes the tournament (``{"type": "tournament", ...}``);
every later line is one finished game (``{"type": "game", "id": ...}``), written
and flushed to disk before the game counts.  A manager killed mid-write leaves at
most one broken last line, which ``load`` skips, so no finished game is lost and
none is counted twice.

Game records are PDN (the draughts standard) for draughts games and the same
PGN-like text for other games: tags with the game, its rules and the start FEN,
then numbered moves in our notation, readable by ``mcts-tournament replay``.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Iterable

from mcts_engine.rules import get_game
from mcts_engine.rules.draughts.variants import VARIANTS as DRAUGHTS_VARIANTS

# PDN GameType numbers (draughts.md §4.2) of the variants that have one
GAME_TYPES = {"international": 20, "english": 21, "italian": 22, "pool": 23, "spanish": 24,
              "russian": 25, "brazilian": 26, "canadian": 27, "czech": 29, "turkish": 30, "thai": 31,
              "frisian": 40}


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


# --- game records ------------------------------------------------------------------------

def result_text(score_first: float | None, draughts: bool, first_is_white: bool) -> str:
    """The PDN/PGN result tag: 2-0 / 1-1 / 0-2 for draughts (White's score first), else 1-0 etc."""
    if score_first is None:
        return "*"
    white = score_first if first_is_white else 1.0 - score_first
    if draughts:
        return {1.0: "2-0", 0.5: "1-1", 0.0: "0-2"}[white]
    return {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[white]


def game_record_text(record: dict) -> str:
    """One journal game as PDN (draughts) or PGN-like text."""
    game = get_game(record["game"], **record.get("rules", {}))
    draughts = game.name in DRAUGHTS_VARIANTS
    first_is_white = game.colours[0] == "W"
    players = record["players"]
    white, black = (players[0], players[1]) if first_is_white else (players[1], players[0])
    tags = [("Event", record.get("event", "mcts-tournament")), ("Round", str(record["id"] + 1)),
            ("White", white), ("Black", black),
            ("Result", result_text(record.get("score_first"), draughts, first_is_white))]
    if record["game"] in GAME_TYPES:
        tags.append(("GameType", str(GAME_TYPES[record["game"]])))
    tags.append(("Game", record["game"]))
    if record.get("rules"):
        tags.append(("Rules", ",".join(f"{k}={v}" for k, v in sorted(record["rules"].items()))))
    tags.append(("FEN", record["start_fen"]))
    tags.append(("Termination", record.get("reason", "")))
    lines = [f'[{k} "{v}"]' for k, v in tags]
    state = game.parse_fen(record["start_fen"])
    words, number = [], 1
    for i, text in enumerate(record["moves"]):
        if i == 0 and state.to_move == 1:
            words.append(f"{number}...")
        if state.to_move == 0:
            words.append(f"{number}.")
        words.append(text)
        state.play(state.parse_move(text))
        if state.to_move == 0:
            number += 1
    words.append(result_text(record.get("score_first"), draughts, first_is_white))
    body, line = [], ""
    for w in words:
        if len(line) + len(w) + 1 > 80:
            body.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    body.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"


@dataclass
class ParsedGame:
    """A game read back from PDN/PGN-like text."""

    tags: dict
    moves: list[str]
    result: str


_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
_RESULTS = {"2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "*"}


def parse_records(text: str) -> list[ParsedGame]:
    """Every game in a PDN/PGN-like text (tags, then numbered moves ending in a result)."""
    games, tags, words = [], {}, []
    for raw in text.splitlines() + [""]:
        line = raw.strip()
        match = _TAG.match(line)
        if match:
            if words:
                games.append(_finish(tags, words))
                tags, words = {}, []
            tags[match.group(1)] = match.group(2)
            continue
        for w in re.sub(r"\{[^}]*\}", " ", line).split():
            words.append(w)
            if w in _RESULTS:
                games.append(_finish(tags, words))
                tags, words = {}, []
    if words or tags:
        games.append(_finish(tags, words))
    return games


def _finish(tags: dict, words: list[str]) -> ParsedGame:
    result = words[-1] if words and words[-1] in _RESULTS else "*"
    moves = [w for w in words if w not in _RESULTS and not re.fullmatch(r"\d+\.(\.\.)?", w)]
    return ParsedGame(dict(tags), moves, result)


def replay(parsed: ParsedGame):
    """Play a parsed record through our rules; returns the final state (raises RulesError on a bad move)."""
    tags = parsed.tags
    name = tags.get("Game") or next((n for n, t in GAME_TYPES.items() if str(t) == tags.get("GameType")), None)
    if name is None:
        raise ValueError("record has neither a Game nor a known GameType tag")
    rules = dict(part.split("=", 1) for part in tags.get("Rules", "").split(",") if "=" in part)
    game = get_game(name, **rules)
    state = game.parse_fen(tags["FEN"]) if "FEN" in tags else game.new_state()
    for text in parsed.moves:
        state.play(state.parse_move(text))
    return state
