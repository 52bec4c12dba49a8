"""How games are played: ``PlayConditions``, built once from the command line and embedded whole
wherever games are played (a tournament, a tune and its iterations, a cluster task), as
fastchess hands its adjudication config whole to its tracker.

A ``PlayConditions`` is the game and its rules, the ``TimeControl``, the ``Opening``s, the
``Adjudication`` (ply cap, resign and draw by score), a game's wall-time limit and how many
games run at once.  Also here: the random openings of ``--opening-plies N`` (openings files:
``openings.py``).
"""
from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, field

from mcts_engine.client.engine import NEW_GAME_TIMEOUT
from mcts_engine.client.process import STOP_GRACE
from mcts_engine.rules import get_game

from .adjudication import Adjudication

__all__ = ["TimeControl", "Opening", "Adjudication", "PlayConditions", "random_openings"]


@dataclass(frozen=True)
class TimeControl:
    """How long engines may think: a fixed movetime, a node count, or a clock with increment."""

    movetime: int | None = None        # ms per move
    nodes: int | None = None           # iterations per move
    base: float | None = None          # clock: seconds per game (or per ``moves`` moves)
    increment: float = 0.0             # clock: seconds added after each move
    moves: int | None = None           # clock: moves per period (``40/60+0.6``)
    margin: float = 1.0                # seconds past the limit before a silent engine forfeits
    hang: float = 30.0                 # seconds a node-limited move may take before it forfeits

    def __post_init__(self) -> None:
        limits = [name for name, value in (("movetime", self.movetime), ("nodes", self.nodes), ("base", self.base))
                  if value is not None]
        if len(limits) != 1:
            raise ValueError(f"a time control needs exactly one of movetime, nodes and base (a clock), "
                             f"not {' and '.join(limits) or 'none'}")

    @classmethod
    def parse(cls, movetime: int | None, nodes: int | None, tc: str | None, margin_ms: int = 1000) -> "TimeControl":
        """From the command line: ``--movetime MS``, ``--nodes N`` or ``--tc [moves/]seconds[+inc]``."""
        given = [x is not None for x in (movetime, nodes, tc)]
        if sum(given) > 1:
            raise ValueError("give one of --movetime, --nodes, --tc")
        margin = margin_ms / 1000
        if tc is not None:
            text, moves = tc, None
            try:
                if "/" in text:
                    count, text = text.split("/", 1)
                    moves = int(count)
                base_text, _, inc_text = text.partition("+")
                base, increment = float(base_text), float(inc_text or 0)
            except ValueError:
                raise ValueError(f"--tc {tc!r}: expected [moves/]seconds[+increment], e.g. 60+0.6") from None
            if not (0 < base < math.inf and 0 <= increment < math.inf):
                raise ValueError(f"--tc {tc!r}: the time must be positive (and finite)")
            if moves is not None and moves < 1:
                raise ValueError(f"--tc {tc!r}: the moves per period must be at least 1")
            return cls(base=base, increment=increment, moves=moves, margin=margin)
        if nodes is not None:
            return cls(nodes=nodes, margin=margin)
        return cls(movetime=movetime if movetime is not None else 100, margin=margin)

    @classmethod
    def of_engine(cls, text: str, margin: float, name: str) -> "TimeControl":
        """An engine's own time control (``EngineSpec.tc``: ``[moves/]seconds[+inc]``, ``st=S``
        or ``nodes=N``), with the tournament's margin (seconds); ValueError naming the engine."""
        key, _, value = text.partition("=") if text.startswith(("st=", "nodes=")) else ("tc", "", text)
        try:
            if key == "st":
                seconds = float(value)
                if not 0 < seconds < math.inf:
                    raise ValueError("the time must be positive")
                return cls(movetime=max(1, round(seconds * 1000)), margin=margin)
            if key == "nodes":
                if not value.isdigit() or int(value) < 1:
                    raise ValueError("the node count must be a whole number from 1")
                return cls(nodes=int(value), margin=margin)
            return cls.parse(None, None, value, round(margin * 1000))
        except ValueError as err:
            why = str(err).split("': ", 1)[1] if str(err).startswith("--tc '") else str(err)
            raise ValueError(f"engine {name!r}: {'tc=' if key == 'tc' else ''}{text}: {why}") from None

    def side_limit(self, max_plies: int) -> float:
        """The longest one side can think in a game of ``max_plies``: every one of its moves at
        its limit (a clock: the clock with every increment and period)."""
        per_side = math.ceil(max_plies / 2)
        if self.base is not None:
            periods = math.ceil(per_side / self.moves) if self.moves else 1
            return self.base * periods + self.increment * per_side + self.margin
        if self.nodes is not None:
            return per_side * self.hang
        return per_side * (self.movetime / 1000 + self.margin)

    def game_limit(self, max_plies: int, startup_timeout: float, other: "TimeControl | None" = None) -> float:
        """The longest a game can last when both engines use all they are allowed: their
        starts, then every move of ``max_plies`` at its limit (``other``: the second side's
        own time control), plus the grace after a ``stop``."""
        starts = 2 * (startup_timeout + NEW_GAME_TIMEOUT)
        return starts + self.side_limit(max_plies) + (other or self).side_limit(max_plies) + STOP_GRACE


@dataclass(frozen=True)
class Opening:
    """Where a game starts: a FEN (None: the start position) and moves played from it."""

    fen: str | None
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayConditions:
    """How every game is played: the game and its rule options, the time control, the openings
    (a game pair plays one, colours swapped), the adjudication, a game's wall-time limit
    (None: what the time control allows at most), the games played at once, and how long an
    engine may take to start.  Frozen and picklable: a cluster task gets it whole."""

    game: str
    rules: dict = field(default_factory=dict)
    tc: TimeControl = field(default_factory=lambda: TimeControl(movetime=100))
    openings: tuple[Opening, ...] = (Opening(None),)
    adjudication: Adjudication = field(default_factory=Adjudication)
    game_timeout: float | None = None
    concurrency: int = 1
    startup_timeout: float = 10.0

    def time_limit(self, tcs: tuple[TimeControl, TimeControl] | None = None) -> float:
        """Wall seconds one game may last before the side to move forfeits it (``tcs``: the two
        sides' own time controls, default the tournament's)."""
        if self.game_timeout is not None:
            return self.game_timeout
        first, second = tcs or (self.tc, self.tc)
        return first.game_limit(self.adjudication.max_plies, self.startup_timeout, second)

    def tc_identity(self) -> dict:
        """The time control as a journal records it."""
        return asdict(self.tc)

    def openings_identity(self) -> list:
        """The openings as a journal records them: ``[fen, [moves]]`` each."""
        return [[o.fen, list(o.moves)] for o in self.openings]


def random_openings(game_name: str, rules: dict, plies: int, count: int, seed: int) -> tuple[Opening, ...]:
    """``count`` distinct openings of ``plies`` random legal moves from the start (seeded)."""
    game = get_game(game_name, **rules)
    rng = random.Random(seed)
    seen, out = set(), []
    for _ in range(count * 50):
        state = game.new_state()
        moves = []
        for _ in range(plies):
            move = state.random_move(rng)
            if move is None:
                break
            moves.append(state.move_str(move))
            state.play(move)
        if len(moves) < plies or state.outcome() is not None or tuple(moves) in seen:
            continue
        seen.add(tuple(moves))
        out.append(Opening(None, tuple(moves)))
        if len(out) == count:
            break
    return tuple(out) or (Opening(None),)
