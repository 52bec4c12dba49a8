"""The engine options: the one table, their validation, and the settings they give.

Every dialect lists the same table (``uci`` as ``option`` lines, Hub as ``param``
lines) and sets values through ``OptionValues.check`` then ``apply``: a bad name
or value raises ``OptionError`` naming the allowed values and changes nothing.
``UCI_Variant`` and ``Rules`` are checked by building the game they describe.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..agents import AGENTS
from ..mcts.settings import FINAL_MOVES, MERGES, PARALLEL_MODES, PLAYOUTS, SELECTION_RULES, Settings
from ..rules import Game, RulesError, get_game, list_games, parse_rule_options
from .errors import short
from ..tables import default_directory
from .game_defaults import DEFAULTS_MODES, game_defaults

MAX_THREADS = 64         # the Threads option's maximum
MAX_HASH_MB = 1 << 20    # the Hash option's maximum (MB): a terabyte


class OptionError(ValueError):
    """A bad option name or value; the message names the allowed values or range."""


@dataclass(frozen=True)
class Option:
    """One engine option: its name, type (check, spin, combo, string, button), default and range.

    ``real`` makes a string option hold a real number in [low, high] (high None = no bound).
    """

    name: str
    type: str
    default: object
    meaning: str
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()
    real: tuple[float, float | None] | None = None

    def parse(self, value: str | None) -> object:
        """The option's value from the text a client sent; raises OptionError."""
        if self.type == "button":
            return None
        if self.type == "string":
            text = "" if value is None or value == "<empty>" else value
            return self._parse_real(text) if self.real else text
        if value is None or value == "":
            raise OptionError(f"option {self.name} needs a value ({self.allowed()})")
        if self.type == "check":
            if value.lower() not in ("true", "false"):
                raise self._bad(value)
            return value.lower() == "true"
        if self.type == "spin":
            try:
                number = int(value)
            except ValueError:
                raise self._bad(value) from None
            if not self.min <= number <= self.max:
                raise self._bad(value)
            return number
        for var in self.vars:   # combo: case-insensitive, answered in the table's spelling
            if var.lower() == value.lower():
                return var
        raise self._bad(value)

    def _parse_real(self, text: str) -> str:
        """A real-number string option: the text itself, once it reads as a number in range."""
        low, high = self.real
        try:
            x = float(text)
        except ValueError:
            x = math.nan
        if not math.isfinite(x) or x < low or (high is not None and x > high):
            raise self._bad(text)
        return text

    def _bad(self, value: str) -> OptionError:
        return OptionError(f"option {self.name} value {short(value)!r} is not {self.allowed()}")

    def allowed(self) -> str:
        """The allowed values, in words."""
        if self.real:
            low, high = self.real
            return f"a real number >= {low:g}" if high is None else f"a real number in [{low:g}, {high:g}]"
        if self.type == "check":
            return "true or false"
        if self.type == "spin":
            return f"an integer in [{self.min}, {self.max}]"
        if self.type == "combo":
            return "one of " + ", ".join(self.vars)
        return "a string"


