"""The tournament watcher's pushes: a WebSocket per watching page (``/ws/watch``), all fed by
one ``WatchHub`` that follows the journal and its live file.

Three tasks run while a page watches: one looks at the live file every ``POLL`` seconds (a
``stat``) and, when it changed, reads and replays its games (``live.py``, off the event loop)
and sends them to every page (``live``); one does the same for the journal (``summary``: the
manager's report, off the loop); one computes the points of the match's Elo series that the
summaries skipped, one at a time, sending the summary again with each.  Three tasks, so that
a slow report never holds the live board, nor a point of the plot the standings, back.  Each page's
messages go through its own ``Outbox`` in which a newer ``live`` or ``summary`` replaces one
still waiting (a page that reads slowly skips states, never falls behind).  The pages send
nothing: a frame from one closes it (1003); at most ``MAX_WATCHERS`` pages watch at once.
"""
from __future__ import annotations

import asyncio
import logging

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from .flow import Outbox
from .live import LiveWatch, time_left
from .watch import JournalWatch, WatchError

POLL = 0.2             # seconds between two looks at the live file and the journal
MAX_WATCHERS = 32      # pages watching at once
log = logging.getLogger("mcts_engine.gui")


class WatchHub:
    """The watching pages of one journal and the two tasks that feed them (running while
    there is a page)."""

    def __init__(self, watch: JournalWatch, live: LiveWatch, poll: float = POLL):
        self.watch, self.live, self.poll = watch, live, poll
        self.outboxes: set[Outbox] = set()
        self.tasks: list[asyncio.Task] = []
        self.summary: dict | None = None          # the last summary message sent
        self.live_content: dict | None = None     # the live file as last read
        self.count = 0                            # games in the journal at the last summary
        self.journal_key: tuple | None = None     # the journal's (mtime, size) the last summary read

    def full(self) -> bool:
        """Whether ``MAX_WATCHERS`` pages watch already."""
        return len(self.outboxes) >= MAX_WATCHERS

    def join(self, outbox: Outbox) -> None:
        """A page starts watching: it gets the latest summary and live games at once."""
        self.outboxes.add(outbox)
        if self.summary is not None:
            outbox.put(self.summary)
        if self.live_content is not None:
            outbox.put(self.live_message())
        if not self.tasks:
            loop = asyncio.get_running_loop()
            self.tasks = [loop.create_task(self._follow(step))
                          for step in (self._live_step, self._journal_step, self._series_step)]

    def leave(self, outbox: Outbox) -> None:
        """A page stops watching; the tasks stop with the last one."""
        self.outboxes.discard(outbox)
        if not self.outboxes:
            for task in self.tasks:
                task.cancel()
            self.tasks = []
            self.summary = self.live_content = None
            self.count, self.journal_key = 0, None

    def broadcast(self, message: dict) -> None:
        """Queue ``message`` for every watching page."""
        for outbox in list(self.outboxes):
            outbox.put(message)

    def live_message(self) -> dict:
        """The live games as the pages get them, with the estimate of the time left."""
        content = self.live_content or {}
        estimate = time_left(content, self.count) if content.get("running") else None
        return {"type": "live", **content, "time_left": estimate}

    async def _follow(self, step) -> None:
        """Run ``step`` every ``poll`` seconds until cancelled (a failure is logged, not fatal)."""
        state = {"key": object()}
        while True:
            try:
                await step(state)
            except asyncio.CancelledError:
                raise
            except Exception as err:         # a bug must not leave the pages without updates
                log.warning("gui: the watcher failed: %s: %s", type(err).__name__, err)
            await asyncio.sleep(self.poll)

    async def _live_step(self, state: dict) -> None:
        key = self.live.file_key()
        if key == state["key"]:
            return
        state["key"] = key
        try:
            self.live_content = await run_in_threadpool(self.live.read)
        except WatchError as err:
            self.live_content = {"running": False, "games": [], "why": str(err)}
        self.broadcast(self.live_message())

    async def _journal_step(self, state: dict) -> None:
        key = self.watch.file_key()
        if key == state["key"]:
            return
        state["key"] = key
        await self._send_summary()
        self.journal_key = key
        if self.live_content is not None:
            self.broadcast(self.live_message())     # the time left at the new count

    async def _series_step(self, state: dict) -> None:
        if self.summary is None or self.watch.file_key() != self.journal_key:
            return                                  # a new summary comes first
        if await run_in_threadpool(self.watch.fill_series):
            await self._send_summary()

    async def _send_summary(self) -> None:
        try:
            summary = await run_in_threadpool(self.watch.summary)
            self.count = summary["count"]
            self.summary = {"type": "summary", **summary}
        except WatchError as err:
            self.summary = {"type": "summary", "error": str(err)}
        self.broadcast(self.summary)


async def watch_socket(websocket: WebSocket, hub: WatchHub) -> None:
    """One watching page (its WebSocket accepted): pushes until it goes, sends a frame (closed
    with 1003) or leaves its messages unread (closed with 1008)."""
    outbox = Outbox(websocket.send_text, latest=("live", "summary"))
    hub.join(outbox)
    loop = asyncio.get_running_loop()
    reader = loop.create_task(websocket.receive())
    closed = loop.create_task(outbox.closed.wait())
    try:
        await asyncio.wait({reader, closed}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (reader, closed):
            task.cancel()
        hub.leave(outbox)
        outbox.close()
    frame = reader.result() if reader.done() and not reader.cancelled() and not reader.exception() else None
    if frame is not None and frame["type"] == "websocket.disconnect":
        return
    code = 1003 if frame is not None else 1008      # the page spoke, or did not read
    try:
        await asyncio.wait_for(websocket.close(code=code), 2.0)
    except (RuntimeError, OSError, asyncio.TimeoutError, WebSocketDisconnect):
        pass
