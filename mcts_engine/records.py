"""Game records: a game as PDN (the draughts standard) or the same PGN-like text for the
other games, and back.

Written (``game_record_text``): the seven tag roster of PGN (``Event``, ``Site``, ``Date``,
``Round``, ``White``, ``Black``, ``Result``), then ``GameType`` (PDN's number of the
variant), ``FEN`` only where the game did not start from the variant's start position,
and our own ``Game``, ``Rules`` and ``Termination``; then the numbered moves from the real
start (an opening's moves included), captures written with ``x``: PDN as pydraughts and
the draughts programs read it.

Read (``parse_records``): any number of games, tags then moves, with what PDN writers
add: move numbers (``1.``, ``1...``, glued or not), comments (``{...}``, ``; ...``),
variations (``(...)``), annotations (``!``, ``?!``, ``$3``), zero-padded squares
(``09-13``), captures with ``x`` or ``:``, and ``GameType`` in its short (``21``) or long
(``21,B,8,8,N1,0``) form.  ``replay`` plays a record through our rules.

The tournament manager writes its journals' games so (``--pdn``) and replays them
(``mcts-tournament replay``); the GUI writes its board's game so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .rules import get_game, is_draughts

__all__ = ["GAME_TYPES", "result_text", "record_date", "game_record_text", "pdn_move", "plain_move", "ParsedGame",
           "parse_records", "game_of", "replay"]

# PDN GameType numbers (draughts.md §4.2) of the variants that have one
GAME_TYPES = {"international": 20, "english": 21, "italian": 22, "pool": 23, "spanish": 24,
              "russian": 25, "brazilian": 26, "canadian": 27, "czech": 29, "turkish": 30, "thai": 31,
              "frisian": 40}
# variants played with another's moves under a rule of their own: the GameType they are
# written with (as pydraughts writes them), our ``Game`` tag telling them apart
SHARED_GAME_TYPES = {"frysk": 40, "antidraughts": 20, "breakthrough": 20, "killer": 20}
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def result_text(score_first: float | None, draughts: bool, first_is_white: bool) -> str:
    """The PDN/PGN result tag: 2-0 / 1-1 / 0-2 for draughts (White's score first), else 1-0 etc."""
    if score_first is None:
        return "*"
    white = score_first if first_is_white else 1.0 - score_first
    if draughts:
        return {1.0: "2-0", 0.5: "1-1", 0.0: "0-2"}[white]
    return {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[white]


def record_date(stamp: str | None) -> str:
    """A journal time stamp (``2025-06-01T12:00:00``) as a PDN date (``2025.06.01``); ``????.??.??``
    when there is none."""
    match = re.match(r"(\d{4})-(\d{2})-(\d{2})", stamp or "")
    return ".".join(match.groups()) if match else "????.??.??"


def pdn_move(text: str) -> str:
    """A move of our notation as PDN writes it: captures with ``x`` (Russian's ``:`` too)."""
    return text.replace(":", "x")


def plain_move(token: str) -> str:
    """A move token as our rules read it: annotations (``!``, ``?``) off, zero-padded square
    numbers (``09-13``, as pydraughts and KingsRow write them) without their zeros."""
    parts = re.split(r"([-x:])", token.rstrip("!?"))
    return "".join((part.lstrip("0") or "0") if part.isdigit() else part for part in parts)


def _start_and_moves(record: dict, game) -> tuple[str | None, list[str]]:
    """Where the record's game really started (a FEN, None for the start position) and every
    move from there: an opening's moves first."""
    opening = record.get("opening")
    if opening is not None:
        fen, moves = opening.get("fen"), list(opening.get("moves", ())) + list(record["moves"])
    else:
        fen, moves = record.get("start_fen"), list(record["moves"])
    if fen is not None and game.parse_fen(fen).fen() == game.new_state().fen():
        fen = None
    return fen, moves


def _tags(record: dict, game, fen: str | None, result: str) -> list[tuple[str, str]]:
    """The record's tag pairs: the roster, GameType, FEN (when needed), ours."""
    players = record["players"]
    first_is_white = game.colours[0] == "W"
    white, black = (players[0], players[1]) if first_is_white else (players[1], players[0])
    tags = list(zip(ROSTER, (record.get("event", "mcts-tournament"), record.get("site", "?"),
                             record_date(record.get("finished")), str(record["id"] + 1), white, black, result)))
    number = GAME_TYPES.get(game.name, SHARED_GAME_TYPES.get(game.name))
    if number is not None:
        tags.append(("GameType", str(number)))
    if fen is not None:
        tags.append(("FEN", fen))
    tags.append(("Game", game.name))
    if record.get("rules"):
        tags.append(("Rules", ",".join(f"{k}={v}" for k, v in sorted(record["rules"].items()))))
    if record.get("reason"):
        tags.append(("Termination", record["reason"].replace('"', "'")))
    return tags


def game_record_text(record: dict) -> str:
    """One game as PDN (draughts) or PGN-like text.  ``record`` has a journal game's keys: game,
    rules, players, id, opening (or start_fen), moves, score_first, reason (optionally event,
    site, finished)."""
    game = get_game(record["game"], **record.get("rules", {}))
    result = result_text(record.get("score_first"), is_draughts(game.name), game.colours[0] == "W")
    fen, moves = _start_and_moves(record, game)
    lines = [f'[{k} "{v}"]' for k, v in _tags(record, game, fen, result)]
    state = game.parse_fen(fen) if fen else game.new_state()
    words, number = [], 1
    for i, text in enumerate(moves):
        if i == 0 and state.to_move == 1:
            words.append(f"{number}...")
        if state.to_move == 0:
            words.append(f"{number}.")
        words.append(pdn_move(text) if is_draughts(game.name) else text)
        state.play(state.parse_move(text))
        if state.to_move == 0:
            number += 1
    words.append(result)
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
    """A game read back from PDN/PGN-like text: its tags, moves (as our rules read them) and result."""

    tags: dict
    moves: list[str]
    result: str


_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
_RESULTS = {"2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "0-0", "*"}
_NUMBER = re.compile(r"^\d+\.+")


def _without_comments(text: str) -> str:
    """Move text without ``{comments}``, ``; comments`` and ``(variations)`` (nested too)."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r";[^\n]*", " ", text)
    while True:
        text, n = re.subn(r"\([^()]*\)", " ", text)
        if not n:
            return text


def _move_tokens(line: str) -> list[str]:
    """A line of move text as tokens: move numbers, NAGs and annotations dropped."""
    out = []
    for word in line.split():
        word = _NUMBER.sub("", word)
        if not word or word.startswith("$") or not word.strip("!?"):
            continue
        out.append(word if word in _RESULTS else plain_move(word))
    return out


def parse_records(text: str) -> list[ParsedGame]:
    """Every game in a PDN/PGN-like text (tags, then numbered moves ending in a result)."""
    games: list[ParsedGame] = []
    tags: dict = {}
    words: list[str] = []
    pending: list[str] = []          # move text lines since the last tag

    def take_moves() -> None:
        nonlocal tags, words
        for w in _move_tokens(_without_comments("\n".join(pending))):
            words.append(w)
            if w in _RESULTS:
                games.append(_finish(tags, words))
                tags, words = {}, []
        pending.clear()

    for raw in text.splitlines():
        match = _TAG.match(raw.strip())
        if match is None:
            pending.append(raw)
            continue
        take_moves()
        if words:
            games.append(_finish(tags, words))
            tags, words = {}, []
        tags[match.group(1)] = match.group(2)
    take_moves()
    if words or tags:
        games.append(_finish(tags, words))
    return games


def _finish(tags: dict, words: list[str]) -> ParsedGame:
    result = words[-1] if words and words[-1] in _RESULTS else "*"
    moves = [w for w in words if w not in _RESULTS]
    return ParsedGame(dict(tags), moves, result)


def game_of(tags: dict) -> str:
    """Our game's name for a record's tags: its ``Game`` tag, else its ``GameType`` (short or
    long form); ValueError when it has neither."""
    if tags.get("Game"):
        return tags["Game"]
    number = tags.get("GameType", "").split(",")[0].strip()
    name = next((n for n, t in GAME_TYPES.items() if str(t) == number), None)
    if name is None:
        raise ValueError(f"record has neither a Game tag nor a GameType we play ({tags.get('GameType')!r})")
    return name


def replay(parsed: ParsedGame):
    """Play a parsed record through our rules; returns the final state (raises RulesError on a bad move)."""
    tags = parsed.tags
    rules = dict(part.split("=", 1) for part in tags.get("Rules", "").split(",") if "=" in part)
    game = get_game(game_of(tags), **rules)
    state = game.parse_fen(tags["FEN"]) if tags.get("FEN") else game.new_state()
    for text in parsed.moves:
        state.play(state.parse_move(text))
    return state
