"""``--log FILE``: every line to and from every engine, as cutechess's ``-debug`` shows them.

One line per engine line: seconds since the log was opened, the engine's name, ``>`` for a
line the manager sent, ``<`` for one the engine wrote on stdout, ``!`` on stderr, then the
line (DXP messages as their text).  Worker threads write at once under a lock, each line
flushed, so a log of a killed run ends with the last line exchanged.
"""
from __future__ import annotations

import threading
import time
from typing import TextIO

__all__ = ["EngineLog"]


class EngineLog:
    """The log file; ``line`` is the engine processes' ``io_log`` hook.  A context manager."""

    def __init__(self, path: str):
        self.path = path
        self._file: TextIO = open(path, "a", encoding="utf-8")
        self._lock = threading.Lock()
        self._start = time.monotonic()

    def line(self, engine: str, direction: str, text: str) -> None:
        """Write one exchanged line: ``12.345 name > text``."""
        with self._lock:
            if self._file.closed:
                return
            self._file.write(f"{time.monotonic() - self._start:.3f} {engine} {direction} {text}\n")
            self._file.flush()

    def close(self) -> None:
        """Close the file (later lines are dropped)."""
        with self._lock:
            self._file.close()

    def __enter__(self) -> "EngineLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
