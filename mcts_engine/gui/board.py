"""One board on the page: a WebSocket's messages, its game session and its hosted engine.

``BoardConnection.handle(frame)`` validates a frame (``messages.parse_message``), acts on
the session, answers with the new ``state`` (or an ``error`` that changed nothing) and
starts the engine when it is the engine's turn or analysis is on.  The engine's search
runs as its own task (its I/O on the host's worker thread), so the page's clicks are
answered while it thinks; its ``info`` lines are sent as they arrive, with the principal
variation's click paths for the arrows.  A search whose position has changed (undo, new
game, a move played meanwhile) is stopped and its answer dropped.  An engine crash is
shown and a fresh engine started; three crashes in a row give up until the next change.
"""
from __future__ import annotations

import asyncio
from dataclasses import asdict, dataclass, field
from typing import Callable

from ..client import EngineError, EngineInfo, EngineSpec, GoLimits
from ..client.info import parse_info
from ..rules import is_draughts, list_games
from ..rules.base import RulesError
from . import messages as m
from .engine import EngineHost
from .session import BoardSession, SessionError

MAX_CRASHES = 3          # engine crashes in a row before the board stops restarting it
HALT_TIMEOUT = 5.0       # seconds a stopped search may take to answer before its engine is killed


@dataclass
class GuiConfig:
    """What the server was started with: the engines the page may choose from (by name; their
    commands fixed here), the default game, the tournament journal to watch, and the address
    it serves (requests naming another host are refused: ``guard.py``)."""

    engines: dict[str, EngineSpec] = field(default_factory=dict)
    default_engine: str | None = None
    game: str = "english"
    journal: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000

    def __post_init__(self) -> None:
        if self.default_engine is None and self.engines:
            self.default_engine = next(iter(self.engines))


