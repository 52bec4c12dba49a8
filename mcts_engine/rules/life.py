"""Life: the two-colour drop game on Conway's Game of Life (GlukKazan 2014).

Rules: the Life rules text (rebuilt from the author's Axiom code; docs/games.md#life), with
the defaults of its Ambiguities section.  In short: a 19x19 board without wrap-around,
B (Black, the first player) and W (White) stones, a 22-stone opening; a move drops
one stone of the mover's colour on an empty cell touching at least one stone (8
neighbours, board as it stands before the move); then one synchronous Life tick of
the whole board (births on exactly 3 neighbours in their majority colour; stones
with 2-3 neighbours survive and take the strict majority colour of their
neighbours, keeping their own on a 1-1 tie; the others die).  Before every turn the
player to move, P: has stones -> the game goes on; else the opponent has stones ->
P loses; else (empty board) P wins.  No pass, no draw, no move cap; a player with
stones but no legal drop (full board, A1) is a draw.

Board: ``Grid(size, size)`` with one ghost column, bit ``row * (size + 1) + col``,
row 0 = rank 1, col 0 = file a.  Files run ``a``... with ``i`` included (A7).
The tick is bit-parallel: a bit-sliced count of all neighbours and of the black
neighbours (a few dozen big-int operations per generation), shifted with the
ghost column so nothing wraps (see ``LifeGame.tick``).

Native rules: where the kernel is built, ``LifeGame.kernel`` is the compiled ``LifeRules``
(``native/src/life.c``, the same layout in 64-bit words): the search runs the game in C, and
``random_move``, ``playout`` and ``perft`` call it, drawing as the loops here do; this module
stays the reference (``get_game("life", native=False)``, ``MCTS_ENGINE_NATIVE=0``).

Notation.  A move is ``@`` + cell, e.g. ``@k10`` (``k10`` alone is read too).
Internally a move is the int bit index of the drop cell.

FEN grammar (side to move first, then up to one list per colour, in any order)::

    fen    := side ( ":" colour cells )*
    side   := "B" | "W"                 the player to move (B moves first)
    colour := "B" | "W"
    cells  := [ cell ( "," cell )* ]    algebraic names, e.g. d3,c5 (may be empty)

e.g. the opening: ``B:Bd3,o4,p4,q4,c5,e5,i10,k10,o15,q15,p17:Wc4,e4,d6,j9,j11,p14,d15,d16,o16,q16,d17``.
A cell may appear once; an omitted colour has no stones.

Rule options: ``size`` (7..26, default 19) and ``opening``: ``standard`` (the
author's 22 stones; on other sizes than 19 each group keeps its distance to its
own corner, the centre cluster stays central; needs size >= 15), ``empty``, or a
custom position ``B<cells>:W<cells>`` (the FEN without the side field; cells may
be separated by ``,`` ``;`` ``+`` or spaces, so it fits in the protocol's
comma-separated ``Rules`` string).  B always moves first.
"""
from __future__ import annotations

import re
from typing import Callable

from .. import native as compiled
from .base import NO_LIMIT, BadPosition, Game, IllegalMove, TurnState
from .fen import fen_fields, fen_side, read_piece_lists
from .geometry import Grid, indices
from .view import BoardView, MovePath, ViewPiece, mask_names, square_view
from .options import Option, Schema, option_error

Move = int  # bit index of the drop cell

STANDARD_B = "d3 c5 e5 i10 k10 o4 p4 q4 o15 p17 q15".split()
STANDARD_W = "c4 e4 d6 d15 d16 d17 j9 j11 p14 o16 q16".split()
EVAL_SCALE = 8  # the stone lead that evaluate() scores 0.75 (see LifeState.evaluate)
OPENINGS = ("standard", "empty", "B<cells>:W<cells>")
SCHEMA = Schema("life", (
    Option("size", "int", 19, "cells per side of the square board", low=7, high=26),
    Option("opening", "text", "standard", "the start position: " + ", ".join(OPENINGS)),
))


