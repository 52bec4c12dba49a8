"""Continuing a journal's tournament: the same one again (a rerun resumes it), or the same with
more games per pair, as fastchess continues a schedule when given more games.

What decides the games (the game, the engines, the time control, the openings, the kind of
tournament) must match the journal's header; the games per pair may grow.  More games extend
the schedule: the journal's games keep their ids, the same pairs and openings, and the new
games are numbered after them (``runner.schedule`` numbers each extension after the games
before it, from the counts the header keeps in ``extended_from``); random openings
(``--opening-plies``), drawn for as many pairs as are played, only grow by the new ones.
Fewer games than the journal's tournament holds are refused with the counts, and anything
else is another tournament.
"""
from __future__ import annotations

import math

from ..results.journal import JournalError

__all__ = ["GROWING", "extension_of"]

GROWING = ("games", "extended_from", "openings")     # what may differ in a tournament continued with more games


def extension_of(identity: dict, header: dict | None, path: str, played: int) -> tuple[int, ...]:
    """The game counts an extended schedule grows from (``TournamentSettings.extended_from``), for
    the tournament ``identity`` played on the journal at ``path`` whose header in force is
    ``header`` (None: a new journal) with ``played`` games: none for a new journal, the header's
    for the same tournament, those and the header's count for more games per pair.  JournalError
    for fewer games than the journal's tournament, or another tournament."""
    if header is None:
        return ()
    old = header.get("settings") or {}
    if old == identity:
        return ()
    if _fixed(old) != _fixed(identity) or not _openings_continue(old, identity):
        raise JournalError(f"journal {path} was written for a different tournament "
                           "(game, engines, time control, openings or schedule differ); "
                           "use another --journal or the same settings")
    before = tuple(old.get("extended_from", ()))
    games, held = identity["games"], old["games"]
    if games == held:
        return before
    if games > held:
        return before + (held,)
    raise JournalError(f"journal {path} holds a tournament of {held} games per pair ({played} played): "
                       f"--games {games} is fewer; give --games {held} to continue it or more to extend it "
                       "(or another --journal)")


def _fixed(identity: dict) -> dict:
    """What may not change when a tournament continues."""
    return {k: v for k, v in identity.items() if k not in GROWING}


def _openings_continue(old: dict, new: dict) -> bool:
    """The openings of the games played are the same: equal lists, or random openings drawn for
    more (or fewer) pairs, the shorter list the start of the longer (and, growing, the old list
    not wrapped around by the games it was drawn for)."""
    a, b = old.get("openings"), new.get("openings")
    if a == b:
        return True
    if not isinstance(a, list) or not isinstance(b, list):
        return False
    short, long_ = sorted((a, b), key=len)
    if long_[:len(short)] != short:
        return False
    return len(b) < len(a) or len(a) >= math.ceil(old.get("games", 0) / 2)
