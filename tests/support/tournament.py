"""Driving the tournament manager from the tests: its command in a subprocess, engine specs of
our engine and of the fakes, a journal's games."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tournaments.results.journal import Journal

from . import FAKES

PY = sys.executable


def tournament_command() -> list[str]:
    script = Path(sys.executable).parent / "mcts-tournament"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tournaments"]


def run(*args, timeout=120, check=True):
    proc = subprocess.run(tournament_command() + list(args), capture_output=True, text=True, timeout=timeout)
    if check:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def ours(name, *options):
    return " ".join([f"name={name}", "cmd=mcts-engine"] + [f"option.{o}" for o in options])


def fake(name, script, *options):
    return " ".join([f"name={name}", f'cmd="{PY} {FAKES / script}"'] + [f"option.{o}" for o in options])


def games_of(journal):
    return Journal(str(journal)).load()[1]


def go_fields(line: str) -> dict[str, int]:
    """A logged ``go`` line's limits as numbers (a ``ponder`` word left out)."""
    words = [w for w in line.split()[1:] if w != "ponder"]
    return {k: int(v) for k, v in zip(words[::2], words[1::2])}


def expected_clocks(times_ms: list[int], base: int, inc: int, moves: int | None = None):
    """Per ply, the (mover, p1time, p2time, movestogo) the manager should send, from the
    moves' recorded times: each move costs its time, then adds the increment, and every
    ``moves`` moves of a player add ``base`` again (None: one period, movestogo None)."""
    clock, played, out = [base, base], [0, 0], []
    for ply, spent in enumerate(times_ms):
        p = ply % 2
        out.append((p, clock[0], clock[1], moves - played[p] % moves if moves else None))
        clock[p] = max(clock[p] - spent, 0) + inc
        played[p] += 1
        if moves and played[p] % moves == 0:
            clock[p] += base
    return out
