"""Pondering, for the drivers whose protocol has it (ours and Hub; DXP has none), as
cutechess-cli ponders with ``-pondering``.

After the engine's move the caller (the manager's referee) calls ``ponder`` with the game's
moves and the reply the engine expects (its ``bestmove ... ponder`` / ``done ... ponder=``):
the driver sends the position with that reply played and ``go ponder`` with the clocks as
they stand, and returns at once.  The engine's next ``go`` then decides:

* the opponent played the expected reply: ``ponderhit`` (Hub: ``ponder-hit``) and the
  engine's answer, its time counted from the ponderhit (the time spent pondering is not
  charged: it was the opponent's);
* it played another move: ``stop``, the ponder search's answer read and dropped, then the
  position and a fresh ``go``; the engine's time runs from the ``stop`` (its turn began);
* the engine answered the ponder search by itself before either (a premature move): the
  answer is dropped and the position searched afresh, as cutechess does.

The answer says which (``GoResult.pondered``).  ``stop_pondering`` ends a ponder search
whose game ended; ``check_pondering`` reports an engine that died while pondering.  A
driver supplies ``_start`` (send the position and the go, return what reading the answer
needs) and ``_answer`` (read up to the move).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from .info import GoResult
from .limits import GoLimits
from .process import ProcessEngine

__all__ = ["PonderingEngine", "STOP_TIMEOUT"]

STOP_TIMEOUT = 5.0        # seconds for a ponder search's answer after stop


@dataclass(frozen=True)
class _Pondered:
    """What a ponder search runs on: the game (start FEN, moves with the expected reply last)
    and the driver's context for reading its answer."""

    start_fen: str | None
    moves: tuple[str, ...]
    context: Any


class PonderingEngine(ProcessEngine):
    """A driver whose protocol ponders; subclasses name their words and implement ``_start``
    and ``_answer``."""

    PONDERHIT = "ponderhit"      # the protocol's word for "the expected reply was played"
    ANSWER = "bestmove"          # the first word of a search's answer

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pondered: _Pondered | None = None

    # --- the protocol: each subclass ---------------------------------------------------------
    def _start(self, start_fen: str | None, moves: list[str], limits: GoLimits, ponder: bool) -> Any:
        """Send the position and the go (``go ponder`` when ``ponder``); what ``_answer`` needs."""
        raise NotImplementedError

    def _answer(self, timeout: float, context: Any, started: float) -> GoResult:
        """Read the search's lines up to its move (``timeout`` as ``go``'s); elapsed from ``started``."""
        raise NotImplementedError

    # --- searching and pondering ---------------------------------------------------------------
    @property
    def pondering(self) -> bool:
        """Whether a ponder search runs (``ponder`` was called and no ``go`` has answered it)."""
        return self._pondered is not None

    def go(self, start_fen: str | None, moves: list[str], limits: GoLimits, timeout: float) -> GoResult:
        """Set the position, search with ``limits``, return the answer (a ponder search
        running: ponderhit, or stop and a fresh search; module notes).  ``timeout`` is wall
        seconds until the move; past it we send ``stop`` and wait STOP_GRACE more (the answer
        then has ``stopped=True``) before raising EngineTimeout.  The move is not validated."""
        started, deadline = self.timer(), time.monotonic() + timeout
        pondered, self._pondered = self._pondered, None
        outcome = None
        if pondered is not None:
            early = self._answered_early()
            if not early and (pondered.start_fen, pondered.moves) == (start_fen, tuple(moves)):
                self.send(self.PONDERHIT)
                return replace(self._answer(timeout, pondered.context, started), pondered="hit")
            if not early:
                self._stop(pondered, min(timeout, STOP_TIMEOUT))
            outcome = "miss"
        context = self._start(start_fen, moves, limits, ponder=False)
        return replace(self._answer(max(0.0, deadline - time.monotonic()), context, started), pondered=outcome)

    def ponder(self, start_fen: str | None, moves: list[str], reply: str, limits: GoLimits) -> None:
        """Think on the opponent's time: the position after ``moves`` and ``reply`` (the move
        the engine expects) searched with ``go ponder`` and ``limits`` (the clocks as they
        stand); returns at once.  The next ``go`` ends it."""
        if self._pondered is not None:
            raise RuntimeError(f"engine {self.name!r} is already pondering")
        line = [*moves, reply]
        self._pondered = _Pondered(start_fen, tuple(line), self._start(start_fen, line, limits, ponder=True))

    def stop_pondering(self, timeout: float = STOP_TIMEOUT) -> None:
        """End a ponder search (its game is over): ``stop``, its move read and dropped; nothing
        when none runs.  EngineCrash / EngineTimeout when the engine died or does not answer."""
        pondered, self._pondered = self._pondered, None
        if pondered is not None and not self._answered_early():
            self._stop(pondered, timeout)

    def check_pondering(self) -> None:
        """EngineCrash when the engine died while pondering (its process exited)."""
        if self._pondered is not None and self._leader_exited():
            self._pondered = None
            raise self._exited("while pondering")

    def _stop(self, pondered: _Pondered, timeout: float) -> None:
        """``stop`` a ponder search that has not answered and drop its move."""
        self.send("stop")
        self._answer(timeout, pondered.context, self.timer())

    def _answered_early(self) -> bool:
        """Whether the ponder search already answered by itself (the lines it wrote dropped)."""
        return any(line.split()[:1] == [self.ANSWER] for line in self._drain())
