"""The writing manager's exclusive lock on a journal, so that two managers never write one.

The lock is ``flock`` on a file beside the journal (``JOURNAL.lock``) that holds the pid of the
manager writing it; the kernel releases it when that process ends, however it ends (also
``kill -9``), so a stale lock never blocks the next run.  A second manager is refused at once
with the holder's pid.  Within one process the lock is counted (a tune's iterations take the
journal their tune holds); the last release removes the file.
"""
from __future__ import annotations

import fcntl
import os
import threading
import time
from dataclasses import dataclass

from mcts_engine.journal_format import JournalError

__all__ = ["JournalBusy", "acquire", "release", "held", "lock_path"]

PID_WAIT = 0.2        # seconds to wait for a holder that has just taken the lock to write its pid


class JournalBusy(JournalError):
    """Another process writes this journal (the message names its pid)."""


@dataclass
class _Held:
    """A lock this process holds: its file descriptor and how many times it was taken."""

    fd: int
    count: int


_held: dict[str, _Held] = {}
_guard = threading.Lock()


def lock_path(journal: str) -> str:
    """The lock file of ``journal``."""
    return journal + ".lock"


def held(journal: str) -> bool:
    """Whether this process holds ``journal``'s lock."""
    with _guard:
        return os.path.abspath(journal) in _held


def acquire(journal: str) -> None:
    """Take ``journal``'s lock (again, if this process holds it); JournalBusy if another process
    holds it, naming its pid."""
    key = os.path.abspath(journal)
    with _guard:
        if key in _held:
            _held[key].count += 1
            return
        _held[key] = _Held(_take(journal), 1)


def release(journal: str) -> None:
    """Give ``journal``'s lock back once; the last release removes the lock file and unlocks."""
    key = os.path.abspath(journal)
    with _guard:
        mine = _held.get(key)
        if mine is None:
            return
        mine.count -= 1
        if mine.count > 0:
            return
        del _held[key]
        try:
            os.unlink(lock_path(journal))     # still locked: a process that opened it sees it replaced
        except OSError:
            pass
        os.close(mine.fd)


def _take(journal: str) -> int:
    """Lock the lock file (made afresh if a releasing holder just removed it) and write our pid."""
    path = lock_path(journal)
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise JournalError(f"journal {journal}: cannot create its lock file {path}: "
                               f"{err.strerror or err}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _holder(fd)
            os.close(fd)
            raise JournalBusy(f"journal {journal} is being written by another manager (pid {holder}); "
                              "wait for it to finish (or stop it), or use another --journal") from None
        if _same_file(fd, path):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            return fd
        os.close(fd)          # we locked a file its holder removed on release: take the new one


def _same_file(fd: int, path: str) -> bool:
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except OSError:
        return False


def _holder(fd: int) -> str:
    """The pid in the lock file (waiting briefly for a holder that has just taken it)."""
    deadline = time.monotonic() + PID_WAIT
    while True:
        text = os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
        if text or time.monotonic() > deadline:
            return text or "unknown"
        time.sleep(0.01)
