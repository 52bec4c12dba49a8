"""``mcts-engine reference-engine``: run an independent engine as an engine of our protocol.

``mcts-engine reference-engine NAME`` speaks our protocol on stdin/stdout for the engine
NAME (``list`` shows them); ``setup-pydraughts`` makes py-draughts' own virtual environment.
Bad input is one error line and exit status 2, as everywhere in ``mcts-engine``.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import click

from ..rules import RulesError
from . import ENGINES, make_engine
from .adapter import serve
from .adjudicate import adjudicate_journal
from .pydraughts_env import (PYDRAUGHTS_REQUIREMENT, PYTHON_VARIABLE, SetupError, default_venv, find_python,
                             installed_version, setup)

PYTHON_HELP = (f"the Python of py-draughts' virtual environment (default: ${PYTHON_VARIABLE}, else the "
               "one setup-pydraughts makes)")


@click.group("reference-engine", context_settings={"help_option_names": ["-h", "--help"]})
def reference_engine() -> None:
    """Independent engines (OpenSpiel's MCTS, py-draughts' alpha-beta) as engines of our protocol,
    every move checked by our rules: opponents for mcts-tournament (docs/strength.md)."""


@reference_engine.command("list")
def list_engines() -> None:
    """The reference engines and what they are."""
    for name, (text, _) in ENGINES.items():
        click.echo(f"{name}: {text}")


def _serve(name: str, **kwargs) -> None:
    sys.setswitchinterval(0.001)     # answer isready and stop at once while a search thread waits
    sys.exit(serve(make_engine(name, **kwargs)))


@reference_engine.command("openspiel-mcts")
def openspiel_mcts() -> None:
    """OpenSpiel's C++ MCTS on English checkers (needs open_spiel: pip install open_spiel)."""
    if importlib.util.find_spec("pyspiel") is None:    # the worker imports it; fail here with a clear message
        raise click.UsageError("openspiel-mcts needs open_spiel (pip install open_spiel)")
    _serve("openspiel-mcts")


def _pydraughts(kind: str, python: str | None) -> None:
    found = find_python(python)
    if not found.exists():
        raise click.UsageError(f"pydraughts-{kind}: no Python at {found}; make py-draughts' environment "
                               "first: mcts-engine reference-engine setup-pydraughts")
    _serve(f"pydraughts-{kind}", python=str(found))


@reference_engine.command("pydraughts-turbo")
@click.option("--python", help=PYTHON_HELP)
def pydraughts_turbo(python: str | None) -> None:
    """py-draughts' TurboEngine (alpha-beta) on International draughts."""
    _pydraughts("turbo", python)


@reference_engine.command("pydraughts-simple")
@click.option("--python", help=PYTHON_HELP)
def pydraughts_simple(python: str | None) -> None:
    """py-draughts' SimpleEngine (alpha-beta) on International, English, Russian or Brazilian draughts."""
    _pydraughts("simple", python)


@reference_engine.command("setup-pydraughts")
@click.option("--venv", type=click.Path(file_okay=False, path_type=Path),
              help=f"where to make the environment (default: {default_venv()})")
@click.option("--requirement", default=PYDRAUGHTS_REQUIREMENT, show_default=True,
              help="what pip installs there")
def setup_pydraughts(venv: Path | None, requirement: str) -> None:
    """Make py-draughts' own virtual environment (python -m venv, then pip install py-draughts);
    a second run reuses it.  Prints the Python the pydraughts-* engines will use."""
    try:
        done = setup(venv or default_venv(), requirement, click.echo)
    except SetupError as err:
        raise click.ClickException(str(err)) from None
    click.echo(f"py-draughts {done.version} in {done.venv}")
    if venv is not None:
        click.echo(f"use it with --python {done.python} (or {PYTHON_VARIABLE}={done.python})")


@reference_engine.command("check-pydraughts")
@click.option("--python", help=PYTHON_HELP)
def check_pydraughts(python: str | None) -> None:
    """Say which Python the pydraughts-* engines use and its py-draughts version (exit 1 if none)."""
    found = find_python(python)
    version = installed_version(found)
    if version is None:
        raise click.ClickException(f"no py-draughts under {found}: mcts-engine reference-engine setup-pydraughts")
    click.echo(f"py-draughts {version} under {found}")


@reference_engine.command("adjudicate")
@click.argument("journal", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("output", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--plies", type=click.IntRange(1), default=40, show_default=True,
              help="plies without a capture that end a game (OpenSpiel's checkers: 40)")
@click.option("--king-value", type=click.FloatRange(0), default=1.5, show_default=True,
              help="a king's material, a man's being 1")
@click.option("--margin", type=click.FloatRange(0, min_open=True), default=1.0, show_default=True,
              help="material lead that wins an adjudicated game (less: a draw)")
def adjudicate(journal: Path, output: Path, plies: int, king_value: float, margin: float) -> None:
    """Write OUTPUT: JOURNAL's games ended where OpenSpiel's own rule ends them (PLIES plies
    without a capture) and adjudicated by material; read it with mcts-tournament report."""
    if journal.resolve() == output.resolve():
        raise click.UsageError("OUTPUT must be another file than JOURNAL")
    try:
        done = adjudicate_journal(journal, output, plies, king_value, margin)
    except (ValueError, KeyError, RulesError) as err:
        raise click.UsageError(f"{journal}: not a journal of draughts games ({err})") from None
    changed = [d for d in done if d.ply is not None]
    flipped = sum(d.raw != d.score_first for d in changed)
    click.echo(f"{len(done)} games, {len(changed)} adjudicated at {plies} plies without a capture "
               f"({flipped} of them with another result than played out); written to {output}")
