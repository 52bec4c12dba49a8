"""The tournament watcher: a journal's standings, crosstable, Elo and games, for the page.

The statistics are the tournament manager's own: the watcher runs ``mcts-tournament report
JOURNAL --json`` (this installation's manager, ``python -m tournaments``) whenever the
journal has changed, on a copy of the records it read (so the standings count the games the
list shows, while the journal may grow meanwhile): the page shows what the report prints, and the engine package
talks to the manager only through its command line, as the manager talks to engines only
through their protocol.  The games themselves the watcher reads from the journal, a file of
JSON lines, with the manager's own reader (``mcts_engine.journal_format``: a record counts
when its line is complete, every game line is checked against its header; a journal at fault
is shown as the error naming its line), and replays through our rules into frames for the
board: the geometry once, then per ply the pieces, the move and its path, with what the
journal kept of the engine's search (score, depth, nodes, time) for the game's score plot.
Games are numbered from 1 (a journal's ids count from 0) and their results are said in words
(``UCT wins``, ``draw``): PDN's and chess's results are for records, not for people
(``result_words``).  The match's score and Elo against games played are ``series.py``'s.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from .. import journal_format
from ..journal_format import JournalContents, JournalError, header_and_games
from ..rules import get_game
from ..rules.base import RulesError
from .series import EloSeries

REPORT_TIMEOUT = 60.0        # seconds the manager's report may take
MAX_REPLAYS = 64             # game replays kept for the pages that ask again
PACKAGES = Path(__file__).resolve().parents[2]   # where this installation's packages are (the manager's too)


class WatchError(ValueError):
    """A journal or game the watcher cannot show (the text says why)."""


class JournalFault(WatchError):
    """A journal that is there but cannot be shown: a line at fault, or the manager's report of
    it failed (the text says why, naming the line)."""


def result_words(players: list[str], score_first: float | None) -> str:
    """A game's result as people read it: ``UCT wins``, ``draw``, or ``*`` (not over)."""
    if score_first is None:
        return "*"
    if score_first == 0.5:
        return "draw"
    return f"{players[0] if score_first == 1 else players[1]} wins"


def read_records(path: str) -> list[dict]:
    """Every record of the journal, read as the manager reads them (``journal_format``: complete
    lines only, every line checked); WatchError if it cannot be shown, naming the line at fault."""
    if not os.path.exists(path):
        raise WatchError(f"journal {path} does not exist (yet)")
    try:
        return journal_format.read_records(path)
    except JournalError as err:
        raise JournalFault(str(err)) from None


def read_journal(path: str) -> JournalContents:
    """The journal's header (the last, as in a tune journal) and games, read as the manager reads
    them (``journal_format``: complete lines only, every line checked); WatchError if it cannot
    be shown, naming the line at fault."""
    if not os.path.exists(path):
        raise WatchError(f"journal {path} does not exist (yet)")
    try:
        return journal_format.read_journal(path)
    except JournalError as err:
        raise JournalFault(str(err)) from None


def manager_report(path: str) -> dict:
    """The manager's report of the journal at ``path`` as JSON (``mcts-tournament report --json``)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PACKAGES) + os.pathsep + env.get("PYTHONPATH", "")
    try:
        done = subprocess.run([sys.executable, "-m", "tournaments", "report", path, "--json"], capture_output=True,
                              text=True, timeout=REPORT_TIMEOUT, env=env)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise JournalFault(f"the tournament manager's report failed: {err}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise JournalFault(f"the tournament manager's report failed: {last}")
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise JournalFault("the tournament manager's report is not JSON") from None


def records_report(records: list[dict]) -> dict:
    """The manager's report of these journal records (written to a file of their own: the report
    then counts exactly the games the watcher read, while the journal may grow meanwhile)."""
    handle, path = tempfile.mkstemp(prefix="mcts-watch-", suffix=".jsonl")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(r) + "\n" for r in records)
        return manager_report(path)
    finally:
        os.remove(path)


def _finite(x: float | None, score: float, low: bool) -> float | str:
    """An Elo figure for the page: the report's null (an infinite figure) as ``+inf`` or ``-inf``
    (all wins: +inf, all losses: -inf, else by the side of the interval)."""
    if x is not None:
        return x
    if score in (0.0, 1.0):
        return "+inf" if score == 1.0 else "-inf"
    return "-inf" if low else "+inf"


def standings(report: dict) -> list[dict]:
    """Each engine's games, W/D/L, points, score and Elo with its interval, best first."""
    out = []
    for name, r in report["ratings"].items():
        out.append({"name": name, "games": r["games"], "wins": r["wins"], "draws": r["draws"], "losses": r["losses"],
                    "points": r["points"], "score": r["score"], "elo": _finite(r["elo"], r["score"], False),
                    "elo_low": _finite(r["elo_low"], r["score"], True),
                    "elo_high": _finite(r["elo_high"], r["score"], False)})
    out.sort(key=lambda r: (-r["score"], -r["points"], r["name"]))
    return out


