"""When a search stops: the ``go`` limits and the time manager.

The protocol turns ``go`` into ``Limits``; ``time_budget`` turns them into this move's time,
the seconds aimed at and the most allowed; the core's loop (``native/src/run.c``) checks them
after every iteration, and between the two stops by the clock's rule (a clear choice early,
an unclear one later).  ``Limits`` declares
the largest value of each limit (``MAX_*``): the parsers clamp a larger number to it, so
that nothing past what the native core counts in (a C ``long long`` of iterations, an
``int`` of depth) or what a float and a thread's wait hold reaches the search.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar


@dataclass
class Limits:
    """When to stop a search.  ``None`` = no limit of that kind; all None and not infinite = 1 s.

    The ``MAX_*`` bounds are far past what any search reaches (2^62 iterations, 2^30 plies,
    10^9 s, about 31 years), so a clamped limit searches as the larger one would have."""

    MAX_NODES: ClassVar[int] = 1 << 62        # the core counts iterations in a C long long
    MAX_DEPTH: ClassVar[int] = 1 << 30        # ... and the depth limit in a C int
    MAX_MOVESTOGO: ClassVar[int] = 1 << 30
    MAX_SECONDS: ClassVar[float] = 1e9        # movetime, clocks, increments (below threading.TIMEOUT_MAX)

    nodes: int | None = None          # UCT iterations
    movetime: float | None = None     # seconds for this move
    time_left: float | None = None    # the mover's clock, seconds
    increment: float = 0.0            # the mover's increment, seconds
    movestogo: int | None = None      # moves to the next time control
    depth: int | None = None          # stop once the tree reaches this depth
    infinite: bool = False            # until stop (also while pondering)
    searchmoves: list | None = None   # consider only these root moves (legal moves of the state)
    received: float | None = None     # when the go arrived (now()): the move's time counts from there

    def nodes_only(self) -> bool:
        """Whether only a node count ends the search (no clock, no infinite): the case in
        which a seeded search is reproducible, so its reports follow the count, not the time."""
        return (self.nodes is not None and not self.infinite and self.movetime is None
                and self.time_left is None)


MAX_STRETCH = 3.0         # under a clock, an unclear move may take this many times its share
MOVES_TO_GO = 30          # without movestogo: the moves assumed left at the game's start ...
FEWEST_TO_GO = 10         # ... one fewer every MOVES_PER_STEP of the mover's moves, down to this
MOVES_PER_STEP = 3


def moves_to_go(limits: Limits, moves_played: int) -> int:
    """The moves the clock is shared over: ``movestogo`` where the protocol gives it (at most
    50), else 30 at the game's start, one fewer every third move the mover has played, never
    fewer than 10.  A fixed 30 left a third of a one-minute game's clock unused in games of 55
    to 60 moves (a clear move ends early, and what it saves was spread over 30 moves that never
    came); the falling count spends it in the middle game (docs/search.md)."""
    if limits.movestogo:
        return max(1, min(limits.movestogo, 50))
    return max(FEWEST_TO_GO, MOVES_TO_GO - max(0, moves_played) // MOVES_PER_STEP)


@dataclass(frozen=True)
class TimeBudget:
    """This move's time, in seconds from when the go arrived: ``optimum`` aimed at, ``maximum``
    never passed (equal under ``movetime``, which is spent whole)."""

    optimum: float
    maximum: float


def time_budget(limits: Limits, overhead: float, moves_played: int = 0) -> TimeBudget | None:
    """This move's time: movetime, or a share of the clock; None = no time limit.

    The clock share is the time left over the moves still to play (``moves_to_go``: the
    protocol's ``movestogo``, else a count falling with the ``moves_played`` by the mover),
    plus most of the increment, never more than half the time left; an unclear move may
    stretch to ``MAX_STRETCH`` shares within that half.  ``overhead`` is kept back for the I/O.
    """
    if limits.infinite:
        return None
    if limits.movetime is not None:
        seconds = max(0.001, limits.movetime - overhead)
        return TimeBudget(seconds, seconds)
    if limits.time_left is not None:
        share = limits.time_left / moves_to_go(limits, moves_played) + 0.8 * limits.increment
        ceiling = 0.5 * limits.time_left
        return TimeBudget(max(0.001, min(share, ceiling) - overhead),
                          max(0.001, min(MAX_STRETCH * share, ceiling) - overhead))
    if limits.nodes is not None or limits.depth is not None:
        return None
    return TimeBudget(1.0, 1.0)


def budget(limits: Limits, overhead: float) -> float | None:
    """Seconds to aim at for this move (``time_budget``'s optimum); None = no time limit."""
    spend = time_budget(limits, overhead)
    return None if spend is None else spend.optimum


def now() -> float:
    """Monotonic wall-clock seconds (search limits are wall time; benchmarks use CPU time)."""
    return time.perf_counter()


def split_nodes(nodes: int | None, parts: int) -> list[int | None]:
    """``nodes`` shared out as evenly as possible among ``parts`` searchers (None = no limit)."""
    if nodes is None:
        return [None] * parts
    return [nodes // parts + (1 if i < nodes % parts else 0) for i in range(parts)]
