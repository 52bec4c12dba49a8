"""What goes wrong with an engine process, as exceptions with a short ``reason`` code.

The manager records the code with a forfeit:

==================  ========  ===================================================
exception           reason    when
==================  ========  ===================================================
EngineStartError    start     cannot spawn, no handshake answer in time, an
                              option the engine rejects or does not declare
EngineCrash         crash     the process exited or closed its stdout (the group
                              is killed and reaped before this is raised)
EngineTimeout       timeout   no answer within the limit (after ``stop`` and a
                              0.5 s grace for ``go``); the process is left
                              running: the caller should ``quit()`` it
EngineProtocolError protocol  a malformed answer (a move-less ``bestmove``)
==================  ========  ===================================================
"""
from __future__ import annotations

__all__ = ["EngineError", "EngineStartError", "EngineCrash", "EngineTimeout", "EngineProtocolError"]


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
