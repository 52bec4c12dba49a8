"""Playing games: how they are played (``conditions.py``: ``PlayConditions``, time controls,
openings, adjudication), the engines of the command line (``engine_args.py``), one game
refereed by our rules (``referee.py``), the schedule and its journaling (``runner.py``; a
journal continued with more games: ``continuation.py``), and where games run
(``executors.py``: local threads; ``cluster.py``: a Dask cluster)."""
