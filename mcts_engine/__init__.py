"""mcts-engine: a Monte Carlo tree search engine for draughts and other old board games."""

__version__ = "0.1.0"
