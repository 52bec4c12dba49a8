"""The draughts variant table: every variant a row of the parameters of ``draughts.md`` §2-3.

``Variant`` declares each parameter once, with its default, its allowed values and
what it means (the rules file's ids in the docs); every parameter is also a rule
option, so ``schema(name)`` (the parameters with the variant's row as defaults)
reads the protocol's ``Rules`` string and keyword options.  ``VARIANTS`` holds the
rows, ``ALIASES`` other names of them.

The endgame counts the ``endgame`` parameter selects (draughts.md §2.4 and §3.2;
thresholds as coded in pydraughts) are here too: each gives the number of plies since
the last capture after which a material balance is drawn, or None.
``game.py`` compiles a row into a move generator.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from ..options import Schema, option_field, schema_of

#: The largest value of the counting options ``repetition``, ``no_progress`` and
#: ``king_move_limit``: the native kernel holds the first and the last in a C ``int``
#: (``Rules`` in native/src/draughts.h; kernel.py hands them over as numbers), so a larger
#: value would be cut short there while the Python rules kept it.  No game lasts that long:
#: the largest value is as good as off.
COUNT_MAX = 2**31 - 1


@dataclass(frozen=True)
class Variant:
    """One row of the variant table: the parameters of draughts.md §2 (ids in the docs)."""

    name: str
    size: int = option_field(8, "B1 rows = columns", choices=(8, 10, 12))
    squares: str = option_field("dark", "B2 pieces stand on the dark squares or on all", choices=("dark", "all"))
    invert: bool = option_field(False, "B3 inverted: the first player's near-left corner is NOT playable")
    men_rows: int = option_field(3, "B4 rows of men per side (at most half the board)", high=6)
    skip_back_row: bool = option_field(False, "B4 Turkish family: the own back row stays empty")
    first: str = option_field("W", "B5 colour letter of the first player", choices=("W", "B"))
    corner: str = option_field("top-left", "square 1 as seen by the first player (PDN GameType N0..N3)",
                               choices=("bottom-left", "bottom-right", "top-left", "top-right"))
    notation: str = option_field("numeric", "square names: PDN numbers or algebraic", choices=("numeric", "algebraic"))
    capture_sep: str = option_field("x", "the PDN capture separator", choices=("x", ":", "-"))
    lines: str = option_field("diagonal", "M1 lines (both = Frisian: diagonal steps, 8-way jumps)",
                              choices=("diagonal", "orthogonal", "both"))
    man_steps: str = option_field("fwd-diag", "M2 how men step", choices=("fwd-diag", "fwd+side"))
    man_jumps: str = option_field("fwd", "M3 how men jump", choices=("fwd", "all-diag", "fwd+side", "all-8"))
    man_takes_king: bool = option_field(True, "M4 a man may capture a king")
    king_range: str = option_field("flying", "M5 kings step one square or fly", choices=("short", "flying"))
    king_landing: str = option_field("any", "M6 a flying king lands anywhere beyond or just behind; killer: "
                                     "anywhere, but just behind the last piece taken when that is a king",
                                     choices=("any", "next", "killer"))
    king_reverse: bool = option_field(True, "M7 a king may jump back along the line it came")
    removal: str = option_field("end", "C2 captured pieces leave at the end (Turkish strike) or at once",
                                choices=("end", "immediate"))
    choice: str = option_field("free", "C3 which capture the player must choose",
                               choices=("free", "max", "max-kings", "italian", "frisian", "king-first"))
    promotion: str = option_field("stop", "C4 a man crowned during a capture stops, passes or flies on",
                                  choices=("stop", "pass", "fly"))
    repetition: int = option_field(3, "D occurrences of a position that draw (0 = off)", high=COUNT_MAX)
    no_progress: int = option_field(0, "D plies without progress that draw (0 = off)", high=COUNT_MAX)
    progress: str = option_field("man-or-capture", "D what resets no_progress", choices=("man-or-capture", "capture"))
    endgame: str = option_field("none", "D endgame counts", choices=("none", "fmjd", "russian", "frisian", "turkish"))
    king_move_limit: int = option_field(0, "Frisian: one king moves at most N times in a row while men are left "
                                         "(0 = off)", high=COUNT_MAX)
    goal: str = option_field("block", "G what wins: block = a player without a move loses; lose = a player "
                             "without a move wins (antidraughts); crown = the first king wins (breakthrough)",
                             choices=("block", "lose", "crown"))


_INTL = dict(choice="max", man_jumps="all-diag", promotion="pass")
_FRISIAN = dict(size=10, men_rows=4, lines="both", man_jumps="all-8", choice="frisian", promotion="pass",
                no_progress=50, endgame="frisian", king_move_limit=3)
_TURKISH = dict(squares="all", men_rows=2, skip_back_row=True, notation="algebraic", corner="bottom-left",
                lines="orthogonal", man_steps="fwd+side", man_jumps="fwd+side", removal="immediate",
                choice="max", no_progress=50, progress="capture", endgame="turkish")

VARIANTS: dict[str, Variant] = {v.name: v for v in [
    Variant("english", first="B", corner="bottom-right", king_range="short", king_landing="next",
            no_progress=80),
    Variant("italian", invert=True, man_takes_king=False, king_range="short", king_landing="next",
            choice="italian", no_progress=80),
    Variant("spanish", invert=True, corner="bottom-right", choice="max-kings", no_progress=40),
    Variant("russian", notation="algebraic", corner="bottom-left", capture_sep=":", man_jumps="all-diag",
            promotion="fly", no_progress=30, endgame="russian"),
    Variant("international", size=10, men_rows=4, no_progress=50, endgame="fmjd", **_INTL),
    Variant("brazilian", notation="algebraic", corner="bottom-left", no_progress=30, endgame="russian",
            **_INTL),
    Variant("canadian", size=12, men_rows=5, no_progress=50, endgame="fmjd", **_INTL),
    Variant("pool", first="B", corner="bottom-right", man_jumps="all-diag", promotion="pass",
            no_progress=30),
    Variant("czech", notation="algebraic", corner="bottom-left", choice="king-first", no_progress=30),
    Variant("turkish", king_reverse=False, promotion="fly", **_TURKISH),
    Variant("greek", king_landing="next", promotion="stop", **_TURKISH),
    Variant("argentine", invert=True, first="B", corner="bottom-right", king_landing="next",
            choice="max-kings", no_progress=40),
    Variant("thai", first="B", men_rows=2, king_landing="next", removal="immediate", capture_sep="-",
            no_progress=30),
    Variant("frisian", **_FRISIAN),
    # the lidraughts and Hub variants (docs/games.md): International or Frisian with one parameter changed
    Variant("frysk", **{**_FRISIAN, "men_rows": 1}),
    Variant("antidraughts", size=10, men_rows=4, goal="lose", **_INTL),
    Variant("breakthrough", size=10, men_rows=4, goal="crown", repetition=0, **_INTL),
    Variant("killer", size=10, men_rows=4, king_landing="killer", no_progress=50, endgame="fmjd", **_INTL),
]}

ALIASES = {"american": "english", "checkers": "english", "shashki": "russian", "dama": "turkish",
           "draughts": "international", "frysk!": "frysk", "mak-hot": "thai", "damas": "spanish",
           "killer-draughts": "killer"}


def schema(name: str) -> Schema:
    """The rule options of variant ``name``: every parameter, with the row's values as defaults."""
    return schema_of(Variant, name, VARIANTS[name])


