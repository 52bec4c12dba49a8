"""The results journal: append-only JSON lines, for resuming.

The journal's first line describes the tournament (``{"type": "tournament", ...}``);
every later line is one finished game (``{"type": "game", "id": ...}``), written whole
with its newline in one write and synced to disk before the game counts.

* One writer: the manager that writes a journal holds its lock (``lock.py``) from the
  resume to the end of its run; a second manager on the same journal is refused with the
  holder's pid, so no game is played twice.
* Nothing finished is lost, nothing counted twice: the readers (the resume, ``report``, the
  tuner, the GUI's watcher) all read it with ``mcts_engine.journal_format``, which counts a
  record only when its line is complete; before its first write the writer repairs the last
  line the same way (a whole record that lost its newline gets it, a line cut short by a
  kill is cut), so what was counted before the repair is counted after it.
* Every line is checked (game lines against their tournament header): anything wrong is
  one ``JournalError`` naming the line.

(A game of the journal as PDN text: ``mcts_engine.records``.)
"""
from __future__ import annotations

import json
import os
from contextlib import contextmanager
from typing import Iterator

from mcts_engine.journal_format import JournalError, header_and_games, read_records, tail_repair

from . import lock

__all__ = ["header_and_games", "JournalError", "Journal"]

TAIL_BLOCK = 1 << 16      # bytes read at a time when looking for the last line


class Journal:
    """An append-only JSON-lines file of finished games, flushed and synced per line."""

    def __init__(self, path: str):
        self.path = path

    def records(self) -> list[dict]:
        """Every complete record in the file, in order and checked (none if it does not exist);
        a JournalError names the first line that is wrong."""
        return read_records(self.path)

    def load(self) -> tuple[dict | None, list[dict]]:
        """(the tournament header or None, the game records).

        Lines of other types (a tune journal's ``tune`` and ``iteration`` lines) are left out;
        with several tournament headers (one per tune iteration) the last one counts.
        """
        return header_and_games(self.records())

    def acquire(self) -> None:
        """Become the journal's writer until ``release`` (or the end of this process): take its
        lock (JournalBusy, naming the holder's pid, if another process writes it) and repair
        its last line."""
        lock.acquire(self.path)
        try:
            self.repair_tail()
        except BaseException:
            lock.release(self.path)
            raise

    def release(self) -> None:
        """Stop being the journal's writer (the lock is counted: the last release frees it)."""
        lock.release(self.path)

    @contextmanager
    def writing(self) -> Iterator["Journal"]:
        """The journal's lock for the duration of a ``with`` block."""
        self.acquire()
        try:
            yield self
        finally:
            self.release()

    def append(self, record: dict) -> None:
        """Write one record as a line (under the journal's lock) and make sure it is on disk
        before returning."""
        data = (json.dumps(record, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")
        with self.writing():
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                written = os.write(fd, data)
                while written < len(data):          # a short write (a full disk): the rest, or an error
                    written += os.write(fd, data[written:])
                os.fsync(fd)
            finally:
                os.close(fd)

    def repair_tail(self) -> None:
        """Make the last line whole, as the readers count it: a complete record that lost its
        newline gets it back, a line cut short by a kill is cut (``journal_format.tail_repair``)."""
        try:
            f = open(self.path, "rb+")
        except FileNotFoundError:
            return
        with f:
            start, tail = _last_line(f)
            repair = tail_repair(tail)
            if repair.add_newline:
                f.seek(0, os.SEEK_END)
                f.write(b"\n")
            elif repair.keep is not None:
                f.truncate(start + repair.keep)
            else:
                return
            f.flush()
            os.fsync(f.fileno())


def _last_line(f) -> tuple[int, bytes]:
    """(where the bytes start, the bytes from the file's last newline on) of the open file ``f``:
    nothing if it ends with a newline, the whole file if it has none."""
    size = f.seek(0, os.SEEK_END)
    if size == 0:
        return 0, b""
    f.seek(size - 1)
    if f.read(1) == b"\n":
        return size, b""
    end, tail = size, b""
    while end > 0:
        start = max(0, end - TAIL_BLOCK)
        f.seek(start)
        tail = f.read(end - start) + tail
        end = start
        cut = tail.rfind(b"\n")
        if cut >= 0:
            return start + cut, tail[cut:]
    return 0, tail
