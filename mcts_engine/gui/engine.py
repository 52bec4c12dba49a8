"""The engine a board hosts: a subprocess spoken to through our protocol.

The process is the engine client's ``EngineProcess`` (``mcts_engine.client``: spawn in
its own process group, handshake, options, the game and its rules, ``go`` with timeouts,
crash detection, clean shutdown), the driver the tournament manager uses too; every
``info`` line reaches the driver's ``on_info`` hook the moment it arrives;
``HostedEngine`` adds a lock so that ``stop`` can be sent while ``go`` waits.  Any program
that speaks the protocol can be hosted; which commands may run is fixed by the server's
command line or engines file (``EngineSpec``), never by the page.

``EngineHost`` runs the blocking calls on one worker thread per board, so the event
loop never waits for the engine: ``await host.search(...)`` while the page's clicks
are answered.  A crash (``EngineError``) leaves the host without a process; the next
``ensure`` starts a fresh one.
"""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from ..client import EngineError, EngineProcess, EngineSpec, GoLimits, GoResult

INFINITE_TIMEOUT = 24 * 3600.0    # seconds a "go infinite" may run before we stop it
NODES_TIMEOUT = 120.0             # seconds a "go nodes N" may take
START_TIMEOUT = 20.0              # seconds for the handshake (a cold Python start on a busy machine)


class HostedEngine(EngineProcess):
    """An ``EngineProcess`` that ``stop`` may reach while ``go`` waits on another thread; its
    ``info`` lines reach the driver's public ``on_info`` hook as they arrive."""

    def __init__(self, spec: EngineSpec, **kwargs):
        super().__init__(spec, **kwargs)
        self._send_lock = threading.Lock()

    def send(self, line: str) -> None:
        """Write one line (thread-safe: ``stop`` may come from the event loop during ``go``)."""
        with self._send_lock:
            super().send(line)


class EngineHost:
    """One board's engine: started on demand for a game, searching on a worker thread."""

    def __init__(self, specs: dict[str, EngineSpec]):
        self.specs = specs
        self.engine: HostedEngine | None = None
        self.key: tuple | None = None        # (engine name, game, rules) of the running process
        self.searching = False
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gui-engine")

    @property
    def alive(self) -> bool:
        """Whether an engine process runs."""
        return self.engine is not None and self.engine.alive

    async def ensure(self, name: str, game: str, rules: dict) -> HostedEngine:
        """The running engine for (name, game, rules), started (handshake included) if needed.
        Raises EngineError when it cannot start, KeyError for a name that is not configured."""
        spec = self.specs[name]
        key = (name, game, tuple(sorted(rules.items())))
        if self.engine is not None and self.key == key and self.engine.alive:
            return self.engine
        await self.close()
        engine = HostedEngine(spec, startup_timeout=START_TIMEOUT, game=game, rules=rules)
        await self._run(engine.start)
        self.engine, self.key = engine, key
        return engine

    async def search(self, start_fen: str, moves: list[str], limits: GoLimits,
                     on_info: Callable[[str], None]) -> GoResult:
        """Search the position (start FEN and moves); ``on_info`` gets every info line (on the
        worker thread).  Raises EngineError on a crash or timeout (the process is then gone)."""
        engine = self.engine
        if engine is None:
            raise EngineError("no engine is running")
        if limits.infinite:
            timeout = INFINITE_TIMEOUT
        elif limits.nodes:
            timeout = NODES_TIMEOUT
        else:
            timeout = (limits.movetime or 1000) / 1000 + 10
        engine.on_info = on_info
        self.searching = True
        try:
            return await self._run(engine.go, start_fen, moves, limits, timeout)
        except EngineError:
            self.engine = None
            engine.kill()      # a timeout leaves the process running: end it (a crash: reap it)
            raise
        finally:
            self.searching = False
            engine.on_info = None

    def stop(self) -> None:
        """Ask the running search to stop now (its bestmove still arrives)."""
        engine = self.engine
        if engine is not None and self.searching:
            try:
                engine.send("stop")
            except EngineError:
                pass

    async def close(self) -> None:
        """Quit the engine process (if any) and forget it."""
        engine, self.engine, self.key = self.engine, None, None
        if engine is None:
            return
        if self.searching:
            engine.kill()     # its go (on the worker thread) ends with EngineCrash
        await asyncio.get_running_loop().run_in_executor(None, engine.quit)

    def shutdown(self) -> None:
        """End the engine and the worker thread (the board's connection closed)."""
        if self.engine is not None:
            self.engine.kill()
            self.engine = None
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def _run(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
