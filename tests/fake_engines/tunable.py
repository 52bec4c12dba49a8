#!/usr/bin/env python3
"""A fake engine whose strength depends on two options with a known best value, for the
tuner's tests (``mcts-tournament tune`` must find them).

* ``UCT_C`` (a real number, declared like our engine's: ``type string default 1.0``) and
  ``Width`` (``type spin default 10 min 0 max 40``).
* Strength: each move is the best of a two-ply material search whose values get Gaussian
  noise of standard deviation ``sigma = 0.02 * exp(|UCT_C - 0.7| / 1.4 + |Width - 24| / 10)``
  (a man is worth about 0.02 of the material share).  So ``UCT_C = 0.7, Width = 24`` plays
  best, and the further an option is from its best value the more the engine blunders.
  Measured with Width 24 (200 games each from 4-ply random openings, drawn at 100 plies,
  about +-40 Elo): UCT_C 0.7 scores +19 Elo against 0.0, +35 against 1.5, +69 against 2.0
  and +354 against 4.0; far from 0.7 the gradient is about 130 Elo per unit of UCT_C.
* Deterministic: each ``go`` draws from a random stream seeded by the ``Seed`` option and
  the position (start FEN and moves), so a game is a function of its opening and both
  engines' options, whatever order games are played in.

Otherwise it is good.py (protocol, ``UCI_Variant``, errors).
"""
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from good import FakeEngine  # noqa: E402

from mcts_engine.rules import RulesError  # noqa: E402

BEST_C = 0.7
BEST_WIDTH = 24


class TunableEngine(FakeEngine):
    """good.py's engine playing a two-ply material search with an option-dependent chance."""

    NAME = "fake-tunable"

    def __init__(self):
        super().__init__()
        self.uct_c = 1.0
        self.width = 10
        self.position = "startpos"

    def cmd_uci(self, args):
        self.out(f"id name {self.NAME} 1.0")
        self.out("id author tests")
        self.out("option name UCI_Variant type combo default english var english var russian")
        self.out("option name Seed type spin default 0 min 0 max 2147483647")
        self.out("option name UCT_C type string default 1.0")
        self.out("option name Width type spin default 10 min 0 max 40")
        self.out("uciok")

    def cmd_setoption(self, args):
        low = [a.lower() for a in args]
        cut = low.index("value") if "value" in low else len(args)
        name, value = " ".join(args[1:cut]).lower(), " ".join(args[cut + 1:])
        if name == "uct_c":
            try:
                number = float(value)
            except ValueError:
                number = math.nan
            if not math.isfinite(number) or number < 0:
                return self.error(f"option UCT_C value {value!r} is not a real number >= 0")
            self.uct_c = number
        elif name == "width":
            try:
                number = int(value)
            except ValueError:
                return self.error(f"option Width value {value!r} is not an integer in [0, 40]")
            if not 0 <= number <= 40:
                return self.error(f"option Width value {value!r} is not an integer in [0, 40]")
            self.width = number
        else:
            super().cmd_setoption(args)

    def cmd_position(self, args):
        """As good.py's, but a position that extends the last one only plays the new moves."""
        text = " ".join(args)
        last = self.position
        if last != "startpos" and text.startswith(last + " ") and " moves " in last:
            try:
                for move in text[len(last):].split():
                    self.state.play(self.state.parse_move(move))
            except RulesError as err:
                return self.error(f"position: {err}")
        else:
            super().cmd_position(args)
        self.position = text

    def cmd_ucinewgame(self, args):
        super().cmd_ucinewgame(args)
        self.position = "startpos"

    def sigma(self):
        """The noise on the search's values: the smaller, the stronger."""
        return 0.02 * math.exp(abs(self.uct_c - BEST_C) / 1.4 + abs(self.width - BEST_WIDTH) / 10)

    def cmd_go(self, args):
        state = self.state
        legal = state.legal_moves()
        if state.outcome() is not None or not legal:
            self.out("bestmove 0000")
            return
        rng = random.Random(f"{self.seed}|{self.position}")
        move = self.best(state, legal, rng, self.sigma())
        self.out(f"info depth 2 nodes {len(legal)} score cp 0 pv {state.move_str(move)}")
        self.out("bestmove " + state.move_str(move))

    @staticmethod
    def best(state, legal, rng, sigma):
        """The move whose worst reply leaves the most material, after noise of ``sigma``."""
        me = state.to_move
        best, choice = None, None
        for move in legal:
            after = state.copy()
            after.play(move)
            replies = after.legal_moves() if after.outcome() is None else []
            worst = 2.0
            for reply in replies:
                last = after.copy()
                last.play(reply)
                worst = min(worst, mine(last, me))
            if not replies:
                worst = mine(after, me)
            value = worst + rng.gauss(0.0, sigma)
            if best is None or value > best:
                best, choice = value, move
        return choice


def mine(state, me):
    """The position's value for player ``me``: the outcome if over, else the material share."""
    outcome = state.outcome()
    value = outcome if outcome is not None else state.evaluate()
    return value if me == 0 else 1.0 - value


if __name__ == "__main__":
    TunableEngine().run()
