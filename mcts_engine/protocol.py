"""The engine's text protocol (``../shared/PROTOCOL.md``): UCI/UGI-style lines on stdin/stdout.

``run()`` reads commands line by line and answers them; ``go`` starts a search in a
background thread while the loop keeps reading, so ``isready``, ``stop``,
``ponderhit``, ``query`` and ``quit`` are answered during a search.  Every output
line goes through one lock and is flushed.  Bad input never ends the loop: it gets
one ``info string error: ...`` line and leaves the engine's state unchanged.

Choices where the protocol leaves room (documented here, and in the README):

* ``go`` with no limit at all searches for 1 s (``search.Limits``); ``go infinite``
  and ``go ponder`` search until ``stop`` (or ``ponderhit``) even if the agent
  finishes early, as UCI demands, so exactly one ``bestmove`` follows the ``stop``.
* ``go ponder`` runs as an infinite search.  On ``ponderhit`` that search is
  stopped and a normal search with the ``go``'s clock limits starts from the same
  position; with ``TreeReuse`` (the default) it continues the same tree, so little
  is lost, and the clock starts at the ``ponderhit`` as UCI wants.
* A malformed ``go`` (unknown token, bad number, an illegal ``searchmoves`` move)
  is rejected with an error line and no search, like any malformed command.
* ``searchmoves``: the moves are validated; exactly one is played without a
  search; several restrict the agent's root moves (``Limits.searchmoves``).
* ``ucinewgame`` also resets the position to the start position.
* ``go mate <n>`` is accepted, and ``mate`` ignored with an ``info string``.

A session whose first line is ``hub`` speaks the Hub protocol v2 of draughts GUIs
instead (Scan's ``protocol.txt``): see ``HubDialect``.
"""
from __future__ import annotations

import math
import re
import sys
import threading
from dataclasses import dataclass
from typing import Callable, Iterable

from . import __version__
from .rules import get_game, list_games, parse_rule_options
from .rules.base import IllegalMove, RulesError, divide
from .agents import AGENTS, make_agent
from .mcts.agent import SearchInfo, SearchResult
from .mcts.limits import Limits
from .mcts.settings import FINAL_MOVES, MERGES, PARALLEL_MODES, PLAYOUTS, Settings
from .parallel import pool as parallel

ENGINE_NAME = "mcts-engine"
ENGINE_AUTHOR = "mcts-engine developers"
MAX_THREADS = 64         # the Threads option's maximum
MAX_ECHO = 200            # longest piece of client text quoted back in an error line
MAX_PERFT = 64            # deepest perft accepted (the command line's limit too)
JOIN_TIMEOUT = 10.0       # seconds to wait for a stopped search thread


class OptionError(ValueError):
    """A bad option name or value; the message names the allowed values or range."""


def _short(text: str, limit: int = MAX_ECHO) -> str:
    """Client text cut to ``limit`` characters for quoting in an error line."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


def _one_line(text: str, limit: int = 4 * MAX_ECHO) -> str:
    """A message as one output line of bounded length."""
    return _short(" ".join(str(text).split()), limit)


# --- options: the one table ----------------------------------------------------------------

def _real(low: float, high: float | None) -> Callable[[str, str], str]:
    """Validator of a string option that must hold a real number in [low, high]."""
    def check(name: str, value: str) -> str:
        try:
            x = float(value)
        except ValueError:
            x = math.nan
        if not math.isfinite(x) or x < low or (high is not None and x > high):
            allowed = f"a real number >= {low:g}" if high is None else f"a real number in [{low:g}, {high:g}]"
            raise OptionError(f"option {name} value {_short(value)!r} is not {allowed}")
        return value
    return check


@dataclass(frozen=True)
class Option:
    """One engine option as ``uci`` lists it."""

    name: str
    type: str                               # check | spin | combo | string | button
    default: object
    meaning: str
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()
    check: Callable[[str, str], str] | None = None   # string options: validate, return the value

    def uci_line(self) -> str:
        """``option name X type T default D [min a max b] [var v ...]``."""
        default = self.default
        if self.type == "check":
            default = "true" if default else "false"
        elif self.type == "string" and default == "":
            default = "<empty>"
        line = f"option name {self.name} type {self.type}"
        if self.type != "button":
            line += f" default {default}"
        if self.type == "spin":
            line += f" min {self.min} max {self.max}"
        for v in self.vars:
            line += f" var {v}"
        return line

    def parse(self, value: str | None):
        """The option's value from the text after ``value``; raises OptionError."""
        if self.type == "button":
            return None
        if self.type == "string":
            text = "" if value is None or value == "<empty>" else value
            return self.check(self.name, text) if self.check else text
        if value is None or value == "":
            raise OptionError(f"option {self.name} needs a value ({self.allowed()})")
        if self.type == "check":
            low = value.lower()
            if low not in ("true", "false"):
                raise OptionError(f"option {self.name} value {_short(value)!r} is not {self.allowed()}")
            return low == "true"
        if self.type == "spin":
            try:
                number = int(value)
            except ValueError:
                number = None
            if number is None or not self.min <= number <= self.max:
                raise OptionError(f"option {self.name} value {_short(value)!r} is not {self.allowed()}")
            return number
        # combo
        for v in self.vars:
            if v.lower() == value.lower():
                return v
        raise OptionError(f"option {self.name} value {_short(value)!r} is not {self.allowed()}")

    def allowed(self) -> str:
        """The allowed values, in words."""
        if self.type == "check":
            return "true or false"
        if self.type == "spin":
            return f"an integer in [{self.min}, {self.max}]"
        if self.type == "combo":
            return "one of " + ", ".join(self.vars)
        return "a string"


