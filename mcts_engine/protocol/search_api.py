"""Everything the protocol takes from the search, imported in this one place.

The dialects and the session import these names from here, so when the search
API moves, only this module changes.
"""
from __future__ import annotations

from ..parallel import close_pool, resize_pool
from ..search import (AGENTS, FINAL_MOVES, MERGES, PARALLEL_MODES, PLAYOUTS, Agent, Limits, SearchInfo,
                      SearchResult, Settings, make_agent)

__all__ = ["AGENTS", "FINAL_MOVES", "MERGES", "PARALLEL_MODES", "PLAYOUTS", "Agent", "Limits", "SearchInfo",
           "SearchResult", "Settings", "make_agent", "close_pool", "resize_pool"]
