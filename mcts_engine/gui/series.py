"""The match's score and Elo against games played, for the watcher's plot.

Every point is the tournament manager's own report (``mcts-tournament report --json``, the
statistics the watcher already shows) of the journal as it stood after that many games: the
journal's records up to its k-th game line, in the order the games finished.  So the plot is
what the manager would have printed then, never an Elo of our own making.  While a page
follows a running tournament every new game's report is a point (the watcher runs it anyway);
for games played before the page looked (or while a report ran), the missing points are
computed one at a time beside the summaries, never holding them up, at most ``MAX_POINTS``
of them, evenly spread, so a long finished journal fills its plot over a few seconds.

A point is each engine's line of the report's ratings (its score, and its Elo with the 95%
interval against the field: the figures of the page's standings, so the plot's last point is
the table's row); for a match only the first engine's (the second's is its mirror), named
with its opponent.
"""
from __future__ import annotations

import json
from typing import Callable

MAX_POINTS = 60       # points computed for games played before the page looked (evenly spread)
PER_STEP = 2          # reports run by one ``step``


def point(report: dict, games: int) -> dict:
    """One point of the plot from a report (``mcts-tournament report --json``) of ``games`` games."""
    ratings = report.get("ratings", {})
    names = list(ratings)
    match = report.get("kind") == "match" and len(names) == 2
    lines = {name: {key: ratings[name][key] for key in ("score", "elo", "elo_low", "elo_high")}
             for name in (names[:1] if match else names)}
    return {"games": games, "against": names[1] if match else "", "lines": lines}


def targets(count: int, most: int = MAX_POINTS) -> list[int]:
    """The game counts to plot for a journal of ``count`` games: at most about ``most``, evenly
    spread, always the last."""
    if count <= 0:
        return []
    step = max(1, -(-count // most))
    return sorted({k for k in range(step, count + 1, step)} | {count})


class EloSeries:
    """The points of one journal, kept while it grows (a different tournament header starts over).
    ``report`` is the manager's report of journal records (the watcher's ``records_report``).
    A missing point is computed in three steps, so that its report runs outside the watcher's
    lock: ``next_cut`` (which point, and the records it needs), the report, ``put``."""

    def __init__(self, report: Callable[[list[dict]], dict]):
        self.report = report
        self._points: dict[int, dict | None] = {}      # game count -> point (None: its report failed)
        self._identity: str | None = None
        self.generation = 0                             # counts the restarts (a new tournament)

    def _check(self, records: list[dict]) -> list[dict]:
        """The game records, after starting over if the journal is another tournament's now."""
        header = next((r for r in records if r.get("type") == "tournament"), None)
        identity = json.dumps(header, sort_keys=True)
        games = [r for r in records if r.get("type") == "game"]
        if identity != self._identity or any(k > len(games) for k in self._points):
            self._points, self._identity = {}, identity
            self.generation += 1
        return games

    def add(self, records: list[dict], report: dict) -> None:
        """The report of the whole journal (its records): the point of its game count."""
        count = len(self._check(records))
        if count:
            self._points[count] = point(report, count)

    def missing(self, count: int) -> list[int]:
        """The game counts still to compute for a journal of ``count`` games."""
        return [k for k in targets(count) if k not in self._points]

    def next_cut(self, records: list[dict]) -> tuple[int, int, list[dict]] | None:
        """The next point to compute: (this series' generation, its game count, the records up to
        that game), or None when none is missing."""
        games = self._check(records)
        todo = self.missing(len(games))
        if not todo:
            return None
        last = games[todo[0] - 1]
        cut = next(i for i, r in enumerate(records) if r is last) + 1
        return self.generation, todo[0], records[:cut]

    def put(self, generation: int, games: int, report: dict | None) -> bool:
        """Keep the point of ``games`` games from its report (None: the report failed, the point is
        left out), unless the series started over since ``next_cut``; whether it was kept."""
        if generation != self.generation:
            return False
        self._points[games] = None if report is None else point(report, games)
        return True

    def step(self, records: list[dict]) -> bool:
        """Compute up to ``PER_STEP`` missing points now; whether any was added."""
        added = False
        for _ in range(PER_STEP):
            job = self.next_cut(records)
            if job is None:
                break
            generation, games, cut = job
            added = self.put(generation, games, self.report(cut)) or added
        return added

    def points(self, count: int) -> list[dict]:
        """The points to plot for ``count`` games, in order (those of ``targets`` and any computed
        since the page looked, thinned to at most about ``2 * MAX_POINTS``)."""
        keep = set(targets(count, 2 * MAX_POINTS)) | set(targets(count))
        return [self._points[k] for k in sorted(self._points)
                if self._points[k] is not None and (k in keep or k > count - 3)]
