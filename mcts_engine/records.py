"""Game records: a game as PDN (the draughts standard) or the same PGN-like text for the
other games, and back.

Tags name the game, its rules and the start FEN, then come the numbered moves in our
notation; ``parse_records`` reads such text and ``replay`` plays a record through our
rules.  The tournament manager writes its journals' games so (``--pdn``) and replays
them (``mcts-tournament replay``); the GUI writes its board's game so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .rules import get_game, is_draughts

__all__ = ["GAME_TYPES", "result_text", "game_record_text", "ParsedGame", "parse_records", "replay"]

# PDN GameType numbers (draughts.md §4.2) of the variants that have one
GAME_TYPES = {"international": 20, "english": 21, "italian": 22, "pool": 23, "spanish": 24,
              "russian": 25, "brazilian": 26, "canadian": 27, "czech": 29, "turkish": 30, "thai": 31,
              "frisian": 40}


def result_text(score_first: float | None, draughts: bool, first_is_white: bool) -> str:
    """The PDN/PGN result tag: 2-0 / 1-1 / 0-2 for draughts (White's score first), else 1-0 etc."""
    if score_first is None:
        return "*"
    white = score_first if first_is_white else 1.0 - score_first
    if draughts:
        return {1.0: "2-0", 0.5: "1-1", 0.0: "0-2"}[white]
    return {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[white]


def game_record_text(record: dict) -> str:
    """One game as PDN (draughts) or PGN-like text.  ``record`` has a journal game's keys: game,
    rules, players, id, start_fen, moves, score_first, reason (and optionally event)."""
    game = get_game(record["game"], **record.get("rules", {}))
    draughts = is_draughts(game.name)
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
