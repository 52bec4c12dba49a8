#!/usr/bin/env python3
"""A fake engine that answers ``go`` with an illegal move.

The first ``LegalMoves`` answers (``setoption name LegalMoves value N`` or env
``FAKE_LEGAL_MOVES``; default 1) are the first legal move; every later ``go`` answers
``bestmove <BadMove>``, where BadMove comes from env ``FAKE_BAD_MOVE`` (default ``1-2``,
never legal in English draughts' start position); ``FAKE_BAD_MOVE=`` (empty) sends a
bare ``bestmove`` with no move at all (a protocol error).  Otherwise it is good.py.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from good import FakeEngine  # noqa: E402

BAD_MOVE = os.environ.get("FAKE_BAD_MOVE", "1-2")


class IllegalEngine(FakeEngine):
    NAME = "fake-illegal"
    RANDOM = False
    EXTRA = {"LegalMoves": ("FAKE_LEGAL_MOVES", 1)}

    def cmd_go(self, args):
        if self.played < self.values["legalmoves"]:
            return super().cmd_go(args)
        self.played += 1
        self.out("info depth 1 nodes 1 score cp 0")
        self.out(("bestmove " + BAD_MOVE).rstrip())


if __name__ == "__main__":
    IllegalEngine().run()
