"""The game registry: every game and variant by name.

``get_game(name, **options)`` returns a ``Game`` (see ``base.py`` for the
contract); options are the game's rule toggles, given as keyword arguments or
parsed from the protocol's ``Rules`` string (``parse_rule_options``).
"""
from __future__ import annotations

from .base import Game, State
from .errors import AmbiguousMove, BadOption, BadPosition, IllegalMove, RulesError, UnknownGame
from .options import parse_rule_options
from . import alquerque, dablot, draughts, fanorona, gauntlet, life, rithmomachia

__all__ = ["get_game", "list_games", "aliases_of", "is_draughts", "Game", "State", "RulesError", "UnknownGame", "BadOption",
           "BadPosition", "IllegalMove", "AmbiguousMove", "parse_rule_options"]

# name -> factory(**options) -> Game
_FACTORIES = {name: (lambda name=name, **o: draughts.make_game(name, **o)) for name in draughts.VARIANTS}
_NATIVE = set(draughts.VARIANTS) | {"fanorona", "dablot", "rithmomachia", "life", "gauntlet"}     # the games whose factories take ``native``
_FACTORIES["life"] = lambda native=True, **o: life.make_game(native, **o)
_FACTORIES["alquerque"] = lambda **o: alquerque.make_game("alquerque", **o)
_FACTORIES["zamma"] = lambda **o: alquerque.make_game("zamma", **o)
_FACTORIES["harbagh"] = lambda **o: alquerque.make_game("harbagh", **o)
_FACTORIES["fox-and-geese"] = lambda **o: alquerque.make_game("fox-and-geese", **o)
_NATIVE |= set(alquerque.GAMES)
_FACTORIES["dablot"] = lambda **o: dablot.make_game(**o)
_FACTORIES["gauntlet"] = lambda native=True, **o: gauntlet.make_game(native, **o)
_FACTORIES["fanorona"] = lambda **o: fanorona.make_game(**o)
_FACTORIES["rithmomachia"] = lambda **o: rithmomachia.make_game(**o)
_ALIASES = dict(draughts.ALIASES)
_CACHE: dict = {}


def list_games() -> list[str]:
    """The registered game names, sorted."""
    return sorted(_FACTORIES)


def aliases_of(name: str) -> list[str]:
    """The other names the registry accepts for the game ``name`` (``american`` for english), in its order."""
    return [alias for alias, ours in _ALIASES.items() if ours == name]


def is_draughts(name: str) -> bool:
    """Whether ``name`` is a registered draughts variant (its game records are PDN)."""
    return name in draughts.VARIANTS


def get_game(name: str, *, native: bool = True, **options) -> Game:
    """The game called ``name`` (case-insensitive; aliases like ``american`` work) with rule options.

    ``native=False`` gives the game on its Python rules even where the native kernel is built
    (bench's ``--core python``, the cross-checks); games without native rules always run their Python rules.
    Raises UnknownGame naming the game and the known names, BadOption for a bad option.
    """
    key = str(name).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _FACTORIES:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(list_games())}")
    native = native and key in _NATIVE
    cache_key = (key, native, tuple(sorted((k, str(v)) for k, v in options.items())))
    game = _CACHE.get(cache_key)
    if game is None:
        game = _CACHE[cache_key] = _FACTORIES[key](**options) if native or key not in _NATIVE \
            else _FACTORIES[key](native=False, **options)
        game.registry_entry = (_game_from_registry, (game.name, game.native, tuple(game.options.items())))
    return game


def _game_from_registry(name: str, native: bool, options: tuple) -> Game:
    """Unpickling a registered game: the receiver's cached game of that name, core and options."""
    wanted = dict(options)
    for game in _CACHE.values():
        if game.name == name and game.native == native and game.options == wanted:
            return game
    return get_game(name, native=native, **wanted)