class BoardConnection:
    """The server side of one board: session + engine host, driven by the page's messages."""

    def __init__(self, config: GuiConfig, post: Callable[[dict], None]):
        self.config = config
        self.post = post                     # queues a message for the page (``flow.Outbox.put``)
        self.session = BoardSession(config.game)
        self.host = EngineHost(config.engines)
        self.engine_name = config.default_engine
        self.players: list[str] = ["human", "engine"]
        self.limits = m.SetLimits(movetime=1000)
        self.analysing = False
        self.task: asyncio.Task | None = None
        self.search_id = 0
        self.crashes = 0

    # --- sending ------------------------------------------------------------------------------
    async def send(self, message: dict) -> None:
        """Send one message to the page (queued: a page slow to read never holds the server up)."""
        self.post(message)

    async def send_state(self, note: str = "") -> None:
        """The whole board state, with the players, engine, limits and a note (e.g. a hint)."""
        state = self.session.snapshot()
        state.update(type="state", players=self.players, engine=self.engine_name, analysing=self.analysing,
                     limits={k: v for k, v in asdict(self.limits).items() if v}, note=note,
                     thinking=self.task is not None and not self.task.done())
        await self.send(state)

    async def error(self, message: str) -> None:
        """An ``error``: why a frame, a click or a move was refused (nothing changed)."""
        await self.send({"type": "error", "message": message})

    async def status(self, status: str, message: str = "") -> None:
        """The engine's status (``starting``, ``thinking``, ``idle``, ``crashed``, ...) for the page."""
        await self.send({"type": "engine", "status": status, "name": self.engine_name, "message": message})

    # --- life ----------------------------------------------------------------------------------
    async def start(self) -> None:
        """Greet the page and show the board."""
        await self.send({"type": "hello", "games": list_games(), "engines": list(self.config.engines),
                         "engine": self.engine_name, "journal": bool(self.config.journal),
                         "players": self.players, "limits": asdict(self.limits)})
        await self.send_state()
        self._maybe_search()

    async def close(self) -> None:
        """The page went away: stop searching and end the engine."""
        self.search_id += 1
        self.host.stop()
        if self.task is not None:
            self.task.cancel()
        self.host.shutdown()

    async def handle(self, frame) -> None:
        """One frame from the page: validated, acted on, answered."""
        try:
            message = m.parse_message(frame)
        except m.BadMessage as err:
            await self.error(f"bad message: {err}")
            return
        try:
            await self._dispatch(message)
        except (RulesError, SessionError) as err:
            await self.error(str(err))
            await self.send_state()

    async def _dispatch(self, msg: m.Message) -> None:
        """Act on one validated message (``HANDLERS`` names the method for its type)."""
        await HANDLERS[type(msg)](self, msg)

    async def on_ping(self, msg: m.Ping) -> None:
        """pong, with the ping's id."""
        await self.send({"type": "pong", "id": msg.id})

    async def on_click(self, msg: m.Click) -> None:
        """A click: the selection changes (shown), or it completes a move (played), or it is refused."""
        if await self._engine_thinking():
            return
        outcome = self.session.click(msg.point)
        if outcome.kind == "refused":
            await self.error(outcome.message)
            await self.send_state()
        elif outcome.kind != "move":
            await self.send_state(outcome.message)
        else:
            await self._changed()

    async def on_move(self, msg: m.PlayMove) -> None:
        """A move by its notation (the move list)."""
        if await self._engine_thinking():
            return
        self.session.play_text(msg.move)
        await self._changed()

    async def on_cancel(self, msg: m.Cancel) -> None:
        """Drop the move being entered."""
        self.session.cancel()
        await self.send_state()

    async def on_start(self, msg: m.StartGame | m.LoadFen) -> None:
        """A new game, or the current game from a FEN: built first, so a bad FEN or option changes nothing."""
        s = self.session
        game, rules = (msg.game, msg.rules) if isinstance(msg, m.StartGame) else (s.game.name, s.rules_text)
        fresh = BoardSession(game, rules, msg.fen)
        await self._halt()
        self.session = fresh
        await self._changed()

    async def on_restore(self, msg: m.Restore) -> None:
        """A reconnecting page's game put back: the game replayed off the event loop (a long
        game takes a while), then its players, engine and limits; a move the rules refuse
        ends the replay there, and says so."""
        fresh = BoardSession(msg.game, msg.rules, msg.fen)
        why = await asyncio.get_running_loop().run_in_executor(None, fresh.replay, list(msg.moves))
        await self._halt()
        self.session, self.players = fresh, list(msg.players)
        if msg.engine in self.config.engines:
            self.engine_name = msg.engine
        if msg.limits is not None:
            self.limits = msg.limits
        if why:
            await self.error(f"the game could not be put back whole: {why}")
        await self._changed()

    async def on_undo(self, msg: m.Undo) -> None:
        """Take back a ply, and the engine's replies in play, so that a human is to move."""
        s = self.session
        await self._halt()
        s.undo(1)
        while s.played and self.players[s.state.to_move] == "engine" and "human" in self.players:
            s.undo(1)
        await self._changed(auto=False)

    async def on_players(self, msg: m.Players) -> None:
        """Who plays each side."""
        self.players = list(msg.players)
        await self._halt()
        await self._changed()

    async def on_choose_engine(self, msg: m.ChooseEngine) -> None:
        """Another of the server's engines plays and analyses."""
        if msg.name not in self.config.engines:
            raise SessionError(f"engine {msg.name!r} is not one of the server's engines: "
                               f"{', '.join(self.config.engines) or 'none'}")
        await self._halt()
        self.engine_name = msg.name
        await self.host.close()
        await self._changed()

    async def on_limits(self, msg: m.SetLimits) -> None:
        """The engine's time per move from now on."""
        self.limits = msg
        await self.send_state()

    async def on_go(self, msg: m.Go) -> None:
        """The engine plays the side to move now."""
        await self._halt()
        if self.session.outcome is not None:
            raise SessionError("the game is over")
        self._start_search("move")
        await self.send_state()

    async def on_analyse(self, msg: m.Analyse) -> None:
        """Infinite analysis on or off."""
        self.analysing = msg.on
        if msg.on:
            if not self._busy():
                self._start_search("analyse")
        elif not self._engine_to_move():
            await self._halt()
        await self.send_state()

    async def on_stop(self, msg: m.Stop) -> None:
        """Stop the engine: its move is played in play, an analysis ends."""
        self.analysing = False
        if self._busy():
            if self._engine_to_move():
                self.host.stop()       # its bestmove is played
            else:
                await self._halt()
        await self.send_state()

    async def on_record(self, msg: m.Record) -> None:
        """The game as PDN (draughts) or PGN-like text."""
        s = self.session
        players = tuple(self.engine_name or "engine" if p == "engine" else "human" for p in self.players)
        await self.send({"type": "record", "text": s.record_text(players),
                         "filename": f"{s.game.name}.{'pdn' if is_draughts(s.game.name) else 'pgn'}"})

    async def _engine_thinking(self) -> bool:
        """Whether a human move must wait: the engine is thinking about its own move (then said)."""
        if self._engine_to_move() and self._busy():
            await self.error("the engine is thinking about its move: wait, or press stop")
            return True
        return False

    # --- the engine -------------------------------------------------------------------------
    def _engine_to_move(self) -> bool:
        s = self.session
        return s.outcome is None and self.players[s.state.to_move] == "engine"

    def _busy(self) -> bool:
        return self.task is not None and not self.task.done()

    async def _changed(self, auto: bool = True) -> None:
        """The position changed: show it, then let the engine move or analyse."""
        self.crashes = 0
        await self.send_state()
        if auto:
            self._maybe_search()
        elif self.analysing:
            self._start_search("analyse")

    def _maybe_search(self) -> None:
        if self._busy() or self.session.outcome is not None or not self.engine_name:
            return
        if self._engine_to_move():
            self._start_search("move")
        elif self.analysing:
            self._start_search("analyse")

    def _start_search(self, kind: str) -> None:
        self.search_id += 1
        self.task = asyncio.get_running_loop().create_task(self._search(kind, self.search_id))

    async def _halt(self) -> None:
        """Stop the running search and drop its answer (the position is about to change)."""
        self.search_id += 1
        if not self._busy():
            return
        self.host.stop()
        try:
            await asyncio.wait_for(asyncio.shield(self.task), HALT_TIMEOUT)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            await self.host.close()
        except Exception:
            pass

    async def _search(self, kind: str, my: int) -> None:
        s = self.session
        loop = asyncio.get_running_loop()
        try:
            if not self.host.alive:
                await self.status("starting")
            await self.host.ensure(self.engine_name, s.game.name, s.rule_options)
            if my != self.search_id:
                return
            await self.status("thinking" if kind == "move" else "analysing")
            limits = GoLimits(infinite=True) if kind == "analyse" else self.limits.go_limits()

            def on_info(line: str) -> None:
                loop.call_soon_threadsafe(self._info, my, line)

            result = await self.host.search(s.start_fen, s.move_texts, limits, on_info)
        except EngineError as err:
            await self._crashed(kind, my, err)
            return
        self.crashes = 0
        await self.status("idle")
        if my != self.search_id:
            return
        if kind == "move":
            try:
                s.play_text(result.move)
            except (RulesError, SessionError) as err:
                side = s.state.to_move
                self.players[side] = "human"
                await self.error(f"the engine's move {result.move!r} was refused by the rules: {err}; "
                                 f"you play that side now")
                await self.send_state()
                return
            self.task = None
            await self._changed()

    async def _crashed(self, kind: str, my: int, err: Exception) -> None:
        self.crashes += 1
        await self.status("crashed", str(err))
        if self.crashes > MAX_CRASHES or my != self.search_id:
            return
        try:
            await self.host.ensure(self.engine_name, self.session.game.name, self.session.rule_options)
        except EngineError as again:
            await self.status("crashed", f"restart failed: {again}")
            return
        await self.status("restarted", "a fresh engine process was started")
        if my == self.search_id and (kind == "move" and self._engine_to_move() or kind == "analyse" and self.analysing):
            self.task = None
            self._start_search(kind)

    def _info(self, my: int, line: str) -> None:
        if my != self.search_id:
            return
        info = parse_info(line)
        message = {"type": "info", **info_fields(info), "line": line[:500]}
        message["pv_paths"] = self.session.pv_paths(list(info.pv)) if info.pv else []
        self.post(message)


