"""Engine processes for the tournament manager: start, handshake, ``go``, quit (``../shared/PROTOCOL.md``).

This layer only speaks the protocol; it does not know the rules.  A move an engine
answers is returned as text and the manager validates it with our rules (an illegal
move is the manager's business, not an error here).

An ``EngineProcess`` runs its engine in a process group of its own
(``start_new_session=True``).  A reader thread turns the engine's stdout into a queue
of lines (``None`` at end of output) so every read has a timeout; another thread
keeps the last lines of stderr (for error messages) and discards the rest, so an
engine writing a lot to stderr never blocks.  ``quit()`` (and ``kill()``) end the
whole group, so no child of the engine survives, and always reap the process.

Failures are exceptions with a short ``reason`` code the manager can record:

==================  ========  ===================================================
exception           reason    when
==================  ========  ===================================================
EngineStartError    start     cannot spawn, no ``uciok``/``readyok`` in time, an
                              option the engine rejects or does not declare
EngineCrash         crash     the process exited or closed its stdout (the group
                              is killed and reaped before this is raised)
EngineTimeout       timeout   no answer within the limit (after ``stop`` and a
                              0.5 s grace for ``go``); the process is left
                              running: the caller should ``quit()`` it
EngineProtocolError protocol  a malformed answer (``bestmove`` without a move)
==================  ========  ===================================================

Engines are described by ``EngineSpec``; ``parse_engine_arg`` reads the command
line form ``name=uct1 cmd=mcts-engine option.UCT_C=0.7`` and ``load_engines_file``
a JSON or TOML file ``{"engines": [{"name": ..., "cmd": ..., "options": {...}}]}``.
"""
from __future__ import annotations

import collections
import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "EngineError", "EngineStartError", "EngineCrash", "EngineTimeout", "EngineProtocolError",
    "EngineSpecError", "EngineSpec", "parse_engine_arg", "load_engines_file", "resolve_cmd", "portable_cmd",
    "GoResult", "EngineProcess", "group_pids",
]

STOP_GRACE = 0.5          # seconds a go may overrun its timeout after we send stop
DEFAULT_GAME = "english"    # the protocol's default UCI_Variant
NEW_GAME_TIMEOUT = 5.0    # seconds for ucinewgame + isready -> readyok
EXIT_GRACE = 0.2          # seconds to read the last lines after the engine process exited
POLL = 0.05               # seconds between checks of the process while waiting for a line
MAX_LINE = 1 << 16        # longest stdout line kept in one piece
STDERR_LINES = 20         # stderr lines kept for error messages
STDERR_WIDTH = 300        # characters kept per stderr line
OUR_ENGINE = "mcts-engine"


# --- errors --------------------------------------------------------------------------------

class EngineError(Exception):
    """Something went wrong with an engine process; ``reason`` is a short code."""

    reason = "error"

    def __init__(self, message: str, *, engine: str | None = None, returncode: int | None = None,
                 stderr: str = ""):
        super().__init__(message)
        self.engine = engine            # the EngineSpec name
        self.returncode = returncode    # the exit code when the process ended (negative: signal)
        self.stderr = stderr            # the last lines the engine wrote to stderr


class EngineStartError(EngineError):
    """The engine did not start: spawn failure, handshake timeout, a rejected option."""

    reason = "start"


class EngineCrash(EngineError):
    """The engine process exited or closed its stdout."""

    reason = "crash"


class EngineTimeout(EngineError):
    """No answer within the limit."""

    reason = "timeout"


class EngineProtocolError(EngineError):
    """A malformed answer."""

    reason = "protocol"


class EngineSpecError(ValueError):
    """A bad engine description (command line token or engines file)."""


# --- engine descriptions ----------------------------------------------------------------

@dataclass(frozen=True)
class EngineSpec:
    """How to run one engine: a name (unique in a tournament), the command, its options.

    Frozen: it crosses process boundaries (a cluster task gets it pickled) and a
    tournament's identity is made of it, so nobody changes one in place.
    """

    name: str
    cmd: list[str]
    options: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None


