"""The protocol loop every reference engine shares: our rules on one side, a worker on the other.

``AdapterProtocol`` speaks our UCI-like protocol (``docs/protocol.md``) on behalf of a
``ReferenceEngine`` (``openspiel_mcts.py``, ``pydraughts_engines.py``) whose search runs in a
worker process (``bridge.py``).  Our rules own the game: ``position`` is read and checked by
them, every move goes to the worker as a ``MoveKey`` in the engine's squares, and every move
the engine answers is checked by them before it is written.

What each command does (the differences from ``mcts-engine`` are marked):

* ``uci``: ``id name`` (the engine and its version, read from the worker), the options, ``uciok``.
* ``isready``: ``readyok``, at once, also while the worker searches.
* ``setoption``: as ours; ``UCI_Variant`` offers only the games the engine plays.
* ``ucinewgame``: the start position; the worker forgets its tables.
* ``position startpos|fen F [moves ...]``: checked by our rules (a bad FEN or move: one
  error line, the previous position stays).  Engines that cannot start from a FEN
  (OpenSpiel) refuse every FEN but the start position's.
* ``go``: the worker searches; exactly one ``bestmove`` follows.  When the engine cannot
  answer (its own rules end the game earlier than ours, its worker died, it disagrees
  with our rules) an ``info string`` says why and the move is the documented fallback:
  **a uniformly random legal move of our rules** (seeded by ``Seed``).  A move our rules
  forbid is never written.  Before the move: ``info depth .. nodes .. time .. score ..``.
* ``stop``: the worker is told to stop; its ``bestmove`` follows as soon as the engine can
  stop (py-draughts at once; OpenSpiel's C++ search cannot be interrupted, so a timed
  search runs out its time, and ``go infinite`` searches in rounds of growing length
  and answers after the round under way).
* ``ponderhit``: as ``stop`` (the engines do not ponder); ``go ponder`` = ``go infinite``.
* ``d``: our board, FEN and side to move.  ``quit`` or end of input: the worker is
  killed, exit 0.
"""
from __future__ import annotations

import os
import random
import sys
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, TextIO

from ..echo import one_line, short
from ..engine_options import DeclaredOption, EngineOption, OptionError
from ..mcts.limits import Limits, budget
from ..protocol.errors import ProtocolError
from ..protocol.uci import option_line, parse_go
from ..rules import Game, RulesError, State, get_game
from .bridge import Bridge, BridgeError
from .moves import ForeignMoveError, SquareMap, check_answer, compare_legal, key_of

SEARCH_GRACE = 10.0     # seconds a worker may answer after its budget before it counts as silent
SEED_MAX = 2147483647


@dataclass(frozen=True)
class Budget:
    """What the worker is asked to search: seconds, simulations/nodes, depth, or until stop."""

    seconds: float | None = None
    nodes: int | None = None
    depth: int | None = None
    infinite: bool = False

    def to_wire(self) -> dict:
        """The budget as the worker protocol's ``limits``."""
        return {"seconds": self.seconds, "nodes": self.nodes, "depth": self.depth, "infinite": self.infinite}

    def timeout(self) -> float | None:
        """How long to wait for the worker's answer (None: until it answers, after a stop)."""
        if self.infinite:
            return None
        if self.seconds is not None:
            return self.seconds + SEARCH_GRACE
        return 3600.0


@dataclass
class GameSoFar:
    """The game, where it started (None = the start position) and the moves since, as played."""

    game: Game
    start_fen: str | None = None
    moves: list = field(default_factory=list)

    def start_state(self) -> State:
        """The first position of the game."""
        return self.game.new_state() if self.start_fen is None else self.game.parse_fen(self.start_fen)

    def state(self) -> State:
        """The current position."""
        state = self.start_state()
        for move in self.moves:
            state.play(move)
        return state


