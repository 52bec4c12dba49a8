"""Independent opponents as engines of our protocol (``mcts-engine reference-engine NAME``).

Engines no one here wrote, so that strength is measured against something that does not
share our blind spots (issue 27): each speaks our UCI-like protocol through an adapter
(``adapter.py``) whose search runs in a worker process (``bridge.py``), with every move
checked by our rules (``moves.py``).

* ``openspiel-mcts``: OpenSpiel's C++ MCTS on English checkers (``openspiel_mcts.py``,
  worker ``openspiel_worker.py``);
* ``pydraughts-turbo`` and ``pydraughts-simple``: py-draughts' alpha-beta engines, run in a
  virtual environment of their own (``pydraughts_engines.py``, worker
  ``pydraughts_worker.py``, set-up ``pydraughts_env.py``).
"""
from __future__ import annotations

from typing import Callable

from .adapter import ReferenceEngine
from .openspiel_mcts import OpenSpielMcts
from .pydraughts_engines import PyDraughtsEngine

__all__ = ["ENGINES", "make_engine"]


def _openspiel(**kwargs) -> ReferenceEngine:
    return OpenSpielMcts()


def _pydraughts(kind: str) -> Callable[..., ReferenceEngine]:
    def make(python: str | None = None, **kwargs) -> ReferenceEngine:
        return PyDraughtsEngine(kind, python)
    return make


#: name -> (what it is, factory taking the command line's keyword arguments)
ENGINES: dict[str, tuple[str, Callable[..., ReferenceEngine]]] = {
    "openspiel-mcts": ("OpenSpiel's C++ MCTS (random rollouts, MCTS-Solver) on English checkers", _openspiel),
    "pydraughts-turbo": ("py-draughts' TurboEngine: alpha-beta (PVS, quiescence, TT) on International "
                         "draughts, in its own virtual environment", _pydraughts("turbo")),
    "pydraughts-simple": ("py-draughts' SimpleEngine: alpha-beta with quiescence on International, "
                          "English, Russian and Brazilian draughts, in its own virtual environment",
                          _pydraughts("simple")),
}


def make_engine(name: str, **kwargs) -> ReferenceEngine:
    """The reference engine called ``name`` (a key of ENGINES); KeyError for another name."""
    return ENGINES[name][1](**kwargs)
