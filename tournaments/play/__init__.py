"""Playing games: how they are played (``conditions.py``: ``PlayConditions``, time controls,
openings, adjudication), one game refereed by our rules (``referee.py``), the schedule and
its journaling (``runner.py``), and where games run (``executors.py``: local threads;
``cluster.py``: a Dask cluster)."""