def option_table() -> tuple[Option, ...]:
    """Every engine option, in the order the dialects list them."""
    return (
        Option("UCI_Variant", "combo", "english", "the game: every registered game and variant",
               vars=tuple(list_games())),
        Option("Threads", "spin", 1, "searchers: this process plus Threads-1 worker processes (1 = none)",
               min=1, max=MAX_THREADS),
        Option("Hash", "spin", 256, "MB of search tree per search process (each of the Threads has its own); "
               "when full, the search refines the tree it has", min=1, max=MAX_HASH_MB),
        Option("Parallel", "combo", "root", "root = a tree per searcher, merged at the end; tree = one "
               "shared tree, playouts farmed out in batches (for games with slow playouts)",
               vars=PARALLEL_MODES),
        Option("ParallelMerge", "combo", "visits", "root mode: visits = summed root visits, vote = the "
               "move most searchers chose", vars=MERGES),
        Option("Defaults", "combo", "game", "game = options not set take the values measured best for "
               "the game (docs/strength.md); plain = the defaults listed here (plain UCT)",
               vars=DEFAULTS_MODES),
        Option("Seed", "spin", 0, "random seed; 0 = a fresh seed per game; equal seeds + nodes = equal output",
               min=0, max=2147483647),
        Option("Agent", "combo", "uct", "uct (MCTS), random (uniform move), greedy (one-ply material)",
               vars=AGENTS),
        Option("UCT_C", "string", "1.0", "UCB1 exploration constant, a real number >= 0", real=(0.0, None)),
        Option("Selection", "combo", "ucb1", "selection rule: ucb1, rave (all-moves-as-first statistics "
               "kept on each child), grave (RAVE with the table of the closest ancestor above GraveRef visits)",
               vars=SELECTION_RULES),
        Option("RaveBias", "string", "0.00001", "rave/grave: the bias b of beta = m / (m + n + b*m*n), "
               "a real number >= 0", real=(0.0, None)),
        Option("GraveRef", "spin", 50, "grave: visits a node needs before its AMAF table is used below it",
               min=0, max=1000000),
        Option("PriorWeight", "string", "0", "progressive bias (every Selection rule): the weight of the move's "
               "heuristic, fading as 1/(visits+1); 0 = off", real=(0.0, None)),
        Option("MinimaxWeight", "string", "0", "implicit minimax (every Selection rule): the share of the "
               "backed-up evaluate() minimax in a child's value, in [0, 1]; 0 = off", real=(0.0, 1.0)),
        Option("ProgressWeight", "string", "0", "the share of the leaf's progress() (enemy pieces gone, a "
               "lone king's safe squares) in each result, for converting won endings; 0 = off, 1 = no "
               "playouts", real=(0.0, 1.0)),
        Option("EndgameTables", "check", False, "probe the endgame tables (built by mcts-engine tables) "
               "at every new node of a small draughts ending: proven wins and losses, played to the end"),
        Option("TablePath", "string", "", "the endgame tables' directory; empty = the user's cache "
               "(~/.cache/mcts-engine/tables)"),
        Option("Widening", "string", "0", "progressive widening: a node considers its first ceil(w * "
               "sqrt(visits)) moves, best first by the move's heuristic; 0 = off (every move)", real=(0.0, None)),
        Option("Playout", "combo", "random", "playout policy: random, capture (captures first), greedy-eps "
               "(best heuristic), mast (best average result of the move), nst (of the move after the "
               "opponent's last), decisive (win at once if possible, else avoid moves that let the "
               "opponent win at once)", vars=PLAYOUTS),
        Option("PlayoutDepth", "spin", 0, "0 = playouts to the end; N = stop after N plies and evaluate",
               min=0, max=10000),
        Option("Epsilon", "string", "0.1", "random-move rate of the greedy-eps, mast and nst playouts, in [0, 1]",
               real=(0.0, 1.0)),
        Option("KeepStats", "check", False, "mast/nst: keep the move statistics across games (they are "
               "always kept across the moves of a game); false = forget them at ucinewgame"),
        Option("TreeReuse", "check", True, "keep the subtree when the next position extends the last"),
        Option("Solver", "check", True, "MCTS-Solver: prove wins and losses, report them as mate scores"),
        Option("FinalMove", "combo", "robust", "robust = most visited root move, max = best mean",
               vars=FINAL_MOVES),
        Option("MoveOverhead", "spin", 30, "milliseconds kept back per move for communication",
               min=0, max=5000),
        Option("Ponder", "check", False, "the GUI may send go ponder (the engine ponders only when told)"),
        Option("Rules", "string", "", "rule options key=value,key=value (validated by building the game)"),
    )