class JournalWatch:
    """One journal file (a running tournament grows it): its summary and its games' replays are
    computed again only when the file has changed, by one request at a time (the others wait
    and share the answer), so that a page asking again and again costs a ``stat``."""

    def __init__(self, path: str):
        self.path = path
        self._lock = threading.Lock()
        self._summary: tuple[tuple[int, int], dict] | None = None      # (the file's mtime and size, summary)
        self._records: list[dict] = []                                 # the journal's records at that time
        self._replays: dict[tuple[tuple[int, int], int], dict] = {}    # ((mtime, size), game id) -> replay
        self.series = EloSeries(records_report)

    def _file_key(self) -> tuple[int, int]:
        """The journal's modification time and size (what says it has changed)."""
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            raise WatchError(f"journal {self.path} does not exist (yet)") from None
        except OSError as err:
            raise WatchError(f"journal {self.path}: {err.strerror or err}") from None
        return stat.st_mtime_ns, stat.st_size

    def file_key(self) -> tuple[int, int] | None:
        """The journal's modification time and size, or None while it cannot be seen."""
        try:
            return self._file_key()
        except WatchError:
            return None

    def summary(self) -> dict:
        """Standings (Elo with its 95% interval), pairs, crosstable, the list of games (numbered
        from 1, results in words) and the match's score and Elo against games played so far."""
        with self._lock:
            key = self._file_key()
            if self._summary is None or self._summary[0] != key:
                self._summary = (key, self._summarize())
            base = self._summary[1]
            return {**base, "series": self.series.points(base["count"])}

    def fill_series(self) -> bool:
        """Compute one more point of the series for games the summaries skipped (played before
        the page looked, or while a report ran: ``series.py``); whether one was added (the
        summary then has it).  The report runs outside the lock: summaries are never held up."""
        with self._lock:
            job = self.series.next_cut(self._records) if self._summary is not None else None
        if job is None:
            return False
        generation, games, records = job
        try:
            report = records_report(records)
        except WatchError:
            report = None           # left out of the plot, not tried again
        with self._lock:
            return self.series.put(generation, games, report)

    def _summarize(self) -> dict:
        records = read_records(self.path)
        header, games = header_and_games(records)
        games = sorted(games, key=lambda g: g["id"])
        settings = (header or {}).get("settings", {})
        report = records_report(records) if games else {"kind": settings.get("kind", ""), "pairs": [],
                                                          "ratings": {}, "crosstable": {}}
        self._records = records
        self.series.add(records, report)
        names = report.get("engines") or [e["name"] for e in settings.get("engines", [])]
        game_list = [{"id": g["id"], "number": g["id"] + 1, "players": g["players"], "score_first": g.get("score_first"),
                      "result": result_words(g["players"], g.get("score_first")), "reason": g.get("reason", ""),
                      "plies": len(g.get("moves", []))} for g in games]
        return {"path": os.path.basename(self.path), "game": settings.get("game") or (games[0]["game"] if games else ""),
                "kind": report["kind"], "engines": names, "standings": standings(report), "pairs": report["pairs"],
                "crosstable": report["crosstable"], "games": game_list, "count": len(games)}

    def replay(self, game_id: int) -> dict:
        """One game as frames for the board: the geometry, then the pieces after every ply."""
        with self._lock:
            key = self._file_key()
            if (key, game_id) not in self._replays:
                if len(self._replays) >= MAX_REPLAYS or any(k != key for k, _ in self._replays):
                    self._replays.clear()
                self._replays[(key, game_id)] = self._replay(game_id)
            return self._replays[(key, game_id)]

    def _replay(self, game_id: int) -> dict:
        record = next((g for g in read_journal(self.path).games if g.get("id") == game_id), None)
        if record is None:
            raise WatchError(f"no game {game_id} in {os.path.basename(self.path)}")
        try:
            game = get_game(record["game"], **record.get("rules", {}))
            state = game.parse_fen(record["start_fen"])
        except (RulesError, KeyError) as err:
            raise WatchError(f"game {game_id} cannot be set up: {err}") from None
        view = state.board_view().to_dict()
        first_to_move = state.to_move
        frames = [{"pieces": view["pieces"], "move": "", "last": None, "fen": state.fen()}]
        for text in record.get("moves", []):
            try:
                move = state.parse_move(text)
            except RulesError as err:
                frames[-1]["error"] = f"move {text!r} is refused by the rules: {err}"
                break
            path = state.move_path(move).to_dict()
            state.play(move)
            frames.append({"pieces": state.board_view().to_dict()["pieces"], "move": text, "last": path,
                           "fen": state.fen()})
        view["pieces"] = []
        infos, times = record.get("infos", []), record.get("times_ms", [])
        plies = [{"move": text, **(infos[i] if i < len(infos) and isinstance(infos[i], dict) else {}),
                  **({"time_ms": times[i]} if i < len(times) else {})} for i, text in enumerate(record.get("moves", []))]
        return {"id": game_id, "number": game_id + 1, "game": game.name, "colours": list(game.colours),
                "players": record["players"], "score_first": record.get("score_first"),
                "result_text": result_words(record["players"], record.get("score_first")),
                "reason": record.get("reason", ""), "first_to_move": first_to_move, "plies": plies,
                "geometry": view, "frames": frames}
