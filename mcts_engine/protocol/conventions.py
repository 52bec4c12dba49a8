"""How draughts clients number squares and name colours, translated at the protocol's edge.

The rules speak one Hub notation per game (``game.square_numbering()``,
``game.parse_hub_position``, ``state.hub_move_str`` / ``parse_hub_move``: PDN numbers,
or square names on algebraic boards).  A client may number the same board its own way;
``CONVENTIONS`` says how, per variant, as data, and ``SquareTranslation`` rewrites a
client's position strings and move texts into the rules' notation and our moves back.

What the clients do (pydraughts 0.6.7, and so the lidraughts bot bridge; Scan and the Hub
GUI play only 10x10 boards, numbered as PDN numbers them):

* pydraughts writes Hub position strings in its internal frame: the first player's pieces
  are ``w``/``W`` and the side letter ``W`` means the first player (for English, Black),
  square 1 is the first player's far left, counting along each row;
* it writes moves in its "variant numbering": PDN numbers on numbered boards, and on the
  algebraic boards (Russian, Brazilian, Turkish) numbers counted from ``a1`` along each
  rank (a1=1, c1=2, ... on 8x8 dark squares; a1=1, b1=2, ... on Turkish's 64);
* over DXP it writes the cells of a position in the same internal frame, but the colour
  letters (follower colour, colour to move) as the real colours.

Where a variant matches the rules' own notation its row is the identity and costs nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..rules import Game

_MOVE_PARTS = re.compile(r"([-x:])")
_SWAP = str.maketrans("wbWB", "bwBW")


@dataclass(frozen=True)
class Convention:
    """How one client writes one variant's squares.

    ``position``: the corner (as the first player sees the board) where square 1 of a
    position string lies; None = the rules' own order.  ``moves``: the corner where
    square 1 of a move lies, moves then being numbers; None = the rules' own square
    names.  ``first_is_w``: the letters ``w``/``W`` (pieces and side to move) stand for
    the first player rather than for White.
    """

    position: str | None = None
    moves: str | None = None
    first_is_w: bool = False


PYDRAUGHTS_ALGEBRAIC = Convention(position="top-left", moves="bottom-left", first_is_w=True)
# variant -> how the Hub clients that play it write it (pydraughts: the only client of these
# variants; its 10x10 variants and Italian agree with the rules' numbering)
CONVENTIONS: dict[str, Convention] = {
    "english": Convention(position="top-left", first_is_w=True),
    "russian": PYDRAUGHTS_ALGEBRAIC,
    "brazilian": PYDRAUGHTS_ALGEBRAIC,
    "turkish": PYDRAUGHTS_ALGEBRAIC,
}
IDENTITY = Convention()


class SquareTranslation:
    """Position strings and move texts between a client's convention and the rules' Hub notation.

    ``numbered_moves`` asks for numbers in moves even where the convention keeps the rules'
    square names (DXP's two-digit fields): the rules' own order then numbers them.
    """

    def __init__(self, game: Game, convention: Convention | None = None, numbered_moves: bool = False):
        self.game = game
        convention = convention or CONVENTIONS.get(game.name, IDENTITY)
        self.convention = convention
        own = game.square_numbering()
        self.order: list[int] | None = None       # client's position index -> the rules' index
        if convention.position is not None and own:
            index = {name: i for i, name in enumerate(own)}
            order = [index[name] for name in game.square_numbering(convention.position)]
            self.order = None if order == list(range(len(own))) else order
        self.swap = convention.first_is_w and game.colours[0] == "B"
        corner = convention.moves
        if corner is None and numbered_moves and own and not own[0].isdigit():
            corner = "own"
        self.to_ours: dict[str, str] = {}
        self.to_client: dict[str, str] = {}
        if corner is not None and own:
            names = own if corner == "own" else game.square_numbering(corner)
            self.to_ours = {str(n): name for n, name in enumerate(names, 1) if str(n) != name}
            self.to_client = {name: number for number, name in self.to_ours.items()}

    @property
    def identity(self) -> bool:
        """Whether the client writes exactly the rules' notation."""
        return self.order is None and not self.swap and not self.to_ours

    # --- positions: a side letter, then one of w b W B e per square ------------------------------
    def position_in(self, text: str) -> str:
        """A client's position string in the rules' order and colours (length checks are the rules')."""
        side, cells = text[:1], text[1:]
        if self.order is not None and len(cells) == len(self.order):
            ours = ["e"] * len(cells)
            for i, j in enumerate(self.order):
                ours[j] = cells[i]
            cells = "".join(ours)
        if self.swap:
            side, cells = side.translate(_SWAP), cells.translate(_SWAP)
        return side + cells

    def position_out(self, text: str) -> str:
        """The rules' position string as the client writes it (the inverse of ``position_in``)."""
        side, cells = text[:1], text[1:]
        if self.swap:
            side, cells = side.translate(_SWAP), cells.translate(_SWAP)
        if self.order is not None and len(cells) == len(self.order):
            cells = "".join(cells[j] for j in self.order)
        return side + cells

    def colour_in(self, letter: str) -> str:
        """A client's colour letter (W or B) as the rules' colour letter."""
        return letter.translate(_SWAP) if self.swap else letter

    def colour_out(self, letter: str) -> str:
        """The rules' colour letter as the client writes it."""
        return self.colour_in(letter)

    # --- moves: squares joined by - x or : ------------------------------------------------------------
    def move_in(self, text: str) -> str:
        """A client's move text with its square numbers as the rules' names (other tokens kept)."""
        if not self.to_ours:
            return text
        return "".join(self.to_ours.get(part, part) for part in _MOVE_PARTS.split(text.strip().lower()))

    def move_out(self, text: str) -> str:
        """A move in the rules' Hub notation with the squares as the client numbers them."""
        if not self.to_client:
            return text
        return "".join(self.to_client.get(part, part) for part in _MOVE_PARTS.split(text))
