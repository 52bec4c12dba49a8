"""The web app: the page, one WebSocket per board, the journal watcher's JSON, and ``serve``.

Routes::

    GET  /                       the board page (play and analyse)
    GET  /watch                  the tournament watcher page
    GET  /static/...             the page's JS modules and CSS (no build step)
    WS   /ws                     one board: messages.py's protocol
    GET  /api/journal            the watched journal's standings, crosstable, games (JSON)
    GET  /api/journal/game/{id}  one game's frames for the board (JSON)
    GET  /api/live               the games being played, from the journal's live file (JSON)
    WS   /ws/watch               the watcher's pushes: summary and live games (watchfeed.py)

Safe by default: ``serve`` binds to 127.0.0.1 unless told otherwise; a request naming a
host the server does not serve is refused with 403 before anything runs (``guard.py``:
DNS rebinding); the engines the page may run are the ``GuiConfig``'s (from the command line
or an engines file), chosen by name; a WebSocket from a page of another origin is refused (a
browser always sends ``Origin``; a page elsewhere on the web must not drive the local
engine); every frame is validated by ``messages.parse_message``; each board's frames are
rate-limited and its messages queued in a bounded outbox (``flow.py``), so that no page
starves another; at most ``MAX_BOARDS`` boards (each may run an engine process) are open
at once.
"""
from __future__ import annotations

import asyncio
import logging
import socket
import time
from dataclasses import replace
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .board import BoardConnection, GuiConfig
from .flow import MAX_DROPPED, RATE, LogThrottle, Outbox, RateLimiter
from . import guard
from .guard import HostGuard, host_name, served_hosts
from .live import LiveWatch
from .watch import JournalFault, JournalWatch, WatchError
from .watchfeed import WatchHub, watch_socket

STATIC = Path(__file__).parent / "static"
MAX_BOARDS = 16     # boards (WebSockets, each with its own engine process) open at once
CLOSE_TIMEOUT = 2.0  # seconds to close a board's WebSocket (a page that reads nothing may never answer)
MAX_WS_BYTES = 1 << 20   # the largest WebSocket message uvicorn takes (a restore of a long game fits)
log = logging.getLogger("mcts_engine.gui")
CLOSED_BOARDS = LogThrottle()      # the log's lines on boards the server closed: at most one a second


def same_origin(websocket: WebSocket) -> bool:
    """Whether the WebSocket's ``Origin`` (if any) is a page of this server: the same scheme,
    host and port (``guard.same_origin``)."""
    return guard.same_origin(websocket.headers.get("origin"), websocket.headers.get("host", ""),
                             websocket.url.scheme)