@dataclass(frozen=True)
class EngineAnswer:
    """A worker's answer to a search request (``bridge.py``): the engine's MOVE and legal MOVEs in
    its own squares, its report, or why it has no move (``own_rules_end``: its rules ended the
    game where ours go on)."""

    ok: bool
    move: object = None
    legal: tuple = ()
    cp: int | None = None
    mate: int | None = None
    nodes: int | None = None
    depth: int | None = None
    seconds: float | None = None
    notes: tuple[str, ...] = ()
    error: str = ""
    own_rules_end: bool = False

    @staticmethod
    def from_reply(reply: object) -> "EngineAnswer":
        """The answer from a decoded JSON reply; a malformed reply is an answer without a move."""
        if not isinstance(reply, dict):
            return EngineAnswer(False, error=f"the worker answered {short(reply)!r}, not an object")
        def number(key: str, kind: type):
            return None if reply.get(key) is None else kind(reply[key])

        try:
            return EngineAnswer(
                ok=bool(reply.get("ok")), move=reply.get("move"), legal=tuple(reply.get("legal") or ()),
                cp=number("cp", int), mate=number("mate", int), nodes=number("nodes", int),
                depth=number("depth", int), seconds=number("seconds", float),
                notes=tuple(str(n) for n in reply.get("notes") or ()),
                error=str(reply.get("error") or "no reason given"), own_rules_end=bool(reply.get("own_rules_end")))
        except (TypeError, ValueError) as err:
            return EngineAnswer(False, error=f"a malformed answer from the worker ({err}): {short(reply)}")

    def info_line(self, move_text: str) -> str:
        """``info [depth ..] [nodes .. nps ..] [time ..] [score ..] pv <move>``."""
        parts = ["info"]
        if self.depth is not None:
            parts += ["depth", str(self.depth)]
        if self.nodes is not None:
            parts += ["nodes", str(self.nodes)]
            if self.seconds:
                parts += ["nps", str(int(self.nodes / self.seconds))]
        if self.seconds is not None:
            parts += ["time", str(int(self.seconds * 1000))]
        if self.mate is not None:
            parts += ["score", "mate", str(self.mate)]
        elif self.cp is not None:
            parts += ["score", "cp", str(self.cp)]
        return " ".join(parts + ["pv", move_text])


class ReferenceEngine(ABC):
    """What an adapter needs to know of one reference engine (its worker does the rest)."""

    #: the name of ``mcts-engine reference-engine NAME``
    name: str = ""
    #: the games it plays (the ``UCI_Variant`` values); the first is the default
    games: tuple[str, ...] = ()

    def options(self) -> tuple[DeclaredOption, ...]:
        """The engine's own options, listed after the common ones (``common_options``)."""
        return ()

    @abstractmethod
    def worker_command(self) -> list[str]:
        """The command that starts the worker."""

    @abstractmethod
    def squares(self, game: Game) -> SquareMap:
        """Our squares -> the engine's, for ``game``."""

    def variant(self, game: Game) -> str:
        """The game's name in the worker's request (default: our name)."""
        return game.name

    def their_fen(self, game: Game, state: State) -> str:
        """A starting position of ours as the engine's FEN; ProtocolError when it cannot take one."""
        raise ProtocolError(f"{self.name} cannot start from a FEN; send position startpos [moves ...]")

    def params(self, values: dict) -> dict:
        """The engine's parameters for a search, from the option values."""
        return {}

    def budget(self, values: dict, limits: Limits, notes: list[str]) -> Budget:
        """The worker's budget for a ``go``: ``MoveTime`` if set, else the go's limits through our
        time manager (movetime less ``MoveOverhead``, or a share of the clock)."""
        overhead = values["MoveOverhead"] / 1000.0
        if values["MoveTime"] > 0:
            return Budget(seconds=max(0.001, values["MoveTime"] / 1000.0 - overhead))
        if limits.infinite:
            return Budget(infinite=True)
        return Budget(seconds=budget(limits, overhead), nodes=limits.nodes, depth=limits.depth)


def declare(name: str, kind: str, default: object, help: str, **limits) -> DeclaredOption:
    """An adapter option: its declaration (``engine_options.EngineOption``) and its default."""
    return DeclaredOption(name, EngineOption(name, kind, help, **limits), default)


def common_options(engine: ReferenceEngine) -> tuple[DeclaredOption, ...]:
    """The options every adapter has, then the engine's own."""
    return (
        declare("UCI_Variant", "combo", engine.games[0], "the game (only those this engine plays)",
                choices=engine.games),
        declare("Seed", "spin", 0, "random seed of the engine's search (and of a fallback move); 0 = fresh "
                "each search; N = the search of ply p is seeded with N and p", low=0, high=SEED_MAX),
        declare("MoveTime", "spin", 0, "ms a move, whatever the go says (for time-odds matches; give the "
                "tournament's --margin room); 0 = the go's limits", low=0, high=3_600_000),
        declare("MoveOverhead", "spin", 30, "ms kept back from each move's time for the worker and the "
                "pipes", low=0, high=5000),
        declare("Log", "string", "", "a file that every info string line (errors, notes, fallbacks) is "
                "appended to, with the ply and the FEN: a tournament journal keeps none of them; empty = none"),
    ) + engine.options()


