"""Before any game: every engine of a tournament starts, handshakes and takes its options and
the game, or the tournament does not begin (cutechess's "Could not initialize player").

An engine that cannot start is the user's to fix, not a game to score: ``check_engines``
starts each engine once (at the same time), quits it, and raises ``EngineCheckError``
naming every engine that failed, its command and what it wrote to stderr, so the command
line ends with exit status 2 and nothing journaled.
"""
from __future__ import annotations

import threading
from typing import Callable

from mcts_engine.client import EngineError, EngineSpec, make_engine

from .referee import Lineup

__all__ = ["EngineCheckError", "failure_text", "check_engines"]


class EngineCheckError(ValueError):
    """Engines that could not be initialized; the message names each, its command and stderr."""


def failure_text(spec: EngineSpec, err: EngineError, what: str = "could not be initialized") -> str:
    """An engine's failure for people: the error, the command (and its directory), the last
    lines it wrote to stderr."""
    text = str(err).split("; stderr: ")[0]
    text = text.removeprefix(f"engine {spec.name!r}: ")
    lines = [f"engine {spec.name!r} {what}: {text}",
             f"  command: {' '.join(spec.cmd) or '(none: connecting to ' + spec.host + ')'}"
             + (f" (in {spec.cwd})" if spec.cwd else "")]
    if err.stderr:
        lines.append("  stderr: " + "\n          ".join(err.stderr.splitlines()[-5:]))
    return "\n".join(lines)


def check_engines(lineup: Lineup, startup_timeout: float | None = None,
                  io_log: Callable[[str, str, str], None] | None = None) -> None:
    """Start every engine of ``lineup`` once (its handshake, options and game), then quit it;
    EngineCheckError naming each that failed."""
    c = lineup.conditions
    failures: dict[str, str] = {}

    def check(spec: EngineSpec) -> None:
        engine = make_engine(spec, startup_timeout or c.startup_timeout, game=c.game, rules=c.rules, io_log=io_log)
        try:
            engine.start()
        except EngineError as err:
            failures[spec.name] = failure_text(spec, err)
        finally:
            engine.quit()

    threads = [threading.Thread(target=check, args=(spec,), daemon=True, name=f"check-{spec.name}")
               for spec in lineup.engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise EngineCheckError("\n".join(failures[spec.name] for spec in lineup.engines if spec.name in failures))
