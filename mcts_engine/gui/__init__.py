"""The web GUI: ``mcts-engine gui`` serves a page that plays, analyses and watches tournaments.

* ``app.py``      the Starlette app (page, one WebSocket per board, journal JSON) and ``serve``
* ``board.py``    one board's connection: validated messages -> session and hosted engine
* ``messages.py`` the page's messages, typed, and their validation (the one place)
* ``session.py``  the game on a board: positions, moves, undo, snapshot for the page
* ``clicks.py``   clicks resolved against the legal moves' click paths (``State.move_path``)
* ``engine.py``   the hosted engine: ``EngineProcess`` with live ``info`` lines, on a worker thread
* ``watch.py``    a tournament journal's standings, crosstable, Elo and game replays
* ``static/``     the page: plain JS modules drawing SVG from ``State.board_view()``

The GUI never re-implements a rule: legal moves, notation, click paths and drawings come
from the rules contract; the engine is any program that speaks our protocol.  Needs the
``gui`` extra (``pip install -e '.[gui]'``).
"""
