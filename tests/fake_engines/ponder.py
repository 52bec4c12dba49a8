#!/usr/bin/env python3
"""A fake engine that ponders, for the manager's pondering tests.

It declares ``Ponder``; every ``bestmove`` names the first legal reply as its ponder move.
``go ponder`` waits (reading stdin) until ``ponderhit`` (then it answers as a ``go``: the
move of the pondered position) or ``stop`` (then it answers at once, as UCI asks); a plain
``go`` answers as good.py does.

* ``CrashOnPonder`` (env ``FAKE_CRASH_ON_PONDER``; default 0): after that many ``go ponder``
  the next one makes it exit with code 3 at once (0: never).
* The first command-line argument, if given, names a file that gets every line it reads.

Otherwise it is good.py: a random mover seeded by ``Seed``.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from good import FakeEngine  # noqa: E402


class PonderEngine(FakeEngine):
    """good.py's random mover that ponders on its first-legal-reply guess."""

    NAME = "fake-ponder"
    EXTRA = {"CrashOnPonder": ("FAKE_CRASH_ON_PONDER", 0)}

    def __init__(self, log=None):
        super().__init__()
        self.log = log
        self.ponders = 0

    def run(self):
        """good.py's loop, each line logged first."""
        while True:
            line = self.read()
            if not line:
                self.on_eof()
                return
            tokens = line.split()
            if tokens:
                handler = getattr(self, "cmd_" + tokens[0].lower(), None)
                if handler is None:
                    self.error(f"unknown command {tokens[0]!r}")
                else:
                    handler(tokens[1:])

    def read(self):
        line = sys.stdin.readline()
        if self.log and line:
            with open(self.log, "a", encoding="utf-8") as f:
                f.write(line)
        return line

    def cmd_uci(self, args):
        self.out("option name Ponder type check default false")
        super().cmd_uci(args)

    def cmd_setoption(self, args):
        if " ".join(args[1:2]).lower() == "ponder":
            return
        super().cmd_setoption(args)

    def cmd_go(self, args):
        if "ponder" in args:
            crash = self.values["crashonponder"]
            self.ponders += 1
            if crash and self.ponders > crash:
                os._exit(3)
            while True:                       # until ponderhit or stop
                line = self.read()
                word = line.split()[:1]
                if not line or word == ["quit"]:
                    sys.exit(0)
                if word == ["isready"]:
                    self.out("readyok")
                if word in (["ponderhit"], ["stop"]):
                    break
        self.answer()

    def answer(self):
        """good.py's answer, with the first legal reply as the ponder move."""
        legal = self.state.legal_moves()
        if self.state.outcome() is not None or not legal:
            self.out("bestmove 0000")
            return
        move = self.rng.choice(legal)
        after = self.state.copy()
        after.play(move)
        replies = after.legal_moves() if after.outcome() is None else []
        self.out(f"info depth 1 nodes {len(legal)} score cp 0 pv {self.state.move_str(move)}")
        self.played += 1
        self.out("bestmove " + self.state.move_str(move) + (f" ponder {after.move_str(replies[0])}" if replies else ""))


if __name__ == "__main__":
    PonderEngine(sys.argv[1] if len(sys.argv) > 1 else None).run()
