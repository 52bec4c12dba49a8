"""The game rows' values the tests compare against, written out once (protocol/game_defaults.py
is what they check)."""
from __future__ import annotations

from mcts_engine.rules.draughts.evaluation import EvalTerms

# English's row: its evaluation terms
ENGLISH_TERMS = EvalTerms(mobility=0.02, back_rank=0.1, runaway=0.3, edge=-0.15, guard=0.15)
