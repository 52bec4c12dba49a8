"""The engine options: the one table, its values, and the settings they give.

Each option is declared once, as metadata on the field it sets (``engine_options``): the
search's options on ``Settings``, the session's own (the game, its rules, the defaults mode,
the endgame tables, pondering, the opening book) on ``SessionOptions`` below, and a game's own search
parameters on the dataclass the game declares (``Game.search_parameters``: the draughts
family's ``Eval*`` terms), listed only while that game is played.  The table
every dialect lists (``uci`` as ``option`` lines, Hub as ``param`` lines), the parser
from client text and the ``Settings`` an engine searches with are derived from them, and
so is the table of docs/protocol.md (``markdown_table``; a test compares the two).

A value is set through ``OptionValues.check`` then ``apply``: a bad name or value raises
``OptionError`` naming the allowed values and changes nothing.  ``UCI_Variant`` and
``Rules`` are checked by building the game they describe.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..echo import short
from ..engine import Settings
from ..engine_options import DeclaredOption, EngineOption, OptionError, declared_options, engine_field
from ..rules import Game, RulesError, get_game, list_games, parse_rule_options
from ..tables import default_directory
from .game_defaults import DEFAULTS_MODES, GAME_DEFAULTS, game_defaults

__all__ = ["SessionOptions", "all_options", "OptionError", "OptionChange", "OptionValues", "game_settings",
           "markdown_table"]


@dataclass(frozen=True)
class SessionOptions:
    """The engine options that are no search setting: what the session itself reads."""

    variant: str = engine_field("english", EngineOption(
        "UCI_Variant", "combo", "the game", choices=tuple(list_games()),
        values_text="every name of `mcts-engine games` (aliases accepted)"))
    rules: str = engine_field("", EngineOption(
        "Rules", "string", "rule options, as `--rules` (a bad one is rejected, the old rules stay)",
        values_text="`key=value,...`"))
    defaults: str = engine_field("game", EngineOption(
        "Defaults", "combo", "game: an option not set takes the value measured best for the game "
        "([strength.md](strength.md)), which `uci` lists as its default; plain: the defaults of this table "
        "(plain UCT)", choices=DEFAULTS_MODES))
    endgame_tables: bool = engine_field(False, EngineOption(
        "EndgameTables", "check", "probe the endgame tables (`mcts-engine tables` builds them) at every new node "
        "of a small draughts ending: proven wins, losses and draws, the shortest win played "
        "([tables.md](tables.md))", game_default=True))
    table_path: str = engine_field("", EngineOption(
        "TablePath", "string", "the endgame tables' directory; empty = `~/.cache/mcts-engine/tables` "
        "(`$XDG_CACHE_HOME`)", values_text="a directory"))
    ponder: bool = engine_field(False, EngineOption("Ponder", "check", "the GUI may send `go ponder`"))
    own_book: bool = engine_field(False, EngineOption(
        "OwnBook", "check", "play the opening book's move, without a search, where the position is in the book "
        "(looked up by the position's key; a missing or broken book is an error line, then a search as usual); "
        "off: it did not gain ([strength.md](strength.md#the-opening-book))"))
    book_file: str = engine_field("", EngineOption(
        "BookFile", "string", "the book `OwnBook` reads; empty = the one that ships for the game (english, "
        "international), `mcts-tournament book build` makes one", values_text="a book file"))


def all_options(game: Game | None = None) -> tuple[DeclaredOption, ...]:
    """Every option, in the order the dialects list them: the session's, the search's, then
    ``game``'s own search parameters (read from the declarations at each call, so a field
    added to ``Settings`` is listed)."""
    own = declared_options(game.search_parameters) if game is not None else ()
    return declared_options(SessionOptions) + declared_options(Settings) + own


def game_option_families() -> list[tuple[type, list[str]]]:
    """Each kind of game search parameters the registered games declare, with those games."""
    families: dict[type, list[str]] = {}
    for name in list_games():
        parameters = get_game(name).search_parameters
        if declared_options(parameters):
            families.setdefault(parameters, []).append(name)
    return list(families.items())


@dataclass(frozen=True)
class OptionChange:
    """A checked option value, ready to apply: the option, its value, and the new game it makes (or None)."""

    declared: DeclaredOption
    value: Any
    game: Game | None = None

    @property
    def key(self) -> str:
        """The option's name in lower case (option names are case-insensitive)."""
        return self.declared.key


