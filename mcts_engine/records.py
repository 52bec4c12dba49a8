"""Game records: a game as PDN (the draughts standard) or the same PGN-like text for the
other games, and back.

Written (``game_record_text``): the seven tag roster of PGN (``Event``, ``Site``, ``Date``,
``Round``, ``White``, ``Black``, ``Result``), then ``GameType`` (PDN's number of the
variant), ``FEN`` only where the game did not start from the variant's start position,
and our own ``Game``, ``Rules`` and ``Termination``; then the numbered moves from the real
start (an opening's moves included), captures written with ``x``: PDN as pydraughts and
the draughts programs read it.  ``Round`` is the game's number (``game_number``: the
journal id plus one, as ``Finished game N`` says it).  Each move an engine played carries
cutechess's comment ``{+0.25/12 0.51s}`` (``move_comment``: the mover's score in hundredths
of a man or pawn, or ``+M3``/``-M3`` for a mate, the search depth and the seconds the move
took) from what the journal keeps of it (``infos`` and ``times_ms``); an opening's moves and
records without them (older journals, the GUI's games) have none.

Read (``parse_records``): any number of games, tags then moves, with what PDN writers
add: move numbers (``1.``, ``1...``, glued or not), comments (``{...}``, ``; ...``),
variations (``(...)``), annotations (``!``, ``?!``, ``$3``), zero-padded squares
(``09-13``), captures with ``x`` or ``:``, and ``GameType`` in its short (``21``) or long
(``21,B,8,8,N1,0``) form.  A comment after a move is that move's ``MoveNote`` (cutechess's
form read into score, depth and seconds; any other text kept as written).  ``replay`` plays a
record through our rules.

The tournament manager writes its journals' games so (``--pdn``) and replays them
(``mcts-tournament replay``); the GUI writes its board's game so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .rules import get_game, is_draughts

__all__ = ["GAME_TYPES", "result_text", "RecordResult", "record_result", "game_number", "winner_of", "record_date",
           "move_comment", "game_record_text", "pdn_move", "plain_move", "MoveNote", "parse_note", "ParsedGame",
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


@dataclass(frozen=True)
class RecordResult:
    """A journaled game's result as PDN writes it: who had White and Black, and the result
    text from White's side (``2-0``/``1-1``/``0-2`` in draughts, ``1-0``/``1/2-1/2``/``0-1``
    elsewhere, ``*`` unfinished)."""

    white: str
    black: str
    text: str


def record_result(record: dict, game=None) -> RecordResult:
    """The PDN result of a journaled game (``game``: its rules object, looked up when not given)."""
    game = game or get_game(record["game"], **record.get("rules", {}))
    first, second = record["players"]
    first_is_white = game.colours[0] == "W"
    white, black = (first, second) if first_is_white else (second, first)
    return RecordResult(white, black, result_text(record.get("score_first"), is_draughts(game.name), first_is_white))


def game_number(record: dict) -> int:
    """A journaled game's number as people read it, from 1 (``Finished game N``, PDN's ``Round``,
    the JSON report): its journal id plus one."""
    return record["id"] + 1


def winner_of(record: dict) -> str | None:
    """The name of the engine that won the journaled game ``record``; None for a draw (or no result)."""
    score = record.get("score_first")
    if score not in (0.0, 1.0):
        return None
    return record["players"][0 if score == 1.0 else 1]


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


def _tags(record: dict, game, fen: str | None, result: RecordResult) -> list[tuple[str, str]]:
    """The record's tag pairs: the roster, GameType, FEN (when needed), ours."""
    tags = list(zip(ROSTER, (record.get("event", "mcts-tournament"), record.get("site", "?"),
                             record_date(record.get("finished")), str(game_number(record)), result.white,
                             result.black, result.text)))
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


