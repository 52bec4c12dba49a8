#!/usr/bin/env python3
"""A fake engine that plays normally, then hangs on a ``go`` until killed.

After ``HangAfter`` bestmoves of its own (``setoption name HangAfter value N`` or env
``FAKE_HANG_AFTER``; default 2) the next ``go`` never answers: the engine keeps reading
stdin and ignores everything, ``stop`` and ``quit`` included, and even end of input,
so only a signal ends it.  When the hang starts:
  * ``HangChild`` 1 (env ``FAKE_HANG_CHILD``; default 0): spawn a child process (a
    sleeping Python, inheriting stdout/stderr) to check that the whole group is killed;
  * ``IgnoreTerm`` 1 (env ``FAKE_IGNORE_TERM``; default 0): ignore SIGTERM (the child
    inherits that), so only SIGKILL ends them.
Otherwise it is good.py playing the first legal move.
"""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from good import FakeEngine  # noqa: E402


class HangEngine(FakeEngine):
    NAME = "fake-hang"
    RANDOM = False
    EXTRA = {"HangAfter": ("FAKE_HANG_AFTER", 2), "HangChild": ("FAKE_HANG_CHILD", 0),
             "IgnoreTerm": ("FAKE_IGNORE_TERM", 0)}

    def cmd_go(self, args):
        if self.played < self.values["hangafter"]:
            return super().cmd_go(args)
        if self.values["ignoreterm"]:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if self.values["hangchild"]:
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], stdin=subprocess.DEVNULL)
        self.out("info string thinking forever")
        while sys.stdin.readline():
            pass                  # ignore every command
        while True:               # end of input: still ignore it
            time.sleep(3600)


if __name__ == "__main__":
    HangEngine().run()
