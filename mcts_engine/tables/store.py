"""One game's endgame tables, on disk and in memory: building, finding and probing them.

Tables live in a directory per game and rule options (``<directory>/<game>-<hash>/``), one
``.npz`` file per material (``files.py``: written whole and renamed into place, so engines
sharing the directory never read half a table; its material, variant and checksum checked on
reading, so a damaged or swapped file is never read as a table).  The search never builds a
table: ``mcts-engine tables`` does (and ``bench --endgames`` before it plays), and a probe
reads what is on disk.
"""
from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ..rules.base import Game, State
from .files import TableFileError, read_table, write_table
from .material import Material
from .solve import UNKNOWN, Table, TableTooLarge, fits_in_memory, plies_of, solve


def default_directory() -> Path:
    """Where tables go unless ``TablePath`` says otherwise: the user's cache directory."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "mcts-engine" / "tables"


# The largest table file a search reads itself while the preloader is still reading (warm):
# English's 5-piece files are at most 6.6 MB, about half a second; a 6-piece kings' ending
# of 20 to 25 MB takes 2 s, which at 100 ms a move is a game lost on time, so it is left to
# the preloader and the search goes on without it until then.
WARM_FILE_BYTES = 8_000_000


def table_folder(game: Game, directory: str | Path) -> Path:
    """Where ``game``'s tables live under ``directory``: a folder per game and rule options."""
    options = repr(sorted(game.options.items())).encode()
    return Path(directory) / f"{game.name}-{hashlib.sha1(options).hexdigest()[:8]}"


@dataclass(frozen=True)
class TableHit:
    """A table's verdict on a position: the first player's ``result`` (1.0, 0.5 or 0.0) and
    the ``plies`` to the end of the game along best play (0 for a draw)."""

    result: float
    plies: int


class TableSet:
    """The tables of ``game`` under ``directory``: loaded on first use, built on request."""

    def __init__(self, game: Game, directory: str | Path):
        if not game.endgame_tables:
            raise ValueError(f"{game.name}: no endgame tables for this game")
        self.game = game
        self.folder = table_folder(game, directory)
        self._tables: dict[Material, Table | None] = {}
        self.broken: dict[Material, str] = {}      # tables whose file could not be read, and why
        self._reported: set[Material] = set()      # broken tables already reported (``reports``)
        self._warm = False                          # every table on disk loaded (``warm``)
        self._lock = threading.Lock()               # _tables and broken, shared with the preloader (never held
                                                    # while a file is read)
        self._preloader: threading.Thread | None = None
        self._too_large: dict[Material, TableTooLarge] = {}   # refused for memory (``build``)
        self.max_pieces = 0
        self.rescan()

    def rescan(self) -> None:
        """Set ``max_pieces`` from the tables now on disk (one built since included)."""
        self.max_pieces = max((m.pieces for m in self.on_disk()), default=0)

    def on_disk(self) -> list[Material]:
        """The materials whose tables are in the directory."""
        if not self.folder.is_dir():
            return []
        found = []
        for path in sorted(self.folder.glob("*.npz")):
            try:
                found.append(Material.parse(path.stem.replace("_", "/")))
            except ValueError:
                continue
        return found

    def path(self, material: Material) -> Path:
        """The file of ``material``'s table."""
        return self.folder / (material.name.replace("/", "_") + ".npz")

    def table(self, material: Material) -> Table | None:
        """``material``'s table from memory or disk, or None if it was never built."""
        with self._lock:
            if material in self._tables:
                return self._tables[material]
        table = self._load(material)      # read outside the lock: a search's loaded() never waits for a file
        with self._lock:
            return self._tables.setdefault(material, table)

    def build(self, material: Material, report: Callable[[str], None] | None = None) -> Table:
        """``material``'s table, solving it (and the smaller ones it leads to) if need be."""
        table = self.table(material)
        if table is not None:
            return table
        refused = self._too_large.get(material)
        if refused is not None and not fits_in_memory(refused.needed):   # not counted again for each larger ending
            raise TableTooLarge(str(refused), material, refused.needed)
        try:
            solved_tables = solve(self.game, material, lambda m: self.build(m, report))
        except TableTooLarge as err:
            self._too_large[err.material] = TableTooLarge(str(err), err.material, err.needed)  # no traceback kept
            raise
        for solved in solved_tables:
            self._save(solved)
            self._tables[solved.material] = solved
            self.max_pieces = max(self.max_pieces, solved.material.pieces)
            if report is not None:
                report(describe(solved))
        return self._tables[material]

    def preload(self) -> None:
        """Start reading every table on disk in a background thread (once), so that a game's
        ending finds them in memory: five pieces of English take seconds to read, which a
        search would otherwise spend from its move's time (``warm``)."""
        if self._preloader is None and not self._warm:
            self._preloader = threading.Thread(target=self._load_all, name="endgame tables", daemon=True)
            self._preloader.start()

    def load(self) -> None:
        """Read every table on disk now, after the preloader if it is at work: for a caller
        whose searches must not depend on when a file was read (training's self-play, whose
        games the seed alone decides, where a probe that found a table one run and not the next
        changed the games)."""
        if self._preloader is not None:
            self._preloader.join()
        self._load_all()
        self._warm = True

    def _load_all(self) -> None:
        for material in self.on_disk():
            self.table(material)

    def warm(self, state: State) -> None:
        """Have every table on disk read once ``state`` is a capture away from them: by the
        preloader, in the background (started here if it was not), never waited for; until it
        is done, the tables of ``state`` and of the positions its moves lead to are read now (a
        few files). So a search of an ending that starts before the preloader is done (a game
        set up in an ending as the engine starts) keeps its move's time and probes the tables its
        root and their children need; it once waited for the whole set, 7 s for five pieces of
        English, and lost on time. A file larger than ``WARM_FILE_BYTES`` is left to the preloader:
        the tables of six pieces, 20 to 25 MB each, took a first search 5 to 8 s."""
        if self._warm or (state.own | state.opp).bit_count() > self.max_pieces + 1:
            return
        self.preload()
        if self._preloader is not None and self._preloader.is_alive():
            for material in _root_materials(state):
                if self._quick_to_read(material):
                    self.table(material)
            return
        self._load_all()                  # the preloader is done: only a file built since is read
        self._warm = True

    def _quick_to_read(self, material: Material) -> bool:
        """Whether a search may read ``material``'s table from its own time: a file of at most
        ``WARM_FILE_BYTES`` (or none at all, which costs nothing)."""
        try:
            return self.path(material).stat().st_size <= WARM_FILE_BYTES
        except OSError:
            return True

    def loaded(self) -> list[Table]:
        """The tables read into memory so far (what a native search probes)."""
        with self._lock:
            return [table for table in self._tables.values() if table is not None]

    def probe(self, state: State) -> TableHit | None:
        """The tables' verdict on ``state`` (a draughts position of this game): a win or loss
        that fits in the quiet plies left under the draw rules
        (``DraughtsState.quiet_plies_left``), a draw where an exact table has no forced
        result, else None (no table, or nothing certain)."""
        own, opp, kings = state.own, state.opp, state.kings
        if (own | opp).bit_count() > self.max_pieces:
            return None
        table = self.table(Material.of(own, opp, kings, state.turn))
        if table is None:
            return None
        v = table.value(own, opp, kings)
        if v == UNKNOWN:
            return TableHit(0.5, 0) if table.exact else None
        if plies_of(v) > state.quiet_plies_left(table.count):
            return None
        mover_wins = v > 0
        return TableHit(1.0 if mover_wins == (state.turn == 0) else 0.0, plies_of(v))

    def _load(self, material: Material) -> Table | None:
        """The table on disk, or None: missing, or unreadable (``files.read_table``: empty,
        truncated, damaged, of another format, material or variant); an unreadable file is
        named in ``broken``, reported once by ``reports`` and built again by ``build``."""
        path = self.path(material)
        if not path.is_file():
            return None
        try:
            return read_table(path, self.game, material)
        except TableFileError as err:
            with self._lock:
                self.broken[material] = str(err)
            return None

    def reports(self) -> list[str]:
        """One line on each unreadable table not reported yet (the search goes on without it)."""
        out = []
        with self._lock:
            broken = list(self.broken.items())
        for material, why in broken:
            if material not in self._reported:
                self._reported.add(material)
                out.append(f"endgame table {material.name} of {self.game.name} is unreadable and ignored: {why}; "
                           f"`mcts-engine tables {self.game.name}` (with the same rule options) builds it again")
        return out

    def _save(self, table: Table) -> None:
        write_table(table, self.game, self.path(table.material))
        self.broken.pop(table.material, None)
        self._reported.discard(table.material)