def _score_text(info: dict) -> str | None:
    """The mover's score as cutechess writes it: ``+0.25`` (hundredths, a plus only above 0),
    ``+M3``/``-M3`` for a mate; None when the engine said none."""
    if info.get("mate") is not None:
        mate = info["mate"]
        return f"{'+' if mate > 0 else '-'}M{abs(mate)}"
    if info.get("cp") is not None:
        cp = info["cp"]
        return f"{'+' if cp > 0 else ''}{cp / 100:.2f}"
    return None


def _seconds_text(ms: int) -> str:
    """A move's time as cutechess writes it: three decimals under 0.1 s, two under 1 s, one under
    10 s, none above (``0s`` for none at all)."""
    if ms <= 0:
        return "0s"
    decimals = 3 if ms < 100 else 2 if ms < 1000 else 1 if ms < 10000 else 0
    return f"{ms / 1000:.{decimals}f}s"


def move_comment(info: dict | None, ms: int | None) -> str | None:
    """cutechess's comment on an engine's move, ``+0.25/12 0.51s`` (the mover's score, the depth,
    the time), from the journal's ``infos`` entry and ``times_ms`` of the move; what the engine
    did not say is left out (``0.51s`` alone); None when nothing is known."""
    info = info or {}
    parts = []
    score = _score_text(info)
    if score is not None:
        parts.append(score if info.get("depth") is None else f"{score}/{info['depth']}")
    if ms is not None:
        parts.append(_seconds_text(ms))
    return " ".join(parts) or None


def _comments(record: dict, opening_plies: int, plies: int) -> list[str | None]:
    """Each of the ``plies`` moves' comment: none for the opening's, cutechess's for the engines'
    (when the record keeps their infos and times)."""
    infos, times = record.get("infos") or [], record.get("times_ms") or []
    out: list[str | None] = [None] * opening_plies
    for i in range(plies - opening_plies):
        out.append(move_comment(infos[i] if i < len(infos) else None, times[i] if i < len(times) else None))
    return out


def _wrapped(words: list[str], width: int = 80) -> list[str]:
    """Words as lines of at most ``width`` characters (a longer word on a line of its own)."""
    body, line = [], ""
    for w in words:
        if line and len(line) + len(w) + 1 > width:
            body.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    body.append(line)
    return body


def game_record_text(record: dict) -> str:
    """One game as PDN (draughts) or PGN-like text.  ``record`` has a journal game's keys: game,
    rules, players, id, opening (or start_fen), moves, score_first, reason (optionally event,
    site, finished, and infos and times_ms for the move comments)."""
    game = get_game(record["game"], **record.get("rules", {}))
    result = record_result(record, game)
    fen, moves = _start_and_moves(record, game)
    comments = _comments(record, len(moves) - len(record["moves"]), len(moves))
    lines = [f'[{k} "{v}"]' for k, v in _tags(record, game, fen, result)]
    state = game.parse_fen(fen) if fen else game.new_state()
    words, number = [], 1
    for i, text in enumerate(moves):
        if i == 0 and state.to_move == 1:
            words.append(f"{number}...")
        if state.to_move == 0:
            words.append(f"{number}.")
        words.append(pdn_move(text) if is_draughts(game.name) else text)
        if comments[i] is not None:
            words.append("{" + comments[i] + "}")
        state.play(state.parse_move(text))
        if state.to_move == 0:
            number += 1
    words.append(result.text)
    return "\n".join(lines) + "\n\n" + "\n".join(_wrapped(words)) + "\n"


@dataclass(frozen=True)
class MoveNote:
    """What the comment after a move says: the text as written and, when it is cutechess's
    ``{+0.25/12 0.51s}``, the mover's score (``cp`` hundredths, or ``mate`` moves, negative when
    being mated), the ``depth`` and the ``seconds`` the move took; None where not said."""

    comment: str
    cp: int | None = None
    mate: int | None = None
    depth: int | None = None
    seconds: float | None = None


_CUTECHESS_NOTE = re.compile(r"^(?:(?P<score>[+-]?(?:\d+(?:\.\d+)?|M\d+))(?:/(?P<depth>\d+))?\s+)?"
                             r"(?P<seconds>\d+(?:\.\d+)?)s$")