def resolve_cmd(cmd: list[str]) -> list[str]:
    """The command with a bare ``mcts-engine`` resolved to our console script.

    Next to ``sys.executable`` first (the running virtualenv), else left to PATH; when
    it is on neither, ``python -m mcts_engine`` with this interpreter.
    """
    cmd = list(cmd)
    if cmd and cmd[0] == OUR_ENGINE:
        script = Path(sys.executable).parent / OUR_ENGINE
        if script.is_file() and os.access(script, os.X_OK):
            cmd[0] = str(script)
        elif shutil.which(OUR_ENGINE) is None:
            cmd[0:1] = [sys.executable, "-m", "mcts_engine"]
    return cmd


def portable_cmd(cmd: list[str]) -> list[str]:
    """The command as another machine should read it: our engine as it was resolved here
    (this interpreter's console script, or ``python -m mcts_engine``) becomes a bare
    ``mcts-engine`` again, which ``resolve_cmd`` on that machine finds next to its own
    Python.  Every other command is returned unchanged (it runs there as written)."""
    cmd = list(cmd)
    ours = resolve_cmd([OUR_ENGINE])
    for form in (ours, [sys.executable, "-m", "mcts_engine"]):
        if cmd[:len(form)] == form:
            return [OUR_ENGINE] + cmd[len(form):]
    return cmd


def _rules_text(rules: dict) -> str:
    """Rule options as the ``Rules`` option's text ``key=value,key=value``."""
    return ",".join(f"{k}={_option_text(v)}" for k, v in rules.items())


def _option_text(value) -> str:
    """An option value from a file (bool, number, string) as protocol text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    raise EngineSpecError(f"option value {value!r} is not a string, number or boolean")


SPEC_KEYS = "name=, cmd=, cwd=, option.<Name>="


def parse_engine_arg(text: str) -> EngineSpec:
    """``name=uct1 cmd=mcts-engine option.UCT_C=0.7 option.Agent=random`` as an EngineSpec.

    Tokens are split with shell rules, so values may be quoted; the ``cmd`` value is
    split again (``cmd="python fake.py --x"``; a path with spaces needs inner quotes:
    ``cmd="'/my dir/engine' --x"``).  Raises EngineSpecError naming the bad token.
    """
    try:
        tokens = shlex.split(text)
    except ValueError as err:
        raise EngineSpecError(f"engine {text!r}: cannot split into tokens: {err}") from None
    name = cmd = cwd = None
    options: dict[str, str] = {}
    seen_options: dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise EngineSpecError(f"engine {text!r}: token {token!r} is not key=value (keys: {SPEC_KEYS})")
        lowered = key.lower()
        if lowered == "name":
            if name is not None:
                raise EngineSpecError(f"engine {text!r}: name= given twice (token {token!r})")
            if not value.strip():
                raise EngineSpecError(f"engine {text!r}: empty name in token {token!r}")
            name = value
        elif lowered == "cmd":
            if cmd is not None:
                raise EngineSpecError(f"engine {text!r}: cmd= given twice (token {token!r})")
            try:
                cmd = shlex.split(value)
            except ValueError as err:
                raise EngineSpecError(f"engine {text!r}: token {token!r}: cannot split the command: {err}") from None
            if not cmd:
                raise EngineSpecError(f"engine {text!r}: empty command in token {token!r}")
        elif lowered == "cwd":
            if cwd is not None:
                raise EngineSpecError(f"engine {text!r}: cwd= given twice (token {token!r})")
            cwd = value or None
        elif lowered.startswith("option."):
            opt = key[len("option."):]
            if not opt.strip():
                raise EngineSpecError(f"engine {text!r}: token {token!r} has no option name (option.<Name>=<value>)")
            if opt.lower() in seen_options:
                raise EngineSpecError(f"engine {text!r}: option {opt!r} given twice (token {token!r})")
            seen_options[opt.lower()] = opt
            options[opt] = value
        else:
            raise EngineSpecError(f"engine {text!r}: unknown key {key!r} in token {token!r} (keys: {SPEC_KEYS})")
    if name is None:
        raise EngineSpecError(f"engine {text!r}: missing name=<name>")
    if cmd is None:
        raise EngineSpecError(f"engine {text!r}: missing cmd=<command>")
    return EngineSpec(name=name, cmd=resolve_cmd(cmd), options=options, cwd=cwd)


def load_engines_file(path) -> dict[str, EngineSpec]:
    """Engines from a JSON or TOML file, by name.

    Shape (TOML: ``[[engines]]`` tables with the same keys)::

        {"engines": [{"name": "uct1", "cmd": "mcts-engine", "options": {"UCT_C": "0.7"}},
                     {"name": "fake", "cmd": ["python", "fake.py"], "cwd": "engines"}]}

    ``cmd`` is a string (split with shell rules) or a list; option values may be
    strings, numbers or booleans; a relative ``cwd`` is relative to the file.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise EngineSpecError(f"{path}: cannot read: {err}") from None
    suffix = path.suffix.lower()
    data = None
    if suffix == ".toml":
        data = _load_toml(path, raw)
    elif suffix == ".json":
        data = _load_json(path, raw)
    else:   # guess: JSON, then TOML
        try:
            data = _load_json(path, raw)
        except EngineSpecError:
            data = _load_toml(path, raw)
    if not isinstance(data, dict) or not isinstance(data.get("engines"), list):
        raise EngineSpecError(f"{path}: expected a top-level 'engines' list of tables")
    specs: dict[str, EngineSpec] = {}
    for i, entry in enumerate(data["engines"]):
        where = f"{path}: engines[{i}]"
        if not isinstance(entry, dict):
            raise EngineSpecError(f"{where}: expected a table with name, cmd, options")
        unknown = set(entry) - {"name", "cmd", "options", "cwd"}
        if unknown:
            raise EngineSpecError(f"{where}: unknown keys {sorted(unknown)} (keys: name, cmd, options, cwd)")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise EngineSpecError(f"{where}: missing or empty name")
        where = f"{path}: engine {name!r}"
        if name in specs:
            raise EngineSpecError(f"{where}: the name is used twice")
        cmd = entry.get("cmd")
        if isinstance(cmd, str):
            try:
                cmd = shlex.split(cmd)
            except ValueError as err:
                raise EngineSpecError(f"{where}: cannot split cmd: {err}") from None
        if not isinstance(cmd, list) or not cmd or not all(isinstance(c, str) for c in cmd):
            raise EngineSpecError(f"{where}: cmd must be a non-empty string or list of strings")
        options = entry.get("options", {})
        if not isinstance(options, dict):
            raise EngineSpecError(f"{where}: options must be a table of name = value")
        try:
            options = {str(k): _option_text(v) for k, v in options.items()}
        except EngineSpecError as err:
            raise EngineSpecError(f"{where}: {err}") from None
        cwd = entry.get("cwd")
        if cwd is not None:
            if not isinstance(cwd, str):
                raise EngineSpecError(f"{where}: cwd must be a string")
            cwd = str((path.parent / cwd).resolve()) if not os.path.isabs(cwd) else cwd
        specs[name] = EngineSpec(name=name, cmd=resolve_cmd(cmd), options=options, cwd=cwd)
    return specs


