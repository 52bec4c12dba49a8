"""Move entry by clicks: resolving the points a person clicks against the legal moves.

The rules give every legal move its click path (``State.move_path``: the start, then
every landing point; a drop's one cell) and the points it captures.  ``Selection``
keeps the points clicked so far and the legal moves still consistent with them:

* the first click picks the moves starting on that point (a drop game's single-point
  moves are chosen at once);
* a click on a next point of some candidate extends the path (prefix matching); when
  one candidate is left and at least two points were clicked, it is the move;
* a click on the last point again ends the move there (a Fanorona chain may stop);
* a click on a piece that only some candidates capture picks those (Fanorona's
  approach or withdrawal along the same path);
* a click on a route's last point skips the landing points in between when only one
  route fits;
* a click on another piece that can move starts over from it; anything else is refused
  with a message (the rules' own where they have one).

Nothing here knows a game: only point names, paths and captures.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..rules.base import is_subsequence
from ..rules.view import MovePath


def natural(name: str) -> tuple:
    """Sort key that puts ``9`` before ``10`` and ``a9`` before ``a10``."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


@dataclass(frozen=True)
class Candidate:
    """A legal move with its notation and its click path."""

    move: Any
    text: str
    path: MovePath


@dataclass
class ClickOutcome:
    """What a click did: ``select`` (the selection changed), ``move`` (``chosen`` is the
    move to play), ``clear`` (the selection was dropped) or ``refused`` (``message`` says why)."""

    kind: str
    chosen: Candidate | None = None
    message: str = ""


@dataclass
class Selection:
    """The clicks of the move being entered, over the candidates of one position.

    ``explain(points)`` returns the rules' message for a path that is no legal move
    (or "" when the rules have none).
    """

    candidates: list[Candidate]
    explain: Callable[[list[str]], str] = lambda points: ""
    clicked: list[str] = field(default_factory=list)
    live: list[Candidate] = field(default_factory=list)

    # --- what the page shows ----------------------------------------------------------------
    def starts(self) -> list[str]:
        """The points where a move can start (the mover's pieces that can move, or drop cells)."""
        return sorted({c.path.points[0] for c in self.candidates if c.path.points}, key=natural)

    def targets(self) -> list[str]:
        """The points the next click may go to."""
        n = len(self.clicked)
        return sorted({c.path.points[n] for c in self.live if len(c.path.points) > n}, key=natural)

    def can_stop(self) -> bool:
        """Whether the clicks so far are a whole move and another click on the last point ends it."""
        return any(c.path.points == tuple(self.clicked) for c in self.live)

    def marked(self) -> tuple[list[str], list[str]]:
        """(points every candidate captures, points only some capture: a click there picks those)."""
        if not self.live:
            return [], []
        sets = [set(c.path.captures) for c in self.live]
        sure = set.intersection(*sets)
        return sorted(sure, key=natural), sorted(set.union(*sets) - sure, key=natural)

    def to_dict(self) -> dict:
        """The selection for the page."""
        sure, maybe = self.marked()
        return {"clicked": list(self.clicked), "targets": self.targets(), "can_stop": self.can_stop(),
                "captures": sure, "choices": maybe, "starts": self.starts(),
                "candidates": [c.text for c in self.live]}

    # --- clicks ----------------------------------------------------------------------------
    def clear(self) -> None:
        """Drop the move being entered."""
        self.clicked, self.live = [], []

    def click(self, point: str) -> ClickOutcome:
        """Resolve one click on ``point`` (a point name)."""
        if not self.clicked:
            return self._start(point)
        n = len(self.clicked)
        onward = [c for c in self.live if len(c.path.points) > n and c.path.points[n] == point]
        if onward:
            self.clicked.append(point)
            self.live = onward
            return self._settle()
        if point == self.clicked[-1]:
            exact = [c for c in self.live if c.path.points == tuple(self.clicked)]
            if len(exact) == 1:
                return self._choose(exact[0])
            if exact:
                self.live = exact
                return ClickOutcome("select", message="click a piece to capture to choose the move")
            if n == 1:
                self.clear()
                return ClickOutcome("clear")
        taking = [c for c in self.live if point in c.path.captures]
        if taking and len(taking) < len(self.live):
            self.live = taking
            return self._settle(ask=True)
        ending = [c for c in self.live if c.path.points[-1] == point and is_subsequence(self.clicked, c.path.points)]
        if len(ending) == 1:
            return self._choose(ending[0])
        if ending:
            return self._refuse(f"several routes lead to {point}: click the landing points one by one")
        if any(c.path.points[:1] == (point,) for c in self.candidates):
            self.clear()
            return self._start(point)
        why = self.explain(self.clicked + [point])
        targets = self.targets()
        where = f"; from here: {', '.join(targets)}" if targets else ""
        return self._refuse(why or f"{point} is not a legal continuation of {'-'.join(self.clicked)}{where}")

    def _start(self, point: str) -> ClickOutcome:
        starting = [c for c in self.candidates if c.path.points[:1] == (point,)]
        if not starting:
            drops = any(len(c.path.points) == 1 for c in self.candidates)
            why = self.explain([point]) if drops else ""
            starts = self.starts()
            hint = f"; moves start on {', '.join(starts[:12])}{' ...' if len(starts) > 12 else ''}" if starts else ""
            return self._refuse((why or f"no legal move starts on {point}") + hint)
        self.clicked, self.live = [point], starting
        return self._settle()

    def _settle(self, ask: bool = False) -> ClickOutcome:
        """Choose the move when the clicks leave exactly one (a drop at once, else from two points)."""
        if len(self.live) == 1:
            only = self.live[0]
            if len(self.clicked) >= 2 or only.path.points == tuple(self.clicked):
                return self._choose(only)
        same = {c.path.points for c in self.live}
        if len(same) == 1 and next(iter(same)) == tuple(self.clicked) and len(self.live) > 1:
            return ClickOutcome("select", message="click a piece to capture to choose the move")
        return ClickOutcome("select", message="click the same point again to stop here" if ask and self.can_stop()
                            else "")

    def _choose(self, candidate: Candidate) -> ClickOutcome:
        self.clear()
        return ClickOutcome("move", chosen=candidate)

    def _refuse(self, message: str) -> ClickOutcome:
        return ClickOutcome("refused", message=message)