def parse_note(comment: str) -> MoveNote:
    """A move's comment as a MoveNote: cutechess's form read into its numbers (``+M3``, ``-M3``
    and ``-0.40/7 1.2s`` too), any other text kept as written with no numbers."""
    text = comment.strip()
    match = _CUTECHESS_NOTE.match(text)
    if match is None:
        return MoveNote(text)
    score, depth = match.group("score"), match.group("depth")
    cp = mate = None
    if score is not None and "M" in score:
        mate = int(score.replace("+", "").replace("-", "").replace("M", "")) * (-1 if score.startswith("-") else 1)
    elif score is not None:
        cp = round(float(score) * 100)
    return MoveNote(text, cp, mate, int(depth) if depth is not None else None, float(match.group("seconds")))


@dataclass
class ParsedGame:
    """A game read back from PDN/PGN-like text: its tags, moves (as our rules read them) and
    result, and each move's note (``notes[i]`` the comment after move ``i``, None without one)."""

    tags: dict
    moves: list[str]
    result: str
    notes: list[MoveNote | None] = field(default_factory=list)


_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
_RESULTS = {"2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "0-0", "*"}
_NUMBER = re.compile(r"^\d+\.+")
_TOKEN = re.compile(r"\{(?P<brace>[^}]*)\}|;(?P<line>[^\n]*)|(?P<open>\()|(?P<close>\))|(?P<word>[^\s{};()]+)")


def _tokens(text: str):
    """Move text as ``(word, None)`` and ``(None, comment)`` in order: ``{comments}`` and ``;
    comments`` as comments, ``(variations)`` (nested too, their comments with them) left out,
    move numbers, NAGs and annotations dropped, moves in our notation."""
    depth = 0
    for match in _TOKEN.finditer(text):
        if match.group("open") is not None:
            depth += 1
        elif match.group("close") is not None:
            depth = max(0, depth - 1)
        elif depth:
            continue
        elif match.group("word") is not None:
            word = _NUMBER.sub("", match.group("word"))
            if word and not word.startswith("$") and word.strip("!?"):
                yield (word if word in _RESULTS else plain_move(word)), None
        else:
            yield None, match.group("brace") if match.group("brace") is not None else match.group("line")


class _Reader:
    """The games of a PDN text as its lines come: tags, then move text up to a result."""

    def __init__(self):
        self.games: list[ParsedGame] = []
        self.tags: dict = {}
        self.moves: list[str] = []
        self.notes: list[MoveNote | None] = []
        self.pending: list[str] = []         # move text lines since the last tag

    def take_moves(self) -> None:
        """Read the move text gathered so far: moves, their notes, results ending games."""
        for word, comment in _tokens("\n".join(self.pending)):
            if comment is not None:
                if self.moves and self.notes[-1] is None:
                    self.notes[-1] = parse_note(comment)
            elif word in _RESULTS:
                self.finish(word)
            else:
                self.moves.append(word)
                self.notes.append(None)
        self.pending.clear()

    def finish(self, result: str = "*") -> None:
        """The game read so far is complete."""
        self.games.append(ParsedGame(dict(self.tags), self.moves, result, self.notes))
        self.tags, self.moves, self.notes = {}, [], []

    def line(self, raw: str) -> None:
        """One line of the text."""
        match = _TAG.match(raw.strip())
        if match is None:
            self.pending.append(raw)
            return
        self.take_moves()
        if self.moves:
            self.finish()
        self.tags[match.group(1)] = match.group(2)


def parse_records(text: str) -> list[ParsedGame]:
    """Every game in a PDN/PGN-like text (tags, then numbered moves ending in a result)."""
    reader = _Reader()
    for raw in text.splitlines():
        reader.line(raw)
    reader.take_moves()
    if reader.moves or reader.tags:
        reader.finish()
    return reader.games


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
