"""Transport for work in other processes: the worker pool (``pool``), the worker loop
(``worker``) and the messages between them (``messages``).  It knows no search: the tasks
it carries are defined where the work is (``mcts_engine.mcts.root_parallel``)."""
