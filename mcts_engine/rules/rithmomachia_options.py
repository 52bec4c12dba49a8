"""Rithmomachia rule options and set-ups (``../shared/rules/rithmomachia.md`` §2, §8).

The option table (§8.1) is one dict ``DEFAULTS`` of name -> default, plus the
allowed values of each; the preset ``author_compat`` (§8.3) is the dict of the
"reference literal" column.  ``read_options`` turns protocol strings or Python
values into the effective option dict, raising BadOption naming the bad input.
"""
from __future__ import annotations

from typing import Any

from .base import BadOption

# --- pieces ---------------------------------------------------------------------------
SHAPES = "RTS"              # shape index 0 = Round, 1 = Triangle, 2 = Square
WHITE, BLACK = 0, 1

#: §2.2, White (the even army): cell -> (shape letter, value) or ("P", [components])
WHITE_SETUP: dict[str, Any] = {
    "a3": ("S", 25), "b3": ("S", 81), "g3": ("S", 169), "h3": ("S", 289),
    "a4": ("S", 15), "b4": ("S", 45), "c4": ("T", 25), "d4": ("T", 20), "e4": ("T", 42),
    "f4": ("T", 49), "g4": ("P", [("S", 36), ("S", 25), ("T", 16), ("T", 9), ("R", 4), ("R", 1)]),
    "h4": ("S", 153),
    "a5": ("T", 9), "b5": ("T", 6), "c5": ("R", 4), "d5": ("R", 16), "e5": ("R", 36), "f5": ("R", 64),
    "g5": ("T", 72), "h5": ("T", 81),
    "c6": ("R", 2), "d6": ("R", 4), "e6": ("R", 6), "f6": ("R", 8),
}
#: §2.2, Black (the odd army)
BLACK_SETUP: dict[str, Any] = {
    "a14": ("S", 361), "b14": ("S", 225), "g14": ("S", 121), "h14": ("S", 49),
    "a13": ("P", [("S", 64), ("S", 49), ("T", 36), ("T", 25), ("R", 16)]), "b13": ("S", 120),
    "c13": ("T", 64), "d13": ("T", 56), "e13": ("T", 30), "f13": ("T", 36), "g13": ("S", 66),
    "h13": ("S", 28),
    "a12": ("T", 100), "b12": ("T", 90), "c12": ("R", 81), "d12": ("R", 49), "e12": ("R", 25),
    "f12": ("R", 9), "g12": ("T", 12), "h12": ("T", 16),
    "c11": ("R", 9), "d11": ("R", 7), "e11": ("R", 5), "f11": ("R", 3),
}


def setup_cells(setup: str, ranks: int) -> tuple[dict, dict]:
    """The two armies as {cell: piece spec} for a set-up name on a board of ``ranks`` ranks.

    ``author``: §2.2 (on 14 ranks every piece one rank down, §8.2.7); ``back_ranks``:
    White two ranks down, Black pushed to its own edge (§2.3).
    """
    def moved(army: dict, shift: int) -> dict:
        return {f"{cell[0]}{int(cell[1:]) + shift}": spec for cell, spec in army.items()}

    short = 16 - ranks     # 0, or 2 on the 8x14 board
    if setup == "author":
        return moved(WHITE_SETUP, -short // 2), moved(BLACK_SETUP, -short // 2)
    return moved(WHITE_SETUP, -2), moved(BLACK_SETUP, 2 - short)


# --- options ----------------------------------------------------------------------------
BOOL = ("true", "false")
#: §8.1: option -> (default, allowed values or a type name)
TABLE: dict[str, tuple[Any, Any]] = {
    "first_player": ("white", ("white", "black")),
    "setup": ("author", ("author", "back_ranks")),
    "board_ranks": (16, (16, 14)),
    "movement": ("standard", ("standard", "linear")),
    "linear_up_to": (False, BOOL),
    "pyramid_diagonal3": (False, BOOL),
    "pyramid_total_only_intact": (False, BOOL),
    "pyramid_total_only_intact_defence": (True, BOOL),
    "pyramid_whole_on_component_hit": (False, BOOL),
    "siege": ("adjacent", ("adjacent", "natural")),
    "ambush": ("movement", ("movement", "custodial")),
    "custodial_diagonal": (False, BOOL),
    "pyramid_equality_any_component": (False, BOOL),
    "ambush_same_piece_pairs": (False, BOOL),
    "eruption_division": (True, BOOL),
    "eruption_short_range_blocking": (False, BOOL),
    "capture_counting": ("components", ("components", "author")),
    "value_thresholds": ("text", ("text", "author")),
    "win_piece_count": (15, "int"),
    "win_value_white": (1315, "int"),
    "win_value_black": (984, "int"),
    "glorious": ("off", ("off", "on", "after_pyramid")),
    "glorious_author_literal": (False, BOOL),
    "glorious_lines": ("any", ("any", "orthogonal", "orthogonal_diagonal")),
    "glorious_ordered": (False, BOOL),
    "glorious_unobstructed": (False, BOOL),
    "pyramid_capture_wins": (False, BOOL),
    "no_moves": ("draw", ("draw", "loss")),
    "max_plies": (None, "int"),
}
DEFAULTS = {name: default for name, (default, _) in TABLE.items()}
#: §8.3: the "reference literal" column of §8.1
PRESETS = {
    "none": {},
    "author_compat": {"pyramid_equality_any_component": True, "ambush_same_piece_pairs": True,
                      "eruption_division": False, "eruption_short_range_blocking": True,
                      "capture_counting": "author", "value_thresholds": "author",
                      "glorious_author_literal": True},
}
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


def _value(name: str, raw: Any) -> Any:
    """One option value checked against the table; BadOption names the option and the value."""
    default, allowed = TABLE[name]
    text = str(raw).strip().lower()
    if allowed is BOOL:
        if isinstance(raw, bool):
            return raw
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise BadOption(f"rithmomachia rule option {name}={raw!r}: allowed values are true, false")
    if allowed == "int":
        if name == "max_plies" and text in ("none", "", "0"):
            return None
        try:
            number = int(text)
        except ValueError:
            number = -1
        if number < 1:
            raise BadOption(f"rithmomachia rule option {name}={raw!r}: allowed values are positive integers"
                            + (" or none" if name == "max_plies" else ""))
        return number
    for choice in allowed:
        if text == str(choice):
            return choice
    raise BadOption(f"rithmomachia rule option {name}={raw!r}: allowed values are "
                    + ", ".join(str(a) for a in allowed))


def read_options(options: dict) -> dict[str, Any]:
    """The effective option dict (preset first, then explicit options over it)."""
    given = {str(k).strip().lower().replace("-", "_"): v for k, v in options.items()}
    preset = str(given.pop("preset", "none")).strip().lower()
    if preset not in PRESETS:
        raise BadOption(f"rithmomachia rule option preset={preset!r}: allowed values are "
                        + ", ".join(PRESETS))
    effective = dict(DEFAULTS)
    effective.update(PRESETS[preset])
    for name, raw in given.items():
        if name not in TABLE:
            raise BadOption(f"rithmomachia has no rule option {name!r}; options: preset, "
                            + ", ".join(TABLE))
        effective[name] = _value(name, raw)
    effective["preset"] = preset
    return effective
