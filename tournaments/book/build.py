"""Building an opening book from the engine's own deep searches over an openings set.

The positions are those an engine meets first after one of the openings, whichever side it
plays (``book_positions``): ply 0 is each opening's end; ply 1 every position one move past
it (the engine plays second there, after any reply); from ply 2 on, every reply to the
book's own move two plies before (the engine's later moves, against any reply).  Positions
are taken once (by key, so transpositions merge).  Each is searched by the engine's agent
with the game's measured defaults, a fresh tree and a fixed seed for ``nodes`` iterations on
one thread, so the same command builds the same book.

The book is written by ``mcts_engine.book.write_book``, its header naming the command, the
openings file (and its SHA-256), the search and how long the build took.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from mcts_engine import __version__
from mcts_engine.agents import make_agent
from mcts_engine.book import BookEntry, position_key
from mcts_engine.mcts.limits import Limits
from mcts_engine.native import StopSignal
from mcts_engine.protocol.options import OptionValues
from mcts_engine.rules import State, get_game
from mcts_engine.client.specs import rules_text

from ..play.openings import OpeningsSpec, read_openings, shipped_sets

__all__ = ["BookSettings", "BookBuild", "default_openings", "book_positions", "search_settings", "build_book"]


@dataclass(frozen=True)
class BookSettings:
    """What a book is built from: the game and its rule options, the openings (a file or a
    shipped set's name), how many plies past each opening's end, the iterations per
    position and the search's seed."""

    game: str
    rules: dict
    openings: str
    plies: int = 1
    nodes: int = 300_000
    seed: int = 1


@dataclass(frozen=True)
class BookBuild:
    """A finished build: its entries (in the order searched) and the header to write."""

    entries: tuple[BookEntry, ...]
    header: dict


def default_openings(game: str) -> str:
    """The shipped openings set of ``game`` (``english-3move`` for english ...); ValueError
    when there is none (then ``--openings`` names a file)."""
    for name in shipped_sets():
        if name.split("-")[0] == game:
            return name
    raise ValueError(f"no shipped openings set for {game} (shipped: {', '.join(shipped_sets())}); "
                     "give --openings FILE")


def search_settings(settings: BookSettings):
    """The engine's settings for the book's searches: the game's measured defaults (as an
    engine with no option set plays), the seed, one thread."""
    values = OptionValues()
    for name, value in (("UCI_Variant", settings.game), ("Rules", rules_text(settings.rules)),
                        ("Seed", str(settings.seed)), ("Threads", "1")):
        values.apply(values.check(name, value))
    return values.settings()


def book_positions(starts: Iterable[State], plies: int, book_move: Callable[[State], object]) -> Iterator[tuple[int, State]]:
    """(ply, position) of every position of the book, ply by ply, each once (by key): the
    openings' ends (``starts``), every position one move past them, then every reply to
    ``book_move`` of the positions two plies before.  Finished positions are left out."""
    levels: list[list[State]] = []
    seen: set[str] = set()

    def fresh(states: Iterable[State]) -> list[State]:
        out = []
        for state in states:
            key = position_key(state)
            if key not in seen and state.outcome() is None:
                seen.add(key)
                out.append(state)
        return out

    for ply in range(plies + 1):
        if ply == 0:
            level = fresh(starts)
        elif ply == 1:
            level = fresh(child for state in levels[0] for child in _children(state))
        else:
            level = fresh(child for state in levels[ply - 2] for child in _children(_after(state, book_move(state))))
        levels.append(level)
        for state in level:
            yield ply, state


def _children(state: State) -> list[State]:
    """The position after each legal move of ``state``."""
    return [_after(state, move) for move in state.legal_moves()]


def _after(state: State, move) -> State:
    child = state.copy()
    child.play(move)
    return child


def _openings_path(settings: BookSettings) -> Path:
    return OpeningsSpec(settings.openings).path()


def opening_ends(settings: BookSettings) -> list[State]:
    """The position at the end of each opening of the set."""
    game = get_game(settings.game, **settings.rules)
    out = []
    for opening in read_openings(_openings_path(settings), settings.game, settings.rules):
        state = game.parse_fen(opening.fen) if opening.fen else game.new_state()
        for text in opening.moves:
            state.play(state.parse_move(text))
        out.append(state)
    return out


def build_book(settings: BookSettings, command: str, progress: Callable[[int, int], None] | None = None) -> BookBuild:
    """Search every book position (``book_positions``) and return the entries and header.

    ``progress(ply, positions)`` is called before each ply's searches start, then with
    ``(ply, 0)`` after each search, so a caller can draw a bar per ply."""
    game = get_game(settings.game, **settings.rules)
    agent = make_agent(game, search_settings(settings))
    chosen: dict[str, BookEntry] = {}
    entries: list[BookEntry] = []
    started = time.monotonic()

    def book_move(state: State):
        return state.parse_move(chosen[position_key(state)].move)

    try:
        for ply, state in _announced(book_positions(opening_ends(settings), settings.plies, book_move), progress):
            entry = _searched(agent, state, ply, settings.nodes)
            chosen[entry.key] = entry
            entries.append(entry)
            if progress is not None:
                progress(ply, 0)
    finally:
        agent.close()
    path = _openings_path(settings)
    header = {"game": game.name, "rules": dict(settings.rules), "command": command,
              "openings": path.name, "openings_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
              "plies": settings.plies, "per_ply": [sum(e.ply == p for e in entries) for p in range(settings.plies + 1)],
              "nodes": settings.nodes, "seed": settings.seed,
              "search": f"the game's measured defaults (Defaults game), Seed {settings.seed}, Threads 1, "
                        "a fresh tree per position",
              "engine": f"mcts-engine {__version__}", "built": time.strftime("%Y-%m-%d"),
              "seconds": round(time.monotonic() - started)}
    return BookBuild(tuple(entries), header)


def _announced(positions: Iterator[tuple[int, State]], progress) -> Iterator[tuple[int, State]]:
    """The positions, a ply at a time, with ``progress(ply, count)`` before each ply's first."""
    pending: list[tuple[int, State]] = []
    for item in positions:
        if pending and item[0] != pending[0][0]:
            yield from _flush(pending, progress)
            pending = []
        pending.append(item)
    yield from _flush(pending, progress)


def _flush(pending: list[tuple[int, State]], progress) -> Iterator[tuple[int, State]]:
    if pending and progress is not None:
        progress(pending[0][0], len(pending))
    yield from pending


def _searched(agent, state: State, ply: int, nodes: int) -> BookEntry:
    """One position searched from a fresh tree: its book entry."""
    agent.new_game()
    result = agent.search(state.copy(), Limits(nodes=nodes), StopSignal(), None, ())
    info = result.info
    after = _after(state, result.move)
    ponder = after.move_str(result.ponder) if result.ponder is not None else None
    return BookEntry(key=position_key(state), fen=state.fen(), ply=ply, move=state.move_str(result.move),
                     ponder=ponder, score=round(info.score, 4), cp=info.cp, wdl=tuple(info.wdl), nodes=info.nodes)
