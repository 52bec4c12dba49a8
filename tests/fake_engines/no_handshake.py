#!/usr/bin/env python3
"""A fake engine that reads every line and never answers (no ``uciok``, nothing).

End of input ends it (exit 0) unless env ``FAKE_IGNORE_EOF=1``, then it sleeps until
killed.  No options (it never gets far enough to take one).
"""
import os
import sys
import time

while sys.stdin.readline():
    pass
if os.environ.get("FAKE_IGNORE_EOF") == "1":
    while True:
        time.sleep(3600)