@dataclass(frozen=True)
class OptionChange:
    """A checked option value, ready to apply: the option, its value, and the new game it makes (or None)."""

    option: Option
    value: object
    game: Game | None = None

    @property
    def key(self) -> str:
        """The option's name in lower case (option names are case-insensitive)."""
        return self.option.name.lower()


class OptionValues:
    """The current value of every option, keyed by lower-case name, and which of them the
    client has set (the others follow the game's defaults under ``Defaults game``)."""

    def __init__(self) -> None:
        self.table = {opt.name.lower(): opt for opt in option_table()}
        self.values = {key: opt.default for key, opt in self.table.items()}
        self.client_set: set[str] = set()

    def check(self, name: str, value: str | None) -> OptionChange:
        """Validate setting option ``name`` to ``value`` (client text); raises OptionError, changes nothing."""
        key = " ".join(name.split()).lower()
        opt = self.table.get(key)
        if opt is None:
            raise OptionError(f"unknown option {short(name)!r}; options: "
                              + ", ".join(o.name for o in self.table.values()))
        if key == "uci_variant" and value is not None:
            try:   # an alias (american, shashki, ...) stands for its registered name
                value = get_game(value).name
            except RulesError:
                pass
        parsed = opt.parse(value)
        if key not in ("uci_variant", "rules"):
            return OptionChange(opt, parsed)
        variant = parsed if key == "uci_variant" else self.values["uci_variant"]
        rules = parsed if key == "rules" else self.values["rules"]
        try:
            game = get_game(variant, **parse_rule_options(rules))
        except RulesError as err:
            what = f"Rules {short(rules)!r}" if key == "rules" else f"UCI_Variant {variant} with Rules {short(rules)!r}"
            raise OptionError(f"option {opt.name}: {what} rejected: {err}; the previous rules stay") from None
        return OptionChange(opt, parsed, game)

    def apply(self, change: OptionChange) -> None:
        """Store a checked value."""
        self.values[change.key] = change.value
        self.client_set.add(change.key)

    def game(self) -> Game:
        """The game the ``UCI_Variant`` and ``Rules`` values describe."""
        return get_game(self.values["uci_variant"], **parse_rule_options(self.values["rules"]))

    def effective(self) -> dict[str, object]:
        """Every option's value for the search: the client's where it set one, else (under
        ``Defaults game``) the current game's measured value, else the table's default."""
        values = dict(self.values)
        if values["defaults"] == "game":
            for name, text in game_defaults(values["uci_variant"]).items():
                key = name.lower()
                if key not in self.client_set:
                    values[key] = self.table[key].parse(text)
        return values

    def settings(self) -> Settings:
        """The agent settings the effective values give."""
        v = self.effective()
        return Settings(agent=v["agent"], uct_c=float(v["uct_c"]), playout=v["playout"],
                        selection=v["selection"], rave_bias=float(v["ravebias"]), grave_ref=v["graveref"],
                        prior_weight=float(v["priorweight"]), minimax_weight=float(v["minimaxweight"]),
                        progress_weight=float(v["progressweight"]),
                        endgame_tables=(v["tablepath"] or str(default_directory())) if v["endgametables"] else "",
                        widening=float(v["widening"]), keep_stats=v["keepstats"],
                        playout_depth=v["playoutdepth"], epsilon=float(v["epsilon"]),
                        tree_reuse=v["treereuse"], hash_mb=v["hash"], solver=v["solver"],
                        final_move=v["finalmove"],
                        seed=v["seed"], move_overhead=v["moveoverhead"] / 1000.0,
                        threads=v["threads"], parallel=v["parallel"], merge=v["parallelmerge"])


def game_settings(game_name: str) -> Settings:
    """The search settings an engine with no option set uses for ``game_name`` (its
    measured defaults, ``game_defaults``): what ``play`` plays with."""
    values = OptionValues()
    values.values["uci_variant"] = game_name
    return values.settings()
