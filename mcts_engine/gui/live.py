"""The games a running tournament is playing, read from its live file for the watcher page.

The tournament manager keeps the games in progress in ``<journal>.live.json`` beside the
journal (it alone writes it, rewriting it whole and atomically as moves are played, and
removes it at the end of its run; the format is in docs/gui.md).  The engine package never
imports the manager, so this module reads that JSON as a contract: every field it uses is
checked (a file at fault is one ``WatchError`` naming what is wrong), and every game is
replayed through our rules, so the board the page draws is the rules' position after the
moves the file lists, never a position the file claims.  A replay is extended move by move as
the game grows (``LiveWatch`` keeps the last position of each game), so following a long game
costs a move's work per update.
"""
from __future__ import annotations

import json
import os
import socket
import threading
import time
from dataclasses import dataclass, field

from ..rules import get_game
from ..rules.base import RulesError
from .session import pv_paths
from .watch import WatchError, result_words

SUFFIX = ".live.json"             # the manager's live file is the journal's path with this added
LIVE_FORMAT = 1
MAX_LIVE_BYTES = 8 << 20          # a larger live file is refused (it lists a few games in progress)
PV_ARROWS = 4                     # moves of the last engine's expected line drawn as arrows


def live_path(journal: str) -> str:
    """The live file of the journal at ``journal``."""
    return journal + SUFFIX


def manager_alive(content: dict) -> bool:
    """Whether the manager that wrote the file may still be running: on this machine its pid
    must be a live process; the file of another machine (a shared disk) is believed."""
    if content.get("host") != socket.gethostname():
        return True
    try:
        os.kill(int(content["pid"]), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, ValueError, KeyError, TypeError):
        return True
    return True


def time_left(content: dict, games_done: int, now: float | None = None) -> dict | None:
    """The run's estimate of what is left: the games to play and the seconds they may take at
    the pace of this run so far (its wall time over the games it finished); None before it has
    finished a game, or once every game is played."""
    total, at_start, started = content.get("games_total"), content.get("games_done_at_start"), content.get("run_started")
    if not all(isinstance(x, (int, float)) for x in (total, at_start, started)):
        return None
    left = int(total) - games_done
    played = games_done - int(at_start)
    if left <= 0 or played <= 0:
        return None
    per_game = max(0.0, ((time.time() if now is None else now) - started) / played)
    return {"games": left, "seconds": round(per_game * left, 1), "per_game": round(per_game, 2)}


def _need(condition: bool, what: str) -> None:
    if not condition:
        raise WatchError(what)


def check_game(game: object, index: int) -> dict:
    """One game of the live file, its fields checked (WatchError naming the field)."""
    where = f"game {index + 1} of the live file"
    _need(isinstance(game, dict), f"{where} is not an object")
    _need(isinstance(game.get("id"), int) and game["id"] >= 0, f"{where}: 'id' is not a game id")
    players = game.get("players")
    _need(isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players),
          f"{where}: 'players' is not two names")
    for key in ("game", "start_fen"):
        _need(isinstance(game.get(key), str), f"{where}: '{key}' is not a text")
    _need(isinstance(game.get("rules", {}), dict), f"{where}: 'rules' is not an object")
    plies = game.get("plies")
    _need(isinstance(plies, list) and all(isinstance(p, dict) and isinstance(p.get("move"), str) for p in plies),
          f"{where}: 'plies' is not a list of moves")
    result = game.get("result")
    _need(result is None or (isinstance(result, dict) and result.get("score_first") in (0, 0.5, 1)),
          f"{where}: 'result' is neither null nor a score")
    return game


@dataclass
class _Replay:
    """A live game's position so far: the state after ``moves`` (extended as moves come)."""

    key: tuple
    state: object
    geometry: dict
    colours: list
    first_to_move: int
    moves: list = field(default_factory=list)
    last: dict | None = None
    error: str = ""


