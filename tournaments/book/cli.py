"""``mcts-tournament book build``: an opening book from the engine's own searches over an
openings set, written as the engine reads it (``OwnBook``, docs/protocol.md)."""
from __future__ import annotations

import shlex
import sys
import time

import click

from mcts_engine.book import write_book
from mcts_engine.rules import RulesError, get_game, parse_rule_options

from .build import BookSettings, build_book, default_openings

__all__ = ["book"]


@click.group()
def book() -> None:
    """Opening books for the engine's OwnBook option."""


@book.command("build")
@click.option("--game", required=True, help="the game (a draughts variant with an openings set)")
@click.option("--rules", default=None, help="rule options as key=value,key=value")
@click.option("--openings", default=None, metavar="FILE|SET",
              help="the openings (a file, or a shipped set's name); default: the game's shipped set")
@click.option("--plies", type=click.IntRange(0, 6), default=1, show_default=True,
              help="positions up to this many plies past each opening's end (0: the ends only; "
                   "1: also every position one move past them; 2: also every reply to the book's move ...)")
@click.option("--nodes", type=click.IntRange(1), default=300_000, show_default=True,
              help="the search's iterations per position (one thread, a fresh tree)")
@click.option("--seed", type=click.IntRange(1), default=1, show_default=True, help="the search's seed")
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="the book file to write (the engine's own: mcts_engine/books/<game>.json)")
def build(game: str, rules: str | None, openings: str | None, plies: int, nodes: int, seed: int, out: str) -> None:
    """Search every position of the book with the engine and write the move chosen in each,
    with its score (the same command builds the same book)."""
    try:
        name = get_game(game, **(parse_rule_options(rules) if rules else {})).name
        settings = BookSettings(name, parse_rule_options(rules) if rules else {}, openings or default_openings(name),
                                plies, nodes, seed)
    except (RulesError, ValueError) as err:
        raise click.UsageError(str(err)) from None
    words = ["mcts-tournament", "book", "build", "--game", name, *(["--rules", rules] if rules else []),
             "--openings", settings.openings, "--plies", str(plies), "--nodes", str(nodes), "--seed", str(seed),
             "--out", out]
    bars = _Bars()
    try:
        made = build_book(settings, shlex.join(words), bars.update)
    except ValueError as err:          # a bad openings file
        raise click.UsageError(str(err)) from None
    finally:
        bars.close()
    write_book(out, made.header, list(made.entries))
    click.echo(f"{len(made.entries)} positions in {out} ({made.header['seconds']} s)")


class _Bars:
    """A progress bar per ply on a terminal (tqdm), a line per ply elsewhere."""

    def __init__(self) -> None:
        self.bar = None
        self.ply = None
        self.started = time.monotonic()

    def update(self, ply: int, count: int) -> None:
        """``count`` > 0: ply ``ply`` starts with that many positions; 0: one more searched."""
        if count:
            self.close()
            from tqdm import tqdm
            self.ply, self.started = ply, time.monotonic()
            self.bar = tqdm(total=count, desc=f"ply {ply}", unit="position", file=sys.stderr, disable=None)
            self.total = count
        elif self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        """End the current ply's bar (and say it in a line where there is no bar)."""
        if self.bar is None:
            return
        disabled = self.bar.disable
        self.bar.close()
        if disabled:
            click.echo(f"ply {self.ply}: {self.total} positions in {time.monotonic() - self.started:.0f} s", err=True)
        self.bar = None
