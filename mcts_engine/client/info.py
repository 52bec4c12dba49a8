"""What an engine says about its search, read once into typed values: ``Score``, ``EngineInfo``
and ``GoResult``, as python-chess's ``InfoDict`` serves every protocol.

Each driver reads its own protocol's info lines into ``EngineInfo`` (ours: ``parse_info``
here; Hub's in ``hub.py``), and a ``go``'s answer carries the last value of each field
(``merged``): the manager adjudicates and journals from it, the GUI shows it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Iterable

__all__ = ["Score", "EngineInfo", "GoResult", "parse_info", "merged", "MATE_CP"]

MATE_CP = 100000          # centipawns a mate score counts as where one number is needed (adjudication)
MAX_STRING = 300          # characters of an ``info string`` kept
_NUMBERS = ("depth", "seldepth", "nodes", "nps", "time", "multipv", "hashfull", "tbhits", "currmovenumber",
            "cpuload")
_KEYWORDS = set(_NUMBERS) | {"score", "pv", "string", "wdl", "currmove", "refutation", "currline",
                             "lowerbound", "upperbound"}
_KEPT = ("depth", "seldepth", "nodes", "nps", "time")       # the numbers EngineInfo keeps


@dataclass(frozen=True)
class Score:
    """An engine's score from the side to move's point of view: centipawns, or a mate in
    ``mate`` moves (negative: being mated); exactly one of the two is set."""

    cp: int | None = None
    mate: int | None = None

    def __post_init__(self) -> None:
        if (self.cp is None) == (self.mate is None):
            raise ValueError(f"a score is centipawns or a mate distance, not {self.cp!r} and {self.mate!r}")

    def as_cp(self) -> int:
        """One number: the centipawns, or +-MATE_CP for a mate (for thresholds such as resigning)."""
        if self.mate is None:
            return self.cp
        return MATE_CP if self.mate > 0 else -MATE_CP


@dataclass(frozen=True)
class EngineInfo:
    """One info line read (or the last of each field over a search, ``merged``): None = not said."""

    depth: int | None = None
    seldepth: int | None = None
    nodes: int | None = None
    nps: int | None = None
    time: int | None = None
    score: Score | None = None
    wdl: tuple[int, int, int] | None = None
    pv: tuple[str, ...] | None = None
    string: str | None = None


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        try:
            return int(float(text))
        except (ValueError, OverflowError):
            return None


def parse_info(line: str) -> EngineInfo:
    """One ``info`` line of our protocol (UCI's words), tolerantly: what it lacks or garbles stays None."""
    tokens = line.split()
    found: dict = {}
    i = 1
    while i < len(tokens):
        tok = tokens[i]
        if tok == "string":
            found["string"] = line.split(" string ", 1)[-1][:MAX_STRING]
            break
        if tok in _NUMBERS and i + 1 < len(tokens):
            value = _int(tokens[i + 1])
            if value is not None and tok in _KEPT:
                found[tok] = value
            i += 2
        elif tok == "score" and i + 2 < len(tokens) and tokens[i + 1] in ("cp", "mate"):
            value = _int(tokens[i + 2])
            if value is not None:
                found["score"] = Score(cp=value) if tokens[i + 1] == "cp" else Score(mate=value)
            i += 3
        elif tok == "wdl" and i + 3 < len(tokens):
            values = [_int(t) for t in tokens[i + 1:i + 4]]
            if None not in values:
                found["wdl"] = tuple(values)
            i += 4
        elif tok == "pv":
            j = i + 1
            while j < len(tokens) and tokens[j] not in _KEYWORDS:
                j += 1
            found["pv"] = tuple(tokens[i + 1:j])
            i = j
        else:
            i += 1
    return EngineInfo(**found)


def merged(infos: Iterable[EngineInfo]) -> EngineInfo:
    """The last value of each field over ``infos`` (in the order they came)."""
    out: dict = {}
    for info in infos:
        out.update({f.name: getattr(info, f.name) for f in dataclasses.fields(info)
                    if getattr(info, f.name) is not None})
    return EngineInfo(**out)


@dataclass(frozen=True)
class GoResult:
    """One ``go``'s answer: the move (and the expected reply) in our notation, the search's
    last info, the info lines as the engine wrote them, and what went wrong meanwhile."""

    move: str
    ponder: str | None
    elapsed: float                            # wall seconds from sending go to reading the move
    info: EngineInfo = EngineInfo()           # the last value of each field over the search
    lines: tuple[str, ...] = ()               # the info lines as the engine wrote them (DXP: its chats)
    errors: tuple[str, ...] = ()              # error texts the engine sent since the position
    stopped: bool = False                     # the answer came only after our stop (timeout exceeded)
    pondered: str | None = None               # "hit": it continued a ponder search after ponderhit;
                                              # "miss": a ponder search was stopped first; None: none ran
