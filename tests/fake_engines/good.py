#!/usr/bin/env python3
"""A correct minimal engine for tests: a random mover seeded by the ``Seed`` option.

Speaks just enough of ../../../shared/PROTOCOL.md: ``uci`` (declares UCI_Variant and
Seed), ``isready``, ``setoption``, ``ucinewgame``, ``position startpos|fen ... [moves ...]``,
``go ...`` (one ``info`` line, then ``bestmove``; ``bestmove 0000`` on a finished game),
``stop`` (nothing to stop: every go answers at once), ``quit`` and end of input.  Bad
input gets ``info string error: ...``.  Legal moves come from ``mcts_engine.rules``
(this repository, found without installing it).

Configuration:
  * ``setoption name UCI_Variant value <game>`` (default ``english``)
  * ``setoption name Seed value <n>`` or env ``FAKE_SEED`` (default 0)

The other fakes (crash.py, hang.py, illegal.py) subclass ``FakeEngine`` from here;
they play the first legal move instead of a random one.
"""
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from mcts_engine.rules import RulesError, get_game, list_games  # noqa: E402


class FakeEngine:
    NAME = "fake-good"
    RANDOM = True                 # False: play the first legal move
    EXTRA = {}                    # option name -> (env var, default int[, min]) for subclasses

    def __init__(self):
        self.game = get_game("english")
        self.state = self.game.new_state()
        self.seed = int(os.environ.get("FAKE_SEED", "0"))
        self.rng = random.Random(self.seed)
        self.played = 0           # bestmoves given so far (this process)
        self.values = {name.lower(): int(os.environ.get(env, default))
                       for name, (env, default, *_) in self.EXTRA.items()}

    # output
    def out(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def error(self, what):
        self.out("info string error: " + what)

    # the loop
    def run(self):
        while True:
            line = sys.stdin.readline()
            if not line:
                self.on_eof()
                return
            tokens = line.split()
            if not tokens:
                continue
            handler = getattr(self, "cmd_" + tokens[0].lower(), None)
            if handler is None:
                self.error(f"unknown command {tokens[0]!r}")
                continue
            handler(tokens[1:])

    def on_eof(self):
        sys.exit(0)

    # commands
    def cmd_uci(self, args):
        self.out(f"id name {self.NAME} 1.0")
        self.out("id author tests")
        self.out("option name UCI_Variant type combo default english " + " ".join("var " + g for g in list_games()))
        self.out("option name Seed type spin default 0 min 0 max 2147483647")
        for name, (env, default, *low) in self.EXTRA.items():
            self.out(f"option name {name} type spin default {default} min {low[0] if low else 0} max 1000000")
        self.out("uciok")

    def cmd_isready(self, args):
        self.out("readyok")

    def cmd_setoption(self, args):
        low = [a.lower() for a in args]
        if len(args) < 2 or low[0] != "name":
            return self.error("setoption name <name> value <value>")
        cut = low.index("value") if "value" in low else len(args)
        name, value = " ".join(args[1:cut]).lower(), " ".join(args[cut + 1:])
        if name == "uci_variant":
            try:
                self.game = get_game(value)
            except RulesError as err:
                return self.error(f"option UCI_Variant: {err}")
            self.state = self.game.new_state()
        elif name == "seed" or name in self.values:
            try:
                number = int(value)
            except ValueError:
                return self.error(f"option {name}: {value!r} is not an integer")
            if name == "seed":
                self.seed = number
                self.rng = random.Random(number)
            else:
                self.values[name] = number
        else:
            self.error(f"unknown option {name!r}")

    def cmd_ucinewgame(self, args):
        self.state = self.game.new_state()
        self.rng = random.Random(self.seed)

    def cmd_position(self, args):
        low = [a.lower() for a in args]
        cut = low.index("moves") if "moves" in low else len(args)
        try:
            if low[:1] == ["startpos"]:
                state = self.game.new_state()
            elif low[:1] == ["fen"]:
                state = self.game.parse_fen(" ".join(args[1:cut]))
            else:
                return self.error("position startpos|fen <fen> [moves ...]")
            for text in args[cut + 1:]:
                state.play(state.parse_move(text))
        except RulesError as err:
            return self.error(f"position: {err}")
        self.state = state

    def cmd_go(self, args):
        legal = self.state.legal_moves()
        if self.state.outcome() is not None or not legal:
            self.out("bestmove 0000")
            return
        move = self.rng.choice(legal) if self.RANDOM else legal[0]
        self.out(f"info depth 1 seldepth 1 nodes {len(legal)} time 0 score cp {self.score_cp()} "
                 f"pv {self.state.move_str(move)}")
        self.played += 1
        self.out("bestmove " + self.state.move_str(move))

    def score_cp(self):
        """The score of the info line (subclasses may report another)."""
        return 0

    def cmd_stop(self, args):
        pass

    def cmd_quit(self, args):
        sys.exit(0)


if __name__ == "__main__":
    FakeEngine().run()
