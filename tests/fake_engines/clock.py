#!/usr/bin/env python3
"""A fake engine for clock and adjudication tests: it thinks a set time, reports a set
score, and logs every ``go`` it is sent.

* ``ThinkMs`` (``setoption name ThinkMs value N`` or env ``FAKE_THINK_MS``; default 0):
  the milliseconds each ``go`` takes; a ``stop`` (or ``quit``, or end of input) during
  that time ends it at once, so a clock that runs out is lost by exactly the overrun.
* ``ScoreCp`` (env ``FAKE_SCORE_CP``; default 0, may be negative): the ``score cp`` of its
  ``info`` line, for the manager's resign and draw adjudication.
* The first command-line argument, if given, names a file that gets every ``go`` line.

Otherwise it is good.py: a random mover seeded by ``Seed``.
"""
import os
import select
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from good import FakeEngine  # noqa: E402


class ClockEngine(FakeEngine):
    """good.py's random mover that takes its time, says its score and logs its go lines."""

    NAME = "fake-clock"
    EXTRA = {"ThinkMs": ("FAKE_THINK_MS", 0), "ScoreCp": ("FAKE_SCORE_CP", 0, -100000)}

    def __init__(self, log=None):
        super().__init__()
        self.log = log

    def cmd_go(self, args):
        """Log the go line, think ``ThinkMs`` (or until stop), then answer as good.py does."""
        if self.log:
            with open(self.log, "a", encoding="utf-8") as f:
                f.write(" ".join(["go", *args]) + "\n")
        quitting = self.think(self.values["thinkms"] / 1000)
        super().cmd_go(args)
        if quitting:
            sys.exit(0)

    def think(self, seconds):
        """Wait ``seconds`` unless stdin says stop; True if it said quit (or ended)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([sys.stdin], [], [], left)
            if not ready:
                continue
            line = sys.stdin.readline()
            word = line.split()[:1]
            if not line or word == ["quit"]:
                return True
            if word == ["stop"]:
                return False
            if word == ["isready"]:
                self.out("readyok")
        return False

    def score_cp(self):
        """The ``ScoreCp`` option."""
        return self.values["scorecp"]


if __name__ == "__main__":
    ClockEngine(sys.argv[1] if len(sys.argv) > 1 else None).run()
