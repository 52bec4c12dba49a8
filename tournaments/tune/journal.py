"""A tune's journal: one file of JSON lines for the whole tune, read back and resumed.

A tune is a loop over the tournament runner: each iteration (an SPSA step or an Optuna
trial) builds an ordinary ``TournamentSettings`` for two specs of the engine under test (theta+ and
theta-, or the trial and the baseline), ``K`` colour-swapped pairs over the iteration's
openings, and plays it with ``Tournament`` like any match, every move validated by our
rules; with an opponent it is a gauntlet of the opponent against the engines under test
(theta+ and theta-, or the trial), ``K`` pairs each over the same openings.  All of it goes
into one journal (JSON lines)::

    {"type": "tune", "settings": {...}}                           what is tuned, and how
    {"type": "tournament", "iteration": 1, "settings": {...}}     iteration 1's match (its engines)
    {"type": "game", "iteration": 1, "id": 0, "pair": 0, ...}     its games, as in any journal
    {"type": "iteration", "iteration": 1, "theta": [...], ...}     its result and the new theta
    ...

Game ids and pair ids run on across iterations, so ``report``, ``--pdn``, ``replay`` and the
GUI's watcher read a tune journal like a match journal.  A killed tune resumes from it with
the same command: the iteration that was cut off continues its match (the games already
journaled are not played again), and SPSA's random draws are seeded per iteration, so the
continued run is the run that would have been.  A journal of another tune is refused.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..results.journal import Journal, JournalError, header_and_games
from .defaults import TUNE_HEADER
from .params import Param, from_json
from .settings import TuneSettings

__all__ = ["IterationJournal", "TuneRecords", "TuneJournal", "load_header_params"]


class IterationJournal(Journal):
    """One iteration's part of a tune journal, as its ``Tournament`` sees it: its own header and
    games (each line it writes is tagged with the iteration)."""

    def __init__(self, path: str, iteration: int):
        super().__init__(path)
        self.iteration = iteration

    def load(self) -> tuple[dict | None, list[dict]]:
        """(this iteration's tournament header or None, this iteration's games)."""
        return header_and_games(r for r in self.records() if r.get("iteration") == self.iteration)

    def append(self, record: dict) -> None:
        """Write the record tagged with this iteration."""
        super().append({**record, "iteration": self.iteration})


@dataclass(frozen=True)
class TuneRecords:
    """A tune journal read back: its header, its finished iterations (in order), its games."""

    header: dict | None
    iterations: list[dict]
    games: list[dict]


class TuneJournal:
    """The tune's journal file."""

    def __init__(self, path: str):
        self.path = path
        self.file = Journal(path)
        self.writing = False            # this tune holds the journal's lock (``start`` .. ``close``)

    def load(self) -> TuneRecords:
        """Everything in the file; an iteration line twice or out of order is an error."""
        header, iterations, games = None, [], []
        for record in self.file.records():
            kind = record.get("type")
            if kind == TUNE_HEADER:
                header = record
            elif kind == "iteration":
                if record.get("iteration") != len(iterations) + 1:
                    raise JournalError(f"journal {self.path}: iteration {record.get('iteration')} follows "
                                       f"iteration {len(iterations)}")
                iterations.append(record)
            elif kind == "game":
                games.append(record)
        return TuneRecords(header, iterations, games)

    def start(self, tune: TuneSettings) -> TuneRecords:
        """The journal's records for ``tune``: a new journal gets its header; one of another
        tune (or of a match) is refused.  Takes the journal's lock (another manager writing it
        is refused with its pid), held until ``close``."""
        if not self.writing:
            self.file.acquire()
            self.writing = True
        try:
            return self._start(tune)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Give the journal's lock back."""
        if self.writing:
            self.writing = False
            self.file.release()

    def _start(self, tune: TuneSettings) -> TuneRecords:
        records = self.load()
        if records.header is None:
            if self.file.records():
                raise JournalError(f"journal {self.path} is not a tune journal (it has no tune header); "
                                   "use another --journal")
            self.file.append({"type": TUNE_HEADER, "settings": tune.identity(),
                              "started": time.strftime("%Y-%m-%dT%H:%M:%S")})
            return self.load()
        if records.header.get("settings") != tune.identity():
            raise JournalError(f"journal {self.path} was written for a different tune (engine, opponent, "
                               "parameters, optimizer, budget, seed, time control or openings differ); use "
                               "another --journal or the same settings")
        return records

    def iteration(self, k: int) -> IterationJournal:
        """Iteration ``k``'s view of the journal, for its ``Tournament``."""
        return IterationJournal(self.path, k)

    def finish(self, record: dict) -> None:
        """Journal a finished iteration."""
        self.file.append({"type": "iteration", **record})


def load_header_params(header: dict) -> tuple[Param, ...]:
    """The parameters a tune journal's header describes."""
    return tuple(from_json(d) for d in header["settings"]["params"])