def option_table() -> tuple[Option, ...]:
    """Every engine option, in the order ``uci`` lists them."""
    return (
        Option("UCI_Variant", "combo", "english", "the game: every registered game and variant",
               vars=tuple(list_games())),
        Option("Threads", "spin", 1, "searchers: this process plus Threads-1 worker processes (1 = none)",
               min=1, max=MAX_THREADS),
        Option("Parallel", "combo", "root", "root = a tree per searcher, merged at the end; tree = one "
               "shared tree, playouts farmed out in batches (for games with slow playouts)",
               vars=PARALLEL_MODES),
        Option("ParallelMerge", "combo", "visits", "root mode: visits = summed root visits, vote = the "
               "move most searchers chose", vars=MERGES),
        Option("Seed", "spin", 0, "random seed; 0 = a fresh seed per game; equal seeds + nodes = equal output",
               min=0, max=2147483647),
        Option("Agent", "combo", "uct", "uct (MCTS), random (uniform move), greedy (one-ply material)",
               vars=AGENTS),
        Option("UCT_C", "string", "1.0", "UCB1 exploration constant, a real number >= 0",
               check=_real(0.0, None)),
        Option("Playout", "combo", "random", "playout policy", vars=PLAYOUTS),
        Option("PlayoutDepth", "spin", 0, "0 = playouts to the end; N = stop after N plies and evaluate",
               min=0, max=10000),
        Option("Epsilon", "string", "0.1", "random-move rate of the greedy-eps and mast playouts, in [0, 1]",
               check=_real(0.0, 1.0)),
        Option("TreeReuse", "check", True, "keep the subtree when the next position extends the last"),
        Option("Solver", "check", True, "MCTS-Solver: prove wins and losses, report them as mate scores"),
        Option("FinalMove", "combo", "robust", "robust = most visited root move, max = best mean",
               vars=FINAL_MOVES),
        Option("MoveOverhead", "spin", 30, "milliseconds kept back per move for communication",
               min=0, max=5000),
        Option("Ponder", "check", False, "the GUI may send go ponder (the engine ponders only when told)"),
        Option("Rules", "string", "", "rule options key=value,key=value (validated by building the game)"),
    )


# --- the engine ------------------------------------------------------------------------------

class _Job:
    """One ``go``: its search thread and how it may be interrupted."""

    def __init__(self, state, limits: Limits, ponder: bool, forced, history: tuple, agent):
        self.state = state
        self.limits = limits
        self.ponder = ponder          # pondering now (until ponderhit or stop)
        self.forced = forced          # a move to play without searching (single searchmoves)
        self.history = history
        self.agent = agent
        self.lock = threading.Lock()
        self.stop_event = threading.Event()
        self.stopped = False          # a real stop: stop, quit, position, setoption, ...
        self.hit = False              # ponderhit received
        self.done = False             # bestmove decided (the next go may start)
        self.thread: threading.Thread | None = None
        self.last_info: SearchInfo | None = None


