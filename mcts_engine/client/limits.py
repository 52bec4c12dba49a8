"""How long an engine may think for one move, as one typed value every driver renders in its
protocol: ours as ``go`` words, Hub as ``level``, DXP as a GAMEREQ's clock (python-chess's
``Limit`` serves its protocols the same way)."""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Clock", "GoLimits"]


@dataclass(frozen=True)
class Clock:
    """Both players' clocks (ms left; player 0 moves first), the increment per move (ms), the
    moves left in this period (None: the rest of the game), and which player is White
    (engines that name clocks by colour, as UCI does).  ``increments_ms`` gives each player
    an increment of its own (a time-odds game); None: both get ``increment_ms``."""

    time_ms: tuple[int, int]
    increment_ms: int = 0
    movestogo: int | None = None
    white: int = 0
    increments_ms: tuple[int, int] | None = None

    @property
    def increments(self) -> tuple[int, int]:
        """Each player's increment (ms), player 0 first."""
        return self.increments_ms if self.increments_ms is not None else (self.increment_ms, self.increment_ms)


@dataclass(frozen=True)
class GoLimits:
    """One search's limits: a move time (ms), a node count, a depth, a clock, or none at all
    (``infinite``: until ``stop``)."""

    movetime: int | None = None
    nodes: int | None = None
    depth: int | None = None
    clock: Clock | None = None
    infinite: bool = False
