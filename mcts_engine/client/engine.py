"""Our protocol's driver (docs/protocol.md), and the factory that picks a driver by the engine
spec's ``protocol``.

This layer only speaks the protocol; it does not know the rules.  A move an engine
answers is returned as text and the caller (the manager's referee, the GUI) validates it
with our rules (an illegal move is the caller's business, not an error here).  The
process is ``process.py``'s, the other drivers ``hub.py`` and ``dxp.py``.
"""
from __future__ import annotations

import re
import time
from typing import Callable

from .dxp import DxpEngineProcess
from .errors import EngineProtocolError, EngineStartError, EngineTimeout
from .hub import HubEngineProcess
from .info import GoResult, merged, parse_info
from .limits import GoLimits
from .ponder import PonderingEngine
from .process import AdvertisedOption, ProcessEngine
from .specs import EngineSpec

__all__ = ["EngineProcess", "make_engine", "go_command", "parse_option_line", "NEW_GAME_TIMEOUT"]

DEFAULT_GAME = "english"    # the protocol's default UCI_Variant
NEW_GAME_TIMEOUT = 5.0    # seconds for ucinewgame + isready -> readyok


class EngineProcess(PonderingEngine):
    """An engine spoken to in our protocol (UCI-like): uci/uciok, setoption, isready/readyok,
    ucinewgame, position/go/bestmove, and pondering (``go ponder``, ``ponderhit``, ``stop``:
    ``ponder.py``; the ``Ponder`` option set at the handshake)."""

    def _handshake(self) -> None:
        self.send("uci")
        for line in self._startup_lines("uciok", after="uci"):
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "id" and len(tokens) >= 2:
                text = line.split(None, 2)[2] if len(tokens) > 2 else ""
                if tokens[1] == "name":
                    self.id_name = text
                elif tokens[1] == "author":
                    self.id_author = text
            elif tokens[0] == "option":
                declared = parse_option_line(line)
                if declared is not None:
                    self.options_declared[declared.name] = declared
        declared = {n.lower(): n for n in self.options_declared}
        for key, value in list(self.spec.options.items()) + self._ponder_option(declared) + self._game_options(declared):
            if self.strict_options and declared and " ".join(key.split()).lower() not in declared:
                raise self._error(EngineStartError, f"option {key!r} is not declared by the engine "
                                  f"(its options: {', '.join(self.options_declared)})")
            if any(c in "\r\n" for c in f"{key}{value}"):
                raise self._error(EngineStartError, f"option {key!r}: a line break in the name or value")
            self.send(f"setoption name {key}" + ("" if value is None else f" value {value}"))
            errors = self._sync(deadline_in=self.startup_timeout, what=f"setoption {key}")
            if errors:
                raise self._error(EngineStartError, f"option {key}={value} rejected: {'; '.join(errors)}")
        errors = self._sync(deadline_in=self.startup_timeout, what="isready")
        if errors:
            raise self._error(EngineStartError, f"error during the handshake: {'; '.join(errors)}")

    def _ponder_option(self, declared: dict[str, str]) -> list[tuple[str, str]]:
        """``Ponder true`` for an engine that ponders (``EngineSpec.ponder``) and does not set
        the option itself, as UCI asks of a GUI; EngineStartError when it declares none (it
        may not be sent ``go ponder``)."""
        if not self.spec.ponder or any(key.lower() == "ponder" for key in self.spec.options):
            return []
        if "ponder" not in declared:
            raise self._error(EngineStartError, "ponder is on, but the engine declares no Ponder option, so it "
                              "may not be sent go ponder (leave ponder off for it)")
        return [("Ponder", "true")]

    def _game_options(self, declared: dict[str, str]) -> list[tuple[str, str]]:
        """The options that tell the engine the tournament's game: ``UCI_Variant`` and, with
        rule options, ``Rules``.  Sent after the spec's own options, so the game wins.

        An engine that does not declare ``UCI_Variant`` plays the protocol's default game
        (English draughts) and can take part only in that game.
        """
        if self.game is None:
            return []
        options = []
        if "uci_variant" in declared:
            options.append(("UCI_Variant", self.game))
        elif self.game != DEFAULT_GAME:
            raise self._error(EngineStartError, f"the engine does not declare the UCI_Variant option, "
                              f"so it cannot be told to play {self.game}")
        return options + self._rules_setting(declared, "option")

    def new_game(self, timeout: float = NEW_GAME_TIMEOUT) -> None:
        """``ucinewgame`` then isready/readyok (a ponder search stopped first)."""
        self.stop_pondering()
        self._drain()
        self.send("ucinewgame")
        self._sync(deadline_in=timeout, what="ucinewgame")

    def ping(self, timeout: float = 5.0) -> float:
        """isready/readyok; the round trip in seconds."""
        self._drain()
        start = time.monotonic()
        self.send("isready")
        self._sync(deadline_in=timeout, what="isready", send=False)
        return time.monotonic() - start

    def _start(self, start_fen: str | None, moves: list[str], limits: GoLimits, ponder: bool) -> str:
        """Send ``position`` and ``go`` (``go ponder`` when ``ponder``); the go line (for messages)."""
        for move in moves:
            if not move or any(c.isspace() for c in move):
                raise ValueError(f"bad move token {move!r}")
        if start_fen is not None and (not start_fen.strip() or any(c in "\r\n" for c in start_fen)):
            raise ValueError(f"bad FEN {start_fen!r}")
        position = "position startpos" if start_fen is None else f"position fen {start_fen.strip()}"
        if moves:
            position += " moves " + " ".join(moves)
        go = go_command(limits, ponder)
        self._drain()
        self.send(position)
        self.send(go)
        return go

    def _answer(self, timeout: float, go: str, started: float) -> GoResult:
        """The ``info`` lines up to ``bestmove``: the answer, its time from ``started``."""
        infos: list[str] = []
        errors: list[str] = []
        for line, stopped in self._search_lines(timeout, "bestmove", f" for {go!r}", f"during {go!r}"):
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "info":
                self._heard_info(line, infos)
                if line.split(None, 2)[1:2] == ["string"]:
                    text = line.split(None, 2)[2] if len(tokens) > 2 else ""
                    if text.startswith("error"):
                        errors.append(text)
                continue
            if tokens[0] == "bestmove":
                if len(tokens) < 2:
                    raise self._error(EngineProtocolError, f"bestmove without a move after {go!r}")
                ponder = tokens[3] if len(tokens) >= 4 and tokens[2] == "ponder" else None
                return self._result(tokens[1], ponder, infos, errors, self.timer() - started, stopped)
            # anything else (readyok, a stray line) is ignored

    @staticmethod
    def _result(move: str, ponder: str | None, infos: list[str], errors: list[str], elapsed: float,
                stopped: bool) -> GoResult:
        return GoResult(move, ponder, elapsed, merged(parse_info(line) for line in infos), tuple(infos),
                        tuple(errors), stopped)

    def _sync(self, deadline_in: float, what: str, send: bool = True) -> list[str]:
        """isready -> readyok; the ``info string error`` texts seen meanwhile."""
        if send:
            self.send("isready")
        errors = []
        for line in self._lines_until("readyok", what, deadline_in, EngineTimeout, f"after {what}"):
            parts = line.split(None, 2)
            if parts[:2] == ["info", "string"] and len(parts) > 2 and parts[2].startswith("error"):
                text = parts[2]
                errors.append(text[len("error:"):].strip() if text.startswith("error:") else text)
        return errors


