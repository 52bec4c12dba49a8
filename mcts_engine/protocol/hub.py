"""The Hub protocol v2 of draughts GUIs (Scan 3.0, Hub 2.0, pydraughts' ``HubEngine``).

A session whose first line is ``hub`` speaks this dialect over the same engine
session as ours.  Lines are ``command arg=value arg="quoted value" flag``.
Parameters are the engine options (``variant`` is ``UCI_Variant``; Scan's name
``normal`` is ``international``).  Every registered game plays:

* ``pos pos=<position> [moves="m1 m2 ..."]``: a Hub position string (side to move,
  then one of ``w b W B e`` per square) for the games whose rules read one
  (``game.hub_squares`` > 0), or our FEN for any game (quoted when it has spaces);
  moves and the ``done``/``info pv`` moves are in the game's Hub notation
  (``state.parse_hub_move`` / ``state.hub_move_str``: draughts captures as
  ``from x to x captured ...``, every other game its own notation).
* A client that never set the variant and sends a position string of another
  board size gets the usual game of that size (``HUB_BOARDS``).
* Clients that number a variant's squares their own way (pydraughts, and so the
  lidraughts bot bridge, on English, Russian, Brazilian and Turkish) are translated at
  the edge by ``conventions.py``: positions and moves in, moves and PVs out.
* The client is the arbiter: a game it goes on with after our draw rules called it
  drawn goes on (``State.play_on``), so clients with other draw rules play to their end.
* Parameters the engine does not have (``set-param name=bb-size ...``) are ignored, as
  Hub asks of anything not understood.

Unknown commands are ignored, as Hub asks; bad arguments, and what a game cannot
do, get one ``error message="..."`` line; every ``go`` gets exactly one ``done``.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Callable

from .. import __version__, native
from ..engine import Limits, SearchInfo
from ..rules import Game, RulesError, State
from .conventions import SquareTranslation
from ..echo import one_line, short
from ..engine_options import DeclaredOption, OptionError
from .errors import ProtocolError
from .session import ENGINE_AUTHOR, ENGINE_NAME, FinishedSearch, Session, build_position, move_texts

HUB_BOARDS = {50: "international", 32: "english", 72: "canadian", 64: "turkish"}  # squares -> usual game
# the clients' variant names that are not ours: Scan's (normal, killer, bt, frisian, losing) and
# pydraughts' / lidraughts' (standard, frysk!, antidraughts, breakthrough, from position)
HUB_VARIANTS = {"normal": "international", "standard": "international", "bt": "breakthrough",
                "losing": "antidraughts", "frysk!": "frysk", "from position": "international",
                "fromposition": "international"}
HUB_START_VARIANT = "international"           # Hub is the 10x10 GUIs' protocol
_HUB_ARG = re.compile(r'([^\s=]+)(?:=("(?:[^"]*)"|\S*))?')
_HUB_POSITION = re.compile(r"[WB][wbWBe]+")
LEVEL_BOUNDS = {"depth": Limits.MAX_DEPTH, "nodes": Limits.MAX_NODES, "moves": Limits.MAX_MOVESTOGO,
                "move-time": Limits.MAX_SECONDS, "time": Limits.MAX_SECONDS, "inc": Limits.MAX_SECONDS}
"""The largest value of each ``level`` number (seconds for the times); a larger one is clamped."""


def hub_args(text: str) -> dict[str, str]:
    """``a=1 b="x y" flag`` -> {"a": "1", "b": "x y", "flag": ""}."""
    out = {}
    for m in _HUB_ARG.finditer(text):
        value = m.group(2) or ""
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        out[m.group(1)] = value
    return out


def hub_quote(value: object) -> str:
    """A value as Hub writes it: quoted when empty or holding a space, ``=`` or quote."""
    value = str(value).replace('"', "'")
    return f'"{value}"' if (not value or any(c in value for c in ' ="')) else value


def param_line(declared: DeclaredOption, value: object) -> str:
    """An option and its current value as a Hub ``param`` line."""
    opt = declared.option
    name = "variant" if opt.name == "UCI_Variant" else opt.name
    kind = {"check": "bool", "spin": "int", "combo": "enum", "real": "real"}.get(opt.kind, "string")
    line = f"param name={name} value={hub_quote(opt.text(value))} type={kind}"
    if opt.kind == "spin":
        line += f" min={opt.low} max={opt.high}"
    if opt.kind == "combo":
        line += f" values={hub_quote(' '.join(variant_values(opt.choices) if name == 'variant' else opt.choices))}"
    return line


def variant_values(ours: tuple[str, ...]) -> list[str]:
    """The ``variant`` param's values: our game names, then the clients' names for them that
    are one word (Scan's ``normal``, pydraughts' ``standard`` and ``frysk!``), so a client
    checking its variant against the list (pydraughts' ``HubEngine.variants``) finds it."""
    return list(ours) + [name for name, game in HUB_VARIANTS.items()
                         if " " not in name and name not in ours and game in ours]


def hub_notation(position: State, move) -> str:
    """A move in Hub notation (the game's ``hub_move_str``)."""
    return position.hub_move_str(move)


def hub_info_line(state: State, info: SearchInfo, notation: Callable[[State, object], str] = hub_notation) -> str:
    """A progress report as Scan writes it: score in men, time in seconds, speed in Mnps, quoted PV
    (moves written by ``notation``)."""
    if info.mate is not None:
        plies = max(1, 2 * abs(info.mate) - (1 if info.mate > 0 else 0))
        score = (10000 - plies) / 100 * (1 if info.mate > 0 else -1)
    else:
        score = info.cp / 100
    pv = move_texts(state, info.pv, notation)
    return (f"info depth={max(1, round(info.depth))} mean-depth={info.depth:.1f} score={score:.2f} "
            f"nodes={info.nodes} time={info.time:.3f} nps={info.nps / 1e6:.3f} pv={hub_quote(' '.join(pv))}")


@dataclass
class Level:
    """A parsed ``level``: the limits of the next searches, and the notes on the numbers
    clamped to their bound (``LEVEL_BOUNDS``)."""

    limits: Limits
    clamped: list[str] = field(default_factory=list)


def parse_level(args: dict[str, str]) -> Level:
    """``level depth=|nodes=|move-time=|[moves=] time= [inc=]|infinite`` as search limits; a
    number above its bound (more than any search uses) is clamped to it and named."""
    level = Level(Limits(infinite="infinite" in args))

    def number(key: str, kind: type = float) -> float:
        """The value of ``key`` as a number >= 0 (a clock already run out, ``time=-0.02`` as
        pydraughts sends it, is 0) and at most its bound; raises ProtocolError naming it."""
        try:
            value = kind(args[key])
        except ValueError:
            raise ProtocolError(f"level {key}={short(args[key])!r} is not a number") from None
        if not (kind is int or math.isfinite(value)) or (value < 0 and key != "time"):
            raise ProtocolError(f"level {key}={short(args[key])!r} is out of range")
        bound = LEVEL_BOUNDS[key]
        if value > bound:
            level.clamped.append(f"level {key}={short(args[key])} is above the maximum "
                                 f"{bound if kind is int else f'{bound:g} s'}: using the maximum")
            value = bound
        return max(value, 0)
    limits = level.limits
    if "depth" in args:
        limits.depth = number("depth", int)
    if "nodes" in args:
        limits.nodes = number("nodes", int)
    if "move-time" in args:
        limits.movetime = number("move-time")
    if "time" in args:
        limits.time_left = number("time")
        limits.increment = number("inc") if "inc" in args else 0.0
        if "moves" in args:
            limits.movestogo = number("moves", int) or None
    return level


class HubProtocol:
    """The Hub v2 dialect over one engine session; also the session's output."""

    def __init__(self, write: Callable[[str], None]):
        self.write = write
        self.session = Session(self)
        self.limits = Limits()
        self.variant_chosen = False    # set-param variant was sent: no board-size guessing
        self._translation: SquareTranslation | None = None
        self.session.set_option("UCI_Variant", HUB_START_VARIANT)

    def translation(self, game: Game | None = None) -> SquareTranslation:
        """The client's square numbering for ``game`` (default: the current one; ``conventions.py``)."""
        game = game or self.session.game
        if self._translation is None or self._translation.game is not game:
            self._translation = SquareTranslation(game)
        return self._translation

    def notation(self, position: State, move) -> str:
        """A move as the client writes it: the rules' Hub notation, translated."""
        return self.translation().move_out(position.hub_move_str(move))

    # --- the session's output --------------------------------------------------------------
    def info(self, state: State, info: SearchInfo) -> None:
        """A progress report as a Hub ``info`` line."""
        self.write(hub_info_line(state, info, self.notation))

    def finished(self, done: FinishedSearch) -> None:
        """The final ``info`` line (if new), then ``done move=<move> [ponder=<move>]``."""
        if done.info is not None:
            self.write(hub_info_line(done.state, done.info, self.notation))
        if done.move is None:
            self.write("done move=0000")
            return
        texts = move_texts(done.state, done.line(), self.notation)
        self.write(f"done move={texts[0]}" + (f" ponder={texts[1]}" if len(texts) > 1 else ""))

    def note(self, text: str) -> None:
        """An ``info message=`` line."""
        self.write(f"info message={hub_quote(one_line(text))}")

    def error(self, text: str) -> None:
        """An ``error message=`` line."""
        self.write(f"error message={hub_quote(one_line(text))}")

    # --- input -----------------------------------------------------------------------------
    def handle(self, line: str) -> None:
        """Process one input line; bad arguments get one error line, unknown commands nothing."""
        try:
            self.execute(line)
        except (ProtocolError, OptionError, RulesError) as err:
            self.error(str(err))

    def execute(self, line: str) -> None:
        """Process one input line; raises ProtocolError, OptionError or RulesError on bad input."""
        words = line.split(None, 1)
        handler = COMMANDS.get(words[0].lower()) if words else None
        if handler is not None:
            handler(self, hub_args(words[1] if len(words) > 1 else ""))

    # --- commands ------------------------------------------------------------------------------
    def cmd_hub(self, args: dict[str, str]) -> None:
        """hub: identify, declare every option as a param, then wait."""
        version = __version__ if native.available() else f"{__version__}+python-rules"
        self.write(f"id name={ENGINE_NAME} version={version} author={hub_quote(ENGINE_AUTHOR)}")
        values = self.session.options.effective()
        for declared in self.session.options.options:
            self.write(param_line(declared, values[declared.key]))
        self.write("wait")

    def cmd_set_param(self, args: dict[str, str]) -> None:
        """set-param name=<param> value=<value>: checked before a running search is stopped;
        a parameter we do not have is ignored (bridges send their own, e.g. ``initial-time``)."""
        name, value = args.get("name", ""), args.get("value")
        if name.lower() != "variant" and self.session.options.declared(name) is None:
            return
        if name.lower() == "variant":
            name = "UCI_Variant"
            value = HUB_VARIANTS.get((value or "").lower(), value)
        self.session.apply_option(self.session.check_option(name, value))
        if name == "UCI_Variant":
            self.variant_chosen = True

    def cmd_init(self, args: dict[str, str]) -> None:
        """init: build the agent now, then ready."""
        self.session.prepare()
        self.write("ready")

    def cmd_new_game(self, args: dict[str, str]) -> None:
        """new-game: forget the search tree and the game."""
        self.session.new_game()

    def cmd_ping(self, args: dict[str, str]) -> None:
        """ping: pong, also during a search."""
        self.write("pong")

    def cmd_pos(self, args: dict[str, str]) -> None:
        """pos [pos=<position>] [moves="..."]: a bad one leaves the position (and the game) alone."""
        change = None
        game = self.session.game
        text = args.get("pos", "")
        if _HUB_POSITION.fullmatch(text):
            squares = len(text) - 1
            if squares != game.hub_squares and squares in HUB_BOARDS and not self.variant_chosen:
                change = self.session.check_option("UCI_Variant", HUB_BOARDS[squares])
                game = change.game
            start = game.parse_hub_position(self.translation(game).position_in(text))
        else:
            start = game.parse_fen(text) if text else game.new_state()
        translation = self.translation(game)
        position = build_position(start, args.get("moves", "").split(),
                                  lambda state, move: state.parse_hub_move(translation.move_in(move)),
                                  arbiter=True)
        if change is not None:
            self.session.apply_option(change)
        self.session.set_position(position)

    def cmd_level(self, args: dict[str, str]) -> None:
        """level ...: the limits of the next searches (a number clamped to its bound is noted)."""
        level = parse_level(args)
        self.limits = level.limits
        if level.clamped:
            self.note("; ".join(level.clamped))

    def cmd_go(self, args: dict[str, str]) -> None:
        """go think|ponder|analyze: search; exactly one done follows."""
        self.session.check_idle()
        limits = replace(self.limits)
        if "analyze" in args and not (limits.movetime or limits.nodes or limits.depth or limits.time_left):
            limits = Limits(infinite=True)
        self.session.go(limits, ponder="ponder" in args)

    def cmd_stop(self, args: dict[str, str]) -> None:
        """stop: end the search now (its done follows)."""
        self.session.stop()

    def cmd_ponder_hit(self, args: dict[str, str]) -> None:
        """ponder-hit: the pondered move was played."""
        self.session.ponderhit()

    def cmd_quit(self, args: dict[str, str]) -> None:
        """quit: stop searching and end the loop."""
        self.session.shutdown()


COMMANDS: dict[str, Callable[[HubProtocol, dict[str, str]], None]] = {
    "hub": HubProtocol.cmd_hub,
    "set-param": HubProtocol.cmd_set_param,
    "init": HubProtocol.cmd_init,
    "new-game": HubProtocol.cmd_new_game,
    "ping": HubProtocol.cmd_ping,
    "pos": HubProtocol.cmd_pos,
    "level": HubProtocol.cmd_level,
    "go": HubProtocol.cmd_go,
    "stop": HubProtocol.cmd_stop,
    "ponder-hit": HubProtocol.cmd_ponder_hit,
    "quit": HubProtocol.cmd_quit,
}
