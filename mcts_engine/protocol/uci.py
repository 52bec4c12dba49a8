"""Our UCI/UGI-like dialect (docs/protocol.md): its commands and its output text.

``UciProtocol`` reads one line at a time, calls the session, and writes ``info``,
``bestmove``, ``response``, ``d`` and ``perft`` lines.  Bad input never ends the
loop: it gets one ``info string error: ...`` line and leaves the state unchanged.

Choices where the protocol leaves room (documented in the README too):

* ``go`` with no limit at all searches for 1 s (``Limits``); ``go infinite`` and
  ``go ponder`` search until ``stop`` (or ``ponderhit``), as UCI demands.
* A malformed ``go`` (an unknown word, a missing or bad number, an illegal
  ``searchmoves`` move) still gets exactly one ``bestmove``: one error line names the
  bad parts, which are left out, and the search runs with the rest (no limit left: 1 s).
* ``searchmoves``: exactly one move is played without a search; several restrict
  the agent's root moves (``Limits.searchmoves``).
* ``ucinewgame`` also resets the position to the start position.
* ``go mate <n>`` is accepted, and ``mate`` ignored with an ``info string``.
* A ``go`` number above its bound (``GO_BOUNDS``, from ``Limits``' ``MAX_*``: more than any
  search uses) is clamped to the bound, and one ``info string`` names it; a negative count
  or movetime is refused as malformed (a negative clock is a clock run out: 0).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .. import __version__, native
from ..engine import Limits, SearchInfo
from ..rules import RulesError, State
from ..rules.base import divide
from ..echo import one_line, short
from ..engine_options import DeclaredOption, OptionError
from .errors import ProtocolError
from .session import (ENGINE_AUTHOR, ENGINE_NAME, FinishedSearch, Session, build_position, move_texts,
                      side_name)

MAX_PERFT = 64            # deepest perft accepted (the command line's limit too)
GO_CLOCKS = {"wtime", "btime", "winc", "binc", "p1time", "p2time", "p1inc", "p2inc"}
GO_NUMBERS = GO_CLOCKS | {"movetime", "nodes", "depth", "movestogo", "mate"}
GO_KEYWORDS = GO_NUMBERS | {"infinite", "ponder", "searchmoves"}
QUERIES = ("gameover", "p1turn", "result", "fen", "moves", "rules")
MAX_MILLISECONDS = int(Limits.MAX_SECONDS * 1000)
GO_BOUNDS = {"nodes": Limits.MAX_NODES, "depth": Limits.MAX_DEPTH, "movestogo": Limits.MAX_MOVESTOGO,
             "mate": Limits.MAX_DEPTH, **{word: MAX_MILLISECONDS for word in GO_CLOCKS | {"movetime"}}}
"""The largest value of each ``go`` number; a larger one is clamped to it (and named)."""


def option_line(declared: DeclaredOption, default: object) -> str:
    """``option name X type T default D [min a max b] [var v ...]``, as ``uci`` lists an option
    (``default``: its default for the current game)."""
    opt = declared.option
    line = f"option name {opt.name} type {opt.protocol_type} default {opt.text(default) or '<empty>'}"
    if opt.kind == "spin":
        line += f" min {opt.low} max {opt.high}"
    return line + "".join(f" var {v}" for v in opt.choices)


def notation(position: State, move) -> str:
    """A move in our notation (the game's ``move_str``)."""
    return position.move_str(move)


def info_line(state: State, info: SearchInfo) -> str:
    """``info depth .. seldepth .. nodes .. nps .. [hashfull ..] time .. score .. wdl .. [pv ..]``."""
    score = f"mate {info.mate}" if info.mate is not None else f"cp {info.cp}"
    w, d, l = info.wdl
    hashfull = f" hashfull {info.hashfull}" if info.hashfull is not None else ""
    line = (f"info depth {int(info.depth)} seldepth {info.seldepth} nodes {info.nodes} nps {info.nps}{hashfull} "
            f"time {int(info.time * 1000)} score {score} wdl {w} {d} {l}")
    pv = move_texts(state, info.pv, notation)
    return line + (" pv " + " ".join(pv) if pv else "")


@dataclass
class GoCommand:
    """A parsed ``go``: its limits, whether to ponder, the ``searchmoves`` texts, whether ``mate``
    was asked, the ``problems`` of its malformed parts (each left out of the search) and the
    numbers ``clamped`` to their bound (``GO_BOUNDS``)."""

    limits: Limits
    ponder: bool = False
    searchmoves: list[str] = field(default_factory=list)
    mate: bool = False
    problems: list[str] = field(default_factory=list)
    clamped: list[str] = field(default_factory=list)

    def problems_text(self) -> str:
        """The one error line's text for the malformed parts, each left out of the search."""
        return "; ".join(self.problems) + " (left out: searching with the rest)"

    def clamped_text(self) -> str:
        """The one note's text for the numbers clamped to their bound."""
        return "; ".join(self.clamped)


@dataclass
class _GoTokens:
    """``go``'s arguments sorted: the numbers by keyword (within their bounds), the flags, the
    ``searchmoves`` texts, the problems, and the notes on clamped numbers."""

    numbers: dict[str, int] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    searchmoves: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    clamped: list[str] = field(default_factory=list)


def parse_go(args: list[str], colours: tuple[str, ...], mover: int) -> GoCommand:
    """``go`` arguments for the side ``mover`` (whose clock is ``p1``/``p2``, or its colour's
    ``w``/``b``).  Never raises: a malformed part (an unknown word, a missing or bad number)
    is named in ``problems`` and left out, and the search runs with the rest; a number above
    its bound is clamped to it and named in ``clamped``."""
    tokens = _go_tokens(args)
    numbers, flags = tokens.numbers, tokens.flags
    if "infinite" in flags:   # UCI: infinite = until stop, whatever else is given
        return GoCommand(Limits(infinite=True), "ponder" in flags, tokens.searchmoves, "mate" in numbers,
                         tokens.problems, tokens.clamped)
    limits = Limits(nodes=numbers.get("nodes"), depth=numbers.get("depth"),
                    movestogo=numbers.get("movestogo") or None)
    if "movetime" in numbers:
        limits.movetime = numbers["movetime"] / 1000.0
    white = colours[mover] == "W" if colours else mover == 0
    player, colour = ("p1" if mover == 0 else "p2"), ("w" if white else "b")
    clock = numbers.get(player + "time", numbers.get(colour + "time"))
    if clock is not None:
        limits.time_left = max(0, clock) / 1000.0
        limits.increment = max(0, numbers.get(player + "inc", numbers.get(colour + "inc", 0))) / 1000.0
    return GoCommand(limits, "ponder" in flags, tokens.searchmoves, "mate" in numbers, tokens.problems,
                     tokens.clamped)


def _go_tokens(args: list[str]) -> _GoTokens:
    """``go``'s arguments sorted into numbers, flags, searchmoves, problems and clamp notes."""
    out = _GoTokens()
    numbers, flags, searchmoves, problems = out.numbers, out.flags, out.searchmoves, out.problems
    i = 0
    while i < len(args):
        token = args[i].lower()
        if token in GO_NUMBERS:
            text = args[i + 1] if i + 1 < len(args) and args[i + 1].lower() not in GO_KEYWORDS else None
            try:
                value = _go_number(token, text)
            except ProtocolError as err:
                problems.append(str(err))
            else:
                numbers[token] = min(value, GO_BOUNDS[token])
                if value > GO_BOUNDS[token]:
                    out.clamped.append(f"go {token} {short(text)} is above the maximum {GO_BOUNDS[token]}: "
                                       "searching with the maximum")
            i += 1 if text is None else 2
        elif token in ("infinite", "ponder"):
            flags.add(token)
            i += 1
        elif token == "searchmoves":
            i += 1
            start = len(searchmoves)
            while i < len(args) and args[i].lower() not in GO_KEYWORDS:
                searchmoves.append(args[i])
                i += 1
            if len(searchmoves) == start:
                problems.append("go searchmoves needs at least one move")
        else:
            problems.append(f"go: unknown limit {short(args[i])!r}")
            i += 1
    if any(p.startswith("go: unknown") for p in problems):
        problems.append("limits: " + ", ".join(sorted(GO_KEYWORDS)))
    return out


def _go_number(token: str, text: str | None) -> int:
    """The integer after a ``go`` keyword; clocks may be negative (time already over)."""
    if text is None:
        raise ProtocolError(f"go {token} needs a number")
    try:
        value = int(text)
    except ValueError:
        raise ProtocolError(f"go {token}: {short(text)!r} is not an integer") from None
    if value < 0 and token not in GO_CLOCKS:
        raise ProtocolError(f"go {token}: {value} is negative")
    return value


class UciProtocol:
    """The UCI/UGI-like dialect over one engine session; also the session's output."""

    def __init__(self, write: Callable[[str], None]):
        self.write = write
        self.session = Session(self)

    # --- the session's output --------------------------------------------------------------
    def info(self, state: State, info: SearchInfo) -> None:
        """A progress report as an ``info`` line."""
        self.write(info_line(state, info))

    def finished(self, done: FinishedSearch) -> None:
        """The final ``info`` line (if new), then ``bestmove <move> [ponder <move>]``."""
        if done.info is not None:
            self.write(info_line(done.state, done.info))
        if done.move is None:
            self.write("bestmove 0000")
            return
        texts = move_texts(done.state, done.line(), notation)
        self.write(f"bestmove {texts[0]}" + (f" ponder {texts[1]}" if len(texts) > 1 else ""))

    def note(self, text: str) -> None:
        """An ``info string`` line."""
        self.write("info string " + one_line(text))

    def error(self, text: str) -> None:
        """An ``info string error:`` line."""
        self.write("info string error: " + one_line(text))

    # --- input -----------------------------------------------------------------------------
    def handle(self, line: str) -> None:
        """Process one input line; bad input gets one error line."""
        try:
            self.execute(line)
        except (ProtocolError, OptionError, RulesError) as err:
            self.error(str(err))

    def execute(self, line: str) -> None:
        """Process one input line; raises ProtocolError, OptionError or RulesError on bad input."""
        tokens = line.split()
        if not tokens:
            return
        handler = COMMANDS.get(tokens[0].lower())
        if handler is None:
            raise ProtocolError(f"unknown command {short(tokens[0])!r}; commands: " + ", ".join(sorted(COMMANDS)))
        handler(self, tokens[1:])

    # --- commands ------------------------------------------------------------------------------
    def cmd_uci(self, args: list[str], ok: str = "uciok") -> None:
        """uci: identify, list every option, then uciok."""
        self.write(f"id name {ENGINE_NAME} {__version__}{'' if native.available() else ' (python rules)'}")
        self.write(f"id author {ENGINE_AUTHOR}")
        defaults = self.session.options.defaults()
        for declared in self.session.options.options:
            self.write(option_line(declared, defaults[declared.key]))
        self.write(ok)

    def cmd_ugi(self, args: list[str]) -> None:
        """ugi: as uci, ending with ugiok."""
        self.cmd_uci(args, ok="ugiok")

    def cmd_isready(self, args: list[str]) -> None:
        """isready: readyok, also during a search."""
        self.write("readyok")

    def cmd_debug(self, args: list[str]) -> None:
        """debug on|off: accepted and ignored (UCI)."""
        if len(args) != 1 or args[0].lower() not in ("on", "off"):
            raise ProtocolError("debug takes on or off")

    def cmd_setoption(self, args: list[str]) -> None:
        """setoption name <name> [value <value>]: checked before a running search is stopped."""
        if not args or args[0].lower() != "name" or len(args) < 2:
            raise ProtocolError("setoption needs: setoption name <name> [value <value>]")
        lowered = [a.lower() for a in args]
        if "value" in lowered[1:]:
            cut = lowered.index("value", 1)
            name, value = " ".join(args[1:cut]), " ".join(args[cut + 1:])
        else:
            name, value = " ".join(args[1:]), None
        if not name:
            raise ProtocolError("setoption needs an option name")
        self.session.apply_option(self.session.check_option(name, value))

    def cmd_ucinewgame(self, args: list[str]) -> None:
        """ucinewgame / uginewgame: forget the tree and the game."""
        self.session.new_game()

    def cmd_position(self, args: list[str]) -> None:
        """position startpos|fen <fen> [moves ...]: a bad one leaves the position (and a search) alone."""
        if not args:
            raise ProtocolError("position needs startpos or fen <fen>, then optionally moves <m1> <m2> ...")
        lowered = [a.lower() for a in args]
        cut = lowered.index("moves") if "moves" in lowered else len(args)
        if lowered[0] == "startpos":
            if cut != 1:
                raise ProtocolError(f"position startpos: unexpected {short(' '.join(args[1:cut]))!r} "
                                    "(expected moves <m1> <m2> ...)")
            start = self.session.game.new_state()
        elif lowered[0] == "fen":
            fen = " ".join(args[1:cut])
            if not fen:
                raise ProtocolError("position fen needs a FEN")
            start = self.session.game.parse_fen(fen)
        else:
            raise ProtocolError(f"position: expected startpos or fen, got {short(args[0])!r}")
        self.session.set_position(build_position(start, args[cut + 1:]))

    def cmd_go(self, args: list[str]) -> None:
        """go [limits]: search in the background; exactly one bestmove follows, also after a
        malformed go (its bad parts are named in one error line and left out of the search)."""
        session = self.session
        session.check_idle()
        go = parse_go(args, session.game.colours, session.state.to_move)
        chosen = []
        for text in go.searchmoves:
            try:
                chosen.append(session.state.parse_move(text))
            except (RulesError, ValueError) as err:    # an illegal move, or a position the rules cannot read
                go.problems.append(f"go searchmoves: {err}")
        chosen = list(dict.fromkeys(chosen))
        if go.problems:
            self.error(go.problems_text())
        if go.clamped:
            self.note(go.clamped_text())
        forced = chosen[0] if len(chosen) == 1 else None
        if len(chosen) > 1:
            go.limits.searchmoves = chosen
        if go.mate:
            self.note("go mate is not supported; searching with the other limits")
        session.go(go.limits, go.ponder, forced)

    def cmd_stop(self, args: list[str]) -> None:
        """stop: end the search now (its bestmove follows); ignored with no search."""
        self.session.stop()

    def cmd_ponderhit(self, args: list[str]) -> None:
        """ponderhit: the pondered move was played."""
        self.session.ponderhit()

    def cmd_quit(self, args: list[str]) -> None:
        """quit: stop searching and end the loop."""
        self.session.shutdown()

    def cmd_query(self, args: list[str]) -> None:
        """query gameover|p1turn|result|fen|moves|rules: one response line."""
        if len(args) != 1 or args[0].lower() not in QUERIES:
            what = f"query {short(args[0])!r}: unknown; queries: " if len(args) == 1 else "query takes one of: "
            raise ProtocolError(what + ", ".join(QUERIES))
        state = self.session.state
        answer = {
            "gameover": lambda: "true" if state.outcome() is not None else "false",
            "p1turn": lambda: "true" if state.to_move == 0 else "false",
            "result": lambda: {None: "none", 1.0: "p1win", 0.0: "p2win"}.get(state.outcome(), "draw"),
            "fen": state.fen,
            "moves": lambda: " ".join(state.move_str(m) for m in state.legal_moves()),
            "rules": lambda: ",".join(f"{k}={v}" for k, v in self.session.game.options.items()),
        }[args[0].lower()]()
        self.write(f"response {answer}".rstrip())

    def cmd_d(self, args: list[str]) -> None:
        """d: the board, the FEN and the side to move."""
        state = self.session.state
        for row in state.board_text().splitlines():
            self.write(row)
        self.write(f"fen {state.fen()}")
        self.write(f"side to move: {side_name(self.session.game, state.to_move, numbered=True)}")

    def cmd_perft(self, args: list[str]) -> None:
        """perft <depth>: one line per root move with its count, then nodes N."""
        if len(args) != 1:
            raise ProtocolError(f"perft takes one depth (0..{MAX_PERFT})")
        try:
            depth = int(args[0])
        except ValueError:
            depth = -1
        if not 0 <= depth <= MAX_PERFT:
            raise ProtocolError(f"perft depth {short(args[0])!r} is not an integer in [0, {MAX_PERFT}]")
        total = 1 if depth == 0 else 0
        if depth > 0:
            for move, count in divide(self.session.game, self.session.state, depth):
                self.write(f"{move} {count}")
                total += count
        self.write(f"nodes {total}")


COMMANDS: dict[str, Callable[[UciProtocol, list[str]], None]] = {
    "uci": UciProtocol.cmd_uci,
    "ugi": UciProtocol.cmd_ugi,
    "isready": UciProtocol.cmd_isready,
    "debug": UciProtocol.cmd_debug,
    "setoption": UciProtocol.cmd_setoption,
    "ucinewgame": UciProtocol.cmd_ucinewgame,
    "uginewgame": UciProtocol.cmd_ucinewgame,
    "position": UciProtocol.cmd_position,
    "go": UciProtocol.cmd_go,
    "stop": UciProtocol.cmd_stop,
    "ponderhit": UciProtocol.cmd_ponderhit,
    "quit": UciProtocol.cmd_quit,
    "query": UciProtocol.cmd_query,
    "d": UciProtocol.cmd_d,
    "perft": UciProtocol.cmd_perft,
}
