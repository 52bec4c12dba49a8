"""``python -m tournaments``: the same as the ``mcts-tournament`` command."""
from .cli import main

if __name__ == "__main__":     # not again in a process started by spawn (a --cluster local:N worker)
    main()