def info_fields(info: EngineInfo) -> dict:
    """An info line's fields as the page reads them: the numbers, ``score_cp`` or ``mate``,
    ``wdl``, the PV (a list) and the ``string`` (None where the line says nothing)."""
    score = info.score
    return {"depth": info.depth, "seldepth": info.seldepth, "nodes": info.nodes, "nps": info.nps, "time": info.time,
            "score_cp": score.cp if score else None, "mate": score.mate if score else None,
            "wdl": list(info.wdl) if info.wdl else None, "pv": list(info.pv or ()), "string": info.string or ""}


HANDLERS = {m.Ping: BoardConnection.on_ping, m.Click: BoardConnection.on_click, m.PlayMove: BoardConnection.on_move,
            m.Cancel: BoardConnection.on_cancel, m.StartGame: BoardConnection.on_start,
            m.LoadFen: BoardConnection.on_start, m.Undo: BoardConnection.on_undo,
            m.Players: BoardConnection.on_players, m.ChooseEngine: BoardConnection.on_choose_engine,
            m.SetLimits: BoardConnection.on_limits, m.Go: BoardConnection.on_go,
            m.Analyse: BoardConnection.on_analyse, m.Stop: BoardConnection.on_stop,
            m.Record: BoardConnection.on_record, m.Restore: BoardConnection.on_restore}
