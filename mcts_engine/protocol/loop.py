"""The protocol loop: lines in from a transport, the dialect chosen by the first line, lines out.

``serve(transport)`` is the whole protocol over any ``Transport`` (a test drives it
in-process with lines in a queue); ``run(stdin, stdout)`` serves standard I/O.
"""
from __future__ import annotations

import sys
import threading
from typing import Callable, Protocol, TextIO

from .. import native
from ..echo import short
from .hub import HubProtocol, hub_quote
from .uci import UciProtocol

Dialect = UciProtocol | HubProtocol


class Transport(Protocol):
    """Where the protocol's lines come from and go to."""

    def read_line(self) -> str | None:
        """The next input line (without caring for its line end), or None at end of input."""

    def write_line(self, line: str) -> None:
        """Send one output line at once; called from the reading and the search thread alike."""


class StdioTransport:
    """Lines on a text stream pair: input decoded leniently, output flushed line by line under a lock."""

    def __init__(self, stdin: TextIO, stdout: TextIO):
        self._read = _line_reader(stdin)
        self._stdout = stdout
        self._lock = threading.Lock()
        self._broken = False

    def read_line(self) -> str | None:
        """The next input line, or None at end of input."""
        return self._read()

    def write_line(self, line: str) -> None:
        """Write and flush one line; once the reader is gone, drop output until the loop ends."""
        with self._lock:
            if self._broken:
                return
            try:
                self._stdout.write(line + "\n")
                self._stdout.flush()
            except (BrokenPipeError, OSError, ValueError):
                self._broken = True


def _line_reader(stdin: TextIO) -> Callable[[], str | None]:
    """A function returning the next input line (bytes decoded leniently), or None at end of input."""
    raw = getattr(stdin, "buffer", None)
    if raw is not None:
        def read() -> str | None:
            data = raw.readline()
            return data.decode("utf-8", errors="replace") if data else None
    else:
        def read() -> str | None:
            return stdin.readline() or None
    return read


def choose_dialect(first_line: str, write: Callable[[str], None]) -> Dialect:
    """Hub when the first line is ``hub``, else our UCI-like dialect."""
    words = first_line.split()
    return HubProtocol(write) if words[:1] == ["hub"] else UciProtocol(write)


def serve(transport: Transport, hub: bool = False, params: dict[str, str] | None = None) -> int:
    """Speak the protocol over ``transport`` until ``quit`` or end of input; return 0.

    With ``hub`` the session speaks Hub from the start (``mcts-engine hub``, as Scan is started
    as ``scan hub``), its parameters first set from ``params`` as by ``set-param``."""
    dialect: Dialect | None = None
    if hub:
        dialect = HubProtocol(transport.write_line)
        for name, value in (params or {}).items():
            dialect.handle(f"set-param name={name} value={hub_quote(value)}")
    try:
        while dialect is None or not dialect.session.closed:
            line = transport.read_line()
            if line is None:
                break
            if not line.split():
                continue
            if dialect is None:
                dialect = choose_dialect(line, transport.write_line)
            try:
                dialect.handle(line)
            except Exception as err:  # a bug must not end the session
                dialect.error(f"internal error on {short(line.strip())!r}: {type(err).__name__}: {err}")
    except KeyboardInterrupt:
        pass
    finally:
        if dialect is not None:
            dialect.session.shutdown()
    return 0


def run(stdin: TextIO | None = None, stdout: TextIO | None = None, hub: bool = False,
        params: dict[str, str] | None = None) -> int:
    """Speak the protocol on ``stdin``/``stdout`` (default: the process's) until ``quit`` or end of
    input; Hub from the start with ``hub`` (``params`` set first, see ``serve``)."""
    # The reading thread waits for the GIL while the search thread runs; hand it over
    # after 1 ms instead of 5 so that stop and isready are answered at once.
    sys.setswitchinterval(0.001)
    native.warn_if_missing()
    return serve(StdioTransport(sys.stdin if stdin is None else stdin, sys.stdout if stdout is None else stdout),
                 hub, params)
