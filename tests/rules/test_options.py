"""The one rule-option parser (mcts_engine/rules/options.py): every kind, the true/false
words, aliases, presets, the error shapes, and every game's schema against its options."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from mcts_engine.rules import BadOption, get_game, list_games, parse_rule_options
from mcts_engine.rules.draughts.variants import COUNT_MAX, VARIANTS, schema
from mcts_engine.rules.options import Option, Schema, option_field, schema_of

SCHEMA = Schema("toy", (
    Option("flag", "bool", False, "a switch"),
    Option("count", "int", 3, "a whole number >= 0", low=0),
    Option("size", "int", 19, "a bounded whole number", low=7, high=26),
    Option("ratio", "real", 0.5, "a number in [0, 1]", low=0.0, high=1.0),
    Option("capture", "choice", "compulsory", "a choice", choices=("compulsory", "optional")),
    Option("rows", "choice", 8, "a choice of numbers", choices=(8, 10, 12)),
    Option("first", "choice", "W", "a choice written in capitals", choices=("W", "B")),
    Option("cap", "int", None, "a limit or none", low=1, aliases={"none": None, "0": None}),
    Option("opening", "text", "standard", "free text"),
))


@pytest.mark.parametrize("given,key,value", [
    # bool: the words, any case, Python bools and 0/1
    ({"flag": "true"}, "flag", True), ({"flag": "YES"}, "flag", True), ({"flag": "On"}, "flag", True),
    ({"flag": "1"}, "flag", True), ({"flag": "false"}, "flag", False), ({"flag": "no"}, "flag", False),
    ({"flag": "OFF"}, "flag", False), ({"flag": "0"}, "flag", False), ({"flag": True}, "flag", True),
    ({"flag": 0}, "flag", False), ({"flag": " yes "}, "flag", True),
    # int and real, strings or numbers, within their range
    ({"count": "0"}, "count", 0), ({"count": 12}, "count", 12), ({"count": " 7 "}, "count", 7),
    ({"size": "7"}, "size", 7), ({"size": 26}, "size", 26),
    ({"ratio": "0.25"}, "ratio", 0.25), ({"ratio": 1}, "ratio", 1.0),
    # choice: any case, the declared spelling and type come back
    ({"capture": "Optional"}, "capture", "optional"), ({"rows": "10"}, "rows", 10), ({"rows": 12}, "rows", 12),
    ({"first": "b"}, "first", "B"),
    # aliases
    ({"cap": "none"}, "cap", None), ({"cap": "0"}, "cap", None), ({"cap": None}, "cap", None), ({"cap": "5"}, "cap", 5),
    # text is kept as given
    ({"opening": "Bd4;e5:Wd5 f5"}, "opening", "Bd4;e5:Wd5 f5"),
    # key spelling: case and - for _
    ({"Flag": "on"}, "flag", True), ({"CAPTURE": "optional"}, "capture", "optional"),
])
def test_values_of_every_kind(given, key, value):
    values = SCHEMA.parse(given)
    assert values[key] == value and type(values[key]) is type(value)
    assert list(values) == SCHEMA.names()     # every option, in schema order


def test_defaults():
    assert SCHEMA.parse({}) == {"flag": False, "count": 3, "size": 19, "ratio": 0.5, "capture": "compulsory",
                                "rows": 8, "first": "W", "cap": None, "opening": "standard"}


@pytest.mark.parametrize("key,raw,allowed", [
    ("flag", "maybe", "is not true or false (also yes/no, on/off, 1/0)"),
    ("flag", 2, "is not true or false (also yes/no, on/off, 1/0)"),
    ("count", "-1", "is not a whole number >= 0"),
    ("count", "ten", "is not a whole number >= 0"),
    ("count", True, "is not a whole number >= 0"),
    ("count", "2.5", "is not a whole number >= 0"),
    ("size", "27", "is not a whole number from 7 to 26"),
    ("ratio", "1.5", "is not a number from 0 to 1"),
    ("capture", "maybe", "is not one of: compulsory, optional"),
    ("rows", "9", "is not one of: 8, 10, 12"),
    ("cap", "-3", "is not a whole number >= 1 (or none, 0)"),
])
def test_bad_value_message_names_key_value_and_allowed_values(key, raw, allowed):
    with pytest.raises(BadOption) as err:
        SCHEMA.parse({key: raw})
    assert str(err.value) == f"toy rule option {key}={raw!r} {allowed}"


def test_unknown_option_lists_the_options():
    with pytest.raises(BadOption) as err:
        SCHEMA.parse({"foo": "1"})
    assert str(err.value) == ("toy has no rule option 'foo'; options: flag, count, size, ratio, capture, rows, first, "
                              "cap, opening")


def test_presets_apply_before_the_options_given():
    schema = Schema("toy", (Option("a", "bool", False), Option("b", "int", 1),
                            Option("preset", "choice", "none", choices=("none", "strong"))),
                    presets={"none": {}, "strong": {"a": True, "b": 9}})
    assert schema.parse({}) == {"a": False, "b": 1, "preset": "none"}
    assert schema.parse({"preset": "strong"}) == {"a": True, "b": 9, "preset": "strong"}
    assert schema.parse({"b": "2", "preset": "STRONG"}) == {"a": True, "b": 2, "preset": "strong"}
    with pytest.raises(BadOption, match="preset='weak' is not one of: none, strong"):
        schema.parse({"preset": "weak"})


def test_a_kind_needs_its_declaration():
    with pytest.raises(ValueError):
        Option("x", "colour", "red")
    with pytest.raises(ValueError):
        Option("x", "choice", "a")            # a choice without choices


def test_schema_of_a_dataclass_of_rule_parameters():
    @dataclass(frozen=True)
    class Row:
        name: str
        board: str = "square"                                      # not an option
        men: int = option_field(3, "men per side")
        flying: bool = option_field(False, "kings fly")
        removal: str = option_field("end", "when captured pieces leave", choices=("end", "immediate"))

    schema = schema_of(Row, "row-game", Row("row-game", men=4))
    assert schema.names() == ["men", "flying", "removal"]
    assert [o.kind for o in schema.options] == ["int", "bool", "choice"]
    assert schema.parse({}) == {"men": 4, "flying": False, "removal": "end"}   # the row's values are the defaults
    assert schema.parse({"men": "5", "flying": "yes"})["men"] == 5
    with pytest.raises(BadOption, match="row-game rule option men=-1 is not a whole number >= 0"):
        schema.parse({"men": -1})
    assert schema.only(["flying"]).names() == ["flying"]


def test_parse_rule_options():
    assert parse_rule_options("capture=optional, No-Progress=40,,") == {"capture": "optional", "no_progress": "40"}
    assert parse_rule_options("") == {}
    with pytest.raises(BadOption, match="'capture' is not key=value"):
        parse_rule_options("capture")


# --- every registered game ------------------------------------------------------------------------

@pytest.mark.parametrize("name", list_games())
def test_every_game_reports_its_options_by_its_schema(name):
    game = get_game(name)
    assert list(game.options) == game.schema.names()
    assert game.schema.parse({}) == game.options                  # the defaults are the options in effect
    assert get_game(name, **game.options).options == game.options  # a game rebuilds from its options
    text = ",".join(f"{k}={v}" for k, v in game.options.items())  # what `query rules` shows reads back
    assert get_game(name, **parse_rule_options(text)).options == game.options
    with pytest.raises(BadOption, match=f"{name} has no rule option 'no_such_option'; options: "):
        get_game(name, no_such_option="1")


@pytest.mark.parametrize("name,key,raw", [
    ("english", "capture_sep", "maybe"), ("international", "size", "9"), ("english", "king_reverse", "maybe"),
    ("zamma", "removal", "later"), ("harbagh", "no_progress", "-3"), ("fox-and-geese", "geese", "12"),
    ("dablot", "win", "x"), ("gauntlet", "size", "8x9"), ("gauntlet", "compulsory", "2"),
    ("fanorona", "chain", "sometimes"), ("life", "size", "27"), ("rithmomachia", "glorious", "yes"),
    ("rithmomachia", "max_plies", "-3"),
])
def test_every_game_reports_a_bad_value_in_one_shape(name, key, raw):
    with pytest.raises(BadOption) as err:
        get_game(name, **{key: raw})
    assert str(err.value).startswith(f"{name} rule option {key}={raw!r} is not ")


@pytest.mark.parametrize("name,given,expected", [
    ("english", {"first": "w"}, {"first": "W"}),
    ("fox-and-geese", {"geese": "17", "fox_start": "D5"}, {"geese": "british", "fox_start": "d5"}),
    ("gauntlet", {"size": "10×10", "max_capture": "on"}, {"size": "10x10", "max_capture": True}),
    ("fanorona", {"first_turn_single_capture": "yes"}, {"first_turn_single_capture": True}),
    ("rithmomachia", {"board_ranks": "14", "max_plies": "none"}, {"board_ranks": 14, "max_plies": None}),
    ("life", {"opening": "empty", "size": 9}, {"opening": "empty", "size": 9}),
])
def test_game_options_read_the_uniform_words(name, given, expected):
    options = get_game(name, **given).options
    assert {k: options[k] for k in expected} == expected


@pytest.mark.parametrize("name,options,needle", [
    ("alquerque", {"repetition": "1"}, "alquerque rule option repetition=1 is not 0 (off) or 2 or more"),
    ("fox-and-geese", {"fox_start": "d3"}, "fox-and-geese rule option fox_start='d3' is a goose's point"),
    ("life", {"size": 9}, "life rule option opening='standard' needs size >= 15 (size is 9)"),
])
def test_cross_option_rules_use_the_same_shape(name, options, needle):
    with pytest.raises(BadOption) as err:
        get_game(name, **options)
    assert str(err.value).startswith(needle)


# --- the counts the native draughts kernel holds in a C int (issue 37) ------------------------

C_INT_MAX = 2**31 - 1


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_integer_option_of_a_draughts_variant_fits_the_kernel(name):
    """kernel.py hands the variant's numbers to C (``Rules`` in native/src/draughts.h: int, and
    int64_t for no_progress): every integer option is bounded where it is read, one past the
    bound is refused naming the option, the value and the range, and the bound itself is kept."""
    ints = [o for o in schema(name).options if o.kind == "int"]
    assert {o.name for o in ints} == {"men_rows", "repetition", "no_progress", "king_move_limit"}
    for option in ints:
        assert option.low == 0 and option.high is not None and option.high <= C_INT_MAX, option.name
        with pytest.raises(BadOption) as err:
            get_game(name, **{option.name: str(option.high + 1)})
        assert str(err.value) == (f"{name} rule option {option.name}='{option.high + 1}' is not a whole number "
                                  f"from 0 to {option.high}")
    game = get_game(name, repetition=COUNT_MAX, no_progress=COUNT_MAX, king_move_limit=COUNT_MAX)
    assert (game.repetition, game.no_progress, game.king_move_limit) == (COUNT_MAX,) * 3
    with pytest.raises(BadOption, match="repetition='4294967297' is not a whole number from 0 to 2147483647"):
        get_game(name, **parse_rule_options("repetition=4294967297"))
