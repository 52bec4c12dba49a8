"""One table-driven engine for the Alquerque family: Alquerque, Zamma, Harbagh, Fox and Geese.

Rules: the rules texts of Alquerque, Zamma, Harbagh and Fox and Geese, with the defaults
of their Ambiguities sections (docs/games.md#alquerque-zamma-harbagh-fox-and-geese).  Each game is
a row of parameters (``Rules`` below, table ``GAMES``): the board (which lines
exist where, from ``geometry.py``), the setup, which way men step, the capture
obligation and choice, chains, removal (immediate or at the end of the move, the
"Turkish strike"), promotion to flying kings, and the draw rules.  Fox and Geese is
the same machinery with ``hunt=True``: only the second player (the fox) captures,
and it always steps in every direction.

The board is a ``LineBoard``: a ``Grid`` plus, per direction, the mask of points
from which a line runs that way.  Move generation ANDs that mask in before every
shift, so whole-board work per move is a few big-int operations per direction and
nothing ever steps off a line.  Player 0 sits at rank 1; its men move "up".

A state keeps ``own`` / ``opp`` (pieces of the side to move and of the other side),
``kings`` and ``turn``, plus the draw counters.  A move is the tuple
``(from, to, captured, crowned, route)`` of single-bit masks: ``route`` the landing
points of a capture (empty for a step), so a move is identified by its full path
as the rules files say.  With ``huff=yes`` a step that neglects a capture carries
the mover's huffed pieces in ``captured`` (its route stays empty).

Where the native core is built the same rows run compiled (``alquerque_kernel.py`` hands a row
to ``native/src/alquerque*.c`` as numbers): the search core plays on them, and ``random_move``,
``playout`` and ``perft`` take them as their fast path.  These Python rules stay the reference
(``get_game(name, native=False)``, ``MCTS_ENGINE_NATIVE=0``).

Notation: points are algebraic (Harbagh: see ``geometry.harbagh_board``); a step
is ``from-to``, a capture ``fromxlandingxlanding...``.  FEN (PDN-like)::

    fen   := side ":" c0 list ":" c1 list [ ":H" quiet ] [ ":N" ply ]
    list  := [ ["K"] point ( "," ["K"] point )* ]

``side``, ``c0``, ``c1`` are colour letters (W/B, B/W, G/F for geese/fox), ``K`` marks
a king, ``H`` the plies since the last capture (or promotion, where that counts as
progress) and ``N`` the plies played (the safety cap).  E.g. Alquerque's start:
``W:Wa1,b1,c1,d1,e1,a2,b2,c2,d2,e2,d3,e3:Ba3,b3,a4,b4,c4,d4,e4,a5,b5,c5,d5,e5``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from .base import (NO_LIMIT, BadPosition, Game, TurnState, count_limit, is_subsequence, material_share, perft_walk,
                   read_move_squares, single_match)
from .fen import counters_text, fen_fields, fen_side, read_piece_lists
from .alquerque_kernel import native_rules
from .geometry import LineBoard, alquerque_board, cross_board, harbagh_board, indices
from .view import BoardView, MovePath, ViewPiece, line_view, mask_names
from .options import option_error, option_field, schema_of

Move = tuple  # (from_mask, to_mask, captured_mask, crowned, route_masks)

CROSS_POINTS = tuple(cross_board().names.values())   # Fox and Geese: every point (the fox may start on any)
GEESE = {
    "13": "a3 b3 c3 d3 e3 f3 g3 c2 d2 e2 c1 d1 e1",
    "15": "a3 b3 c3 d3 e3 f3 g3 c2 d2 e2 c1 d1 e1 a4 g4",
    "british": "a3 b3 c3 d3 e3 f3 g3 c2 d2 e2 c1 d1 e1 a4 g4 b4 f4",
    "french": "a3 b3 c3 d3 e3 f3 g3 c2 d2 e2 c1 d1 e1 a4 g4 a5 g5",
}


@dataclass(frozen=True)
class Rules:
    """One row of the game table: every rule parameter of one game of the family.

    The board and set-up fields are fixed per game; the ``option_field`` ones are rule
    options (``OPTIONS`` says which each game offers).
    """

    name: str
    board: str = "alquerque"            # alquerque (size x size) | harbagh (41 points) | cross (33 points)
    size: int = 5                       # alquerque boards: points per side
    colours: tuple = ("W", "B")         # colour letters of player 0 and player 1
    start0: str = ""                    # player 0's men (space-separated points)
    start1: str = ""                    # player 1's men
    hunt: bool = False                  # only player 1 captures (Fox and Geese)
    lines: str = option_field("all", "Fox and Geese: which diagonals the cross board has",
                              choices=("all", "alternating", "orthogonal"))
    geese: str = option_field("13", "Fox and Geese: the flock (17 = british)", choices=tuple(GEESE),
                              aliases={"17": "british"})
    fox_start: str = option_field("d4", "Fox and Geese: the fox's start point", choices=CROSS_POINTS)
    man_steps: str = option_field("any", "which way men step (no-back: forward, diagonal-forward, sideways)",
                                  choices=("any", "no-back", "forward"))
    capture: str = option_field("compulsory", "capturing is compulsory or optional",
                                choices=("compulsory", "optional"))
    chain: str = option_field("compulsory", "a capture goes on while it can, may stop, or is one jump",
                              choices=("compulsory", "optional", "single"))
    choice: str = option_field("free", "any capture, or only those taking the most pieces", choices=("free", "max"))
    removal: str = option_field("immediate", "captured pieces leave at once or at the end (Turkish strike)",
                                choices=("immediate", "end"))
    promotion: str = option_field("none", "none, or crowned on the far row: the capture stops, or only at its end",
                                  choices=("none", "stop", "pass"))
    king_reverse: bool = option_field(False, "a flying king may turn back 180 degrees in a chain")
    huff: bool = option_field(False, "a man that neglects a capture is removed (capturing is then optional)")
    no_progress: int = option_field(50, "plies without progress that draw (0 = off)")
    progress: str = option_field("capture", "what resets no_progress", choices=("capture", "capture-or-promotion"))
    repetition: int = option_field(0, "occurrences of a position that draw (0 = off, else 2 or more)")
    max_plies: int = option_field(400, "safety cap: a draw after this many plies (0 = off)")


_ZAMMA_BLACK = " ".join(f"{f}{r}" for r in range(1, 5) for f in "abcdefghi") + " f5 g5 h5 i5"
_ZAMMA_WHITE = " ".join(f"{f}{r}" for r in range(6, 10) for f in "abcdefghi") + " a5 b5 c5 d5"
_KINGS = dict(man_steps="no-back", choice="max", promotion="stop", progress="capture-or-promotion")

GAMES: dict[str, Rules] = {r.name: r for r in [
    Rules("alquerque", colours=("W", "B"),
          start0="a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 d3 e3", start1="a5 b5 c5 d5 e5 a4 b4 c4 d4 e4 a3 b3"),
    Rules("zamma", size=9, colours=("B", "W"), start0=_ZAMMA_BLACK, start1=_ZAMMA_WHITE,
          removal="end", max_plies=500, **_KINGS),
    Rules("harbagh", board="harbagh", colours=("B", "W"),
          start0="a1 b1 c1 d1 e1 a2 b2 c2 d2 a3 b3 c3 d3 e3 a4 b4 c4 d4 d5 e5",
          start1="a9 b9 c9 d9 e9 a8 b8 c8 d8 a7 b7 c7 d7 e7 a6 b6 c6 d6 a5 b5", **_KINGS),
    Rules("fox-and-geese", board="cross", colours=("G", "F"), hunt=True, capture="optional"),
]}

# the rule options each game accepts (the Rules fields a user may override)
_COMMON = ("man_steps", "capture", "chain", "choice", "removal", "promotion", "king_reverse", "huff",
           "no_progress", "progress", "repetition", "max_plies")
OPTIONS = {"alquerque": _COMMON, "zamma": _COMMON, "harbagh": _COMMON,
           "fox-and-geese": _COMMON + ("lines", "geese", "fox_start")}

_KING_VALUE = 3.0  # material weight of a flying king (evaluate, heuristic)


def schema(name: str):
    """The rule options of game ``name`` with its row's values as defaults."""
    return schema_of(Rules, name, GAMES[name]).only(OPTIONS[name])


