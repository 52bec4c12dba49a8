"""The search's Python side, over the native search core (``native/src``: the node arena,
selection, expansion, cut-off playouts, backup, proofs, the Hash budget, the loop that runs
one or several trees until a limit, the final choice):

* ``core``: a ``Search`` for a game and the engine's settings (native where the game's
  rules are, else over its Python states), the endgame tables handed to it, and the final
  choice over worker processes' statistics (the core's ``merge_roots``);
* ``report``: a search's statistics as the ``SearchInfo`` the protocol prints;
* ``reuse``: which moves lead from the last root to the new one (tree reuse);
* ``limits``, ``settings``, ``agent``: what goes in (``go`` limits, engine options) and
  what comes out (``SearchInfo``, ``SearchResult``) of every agent;
* ``uct``: the agent (its trees on OS threads where the rules are native);
  ``root_parallel``: Threads over worker processes for games on their Python rules.
"""
