"""The tournament watcher: a journal's standings, crosstable, Elo and games, for the page.

It reads the journal the tournament manager writes (``tournaments.records.Journal``:
it skips a line cut short by a running writer) and computes everything with the
manager's own report (``tournaments.report.build``) and statistics
(``tournaments.stats``), so the page shows what ``mcts-tournament report`` prints.  A
game is replayed through our rules into frames for the board: the geometry once, then
per ply the pieces, the move and its path.
"""
from __future__ import annotations

import math
import os

from tournaments import report, stats
from tournaments.records import Journal, JournalError

from ..rules import get_game
from ..rules.base import RulesError


class WatchError(ValueError):
    """A journal or game the watcher cannot show (the text says why)."""


def _finite(x: float) -> float | str:
    """A number for JSON: infinite Elo (a 100% or 0% score) as the text ``+inf`` / ``-inf``."""
    return x if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


class JournalWatch:
    """One journal file, read afresh at every request (a running tournament grows it)."""

    def __init__(self, path: str):
        self.path = path
        self.journal = Journal(path)

    def _load(self) -> tuple[dict | None, list[dict]]:
        if not os.path.exists(self.path):
            raise WatchError(f"journal {self.path} does not exist (yet)")
        try:
            return self.journal.load()
        except (JournalError, OSError) as err:
            raise WatchError(str(err)) from None

    def summary(self) -> dict:
        """Standings (Elo with its 95% interval), pairs, crosstable and the list of games."""
        header, games = self._load()
        built = report.build(games, header) if games or header else None
        names = built["engines"] if built else []
        standings = []
        for name, wdl in (built["_totals"].items() if built else []):
            elo, low, high = stats.elo_interval(wdl.wins, wdl.draws, wdl.losses)
            standings.append({"name": name, "games": wdl.games, "wins": wdl.wins, "draws": wdl.draws,
                              "losses": wdl.losses, "points": wdl.points, "score": wdl.score,
                              "elo": _finite(elo), "elo_low": _finite(low), "elo_high": _finite(high)})
        standings.sort(key=lambda r: (-r["score"], -r["points"], r["name"]))
        cross = {}
        for (a, b), wdl in (built["_cross"].items() if built else []):
            cross.setdefault(a, {})[b] = {"points": wdl.points, "games": wdl.games}
        pairs = [report.as_json({"p": vars(p)})["p"] for p in (built["_pair_objects"] if built else [])]
        settings = (header or {}).get("settings", {})
        game_list = [{"id": g["id"], "players": g["players"], "score_first": g.get("score_first"),
                      "reason": g.get("reason", ""), "plies": len(g.get("moves", []))}
                     for g in sorted(games, key=lambda g: g["id"])]
        return {"path": os.path.basename(self.path), "game": settings.get("game") or (games[0]["game"] if games else ""),
                "kind": built["kind"] if built else "", "engines": names, "standings": standings, "pairs": pairs,
                "crosstable": cross, "games": game_list, "count": len(games),
                "text": report.as_text(built) if built and games else ""}

    def replay(self, game_id: int) -> dict:
        """One game as frames for the board: the geometry, then the pieces after every ply."""
        _, games = self._load()
        record = next((g for g in games if g.get("id") == game_id), None)
        if record is None:
            raise WatchError(f"no game {game_id} in {os.path.basename(self.path)}")
        try:
            game = get_game(record["game"], **record.get("rules", {}))
            state = game.parse_fen(record["start_fen"])
        except (RulesError, KeyError) as err:
            raise WatchError(f"game {game_id} cannot be set up: {err}") from None
        view = state.board_view().to_dict()
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
        return {"id": game_id, "game": game.name, "colours": list(game.colours), "players": record["players"],
                "score_first": record.get("score_first"), "reason": record.get("reason", ""),
                "geometry": view, "frames": frames}
