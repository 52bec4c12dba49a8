"""``python -m mcts_engine``: the same as the ``mcts-engine`` command."""
from .cli import main

main()
