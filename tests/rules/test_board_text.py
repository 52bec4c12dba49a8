"""The text picture (``State.board_text``) in every registered game, read back.

``mcts-engine play`` and the protocol's ``d`` print it, so a person reads the position
from it.  The test reads the picture back into a piece symbol per point, knowing only
the picture's layout (rank numbers on the left and file letters under the board, or,
on draughts boards, a cell per board column and the playing squares' names beside each
row), and checks it against the FEN: every point drawn exactly once, the occupied points
the FEN's, and each symbol always standing for the same (colour, kind) of the FEN and
no two for one.  Seeded random games take it past the start position.
"""
from __future__ import annotations

import random
import re

import pytest

from mcts_engine.rules import get_game, list_games
from mcts_engine.rules.base import State
from mcts_engine.rules.geometry import FILES

GAMES = list_games()
RANK_ROW = re.compile(r"\s*(\d+) ")
TOKEN = re.compile(r"[^\s\-|/\\]+")          # a symbol between the lines of a line board
FEN_ITEM = re.compile(r"([A-Z]*)([a-z]+\d+|\d+)(?:=(.+))?")


def _positions(name: str, seed: int, plies: int = 40) -> list[State]:
    state = get_game(name).new_state()
    rng = random.Random(seed)
    out = [state.copy()]
    for _ in range(plies):
        move = state.random_move(rng)
        if move is None:
            break
        state.play(move)
        out.append(state.copy())
    return out


# --- reading the picture ------------------------------------------------------------------

def _read_labelled(lines: list[str]) -> dict[str, str]:
    """Rank rows (``13 W   .``) over a line of file letters: the symbol whose last
    character stands at or right of a file letter's column (and left of the next) is on
    that file (a centre point between two letters is the left one's)."""
    rows = [(int(m.group(1)), line, m.end()) for line in lines if (m := RANK_ROW.match(line))]
    files_line = next(line for line in lines if re.fullmatch(r"\s+[a-z](\s+[a-z])*\s*", line))
    columns = [(m.start(), m.group()) for m in re.finditer(r"[a-z]", files_line)]
    picture: dict[str, str] = {}
    for rank, line, start in rows:
        for m in TOKEN.finditer(line, start - 1):
            end = m.end() - 1
            files = [letter for col, letter in columns if col <= end]
            assert files, f"{m.group()!r} left of the first file in {line!r}"
            name = f"{files[-1]}{rank}"
            assert name not in picture, f"{name} drawn twice"
            picture[name] = m.group()
    return picture


def _read_named(lines: list[str], width: int, height: int, shades: dict) -> dict[str, str]:
    """Draughts rows: a cell per board column (every other character), blank off the
    playing squares, then the names of the row's playing squares in board order."""
    picture: dict[str, str] = {}
    for k, line in enumerate(lines[:height]):
        row = height - 1 - k
        cells = line[:2 * width - 1].ljust(2 * width - 1)
        names = line[2 * width - 1:].split()
        drawn = [cells[2 * c] for c in range(width)]
        for c, ch in enumerate(drawn):
            blank = shades[(c, row)] == "light"
            assert (ch == " ") == blank, f"row {row + 1} column {c + 1}: {ch!r} in {line!r}"
        symbols = [ch for ch in drawn if ch != " "]
        assert len(symbols) == len(names), f"{len(symbols)} cells, {len(names)} names in {line!r}"
        for name, ch in zip(names, symbols):
            assert name not in picture, f"{name} drawn twice"
            picture[name] = ch
    return picture


def read_picture(state: State) -> dict[str, str]:
    """The picture's symbol per point name (``.`` an empty point)."""
    lines = state.board_text().splitlines()
    if RANK_ROW.match(lines[0]):
        return _read_labelled(lines)
    view = state.board_view()
    shades = {(int(c.x), int(c.y)): c.shade for c in view.cells}
    return _read_named(lines, int(view.width), int(view.height), shades)


# --- reading the FEN ----------------------------------------------------------------------

def read_fen(fen: str, points: set[str]) -> dict[str, tuple[str, str]]:
    """(colour, kind) per occupied point: the PDN-like ``side:Wa1,Kb2:B...`` lists (a kind
    prefix such as ``K``/``P``, a ``=S25`` value) or Fanorona's rows (``BBWW1B/...``)."""
    board = fen.split()[0]
    if "/" in board and ":" not in board:
        out = {}
        rows = board.split("/")
        for k, row in enumerate(rows):
            col = 0
            for ch in re.findall(r"\d+|.", row):
                if ch.isdigit():
                    col += int(ch)
                    continue
                out[f"{FILES[col]}{len(rows) - k}"] = (ch, "")
                col += 1
        return out
    out = {}
    for field in fen.split(":")[1:]:
        colour, items = field[:1], [item for item in field[1:].split(",") if item]
        parsed = [FEN_ITEM.fullmatch(item) for item in items]
        if not all(m and m.group(2) in points for m in parsed):
            continue                                 # not a piece list (Rithmomachia's counters)
        for m in parsed:
            out[m.group(2)] = (colour, m.group(1) + (m.group(3) or ""))
    return out


def _symbol(token: str) -> str:
    """A drawn piece without its value and attack mark (Rithmomachia's ``s361*`` is ``s``)."""
    return re.sub(r"[\d*]", "", token)


def _kind(kind: str) -> str:
    """A FEN kind without its value (``S25`` is ``S``, ``P(S36+...)`` is ``P``)."""
    return re.sub(r"\(.*\)|\d", "", kind)


@pytest.mark.parametrize("name", GAMES)
def test_the_text_board_shows_the_position(name):
    legend: dict[str, tuple[str, str]] = {}
    for seed in (1, 2, 3):
        for state in _positions(name, seed):
            points = {p.name for p in state.board_view().points}
            picture = read_picture(state)
            assert set(picture) == points, f"{state.fen()}: points drawn {sorted(set(picture) ^ points)}"
            fen = read_fen(state.fen(), points)
            drawn = {point: token for point, token in picture.items() if token != "."}
            assert set(drawn) == set(fen), f"{state.fen()}\n{state.board_text()}"
            for point, token in drawn.items():
                colour, kind = fen[point]
                identity = (colour, _kind(kind))
                assert legend.setdefault(_symbol(token), identity) == identity, (point, token, state.fen())
                value = re.sub(r"\D", "", token)
                if value and "(" not in kind:
                    assert value == re.sub(r"\D", "", kind), (point, token, kind)
    assert len(set(legend.values())) == len(legend), f"two symbols for one piece: {legend}"


def test_a_dark_square_board_draws_each_square_once():
    """The reported picture: English's first row drew ``w w w w w w w`` over ``32 32 31 31 ...``."""
    state = get_game("english").new_state()
    top = state.board_text().splitlines()[0]
    assert top.split() == ["w", "w", "w", "w", "32", "31", "30", "29"]
    assert top.startswith("  w   w   w   w")