class LifeGame(Game):
    """Life on a ``size`` x ``size`` board from an opening position."""

    name = "life"
    colours = ("B", "W")

    def __init__(self, options: dict, native: bool = True):
        self.use_options(SCHEMA, options)
        self.size = size = options["size"]
        self.grid = g = Grid(size, size)
        self.cells = g.cells
        self.stride = g.stride
        self.name_of = {i: g.algebraic(i) for i in indices(g.cells)}
        # halving masks for the k-th set bit search
        self._low = [(1 << k) - 1 for k in range(g.stride * size + 2)]
        self.start = self._opening(options["opening"])
        self._attach_kernel(native)

    # --- the native rules ----------------------------------------------------------
    def _attach_kernel(self, on: bool) -> None:
        """Run this game on its native rules (``native/src/life.c``) where they are built and
        ``on``: ``kernel`` is the ``LifeRules`` object (None on the Python rules, the reference),
        handed the board and the evaluation's scale as numbers."""
        self.kernel = compiled.core.LifeRules(self.size, self.stride, EVAL_SCALE) if on and compiled.available() else None
        self.native = self.kernel is not None

    def __getstate__(self) -> dict:
        """Pickled without the kernel (a game outside the registry; registered games pickle as
        their name and options)."""
        return {k: v for k, v in self.__dict__.items() if k != "kernel"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._attach_kernel(state["native"])

    # --- set-up ------------------------------------------------------------------
    def _opening(self, opening: str) -> tuple[int, int]:
        """(black, white) of the ``opening`` option; BadOption when it is none of ``OPENINGS``."""
        text = opening.strip()
        if text.lower() == "empty":
            return 0, 0
        if text.lower() == "standard":
            if self.size < 15:
                raise option_error("life", "opening", opening, f"needs size >= 15 (size is {self.size})")
            n = self.size

            def place(name: str) -> int:
                col, row = ord(name[0]) - ord("a"), int(name[1:]) - 1
                if abs(col - 9) <= 1 and abs(row - 9) <= 1:   # the centre cluster
                    col, row = col - 9 + n // 2, row - 9 + n // 2
                else:                                         # anchored to the nearer corner
                    col, row = (col if col < 9 else col + n - 19), (row if row < 9 else row + n - 19)
                return self.grid.mask(row, col)

            return sum(place(c) for c in STANDARD_B), sum(place(c) for c in STANDARD_W)
        body = re.sub(r"[;+\s]+", ",", text)
        try:
            return self._stones(body.split(":") if body else [], text)
        except BadPosition as err:
            raise option_error("life", "opening", opening,
                               f"is not one of: {', '.join(OPENINGS)} ({err})") from None

    def _stones(self, fields: list[str], original: str) -> tuple[int, int]:
        """(black, white) from the FEN's colour fields ``B<cells>`` and ``W<cells>``."""
        lists, _ = read_piece_lists(fields, original, tags="BW", square=self.parse_square, noun="cell",
                                    board=f"the {self.size}x{self.size} board")
        return lists.get("B", {}).get("", 0), lists.get("W", {}).get("", 0)

    # --- contract ------------------------------------------------------------------
    def new_state(self) -> "LifeState":
        """The opening position, B to move."""
        return LifeState(self, self.start[0], self.start[1], 0)

    def parse_fen(self, text: str) -> "LifeState":
        """A position from ``side:B<cells>:W<cells>`` (see the module docstring)."""
        fields = fen_fields(text)
        side = fen_side(fields, text, ("B", "W"))
        black, white = self._stones(fields[1:], text)
        return LifeState(self, black, white, 0 if side == "B" else 1)

    def square_name(self, mask: int) -> str:
        """Algebraic name of a single-bit mask."""
        return self.name_of[mask.bit_length() - 1]

    def parse_square(self, text: str) -> int | None:
        """Single-bit mask of an algebraic cell name, or None."""
        index = self.grid.parse_algebraic(text)
        return None if index is None else 1 << index

    # --- the bit-parallel core ---------------------------------------------------------
    def neighbourhood(self, occ: int) -> int:
        """Cells of the board touching ``occ`` or in it (8-neighbour dilation)."""
        s = self.stride
        h = occ | occ << 1 | occ >> 1
        return (h | h << s | h >> s) & self.cells

    def drops(self, black: int, white: int) -> int:
        """The mask of legal drop cells: empty and touching a stone."""
        occ = black | white
        s = self.stride
        h = occ | occ << 1 | occ >> 1
        return (h | h << s | h >> s) & self.cells & ~occ

    def tick(self, black: int, white: int) -> tuple[int, int]:
        """One synchronous Life generation of the whole board: the new (black, white).

        Bit-sliced counts: per row triple ``H = x<<1 + x + x>>1`` (2 bits), the 8
        neighbours are ``H`` of the row below + ``H`` of the row above + the two
        horizontal neighbours (2 bits).  Ghost bits that east/west steps create stay
        in the ghost column under the vertical shifts and are dropped by ``cells``.
        For all stones we need n in {2, 3} and n's low bit; for black stones the
        count mod 4 (exact wherever n <= 3).
        """
        occ = black | white
        # all stones
        m0, m1, u0, u1, d0, d1 = self._planes(occ)
        s0 = u0 ^ d0 ^ m0
        c0 = (u0 & d0) | (m0 & (u0 ^ d0))
        x, y = u1 ^ d1, u1 & d1
        z, w = m1 ^ c0, m1 & c0
        n23 = (x ^ z) & ~(y | w) & self.cells     # n == 2 or 3
        n3 = n23 & s0
        n2 = n23 ^ n3
        # black stones: count mod 4
        m0, m1, u0, u1, d0, d1 = self._planes(black)
        b0 = u0 ^ d0 ^ m0
        c0 = (u0 & d0) | (m0 & (u0 ^ d0))
        b1 = u1 ^ d1 ^ m1 ^ c0
        survive2 = n2 & occ
        new_occ = n3 | survive2
        new_black = (n3 & b1) | (survive2 & ((b1 & ~b0) | (b0 & ~b1 & black)))
        return new_black, new_occ ^ new_black

    def _planes(self, x: int) -> tuple[int, int, int, int, int, int]:
        """The 2-bit planes of a cell's horizontal pair (``m``) and of the row triples
        above (``u``) and below (``d``): the three summands of the 8-neighbour count of ``x``."""
        s = self.stride
        l, r = x << 1, x >> 1
        m0, m1 = l ^ r, l & r
        h0, h1 = m0 ^ x, m1 | (m0 & x)
        return m0, m1, h0 << s, h1 << s, h0 >> s, h1 >> s

    def kth_bit(self, x: int, k: int) -> int:
        """Bit index of the ``k``-th (from 0, lowest first) set bit of ``x``."""
        if k < 6:
            for _ in range(k):
                x &= x - 1
            return (x & -x).bit_length() - 1
        low = self._low
        base, size = 0, x.bit_length()
        while size > 1:
            half = size >> 1
            part = x & low[half]
            c = part.bit_count()
            if k < c:
                x, size = part, half
            else:
                k -= c
                x >>= half
                base += half
                size -= half
        return base

    def perft(self, state: "LifeState", depth: int) -> int:
        """Leaf count of the legal-move tree, on raw masks (in C on the native rules)."""
        if self.kernel is not None:
            return self.kernel.perft(state.raw(), depth)
        return self._perft(state.black, state.white, state.turn, depth)

    def _perft(self, black: int, white: int, turn: int, depth: int) -> int:
        if depth <= 0:
            return 1
        if not (black if turn == 0 else white):
            return 0
        legal = self.drops(black, white)
        if depth == 1:
            return legal.bit_count()
        total = 0
        tick = self.tick
        while legal:
            bit = legal & -legal
            legal ^= bit
            b, w = (black | bit, white) if turn == 0 else (black, white | bit)
            b, w = tick(b, w)
            total += self._perft(b, w, turn ^ 1, depth - 1)
        return total


class LifeState(TurnState):
    """A Life position: black and white stone masks and the side to move."""

    __slots__ = ("game", "black", "white", "turn", "ply")

    def __init__(self, game: LifeGame, black: int, white: int, turn: int):
        self.game = game
        self.black, self.white, self.turn = black, white, turn
        self.ply = 0  # plies played since this state was set up

    def copy(self) -> "LifeState":
        s = object.__new__(LifeState)
        s.game, s.black, s.white, s.turn, s.ply = self.game, self.black, self.white, self.turn, self.ply
        return s

    def key(self) -> tuple:
        """(side to move, black stones, white stones)."""
        return (self.turn, self.black, self.white)

    def raw(self) -> tuple:
        """The position as it crosses into the native rules: (black, white, turn, ply)."""
        return (self.black, self.white, self.turn, self.ply)

    def set_raw(self, raw: tuple) -> None:
        """Take the position ``raw`` describes (as the native rules hand it back)."""
        self.black, self.white, self.turn, self.ply = raw

    # --- moves ------------------------------------------------------------------
    def _drops(self) -> int:
        """Legal drop cells, 0 when the game is over."""
        if not (self.black if self.turn == 0 else self.white):
            return 0
        return self.game.drops(self.black, self.white)

    def legal_moves(self) -> list[Move]:
        """Drop cells (bit indices, lowest first); empty when the game is over."""
        return indices(self._drops())

    def random_move(self, rng) -> Move | None:
        """A uniformly random legal drop by bit counting, or None when the game is over."""
        if self.game.kernel is not None:
            return self.game.kernel.random_move(self.raw(), rng)
        legal = self._drops()
        if not legal:
            return None
        return self.game.kth_bit(legal, int(rng.random() * legal.bit_count()))

    def playout(self, rng, max_plies: int = NO_LIMIT) -> float | None:
        """Uniformly random drops in place to the end; the outcome, or None if cut off.

        The same rules and random draws as ``random_move`` then ``play``.
        """
        return self._random_playout(rng, max_plies, None)

    def _random_playout(self, rng, max_plies: int, record: list | None) -> float | None:
        """The one loop behind ``playout`` and ``recorded_playout``; ``record``: a list that
        gets each drop's cell (the players alternate, from the side to move).  On the native
        rules the loop runs in C, drawing from ``rng`` as this loop does (a ``native.core.Random``
        draws in C)."""
        g = self.game
        if g.kernel is not None:
            result, raw = g.kernel.playout(self.raw(), rng, max_plies, record)
            self.set_raw(raw)
            return result
        tick, kth, rnd = g.tick, g.kth_bit, rng.random
        if record is not None:      # the loop stays as it is: only the cell choice also records
            kth = _recording(kth, record)
        cells, s = g.cells, g.stride
        black, white, turn, ply = self.black, self.white, self.turn, self.ply
        result = None
        for _ in range(max_plies):
            own = black if turn == 0 else white
            if not own:
                other = white if turn == 0 else black
                result = float(turn) if other else float(turn ^ 1)
                break
            occ = black | white
            h = occ | occ << 1 | occ >> 1
            legal = (h | h << s | h >> s) & cells & ~occ
            if not legal:
                result = 0.5
                break
            bit = 1 << kth(legal, int(rnd() * legal.bit_count()))
            if turn == 0:
                black, white = tick(black | bit, white)
            else:
                black, white = tick(black, white | bit)
            turn ^= 1
            ply += 1
        self.black, self.white, self.turn, self.ply = black, white, turn, ply
        return result if result is not None else self.outcome()

    def recorded_playout(self, rng, moves: list, max_plies: int = NO_LIMIT) -> float | None:
        """The fast ``playout``, keeping its drops in ``moves`` (every ply is a drop, so the
        players alternate from the side to move)."""
        first, cells = self.turn, []
        outcome = self._random_playout(rng, max_plies, cells)
        moves.extend((first ^ (i & 1), cell) for i, cell in enumerate(cells))
        return outcome

    def play(self, move: Move) -> None:
        """Drop a stone of the mover's colour on cell ``move``, then tick the whole board."""
        bit = 1 << move
        if self.turn == 0:
            self.black, self.white = self.game.tick(self.black | bit, self.white)
        else:
            self.black, self.white = self.game.tick(self.black, self.white | bit)
        self.turn ^= 1
        self.ply += 1

    def outcome(self) -> float | None:
        """None while the game runs; else 1.0 / 0.5 / 0.0 for B (life.md §4, A1, A3, A4)."""
        own, other = (self.black, self.white) if self.turn == 0 else (self.white, self.black)
        if not own:
            # the player to move has no stones: loses, or wins on an empty board
            return float(self.turn) if other else float(self.turn ^ 1)
        if not self.game.drops(self.black, self.white):
            return 0.5  # A1: stones but no legal drop (a full board)
        return None

    # --- notation -------------------------------------------------------------------
    def fen(self) -> str:
        """``side:B<cells>:W<cells>``, cells in board order (a1, b1, ..., a2, ...)."""
        names = self.game.name_of
        b = ",".join(names[i] for i in indices(self.black))
        w = ",".join(names[i] for i in indices(self.white))
        return f"{'BW'[self.turn]}:B{b}:W{w}"

    def move_str(self, move: Move) -> str:
        """``@`` + the drop cell, e.g. ``@k10``."""
        return "@" + self.game.name_of[move]

    def parse_move(self, text: str) -> Move:
        """The legal drop named by ``@k10`` (or ``k10``)."""
        body = str(text).strip().lower()
        if body.startswith("@"):
            body = body[1:]
        index = self.game.grid.parse_algebraic(body) if body else None
        if index is None:
            raise IllegalMove(f"move {text!r} is not a drop on the board (e.g. @k10)")
        if self.outcome() is not None:
            raise IllegalMove(f"move {text!r}: the game is over, there is no legal move")
        if not self._drops() >> index & 1:
            why = "occupied" if (self.black | self.white) >> index & 1 else "not next to a stone"
            raise IllegalMove(f"move {text!r} is illegal in {self.fen()} (the cell is {why})")
        return index

    # --- evaluation and display ----------------------------------------------------------
    def evaluate(self) -> float:
        """Stone balance d = B - W squashed to (0, 1) for B: 0.5 + 0.5 * d / (|d| + EVAL_SCALE).

        Strictly increasing in the balance, so the greedy agent still plays the author's
        "Eval" (own stones minus the opponent's, life.md §7) and a finished game (0 or 1)
        always ranks above or below any running one.  The squash makes a lead of
        ``EVAL_SCALE`` stones worth 0.75, where the old linear map (d / 722) kept every
        cut-off playout within a few hundredths of 0.5; measured head to head with
        ``PlayoutDepth 4``, see docs/benchmarks.md (Life: UCT against Eval).
        """
        d = self.black.bit_count() - self.white.bit_count()
        return 0.5 + 0.5 * d / (abs(d) + EVAL_SCALE)

    def _after(self, move: Move) -> tuple[int, int]:
        bit = 1 << move
        if self.turn == 0:
            return self.game.tick(self.black | bit, self.white)
        return self.game.tick(self.black, self.white | bit)

    def heuristic(self, move: Move) -> float:
        """One-ply gain in stone balance (own minus opponent's) of a legal drop for its mover."""
        b, w = self._after(move)
        gain = (b.bit_count() - w.bit_count()) - (self.black.bit_count() - self.white.bit_count())
        return float(gain if self.turn == 0 else -gain)

    def is_capture(self, move: Move) -> bool:
        """Whether a legal drop leaves the opponent fewer stones."""
        b, w = self._after(move)
        if self.turn == 0:
            return w.bit_count() < self.white.bit_count()
        return b.bit_count() < self.black.bit_count()

    def board_text(self) -> str:
        """The board as text, rank 1 at the bottom: ``B``/``W`` stones, ``.`` empty."""
        grid = self.game.grid
        lines = []
        for r in range(grid.rows - 1, -1, -1):
            cells = []
            for c in range(grid.cols):
                i = grid.index(r, c)
                cells.append("B" if self.black >> i & 1 else "W" if self.white >> i & 1 else ".")
            lines.append(f"{r + 1:>2} " + " ".join(cells))
        lines.append("   " + " ".join("abcdefghijklmnopqrstuvwxyz"[: grid.cols]))
        side = "Black (first player)" if self.turn == 0 else "White (second player)"
        lines.append(f"{side} to move")
        return "\n".join(lines)

    # --- drawing and clicking (view.py) -----------------------------------------------------
    def board_view(self) -> BoardView:
        """The plain square board with Black's (player 0) and White's stones."""
        g = self.game
        pieces = [ViewPiece(g.name_of[i], 0 if self.black >> i & 1 else 1, "stone")
                  for i in indices(self.black | self.white)]
        return square_view(g.grid, g.name_of, pieces, shade=lambda r, c: "plain")

    def move_path(self, move: Move) -> MovePath:
        """The drop's one cell; the opponent's stones that the tick after it removes or turns."""
        b, w = self._after(move)
        theirs, after = (self.white, w) if self.turn == 0 else (self.black, b)
        return MovePath((self.game.name_of[move],), mask_names(self.game.name_of, theirs & ~after))

    def __repr__(self) -> str:
        return f"<life {self.fen()}>"


def make_game(native: bool = True, **options) -> LifeGame:
    """The Life game with rule options ``size`` and ``opening`` (``SCHEMA``; strings accepted), on
    the native rules where they are built unless ``native`` is False (the Python reference)."""
    return LifeGame(SCHEMA.parse(options), native)


def _recording(kth: Callable[[int, int], int], record: list) -> Callable[[int, int], int]:
    """``kth`` (the k-th set bit's index: the cell a playout drops on), appending each cell
    it gives to ``record``."""
    append = record.append

    def recording_kth(mask: int, k: int) -> int:
        cell = kth(mask, k)
        append(cell)
        return cell
    return recording_kth
