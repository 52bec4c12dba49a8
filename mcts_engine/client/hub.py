"""The Hub driver: any Hub engine (Scan, ours in Hub mode, a Hub adapter of another program)
plays in our tournaments (``protocol=hub`` in an engine spec).

The handshake is Hub's: ``hub`` -> ``id``/``param`` lines -> ``wait``; ``set-param`` for the
spec's options and the game (``variant``: our name, or the name the engine declares for it,
e.g. Scan's ``normal`` for international), ``ping``/``pong`` to collect any ``error``, then
``init`` -> ``ready``.  A move is ``pos pos=<position> moves="..."``, ``level ...``, ``go
think`` -> ``info ...`` lines -> ``done move=<move> [ponder=<move>]``; pondering is ``go ponder``,
then ``ponder-hit`` or ``stop`` (``ponder.py``).

Positions and moves go out in the Hub notation of our rules, numbered as the Hub clients
number the game (``mcts_engine.protocol.conventions``: the same table our own Hub dialect
reads), and the engine's move comes back in our notation.  Our rules still validate every
move: a move this driver cannot read is handed on as the engine wrote it, and the manager
refuses it as illegal.
"""
from __future__ import annotations

import math
import time

from ..protocol.conventions import SquareTranslation
from ..protocol.hub import HUB_VARIANTS, hub_args, hub_quote
from ..rules import RulesError, aliases_of, get_game
from .errors import EngineProtocolError, EngineStartError, EngineTimeout
from .info import EngineInfo, GoResult, Score, merged
from .limits import GoLimits
from .ponder import PonderingEngine
from .process import AdvertisedOption

__all__ = ["HubEngineProcess", "variant_names", "hub_score", "level_command", "parse_hub_info"]

HUB_DEFAULT_GAME = "international"     # a Hub engine without a variant parameter plays this
SYNC_TIMEOUT = 5.0                     # seconds for ping -> pong


def variant_names(game: str) -> list[str]:
    """Our game's name first, then the names Hub engines give it (Scan's, pydraughts')."""
    names = [game]
    names += [alias for alias, ours in HUB_VARIANTS.items() if ours == game and alias not in names]
    return names + [alias for alias in aliases_of(game) if alias not in names]


def hub_score(text: str) -> Score | None:
    """A Hub ``score=`` (men; mates as Scan writes them, +-(100 - plies/100)) as a Score (None: unreadable)."""
    try:
        value = round(float(text) * 100)
    except ValueError:
        return None
    if value > 9000:
        return Score(mate=math.ceil((10000 - value) / 2))
    if value < -9000:
        return Score(mate=-math.ceil((10000 + value) / 2))
    return Score(cp=value)


def parse_hub_info(line: str) -> EngineInfo:
    """A Hub ``info`` line's score, depth and node count (its PV is in Hub notation: not read)."""
    args = hub_args(line.split(None, 1)[1] if " " in line else "")
    numbers = {key: int(args[key]) for key in ("depth", "nodes") if args.get(key, "").isdigit()}
    return EngineInfo(score=hub_score(args["score"]) if "score" in args else None, **numbers)


def level_command(limits: GoLimits, mover: int) -> str:
    """``limits`` as a Hub ``level``: move-time, nodes, depth, infinite, or the mover's clock
    (seconds; Hub adds the increment before the move, so it is taken off the time sent)."""
    if limits.movetime is not None:
        return f"level move-time={limits.movetime / 1000:g}"
    if limits.nodes is not None:
        return f"level nodes={limits.nodes}"
    if limits.depth is not None:
        return f"level depth={limits.depth}"
    clock = limits.clock
    if clock is not None:
        inc = clock.increments[mover] / 1000
        parts = [f"moves={clock.movestogo}"] if clock.movestogo else []
        parts.append(f"time={max(0.0, clock.time_ms[mover] / 1000 - inc):.3f}")
        if inc:
            parts.append(f"inc={inc:g}")
        return "level " + " ".join(parts)
    return "level infinite" if limits.infinite else "level move-time=1"


