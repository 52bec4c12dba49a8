#!/usr/bin/env python3
"""A fake engine that plays normally, then dies in the middle of a ``go``.

After ``CrashAfter`` bestmoves of its own (``setoption name CrashAfter value N`` or env
``FAKE_CRASH_AFTER``; default 3) the next ``go`` prints one ``info`` line and the
process exits with code 3 (no bestmove).  Otherwise it is good.py playing the first
legal move (UCI_Variant and Seed options as there).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from good import FakeEngine  # noqa: E402


class CrashEngine(FakeEngine):
    NAME = "fake-crash"
    RANDOM = False
    EXTRA = {"CrashAfter": ("FAKE_CRASH_AFTER", 3)}

    def cmd_go(self, args):
        if self.played >= self.values["crashafter"]:
            self.out("info depth 1 nodes 1 string crashing now")
            os._exit(3)
        super().cmd_go(args)


if __name__ == "__main__":
    CrashEngine().run()
