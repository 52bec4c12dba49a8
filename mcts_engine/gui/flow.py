"""One connection's share of the server: what it may send us, and what we keep for it.

One event loop serves every board, so a page that floods it with frames, or stops reading
what we send, must not slow the others down:

* ``RateLimiter``: a token bucket per connection.  A frame costs a token, and the time its
  handling took costs more (a token per ``TOKEN_SECONDS``), so a cheap ping and a replay of a
  long game are both counted at their price; a frame without a token is dropped unread (the
  page hears so once a second).  A connection that keeps flooding (``MAX_DROPPED`` frames
  dropped within a second) is closed.
* ``Outbox``: the messages for the page, sent in order by one task from a bounded queue.  A
  newer ``info`` replaces one still waiting (only the latest search report matters; the
  watcher's ``live`` and ``summary`` likewise: ``latest``); a page
  that leaves ``OUTBOX_LIMIT`` other messages unread is closed.  Once the connection is gone
  its backlog goes with it: nothing more is sent, nothing logged per message.
"""
from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from typing import Awaitable, Callable

RATE = 50.0              # tokens a second, each connection
BURST = 100.0            # the most tokens a connection saves up
TOKEN_SECONDS = 0.004    # handling time that costs one more token (50 tokens = 200 ms of the loop a second)
MAX_DROPPED = 200        # frames dropped within one second that close the connection
OUTBOX_LIMIT = 64        # messages waiting for a page that does not read before it is closed


class RateLimiter:
    """A token bucket: ``admit`` a frame or drop it, ``charge`` the time its handling took."""

    def __init__(self, rate: float = RATE, burst: float = BURST, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.stamp = clock()
        self.dropped = 0              # frames dropped since the last notice to the page
        self.window_start = self.stamp
        self.window_drops = 0         # frames dropped in the current second
        self.noticed_at = float("-inf")   # when the page last heard of dropped frames

    def _refill(self) -> float:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return now

    def admit(self) -> bool:
        """Whether a frame may be handled now (a token taken), or must be dropped."""
        now = self._refill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        if now - self.window_start >= 1.0:
            self.window_start, self.window_drops = now, 0
        self.window_drops += 1
        return False

    def charge(self, seconds: float) -> None:
        """Charge the time a frame's handling took (tokens may run into debt)."""
        self.tokens -= seconds / TOKEN_SECONDS

    def flooding(self) -> bool:
        """Whether the connection dropped so many frames this second that it should be closed."""
        return self.window_drops >= MAX_DROPPED

    def notice(self) -> int:
        """The frames dropped since the last notice (at most one notice a second), or 0 for none due."""
        if not self.dropped or self.clock() - self.noticed_at < 1.0:
            return 0
        self.noticed_at = self.clock()
        count, self.dropped = self.dropped, 0
        return count


class Outbox:
    """A connection's messages to the page: a bounded queue that one task sends in order."""

    def __init__(self, send_text: Callable[[str], Awaitable[None]], limit: int = OUTBOX_LIMIT,
                 latest: tuple[str, ...] = ("info",)):
        self.send_text = send_text
        self.limit = limit
        self.latest = latest          # message types of which only the newest waiting is sent
        self.queue: deque[dict] = deque()
        self.ready = asyncio.Event()
        self.closed = asyncio.Event()
        self.reason = ""
        self.sent = 0
        self.task = asyncio.get_running_loop().create_task(self._run())

    def put(self, message: dict) -> None:
        """Queue ``message`` (one of a ``latest`` type replaces one of its type still waiting);
        close on overflow."""
        if self.closed.is_set():
            return
        kind = message.get("type")
        if kind in self.latest:
            for i in range(len(self.queue) - 1, -1, -1):
                if self.queue[i].get("type") == kind:
                    self.queue[i] = message
                    return
        if len(self.queue) >= self.limit:
            self.close(f"the page left {self.limit} messages unread")
            return
        self.queue.append(message)
        self.ready.set()

    async def _run(self) -> None:
        while not self.closed.is_set():
            if not self.queue:
                self.ready.clear()
                await self.ready.wait()
                continue
            message = self.queue.popleft()
            try:
                await self.send_text(json.dumps(message))
            except Exception:            # the connection is gone (or broke): stop sending
                self.close("the connection is gone")
                return
            self.sent += 1

    def close(self, reason: str = "closed") -> None:
        """Stop sending: the backlog is dropped."""
        if self.closed.is_set():
            return
        self.reason = reason
        self.closed.set()
        self.queue.clear()
        if self.task is not asyncio.current_task():
            self.task.cancel()


class LogThrottle:
    """At most one log line a ``period`` for one kind of event, saying how many it stands for (a
    page that reconnects and floods again and again cannot flood the log either)."""

    def __init__(self, period: float = 1.0, clock: Callable[[], float] = time.monotonic):
        self.period, self.clock = period, clock
        self.last = float("-inf")
        self.held = 0                 # events since the last line

    def line(self, text: str) -> str | None:
        """The line to log for this event (with the events it stands for), or None for now."""
        self.held += 1
        now = self.clock()
        if now - self.last < self.period:
            return None
        count, self.held, self.last = self.held, 0, now
        return text if count == 1 else f"{text} (and {count - 1} more like it since the last such line)"
