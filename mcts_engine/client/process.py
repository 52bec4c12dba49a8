"""The engine process every protocol driver runs on: spawn, read lines with timeouts, quit, kill.

A ``ProcessEngine`` runs its engine in a process group of its own
(``start_new_session=True``).  A reader thread turns the engine's stdout into a queue
of lines (``None`` at end of output) so every read has a timeout; another thread
keeps the last lines of stderr (for error messages) and discards the rest, so an
engine writing a lot to stderr never blocks.  ``quit()`` (and ``kill()``) end the
whole group, so no child of the engine survives, and always reap the process.

The protocol drivers are its subclasses, siblings over one interface (``start``,
``new_game``, ``go``, ``ping``, ``quit``, ``kill``, ``alive``), as python-chess keeps
``UciProtocol`` and ``XBoardProtocol``: ``engine.EngineProcess`` (our protocol),
``hub.HubEngineProcess`` (Hub) and ``dxp.DxpEngineProcess`` (DXP).  Each takes typed
``GoLimits`` (``limits.py``), renders them in its protocol, and answers a ``GoResult``
whose ``EngineInfo`` it parsed from its protocol's info lines (``info.py``).  Failures
are the exceptions of ``errors.py``.
"""
from __future__ import annotations

import collections
import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .errors import EngineCrash, EngineError, EngineProtocolError, EngineStartError, EngineTimeout
from .info import GoResult
from .limits import GoLimits
from .specs import EngineSpec, rules_text

__all__ = ["ProcessEngine", "AdvertisedOption", "group_pids", "TIMED_OUT", "STOP_GRACE"]

STOP_GRACE = 0.5          # seconds a go may overrun its timeout after we send stop
EXIT_GRACE = 0.2          # seconds to read the last lines after the engine process exited
POLL = 0.05               # seconds between checks of the process while waiting for a line
MAX_LINE = 1 << 16        # longest stdout line kept in one piece
STDERR_LINES = 20         # stderr lines kept for error messages
STDERR_WIDTH = 300        # characters kept per stderr line


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

TIMED_OUT = object()    # _next_line's answer when the deadline passed


@dataclass(frozen=True)
class AdvertisedOption:
    """An option as the engine declared it in its handshake (a ``uci`` option line, a Hub
    ``param``): its name, type in the engine's words, default, range, choices, and the line."""

    name: str
    type: str = ""
    default: str | None = None
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    line: str = ""


