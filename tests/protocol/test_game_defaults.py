"""Per-game option values (mcts_engine/protocol/game_defaults.py): every row is a valid
option value, unset options follow the game, a client's value wins, ``Defaults plain``
restores the option table's defaults."""
from __future__ import annotations

import pytest

from mcts_engine.protocol.game_defaults import GAME_DEFAULTS, game_defaults
from mcts_engine.protocol.options import OptionValues
from mcts_engine.rules import list_games


def values_for(game: str, *settings: tuple[str, str]) -> OptionValues:
    values = OptionValues()
    for name, value in (("UCI_Variant", game),) + settings:
        values.apply(values.check(name, value))
    return values


def test_the_table_names_registered_games_and_options_a_game_may_set_only():
    assert GAME_DEFAULTS, "no game has measured defaults"
    names = {d.option.name for d in OptionValues().options if d.option.game_default}
    assert not names & {"UCI_Variant", "Rules", "Threads", "Hash", "Seed", "Defaults"}
    for game, row in GAME_DEFAULTS.items():
        assert game in list_games()
        assert row and set(row) <= names


@pytest.mark.parametrize("game", sorted(GAME_DEFAULTS))
def test_unset_options_take_the_games_values(game):
    values = values_for(game)
    effective = values.effective()
    for name, text in game_defaults(game).items():
        declared = values.declared(name)
        assert effective[name.lower()] == declared.option.parse(text) != declared.default


@pytest.mark.parametrize("game", sorted(GAME_DEFAULTS))
def test_a_value_the_client_sets_wins_even_when_it_is_the_table_default(game):
    name = next(iter(game_defaults(game)))
    declared = OptionValues().declared(name)
    values = values_for(game, (name, declared.option.text(declared.default)))
    assert values.effective()[name.lower()] == declared.default


@pytest.mark.parametrize("game", sorted(GAME_DEFAULTS))
def test_defaults_plain_is_the_option_table(game):
    plain = values_for(game, ("Defaults", "plain"))
    assert plain.effective() == plain.values
    assert plain.settings() == values_for("english", ("Defaults", "plain")).settings()


def test_a_game_without_a_row_keeps_the_table_defaults():
    game = next(g for g in list_games() if g not in GAME_DEFAULTS)
    values = values_for(game)
    assert values.effective() == values.values


def test_the_settings_follow_the_game_when_the_variant_changes():
    game = sorted(GAME_DEFAULTS)[0]
    values = values_for(game)
    tuned = values.settings()
    values.apply(values.check("UCI_Variant", next(g for g in list_games() if g not in GAME_DEFAULTS)))
    assert values.settings() != tuned
    values.apply(values.check("UCI_Variant", game))
    assert values.settings() == tuned