def variant_with_options(name: str, **options) -> Variant:
    """The row ``name`` with rule options applied (strings or Python values); raises BadOption."""
    return replace(VARIANTS[name], **schema(name).parse(options))


# ----------------------------------------------------------------------------
# Endgame counts.  Each takes the material (men and kings of the side to move and
# of the other side) and whether the lone piece / the others stand on the long
# diagonal, and returns the plies since the last capture that draw, or None.
# ----------------------------------------------------------------------------

def _smallest(limits) -> int | None:
    limits = [x for x in limits if x is not None]
    return min(limits) if limits else None


def _fmjd_counts(own_men, own_kings, opp_men, opp_kings, lone_on_long, other_on_long):
    limits = []
    for a_men, a_kings, b_men, b_kings in ((own_men, own_kings, opp_men, opp_kings),
                                           (opp_men, opp_kings, own_men, own_kings)):
        if b_men == 0 and b_kings == 1 and a_kings >= 1:
            if a_men + a_kings == 3:
                limits.append(32)
            if a_men + a_kings <= 2:
                limits.append(10)
    return _smallest(limits)


def _russian_counts(own_men, own_kings, opp_men, opp_kings, lone_on_long, other_on_long):
    own_n, opp_n = own_men + own_kings, opp_men + opp_kings
    limits = []
    for a_men, a_kings, b_men, b_kings, long_a, long_b in (
            (own_men, own_kings, opp_men, opp_kings, other_on_long[0], lone_on_long[1]),
            (opp_men, opp_kings, own_men, own_kings, other_on_long[1], lone_on_long[0])):
        if b_men == 0 and b_kings == 1:
            if a_men == 0 and a_kings >= 3:
                limits.append(30)
            if a_men + a_kings == 2 and a_kings >= 1:
                limits.append(10)
            if a_men + a_kings == 3 and a_kings >= 1 and long_b and not long_a:
                limits.append(10)
    if own_kings == opp_kings >= 1 and own_n == opp_n:
        if own_n in (4, 5):
            limits.append(60)
        if own_n in (6, 7):
            limits.append(120)
    return _smallest(limits)


def _frisian_counts(own_men, own_kings, opp_men, opp_kings, lone_on_long, other_on_long):
    if own_men or opp_men:
        return None
    if {own_kings, opp_kings} == {1, 2}:
        return 14
    if own_kings == opp_kings == 1:
        return 4
    return None


def _turkish_counts(own_men, own_kings, opp_men, opp_kings, lone_on_long, other_on_long):
    """One piece each: drawn at once (unless the side to move can capture: see ``_endgame_drawn``)."""
    return 0 if own_men + own_kings == 1 and opp_men + opp_kings == 1 else None


ENDGAME_COUNTS: dict[str, Callable | None] = {
    "none": None, "fmjd": _fmjd_counts, "russian": _russian_counts,
    "frisian": _frisian_counts, "turkish": _turkish_counts,
}
ENDGAME_MAX_PIECES = {"fmjd": 4, "russian": 14, "frisian": 4, "turkish": 2}   # more pieces: no count applies
ENDGAME_FLOOR = {"fmjd": 10, "russian": 10, "frisian": 4, "turkish": 0}   # the smallest count each gives
