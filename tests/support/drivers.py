"""Test drivers of the engine protocol, shared by the protocol, Hub, parallel and tournament tests.

* ``EngineProcess``: the real console script in a subprocess.
* ``InProcessEngine``: the same protocol served in a thread of the test process over a
  ``FakeTransport`` (lines in a queue in, lines in a queue out), as python-chess's
  ``MockTransport`` drives an engine without a process.
* ``HubDriver``: a small Hub v2 client over either of them.

Both engines have the same reading API (``send``, ``read``, ``until``, ``ask``, ``query``,
``go``, ``close``), and every read has a timeout, so a silent or dead engine fails a
test instead of hanging the suite.
"""
from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from mcts_engine.protocol import serve

ROOT = Path(__file__).resolve().parents[2]
READ_TIMEOUT = 20.0       # generous: the machine may be slow and shared


def engine_command() -> list[str]:
    """The installed console script next to the interpreter, else ``python -m mcts_engine``."""
    script = Path(sys.executable).parent / "mcts-engine"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "mcts_engine"]


def engine_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for an engine subprocess: this tree first on the import path, then ``extra``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra or {})
    return env


class LineEngine:
    """Reading and writing protocol lines with timeouts; subclasses supply the channel.

    Subclasses put ``(time read, line)`` pairs on ``self.lines`` (``None`` = end of
    output) and implement ``_write(bytes)``.
    """

    def __init__(self) -> None:
        self.lines: queue.Queue = queue.Queue()
        self.log: list[str] = []

    def _write(self, data: bytes) -> None:
        raise NotImplementedError

    def describe(self) -> str:
        """What to show when a read fails."""
        return f"last lines: {self.log[-10:]}"

    # --- writing -------------------------------------------------------------------------
    def send(self, line: str | bytes) -> float:
        """Write one line; returns the time just before writing."""
        data = line if isinstance(line, bytes) else line.encode("utf-8")
        t = time.perf_counter()
        self._write(data + b"\n")
        return t

    # --- reading -------------------------------------------------------------------------
    def read_timed(self, timeout: float = READ_TIMEOUT) -> tuple[float, str]:
        """The next line and the time it was read; fails after ``timeout`` or at end of output."""
        try:
            t, line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no output within {timeout} s; {self.describe()}") from None
        if line is None:
            self.lines.put((t, None))
            raise AssertionError(f"the engine closed its output; {self.describe()}")
        self.log.append(line)
        return t, line

    def read(self, timeout: float = READ_TIMEOUT) -> str:
        """The next line."""
        return self.read_timed(timeout)[1]

    def read_until(self, predicate, timeout: float = READ_TIMEOUT) -> list[str]:
        """Lines up to and including the first for which ``predicate`` holds."""
        deadline = time.perf_counter() + timeout
        out = []
        while True:
            line = self.read(max(0.01, deadline - time.perf_counter()))
            out.append(line)
            if predicate(line):
                return out

    def until(self, first_word: str, timeout: float = READ_TIMEOUT) -> list[str]:
        """Lines up to and including the first that starts with the word ``first_word``."""
        return self.read_until(lambda s: s.split()[:1] == [first_word], timeout)

    def sync(self, timeout: float = READ_TIMEOUT) -> list[str]:
        """Send isready; the lines before readyok."""
        self.send("isready")
        return self.read_until(lambda s: s == "readyok", timeout)[:-1]

    def ask(self, line: str) -> list[str]:
        """Send a command, then isready: what the command printed."""
        self.send(line)
        return self.sync()

    def query(self, what: str) -> str:
        """``query what`` -> the text after ``response``."""
        self.send(f"query {what}")
        line = self.read()
        assert line.split()[:1] == ["response"], line
        return line[len("response"):].strip()

    def go(self, limits: str, timeout: float = READ_TIMEOUT) -> tuple[list[str], str]:
        """``go limits`` -> (its info lines, the move of ``bestmove``)."""
        self.send(f"go {limits}")
        lines = self.until("bestmove", timeout)
        assert all(s.startswith("info") for s in lines[:-1]), lines
        return lines[:-1], lines[-1].split()[1]


