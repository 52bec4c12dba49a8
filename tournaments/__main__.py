"""``python -m tournaments``: the same as the ``mcts-tournament`` command."""
from .cli import main

main()
