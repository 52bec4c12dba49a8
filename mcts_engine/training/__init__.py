"""``mcts-engine train-eval``: the learned draughts evaluation's weights, fitted to the engine's
own games (rules/draughts/learned.py reads them; docs/search.md#the-learned-evaluation).

* ``selfplay.py``: the games, played by the engine against itself at a node count, each seeded,
  every position recorded with the search's value and, where the endgame tables reach, theirs;
* ``dataset.py``: the positions as arrays, their labels, and the file that keeps them;
* ``features.py``: the learned evaluation's features of many positions at once (numpy);
* ``fit.py``: the logistic fit (numpy), its held-out loss, and the integer weights;
* ``command.py``: the whole run, as the command line asks for it.
"""