class Engine:
    """The protocol's state and its commands; ``handle(line)`` processes one input line."""

    def __init__(self, write: Callable[[str], None]):
        self._write = write
        self.options = {opt.name.lower(): opt for opt in option_table()}
        self.values = {opt.name.lower(): opt.default for opt in self.options.values()}
        self.game = get_game(self.values["uci_variant"])
        self._set_start()
        self.agent = None
        self.agent_key = None
        self.job: _Job | None = None
        self.dialect = None           # HubDialect once the first line is "hub"
        self.seen_first = False
        self.quit = False

    # --- output --------------------------------------------------------------------------
    def out(self, line: str) -> None:
        """Write one output line (flushed, under the output lock)."""
        self._write(line)

    def error(self, what: str) -> None:
        """Report a bad input as one error line; state unchanged."""
        if self.dialect is not None:
            self.dialect.error(what)
        else:
            self.out("info string error: " + _one_line(what))

    def note(self, what: str) -> None:
        """Report something as an info string."""
        if self.dialect is not None:
            self.dialect.note(what)
        else:
            self.out("info string " + _one_line(what))

    # --- the position ------------------------------------------------------------------
    def _set_start(self) -> None:
        self.state = self.game.new_state()
        self.start_fen = self.state.fen()
        self.moves: list[str] = []

    @staticmethod
    def build_position(start, moves: Iterable[str], parse_move=None) -> tuple:
        """(state, start FEN, moves in notation): ``start`` (a State) after ``moves``.

        Raises RulesError naming a bad move; changes nothing in the engine.
        """
        parse_move = parse_move or (lambda state, text: state.parse_move(text))
        state = start
        start_fen = state.fen()
        played = []
        for text in moves:
            try:
                move = parse_move(state, text)
            except IllegalMove as err:
                raise IllegalMove(f"move {_short(text)!r} (number {len(played) + 1}): {err}") from None
            played.append(state.move_str(move))
            state.play(move)
        return state, start_fen, played

    def set_position(self, position: tuple) -> None:
        """Make a built position current, stopping any search first."""
        self.stop_search()
        self.state, self.start_fen, self.moves = position

    def history(self) -> tuple:
        """The current position as (start FEN, move, move, ...), for tree reuse."""
        return (self.start_fen, *self.moves)

    # --- options -----------------------------------------------------------------------
    def check_option(self, name: str, value: str | None) -> tuple[str, object, object]:
        """Validate ``setoption``: (key, value, new game or None); raises OptionError, changes nothing."""
        key = " ".join(name.split()).lower()
        opt = self.options.get(key)
        if opt is None:
            raise OptionError(f"unknown option {_short(name)!r}; options: "
                              + ", ".join(o.name for o in self.options.values()))
        if key == "uci_variant" and value is not None:
            # accept aliases (american, shashki, ...) as their registered name
            try:
                value = get_game(value).name
            except RulesError:
                pass
        parsed = opt.parse(value)
        game = None
        if key in ("uci_variant", "rules"):
            variant = parsed if key == "uci_variant" else self.values["uci_variant"]
            rules = parsed if key == "rules" else self.values["rules"]
            try:
                game = get_game(variant, **parse_rule_options(rules))
            except RulesError as err:
                what = (f"Rules {_short(rules)!r}" if key == "rules"
                        else f"UCI_Variant {variant} with Rules {_short(rules)!r}")
                raise OptionError(f"option {opt.name}: {what} rejected: {err}; the previous rules stay") from None
        return key, parsed, game

    def apply_option(self, change: tuple[str, object, object]) -> None:
        """Apply a checked option; a new game resets the position to its start."""
        key, parsed, game = change
        self.values[key] = parsed
        if key == "threads":   # start (or stop) the worker processes now, not at the next go
            for text in parallel.resize_pool(parsed - 1):
                self.note(text)
        if game is not None:
            self.game = game
            self._set_start()
            self.agent = None

    def set_option(self, name: str, value: str | None) -> None:
        """Check and apply ``setoption`` (no search may be running)."""
        self.apply_option(self.check_option(name, value))

    def settings(self) -> Settings:
        """The agent settings the current option values give."""
        v = self.values
        return Settings(agent=v["agent"], uct_c=float(v["uct_c"]), playout=v["playout"],
                        playout_depth=v["playoutdepth"], epsilon=float(v["epsilon"]),
                        tree_reuse=v["treereuse"], solver=v["solver"], final_move=v["finalmove"],
                        seed=v["seed"], move_overhead=v["moveoverhead"] / 1000.0,
                        threads=v["threads"], parallel=v["parallel"], merge=v["parallelmerge"])

    def get_agent(self):
        """The agent for the current game and options (built when they changed)."""
        settings = self.settings()
        key = (id(self.game), self.game.name, settings)
        if self.agent is None or self.agent_key != key:
            try:
                self.agent = make_agent(self.game, settings)
            except Exception as err:  # e.g. an agent module that cannot be imported
                self.error(f"cannot make agent {settings.agent}: {err}; playing random moves instead")
                self.agent = make_agent(self.game, Settings(agent="random", seed=settings.seed))
            self.agent_key = key
            if hasattr(self.agent, "on_note"):
                self.agent.on_note = self.note
        return self.agent

    def new_game(self) -> None:
        """Forget the search tree and history; back to the start position."""
        agent = self.get_agent()
        agent.new_game()
        self._set_start()

    # --- the search --------------------------------------------------------------------
    def searching(self) -> bool:
        """Whether a search is running (its bestmove not yet sent)."""
        return self.job is not None and not self.job.done

    def stop_search(self) -> None:
        """Stop the search (it prints its bestmove) and wait for its thread."""
        job = self.job
        if job is None:
            return
        with job.lock:
            job.stopped = True
            job.stop_event.set()
        if job.thread is not None:
            job.thread.join(JOIN_TIMEOUT)
        self.job = None

    def ponderhit(self) -> None:
        """Turn the running ponder search into a normal search with its clock limits."""
        job = self.job
        if job is None:
            return
        with job.lock:
            if job.ponder and not job.hit and not job.done:
                job.hit = True
                job.stop_event.set()

    def start_search(self, limits: Limits, ponder: bool = False, forced=None) -> None:
        """Start a search of the current position in a background thread."""
        if self.job is not None:      # a finished search whose thread may still be exiting
            if self.job.thread is not None:
                self.job.thread.join(JOIN_TIMEOUT)
            self.job = None
        agent = self.get_agent()
        job = _Job(self.state.copy(), limits, ponder, forced, self.history(), agent)
        job.thread = threading.Thread(target=self._search_thread, args=(job,), name="search", daemon=True)
        self.job = job
        job.thread.start()

    def _search_thread(self, job: _Job) -> None:
        result = None
        try:
            while True:
                pondering = job.ponder
                with job.lock:
                    event = job.stop_event
                limits = Limits(infinite=True) if pondering else job.limits
                if job.forced is not None:
                    result = SearchResult(job.forced, None, SearchInfo(nodes=0, pv=[job.forced]))
                else:
                    result = job.agent.search(job.state.copy(), limits, event,
                                              lambda info: self._on_info(job, info), job.history)
                if pondering or limits.infinite:
                    event.wait()      # UCI: no bestmove before stop (or ponderhit) in these modes
                with job.lock:
                    if pondering and job.hit and not job.stopped:
                        job.ponder = False
                        job.stop_event = threading.Event()
                        continue      # ponderhit: a normal search with the clock limits
                break
        except Exception as err:  # never let a search failure lose the bestmove
            self.error(f"search failed: {type(err).__name__}: {err}")
            result = None
        self._finish(job, result)

    def _on_info(self, job: _Job, info: SearchInfo) -> None:
        job.last_info = info
        self.out(self.format_info(job.state, info))

    def _finish(self, job: _Job, result: SearchResult | None) -> None:
        state = job.state
        legal = state.legal_moves()
        move = result.move if result is not None else None
        if move not in legal:
            if result is not None:
                self.error(f"search returned an illegal move {move!r}; playing a legal one")
            move = legal[0] if legal else None
        ponder = None
        if result is not None and move is not None:
            info = result.info
            if info is not None and (job.last_info is None or (info is not job.last_info and info != job.last_info)):
                self.out(self.format_info(state, info))
            if result.ponder is not None:
                after = state.copy()
                after.play(move)
                if result.ponder in after.legal_moves():
                    ponder = after.move_str(result.ponder)
        text = state.move_str(move) if move is not None else "0000"
        with job.lock:
            job.done = True
        self.out(self.format_bestmove(state, move, text, ponder))

    # --- formatting (the Hub dialect overrides) -----------------------------------------
    def pv_strings(self, state, pv) -> list[str]:
        """PV moves in notation along a copy of ``state``, up to the first illegal one."""
        walker = state.copy()
        out = []
        for move in pv:
            if move not in walker.legal_moves():
                break
            out.append(walker.move_str(move))
            walker.play(move)
        return out

    def format_info(self, state, info: SearchInfo) -> str:
        """A SearchInfo as an info line (or the Hub dialect's)."""
        if self.dialect is not None:
            return self.dialect.format_info(state, info)
        score = f"mate {info.mate}" if info.mate is not None else f"cp {info.cp}"
        w, d, l = info.wdl
        line = (f"info depth {int(info.depth)} seldepth {info.seldepth} nodes {info.nodes} nps {info.nps} "
                f"time {int(info.time * 1000)} score {score} wdl {w} {d} {l}")
        pv = self.pv_strings(state, info.pv)
        if pv:
            line += " pv " + " ".join(pv)
        return line

    def format_bestmove(self, state, move, text: str, ponder: str | None) -> str:
        """The bestmove line (or the Hub dialect's done line)."""
        if self.dialect is not None:
            return self.dialect.format_done(state, move, ponder)
        return f"bestmove {text}" + (f" ponder {ponder}" if ponder else "")

    # --- the loop --------------------------------------------------------------------------
    def handle(self, line: str) -> None:
        """Process one input line."""
        tokens = line.split()
        if not tokens:
            return
        if not self.seen_first:
            self.seen_first = True
            if tokens[0].lower() == "hub":
                self.dialect = HubDialect(self)
        if self.dialect is not None:
            self.dialect.handle(line, tokens)
            return
        command = tokens[0].lower()
        handler = COMMANDS.get(command)
        if handler is None:
            self.error(f"unknown command {_short(tokens[0])!r}; commands: " + ", ".join(sorted(COMMANDS)))
            return
        try:
            handler(self, tokens[1:], line)
        except (OptionError, RulesError) as err:
            self.error(str(err))

    def shutdown(self) -> None:
        """Stop any search and end the loop."""
        self.quit = True
        self.stop_search()
        parallel.close_pool()

    # --- commands ---------------------------------------------------------------------
    def cmd_uci(self, args, line, ugi: bool = False) -> None:
        """uci / ugi: identify, list every option, then uciok / ugiok."""
        self.out(f"id name {ENGINE_NAME} {__version__}")
        self.out(f"id author {ENGINE_AUTHOR}")
        for opt in self.options.values():
            self.out(opt.uci_line())
        self.out("ugiok" if ugi else "uciok")

    def cmd_ugi(self, args, line) -> None:
        """ugi: as uci, ending with ugiok."""
        self.cmd_uci(args, line, ugi=True)

    def cmd_isready(self, args, line) -> None:
        """isready: readyok, also during a search."""
        self.out("readyok")

    def cmd_debug(self, args, line) -> None:
        """debug on|off: accepted and ignored (UCI)."""
        if len(args) != 1 or args[0].lower() not in ("on", "off"):
            self.error("debug takes on or off")

    def cmd_setoption(self, args, line) -> None:
        """setoption name <name> [value <value>]: check, then apply (stopping a search first)."""
        if not args or args[0].lower() != "name" or len(args) < 2:
            raise OptionError("setoption needs: setoption name <name> [value <value>]")
        lowered = [a.lower() for a in args]
        if "value" in lowered[1:]:
            cut = lowered.index("value", 1)
            name, value = " ".join(args[1:cut]), " ".join(args[cut + 1:])
        else:
            name, value = " ".join(args[1:]), None
        if not name:
            raise OptionError("setoption needs an option name")
        change = self.check_option(name, value)   # a bad option leaves even a search alone
        self.stop_search()
        self.apply_option(change)

    def cmd_ucinewgame(self, args, line) -> None:
        """ucinewgame / uginewgame: forget the tree and the game."""
        self.stop_search()
        self.new_game()

    def cmd_position(self, args, line) -> None:
        """position startpos|fen <fen> [moves ...]: set the position, or an error naming the bad part."""
        if not args:
            raise RulesError("position needs startpos or fen <fen>, then optionally moves <m1> <m2> ...")
        lowered = [a.lower() for a in args]
        kind = lowered[0]
        cut = lowered.index("moves") if "moves" in lowered else len(args)
        moves = args[cut + 1:]
        if kind == "startpos":
            if cut != 1:
                raise RulesError(f"position startpos: unexpected {_short(' '.join(args[1:cut]))!r} "
                                 "(expected moves <m1> <m2> ...)")
            start = self.game.new_state()
        elif kind == "fen":
            fen = " ".join(args[1:cut])
            if not fen:
                raise RulesError("position fen needs a FEN")
            start = self.game.parse_fen(fen)
        else:
            raise RulesError(f"position: expected startpos or fen, got {_short(args[0])!r}")
        self.set_position(self.build_position(start, moves))   # a bad one leaves even a search alone

    def parse_go(self, args) -> tuple[Limits, bool, list[str]] | None:
        """``go`` arguments as (limits, ponder, searchmoves); raises RulesError when malformed."""
        numbers: dict[str, int] = {}
        flags = set()
        searchmoves: list[str] = []
        i = 0
        while i < len(args):
            token = args[i].lower()
            if token in GO_NUMBERS:
                if i + 1 >= len(args):
                    raise RulesError(f"go {token} needs a number")
                try:
                    value = int(args[i + 1])
                except ValueError:
                    raise RulesError(f"go {token}: {_short(args[i + 1])!r} is not an integer") from None
                if value < 0 and token not in GO_CLOCKS:
                    raise RulesError(f"go {token}: {value} is negative")
                numbers[token] = value
                i += 2
            elif token in ("infinite", "ponder"):
                flags.add(token)
                i += 1
            elif token == "searchmoves":
                i += 1
                while i < len(args) and args[i].lower() not in GO_KEYWORDS:
                    searchmoves.append(args[i])
                    i += 1
                if not searchmoves:
                    raise RulesError("go searchmoves needs at least one move")
            else:
                raise RulesError(f"go: unknown limit {_short(args[i])!r}; limits: " + ", ".join(sorted(GO_KEYWORDS)))
        limits = Limits(infinite="infinite" in flags)
        if "movetime" in numbers:
            limits.movetime = numbers["movetime"] / 1000.0
        if "nodes" in numbers:
            limits.nodes = numbers["nodes"]
        if "depth" in numbers:
            limits.depth = numbers["depth"]
        if numbers.get("movestogo"):
            limits.movestogo = numbers["movestogo"]
        mover = self.state.to_move
        colours = getattr(self.game, "colours", None)
        white = colours[mover] == "W" if colours else mover == 0
        player, colour = ("p1" if mover == 0 else "p2"), ("w" if white else "b")
        clock = numbers.get(player + "time", numbers.get(colour + "time"))
        if clock is not None:
            limits.time_left = max(0, clock) / 1000.0
            limits.increment = max(0, numbers.get(player + "inc", numbers.get(colour + "inc", 0))) / 1000.0
        if "mate" in numbers:
            self.note("go mate is not supported; searching with the other limits")
        if limits.infinite:   # UCI: infinite = until stop, whatever else is given
            limits = Limits(infinite=True)
        return limits, "ponder" in flags, searchmoves

    def cmd_go(self, args, line) -> None:
        """go [limits]: search in the background; exactly one bestmove follows."""
        if self.searching():
            self.error("already searching; send stop first (go ignored)")
            return
        limits, ponder, searchmoves = self.parse_go(args)
        forced = None
        if searchmoves:
            chosen = []
            for text in searchmoves:
                try:
                    chosen.append(self.state.parse_move(text))
                except IllegalMove as err:
                    raise RulesError(f"go searchmoves: {err}") from None
            chosen = list(dict.fromkeys(chosen))
            if len(chosen) == 1:
                forced = chosen[0]
            else:
                limits.searchmoves = chosen
        outcome = self.state.outcome()
        if outcome is not None:
            why = {1.0: "the first player has won", 0.0: "the second player has won"}.get(outcome, "it is a draw")
            self.note(f"the game is over ({why}): no move to search")
            self.out(self.format_bestmove(self.state, None, "0000", None))
            return
        self.start_search(limits, ponder, forced)

    def cmd_stop(self, args, line) -> None:
        """stop: end the search now (its bestmove follows); ignored with no search."""
        self.stop_search()

    def cmd_ponderhit(self, args, line) -> None:
        """ponderhit: the pondered move was played."""
        self.ponderhit()

    def cmd_quit(self, args, line) -> None:
        """quit: stop searching and end the loop."""
        self.shutdown()

    def cmd_query(self, args, line) -> None:
        """query gameover|p1turn|result|fen|moves|rules: one response line."""
        if len(args) != 1:
            raise RulesError("query takes one of: " + ", ".join(QUERIES))
        what = args[0].lower()
        state = self.state
        if what == "gameover":
            answer = "true" if state.outcome() is not None else "false"
        elif what == "p1turn":
            answer = "true" if state.to_move == 0 else "false"
        elif what == "result":
            answer = {None: "none", 1.0: "p1win", 0.0: "p2win"}.get(state.outcome(), "draw")
        elif what == "fen":
            answer = state.fen()
        elif what == "moves":
            answer = " ".join(state.move_str(m) for m in state.legal_moves())
        elif what == "rules":
            answer = ",".join(f"{k}={v}" for k, v in getattr(self.game, "options", {}).items())
        else:
            raise RulesError(f"query {_short(args[0])!r}: unknown; queries: " + ", ".join(QUERIES))
        self.out(f"response {answer}".rstrip())

    def side_name(self, state) -> str:
        """The side to move as a name (colour and player)."""
        player = "p1 (first player)" if state.to_move == 0 else "p2 (second player)"
        colours = getattr(self.game, "colours", None)
        if colours:
            colour = {"W": "White", "B": "Black"}.get(colours[state.to_move], colours[state.to_move])
            return f"{colour}, {player}"
        return player

    def cmd_d(self, args, line) -> None:
        """d: the board, the FEN and the side to move."""
        state = self.state
        if hasattr(state, "board_text"):
            for row in state.board_text().splitlines():
                self.out(row)
        self.out(f"fen {state.fen()}")
        self.out(f"side to move: {self.side_name(state)}")

    def cmd_perft(self, args, line) -> None:
        """perft <depth>: one line per root move with its count, then nodes N."""
        if len(args) != 1:
            raise RulesError(f"perft takes one depth (0..{MAX_PERFT})")
        try:
            depth = int(args[0])
        except ValueError:
            depth = -1
        if not 0 <= depth <= MAX_PERFT:
            raise RulesError(f"perft depth {_short(args[0])!r} is not an integer in [0, {MAX_PERFT}]")
        total = 0
        if depth == 0:
            total = 1
        else:
            for move, count in divide(self.game, self.state, depth):
                self.out(f"{move} {count}")
                total += count
        self.out(f"nodes {total}")


