"""The search's Python side, over the native search core (``native/src/search.c``: the node
arena, selection, expansion, cut-off playouts, backup, proofs, the Hash budget):

* ``core``: a ``SearchTree`` for a game and the engine's settings (native where the game's
  rules are, else over its Python states), and the endgame tables handed to it;
* ``searcher``: the one search loop (limits, deadline, info reports) over a ``TreeGroup``
  (one tree, or one per thread);
* ``final``: the final-move choice, root statistics, merging and voting;
* ``reuse``: which moves lead from the last root to the new one (tree reuse);
* ``limits``, ``settings``, ``agent``: what goes in (``go`` limits, engine options) and
  what comes out (``SearchInfo``, ``SearchResult``) of every agent;
* ``uct``: the agent (Threads on OS threads where the rules are native);
  ``root_parallel``: Threads over worker processes for games on their Python rules.
"""