class LiveWatch:
    """The live file of one journal: read again only when it has changed, its games replayed."""

    def __init__(self, journal: str):
        self.path = live_path(journal)
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._content: dict | None = None
        self._replays: dict[int, _Replay] = {}

    def file_key(self) -> tuple | None:
        """The file's modification time and size, or None when there is no live file."""
        try:
            stat = os.stat(self.path)
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_size

    def read(self) -> dict:
        """The live file's content as the page shows it (``running`` false without one)."""
        with self._lock:
            return self._read()

    def _read(self) -> dict:
        key = self.file_key()
        if key is None:
            self._replays.clear()
            return {"running": False, "games": [], "why": "no game is being played (no live file)"}
        if key != self._key:
            self._content, self._key = self._load(), key
        return self._content

    def _load(self) -> dict:
        try:
            if os.path.getsize(self.path) > MAX_LIVE_BYTES:
                raise WatchError(f"the live file {os.path.basename(self.path)} is larger than {MAX_LIVE_BYTES} bytes")
            with open(self.path, encoding="utf-8") as f:
                content = json.load(f)
        except FileNotFoundError:
            return {"running": False, "games": [], "why": "no game is being played (no live file)"}
        except (OSError, ValueError) as err:
            raise WatchError(f"the live file {os.path.basename(self.path)} cannot be read: {err}") from None
        _need(isinstance(content, dict) and content.get("format") == LIVE_FORMAT,
              f"the live file {os.path.basename(self.path)} is not of format {LIVE_FORMAT}")
        games = content.get("games")
        _need(isinstance(games, list), "the live file has no list of 'games'")
        games = [self._show(check_game(g, i)) for i, g in enumerate(games)]
        self._replays = {k: r for k, r in self._replays.items() if any(g["id"] == k for g in games)}
        alive = manager_alive(content)
        head = {k: content.get(k) for k in ("pid", "host", "updated", "run_started", "games_total",
                                            "games_done_at_start")}
        why = "" if alive else f"the manager (pid {content.get('pid')}) is gone: this live file is left from a killed run"
        return {**head, "running": alive, "why": why, "games": games if alive else []}

    def _replay(self, game: dict) -> _Replay:
        """The game's position after its moves, from the last replay when the moves extend it."""
        key = (game["game"], json.dumps(game.get("rules", {}), sort_keys=True), game["start_fen"])
        replay = self._replays.get(game["id"])
        moves = [p["move"] for p in game["plies"]]
        if replay is None or replay.key != key or replay.moves != moves[:len(replay.moves)] or replay.error:
            try:
                rules = get_game(game["game"], **game.get("rules", {}))
                state = rules.parse_fen(game["start_fen"])
            except (RulesError, TypeError, ValueError) as err:
                raise WatchError(f"live game {game['id'] + 1} cannot be set up: {err}") from None
            view = state.board_view().to_dict()
            view["pieces"] = []
            replay = _Replay(key, state, view, list(rules.colours), state.to_move)
            self._replays[game["id"]] = replay
        for text in moves[len(replay.moves):]:
            try:
                move = replay.state.parse_move(text)
            except RulesError as err:
                replay.error = f"move {text!r} is refused by the rules: {err}"
                break
            replay.last = replay.state.move_path(move).to_dict()
            replay.state.play(move)
            replay.moves.append(text)
        return replay

    def _show(self, game: dict) -> dict:
        """A live game for the page: the file's fields, and the rules' position after its moves."""
        replay = self._replay(game)
        result = game.get("result")
        plies = game["plies"]
        pv = plies[-1].get("pv") if plies and not replay.error else None
        expected = pv[1:] if isinstance(pv, list) and pv and pv[0] == plies[-1]["move"] else []
        shown = {k: game.get(k) for k in ("id", "pair", "game", "rules", "players", "start_fen", "plies", "clocks_ms",
                                          "turn_started", "started", "result")}
        shown.update(number=game["id"] + 1, colours=replay.colours, first_to_move=replay.first_to_move,
                     geometry=replay.geometry, pieces=list(replay.state.board_view().to_dict()["pieces"]),
                     last=replay.last, fen=replay.state.fen(), to_move=replay.state.to_move, error=replay.error,
                     result_text=result_words(game["players"], result["score_first"]) if result else "",
                     pv_paths=pv_paths(replay.state, [str(m) for m in expected], PV_ARROWS) if not result else [])
        return shown
