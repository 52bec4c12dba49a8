"""Reading and writing the PDN-like FEN most games share.

Draughts, the Alquerque family, Dablot, Gauntlet and Life write a position as the
side to move, then ``:``-separated fields that each start with a tag letter: a list
of pieces (``W21,22,K5``, a colour or kind tag, ``K``/``P``-style prefixes for ranked
pieces, numeric ranges ``31-35`` on numbered boards) or a counter (``H12``: plies
without progress, ``N80``: plies played).  Each game says which tags, prefixes and
counters it has; this module does the reading and reports every mistake in the same
words (``bad FEN '<text>': <what is wrong>``), so a game's ``parse_fen`` only checks
what is particular to it (a man on its crowning row, two Kings).
"""
from __future__ import annotations

from typing import Callable

from .errors import BadPosition


def fen_fields(text: str) -> list[str]:
    """The ``:``-separated fields of a FEN, stripped (surrounding quotes dropped)."""
    return [part.strip() for part in str(text).strip().strip('"').strip().split(":")]


def fen_side(fields: list[str], original: str, sides: tuple[str, ...] | str) -> str:
    """The side-to-move field (the first), upper-cased; BadPosition unless it is one of ``sides``."""
    side = fields[0].upper()
    if side not in sides:
        raise BadPosition(f"bad FEN {original!r}: must start with the side to move, {' or '.join(sides)}")
    return side


def read_piece_lists(fields: list[str], original: str, *, tags: str, square: Callable[[str], int | None],
                     noun: str, board: str, prefixes: str = "", counters: str = "",
                     ranges: bool = False) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """Read the piece lists and counters of a FEN (the fields after the side to move).

    ``tags`` are the letters that start a piece list, ``counters`` those that start a
    counter field (a whole number).  An item is a square name, optionally after one
    of ``prefixes`` (``K`` for a king; a prefix is read only where the whole item is not
    a square name), or with ``ranges`` a numeric range ``a-b``.  ``square(name)`` gives a
    name's single-bit mask or None; ``noun`` and ``board`` name them in errors ("'z9' is
    not a point of alquerque").

    Returns ``({tag: {prefix: mask}}, {counter: value})``: the prefix ``""`` holds the
    plain pieces, and tags or counters not given are absent.  Raises BadPosition on an
    unknown field, a list or counter given twice, a bad name or range, or a square given
    twice (in any lists).
    """
    lists: dict[str, dict[str, int]] = {}
    values: dict[str, int] = {}
    occupied = 0
    for part in fields:
        if not part:
            continue
        tag = part[0].upper()
        if tag in counters and tag not in tags:
            if tag in values or not part[1:].isdigit():
                raise BadPosition(f"bad FEN {original!r}: bad counter field {part!r}")
            values[tag] = int(part[1:])
            continue
        if tag not in tags:
            also = f" (or {' / '.join(counters)} for the counters)" if counters else ""
            raise BadPosition(f"bad FEN {original!r}: field {part!r} must start with {' or '.join(tags)}{also}")
        if tag in lists:
            raise BadPosition(f"bad FEN {original!r}: list {tag} given twice")
        masks = lists[tag] = {}
        for item in part[1:].split(","):
            item = item.strip()
            if not item:
                continue
            prefix = item[0].upper() if item[0].upper() in prefixes and square(item) is None else ""
            for name in _names(item[len(prefix):], original, ranges):
                bit = square(name)
                if bit is None:
                    raise BadPosition(f"bad FEN {original!r}: {name!r} is not a {noun} of {board}")
                if bit & occupied:
                    raise BadPosition(f"bad FEN {original!r}: {noun} {name} given twice")
                occupied |= bit
                masks[prefix] = masks.get(prefix, 0) | bit
    return lists, values


def _names(body: str, original: str, ranges: bool) -> list[str]:
    """The square names of one list item: itself, or with ``ranges`` the numbers ``a`` to ``b`` of ``a-b``."""
    if not (ranges and "-" in body):
        return [body]
    lo, _, hi = body.partition("-")
    if not (lo.isdigit() and hi.isdigit()) or int(lo) > int(hi):
        raise BadPosition(f"bad FEN {original!r}: bad square range {body!r}")
    return [str(k) for k in range(int(lo), int(hi) + 1)]


def counters_text(quiet: int, ply: int) -> str:
    """The counter fields of a FEN: ``:H<quiet>`` and ``:N<ply>``, each only when it is not 0."""
    return (f":H{quiet}" if quiet else "") + (f":N{ply}" if ply else "")