def go_command(limits: GoLimits, ponder: bool = False) -> str:
    """``limits`` as our protocol's ``go`` line: ``go movetime 100``, ``go nodes 50``, ``go infinite``,
    or both clocks by player (UGI's p1time ...) and by colour (UCI's wtime ...); ``go ponder ...``
    when ``ponder``."""
    words = ["go", "ponder"] if ponder else ["go"]
    for key in ("movetime", "nodes", "depth"):
        value = getattr(limits, key)
        if value is not None:
            words += [key, str(value)]
    clock = limits.clock
    if clock is not None:
        ms, inc, white = clock.time_ms, clock.increments, clock.white
        words += ["p1time", str(ms[0]), "p2time", str(ms[1]), "p1inc", str(inc[0]), "p2inc", str(inc[1]),
                  "wtime", str(ms[white]), "btime", str(ms[1 - white]), "winc", str(inc[white]),
                  "binc", str(inc[1 - white])]
        if clock.movestogo:
            words += ["movestogo", str(clock.movestogo)]
    if limits.infinite:
        words.append("infinite")
    return " ".join(words)


_OPTION_LINE = re.compile(r"\s*option\s+name\s+(.+?)(?:\s+type\s+(\S+)(.*))?\s*$")
_OPTION_WORDS = ("default", "min", "max", "var")


def parse_option_line(line: str) -> AdvertisedOption | None:
    """An ``option name X type T [default D] [min a max b] [var v ...]`` line, read (None if it is not one)."""
    match = _OPTION_LINE.match(line)
    if match is None:
        return None
    name, kind, rest = match.group(1), match.group(2) or "", match.group(3) or ""
    found: dict[str, list[str]] = {word: [] for word in _OPTION_WORDS}
    key = None
    for word in rest.split():
        if word in _OPTION_WORDS:
            key = word
        elif key is not None:
            found[key].append(word)
    default = " ".join(found["default"]) if "default" in rest.split() else None
    return AdvertisedOption(name, kind, default, _number(found["min"]), _number(found["max"]), tuple(found["var"]),
                            line.strip())


def _number(words: list[str]) -> float | None:
    """The first word as a number, or None."""
    try:
        return float(words[0]) if words else None
    except ValueError:
        return None


def make_engine(spec: EngineSpec, startup_timeout: float = 10.0, *, game: str | None = None,
                rules: dict | None = None, io_log: Callable[[str, str, str], None] | None = None) -> ProcessEngine:
    """The driver for ``spec.protocol``: ours (``uci``), Hub or DXP; not started yet (``io_log``:
    ``ProcessEngine``'s hook for every line)."""
    driver = {"hub": HubEngineProcess, "dxp": DxpEngineProcess}.get(spec.protocol, EngineProcess)
    return driver(spec, startup_timeout, game=game, rules=rules, io_log=io_log)