GO_CLOCKS = {"wtime", "btime", "winc", "binc", "p1time", "p2time", "p1inc", "p2inc"}
GO_NUMBERS = GO_CLOCKS | {"movetime", "nodes", "depth", "movestogo", "mate"}
GO_KEYWORDS = GO_NUMBERS | {"infinite", "ponder", "searchmoves"}
QUERIES = ("gameover", "p1turn", "result", "fen", "moves", "rules")

COMMANDS: dict[str, Callable] = {
    "uci": Engine.cmd_uci,
    "ugi": Engine.cmd_ugi,
    "isready": Engine.cmd_isready,
    "debug": Engine.cmd_debug,
    "setoption": Engine.cmd_setoption,
    "ucinewgame": Engine.cmd_ucinewgame,
    "uginewgame": Engine.cmd_ucinewgame,
    "position": Engine.cmd_position,
    "go": Engine.cmd_go,
    "stop": Engine.cmd_stop,
    "ponderhit": Engine.cmd_ponderhit,
    "quit": Engine.cmd_quit,
    "query": Engine.cmd_query,
    "d": Engine.cmd_d,
    "perft": Engine.cmd_perft,
}


# --- the Hub dialect ---------------------------------------------------------------------------

_HUB_ARG = re.compile(r'([^\s=]+)(?:=("(?:[^"]*)"|\S*))?')


