"""What an endgame table holds: one material, and the numbering of its positions.

A material is the kings and men of the side to move and of the other side.  Where men
stand, it also names the colour to move (men move one way); kings move alike for both
colours, so a kings-only material is the same table whichever colour is to move.

``Numbering`` gives every position of a material an index: the rank of each piece class's
squares among all the combinations of that many squares (in ``itertools.combinations``
order), in mixed radix.  Placements that cannot occur (two pieces on a square, a man on
its own crowning row) keep their slot unused, so the index is plain arithmetic on four
look-ups, quick enough for the search to probe at every new node of an ending.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations, product
from math import comb
from typing import Iterator

from ..rules.base import Game

_NAME = re.compile(r"^(?:(\d+)K)?(?:(\d+)M)?-(?:(\d+)K)?(?:(\d+)M)?(?:/([01]))?$")


@dataclass(frozen=True)
class Material:
    """Kings and men of the side to move (``own_*``) and of the other side (``opp_*``);
    ``turn``: the player to move where men stand, 0 for kings only."""

    own_kings: int
    own_men: int
    opp_kings: int
    opp_men: int
    turn: int = 0

    @classmethod
    def of(cls, own: int, opp: int, kings: int, turn: int) -> "Material":
        """The material of a raw draughts position (``own``: the side to move's pieces)."""
        own_men, opp_men = (own & ~kings).bit_count(), (opp & ~kings).bit_count()
        return cls((own & kings).bit_count(), own_men, (opp & kings).bit_count(), opp_men,
                   turn if own_men or opp_men else 0)

    @classmethod
    def parse(cls, text: str) -> "Material":
        """Read a name as ``name`` writes it: ``3K-1K``, ``2K-1M/1`` (player 1 to move)."""
        found = _NAME.match(text.strip().upper())
        if not found or not any(found.groups()[:4]):
            raise ValueError(f"{text!r}: not a material (write it as 3K-1K, 2K1M-1K or 2K-1M/1)")
        ok, om, pk, pm = (int(g or 0) for g in found.groups()[:4])
        turn = int(found.group(5) or 0)
        if not om and not pm and turn:
            raise ValueError(f"{text!r}: a material of kings only names no player to move")
        return cls(ok, om, pk, pm, turn)

    @property
    def has_men(self) -> bool:
        """Whether men stand (then the colour to move matters)."""
        return bool(self.own_men or self.opp_men)

    @property
    def pieces(self) -> int:
        """All the pieces on the board."""
        return self.own_kings + self.own_men + self.opp_kings + self.opp_men

    @property
    def name(self) -> str:
        """``3K-1K``: the side to move's pieces first; ``/1`` when player 1 is to move with men."""
        def side(kings: int, men: int) -> str:
            return (f"{kings}K" if kings else "") + (f"{men}M" if men else "")
        turn = f"/{self.turn}" if self.has_men else ""
        return f"{side(self.own_kings, self.own_men)}-{side(self.opp_kings, self.opp_men)}{turn}"

    def after_quiet_move(self) -> "Material":
        """The material once the side to move has moved without a capture or a crowning: the
        same pieces, the other side to move."""
        return Material(self.opp_kings, self.opp_men, self.own_kings, self.own_men,
                        1 - self.turn if self.has_men else 0)


@lru_cache(maxsize=None)
def _ranks(points: int, k: int) -> dict[int, int]:
    """Each mask of ``k`` of the squares in ``points`` -> its rank among all of them."""
    squares = [1 << i for i in range(points.bit_length()) if points >> i & 1]
    return {sum(c): r for r, c in enumerate(combinations(squares, k))}


class Numbering:
    """The index of every position of one material in one game."""

    def __init__(self, game: Game, material: Material):
        self.game, self.material = game, material
        points = game.points
        n = points.bit_count()
        m = material
        self.classes = (m.own_kings, m.own_men, m.opp_kings, m.opp_men)
        self.rank = tuple(_ranks(points, k) for k in self.classes)
        counts = [comb(n, k) for k in self.classes]
        # mixed radix: index = ((r0 * c1 + r1) * c2 + r2) * c3 + r3
        self.weights = (counts[1] * counts[2] * counts[3], counts[2] * counts[3], counts[3], 1)
        self.size = counts[0] * self.weights[0]
        self.men_rows = (game.promo[m.turn], game.promo[1 - m.turn])   # where each side's men cannot stand

    def index(self, own: int, opp: int, kings: int) -> int:
        """The slot of a position of this material (``own``: the side to move's pieces)."""
        r0, r1, r2, r3 = self.rank
        w0, w1, w2, _ = self.weights
        return (r0[own & kings] * w0 + r1[own & ~kings] * w1 + r2[opp & kings] * w2
                + r3[opp & ~kings])

    def positions(self) -> Iterator[tuple[int, int, int, int]]:
        """Every legal placement as ``(index, own, opp, kings)``, in index order."""
        own_k, own_m, opp_k, opp_m = self.rank
        w0, w1, w2, _ = self.weights
        own_rows, opp_rows = self.men_rows
        for a, ra in own_k.items():
            for b, rb in own_m.items():
                if b & (a | own_rows):
                    continue
                ab = a | b
                for c, rc in opp_k.items():
                    if c & ab:
                        continue
                    abc = ab | c
                    base = ra * w0 + rb * w1 + rc * w2
                    for d, rd in opp_m.items():
                        if d & (abc | opp_rows):
                            continue
                        yield base + rd, ab, c | d, a | c


def materials_named(text: str) -> list[Material]:
    """The materials a name stands for: itself, or with men and no player named, both players
    to move (``2K-1M``: ``2K-1M/0`` and ``2K-1M/1``).  ValueError for a bad name."""
    material = Material.parse(text)
    if material.has_men and "/" not in text:
        return [material, replace(material, turn=1)]
    return [material]


def default_materials(pieces: int = 3) -> list[Material]:
    """What ``mcts-engine tables`` builds unless told: every ending of up to ``pieces`` pieces
    (each side at least one), either player to move, and three kings against one."""
    found = []
    for total in range(2, pieces + 1):
        for own in range(1, total):
            for own_kings, opp_kings in product(range(own + 1), range(total - own + 1)):
                material = Material(own_kings, own - own_kings, opp_kings, total - own - opp_kings)
                found.extend(m for m in (material, replace(material, turn=1))
                             if m not in found and (m.has_men or not m.turn))
    return found if Material(3, 0, 1, 0) in found else found + [Material(3, 0, 1, 0)]
