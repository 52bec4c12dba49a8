#!/usr/bin/env python3
"""A fake Hub engine that plays a few good moves, then breaks (for ``protocol=hub`` tests).

Speaks just enough Hub v2 (Scan's ``protocol.txt``): ``hub`` (id, ``variant`` and ``Seed``
params, ``wait``), ``set-param``, ``init``/``ready``, ``ping``/``pong``, ``new-game``,
``pos pos=... moves="..."``, ``level ...`` (ignored), ``go think`` (``done move=<first legal
move>``), ``quit`` and end of input.  Positions and moves are read as our Hub dialect
reads them (``SquareTranslation``).

After ``FAKE_GOOD_MOVES`` good moves (env; default 1), by ``FAKE_HUB_MODE`` (env):
``crash`` exits with code 3 in the middle of a ``go``; ``illegal`` answers
``done move=1-2`` (never legal at a draughts start); ``silent`` answers nothing.
"""
import os
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from mcts_engine.protocol.conventions import SquareTranslation  # noqa: E402
from mcts_engine.rules import get_game  # noqa: E402

MODE = os.environ.get("FAKE_HUB_MODE", "illegal")
GOOD = int(os.environ.get("FAKE_GOOD_MOVES", "1"))


def args_of(text):
    out = {}
    for token in shlex.split(text):
        key, _, value = token.partition("=")
        out[key] = value
    return out


def main():
    game = get_game("international")
    state = game.new_state()
    played = 0
    for line in sys.stdin:
        words = line.split(None, 1)
        if not words:
            continue
        command, args = words[0], args_of(words[1]) if len(words) > 1 else {}
        if command == "hub":
            print("id name=fake-hub-broken version=1.0")
            print('param name=variant value=international type=enum values="international english russian"')
            print("param name=Seed value=0 type=int min=0 max=100")
            print("wait")
        elif command == "set-param" and args.get("name") == "variant":
            game = get_game(args["value"])
        elif command == "init":
            print("ready")
        elif command == "ping":
            print("pong")
        elif command == "pos":
            tr = SquareTranslation(game)
            text = args.get("pos", "")
            state = game.parse_hub_position(tr.position_in(text)) if text[1:2] in "wbWBe" else game.parse_fen(text)
            for move in args.get("moves", "").split():
                state.play(state.parse_hub_move(tr.move_in(move)))
        elif command == "go":
            if played >= GOOD:
                if MODE == "crash":
                    print("info depth=1 nodes=1")
                    sys.stdout.flush()
                    os._exit(3)
                if MODE == "illegal":
                    print("done move=1-2")
                sys.stdout.flush()
                continue
            played += 1
            move = state.legal_moves()[0]
            print("info depth=1 score=0.00 nodes=1")
            print(f"done move={SquareTranslation(game).move_out(state.hub_move_str(move))}")
        elif command == "quit":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
