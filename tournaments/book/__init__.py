"""Opening books built by the engine's own deep searches over the openings sets
(``mcts-tournament book build``); the engine reads them (``mcts_engine.book``, ``OwnBook``)."""