def hub_args(text: str) -> dict[str, str]:
    """``a=1 b="x y" flag`` -> {"a": "1", "b": "x y", "flag": ""}."""
    out = {}
    for m in _HUB_ARG.finditer(text):
        value = m.group(2) or ""
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        out[m.group(1)] = value
    return out


def _hub_quote(value: str) -> str:
    value = str(value).replace('"', "'")
    return f'"{value}"' if (not value or any(c in value for c in ' ="')) else value


HUB_BOARDS = {50: "international", 32: "english", 72: "canadian"}   # squares -> usual numbered game


class HubDialect:
    """Hub protocol v2 (Scan 3.0, Hub 2.0, pydraughts' ``HubEngine``) on the same engine.

    Parameters are the engine options (``variant`` is ``UCI_Variant``); ``pos`` takes
    Hub's position string (side to move + one of ``w b W B e`` per square in
    numeric order; numeric-notation games only) or our PDN FEN; moves are read in
    Hub notation (captures as ``from x to x captured...``) or ours; ``done`` and
    ``info pv`` write captures in Hub notation.  Unknown commands are ignored, as
    Hub asks; bad arguments get ``error message="..."``.
    """

    def __init__(self, engine: Engine):
        self.engine = engine
        self.limits = Limits()
        # Hub is the 10x10 GUIs' protocol ("normal" = international): start there
        engine.set_option("UCI_Variant", "international")

    # output
    def error(self, what: str) -> None:
        """Report a bad input as one error line; state unchanged."""
        self.engine.out(f"error message={_hub_quote(_one_line(what))}")

    def note(self, what: str) -> None:
        """Report something as an info string."""
        self.engine.out(f"info message={_hub_quote(_one_line(what))}")

    # notation
    def move_text(self, state, move) -> str:
        """A move in Hub notation (captures: from x to x captured ...)."""
        game = self.engine.game
        frm, to, cap = move[0], move[1], move[2] if len(move) > 2 else 0
        if not cap or not hasattr(game, "square_name"):
            return state.move_str(move)
        caps, bits = [], cap
        while bits:
            low = bits & -bits
            caps.append(game.square_name(low))
            bits ^= low
        caps.sort(key=lambda s: (len(s), s))
        return "x".join([game.square_name(frm), game.square_name(to)] + caps)

    def parse_move(self, state, text: str):
        """A move from Hub notation (or ours)."""
        game = self.engine.game
        parts = [p for p in text.lower().split("x")]
        if len(parts) > 2 and hasattr(game, "parse_square") and all(parts):
            masks = [game.parse_square(p) for p in parts]
            if None not in masks:
                cap = 0
                for m in masks[2:]:
                    cap |= m
                hits = [m for m in state.legal_moves() if m[0] == masks[0] and m[1] == masks[1] and m[2] == cap]
                if len(hits) == 1:
                    return hits[0]
        return state.parse_move(text)

    def parse_position(self, text: str):
        """A position from Hub's one-letter-per-square text (or our FEN)."""
        game = self.engine.game
        if ":" in text or not hasattr(game, "name_of"):
            return game.parse_fen(text)
        names = sorted(game.name_of.values(), key=lambda s: (int(s) if s.isdigit() else 0, s))
        squares = len(text) - 1
        if squares != len(names) and squares in HUB_BOARDS and text[:1] in ("W", "B"):
            # a client that never set the variant: take the usual game of that board size
            self.engine.set_option("UCI_Variant", HUB_BOARDS[squares])
            game = self.engine.game
            names = sorted(game.name_of.values(), key=lambda s: (int(s) if s.isdigit() else 0, s))
        if not all(n.isdigit() for n in names):
            raise RulesError(f"Hub position strings need numbered squares; {game.name} uses names: "
                             "send our FEN (e.g. W:Wa1,c1:Bh8) instead")
        if len(text) != len(names) + 1 or text[0] not in "WB" or any(c not in "wbWBe" for c in text[1:]):
            raise RulesError(f"bad Hub position {_short(text)!r}: expected W or B then {len(names)} of w b W B e")
        lists = {"W": [], "B": []}
        for name, c in zip(names, text[1:]):
            if c != "e":
                lists[c.upper()].append(("K" if c.isupper() else "") + name)
        return game.parse_fen(f"{text[0]}:W{','.join(lists['W'])}:B{','.join(lists['B'])}")

    def format_info(self, state, info: SearchInfo) -> str:
        """A SearchInfo as an info line (or the Hub dialect's)."""
        if info.mate is not None:
            plies = max(1, 2 * abs(info.mate) - (1 if info.mate > 0 else 0))
            score = (10000 - plies) / 100 * (1 if info.mate > 0 else -1)
        else:
            score = info.cp / 100
        walker, pv = state.copy(), []
        for move in info.pv:
            if move not in walker.legal_moves():
                break
            pv.append(self.move_text(walker, move))
            walker.play(move)
        nps = info.nps / 1e6
        return (f"info depth={max(1, round(info.depth))} mean-depth={info.depth:.1f} score={score:.2f} "
                f"nodes={info.nodes} time={info.time:.3f} nps={nps:.3f} pv={_hub_quote(' '.join(pv))}")

    def format_done(self, state, move, ponder: str | None) -> str:
        """The Hub done line: done move=... [ponder=...]."""
        if move is None:
            return "done move=0000"
        line = f"done move={self.move_text(state, move)}"
        if ponder:
            after = state.copy()
            after.play(move)
            try:
                line += f" ponder={self.move_text(after, after.parse_move(ponder))}"
            except RulesError:
                pass
        return line

    # commands
    def handle(self, line: str, tokens: list[str]) -> None:
        """Process one Hub input line."""
        e = self.engine
        command = tokens[0].lower()
        args = hub_args(line.strip()[len(tokens[0]):])
        try:
            if command == "hub":
                e.out(f"id name={ENGINE_NAME} version={__version__} author={_hub_quote(ENGINE_AUTHOR)}")
                for opt in e.options.values():
                    e.out(self.param_line(opt))
                e.out("wait")
            elif command == "set-param":
                name = args.get("name", "")
                change = e.check_option("UCI_Variant" if name.lower() == "variant" else name, args.get("value"))
                e.stop_search()
                e.apply_option(change)
            elif command == "init":
                e.get_agent()
                e.out("ready")
            elif command == "new-game":
                e.stop_search()
                e.new_game()
            elif command == "ping":
                e.out("pong")
            elif command == "pos":
                start = self.parse_position(args.get("pos", "")) if args.get("pos") else e.game.new_state()
                e.set_position(e.build_position(start, args.get("moves", "").split(), self.parse_move))
            elif command == "level":
                self.level(args)
            elif command == "go":
                self.go(args)
            elif command == "stop":
                e.stop_search()
            elif command == "ponder-hit":
                e.ponderhit()
            elif command == "quit":
                e.shutdown()
            # anything else: ignored, as the Hub protocol asks
        except (OptionError, RulesError) as err:
            self.error(str(err))

    def param_line(self, opt: Option) -> str:
        """An option as a Hub param line."""
        name = "variant" if opt.name == "UCI_Variant" else opt.name
        kind = {"check": "bool", "spin": "int", "combo": "enum"}.get(opt.type, "string")
        if opt.name in ("UCT_C", "Epsilon"):
            kind = "real"
        value = self.engine.values[opt.name.lower()]
        if opt.type == "check":
            value = "true" if value else "false"
        line = f"param name={name} value={_hub_quote(str(value))} type={kind}"
        if opt.type == "spin":
            line += f" min={opt.min} max={opt.max}"
        if opt.type == "combo":
            line += f" values={_hub_quote(' '.join(opt.vars))}"
        return line

    def level(self, args: dict[str, str]) -> None:
        """level ...: the Hub time/depth limits for the next go."""
        def number(key, kind=float):
            try:
                value = kind(args[key])
            except ValueError:
                raise RulesError(f"level {key}={_short(args[key])!r} is not a number") from None
            if not (isinstance(value, int) or math.isfinite(value)) or value < 0:
                raise RulesError(f"level {key}={_short(args[key])!r} is out of range")
            return value
        limits = Limits(infinite="infinite" in args)
        if "depth" in args:
            limits.depth = number("depth", int)
        if "nodes" in args:
            limits.nodes = number("nodes", int)
        if "move-time" in args:
            limits.movetime = number("move-time")
        if "time" in args:
            limits.time_left = number("time")
            limits.increment = number("inc") if "inc" in args else 0.0
            if "moves" in args:
                limits.movestogo = number("moves", int) or None
        self.limits = limits

    def go(self, args: dict[str, str]) -> None:
        """go think|ponder|analyze: start a Hub search."""
        e = self.engine
        if e.searching():
            raise RulesError("already searching (go ignored)")
        if e.state.outcome() is not None:
            self.note("the game is over: no move to search")
            e.out("done move=0000")
            return
        ponder = "ponder" in args
        limits = self.limits
        if "analyze" in args and not (limits.movetime or limits.nodes or limits.depth or limits.time_left):
            limits = Limits(infinite=True)
        e.start_search(limits, ponder=ponder)


