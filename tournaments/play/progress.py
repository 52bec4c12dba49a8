"""What a running tournament prints, as cutechess and fastchess print it.

After each journaled game: ``Finished game N (A vs B): 2-0 {why}`` and the running score of
that pairing, ``Score of A vs B: w - l - d [score] n`` (A's wins, losses, draws, A's score,
games); every ``rating_interval`` games the Elo of a match (``Elo difference: ...``) or the
rating table of a round robin or gauntlet, and, when the output is no terminal, a plain
``Progress:`` line (games done, time, time left).  On a terminal a progress bar on stderr
counts the games, its suffix the running score; elsewhere (a pipe, a log file, CI) there is
no bar, whose redraws would make one endless line there.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from mcts_engine.records import result_text
from mcts_engine.rules import get_game, is_draughts

from ..results.elo import WDL
from ..results.pairs import pair_report
from ..results.report import score_for
from ..results.tables import rating_table

__all__ = ["RunProgressSettings", "RunProgress", "score_line", "elo_line"]


@dataclass(frozen=True)
class RunProgressSettings:
    """What to print: the games in all (journaled ones included), the engines in tournament
    order, the game (for result texts), every how many games the ratings (0: never), whether
    per-game lines are wanted (not ``--quiet``/``--json``) and whether a bar is (a terminal)."""

    total: int
    names: tuple[str, ...]
    game: str
    rating_interval: int = 10
    lines: bool = True
    bar: bool = False


def score_line(a: str, b: str, wdl: WDL) -> str:
    """``Score of A vs B: w - l - d [0.600] n``: A's wins, losses and draws against B."""
    return f"Score of {a} vs {b}: {wdl.wins} - {wdl.losses} - {wdl.draws} [{wdl.score:.3f}] {wdl.games}"


def elo_line(a: str, b: str, games: list[dict]) -> str:
    """cutechess's ``Elo difference: ... LOS ... DrawRatio`` line for A against B's ``games``."""
    ps = pair_report(a, b, [(g.get("pair"), score_for(g, a)) for g in sorted(games, key=lambda g: g["id"])])
    return (f"Elo difference: {ps.elo:+.1f} +/- {ps.elo_error:.1f} [{ps.elo_low:+.1f}, {ps.elo_high:+.1f}], "
            f"LOS: {100 * ps.los:.1f} %, DrawRatio: {100 * ps.draw_ratio:.1f} %")


class RunProgress:
    """Prints a tournament's progress; ``game`` after each journaled game, ``close`` at the end."""

    def __init__(self, settings: RunProgressSettings, done: list[dict]):
        self.settings = settings
        self.games: list[dict] = []
        self.scores: dict[tuple[str, str], WDL] = {}       # each pairing's running score, its first's side
        for record in done:
            self.count(record)
        self.started = time.monotonic()
        self.new = 0
        game = get_game(settings.game)
        self.draughts, self.first_is_white = is_draughts(game.name), game.colours[0] == "W"
        self.bar = None
        if settings.bar and settings.lines:
            from tqdm import tqdm
            self.bar = tqdm(total=settings.total, initial=len(done), unit="game", file=sys.stderr)

    def pairing(self, record: dict) -> tuple[str, str]:
        """The record's two engines in tournament order."""
        a, b = record["players"]
        order = self.settings.names
        return (a, b) if order.index(a) < order.index(b) else (b, a)

    def count(self, record: dict) -> tuple[str, str]:
        """Add a game to the running scores; its pairing."""
        self.games.append(record)
        a, b = self.pairing(record)
        self.scores[(a, b)] = self.scores.get((a, b), WDL()) + WDL.of(score_for(record, a))
        return a, b

    def game(self, record: dict) -> None:
        """One more game journaled: its lines, and the ratings every ``rating_interval`` games."""
        a, b = self.count(record)
        wdl = self.scores[(a, b)]
        self.new += 1
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str(f"{a} {wdl.wins}-{wdl.losses}-{wdl.draws} {b}")
        if not self.settings.lines:
            return
        first, second = record["players"]
        result = result_text(record["score_first"], self.draughts, self.first_is_white)
        self.say(f"Finished game {record['id'] + 1} ({first} vs {second}): {result} {{{record.get('reason', '')}}}")
        self.say(score_line(a, b, wdl))
        every = self.settings.rating_interval
        if every and len(self.games) % every == 0:
            self.ratings()

    def ratings(self) -> None:
        """The Elo line of a match, or the rating table; and, off a terminal, a progress line."""
        names = self.settings.names
        if len(names) == 2:
            self.say(elo_line(names[0], names[1], self.games))
        else:
            totals = {n: WDL() for n in names}
            for g in self.games:
                a, b = g["players"]
                one = WDL.of(g["score_first"])
                totals[a] = totals[a] + one
                totals[b] = totals[b] + one.mirrored()
            self.say(rating_table(totals))
        if self.bar is None:
            self.say(self.progress_line())

    def progress_line(self) -> str:
        """``Progress: 20/100 games, 14 s, about 56 s left`` (the rate of this run's games)."""
        done, total = len(self.games), self.settings.total
        elapsed = time.monotonic() - self.started
        left = elapsed / self.new * (total - done) if self.new else 0.0
        return f"Progress: {done}/{total} games, {elapsed:.0f} s, about {left:.0f} s left"

    def say(self, line: str) -> None:
        """One line on stdout (above the bar, if there is one)."""
        if self.bar is not None:
            self.bar.write(line, file=sys.stdout)
        else:
            print(line, flush=True)

    def close(self) -> None:
        """End the bar."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
