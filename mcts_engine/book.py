"""Opening books: a move chosen by a deep search for each position of the openings, looked up
by the position's key (``OwnBook``).

A book is a JSON file per game (``books/<game>.json`` in this package, or any file named by
``BookFile``), made by ``mcts-tournament book build`` (``tournaments/book``): a header saying
what made it (the command, the openings, the search), then one entry a position: its key
(``position_key``: the rules' ``State.key``, the pieces and the side to move, as text), its
FEN for people, the move and the expected reply in the game's notation, and the search's
score.  A position is found by its key, never by the moves that led to it, so a
transposition finds its entry.

``load_book`` checks the file's shape (a missing or broken file is a ``BookError`` naming it);
``Book.lookup`` checks the found entry's moves in the position itself, so a book whose
moves the rules do not take is an error, never an illegal move.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .rules import Game, RulesError, State

__all__ = ["BOOK_FORMAT", "BOOK_VERSION", "BOOKS_DIR", "BookError", "BookEntry", "BookMove", "Book", "BookReader",
           "position_key", "shipped_book", "load_book", "write_book"]

BOOK_FORMAT = "mcts-engine book"
BOOK_VERSION = 1           # the file's layout; a reader refuses any other
BOOKS_DIR = Path(__file__).with_name("books")
_ENTRY_FIELDS = {"key": str, "fen": str, "ply": int, "move": str, "ponder": (str, type(None)),
                 "score": (int, float), "cp": int, "wdl": list,
                 "nodes": int}


class BookError(ValueError):
    """A book that cannot be used: missing, unreadable, of another game, or broken (the
    message names the file and, for a bad entry, its index)."""


def position_key(state: State) -> str:
    """The position's identity as a book stores it: the rules' ``key()`` as text (the pieces
    and the side to move; draughts: the turn and three bitboards)."""
    return repr(state.key())


@dataclass(frozen=True)
class BookEntry:
    """One position of a book: its key and FEN, how many plies past its opening's end it
    lies, the move chosen and the reply expected (game notation), and the search's
    expected result for the side to move (``score`` in [0, 1], ``cp`` and ``wdl`` per mille
    as the engine reports them) after ``nodes`` iterations."""

    key: str
    fen: str
    ply: int
    move: str
    ponder: str | None
    score: float
    cp: int
    wdl: tuple[int, int, int]
    nodes: int


@dataclass(frozen=True)
class BookMove:
    """A book's answer in a position: the move and the expected reply as the rules' move
    values (the reply None when the book names none), and the entry they came from."""

    move: Any
    ponder: Any | None
    entry: BookEntry


@dataclass
class Book:
    """A loaded book: its header (what made it) and its entries by position key."""

    path: Path
    header: dict
    entries: dict[str, BookEntry] = field(default_factory=dict)

    @property
    def game(self) -> str:
        """The game the book is for (a registered name)."""
        return self.header["game"]

    @property
    def rules(self) -> dict:
        """The rule options it was built with (empty: the game's own)."""
        return self.header.get("rules", {})

    def check_game(self, game: Game, rules: dict) -> None:
        """BookError unless the book is for ``game`` with the rule options ``rules``."""
        if game.name != self.game or dict(rules) != dict(self.rules):
            theirs = f"{self.game}" + (f" with rules {self.rules}" if self.rules else "")
            ours = f"{game.name}" + (f" with rules {dict(rules)}" if rules else "")
            raise BookError(f"{self.path}: the book is for {theirs}, not {ours}")

    def lookup(self, state: State) -> BookMove | None:
        """The book's move in ``state`` (None: the position is not in the book); BookError when
        the entry's moves are not legal there (a broken book)."""
        entry = self.entries.get(position_key(state))
        if entry is None:
            return None
        try:
            move = state.parse_move(entry.move)
            ponder = None
            if entry.ponder is not None:
                after = state.copy()
                after.play(move)
                ponder = after.parse_move(entry.ponder) if after.outcome() is None else None
        except (RulesError, ValueError) as err:
            raise BookError(f"{self.path}: the entry of {entry.fen} names a move the rules refuse: {err}") from None
        return BookMove(move, ponder, entry)


def shipped_book(game_name: str) -> Path:
    """Where the book of ``game_name`` that ships with the engine is (it may not exist)."""
    return BOOKS_DIR / f"{game_name}.json"


def load_book(path: str | Path) -> Book:
    """The book in ``path``, its shape checked; BookError naming the file (and the entry) when
    it is missing, not JSON, of another format or version, or an entry is malformed."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise BookError(f"{path}: cannot read the book: {err.strerror or err}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise BookError(f"{path}: not a book (not valid JSON: {err})") from None
    if not isinstance(data, dict) or data.get("format") != BOOK_FORMAT:
        raise BookError(f"{path}: not a book (no \"format\": \"{BOOK_FORMAT}\")")
    if data.get("version") != BOOK_VERSION:
        raise BookError(f"{path}: book version {data.get('version')!r}, this engine reads version {BOOK_VERSION} "
                        "(build it again: its header's command)")
    if not isinstance(data.get("game"), str) or not isinstance(data.get("rules", {}), dict):
        raise BookError(f"{path}: the header names no game (\"game\") or bad rules")
    entries = data.get("entries")
    if not isinstance(entries, list):
        raise BookError(f"{path}: no \"entries\" list")
    header = {key: value for key, value in data.items() if key != "entries"}
    book = Book(path, header)
    for i, raw in enumerate(entries):
        entry = _entry(raw, f"{path}: entry {i}")
        if entry.key in book.entries:
            raise BookError(f"{path}: entry {i}: the position {entry.fen} is in the book twice")
        book.entries[entry.key] = entry
    return book


def _entry(raw: Any, where: str) -> BookEntry:
    """One entry read, each field of its type; BookError naming ``where`` and the field."""
    if not isinstance(raw, dict):
        raise BookError(f"{where}: not an object")
    for name, kind in _ENTRY_FIELDS.items():
        if name not in raw:
            raise BookError(f"{where}: no {name!r}")
        if not isinstance(raw[name], kind) or isinstance(raw[name], bool):
            raise BookError(f"{where}: {name!r} is {raw[name]!r}, of the wrong type")
    wdl = raw["wdl"]
    if len(wdl) != 3 or not all(isinstance(x, int) and not isinstance(x, bool) for x in wdl):
        raise BookError(f"{where}: 'wdl' is {wdl!r}, not three whole numbers")
    return BookEntry(**{name: raw[name] for name in _ENTRY_FIELDS if name != "wdl"}, wdl=tuple(wdl))


def write_book(path: str | Path, header: dict, entries: list[BookEntry]) -> None:
    """Write a book: ``header`` (what made it) and the entries, one a line (readable diffs)."""
    head = {"format": BOOK_FORMAT, "version": BOOK_VERSION, **header, "positions": len(entries)}
    lines = [json.dumps(asdict(entry), ensure_ascii=False) for entry in entries]
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2] + ',\n "entries": [\n' + ",\n".join(lines) + "\n]}\n"
    Path(path).write_text(text, encoding="utf-8")


class BookReader:
    """The book an engine's ``OwnBook`` reads: loaded when first asked for a (file, game,
    rules), kept until one of them changes; a book that cannot be used is reported once
    (``report``, naming the file) and the engine searches as usual."""

    def __init__(self) -> None:
        self._loaded: tuple | None = None
        self._book: Book | None = None

    def find(self, book_file: str, game: Game, rules: dict, state: State, report) -> BookMove | None:
        """The book's move in ``state`` (None: no book, or the position is not in it).
        ``book_file`` empty = the book that ships for ``game``; ``report(text)`` hears what
        went wrong."""
        path = Path(book_file) if book_file else shipped_book(game.name)
        wanted = (str(path), game.name, repr(sorted(rules.items())))
        if wanted != self._loaded:
            self._loaded, self._book = wanted, None
            try:
                book = load_book(path)
                book.check_game(game, rules)
                self._book = book
            except BookError as err:
                report(f"OwnBook: {err}; searching as usual")
        if self._book is None:
            return None
        try:
            return self._book.lookup(state)
        except BookError as err:
            report(f"OwnBook: {err}; searching as usual")
            return None