# --- the loop ----------------------------------------------------------------------------------

def _line_reader(stdin) -> Callable[[], str | None]:
    """A function returning the next input line (decoded leniently), or None at end of input."""
    raw = getattr(stdin, "buffer", None)
    if raw is not None:
        def read() -> str | None:
            data = raw.readline()
            return data.decode("utf-8", errors="replace") if data else None
    else:
        def read() -> str | None:
            data = stdin.readline()
            return data if data else None
    return read


def run(stdin=None, stdout=None) -> int:
    """Speak the protocol on ``stdin``/``stdout`` until ``quit`` or end of input; return 0."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    lock = threading.Lock()
    broken = False

    def write(line: str) -> None:
        nonlocal broken
        with lock:
            if broken:
                return
            try:
                stdout.write(line + "\n")
                stdout.flush()
            except (BrokenPipeError, OSError, ValueError):
                broken = True   # the reader is gone; keep going until quit or end of input

    engine = Engine(write)
    read = _line_reader(stdin)
    # The reading thread waits for the GIL while the search thread runs; hand it over
    # after 1 ms instead of 5 so that stop / isready are answered at once.
    sys.setswitchinterval(0.001)
    try:
        while not engine.quit:
            line = read()
            if line is None:
                break
            try:
                engine.handle(line)
            except Exception as err:  # a bug must not end the session
                engine.error(f"internal error on {_short(line.strip())!r}: {type(err).__name__}: {err}")
    except KeyboardInterrupt:
        pass
    finally:
        engine.shutdown()
    return 0
