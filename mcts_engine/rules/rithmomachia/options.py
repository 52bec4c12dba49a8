"""Rithmomachia rule options and set-ups (§2 and §8 of its rules text; docs/games.md#rithmomachia).

The option table (§8.1) is the schema ``SCHEMA``: one row per option with its
default and allowed values; the preset ``author_compat`` (§8.3) is the "reference
literal" column, applied before the options given explicitly.  ``SCHEMA.parse``
turns protocol strings or Python values into the effective option dict.
"""
from __future__ import annotations

from typing import Any

from ..options import Option, Schema

# --- pieces ---------------------------------------------------------------------------
SHAPES = "RTS"              # shape index 0 = Round, 1 = Triangle, 2 = Square
PYRAMID = 3                 # the bitboard index of pyramids (after the three shapes)
WHITE, BLACK = 0, 1
#: what a position may hold (a FEN past them is refused): piece values below 2**24 (products
#: and sums of a few stay in 64 bits), 8 pyramids of 16 components, counters and plies to
#: 2**60; the native rules are built for these (native/src/rithmomachia.h) and check them
MAX_VALUE = (1 << 24) - 1
MAX_PYRAMIDS = 8
MAX_COMPONENTS = 16
MAX_COUNT = 1 << 60

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
def _flag(name: str, default: bool, doc: str) -> Option:
    return Option(name, "bool", default, doc)


def _choice(name: str, choices: tuple, doc: str) -> Option:
    return Option(name, "choice", choices[0], doc, choices=choices)


def _count(name: str, default: int | None, doc: str, **more) -> Option:
    return Option(name, "int", default, doc, low=1, high=MAX_COUNT, **more)


#: §8.1, one row per option (the first choice is the default); §8.3: the presets
SCHEMA = Schema("rithmomachia", (
    _choice("first_player", ("white", "black"), "§3 the colour that moves first"),
    _choice("setup", ("author", "back_ranks"), "§2.3 the author's set-up, or the armies on their back ranks"),
    _choice("board_ranks", (16, 14), "§8.2.7 ranks of the board (8 files)"),
    _choice("movement", ("standard", "linear"), "§4 moves by shape, or §8.2.1 straight lines of 1/2/3 cells"),
    _flag("linear_up_to", False, "§8.2.1 linear movement may stop after fewer cells"),
    _flag("pyramid_diagonal3", False, "§8.2.2 an intact pyramid may also move 3 cells diagonally"),
    _flag("pyramid_total_only_intact", False, "§8.2.3 a pyramid attacks with its total only while intact"),
    _flag("pyramid_total_only_intact_defence", True, "§8.2.3 a damaged pyramid is still hit through its total"),
    _flag("pyramid_whole_on_component_hit", False, "§8.2.4 a hit on one component takes the whole pyramid"),
    _choice("siege", ("adjacent", "natural"), "§5.3 siege by neighbours, or §8.2.5 every regular move blocked"),
    _choice("ambush", ("movement", "custodial"), "§5.5 ambush by two attackers, or §8.2.6 custodially"),
    _flag("custodial_diagonal", False, "§8.2.6 custodial ambush also across the diagonals"),
    _flag("pyramid_equality_any_component", False, "§5.2 equality may use any component of a pyramid"),
    _flag("ambush_same_piece_pairs", False, "§5.5 two values of one pyramid may ambush together"),
    _flag("eruption_division", True, "§5.6 eruption also by division"),
    _flag("eruption_short_range_blocking", False, "§5.6 a piece between blocks eruption at distance 3-4"),
    _choice("capture_counting", ("components", "author"), "§5.8 what the capture counters count"),
    _choice("value_thresholds", ("text", "author"), "§7.1 how the value thresholds are read"),
    _count("win_piece_count", 15, "§7.1 pieces captured that win"),
    _count("win_value_white", 1315, "§7.1 the value threshold named for White"),
    _count("win_value_black", 984, "§7.1 the value threshold named for Black"),
    _choice("glorious", ("off", "on", "after_pyramid"), "§7.2 glorious victories"),
    _flag("glorious_author_literal", False, "§7.2.1 glorious victories with the reference's slips"),
    _choice("glorious_lines", ("any", "orthogonal", "orthogonal_diagonal"),
            "§7.2.1 the lines a progression may stand on"),
    _flag("glorious_ordered", False, "§7.2.1 the middle cell holds the middle value"),
    _flag("glorious_unobstructed", False, "§7.2.1 no piece between the cells of a line"),
    _flag("pyramid_capture_wins", False, "§7.3 taking the opposing pyramid wins"),
    _choice("no_moves", ("draw", "loss"), "§7.3 a side without a move draws or loses"),
    _count("max_plies", None, "§7.3 plies that draw (none = no cap)", aliases={"none": None, "": None, "0": None}),
    _choice("preset", ("none", "author_compat"), "§8.3 values applied before the options given"),
), presets={
    "none": {},
    "author_compat": {"pyramid_equality_any_component": True, "ambush_same_piece_pairs": True,
                      "eruption_division": False, "eruption_short_range_blocking": True,
                      "capture_counting": "author", "value_thresholds": "author",
                      "glorious_author_literal": True},
})
