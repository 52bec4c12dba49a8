"""The web app: the page, one WebSocket per board, the journal watcher's JSON, and ``serve``.

Routes::

    GET  /                       the board page (play and analyse)
    GET  /watch                  the tournament watcher page
    GET  /static/...             the page's JS modules and CSS (no build step)
    WS   /ws                     one board: messages.py's protocol
    GET  /api/journal            the watched journal's standings, crosstable, games (JSON)
    GET  /api/journal/game/{id}  one game's frames for the board (JSON)

Safe by default: ``serve`` binds to 127.0.0.1 unless told otherwise; the engines the
page may run are the ``GuiConfig``'s (from the command line or an engines file), chosen
by name; a WebSocket from a page of another origin is refused (a browser always sends
``Origin``; a page elsewhere on the web must not drive the local engine); every frame
is validated by ``messages.parse_message``; at most ``MAX_BOARDS`` boards (each may run an
engine process) are open at once.
"""
from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .board import BoardConnection, GuiConfig
from .watch import JournalFault, JournalWatch, WatchError

STATIC = Path(__file__).parent / "static"
MAX_BOARDS = 16     # boards (WebSockets, each with its own engine process) open at once
log = logging.getLogger("mcts_engine.gui")


def same_origin(websocket: WebSocket) -> bool:
    """Whether the WebSocket's ``Origin`` (if any) is this server's own host and port."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True     # not a browser page (a test client, a script on this machine)
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc == host


def create_app(config: GuiConfig) -> Starlette:
    """The ASGI app for ``config`` (its engines, default game and journal)."""
    watch = JournalWatch(config.journal) if config.journal else None
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

    async def board(websocket: WebSocket):
        if not same_origin(websocket):
            await websocket.close(code=1008)     # policy violation: a page of another origin
            return
        if len(boards) >= MAX_BOARDS:
            await websocket.close(code=1013)     # try again later: too many boards (engines) open
            return
        await websocket.accept()
        connection = BoardConnection(config, websocket.send_json)
        boards.add(connection)
        try:
            await connection.start()
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                await connection.handle(frame.get("text"))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            boards.discard(connection)
            await connection.close()

    routes = [
        Route("/", index),
        Route("/watch", watch_page),
        Route("/favicon.ico", favicon),
        Route("/api/journal", journal),
        Route("/api/journal/game/{game_id}", journal_game),
        WebSocketRoute("/ws", board),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)


def serve(config: GuiConfig, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> None:
    """Run the app with uvicorn until interrupted (``--open`` opens the page in a browser)."""
    import uvicorn

    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    if open_browser:
        import threading
        import webbrowser
        threading.Timer(1.0, webbrowser.open, args=(url + ("watch" if config.journal else ""),)).start()
    print(f"mcts-engine gui: {url}  (engines: {', '.join(config.engines)}; Ctrl-C stops)", flush=True)
    uvicorn.run(create_app(config), host=host, port=port, log_level="warning", ws="websockets-sansio")