class HubEngineProcess(PonderingEngine):
    """An engine spoken to over Hub (Scan's ``protocol.txt``), translated to and from our
    rules; it ponders with ``go ponder``, ``ponder-hit`` and ``stop`` (``ponder.py``)."""

    PONDERHIT = "ponder-hit"
    ANSWER = "done"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules_game = get_game(self.game or HUB_DEFAULT_GAME, **self.rules)
        self.translation = SquareTranslation(self.rules_game)

    # --- handshake ---------------------------------------------------------------------------
    def _handshake(self) -> None:
        self.send("hub")
        for line in self._startup_lines("wait", after="hub"):
            words = line.split(None, 1)
            if not words:
                continue
            args = hub_args(words[1] if len(words) > 1 else "")
            if words[0] == "id":
                self.id_name = " ".join(v for v in (args.get("name"), args.get("version")) if v) or None
                self.id_author = args.get("author")
            elif words[0] == "param" and "name" in args:
                self.options_declared[args["name"]] = AdvertisedOption(
                    args["name"], args.get("type", ""), args.get("value"), _number(args.get("min")),
                    _number(args.get("max")), tuple(args.get("values", "").split()), line.strip())
        for name, value in list(self.spec.options.items()) + self._game_params():
            if any(c in "\r\n" for c in f"{name}{value}"):
                raise self._error(EngineStartError, f"option {name!r}: a line break in the name or value")
            self.send(f"set-param name={hub_quote(name)} value={hub_quote(value)}")
        errors = self._sync("set-param")
        if errors:
            raise self._error(EngineStartError, f"options rejected: {'; '.join(errors)}")
        self.send("init")
        for _ in self._startup_lines("ready", after="init"):
            pass              # nothing but ready is expected here

    def _game_params(self) -> list[tuple[str, str]]:
        """``variant`` (the engine's name for our game) and, with rule options, ``Rules``."""
        declared = {name.lower(): option for name, option in self.options_declared.items()}
        out = []
        if "variant" in declared:
            values = list(declared["variant"].choices)
            known = [v.lower() for v in values]
            name = next((n for n in variant_names(self.rules_game.name) if n in known), None)
            if values and name is None:
                raise self._error(EngineStartError, f"the engine does not play {self.rules_game.name} "
                                  f"(its variants: {', '.join(values)})")
            out.append(("variant", values[known.index(name)] if name else self.rules_game.name))
        elif self.rules_game.name != HUB_DEFAULT_GAME:
            raise self._error(EngineStartError, f"the engine declares no variant parameter, so it plays "
                              f"{HUB_DEFAULT_GAME} only, not {self.rules_game.name}")
        return out + self._rules_setting(declared, "parameter")

    def _sync(self, what: str, timeout: float = SYNC_TIMEOUT) -> list[str]:
        """ping -> pong; the texts of the ``error`` lines seen meanwhile."""
        self.send("ping")
        errors = []
        for line in self._lines_until("pong", what, timeout, EngineTimeout, f"after {what}"):
            words = line.split(None, 1)
            if words[:1] == ["error"]:
                errors.append(hub_args(words[1] if len(words) > 1 else "").get("message", line))
        return errors

    # --- games -------------------------------------------------------------------------------
    def new_game(self, timeout: float = SYNC_TIMEOUT) -> None:
        """``new-game``, then ping/pong (a ponder search stopped first)."""
        self.stop_pondering()
        self._drain()
        self.send("new-game")
        self._sync("new-game", timeout)

    def ping(self, timeout: float = SYNC_TIMEOUT) -> float:
        """ping/pong; the round trip in seconds."""
        self._drain()
        start = time.monotonic()
        self._sync("ping", timeout)
        return time.monotonic() - start

    def _start(self, start_fen: str | None, moves: list[str], limits: GoLimits, ponder: bool):
        """``pos``, ``level`` and ``go think`` (``go ponder`` when ``ponder``) for the position
        after ``moves`` (our notation) from ``start_fen`` (None: the start position); that
        position, in which the answer is read."""
        game = self.rules_game
        state = game.parse_fen(start_fen) if start_fen else game.new_state()
        position = hub_quote(self.translation.position_out(state.hub_position()))
        hub_moves = []
        for text in moves:
            move = state.parse_move(text)
            hub_moves.append(self.translation.move_out(state.hub_move_str(move)))
            state.play(move)
        self._drain()
        self.send(f"pos pos={position}" + (f' moves="{" ".join(hub_moves)}"' if hub_moves else ""))
        self.send(level_command(limits, state.to_move))
        self.send("go ponder" if ponder else "go think")
        return state

    def _answer(self, timeout: float, state, started: float) -> GoResult:
        """The ``info`` lines up to ``done``: the answer in our notation, its time from ``started``."""
        infos: list[str] = []
        errors: list[str] = []
        for line, stopped in self._search_lines(timeout, "done", "", "during go"):
            words = line.split(None, 1)
            args = hub_args(words[1] if len(words) > 1 else "")
            if words[:1] == ["info"]:
                self._heard_info(line, infos)
            elif words[:1] == ["error"]:
                errors.append(args.get("message", line))
            elif words[:1] == ["done"]:
                if not args.get("move"):
                    raise self._error(EngineProtocolError, "done without a move")
                return self._result(state, args["move"], args.get("ponder"), infos, errors,
                                    self.timer() - started, stopped)

    def _result(self, state, move: str, ponder: str | None, infos: list[str], errors: list[str],
                elapsed: float, stopped: bool) -> GoResult:
        """The answer in our notation (a move we cannot read is passed on as written)."""
        def ours(position, text):
            try:
                found = position.parse_hub_move(self.translation.move_in(text))
            except RulesError:
                return None, text
            return found, position.move_str(found)
        played, move_text = ours(state, move)
        ponder_text = None
        if ponder and played is not None:
            after = state.copy()
            after.play(played)
            ponder_text = ours(after, ponder)[1]
        return GoResult(move_text, ponder_text, elapsed, merged(parse_hub_info(line) for line in infos), tuple(infos),
                        tuple(errors), stopped)


def _number(text: str | None) -> float | None:
    """A parameter's bound as a number, or None."""
    try:
        return float(text) if text else None
    except ValueError:
        return None
