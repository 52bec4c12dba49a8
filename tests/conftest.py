"""The test run's own set-up (the shared helpers are the ``support`` package, beside this file).

The engine probes the endgame tables in the user's cache (``TablePath`` empty); what a
developer has built there must not change a seeded test, so the tests, and the engines they
start, get a cache of their own; and each test opens its tables as a new process would.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="mcts-tests-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)


@pytest.fixture(autouse=True)
def _tables_read_afresh():
    """Each test's agents read their endgame tables as a new process's would (an agent shares
    the tables its process opened before, ``opened_tables``)."""
    from mcts_engine.tables import forget_opened_tables
    forget_opened_tables()
    yield
