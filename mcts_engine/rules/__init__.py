"""The game registry: every game and variant by name.

``get_game(name, **options)`` returns a ``Game`` (see ``base.py`` for the
contract); options are the game's rule toggles, given as keyword arguments or
parsed from the protocol's ``Rules`` string (``parse_rule_options``).
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from .base import Game, State
from .errors import AmbiguousMove, BadOption, BadPosition, IllegalMove, RulesError, UnknownGame
from .options import parse_rule_options
from .draughts.variants import ALIASES as _DRAUGHTS_ALIASES, VARIANTS as _DRAUGHTS_VARIANTS

__all__ = ["get_game", "list_games", "aliases_of", "is_draughts", "Game", "State", "RulesError", "UnknownGame", "BadOption",
           "BadPosition", "IllegalMove", "AmbiguousMove", "parse_rule_options"]


@dataclass(frozen=True)
class _Entry:
    """Where a game's ``make_game`` lives: its module under ``rules`` (imported on the first
    ``get_game``, so that starting the engine loads the rules of its one game, not of every game)
    and whether the factory takes the game's name first (a row of a family's table)."""
    module: str
    named: bool = False


# name -> where its factory is; every factory takes ``native`` and the rule options
_REGISTRY: dict[str, _Entry] = {name: _Entry("draughts", named=True) for name in _DRAUGHTS_VARIANTS}
_REGISTRY.update({name: _Entry("alquerque", named=True) for name in ("alquerque", "zamma", "harbagh", "fox-and-geese")})
_REGISTRY.update({name: _Entry(name) for name in ("life", "dablot", "gauntlet", "fanorona", "rithmomachia")})
_ALIASES = dict(_DRAUGHTS_ALIASES)
_CACHE: dict = {}


def list_games() -> list[str]:
    """The registered game names, sorted."""
    return sorted(_REGISTRY)


def aliases_of(name: str) -> list[str]:
    """The other names the registry accepts for the game ``name`` (``american`` for english), in its order."""
    return [alias for alias, ours in _ALIASES.items() if ours == name]


def is_draughts(name: str) -> bool:
    """Whether ``name`` is a registered draughts variant (its game records are PDN)."""
    return name in _DRAUGHTS_VARIANTS


def get_game(name: str, *, native: bool = True, **options) -> Game:
    """The game called ``name`` (case-insensitive; aliases like ``american`` work) with rule options.

    ``native=False`` gives the game on its Python rules even where the native kernel is built
    (bench's ``--core python``, the cross-checks); games without native rules always run their Python rules.
    Raises UnknownGame naming the game and the known names, BadOption for a bad option.
    """
    key = str(name).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _REGISTRY:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(list_games())}")
    cache_key = (key, native, tuple(sorted((k, str(v)) for k, v in options.items())))
    game = _CACHE.get(cache_key)
    if game is None:
        game = _CACHE[cache_key] = _make(key, native, options)
        game.registry_entry = (_game_from_registry, (game.name, game.native, tuple(game.options.items())))
    return game


def _make(key: str, native: bool, options: dict) -> Game:
    """A new game from its registry entry (the module imported here, once)."""
    entry = _REGISTRY[key]
    make_game = import_module(f"{__name__}.{entry.module}").make_game
    return make_game(key, native=native, **options) if entry.named else make_game(native=native, **options)


def _game_from_registry(name: str, native: bool, options: tuple) -> Game:
    """Unpickling a registered game: the receiver's cached game of that name, core and options."""
    wanted = dict(options)
    for game in _CACHE.values():
        if game.name == name and game.native == native and game.options == wanted:
            return game
    return get_game(name, native=native, **wanted)