def create_app(config: GuiConfig) -> HostGuard:
    """The ASGI app for ``config`` (its engines, default game and journal)."""
    watch = JournalWatch(config.journal) if config.journal else None
    live = LiveWatch(config.journal) if config.journal else None
    hub = WatchHub(watch, live) if watch else None
    boards = set()

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def favicon(request):
        return Response(status_code=204)

    async def watch_page(request):
        return FileResponse(STATIC / "watch.html")

    async def journal(request):
        if watch is None:
            return JSONResponse({"error": "no journal: start the server with --journal FILE"}, status_code=404)
        try:
            return JSONResponse(await run_in_threadpool(watch.summary))   # the manager's report runs meanwhile
        except WatchError as err:
            return JSONResponse({"error": str(err)}, status_code=422 if isinstance(err, JournalFault) else 404)

    async def journal_game(request):
        if watch is None:
            return JSONResponse({"error": "no journal: start the server with --journal FILE"}, status_code=404)
        try:
            game_id = int(request.path_params["game_id"])
            return JSONResponse(await run_in_threadpool(watch.replay, game_id))
        except JournalFault as err:
            return JSONResponse({"error": str(err)}, status_code=422)
        except (ValueError, WatchError) as err:
            return JSONResponse({"error": str(err)}, status_code=404)

    async def live_games(request):
        if live is None:
            return JSONResponse({"error": "no journal: start the server with --journal FILE"}, status_code=404)
        try:
            return JSONResponse(await run_in_threadpool(live.read))
        except WatchError as err:
            return JSONResponse({"error": str(err)}, status_code=422)

    async def watcher(websocket: WebSocket):
        if not same_origin(websocket) or hub is None:
            await websocket.close(code=1008)     # another origin's page, or nothing to watch
            return
        if hub.full():
            await websocket.close(code=1013)
            return
        await websocket.accept()
        await watch_socket(websocket, hub)

    async def board(websocket: WebSocket):
        if not same_origin(websocket):
            await websocket.close(code=1008)     # policy violation: a page of another origin
            return
        if len(boards) >= MAX_BOARDS:
            await websocket.close(code=1013)     # try again later: too many boards (engines) open
            return
        await websocket.accept()
        outbox = Outbox(websocket.send_text)
        connection = BoardConnection(config, outbox.put)
        boards.add(connection)
        try:
            await connection.start()
            await serve_board(websocket, connection, outbox)
        finally:
            boards.discard(connection)
            outbox.close()
            await connection.close()

    routes = [
        Route("/", index),
        Route("/watch", watch_page),
        Route("/favicon.ico", favicon),
        Route("/api/journal", journal),
        Route("/api/journal/game/{game_id}", journal_game),
        Route("/api/live", live_games),
        WebSocketRoute("/ws", board),
        WebSocketRoute("/ws/watch", watcher),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return HostGuard(Starlette(routes=routes), served_hosts(config.host, config.port))


async def serve_board(websocket: WebSocket, connection: BoardConnection, outbox: Outbox) -> None:
    """Hand the page's frames to ``connection`` within the connection's rate, until the page
    goes (or floods us, or stops reading: then it is closed)."""
    reader = asyncio.get_running_loop().create_task(read_frames(websocket, connection, outbox))
    closed = asyncio.get_running_loop().create_task(outbox.closed.wait())
    try:
        await asyncio.wait({reader, closed}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (reader, closed):
            task.cancel()
    failure = reader.exception() if reader.done() and not reader.cancelled() else None
    if failure is not None and not isinstance(failure, (WebSocketDisconnect, RuntimeError, OSError)):
        log.warning("gui: a board failed: %s: %s", type(failure).__name__, failure)
    if outbox.reason and outbox.reason != "the connection is gone":
        line = CLOSED_BOARDS.line(f"gui: closed a board: {outbox.reason}")
        if line is not None:
            log.warning(line)
        await close_quietly(websocket, 1008)


async def read_frames(websocket: WebSocket, connection: BoardConnection, outbox: Outbox) -> None:
    """The page's frames, each handled if the connection's rate allows it, else dropped."""
    limiter = RateLimiter()
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            outbox.close("the connection is gone")
            return
        if not limiter.admit():
            if limiter.flooding():
                outbox.close(f"too many messages (more than {MAX_DROPPED} dropped within a second)")
                return
            dropped = limiter.notice()
            if dropped:
                await connection.error(f"too many messages: {dropped} dropped unread (at most {RATE:g} a second)")
            continue
        started = time.perf_counter()
        await connection.handle(frame.get("text"))
        limiter.charge(time.perf_counter() - started)
        await asyncio.sleep(0)          # frames may come in a burst: let the sender and the other pages run


async def close_quietly(websocket: WebSocket, code: int) -> None:
    """Close the WebSocket if it is still open (it may be gone already)."""
    try:
        await asyncio.wait_for(websocket.close(code=code), CLOSE_TIMEOUT)
    except (WebSocketDisconnect, RuntimeError, OSError, asyncio.TimeoutError):   # the page already gone
        pass


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (port 0: one the system chooses)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    sock.listen(128)
    return sock


def serve(config: GuiConfig, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> None:
    """Run the app with uvicorn until interrupted (``--open`` opens the page in a browser); it
    answers only requests naming the hosts it serves (``guard.py``), with the port it got."""
    import uvicorn

    sock = listening_socket(host, port)
    config = replace(config, host=host, port=sock.getsockname()[1])
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host_name(host)}:{config.port}/"
    if open_browser:
        import threading
        import webbrowser
        threading.Timer(1.0, webbrowser.open, args=(url + ("watch" if config.journal else ""),)).start()
    print(f"mcts-engine gui: {url}  (engines: {', '.join(config.engines)}; Ctrl-C stops)", flush=True)
    server = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning", ws="websockets-sansio",
                                           ws_max_size=MAX_WS_BYTES))
    server.run(sockets=[sock])