def _load_json(path: Path, raw: bytes):
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise EngineSpecError(f"{path}: not valid JSON: {err}") from None


def _load_toml(path: Path, raw: bytes):
    try:
        import tomllib
    except ImportError:   # Python 3.10
        raise EngineSpecError(f"{path}: TOML needs Python 3.11 (tomllib); use JSON") from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise EngineSpecError(f"{path}: not valid TOML: {err}") from None


# --- results ---------------------------------------------------------------------------------

@dataclass
class GoResult:
    """One ``go``'s answer; numbers come from the last ``info`` line that has them."""

    move: str
    ponder: str | None
    infos: list[str]
    elapsed: float                 # wall seconds from sending go to reading bestmove
    score_cp: int | None = None    # None when the last score was a mate score (or none)
    mate: int | None = None
    depth: int | None = None
    nodes: int | None = None
    seldepth: int | None = None
    pv: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)   # "info string error: ..." texts seen since position
    stopped: bool = False          # the answer came only after our stop (timeout exceeded)


_INFO_NUMBERS = {"depth", "seldepth", "nodes", "nps", "time", "multipv", "hashfull", "tbhits",
                 "currmovenumber", "cpuload"}
_INFO_KEYWORDS = _INFO_NUMBERS | {"score", "pv", "string", "wdl", "currmove", "refutation",
                                  "currline", "lowerbound", "upperbound"}


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        try:
            return int(float(text))
        except (ValueError, OverflowError):
            return None