def _shift(x: int, d: int) -> int:
    return x << d if d >= 0 else x >> -d


class AlquerqueGame(Game):
    """A compiled row: the board's line masks, direction plans, jump tables and notation.

    ``kernel`` is the row's native rules (``alquerque_kernel.native_rules``: the search core
    runs them, and ``random_move``/``playout``/``perft`` take them as their fast path), or None
    on the Python rules (``native=False``, or no native core): these stay the reference.
    """

    king_value = _KING_VALUE          # a flying king's material weight, as the native rules take it

    def __init__(self, rules: Rules, native: bool = True):
        r = self.rules = rules
        self.name = r.name
        self.use_options(schema(r.name), asdict(r))
        if r.board == "harbagh":
            board = harbagh_board()
        elif r.board == "cross":
            board = cross_board(pattern=r.lines)
        else:
            board = alquerque_board(r.size)
        self.board: LineBoard = board
        self.grid = board.grid
        self.points = board.points
        self.name_of = board.names
        self.index_of = {n: i for i, n in self.name_of.items()}
        self.colours = tuple(r.colours)
        self.hunt = r.hunt
        self.compulsory = r.capture == "compulsory" and not r.huff
        self.immediate = r.removal == "immediate"
        self.chain = r.chain
        self.promotion = r.promotion
        self.king_reverse = r.king_reverse
        self.huff = r.huff
        self.no_progress = count_limit(r.no_progress)
        self.max_plies = count_limit(r.max_plies)
        self.crown_is_progress = r.progress == "capture-or-promotion"
        self.repetition = r.repetition
        self._setup_directions()
        if r.promotion == "none":
            self.promo = (0, 0)
        else:
            top = self.grid.rows - 1
            self.promo = (self.grid.row_mask(top), self.grid.row_mask(0))
        self.start = self._start_position()
        # Fox and Geese's evaluation: the flock beyond the 5 geese that cannot trap the fox
        self.flock = (self.start[0].bit_count() - 5) or 1
        self._attach_native(native)

    def _attach_native(self, native: bool) -> None:
        """Run this game on its native rules where they are built (``native``: unless told not to)."""
        self.kernel = native_rules(self) if native else None
        self.native = self.kernel is not None

    def __getstate__(self) -> dict:
        """Pickled without the native rules (a game outside the registry; registered games pickle
        as their name): the receiver compiles its own."""
        return {k: v for k, v in self.__dict__.items() if k != "kernel"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._attach_native(state["native"])

    # --- set-up -------------------------------------------------------------------
    def _setup_directions(self) -> None:
        """Per player: step directions of men ``(shift, from-mask)`` split up/down; jumps; king rays."""
        board, r = self.board, self.rules
        self.line = {}      # delta -> points with a line that way
        self.jline = {}     # delta -> points with two steps of line that way
        drow_of = {}
        for d, mask in board.lines.items():
            delta = board.delta(d)
            self.line[delta] = mask
            self.jline[delta] = mask & _shift(mask, -delta)
            drow_of[delta] = d[0]
        self.step_up, self.step_down, self.jump_up, self.jump_down = [], [], [], []
        for p in (0, 1):
            forward = 1 if p == 0 else -1
            kind = "any" if (self.hunt and p == 1) else r.man_steps
            steps = [d for d in self.line if kind == "any" or drow_of[d] * forward > 0
                     or (kind == "no-back" and drow_of[d] == 0)]
            jumps = [] if (self.hunt and p == 0) else [d for d in self.jline if self.jline[d]]
            self.step_up.append(tuple((d, self.line[d]) for d in steps if d > 0))
            self.step_down.append(tuple((-d, self.line[d]) for d in steps if d < 0))
            self.jump_up.append(tuple((d, 2 * d, self.jline[d]) for d in jumps if d > 0))
            self.jump_down.append(tuple((-d, -2 * d, self.jline[d]) for d in jumps if d < 0))
        self.rays = tuple((d, self.line[d]) for d in self.line)
        # king lines as (delta, shift amount, upwards?, line mask): no sign test per step
        self.king_lines = tuple((d, abs(d), d > 0, self.line[d]) for d in self.line)
        # man jumps from each point: (delta, jumped point, landing point)
        self.jump_table = {}
        for i in indices(self.points):
            sq = 1 << i
            self.jump_table[sq] = tuple((d, _shift(sq, d), _shift(sq, 2 * d))
                                        for d, m in self.jline.items() if sq & m)

    def _start_position(self) -> tuple[int, int]:
        """(player 0's pieces, player 1's pieces) at the start; the fox may not start on a goose."""
        r = self.rules
        lists = (GEESE[r.geese], r.fox_start) if r.hunt else (r.start0, r.start1)
        first, second = (sum(self.parse_square(name) for name in text.split()) for text in lists)
        if first & second:
            raise option_error(r.name, "fox_start", r.fox_start, f"is a goose's point (geese={r.geese})")
        return first, second

    # --- names -----------------------------------------------------------------------
    def square_name(self, mask: int) -> str:
        """The name of a single-bit point mask."""
        return self.name_of[mask.bit_length() - 1]

    def parse_square(self, text: str) -> int | None:
        """The mask of a point given by name, or None."""
        i = self.index_of.get(text.strip().lower())
        return None if i is None else 1 << i

    # --- contract ----------------------------------------------------------------------
    def new_state(self) -> "AlquerqueState":
        """The start position, player 0 to move."""
        return AlquerqueState(self, self.start[0], self.start[1], 0, 0)

    def parse_fen(self, text: str) -> "AlquerqueState":
        """A position from its FEN (see the module docstring); raises BadPosition."""
        original = text
        fields = fen_fields(text)
        side = fen_side(fields, original, self.colours)
        lists, counters = read_piece_lists(fields[1:], original, tags="".join(self.colours), square=self.parse_square,
                                           noun="point", board=self.name, prefixes="K", counters="HN")
        pieces = [lists.get(colour, {}) for colour in self.colours]
        kings = pieces[0].get("K", 0) | pieces[1].get("K", 0)
        if kings and self.promotion == "none":
            raise BadPosition(f"bad FEN {original!r}: {self.name} has no kings (K{self.square_name(kings & -kings)})")
        p0, p1 = (sum(p.values()) for p in pieces)
        turn = self.colours.index(side)
        own, opp = (p0, p1) if turn == 0 else (p1, p0)
        state = AlquerqueState(self, own, opp, kings, turn)
        state.quiet, state.ply = counters.get("H", 0), counters.get("N", 0)
        state.drawn = state.quiet >= self.no_progress or state.ply >= self.max_plies
        return state

    def perft(self, state: "AlquerqueState", depth: int) -> int:
        """Leaf count of the legal-move tree (draw rules ignored), on raw masks (natively where
        the native rules run)."""
        if self.kernel is not None:
            return self.kernel.perft(state.raw(), depth)
        return perft_walk(self.legal, self._child, (state.own, state.opp, state.kings, state.turn), depth)

    def _child(self, position: tuple, move: Move) -> tuple:
        """The raw position ``(own, opp, kings, turn)`` after a legal move (for perft)."""
        own, opp, kings, turn = position
        own, opp, kings = self.apply(own, opp, kings, move)
        return opp, own, kings, turn ^ 1

    @staticmethod
    def apply(own: int, opp: int, kings: int, move: Move) -> tuple[int, int, int]:
        """The raw (own, opp, kings) after ``move``, still from the mover's side."""
        frm, to, cap, crown, route = move
        if route:               # taken first: with immediate removal a king may land where it took
            opp &= ~cap
            kings &= ~cap
        own ^= frm ^ to
        if kings & frm:
            kings ^= frm ^ to
        elif crown:
            kings |= to
        if cap and not route:   # huffed after the step: the mover itself is huffed where it lands
            own &= ~cap
            kings &= ~cap
        return own, opp, kings

    # --- move generation ------------------------------------------------------------------
    def scan(self, own: int, opp: int, kings: int, turn: int, steps: bool = True) -> tuple[int, int, list]:
        """One whole-board pass over the side to move: ``(jumpers, step_count, step_buckets)``.

        ``jumpers``: pieces that may start a capture (exact for men; every king when
        any piece can capture).  ``step_buckets`` hold ``(targets, delta, n)``: each
        set bit ``t`` of ``targets`` is a step from ``t`` shifted back by ``delta``.
        With ``steps=False`` and a capture found, the steps are not listed.
        """
        empty = self.points ^ (own | opp)
        mine = own & kings
        men = own ^ mine
        jumpers = count = 0
        out = []
        for d, dd, m in self.jump_up[turn]:
            t = ((((own & m) << d) & opp) << d) & empty
            if t:
                jumpers |= t >> dd
        for d, dd, m in self.jump_down[turn]:
            t = ((((own & m) >> d) & opp) >> d) & empty
            if t:
                jumpers |= t << dd
        if jumpers and not steps:
            return jumpers | mine, 0, out
        if men:
            for d, m in self.step_up[turn]:
                t = ((men & m) << d) & empty
                if t:
                    n = t.bit_count()
                    out.append((t, d, n))
                    count += n
            for d, m in self.step_down[turn]:
                t = ((men & m) >> d) & empty
                if t:
                    n = t.bit_count()
                    out.append((t, -d, n))
                    count += n
        if mine:
            if self._king_rays(mine, opp, empty, out, not jumpers) or jumpers:
                jumpers |= mine
            count = sum(b[2] for b in out)
        return jumpers, count, out

    def _king_rays(self, mine: int, opp: int, empty: int, out: list, look: bool) -> bool:
        """Flying king slides into ``out`` (per direction and distance); True if a king can capture.

        ``look``: test for captures along the rays (else only list the slides).
        """
        found = False
        for d, a, up, m in self.king_lines:
            r, k = mine, d
            while r:
                if up:
                    r = (r & m) << a
                    if look and ((r & opp & m) << a) & empty:
                        found, look = True, False
                else:
                    r = (r & m) >> a
                    if look and ((r & opp & m) >> a) & empty:
                        found, look = True, False
                r &= empty
                if r:
                    out.append((r, k, r.bit_count()))
                k += d
        return found

    def steps_from(self, buckets: list, kings: int, turn: int, huffed: int = 0) -> list[Move]:
        """The step moves listed by ``scan``'s buckets (``huffed``: see ``huff_mask``)."""
        promo = self.promo[turn]
        out = []
        for targets, d, _ in buckets:
            while targets:
                to = targets & -targets
                targets ^= to
                frm = _shift(to, -d)
                out.append((frm, to, self.huff_mask(huffed, frm, to), to & promo != 0 and not frm & kings, ()))
        return out

    @staticmethod
    def huff_mask(huffed: int, frm: int, to: int) -> int:
        """The mover's pieces removed after a step from ``frm`` to ``to`` that neglects a capture."""
        return huffed ^ frm ^ to if huffed & frm else huffed

    def step_at(self, r: int, buckets: list, kings: int, turn: int, huffed: int = 0) -> Move:
        """The ``r``-th step (from 0) listed by ``scan``'s ``buckets``."""
        for targets, d, n in buckets:
            if r < n:
                while r:
                    targets &= targets - 1
                    r -= 1
                to = targets & -targets
                frm = _shift(to, -d)
                return (frm, to, self.huff_mask(huffed, frm, to),
                        to & self.promo[turn] != 0 and not frm & kings, ())
            r -= n
        raise ValueError("step_at: index beyond the buckets")

    def sequences(self, own: int, opp: int, kings: int, turn: int, starters: int) -> list[Move]:
        """Every capture move of the ``starters`` (before the choice rule)."""
        out: list[Move] = []
        occupied = own | opp
        while starters:
            frm = starters & -starters
            starters ^= frm
            if frm & kings:
                self._extend_king(frm, frm, 0, (), 0, occupied ^ frm, opp, out)
            else:
                self._extend_man(frm, frm, 0, (), occupied ^ frm, opp, turn, out)
        return out

    def _extend_man(self, frm, sq, captured, route, occupied, opp, turn, out) -> bool:
        """Depth-first search of a man's jumps from ``sq``; finished moves go to ``out``.

        ``occupied`` lacks the mover's start point and, under the Turkish strike,
        keeps the captured pieces (they block).  Returns whether a jump exists from ``sq``.
        """
        free = self.points & ~occupied
        prey = opp & ~captured
        promo = self.promo[turn]
        chain = self.chain
        found = False
        for d, mid, land in self.jump_table[sq]:
            if not (mid & prey and land & free):
                continue
            found = True
            cap2, route2 = captured | mid, route + (land,)
            if land & promo and self.promotion == "stop":
                out.append((frm, land, cap2, True, route2))
                continue
            if chain == "single":
                out.append((frm, land, cap2, land & promo != 0, route2))
                continue
            occ2, opp2 = (occupied ^ mid, opp ^ mid) if self.immediate else (occupied, opp)
            if chain == "optional":
                out.append((frm, land, cap2, land & promo != 0, route2))
                self._extend_man(frm, land, cap2, route2, occ2, opp2, turn, out)
            elif not self._extend_man(frm, land, cap2, route2, occ2, opp2, turn, out):
                out.append((frm, land, cap2, land & promo != 0, route2))
        return found

    def _extend_king(self, frm, sq, captured, route, last, occupied, opp, out) -> bool:
        """``_extend_man`` for a flying king: along each line to the first piece, land on any free point beyond."""
        free = self.points & ~occupied
        prey = opp & ~captured
        chain = self.chain
        found = False
        for d, a, up, m in self.king_lines:
            if d == -last and not self.king_reverse:
                continue
            s = (sq & m) << a if up else (sq & m) >> a
            while s & free:
                s = (s & m) << a if up else (s & m) >> a
            if not s & prey:
                continue
            land = (s & m) << a if up else (s & m) >> a
            if not land & free:
                continue
            found = True
            cap2 = captured | s
            occ2, opp2 = (occupied ^ s, opp ^ s) if self.immediate else (occupied, opp)
            while land & free:
                route2 = route + (land,)
                if chain == "compulsory":
                    if not self._extend_king(frm, land, cap2, route2, d, occ2, opp2, out):
                        out.append((frm, land, cap2, False, route2))
                else:
                    out.append((frm, land, cap2, False, route2))
                    if chain == "optional":
                        self._extend_king(frm, land, cap2, route2, d, occ2, opp2, out)
                land = (land & m) << a if up else (land & m) >> a
        return found

    def choose(self, moves: list[Move]) -> list[Move]:
        """The choice rule: with ``max`` only the captures taking the most pieces."""
        if self.rules.choice == "max" and len(moves) > 1:
            best = max(len(m[4]) for m in moves)
            return [m for m in moves if len(m[4]) == best]
        return moves

    def huffable(self, own: int, opp: int, kings: int, turn: int, jumpers: int, captures: list[Move]) -> int:
        """The pieces that could have captured (removed by a step under ``huff``)."""
        if not self.huff or not jumpers:
            return 0
        out = 0
        for m in captures:
            out |= m[0]
        return out

    def legal(self, own: int, opp: int, kings: int, turn: int) -> list[Move]:
        """All legal moves of a raw position."""
        jumpers, count, buckets = self.scan(own, opp, kings, turn, not self.compulsory)
        if not jumpers:
            return self.steps_from(buckets, kings, turn)
        captures = self.choose(self.sequences(own, opp, kings, turn, jumpers))
        if self.compulsory:
            return captures
        huffed = self.huffable(own, opp, kings, turn, jumpers, captures)
        return captures + self.steps_from(buckets, kings, turn, huffed)


class AlquerqueState(TurnState):
    """A position of an Alquerque-family game with its draw counters."""

    __slots__ = ("game", "own", "opp", "kings", "turn", "ply", "quiet", "history", "drawn")

    def __init__(self, game: AlquerqueGame, own: int, opp: int, kings: int, turn: int):
        self.game = game
        self.own, self.opp, self.kings, self.turn = own, opp, kings, turn
        self.ply = 0          # plies played (the safety cap)
        self.quiet = 0        # plies since the last capture (or promotion, where that is progress)
        self.history = ()     # keys since the last capture / crowning (repetition rule only)
        self.drawn = False

    @property
    def compulsory_captures(self) -> bool:
        """Whether the rules in effect make capturing compulsory (not with the huff)."""
        return self.game.compulsory

    def copy(self) -> "AlquerqueState":
        """An independent copy (the history tuple is shared: it is immutable)."""
        s = object.__new__(AlquerqueState)
        s.game, s.own, s.opp, s.kings, s.turn = self.game, self.own, self.opp, self.kings, self.turn
        s.ply, s.quiet, s.history, s.drawn = self.ply, self.quiet, self.history, self.drawn
        return s

    def key(self) -> tuple:
        """(turn, side to move's pieces, the other side's pieces, kings)."""
        return (self.turn, self.own, self.opp, self.kings)

    def pieces(self, player: int) -> int:
        """The mask of ``player``'s pieces."""
        return self.own if player == self.turn else self.opp

    # --- moves -----------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move (a capture chain is one move); empty when the game is over."""
        if self.drawn:
            return []
        return self.game.legal(self.own, self.opp, self.kings, self.turn)

    # --- across the boundary to the native rules ------------------------------------------
    def raw(self) -> tuple:
        """The position as it crosses into the native rules: (own, opp, kings, turn, ply, quiet,
        drawn, history), one tuple (native/src/alquerque_glue.c)."""
        return self.own, self.opp, self.kings, self.turn, self.ply, self.quiet, self.drawn, self.history

    def set_raw(self, raw: tuple) -> None:
        """Take the position ``raw`` describes (as the native rules hand it back after playing)."""
        self.own, self.opp, self.kings, self.turn, self.ply, self.quiet, self.drawn, self.history = raw

    def random_move(self, rng) -> Move | None:
        """A uniformly random legal move without listing every step, or None when the game is over
        (natively where the native rules run, drawing from ``rng`` exactly as the Python loop does)."""
        kernel = self.game.kernel
        if kernel is not None:
            return kernel.random_move(self.raw(), rng)
        if self.drawn:
            return None
        return self._random(rng.random)

    def _random(self, rnd) -> Move | None:
        g = self.game
        own, opp, kings, turn = self.own, self.opp, self.kings, self.turn
        jumpers, count, buckets = g.scan(own, opp, kings, turn, not g.compulsory)
        if jumpers:
            captures = g.choose(g.sequences(own, opp, kings, turn, jumpers))
            if g.compulsory:
                return captures[int(rnd() * len(captures))]
            r = int(rnd() * (len(captures) + count))
            if r < len(captures):
                return captures[r]
            huffed = g.huffable(own, opp, kings, turn, jumpers, captures)
            return g.step_at(r - len(captures), buckets, kings, turn, huffed)
        if count:
            return g.step_at(int(rnd() * count), buckets, kings, turn)
        return None

    def playout(self, rng, max_plies: int = NO_LIMIT) -> float | None:
        """Uniformly random moves in place to the end; the outcome, or None if cut off after ``max_plies``.

        The same rules and random draws as ``random_move`` then ``play`` (natively where the
        native rules run: given a ``random.Random`` they draw exactly as this loop does).
        """
        kernel = self.game.kernel
        if kernel is not None:
            result, raw = kernel.playout(self.raw(), rng, max_plies)
            self.set_raw(raw)
            return result
        rnd, play, pick = rng.random, self.play, self._random
        for _ in range(max_plies):
            if self.drawn:
                return 0.5
            move = pick(rnd)
            if move is None:
                return 0.0 if self.turn == 0 else 1.0
            play(move)
        return self.outcome()

    def play(self, move: Move) -> None:
        """Apply a legal move in place and update the draw counters."""
        g = self.game
        turn, own0, opp0, kings0 = self.turn, self.own, self.opp, self.kings
        own, opp, kings = g.apply(own0, opp0, kings0, move)
        self.own, self.opp, self.kings, self.turn = opp, own, kings, turn ^ 1
        ply = self.ply = self.ply + 1
        if move[2] or (move[3] and g.crown_is_progress):
            self.quiet = 0
        else:
            self.quiet += 1
        if g.repetition:
            if move[2] or move[3]:
                self.history = ()
            else:
                key = (turn ^ 1, opp, own, kings)
                history = self.history or ((turn, own0, opp0, kings0),)
                if history.count(key) + 1 >= g.repetition:
                    self.drawn = True
                self.history = history + (key,)
        if self.quiet >= g.no_progress or ply >= g.max_plies:
            self.drawn = True

    def outcome(self) -> float | None:
        """None while the game runs; else 1.0 / 0.5 / 0.0 for the first player (no move = loss)."""
        jumpers, count, _ = self.game.scan(self.own, self.opp, self.kings, self.turn, False)
        if jumpers or count:
            return 0.5 if self.drawn else None
        return 0.0 if self.turn == 0 else 1.0

    # --- notation ------------------------------------------------------------------------
    def fen(self) -> str:
        """``side:c0<list>:c1<list>`` plus ``:H<quiet>`` and ``:N<ply>`` when they are not 0."""
        g = self.game
        lists = []
        for p in (0, 1):
            items = [("K" if self.kings >> i & 1 else "") + g.name_of[i] for i in indices(self.pieces(p))]
            lists.append(g.colours[p] + ",".join(items))
        return f"{g.colours[self.turn]}:{lists[0]}:{lists[1]}" + counters_text(self.quiet, self.ply)

    def move_str(self, move: Move) -> str:
        """``from-to`` for a step or slide, ``fromxlandingx...`` for a capture (its full path)."""
        g = self.game
        frm, to, _, _, route = move
        if not route:
            return f"{g.square_name(frm)}-{g.square_name(to)}"
        return "x".join([g.square_name(frm)] + [g.square_name(r) for r in route])

    def parse_move(self, text: str) -> Move:
        """The legal move named by ``text``: a full path, or a capture's start and end (with any
        landing points in between) when that names one move.  Separators ``-``, ``x``, ``:``."""
        g = self.game
        masks, legal = read_move_squares(self, text, square=g.parse_square, separators="-x:×",
                                         notation="in the notation from-to or fromxto[x...] (e.g. d3-c3)",
                                         where=f"a point of {g.name}")
        exact = [m for m in legal if (m[0],) + (m[4] or (m[1],)) == tuple(masks)]
        if len(exact) == 1:
            return exact[0]
        matches = [m for m in legal if m[0] == masks[0] and m[1] == masks[-1] and m[4]
                   and is_subsequence(masks[1:-1], m[4][:-1])]
        why = " (a capture is compulsory)" if g.compulsory and legal[0][4] else ""
        return single_match(self, text, matches, why)

    # --- evaluation and display -------------------------------------------------------
    def evaluate(self) -> float:
        """A score in [0, 1] for the first player.

        Symmetric games: the first player's share of the material (men 1, kings 3).
        Fox and Geese: half from the geese left (5 or fewer cannot trap the fox,
        the full flock scores 1), half from the fox's lack of mobility (its free
        neighbour points and jumps out of 8).
        """
        g = self.game
        p0, p1, kings = self.pieces(0), self.pieces(1), self.kings
        if g.hunt:
            geese = min(1.0, max(0.0, (p0.bit_count() - 5) / g.flock))
            mobility = self._hunter_mobility(p1, p0) / (8 * max(1, p1.bit_count()))
            return 0.5 * geese + 0.5 * (1.0 - min(1.0, mobility))
        a = (p0 & ~kings).bit_count() + _KING_VALUE * (p0 & kings).bit_count()
        b = (p1 & ~kings).bit_count() + _KING_VALUE * (p1 & kings).bit_count()
        return material_share(a, b, 0)

    def _hunter_mobility(self, hunter: int, prey: int) -> int:
        """Steps plus jumps of the ``hunter`` pieces (counted on the whole board at once)."""
        g = self.game
        empty = g.points & ~(hunter | prey)
        n = 0
        for d, m in g.line.items():
            step = _shift(hunter & m, d)
            n += (step & empty).bit_count()
            n += (_shift(step & prey & m, d) & empty).bit_count()
        return n

    def is_capture(self, move: Move) -> bool:
        """Whether a legal move captures."""
        return bool(move[4])

    def heuristic(self, move: Move) -> float:
        """One-ply material gain of a legal move for its mover (men 1, kings 3): the pieces it
        takes, plus a crowning; huffed pieces count as a loss, at their value before the move
        (a huffed mover counted from where it started, and its crowning lost with it)."""
        frm, to, cap, crowned, route = move
        kings = self.kings
        huffed_mover = bool(cap & to) and not route
        if huffed_mover:
            cap ^= to ^ frm
        value = (cap & ~kings).bit_count() + _KING_VALUE * (cap & kings).bit_count()
        crowning = _KING_VALUE - 1 if crowned and not huffed_mover else 0
        return (value if route else -value) + crowning

    def board_text(self) -> str:
        """The board as text, rank 1 at the bottom: lower case men, upper case kings, ``.`` empty."""
        g = self.game
        grid = g.grid
        p0 = self.pieces(0)
        letters = [c.lower() for c in g.colours]
        harbagh = g.rules.board == "harbagh"
        lines = []
        for r in range(grid.rows - 1, -1, -1):
            cells = []
            for c in range(grid.cols):
                bit = grid.mask(r, c)
                if not g.points & bit:
                    cells.append(" ")
                elif not (self.own | self.opp) & bit:
                    cells.append(".")
                else:
                    ch = letters[0 if p0 & bit else 1]
                    cells.append(ch.upper() if self.kings & bit else ch)
            lines.append(f"{r + 1:>2} " + " ".join(cells))
        files = [("abcdefghi"[c // 2] if c % 2 == 0 else " ") if harbagh else "abcdefghi"[c]
                 for c in range(grid.cols)]
        lines.append("   " + " ".join(files))
        lines.append(f"{g.colours[self.turn]} ({'first' if self.turn == 0 else 'second'} player) to move")
        return "\n".join(lines)

    # --- drawing and clicking (view.py) -----------------------------------------------
    def board_view(self) -> BoardView:
        """The points and the lines of the board (Harbagh's lattice at double resolution),
        men and kings (geese and the fox in Fox and Geese)."""
        g = self.game
        p0 = self.pieces(0)
        kinds = ("goose", "fox") if g.hunt else ("man", "man")
        pieces = [ViewPiece(g.name_of[i], 0 if p0 >> i & 1 else 1,
                            "king" if self.kings >> i & 1 else kinds[0 if p0 >> i & 1 else 1])
                  for i in indices(self.own | self.opp)]
        harbagh = g.rules.board == "harbagh"
        steps = [(g.board.delta(d), mask) for d, mask in g.board.lines.items()]
        return line_view(g.grid, g.name_of, steps, pieces, file_step=2 if harbagh else 1,
                         piece_size=0.5 if harbagh else 0.36)

    def move_path(self, move: Move) -> MovePath:
        """From, then every landing point (a step: its end); the captured (or huffed) points."""
        g = self.game
        frm, to, cap, _, route = move
        points = (g.square_name(frm),) + tuple(g.square_name(r) for r in (route or (to,)))
        return MovePath(points, mask_names(g.name_of, cap))

    def __repr__(self) -> str:
        return f"<{self.game.name} {self.fen()}>"


def make_game(name: str, native: bool = True, **options) -> AlquerqueGame:
    """The compiled game ``name`` (a key of ``GAMES``) with rule options applied, on its native
    rules where they are built unless ``native`` is False (the Python reference); raises BadOption."""
    values = schema(name).parse(options)
    if values["repetition"] == 1:
        raise option_error(name, "repetition", 1, "is not 0 (off) or 2 or more")
    return AlquerqueGame(replace(GAMES[name], **values), native)