class EngineProcess(LineEngine):
    """The engine as a subprocess (a reader thread per stream feeds the line queue)."""

    def __init__(self, args: list[str] | None = None, env: dict[str, str] | None = None):
        super().__init__()
        self.proc = subprocess.Popen(engine_command() + (args or []), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                                     env=engine_env(env), bufsize=0, start_new_session=True)
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self) -> None:
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put((time.perf_counter(), raw.decode("utf-8", errors="replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def _read_stderr(self) -> None:
        for raw in iter(self.proc.stderr.readline, b""):
            self.stderr.append(raw)

    def _write(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def describe(self) -> str:
        return f"{super().describe()}; stderr: {b''.join(self.stderr)[-2000:]!r}"

    def close(self, timeout: float = 5.0) -> int:
        """Send quit and wait for the exit status (kill after ``timeout``)."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.stdin.close()
            except (BrokenPipeError, OSError, ValueError):
                pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError("the engine did not exit after quit") from None

    def kill(self) -> None:
        """End the process now (a test's clean-up)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


class FakeTransport:
    """A ``Transport`` of queues: the test puts input lines in, the engine's lines come out."""

    def __init__(self, out: queue.Queue):
        self.inbox: queue.Queue = queue.Queue()
        self.out = out

    def read_line(self) -> str | None:
        """The next line the test sent; None once the test closed the input."""
        return self.inbox.get()

    def write_line(self, line: str) -> None:
        """Hand one engine line to the test, stamped with the time."""
        self.out.put((time.perf_counter(), line))


class InProcessEngine(LineEngine):
    """The whole protocol (``serve``) in a thread of this process, over a ``FakeTransport``."""

    def __init__(self):
        super().__init__()
        self.transport = FakeTransport(self.lines)
        self.status: int | None = None
        self.thread = threading.Thread(target=self._serve, name="protocol", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.status = serve(self.transport)
        self.lines.put((time.perf_counter(), None))

    def _write(self, data: bytes) -> None:
        self.transport.inbox.put(data.decode("utf-8", errors="replace"))

    def end_input(self) -> None:
        """Close the input, as a client that exits does."""
        self.transport.inbox.put(None)

    def close(self, timeout: float = 5.0) -> int:
        """Send quit and wait for ``serve`` to return its status."""
        if self.thread.is_alive():
            self.send("quit")
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "serve did not return after quit"
        return self.status


def hub_fields(text: str) -> dict[str, str]:
    """A Hub line's ``key=value`` fields after its command (quotes removed; flags map to "")."""
    return {m.group(1): (m.group(2) or "").strip('"')
            for m in re.finditer(r'([^\s=]+)(?:=("[^"]*"|\S*))?', text.split(None, 1)[1] if " " in text else "")}


class HubDriver:
    """A Hub v2 client (Scan's ``protocol.txt``) over a ``LineEngine``; it keeps every error line."""

    def __init__(self, engine: LineEngine):
        self.engine = engine
        self.errors: list[str] = []

    def handshake(self, **params: object) -> list[str]:
        """hub ... wait, set-param for each parameter, init ... ready; returns the hub answer."""
        self.engine.send("hub")
        lines = self.engine.until("wait")
        for name, value in params.items():
            self.engine.send(f"set-param name={name} value={value}")
        self.engine.send("init")
        self._collect(self.engine.until("ready"))
        return lines

    def ping(self) -> list[str]:
        """ping: the lines before pong (errors are collected)."""
        self.engine.send("ping")
        return self._collect(self.engine.until("pong"))[:-1]

    def position(self, pos: str | None, moves: list[str]) -> None:
        """pos [pos="..."] [moves="..."]."""
        line = "pos" + (f' pos="{pos}"' if pos else "") + (f' moves="{" ".join(moves)}"' if moves else "")
        self.engine.send(line)

    def think(self, level: str) -> tuple[list[str], str, str | None]:
        """level ..., go think -> (the info lines, the move of done, its ponder move or None)."""
        self.engine.send(f"level {level}")
        self.engine.send("go think")
        lines = self._collect(self.engine.until("done"))
        done = hub_fields(lines[-1])
        return lines[:-1], done["move"], done.get("ponder")

    def _collect(self, lines: list[str]) -> list[str]:
        self.errors += [s for s in lines if s.startswith("error")]
        return lines


def processes_in_group(pgid: int) -> list[int]:
    """Live processes in the engine's process group or children of it (it runs in its own session)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        state, ppid, pgrp = fields[0], int(fields[1]), int(fields[2])
        if state != "Z" and (pgrp == pgid or ppid == pgid):
            out.append(int(entry.name))
    return out