_OPENED: dict[Path, TableSet] = {}
_OPENED_LOCK = threading.Lock()


def opened_tables(game: Game, directory: str | Path) -> TableSet | None:
    """``game``'s tables under ``directory``, one ``TableSet`` per process, or None where none is
    built. Every agent of a process shares it, so the files are read once: training's self-play
    makes an agent per game, and reading International's 94 tables (243 MB) again for each game
    took 95% of its time. Tables built since the last call are found (the directory is listed
    again)."""
    key = table_folder(game, directory)
    with _OPENED_LOCK:
        tables = _OPENED.get(key)
        if tables is None:
            tables = _OPENED[key] = TableSet(game, directory)
        else:
            tables.rescan()
    return tables if tables.max_pieces else None


def forget_opened_tables() -> None:
    """Drop the process's shared table sets (``opened_tables``): the next agent reads its tables
    afresh, as in a new process (the tests start each from there)."""
    with _OPENED_LOCK:
        _OPENED.clear()


def _root_materials(state: State) -> set[Material]:
    """The materials of ``state`` and of the positions its legal moves lead to."""
    materials = {Material.of(state.own, state.opp, state.kings, state.turn)}
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        materials.add(Material.of(child.own, child.opp, child.kings, child.turn))
    return materials


def describe(table: Table) -> str:
    """One line on a table: its material, positions won and lost for the side to move, and
    the longest win."""
    values = table.values
    wins, losses = int((values > 0).sum()), int((values < 0).sum())
    longest = plies_of(int(np.abs(values).max())) if wins or losses else 0
    count = "" if table.count is None else f", count {table.count} plies"
    exact = ", the rest drawn" if table.exact else ""
    return (f"{table.material.name}: {wins:,} won, {losses:,} lost to move{exact}, longest {longest} plies"
            f"{count}")