class OptionValues:
    """The current value of every option, keyed by lower-case name, and which of them the
    client has set (the others follow the game's defaults under ``Defaults game``)."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {d.key: d.default for d in all_options()}
        self.client_set: set[str] = set()
        self.list_for(self.game())

    def set_game(self, name: str) -> None:
        """Play the game called ``name`` (its rule options at their defaults), without the
        checks of ``check`` (for tools that name a registered game)."""
        self.values["uci_variant"] = name
        self.list_for(self.game())

    def list_for(self, game: Game) -> None:
        """The options of ``game``: every session and search option, and the game's own (their
        values kept from an earlier game of the same family, else their defaults)."""
        self.options = all_options(game)
        self._by_key = {d.key: d for d in self.options}
        for d in self.options:
            self.values.setdefault(d.key, d.default)

    def declared(self, name: str) -> DeclaredOption | None:
        """The option called ``name`` (case and repeated spaces do not matter), or None."""
        return self._by_key.get(" ".join(name.split()).lower())

    def check(self, name: str, value: str | None) -> OptionChange:
        """Validate setting option ``name`` to ``value`` (client text); raises OptionError, changes nothing."""
        declared = self.declared(name)
        if declared is None:
            raise OptionError(f"unknown option {short(name)!r}; options: " + ", ".join(d.option.name for d in self.options))
        key = declared.key
        if key == "uci_variant" and value is not None:
            try:   # an alias (american, shashki, ...) stands for its registered name
                value = get_game(value).name
            except RulesError:
                pass
        parsed = declared.option.parse(value)
        if key not in ("uci_variant", "rules"):
            self._check_game_parameter(declared, parsed)
            return OptionChange(declared, parsed)
        variant = parsed if key == "uci_variant" else self.values["uci_variant"]
        rules = parsed if key == "rules" else self.values["rules"]
        try:
            game = get_game(variant, **parse_rule_options(rules))
        except RulesError as err:
            what = f"Rules {short(rules)!r}" if key == "rules" else f"UCI_Variant {variant} with Rules {short(rules)!r}"
            raise OptionError(f"option {declared.option.name}: {what} rejected: {err}; the previous rules stay") from None
        return OptionChange(declared, parsed, game)

    def _check_game_parameter(self, declared: DeclaredOption, value: Any) -> None:
        """Raise OptionError where ``value`` of one of the game's own options gives search
        parameters the game refuses (``Game.check_search_parameters``: the learned evaluation
        without its weights file, say)."""
        game = self.game()
        own = declared_options(game.search_parameters)
        if declared.key not in {d.key for d in own}:
            return
        values = {**self.effective(), declared.key: value}
        try:
            game.check_search_parameters(game.search_parameters(**{d.field: d.option.to_field(values[d.key])
                                                                   for d in own}))
        except RulesError as err:
            raise OptionError(f"option {declared.option.name} value {declared.option.text(value)!r} rejected: {err}; "
                              "the previous value stays") from None

    def apply(self, change: OptionChange) -> None:
        """Store a checked value (a new game lists its own options from now on)."""
        self.values[change.key] = change.value
        self.client_set.add(change.key)
        if change.game is not None:
            self.list_for(change.game)

    def game(self) -> Game:
        """The game the ``UCI_Variant`` and ``Rules`` values describe."""
        return get_game(self.values["uci_variant"], **parse_rule_options(self.values["rules"]))

    def _game_values(self) -> dict[str, Any]:
        """The current game's measured option values under ``Defaults game`` (none under ``plain``)."""
        if self.values["defaults"] != "game":
            return {}
        return {name.lower(): self._by_key[name.lower()].option.parse(text)
                for name, text in game_defaults(self.values["uci_variant"]).items()}

    def defaults(self) -> dict[str, Any]:
        """Every option's default for the current game: the game's measured value where it
        has one (under ``Defaults game``), else the declared default; what ``uci`` lists."""
        return {**{d.key: d.default for d in self.options}, **self._game_values()}

    def effective(self) -> dict[str, Any]:
        """Every option's value for the search: the client's where it set one, else the
        current game's measured value, else the declared default."""
        values = dict(self.values)
        values.update({key: value for key, value in self._game_values().items() if key not in self.client_set})
        return values

    def settings(self) -> Settings:
        """The agent settings the effective values give, the game's own parameters included."""
        v = self.effective()
        fields = {d.field: d.option.to_field(v[d.key]) for d in declared_options(Settings)}
        tables = (v["tablepath"] or str(default_directory())) if v["endgametables"] else ""
        parameters = self.game().search_parameters
        own = parameters(**{d.field: d.option.to_field(v[d.key]) for d in declared_options(parameters)})
        return Settings(**fields, endgame_tables=tables, game_parameters=None if own == parameters() else own)


def game_settings(game_name: str) -> Settings:
    """The search settings an engine with no option set uses for ``game_name`` (its
    measured defaults, ``game_defaults``): what ``play`` plays with."""
    values = OptionValues()
    values.set_game(game_name)
    return values.settings()


def _values_text(option: EngineOption) -> str:
    """The docs table's range / values cell of an option."""
    if option.values_text:
        return option.values_text
    if option.kind == "spin":
        return f"{option.low}..{option.high}"
    if option.kind == "combo":
        return ", ".join(option.choices)
    if option.kind == "real":
        return f"real >= {option.low:g}" if option.high is None else f"real in [{option.low:g}, {option.high:g}]"
    return ""


def _game_values_text(option: EngineOption) -> str:
    """The docs table's cell of the games whose measured defaults set the option: ``english 6, ...``."""
    return ", ".join(f"{game} {row[option.name]}" for game, row in GAME_DEFAULTS.items() if option.name in row)


def markdown_table() -> str:
    """The option table of docs/protocol.md, derived from the declarations (a test keeps them
    equal): every option, then the games' own, each family's once."""
    lines = ["| option | type | default | range / values | per game (`Defaults game`) | meaning |",
             "|---|---|---|---|---|---|"]
    own = tuple(d for parameters, _ in game_option_families() for d in declared_options(parameters))
    for d in all_options() + own:
        option = d.option
        default = option.text(d.default) or "(empty)"
        lines.append(f"| `{option.name}` | {option.protocol_type} | {default} | {_values_text(option)} | "
                     f"{_game_values_text(option)} | {option.help} |")
    return "\n".join(lines)