class AdapterProtocol:
    """Our protocol for one reference engine; ``handle`` takes one input line."""

    def __init__(self, engine: ReferenceEngine, write: Callable[[str], None],
                 game: Game | None = None):
        """``game`` replaces the rules that check the engine (tests use it to give the engine a game
        whose rules differ from its own); by default ``UCI_Variant`` names the game."""
        self.engine = engine
        self.write = write
        self.table = {d.key: d for d in common_options(engine)}
        self.values = {d.option.name: d.default for d in self.table.values()}
        self.fixed_game = game
        self.position = GameSoFar(game or get_game(self.values["UCI_Variant"]))
        self.bridge: Bridge | None = None
        self.hello: dict | None = None
        self.closed = False
        self.exit_status = 0
        self.searching = False      # from go until its bestmove is written (the thread ends just after)
        self.search: threading.Thread | None = None
        self._bridge_lock = threading.Lock()
        self._out_lock = threading.Lock()

    # --- output ---------------------------------------------------------------------------
    def emit(self, line: str) -> None:
        """One output line, unless the session is over."""
        with self._out_lock:
            if not self.closed:
                self.write(line)

    def error(self, text: str) -> None:
        """An ``info string error:`` line (also to the ``Log`` file)."""
        self.emit("info string error: " + one_line(text))
        self.log("error: " + one_line(text))

    def note(self, text: str) -> None:
        """An ``info string`` line (also to the ``Log`` file)."""
        self.emit("info string " + one_line(text))
        self.log(one_line(text))

    def log(self, text: str) -> None:
        """Append a line to the ``Log`` file, if one is set: the time, the ply, the FEN, the text."""
        path = self.values.get("Log")
        if not path:
            return
        try:
            state = self.position.state()
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
            with open(path, "a", encoding="utf-8") as f:
                f.write(f"{stamp} {self.engine.name} ply {len(self.position.moves)} {state.fen()}: {text}\n")
        except (OSError, RulesError):
            pass

    # --- input ----------------------------------------------------------------------------
    def handle(self, line: str) -> None:
        """Process one input line; bad input gets one error line and changes nothing."""
        tokens = line.split()
        if not tokens:
            return
        handler = getattr(self, "cmd_" + tokens[0].lower(), None)
        try:
            if handler is None:
                raise ProtocolError(f"unknown command {short(tokens[0])!r}; commands: "
                                    "uci, isready, setoption, ucinewgame, position, go, stop, ponderhit, d, quit")
            handler(tokens[1:], line)
        except (ProtocolError, OptionError, RulesError, BridgeError) as err:
            self.error(str(err))

    def cmd_uci(self, args: list[str], line: str) -> None:
        """Identify (the engine's version comes from its worker), list the options, uciok.

        A worker that cannot start ends the session with an error line and exit status 2."""
        try:
            hello = self.ensure_worker()
        except BridgeError as err:
            self.error(f"{self.engine.name} cannot start: {err}")
            self.exit_status = 2
            self.shutdown()
            return
        self.emit(f"id name {self.engine.name} ({hello.get('engine', '?')})")
        self.emit("id author the engine's authors; adapter: mcts-engine developers")
        for declared in self.table.values():
            self.emit(option_line(declared, declared.default))
        self.emit("uciok")

    def cmd_isready(self, args: list[str], line: str) -> None:
        """readyok, also during a search."""
        self.emit("readyok")

    def cmd_debug(self, args: list[str], line: str) -> None:
        """debug on|off: accepted and ignored."""

    def cmd_setoption(self, args: list[str], line: str) -> None:
        """setoption name N [value V]; a bad name or value changes nothing."""
        self.require_idle("setoption")
        text = line.strip().split(None, 1)[1] if len(args) else ""
        if not text.lower().startswith("name "):
            raise ProtocolError("setoption needs: name <name> [value <value>]")
        rest = text[5:]
        lowered = rest.lower()
        at = lowered.find(" value ")
        name, value = (rest[:at], rest[at + 7:]) if at >= 0 else (rest, None)
        if at < 0 and lowered.endswith(" value"):
            name, value = rest[:-6], ""
        declared = self.table.get(" ".join(name.split()).lower())
        if declared is None:
            raise OptionError(f"unknown option {short(name.strip())!r}; options: "
                              + ", ".join(d.option.name for d in self.table.values()))
        option = declared.option
        parsed = option.parse(None if value is None else value.strip())
        self.values[option.name] = parsed
        if option.name == "UCI_Variant" and self.fixed_game is None:
            self.position = GameSoFar(get_game(parsed))

    def cmd_ucinewgame(self, args: list[str], line: str) -> None:
        """The start position; the worker forgets its tables (a running search is stopped first)."""
        self.cmd_stop([], line)
        self.wait_search()
        self.position = GameSoFar(self.position.game)
        self.worker_request({"op": "new"}, 10.0)

    def cmd_position(self, args: list[str], line: str) -> None:
        """position startpos|fen F [moves ...], checked by our rules."""
        self.require_idle("position")
        if not args:
            raise ProtocolError("position needs startpos or fen <fen>")
        words = [w.lower() for w in args]
        at = words.index("moves") if "moves" in words else len(args)
        head, texts = args[:at], args[at + 1:]
        game = self.position.game
        if words[0] == "startpos" and len(head) == 1:
            start_fen = None
        elif words[0] == "fen" and len(head) > 1:
            start_fen = " ".join(head[1:])
            state = game.parse_fen(start_fen)
            if state.fen() == game.new_state().fen():
                start_fen = None
            else:
                self.engine.their_fen(game, state)     # refused here when the engine takes no FEN
                start_fen = state.fen()
        else:
            raise ProtocolError(f"position: expected startpos or fen <fen>, got {short(' '.join(head))!r}")
        position = GameSoFar(game, start_fen)
        state = position.start_state()
        for text in texts:
            if state.outcome() is not None:
                raise ProtocolError(f"position: move {short(text)!r} after the end of the game")
            move = state.parse_move(text)
            state.play(move)
            position.moves.append(move)
        self.position = position

    def cmd_go(self, args: list[str], line: str) -> None:
        """Search in the worker; exactly one bestmove follows."""
        self.require_idle("go")
        state = self.position.state()
        go = parse_go(args, self.position.game.colours, state.to_move)
        if go.problems:         # as our engine: named, left out, and the search runs with the rest
            self.error(go.problems_text())
        if go.ponder:
            go.limits = Limits(infinite=True)
        self.searching = True
        self.search = threading.Thread(target=self.run_search, args=(go.limits,), daemon=True)
        self.search.start()

    def cmd_stop(self, args: list[str], line: str) -> None:
        """Tell the worker to stop; its bestmove follows when the engine can stop."""
        if self.searching and self.bridge is not None:
            try:
                self.bridge.send({"op": "stop"})
            except BridgeError:
                pass

    def cmd_ponderhit(self, args: list[str], line: str) -> None:
        """As stop: the engines do not ponder, so the pondering search answers now."""
        self.cmd_stop(args, line)

    def cmd_d(self, args: list[str], line: str) -> None:
        """Our board, the FEN, and the side to move."""
        state = self.position.state()
        for row in state.board_text().splitlines():
            self.emit(row)
        self.emit(f"fen {state.fen()}")
        self.emit(f"side to move: player {state.to_move + 1}")

    def cmd_quit(self, args: list[str], line: str) -> None:
        """Kill the worker and end the session."""
        self.shutdown()

    # --- the worker -----------------------------------------------------------------------
    def ensure_worker(self) -> dict:
        """Start the worker if it is not running and return its hello; BridgeError if it cannot start."""
        if self.bridge is not None and self.bridge.process.poll() is None and self.hello is not None:
            return self.hello
        if self.bridge is not None:
            self.bridge.close()
        self.bridge, self.hello = None, None
        bridge = Bridge(self.engine.worker_command())
        try:
            hello = bridge.request({"op": "hello"}, timeout=60.0)
        except BridgeError:
            bridge.close()
            raise
        if not hello.get("ok"):
            bridge.close()
            raise BridgeError(f"the worker cannot start: {hello.get('error')}")
        self.bridge, self.hello = bridge, hello
        return hello

    def worker_request(self, message: dict, timeout: float | None) -> dict:
        """One request/answer pair with the worker (never two at once)."""
        with self._bridge_lock:
            self.ensure_worker()
            return self.bridge.request(message, timeout)

    # --- searching ------------------------------------------------------------------------
    def require_idle(self, command: str) -> None:
        """ProtocolError when a search is running."""
        if self.searching:
            raise ProtocolError(f"{command} during a search; send stop first")

    def wait_search(self) -> None:
        """Wait for the running search, if any, to write its bestmove."""
        if self.search is not None:
            self.search.join()

    def seed(self, ply: int) -> int:
        """The seed of the search (and fallback) at ``ply``."""
        seed = self.values["Seed"]
        if seed == 0:
            return int.from_bytes(os.urandom(4), "little") & SEED_MAX
        return (seed * 1000003 + ply) % SEED_MAX

    def request_for(self, budget_: Budget, seed: int) -> dict:
        """The worker's search request for the current position."""
        position, engine = self.position, self.engine
        squares = engine.squares(position.game)
        state = position.start_state()
        start = None if position.start_fen is None else engine.their_fen(position.game, state)
        moves = []
        for move in position.moves:
            moves.append(squares.to_theirs(key_of(state, move)).to_wire())
            state.play(move)
        return {"op": "search", "variant": engine.variant(position.game), "start": start, "moves": moves,
                "limits": budget_.to_wire(), "params": engine.params(self.values), "seed": seed}

    def run_search(self, limits: Limits) -> None:
        """The search thread: ask the worker, check its answer with our rules, write bestmove."""
        state = self.position.state()
        ply = len(self.position.moves)
        seed = self.seed(ply)
        try:
            if state.outcome() is not None or not state.legal_moves():
                self.note(f"the game is over (result {state.outcome()}): no move to search")
                self.finish("bestmove 0000")
                return
            notes: list[str] = []
            budget_ = self.engine.budget(self.values, limits, notes)
            for text in notes:
                self.note(text)
            move = self.ask_worker(state, budget_, seed)
        except Exception as err:   # a bug must not cost the bestmove
            self.error(f"internal error in the adapter: {type(err).__name__}: {err}")
            move = None
        if move is None:
            move = self.fallback(state, seed)
        self.finish(f"bestmove {state.move_str(move)}")

    def finish(self, line: str) -> None:
        """Write the search's bestmove line; from then on the session takes position and go again."""
        with self._out_lock:
            self.searching = False
            if not self.closed:
                self.write(line)

    def ask_worker(self, state: State, budget_: Budget, seed: int):
        """The engine's move, checked; None (after an info string saying why) when it has none."""
        squares = self.engine.squares(self.position.game)
        try:
            answer = EngineAnswer.from_reply(self.worker_request(self.request_for(budget_, seed),
                                                                 budget_.timeout()))
        except BridgeError as err:
            if self.closed:
                return None
            self.error(f"{self.engine.name}: {err}; the worker is restarted for the next go")
            with self._bridge_lock:
                if self.bridge is not None:
                    self.bridge.close()
                self.bridge, self.hello = None, None
            return None
        for text in answer.notes:
            self.note(f"{self.engine.name}: {text}")
        if not answer.ok:
            if answer.own_rules_end:     # the engine's own rules end the game where ours go on
                self.note(f"{self.engine.name}: {answer.error}")
            else:
                self.error(f"{self.engine.name}: {answer.error}")
            return None
        problem = compare_legal(state, squares, answer.legal)
        if problem:
            self.error(f"{self.engine.name}: {problem}")
        try:
            move = check_answer(state, squares, answer.move)
        except ForeignMoveError as err:
            self.error(f"{self.engine.name}: {err}")
            return None
        self.emit(answer.info_line(state.move_str(move)))
        return move

    def fallback(self, state: State, seed: int):
        """The documented fallback: a uniformly random legal move of our rules."""
        moves = state.legal_moves()
        move = random.Random(seed).choice(moves)
        self.note(f"fallback: {state.move_str(move)}, a random legal move of our rules")
        return move

    def shutdown(self) -> None:
        """End the session: no more output, the worker killed."""
        with self._out_lock:
            self.closed = True
        if self.bridge is not None:
            self.bridge.close()


def serve(engine: ReferenceEngine, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Speak the protocol for ``engine`` on stdin/stdout until ``quit`` or end of input; return 0."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    lock = threading.Lock()

    def write(line: str) -> None:
        with lock:
            try:
                stdout.write(line + "\n")
                stdout.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass

    protocol = AdapterProtocol(engine, write)
    try:
        for line in stdin:
            try:
                protocol.handle(line)
            except Exception as err:  # a bug must not end the session
                protocol.error(f"internal error on {short(line.strip())!r}: {type(err).__name__}: {err}")
            if protocol.closed:
                break
    except KeyboardInterrupt:
        pass
    finally:
        protocol.shutdown()
    return protocol.exit_status
