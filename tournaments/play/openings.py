"""Where games start: openings files and the sets that ship with the manager.

``--openings`` takes a file, or cutechess's and fastchess's form ``file=FILE [format=...]
[order=sequential|random] [start=N] [plies=N]``.  FILE is a path or the name of a shipped set
(``shipped_sets``: ``english-3move``, ``russian-fmjd``, ``international-2move``, in
``openings/`` next to this module, each naming its sources).  Formats:

* ``moves``: one opening a line, a move list, a FEN, or ``FEN | moves``; ``#`` comments,
  move numbers and zero-padded squares (``09-13``, as KingsRow and pydraughts write them)
  allowed;
* ``fen``: one position a line (EPD-like);
* ``pdn``: game records (``mcts_engine.records``): each game's ``FEN`` tag (if any) and moves.

``auto`` (the default) reads ``.pdn``/``.pgn`` files as PDN and any other as move lines
(which take FEN lines too).  Every opening is checked with our rules and kept in our
notation; ``start=N`` begins the sequence at the Nth opening (then wraps around),
``order=random`` shuffles it with the tournament's seed, and ``plies=N`` plays only the first
N plies of each opening's moves (as cutechess's ``plies=``; a FEN stays whole).  Each
colour-swapped game pair plays the next opening of the sequence (``runner.schedule``), the
same sequence for every pairing.
"""
from __future__ import annotations

import random
import shlex
from dataclasses import dataclass
from pathlib import Path

from mcts_engine.records import parse_records, plain_move
from mcts_engine.rules import RulesError, get_game

from .conditions import Opening

__all__ = ["OpeningsSpec", "SETS_DIR", "shipped_sets", "read_openings", "load_openings", "FORMATS", "ORDERS"]

SETS_DIR = Path(__file__).with_name("openings")
FORMATS = ("auto", "moves", "fen", "pdn")
ORDERS = ("sequential", "random")


def shipped_sets() -> dict[str, Path]:
    """The opening sets that ship with the manager, by name (the file name without ``.txt``)."""
    return {path.stem: path for path in sorted(SETS_DIR.glob("*.txt"))}


@dataclass(frozen=True)
class OpeningsSpec:
    """``--openings``: the file (a path or a shipped set's name), its format, the order, the
    first opening (1-based) and how many plies of each opening's moves are played (None: all)."""

    file: str
    format: str = "auto"
    order: str = "sequential"
    start: int = 1
    plies: int | None = None

    @classmethod
    def parse(cls, text: str) -> "OpeningsSpec":
        """``FILE`` or ``file=FILE [format=F] [order=O] [start=N] [plies=N]``; ValueError naming
        the bad part."""
        words = text.split()
        if not words or "=" not in words[0]:
            return cls(text.strip())
        fields: dict[str, str] = {}
        for token in shlex.split(text):
            key, sep, value = token.partition("=")
            if not sep or key not in ("file", "format", "order", "start", "plies"):
                raise ValueError(f"--openings {text!r}: {token!r} is not file=, format=, order=, start= or plies=")
            fields[key] = value
        if "file" not in fields:
            raise ValueError(f"--openings {text!r}: file= is missing")
        spec = cls(fields["file"], fields.get("format", "auto"), fields.get("order", "sequential"))
        if spec.format not in FORMATS:
            raise ValueError(f"--openings: format={spec.format} is not one of {', '.join(FORMATS)}")
        if spec.order not in ORDERS:
            raise ValueError(f"--openings: order={spec.order} is not one of {', '.join(ORDERS)}")
        start = fields.get("start", "1")
        if not start.isdigit() or int(start) < 1:
            raise ValueError(f"--openings: start={start} is not a number from 1")
        plies = fields.get("plies")
        if plies is not None and not plies.isdigit():
            raise ValueError(f"--openings: plies={plies} is not a number from 0")
        return cls(spec.file, spec.format, spec.order, int(start), int(plies) if plies is not None else None)

    def path(self) -> Path:
        """The file: the path if it exists, else the shipped set of that name; ValueError if neither."""
        path = Path(self.file)
        if path.is_file():
            return path
        shipped = shipped_sets().get(self.file.removesuffix(".txt"))
        if shipped is None:
            raise ValueError(f"--openings: no file {self.file!r} and no shipped set of that name "
                             f"(shipped: {', '.join(shipped_sets())})")
        return shipped


def _checked(game, fen: str | None, moves: list[str], where: str) -> Opening:
    """The opening played through our rules (moves in our notation); ValueError naming ``where``."""
    try:
        state = game.parse_fen(fen) if fen else game.new_state()
        ours = []
        for text in moves:
            move = state.parse_move(plain_move(text))
            ours.append(state.move_str(move))
            state.play(move)
    except RulesError as err:
        raise ValueError(f"{where}: bad opening: {err}") from None
    if state.outcome() is not None:
        raise ValueError(f"{where}: the opening ends the game")
    return Opening(fen, tuple(ours))


def _move_line(line: str) -> tuple[str | None, list[str]]:
    """A move-lines file's line as (FEN or None, moves)."""
    fen, moves = None, line
    if "|" in line:
        fen, moves = (part.strip() for part in line.split("|", 1))
    elif len(line.split()) == 1 and line[:2].upper() in ("W:", "B:"):
        fen, moves = line, ""
    return fen or None, [w for w in moves.split() if not w.rstrip(".").isdigit()]


def read_openings(path: str | Path, game_name: str, rules: dict, format: str = "auto") -> tuple[Opening, ...]:
    """The openings of a file in ``format`` (module notes), each checked with our rules; a bad
    one is an error naming its line (or game)."""
    game = get_game(game_name, **rules)
    path = Path(path)
    if format == "auto":
        format = "pdn" if path.suffix.lower() in (".pdn", ".pgn") else "moves"
    text = path.read_text(encoding="utf-8")
    out = []
    if format == "pdn":
        for number, parsed in enumerate(parse_records(text), 1):
            out.append(_checked(game, parsed.tags.get("FEN") or None, parsed.moves, f"{path}: game {number}"))
    else:
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            fen, moves = (line, []) if format == "fen" else _move_line(line)
            out.append(_checked(game, fen, moves, f"{path}:{number}"))
    if not out:
        raise ValueError(f"{path}: no openings")
    return tuple(out)


def load_openings(spec: OpeningsSpec, game_name: str, rules: dict, seed: int) -> tuple[Opening, ...]:
    """The openings of ``spec`` in the order the tournament plays them: from ``start``, and
    shuffled by ``seed`` with ``order=random``; each cut to ``plies`` moves."""
    openings = read_openings(spec.path(), game_name, rules, spec.format)
    if spec.plies is not None:
        openings = tuple(Opening(o.fen, o.moves[:spec.plies]) for o in openings)
    if spec.start > len(openings):
        raise ValueError(f"--openings: start={spec.start}, but {spec.file} has {len(openings)} openings")
    openings = openings[spec.start - 1:] + openings[:spec.start - 1]
    if spec.order == "random":
        shuffled = list(openings)
        random.Random(seed).shuffle(shuffled)
        openings = tuple(shuffled)
    return openings
