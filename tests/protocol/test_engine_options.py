"""Engine options declared once (mcts_engine/engine_options.py): adding one is one field with
its metadata; docs/protocol.md's option table is the declarations' table; ``uci`` lists the
current game's defaults; every declared default reads back from its own text."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from mcts_engine.engine_options import EngineOption, OptionError, declared_options, engine_field, real_text
from mcts_engine.mcts.settings import Settings
from mcts_engine.protocol import options as options_module
from mcts_engine.protocol.hub import HubProtocol
from mcts_engine.protocol.options import OptionValues, all_options, markdown_table
from mcts_engine.protocol.uci import UciProtocol
from support import ROOT
from support.defaults import ENGLISH_TERMS



@dataclass(frozen=True)
class SettingsWithAnOption(Settings):
    """The search's settings with one more option: all a new option needs."""

    lookahead: int = engine_field(3, EngineOption("Lookahead", "spin", "plies a test looks ahead", low=0, high=9,
                                                  game_default=True))


def uci_lines(*commands: str) -> list[str]:
    out: list[str] = []
    protocol = UciProtocol(out.append)
    for command in commands:
        protocol.handle(command)
    protocol.session.shutdown()
    return out


def test_adding_an_engine_option_is_one_field_with_its_metadata(monkeypatch):
    monkeypatch.setattr(options_module, "Settings", SettingsWithAnOption)
    listed = uci_lines("uci")
    assert "option name Lookahead type spin default 3 min 0 max 9" in listed
    # set through the protocol, it reaches the settings the search gets
    out: list[str] = []
    protocol = UciProtocol(out.append)
    protocol.handle("setoption name lookahead value 7")
    settings = protocol.session.options.settings()
    assert isinstance(settings, SettingsWithAnOption) and settings.lookahead == 7 and out == []
    protocol.handle("setoption name Lookahead value 10")
    assert out == ["info string error: option Lookahead value '10' is not an integer in [0, 9]"]
    protocol.session.shutdown()
    # Hub lists it as a parameter, a game's measured defaults may set it, the docs table has its row
    hub: list[str] = []
    HubProtocol(hub.append).handle("hub")
    assert "param name=Lookahead value=3 type=int min=0 max=9" in hub
    measured = {**options_module.GAME_DEFAULTS, "fanorona": {"Lookahead": "5"}}
    monkeypatch.setattr(options_module, "GAME_DEFAULTS", measured)
    monkeypatch.setattr(options_module, "game_defaults", lambda game: measured.get(game, {}))
    values = OptionValues()
    values.apply(values.check("UCI_Variant", "fanorona"))
    assert values.settings().lookahead == 5 and values.defaults()["lookahead"] == 5
    assert "| `Lookahead` | spin | 3 | 0..9 | fanorona 5 | plies a test looks ahead |" in markdown_table()


def test_the_docs_option_table_is_the_declarations_table():
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = markdown_table()
    assert table in text, ("docs/protocol.md's option table differs from the declarations; put this one in:\n"
                           + table)


def test_uci_lists_the_current_games_defaults():
    def defaults(*commands: str) -> dict[str, str]:
        lines = uci_lines(*commands, "uci")
        return {line.split()[2]: line.split(" default ")[1].split()[0] for line in lines
                if line.startswith("option name ")}

    english = defaults()
    assert (english["PlayoutDepth"], english["MinimaxWeight"], english["EndgameTables"]) == ("6", "0.37", "true")
    assert english["UCT_C"] == "0.5"
    assert defaults("setoption name UCI_Variant value russian")["PlayoutDepth"] == "4"
    assert defaults("setoption name UCI_Variant value gauntlet")["PlayoutDepth"] == "0"     # a game with no row
    plain = defaults("setoption name Defaults value plain")
    assert (plain["PlayoutDepth"], plain["MinimaxWeight"], plain["EndgameTables"]) == ("0", "0", "false")
    assert plain["UCT_C"] == "1.0"
    # a value the client set is the value in force, not the listed default
    assert defaults("setoption name PlayoutDepth value 9")["PlayoutDepth"] == "6"


@pytest.mark.parametrize("declared", all_options(), ids=lambda d: d.option.name)
def test_every_default_reads_back_from_its_text(declared):
    option = declared.option
    if option.kind == "combo" and option.name == "UCI_Variant":
        assert declared.default in option.choices
    assert option.parse(option.text(declared.default)) == declared.default


def test_every_settings_field_but_the_tables_directory_and_the_games_own_is_an_option():
    fields = {d.field for d in declared_options(Settings)}
    assert set(Settings.__dataclass_fields__) - fields == {"endgame_tables", "game_parameters"}
    assert OptionValues().settings() == Settings(minimax_weight=0.37, playout_depth=6, uct_c=0.5,
                                                 endgame_tables=OptionValues().settings().endgame_tables,
                                                 game_parameters=ENGLISH_TERMS)


@pytest.mark.parametrize("x,text", [(1.0, "1.0"), (1e-5, "0.00001"), (0.0, "0"), (0.37, "0.37"), (2.5e-7, "0.00000025")])
def test_reals_are_written_without_an_exponent(x, text):
    assert real_text(x) == text


def test_a_declaration_is_checked():
    with pytest.raises(ValueError, match="kind"):
        EngineOption("X", "float", "no such kind")
    with pytest.raises(ValueError, match="choices"):
        EngineOption("X", "combo", "a combo of nothing")
    with pytest.raises(ValueError, match="low and high"):
        EngineOption("X", "spin", "an unbounded spin", low=0)
    with pytest.raises(OptionError, match="needs a value"):
        EngineOption("X", "check", "a switch").parse(None)
