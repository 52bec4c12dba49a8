"""The test run's own set-up (the shared helpers are the ``support`` package, beside this file).

The engine probes the endgame tables in the user's cache (``TablePath`` empty); what a
developer has built there must not change a seeded test, so the tests, and the engines they
start, get a cache of their own.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="mcts-tests-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)
