"""Transport for parallel search: the worker pool (``pool``), the worker loop (``worker``)
and the typed messages between them (``messages``).  The search itself lives in
``mcts_engine.mcts`` (``root_parallel``, ``tree_parallel``)."""
