"""What a running tournament prints, as cutechess and fastchess print it.

After each journaled game: ``Finished game N (A vs B): A wins {why}`` (N from 1, A the first
player, the winner named or ``draw``; PDN's ``2-0``/``0-2`` are for the records, where White's
side is known) and the running score of that pairing, ``Score of A vs B: w - l - d [score] n``
(A's wins, losses, draws, A's score, games); every ``rating_interval`` games the Elo of a
match (``Elo difference: ...``, ``elo.match_estimate``'s as the final report and its rating
table give it) or the rating table of a round robin or gauntlet, with an SPRT fastchess's
``LLR: ...`` line (the LLR, its share of the way to the bound it leans to, the bounds, elo0
and elo1), and, when the output is no terminal, a plain ``Progress:`` line (games done, time,
time left).  On a terminal a progress bar on stderr
counts the games, its suffix the running score (and the LLR); elsewhere (a pipe, a log file,
CI) there is no bar, whose redraws would make one endless line there.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from mcts_engine.records import game_number, winner_of

from ..results.elo import WDL, interval_text, signed
from ..results.pairs import pair_report
from ..results.report import llr_line, score_for, sprt_between, standings
from ..results.sprt import SPRT
from ..results.tables import rating_table

__all__ = ["RunProgressSettings", "RunProgress", "score_line", "finished_line", "elo_line"]


@dataclass(frozen=True)
class RunProgressSettings:
    """What to print: the games in all (journaled ones included), the engines in tournament
    order, the game, every how many games the ratings (0: never), whether per-game lines are
    wanted (not ``--quiet``/``--json``), whether a bar is (a terminal), and the SPRT of the
    first two engines (None: no test)."""

    total: int
    names: tuple[str, ...]
    game: str
    rating_interval: int = 10
    lines: bool = True
    bar: bool = False
    sprt: SPRT | None = None


def score_line(a: str, b: str, wdl: WDL) -> str:
    """``Score of A vs B: w - l - d [0.600] n``: A's wins, losses and draws against B."""
    return f"Score of {a} vs {b}: {wdl.wins} - {wdl.losses} - {wdl.draws} [{wdl.score:.3f}] {wdl.games}"


def finished_line(record: dict) -> str:
    """``Finished game 7 (C10 vs C07): C07 wins {why}``: the game's number, its first and second
    player, the winner by name (or ``draw``) and the reason."""
    first, second = record["players"]
    winner = winner_of(record)
    result = f"{winner} wins" if winner is not None else "draw"
    return f"Finished game {game_number(record)} ({first} vs {second}): {result} {{{record.get('reason', '')}}}"


def elo_line(a: str, b: str, games: list[dict]) -> str:
    """cutechess's ``Elo difference: ... LOS ... DrawRatio`` line for A against B's ``games`` (the
    "+/-" half the width of the interval shown, the final report's)."""
    ps = pair_report(a, b, [(g.get("pair"), score_for(g, a)) for g in sorted(games, key=lambda g: g["id"])])
    return (f"Elo difference: {signed(ps.elo)} +/- {ps.elo_error:.1f} {interval_text(ps.estimate)}, "
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
            llr = self.llr()
            self.bar.set_postfix_str(f"{a} {wdl.wins}-{wdl.losses}-{wdl.draws} {b}"
                                     + (f", {llr.split(' [')[0]}" if llr else ""))
        if not self.settings.lines:
            return
        self.say(finished_line(record))
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
            table = standings(self.games, list(names))
            self.say(rating_table({n: st.wdl for n, st in table.items()}, {n: st.estimate for n, st in table.items()}))
        llr = self.llr()
        if llr:
            self.say(llr)
        if self.bar is None:
            self.say(self.progress_line())

    def llr(self) -> str:
        """fastchess's ``LLR: 1.71 (57.9%) (-2.94, 2.94) [0.00, 10.00]`` of the SPRT so far; "" without one."""
        sprt, names = self.settings.sprt, self.settings.names
        if sprt is None or len(names) < 2:
            return ""
        return llr_line(sprt_between(self.games, names[0], names[1], sprt))

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
