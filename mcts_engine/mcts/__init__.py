"""The one MCTS core, phase by phase (Ludii's MCTS(selection, playout, final move);
OpenSpiel's pluggable selection and evaluator):

* ``tree``: nodes, the descent (virtual loss as a parameter), expansion, backup,
  MCTS-Solver proofs;
* ``selection``: selection rules, one class each (UCB1);
* ``playouts``: playout policies (random, capture, greedy-eps, mast; cut-off + evaluate);
* ``final``: the final-move choice, root statistics, merging and voting;
* ``reuse``: keeping the tree between moves;
* ``searcher``: the one search loop (limits, deadline, info reports);
* ``limits``, ``settings``, ``agent``: what goes in (``go`` limits, engine options) and
  what comes out (``SearchInfo``, ``SearchResult``) of every agent;
* ``uct``: the one-process agent; ``root_parallel`` and ``tree_parallel`` (over
  ``parallel_agent``): Threads > 1.  All three call the same descent, backup and loop;
  only where playouts run differs.
"""
