"""Everything the protocol takes from the search, imported in this one place.

The dialects, the session and ``mcts-engine play`` import these names from here, so
when the search API moves, only this module changes.
"""
from __future__ import annotations

from ..agents import AGENTS, make_agent
from ..mcts.agent import Agent, SearchInfo, SearchResult
from ..mcts.limits import Limits
from ..mcts.settings import FINAL_MOVES, MERGES, PARALLEL_MODES, PLAYOUTS, Settings
from ..parallel.pool import close_pool, resize_pool

__all__ = ["AGENTS", "FINAL_MOVES", "MERGES", "PARALLEL_MODES", "PLAYOUTS", "Agent", "Limits", "SearchInfo",
           "SearchResult", "Settings", "make_agent", "close_pool", "resize_pool"]
