"""The engine's text protocol (docs/protocol.md): one engine session, one class per dialect.

* ``loop.py``: ``run()`` on standard I/O, ``serve()`` on any transport; the first line
  picks the dialect (``hub`` = Hub, anything else = ours).
* ``uci.py``: our UCI/UGI-like dialect; ``hub.py``: the Hub v2 dialect of draughts GUIs.
* ``session.py``: what every dialect shares: options, game, position, and the engine façade
  (``mcts_engine/engine.py``) that searches.
* ``options.py``: the option table and its validation; ``errors.py``: ``ProtocolError``.
"""
from .errors import ProtocolError
from .hub import HubProtocol
from .loop import StdioTransport, Transport, run, serve
from ..engine_options import OptionError
from .options import all_options
from .session import FinishedSearch, Position, Session, side_name
from .uci import UciProtocol

__all__ = ["run", "serve", "Transport", "StdioTransport", "UciProtocol", "HubProtocol", "Session",
           "FinishedSearch", "Position", "side_name", "OptionError", "all_options", "ProtocolError"]
