"""The training positions as arrays, their labels, and the file that keeps them between runs.

A position's masks are split into two 64-bit words (low, high), so every board fits, the
12x12 and every-square boards too.  ``--data FILE`` keeps the played games (numpy's ``.npz``,
with the play settings that made them) so that a fit can be run again with other settings
without playing the games again; a file played otherwise is refused, naming the difference.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from .selfplay import GameRecord, PlayConfig

LOW = (1 << 64) - 1
DATA_FORMAT = 1


class DataError(ValueError):
    """A training data file that cannot be used; the message names it and why."""


@dataclass
class Positions:
    """Positions as arrays (one row each): ``own``, ``opp``, ``kings`` as (low, high) uint64
    pairs, ``turn``, the search's and the tables' value for the side to move (``table`` -1:
    unknown), the game's result for the side to move, and the game's number."""

    own: np.ndarray
    opp: np.ndarray
    kings: np.ndarray
    turn: np.ndarray
    search: np.ndarray
    table: np.ndarray
    result: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return len(self.turn)

    def take(self, rows: np.ndarray) -> "Positions":
        """The positions of ``rows`` (indices or a boolean mask)."""
        return Positions(**{name: value[rows] for name, value in vars(self).items()})

    def masks(self, row: int) -> tuple[int, int, int, int]:
        """Row ``row`` as Python ints: (own, opp, kings, turn)."""
        def whole(pair: np.ndarray) -> int:
            return int(pair[0]) | int(pair[1]) << 64
        return whole(self.own[row]), whole(self.opp[row]), whole(self.kings[row]), int(self.turn[row])


def _words(values: list[int]) -> np.ndarray:
    return np.array([(x & LOW, x >> 64) for x in values], dtype=np.uint64).reshape(-1, 2)


def collect(records: Iterable[GameRecord]) -> Positions:
    """Every recorded position of ``records`` (the games in order)."""
    parts: dict[str, list[np.ndarray]] = {name: [] for name in Positions.__dataclass_fields__}
    for number, g in enumerate(records):
        turn = np.array(g.turn, dtype=np.int8)
        parts["own"].append(_words(g.own))
        parts["opp"].append(_words(g.opp))
        parts["kings"].append(_words(g.kings))
        parts["turn"].append(turn)
        parts["search"].append(np.array(g.search, dtype=np.float64))
        parts["table"].append(np.array(g.table, dtype=np.float64))
        parts["result"].append(np.where(turn == 0, g.result, 1.0 - g.result))
        parts["game"].append(np.full(len(turn), number, dtype=np.int32))
    empty = {"own": (0, 2), "opp": (0, 2), "kings": (0, 2)}
    out = {}
    for name, arrays in parts.items():
        out[name] = np.concatenate(arrays) if arrays else np.zeros(empty.get(name, (0,)))
    return Positions(**out)


def labels(positions: Positions, mix: float) -> np.ndarray:
    """Each position's target for the side to move: the tables' verdict where they know it,
    else ``mix`` of the game's result and ``1 - mix`` of the search's value."""
    blended = mix * positions.result + (1.0 - mix) * positions.search
    return np.where(positions.table >= 0.0, positions.table, blended)


def _meta(config: PlayConfig) -> str:
    fields = asdict(config)
    fields.pop("concurrency")
    fields["options"] = [list(pair) for pair in config.options]
    return json.dumps({"format": DATA_FORMAT, "play": fields}, sort_keys=True)


def save_positions(path: str | Path, positions: Positions, config: PlayConfig) -> None:
    """Keep ``positions`` (played as ``config`` says) in ``path`` (numpy ``.npz``)."""
    path = Path(path)
    temporary = path.with_name(path.name + ".partial.npz")
    np.savez_compressed(temporary, meta=np.array(_meta(config)), **vars(positions))
    temporary.replace(path)


def _read(path: str | Path) -> tuple[str, Positions]:
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = str(data["meta"])
            arrays = {name: data[name] for name in Positions.__dataclass_fields__}
    except (OSError, KeyError, ValueError) as err:
        raise DataError(f"training data {path}: cannot be read: {err}") from None
    return meta, Positions(**arrays)


def load_positions(path: str | Path, config: PlayConfig) -> Positions:
    """The positions ``path`` keeps; DataError if it was played otherwise than ``config``
    says, or cannot be read."""
    meta, positions = _read(path)
    if meta != _meta(config):
        raise DataError(f"training data {path}: played with {meta}, not {_meta(config)} "
                        "(delete it, or name another --data file)")
    return positions


@dataclass(frozen=True)
class KeptGames:
    """Games another run kept (its ``--data`` file), added to a run's own (``--add-data``): an
    earlier generation's games.  ``play`` is how they were played, as the file says."""

    path: str
    play: PlayConfig
    positions: Positions

    def describe(self) -> str:
        """The games in words, for the weights file's data line."""
        p = self.play
        return (f"{p.games} games of {Path(self.path).name} (seed {p.seed}, {p.nodes} iterations a move after "
                f"{p.opening_plies} random plies)")


def load_kept(path: str | Path, game: str) -> KeptGames:
    """The games ``path`` keeps, played with any settings but of ``game``; DataError if they are
    of another variant or the file cannot be read."""
    meta, positions = _read(path)
    try:
        fields = json.loads(meta)["play"]
        play = PlayConfig(**{**fields, "options": tuple(tuple(pair) for pair in fields["options"])})
    except (ValueError, KeyError, TypeError) as err:
        raise DataError(f"training data {path}: its settings cannot be read: {err}") from None
    if play.game != game:
        raise DataError(f"training data {path}: games of {play.game}, not {game}")
    return KeptGames(str(path), play, positions)


def join(parts: list[Positions]) -> Positions:
    """``parts`` as one set of positions, each part's games numbered after the part before."""
    renumbered, offset = [], 0
    for part in parts:
        games = part.game.astype(np.int64) + offset
        renumbered.append(Positions(**{**vars(part), "game": games}))
        offset = int(games.max()) + 1 if len(games) else offset
    return Positions(**{name: np.concatenate([vars(p)[name] for p in renumbered])
                        for name in Positions.__dataclass_fields__})
