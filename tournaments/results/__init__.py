"""Results: the append-only journal (``journal.py``), the report built from it (``report.py``)
and its statistics, each in its own module: Elo and its intervals (``elo.py``), the
likelihood of superiority (``los.py``), the SPRT (``sprt.py``), a two-engine match's figures
(``pairs.py``) and the text tables (``tables.py``)."""
