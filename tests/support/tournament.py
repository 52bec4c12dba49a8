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
