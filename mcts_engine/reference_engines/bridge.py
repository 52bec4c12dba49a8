"""The adapter's side of a worker process: JSON lines over the worker's stdin and stdout.

A reference engine runs in a worker process of its own (``openspiel_worker.py``,
``pydraughts_worker.py``): OpenSpiel's search holds the interpreter lock for its whole
length, and py-draughts lives in another virtual environment, so neither can run inside
the protocol process.  The worker knows only its engine and its engine's squares; the
adapter (``adapter.py``) checks everything it answers against our rules.

Wire format, one JSON object a line.  Requests carry ``op``:

* ``{"op": "hello"}`` -> ``{"ok": true, "engine": "...", "version": "..."}``
* ``{"op": "search", "variant": ..., "start": FEN or null, "moves": [MOVE, ...],
  "limits": {"seconds": s or null, "nodes": n or null, "depth": d or null,
  "infinite": bool}, "params": {...}, "seed": n}`` -> ``{"ok": true, "move": MOVE,
  "legal": [MOVE, ...], "score": ..., "nodes": n, "depth": d, "seconds": s, "notes": [...]}``
  or ``{"ok": false, "error": "...", ...}``
* ``{"op": "stop"}`` (no answer: a running search ends as soon as the engine can stop)
* ``{"op": "new"}`` -> ``{"ok": true}`` (forget what the engine learnt in the last game)
* ``{"op": "quit"}`` (no answer; the worker exits)
* py-draughts' worker also answers ``{"op": "legal", ...}`` with its legal moves at every
  ply of a game (``pydraughts_worker.py``; the tests compare them with our rules')

A MOVE is ``[start, end, [captured, ...]]`` in the engine's own square names (strings).
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from typing import Sequence

STARTUP_TIMEOUT = 60.0     # seconds for the worker's hello (py-draughts imports a web stack)


class BridgeError(RuntimeError):
    """The worker could not be started, died, fell silent or answered nonsense."""


class Bridge:
    """One worker process spoken to in JSON lines; its stdout is read by a thread of its own."""

    def __init__(self, command: Sequence[str], env: dict[str, str] | None = None):
        self.command = list(command)
        try:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, bufsize=1, env=env, start_new_session=True)
        except OSError as err:
            raise BridgeError(f"cannot start {' '.join(self.command)!r}: {err}") from None
        self._replies: queue.Queue = queue.Queue()
        self._stderr: list[str] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            line = line.strip()
            if not line:
                continue
            try:
                self._replies.put(json.loads(line))
            except ValueError:
                self._replies.put({"ok": False, "error": f"the worker wrote a line that is not JSON: {line[:200]!r}"})
        self._replies.put(None)

    def _read_stderr(self) -> None:
        for line in self.process.stderr:
            self._stderr.append(line.rstrip())
            del self._stderr[:-20]

    def stderr_tail(self) -> str:
        """The worker's last lines on stderr (a traceback, an import error), as one string."""
        return " | ".join(line for line in self._stderr[-6:] if line.strip())

    def send(self, message: dict) -> None:
        """Send one request; raises BridgeError when the worker is gone."""
        text = json.dumps(message, separators=(",", ":"))
        with self._lock:
            try:
                self.process.stdin.write(text + "\n")
                self.process.stdin.flush()
            except (BrokenPipeError, OSError, ValueError) as err:
                raise BridgeError(f"the worker is gone ({err}){self._why()}") from None

    def receive(self, timeout: float | None) -> dict:
        """The next answer; raises BridgeError when the worker exits or stays silent past ``timeout``."""
        try:
            reply = self._replies.get(timeout=timeout)
        except queue.Empty:
            raise BridgeError(f"the worker did not answer within {timeout:g} s") from None
        if reply is None:
            self._replies.put(None)      # every later receive sees the end too
            time.sleep(0.05)             # let the stderr reader catch the worker's last words
            raise BridgeError(f"the worker exited (status {self.process.poll()}){self._why()}")
        return reply

    def request(self, message: dict, timeout: float | None) -> dict:
        """Send a request and wait for its answer."""
        self.send(message)
        return self.receive(timeout)

    def _why(self) -> str:
        tail = self.stderr_tail()
        return f": {tail}" if tail else ""

    def close(self) -> None:
        """Ask the worker to quit; kill its process group if it does not within a second."""
        try:
            self.send({"op": "quit"})
            self.process.stdin.close()
        except (BridgeError, OSError, ValueError):
            pass
        try:
            self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.process.pid, 9)
            except OSError:
                pass
            self.process.wait()