def parse_info(line: str) -> dict:
    """The fields of one ``info`` line: numbers, ``cp``/``mate`` and ``pv`` (tolerant)."""
    tokens = line.split()
    out: dict = {}
    i = 1
    while i < len(tokens):
        tok = tokens[i]
        if tok == "string":
            break
        if tok in _INFO_NUMBERS and i + 1 < len(tokens):
            value = _int(tokens[i + 1])
            if value is not None:
                out[tok] = value
            i += 2
        elif tok == "score" and i + 2 < len(tokens) and tokens[i + 1] in ("cp", "mate"):
            value = _int(tokens[i + 2])
            if value is not None:
                out["score"] = (tokens[i + 1], value)
            i += 3
        elif tok == "pv":
            j = i + 1
            while j < len(tokens) and tokens[j] not in _INFO_KEYWORDS:
                j += 1
            out["pv"] = tokens[i + 1:j]
            i = j
        else:
            i += 1
    return out


# --- process groups -------------------------------------------------------------------------

def group_pids(pgid: int) -> list[int] | None:
    """Live (non-zombie) processes in process group ``pgid``, from /proc; None without /proc."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return None
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) >= 3 and fields[0] != "Z" and fields[2] == str(pgid):
            found.append(int(entry.name))
    return found


def _killpg(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


# --- the engine process ---------------------------------------------------------------------

_TIMEOUT = object()     # _next_line's answer when the deadline passed


class EngineProcess:
    """One engine subprocess spoken to through the protocol.

    ``start()`` spawns and handshakes; ``new_game()``, ``go()``, ``ping()`` talk;
    ``quit()`` ends it (the whole process group) and reaps it.  Use as a context
    manager to be sure of the last.  Not thread-safe except ``kill()``, which any
    thread may call to end a hung engine (a waiting ``go`` then raises EngineCrash).
    """

    def __init__(self, spec: EngineSpec, startup_timeout: float = 10.0, *, strict_options: bool = True,
                 game: str | None = None, rules: dict | None = None):
        self.spec = spec
        self.startup_timeout = startup_timeout
        self.strict_options = strict_options   # refuse options the engine does not declare
        self.game = game                       # the game to set (UCI_Variant) after the spec's options
        self.rules = dict(rules or {})         # its rule options (the Rules option)
        self.id_name: str | None = None
        self.id_author: str | None = None
        self.options_declared: dict[str, str] = {}   # declared name -> its full "option name ..." line
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=STDERR_LINES)
        self._threads: list[threading.Thread] = []
        self._eof = False
        self._exit_seen: float | None = None
        self._closed = False
        self._life = threading.RLock()

    # --- small properties ------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def returncode(self) -> int | None:
        """The exit code once the process is reaped (negative: killed by that signal)."""
        return self._proc.returncode if self._proc is not None else None

    @property
    def alive(self) -> bool:
        """Started, not quit or killed, the process running and its stdout open."""
        return self._proc is not None and not self._closed and not self._eof and not self._leader_exited()

    @property
    def stderr_tail(self) -> str:
        return "\n".join(self._stderr)

    def __repr__(self) -> str:
        state = "alive" if self.alive else ("not started" if self._proc is None else "ended")
        return f"<EngineProcess {self.name!r} pid={self.pid} {state}>"

    def __enter__(self) -> "EngineProcess":
        if self._proc is None:
            self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    def __del__(self):   # a last resort; callers should quit()
        try:
            if self._proc is not None and not self._closed:
                self.kill()
        except Exception:
            pass

    # --- start ------------------------------------------------------------------------------
    def start(self) -> "EngineProcess":
        """Spawn the engine and handshake: uci/uciok, the options, isready/readyok."""
        if self._proc is not None:
            raise RuntimeError(f"engine {self.name!r} was already started")
        try:
            self._proc = subprocess.Popen(
                self.spec.cmd, cwd=self.spec.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace", bufsize=1,
                start_new_session=True, close_fds=True)
        except (OSError, ValueError) as err:
            raise EngineStartError(f"engine {self.name!r}: cannot start {self.spec.cmd!r}: {err}",
                                   engine=self.name) from None
        self._threads = [
            threading.Thread(target=self._read_stdout, args=(self._proc.stdout,),
                             name=f"engine-{self.name}-out", daemon=True),
            threading.Thread(target=self._read_stderr, args=(self._proc.stderr,),
                             name=f"engine-{self.name}-err", daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        try:
            self._handshake()
        except EngineError as err:
            self.kill()
            raise EngineStartError(str(err), engine=self.name, returncode=err.returncode,
                                   stderr=err.stderr or self.stderr_tail) from None
        except BaseException:
            self.kill()
            raise
        return self

    def _handshake(self) -> None:
        self.send("uci")
        deadline = time.monotonic() + self.startup_timeout
        while True:
            line = self._next_line(deadline)
            if line is _TIMEOUT:
                raise self._error(EngineStartError, f"no uciok within {self.startup_timeout:g} s")
            if line is None:
                raise self._exited("before uciok")
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "uciok":
                break
            if tokens[0] == "id" and len(tokens) >= 2:
                text = line.split(None, 2)[2] if len(tokens) > 2 else ""
                if tokens[1] == "name":
                    self.id_name = text
                elif tokens[1] == "author":
                    self.id_author = text
            elif tokens[0] == "option":
                match = re.match(r"\s*option\s+name\s+(.+?)(?:\s+type\s|\s*$)", line)
                if match:
                    self.options_declared[match.group(1)] = line.strip()
        declared = {n.lower(): n for n in self.options_declared}
        for key, value in list(self.spec.options.items()) + self._game_options(declared):
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
        if self.rules:
            if "rules" not in declared:
                raise self._error(EngineStartError, "the engine does not declare the Rules option, so it "
                                  "cannot be given the rule options " + _rules_text(self.rules))
            options.append(("Rules", _rules_text(self.rules)))
        return options

    # --- talking -------------------------------------------------------------------------
    def send(self, line: str) -> None:
        """Write one line to the engine; EngineCrash when it is gone."""
        proc = self._proc
        if proc is None:
            raise RuntimeError(f"engine {self.name!r} is not started")
        if self._closed:
            raise self._error(EngineCrash, "the engine was already quit or killed")
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._exited(f"while sending {line[:60]!r}") from None

    def new_game(self, timeout: float = NEW_GAME_TIMEOUT) -> None:
        """``ucinewgame`` then isready/readyok."""
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

    def go(self, start_fen: str | None, moves: list[str], limits: dict, timeout: float) -> GoResult:
        """Set the position, search with ``limits`` (e.g. {"movetime": 100}), return the answer.

        ``timeout`` is wall seconds until ``bestmove``; past it we send ``stop`` and
        wait STOP_GRACE more (the answer then has ``stopped=True``) before raising
        EngineTimeout.  The move is not validated here.
        """
        for move in moves:
            if not move or any(c.isspace() for c in move):
                raise ValueError(f"bad move token {move!r}")
        if start_fen is not None and (not start_fen.strip() or any(c in "\r\n" for c in start_fen)):
            raise ValueError(f"bad FEN {start_fen!r}")
        position = "position startpos" if start_fen is None else f"position fen {start_fen.strip()}"
        if moves:
            position += " moves " + " ".join(moves)
        go = "go" + self._limits_text(limits)
        self._drain()
        self.send(position)
        self.send(go)
        start = time.monotonic()
        deadline = start + timeout
        stopped = False
        infos: list[str] = []
        errors: list[str] = []
        while True:
            line = self._next_line(deadline)
            if line is _TIMEOUT:
                if stopped:
                    raise self._error(EngineTimeout, f"no bestmove within {timeout:g} s "
                                      f"(+{STOP_GRACE:g} s after stop) for {go!r}")
                stopped = True
                self.send("stop")
                deadline = time.monotonic() + STOP_GRACE
                continue
            if line is None:
                raise self._exited(f"during {go!r}")
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "info":
                infos.append(line)
                if line.split(None, 2)[1:2] == ["string"]:
                    text = line.split(None, 2)[2] if len(tokens) > 2 else ""
                    if text.startswith("error"):
                        errors.append(text)
                continue
            if tokens[0] == "bestmove":
                elapsed = time.monotonic() - start
                if len(tokens) < 2:
                    raise self._error(EngineProtocolError, f"bestmove without a move after {go!r}")
                ponder = tokens[3] if len(tokens) >= 4 and tokens[2] == "ponder" else None
                return self._result(tokens[1], ponder, infos, errors, elapsed, stopped)
            # anything else (readyok, a stray line) is ignored

    @staticmethod
    def _limits_text(limits: dict) -> str:
        text = ""
        for key, value in limits.items():
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(key)):
                raise ValueError(f"bad go limit {key!r}")
            if value is None or value is False:
                continue
            if value is True:
                text += f" {key}"
            elif isinstance(value, float):
                text += f" {key} {round(value)}"
            elif isinstance(value, (list, tuple)):
                text += f" {key} " + " ".join(str(v) for v in value)
            else:
                text += f" {key} {value}"
        if any(c in "\r\n" for c in text):
            raise ValueError(f"bad go limits {limits!r}")
        return text

    @staticmethod
    def _result(move, ponder, infos, errors, elapsed, stopped) -> GoResult:
        result = GoResult(move=move, ponder=ponder, infos=infos, elapsed=elapsed, errors=errors, stopped=stopped)
        seen = set()
        for line in reversed(infos):
            fields = parse_info(line)
            for key in ("depth", "nodes", "seldepth", "score", "pv"):
                if key in fields and key not in seen:
                    seen.add(key)
                    if key == "score":
                        kind, value = fields["score"]
                        if kind == "cp":
                            result.score_cp = value
                        else:
                            result.mate = value
                    else:
                        setattr(result, key, fields[key])
            if len(seen) == 5:
                break
        return result

    # --- ending -------------------------------------------------------------------------------
    def quit(self, timeout: float = 2.0, term_timeout: float = 1.0) -> int | None:
        """End the engine: ``quit`` and stdin closed, then SIGTERM, then SIGKILL to its group.

        Waits ``timeout`` s for a clean exit, ``term_timeout`` s after SIGTERM; any
        process of the group still alive after the engine exited is terminated too.
        Reaps the process; idempotent; returns the exit code.
        """
        with self._life:
            proc = self._proc
            if proc is None or self._closed:
                return self.returncode
            self._closed = True
            if not self._leader_exited():
                try:
                    proc.stdin.write("quit\n")
                    proc.stdin.flush()
                except (OSError, ValueError):
                    pass
                self._wait_leader(timeout)
            if not self._leader_exited():
                _killpg(proc.pid, signal.SIGTERM)
                self._wait_leader(term_timeout)
            if not self._leader_exited():
                _killpg(proc.pid, signal.SIGKILL)
                self._wait_leader(5.0)
            self._end_stragglers(term_timeout)
            self._reap()
            return proc.returncode

    def kill(self) -> int | None:
        """SIGKILL the whole group now and reap; idempotent; returns the exit code."""
        with self._life:
            proc = self._proc
            if proc is None or self._closed:
                return self.returncode
            self._closed = True
            if proc.returncode is None:
                _killpg(proc.pid, signal.SIGKILL)
            self._wait_leader(5.0)
            self._end_stragglers(0.0)
            self._reap()
            return proc.returncode

    def _end_stragglers(self, grace: float) -> None:
        """The engine has exited (a zombie, not reaped, so its group id is still ours): end the rest."""
        proc = self._proc
        members = group_pids(proc.pid)
        if members is not None:
            if not [p for p in members if p != proc.pid]:
                return
        elif proc.returncode is not None:
            return      # reaped already and the group is invisible: its id might be reused, leave it
        if grace > 0:
            _killpg(proc.pid, signal.SIGTERM)
            end = time.monotonic() + grace
            while time.monotonic() < end:
                left = group_pids(proc.pid)
                if left is not None and not [p for p in left if p != proc.pid]:
                    return
                time.sleep(POLL)
        _killpg(proc.pid, signal.SIGKILL)

    def _reap(self) -> None:
        proc = self._proc
        try:
            proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:   # unkillable (D state): try once more, then give up
            _killpg(proc.pid, signal.SIGKILL)
            try:
                proc.wait(timeout=5.0)
            except subprocess.TimeoutExpired:
                pass
        for stream in (proc.stdin,):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        for thread in self._threads:   # the pipes reach EOF once the group is gone
            thread.join(timeout=1.0)
        for stream, thread in ((proc.stdout, self._threads[0] if self._threads else None),
                               (proc.stderr, self._threads[1] if len(self._threads) > 1 else None)):
            if thread is None or not thread.is_alive():
                try:
                    stream.close()
                except (OSError, ValueError):
                    pass

    # --- internals ---------------------------------------------------------------------------
    def _read_stdout(self, stream) -> None:
        try:
            while True:
                line = stream.readline(MAX_LINE)
                if not line:
                    break
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(None)

    def _read_stderr(self, stream) -> None:
        try:
            while True:
                line = stream.readline(MAX_LINE)
                if not line:
                    break
                line = line.rstrip("\r\n")
                if line:
                    self._stderr.append(line[:STDERR_WIDTH])
        except (OSError, ValueError):
            pass

    def _leader_exited(self) -> bool:
        """Has the engine process exited?  Does not reap it (its pid stays our group id)."""
        proc = self._proc
        if proc is None:
            return False
        if proc.returncode is not None:
            return True
        if not hasattr(os, "waitid"):
            return proc.poll() is not None
        try:
            info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:   # reaped by someone else
            proc.poll()
            return True
        return info is not None and info.si_pid != 0

    def _peek_returncode(self) -> int | None:
        """The exit code of an exited, not yet reaped process (Popen's convention)."""
        proc = self._proc
        if proc.returncode is not None:
            return proc.returncode
        if not hasattr(os, "waitid"):
            return proc.poll()
        try:
            info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return proc.poll()
        if info is None or info.si_pid == 0:
            return None
        return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status

    def _wait_leader(self, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while not self._leader_exited():
            if time.monotonic() >= end:
                return False
            time.sleep(0.01)
        return True

    def _next_line(self, deadline: float):
        """The next stdout line; None at end of output (or the process gone); _TIMEOUT past the deadline."""
        while True:
            if self._eof:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                try:
                    line = self._lines.get_nowait()
                except queue.Empty:
                    return _TIMEOUT
            else:
                try:
                    line = self._lines.get(timeout=min(remaining, POLL))
                except queue.Empty:
                    # a child holding our stdout open must not hide the engine's exit
                    if self._leader_exited():
                        now = time.monotonic()
                        if self._exit_seen is None:
                            self._exit_seen = now
                        elif now - self._exit_seen >= EXIT_GRACE:
                            self._eof = True
                    continue
            if line is None:
                self._eof = True
                return None
            return line

    def _drain(self) -> None:
        """Drop lines left from earlier exchanges (e.g. a late answer)."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._eof = True
                return

    def _sync(self, deadline_in: float, what: str, send: bool = True) -> list[str]:
        """isready -> readyok; the ``info string error`` texts seen meanwhile."""
        if send:
            self.send("isready")
        deadline = time.monotonic() + deadline_in
        errors = []
        while True:
            line = self._next_line(deadline)
            if line is _TIMEOUT:
                raise self._error(EngineTimeout, f"no readyok within {deadline_in:g} s after {what}")
            if line is None:
                raise self._exited(f"after {what}")
            if line.strip() == "readyok":
                return errors
            parts = line.split(None, 2)
            if parts[:2] == ["info", "string"] and len(parts) > 2 and parts[2].startswith("error"):
                text = parts[2]
                errors.append(text[len("error:"):].strip() if text.startswith("error:") else text)

    def _error(self, cls, what: str, returncode: int | None = None) -> EngineError:
        message = f"engine {self.name!r}: {what}"
        tail = self.stderr_tail
        if tail:
            message += f"; stderr: {' | '.join(tail.splitlines()[-3:])}"
        return cls(message, engine=self.name, returncode=returncode, stderr=tail)

    def _exited(self, when: str) -> EngineError:
        """The engine is gone (or closed its stdout): kill the group, reap, an EngineCrash."""
        exited = self._wait_leader(0.5)
        code = self._peek_returncode() if exited else None
        self.kill()
        if exited:
            if code is not None and code < 0:
                what = f"killed by signal {-code}"
                try:
                    what += f" ({signal.Signals(-code).name})"
                except ValueError:
                    pass
            else:
                what = f"exited with code {code}"
        else:
            what = "closed its output (killed)"
        return self._error(EngineCrash, f"{what} {when}", returncode=code)