class ProcessEngine:
    """One engine subprocess; a subclass speaks its protocol.

    ``start()`` spawns and handshakes; ``new_game()``, ``go()``, ``ping()`` talk;
    ``quit()`` ends it (the whole process group) and reaps it.  Use as a context
    manager to be sure of the last.  Not thread-safe except ``kill()``, which any
    thread may call to end a hung engine (a waiting ``go`` then raises EngineCrash).
    ``game`` and ``rules`` are the tournament's game and rule options, which the
    handshake tells the engine.

    ``io_log`` (public) sees every line: it is called with the engine's name, ``>`` (a line
    sent), ``<`` (a line of its stdout) or ``!`` (of its stderr), and the line, from the
    thread that sent or read it (the manager's ``--log``).

    ``timer`` (public) is the clock a ``go``'s ``elapsed`` is read from (``time.monotonic``;
    a test may give a fake one): the time the manager charges to the engine's clock.

    ``on_info`` (public, may be set between searches) is the hook for a live view of a
    search: during ``go`` it is called with every ``info`` line, as the engine wrote it in
    its protocol, the moment the line arrives (on the thread running ``go``); the lines
    are also kept in the ``GoResult``.  The GUI shows its analysis through it.
    """

    def __init__(self, spec: EngineSpec, startup_timeout: float = 10.0, *, strict_options: bool = True,
                 game: str | None = None, rules: dict | None = None,
                 on_info: Callable[[str], None] | None = None,
                 io_log: Callable[[str, str, str], None] | None = None):
        self.spec = spec
        self.startup_timeout = startup_timeout
        self.strict_options = strict_options   # refuse options the engine does not declare
        self.game = game                       # the game to set (UCI_Variant) after the spec's options
        self.rules = dict(rules or {})         # its rule options (the Rules option)
        self.on_info = on_info                 # called with each info line of a go as it arrives
        self.io_log = io_log                   # called with (name, direction, line) for every line
        self.timer: Callable[[], float] = time.monotonic   # what a go's elapsed time is read from
        self.id_name: str | None = None
        self.id_author: str | None = None
        self.options_declared: dict[str, AdvertisedOption] = {}   # by the name the engine declared
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
        return f"<{type(self).__name__} {self.name!r} pid={self.pid} {state}>"

    def __enter__(self) -> "ProcessEngine":
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
    def start(self) -> "ProcessEngine":
        """Spawn the engine and handshake in its protocol (``_handshake``)."""
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

    # --- the protocol: each subclass ---------------------------------------------------------
    def _handshake(self) -> None:
        """Say hello, set the options and the game; raise an EngineError when the engine will not."""
        raise NotImplementedError

    def _startup_lines(self, until: str, after: str) -> Iterator[str]:
        """The engine's lines after it was sent ``after``, up to the first whose first word is
        ``until`` (not yielded); EngineStartError when that line does not come within the
        start-up timeout or the engine exits first.  Every driver's handshake reads with it."""
        return self._lines_until(until, after, self.startup_timeout, EngineStartError, f"before {until}")

    def _lines_until(self, until: str, after: str, timeout: float, late: type[EngineError],
                     exited: str) -> Iterator[str]:
        """The engine's lines after ``after`` up to the first whose first word is ``until``
        (not yielded); ``late`` when that line does not come within ``timeout`` seconds, the
        exit error (``exited`` says when) when the engine exits first.  The handshakes and
        the sync round trips (isready/readyok, ping/pong) all read with it."""
        deadline = time.monotonic() + timeout
        while True:
            line = self._next_line(deadline)
            if line is TIMED_OUT:
                raise self._error(late, f"no {until} within {timeout:g} s after {after}")
            if line is None:
                raise self._exited(exited)
            if line.split()[:1] == [until]:
                return
            yield line

    def _rules_setting(self, declared: Iterable[str], word: str) -> list[tuple[str, str]]:
        """``Rules`` and the game's rule options as its text, to send after the game (none
        without rule options); EngineStartError when the engine declares no ``Rules`` (among
        ``declared``, lower-case names) ``word`` (option, parameter) to take them."""
        if not self.rules:
            return []
        if "rules" not in declared:
            raise self._error(EngineStartError, f"the engine does not declare the Rules {word}, so it "
                              "cannot be given the rule options " + rules_text(self.rules))
        return [("Rules", rules_text(self.rules))]

    def _search_lines(self, timeout: float, answer: str, context: str, during: str) -> Iterator[tuple[str, bool]]:
        """The engine's lines during a search, each with whether ``stop`` was sent: for
        ``timeout`` seconds, then ``stop`` and STOP_GRACE more, then EngineTimeout (``no
        <answer> within ...<context>``); EngineCrash when the engine exits (``during`` says when)."""
        deadline, stopped = time.monotonic() + timeout, False
        while True:
            line = self._next_line(deadline)
            if line is TIMED_OUT:
                if stopped:
                    raise self._error(EngineTimeout, f"no {answer} within {timeout:g} s "
                                      f"(+{STOP_GRACE:g} s after stop){context}")
                stopped = True
                self.send("stop")
                deadline = time.monotonic() + STOP_GRACE
                continue
            if line is None:
                raise self._exited(during)
            yield line, stopped

    def new_game(self) -> None:
        """The next ``go`` is the start of a new game."""
        raise NotImplementedError

    def ping(self, timeout: float = 5.0) -> float:
        """A round trip to the engine; its seconds."""
        raise NotImplementedError

    def go(self, start_fen: str | None, moves: list[str], limits: GoLimits, timeout: float) -> GoResult:
        """The engine's move in the game from ``start_fen`` (None: the start position) after
        ``moves`` (our notation) under ``limits``; the move is not validated here."""
        raise NotImplementedError

    # --- pondering: the drivers whose protocol ponders override these (``ponder.py``) ----------
    @property
    def pondering(self) -> bool:
        """Whether a ponder search runs (``ponder`` was called and no ``go`` has answered it)."""
        return False

    def ponder(self, start_fen: str | None, moves: list[str], reply: str, limits: GoLimits) -> None:
        """Think on the opponent's time on ``reply`` after ``moves``; EngineProtocolError here:
        this protocol has no pondering."""
        raise self._error(EngineProtocolError, f"protocol {self.spec.protocol} has no pondering")

    def stop_pondering(self) -> None:
        """End a ponder search, its move dropped (none runs here)."""

    def check_pondering(self) -> None:
        """EngineCrash when the engine died while pondering (nothing to check here)."""

    # --- talking -------------------------------------------------------------------------
    def send(self, line: str) -> None:
        """Write one line to the engine; EngineCrash when it is gone."""
        proc = self._proc
        if proc is None:
            raise RuntimeError(f"engine {self.name!r} is not started")
        if self._closed:
            raise self._error(EngineCrash, "the engine was already quit or killed")
        self.log(">", line)
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._exited(f"while sending {line[:60]!r}") from None

    def log(self, direction: str, line: str) -> None:
        """Hand a line to ``io_log`` (if any): ``>`` sent, ``<`` received, ``!`` stderr."""
        if self.io_log is not None:
            self.io_log(self.name, direction, line)

    def _heard_info(self, line: str, infos: list[str]) -> None:
        """An ``info`` line of the running ``go``: kept in ``infos`` and handed to ``on_info``."""
        infos.append(line)
        if self.on_info is not None:
            self.on_info(line)

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
                self.log(">", "quit")
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
                line = line.rstrip("\r\n")
                self.log("<", line)
                self._lines.put(line)
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
                    self.log("!", line)
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
        """The next stdout line; None at end of output (or the process gone); TIMED_OUT past the deadline."""
        while True:
            if self._eof:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                try:
                    line = self._lines.get_nowait()
                except queue.Empty:
                    return TIMED_OUT
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

    def _drain(self) -> list[str]:
        """Drop lines left from earlier exchanges (e.g. a late answer); the lines dropped."""
        dropped = []
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return dropped
            if line is None:
                self._eof = True
                return dropped
            dropped.append(line)

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
