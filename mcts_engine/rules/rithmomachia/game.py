"""Rithmomachia, the "Battle of Numbers" (GlukKazan's 2014 article and Axiom program).

Rules: the Rithmomachia rules text with the defaults of its §10 (how we read it:
docs/games.md#rithmomachia); every option of its §8.1 table and the preset
``author_compat`` (see ``options.py``).

Board: 8 files ``a``..``h`` x 16 (or 14) ranks, ``Grid(ranks, 8, ghost=3)``: bit
``row * 11 + col``; three ghost columns let a (3 files, 1 rank) leap be one shift
that never wraps.  White (the even army) sits at rank 1, Black at the far edge.

State: a dict cell -> piece, eight bitboards (per colour: rounds, triangles,
squares, pyramids), the capture counters and the side to move.  A plain piece is
the int ``value << 2 | shape`` (shape 0 = Round, 1 = Triangle, 2 = Square); a
pyramid is ``(components, alive)``: the tuple of its original component codes and
the bit mask of those still present.

Captures (§5) are resolved after every move against the post-move position, by the
capture rules of ``captures.py`` (mixed into the game and the state).  Only
targets whose relations can have changed since the mover last resolved are
examined (the "dirty" cells: cells vacated or filled since then, changed
pyramids, and the rank/file of the moved piece for eruption); a fresh position
(start or FEN) gets one whole-board pass per side.  ``full_hits`` gives the
whole-board answer, which the tests compare against the incremental one.

Notation: a move is ``from-to`` (``a3-b6``), internally ``from_bit * 256 + to_bit``.
Captures follow from the move and are never typed.  A pyramid that reaches a cell by
two patterns makes one move (the effect is the same).

FEN: ``side:W<items>:B<items>:C<wn>/<wv>/<bn>/<bv>:N<ply>`` where ``side`` is ``W`` or
``B`` (the colour to move), an item is ``cell=piece``, a piece is ``R16``, ``T9``,
``S289`` or ``P(S36+S25+T16+T9+R4+R1)`` (a lost pyramid component is prefixed by
``x``: ``P(S64+S49+T36+T25+xR16)``), and ``C`` gives the pieces and value captured
by White and by Black, ``N`` the plies played (for ``max_plies``).  ``C`` and ``N``
may be left out (zero).  A finished game carries ``:VW`` or ``:VB`` (the winner; without
it, counters past a threshold also mean the game is won).
"""
from __future__ import annotations

import re
from typing import Any

from ..base import NO_LIMIT, BadPosition, Game, IllegalMove, State
from ..fen import fen_fields, fen_side
from ..geometry import Grid, indices
from ..view import BoardView, MovePath, ViewPiece, square_view
from .captures import CaptureArithmetic, CaptureResolution
from .native import native_rules, raw_position, read_raw
from .options import (BLACK, MAX_COMPONENTS, MAX_COUNT, MAX_PYRAMIDS, MAX_VALUE, PYRAMID, SCHEMA, SHAPES, WHITE,
                      setup_cells)

Move = int  # from_bit * 256 + to_bit
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT = tuple((a * r, b * f) for r, f in ((1, 2), (2, 1)) for a in (1, -1) for b in (1, -1))
LONG = tuple((a * r, b * f) for r, f in ((1, 3), (3, 1)) for a in (1, -1) for b in (1, -1))


def piece_text(piece) -> str:
    """A piece in FEN form: ``S25`` or ``P(S36+...+xR1)``."""
    if type(piece) is tuple:
        comps, alive = piece
        return "P(" + "+".join(("" if alive >> i & 1 else "x") + SHAPES[c & 3] + str(c >> 2)
                               for i, c in enumerate(comps)) + ")"
    return SHAPES[piece & 3] + str(piece >> 2)


def piece_total(piece) -> int:
    """A plain piece's value or a pyramid's current total."""
    if type(piece) is tuple:
        comps, alive = piece
        return sum(c >> 2 for i, c in enumerate(comps) if alive >> i & 1)
    return piece >> 2


class RithmomachiaGame(CaptureArithmetic, Game):
    """Rithmomachia with its options fixed: geometry and the per-cell tables, built once."""

    name = "rithmomachia"

    def __init__(self, options: dict[str, Any], native: bool = True):
        self.use_options(SCHEMA, options)
        o = options
        self.ranks = ranks = o["board_ranks"]
        self.grid = g = Grid(ranks, 8, ghost=3)
        self.stride = g.stride
        self.cells = g.cells
        self.first = WHITE if o["first_player"] == "white" else BLACK
        self.colours = ("W", "B") if self.first == WHITE else ("B", "W")
        self.name_of = {i: g.algebraic(i) for i in indices(g.cells)}
        half = ranks // 2
        # enemy territory of White (far half) and of Black (near half)
        self.territory = (g.where(lambda r, c: r >= half), g.where(lambda r, c: r < half))
        self.linear = o["movement"] == "linear"
        self.natural_siege = o["siege"] == "natural"
        self.movement_ambush = o["ambush"] == "movement"
        self.same_piece_pairs = o["ambush_same_piece_pairs"]
        self.pairs_in_one = self.same_piece_pairs and self.movement_ambush  # one attacker can ambush
        self.blocking = o["eruption_short_range_blocking"]
        self.glorious = o["glorious"] != "off"
        self.thresholds = ((o["win_value_white"], o["win_value_black"]) if o["value_thresholds"] == "text"
                           else (o["win_value_black"], o["win_value_white"]))
        self._build_patterns()
        self._build_tables()
        self._pyramid_cache: dict = {}
        # per cell, per shape s that can reach it: (s, 1 << s, attacker cells, those reaching it
        # without a path, the others with their paths)
        self.rev_split = [None] * len(self.rev[0])
        for x in indices(self.cells):
            self.rev_split[x] = [(s, 1 << s, self.rev[s][x][0], sum(b for b, path in self.rev[s][x][1] if not path),
                                  [(b, path) for b, path in self.rev[s][x][1] if path])
                                 for s in range(3) if self.rev[s][x][0]]
        self.slots = [max(len(e) for e in self.potential[k] if e is not None) for k in range(3)]
        self._setup_capture_caches()
        white, black = setup_cells(o["setup"], ranks)
        self.start_board = {}
        for army in (white, black):
            for cell, spec in army.items():
                self.start_board[g.parse_algebraic(cell)] = self._piece_from_spec(spec)
        self.start_white = sum(1 << self.index(c) for c in white)
        self._attach_rules(native)

    def _attach_rules(self, native: bool) -> None:
        """Run this game on its native rules where the core is built (``native``: unless told not
        to): ``kernel`` is the ``RithmomachiaRules`` the search runs (``search_rules``) and the
        states' random moves and playouts call, or None (the Python rules run everything)."""
        self.kernel = native_rules(self) if native else None
        self.native = self.kernel is not None

    def __getstate__(self) -> dict:
        """Pickled without the native rules (a game outside the registry; registered games pickle
        as their name): the receiver builds its own."""
        return {k: v for k, v in self.__dict__.items() if k != "kernel"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._attach_rules(state["native"])

    def perft(self, state: "RithmomachiaState", depth: int) -> int:
        """Leaf count of the legal-move tree ``depth`` plies deep (in the native rules where they run)."""
        if self.kernel is not None:
            return self.kernel.game_perft(state.raw(), depth)
        return super().perft(state, depth)

    # --- set-up ------------------------------------------------------------------------
    def index(self, name: str) -> int:
        """Bit index of a cell name (raises KeyError-free BadPosition on a bad name)."""
        i = self.grid.parse_algebraic(name)
        if i is None:
            raise BadPosition(f"{name!r} is not a cell of the 8x{self.ranks} board")
        return i

    @staticmethod
    def _piece_from_spec(spec):
        shape, value = spec
        if shape == "P":
            comps = tuple(v << 2 | SHAPES.index(s) for s, v in value)
            return comps, (1 << len(comps)) - 1
        return value << 2 | SHAPES.index(shape)

    def _on(self, r: int, c: int) -> bool:
        return 0 <= r < self.ranks and 0 <= c < 8

    def _build_patterns(self) -> None:
        """Movement patterns per shape as (dr, dc, steps, every_step_is_a_stop) (§4, §8.2.1)."""
        if self.linear:
            upto = self.options["linear_up_to"]
            self.patterns = [[(dr, dc, n, upto) for dr, dc in ORTH + DIAG] for n in (1, 2, 3)]
        else:
            self.patterns = [[(dr, dc, 1, False) for dr, dc in DIAG],
                             [(dr, dc, 2, False) for dr, dc in ORTH] + [(dr, dc, 1, False) for dr, dc in KNIGHT],
                             [(dr, dc, 3, False) for dr, dc in ORTH] + [(dr, dc, 1, False) for dr, dc in LONG]]
        self.diag3 = [(dr, dc, 3, False) for dr, dc in DIAG] if self.options["pyramid_diagonal3"] else []
        s = self.stride
        self.shift_patterns = [[(dr * s + dc, n, e) for dr, dc, n, e in pats] for pats in self.patterns]
        self.shift_diag3 = [(dr * s + dc, n, e) for dr, dc, n, e in self.diag3]

    def _reverse(self, pats, r: int, c: int) -> tuple[int, list]:
        """Cells from which a piece moving by ``pats`` reaches (r, c), with the cells that must be empty."""
        g = self.grid
        entries, mask = [], 0
        for dr, dc, n, every in pats:
            for i in (range(1, n + 1) if every else (n,)):
                ar, ac = r - i * dr, c - i * dc
                if not self._on(ar, ac):
                    continue
                path = sum(g.mask(r - j * dr, c - j * dc) for j in range(1, i))
                entries.append((g.mask(ar, ac), path))
                mask |= g.mask(ar, ac)
        return mask, entries

    def _build_tables(self) -> None:
        g = self.grid
        n = g.stride * self.ranks
        self.rev = [[None] * n for _ in range(3)]
        self.rev_d3 = [None] * n
        self.box3 = [0] * n
        self.lines = [0] * n
        self.lineinfo: list[dict] = [None] * n
        self.orth_nb = [0] * n
        self.diag_nb = [0] * n
        self.rays = [[None] * n for _ in range(3)]
        self.custodial = [None] * n
        self.box1 = [0] * n
        self.vline: list = [None] * n
        self.vback = [0] * n
        self.reach = [[0] * n for _ in range(4)]
        self.leaps = [[0] * n for _ in range(3)]
        self.slides: list = [[None] * n for _ in range(3)]
        self.potential: list = [[None] * n for _ in range(3)]
        # per shape, the directions of the natural siege's rays (§8.2.5); custodial pairs (§8.2.6);
        # the slide directions a vacated cell can open (kept: the native rules get them too)
        self.reach_dirs = reach_dirs = ([ORTH + DIAG] * 3 if self.linear else [DIAG, ORTH, ORTH])
        pairs = [((1, 0), (-1, 0)), ((0, 1), (0, -1))]
        if self.options["custodial_diagonal"]:
            pairs += [((1, 1), (-1, -1)), ((1, -1), (-1, 1))]
        self.custodial_pairs = pairs
        self.slide_dirs = slide_dirs = ORTH + DIAG if self.linear or self.diag3 else ORTH
        for r in range(self.ranks):
            for c in range(8):
                x = g.index(r, c)
                for s in range(3):
                    self.rev[s][x] = self._reverse(self.patterns[s], r, c)
                    self.rays[s][x] = [self._ray(r, c, dr, dc, s + 1) for dr, dc in reach_dirs[s]]
                self.rev_d3[x] = self._reverse(self.diag3, r, c)
                self.box3[x] = g.where(lambda rr, cc: abs(rr - r) <= 3 and abs(cc - c) <= 3)
                info = {}
                for dr, dc in ORTH:
                    k = 1
                    while self._on(r + k * dr, c + k * dc):
                        between = sum(g.mask(r + j * dr, c + j * dc) for j in range(1, k))
                        info[g.index(r + k * dr, c + k * dc)] = (k + 1, between)
                        k += 1
                self.lineinfo[x] = info
                self.lines[x] = sum(1 << i for i in info)
                self.orth_nb[x] = sum(g.mask(r + dr, c + dc) for dr, dc in ORTH if self._on(r + dr, c + dc))
                self.diag_nb[x] = sum(g.mask(r + dr, c + dc) for dr, dc in DIAG if self._on(r + dr, c + dc))
                self.box1[x] = g.where(lambda rr, cc: max(abs(rr - r), abs(cc - c)) == 1)
                self.vline[x] = []
                for dr, dc in slide_dirs:
                    fwd = sum(g.mask(r + k * dr, c + k * dc) for k in (1, 2) if self._on(r + k * dr, c + k * dc))
                    back = sum(g.mask(r - k * dr, c - k * dc) for k in (1, 2) if self._on(r - k * dr, c - k * dc))
                    if fwd and back:
                        self.vline[x].append((fwd, back))
                self.vback[x] = sum(back for _, back in self.vline[x])
                for s in range(3):
                    self.potential[s][x] = self._potential(self.patterns[s], r, c)
                    self.reach[s][x] = sum(b for b, _ in self.potential[s][x])
                    self.leaps[s][x] = sum(b for b, path in self.potential[s][x] if not path)
                    self.slides[s][x] = [(b, path) for b, path in self.potential[s][x] if path]
                self.reach[PYRAMID][x] = (self.reach[0][x] | self.reach[1][x] | self.reach[2][x]
                                          | sum(b for b, _ in self._potential(self.diag3, r, c)))
                self.custodial[x] = [(g.mask(r + a, c + b), g.mask(r + d, c + e)) for (a, b), (d, e) in pairs
                                     if self._on(r + a, c + b) and self._on(r + d, c + e)]

    def _potential(self, pats, r: int, c: int) -> list[tuple[int, int]]:
        """(destination bit, cells that must be empty) of every pattern from (r, c) that stays on the board."""
        g = self.grid
        out = []
        for dr, dc, n, every in pats:
            for i in (range(1, n + 1) if every else (n,)):
                if all(self._on(r + j * dr, c + j * dc) for j in range(1, i + 1)):
                    out.append((g.mask(r + i * dr, c + i * dc),
                                sum(g.mask(r + j * dr, c + j * dc) for j in range(1, i))))
        return out

    def pyramid_potential(self, x: int, piece) -> list[tuple[int, int]]:
        """The pattern destinations of a pyramid on ``x`` (one entry per cell), cached per composition."""
        key = (x, piece)
        out = self._pyramid_cache.get(key)
        if out is None:
            comps, alive = piece
            shapes = 0
            for i, cc in enumerate(comps):
                if alive >> i & 1:
                    shapes |= 1 << (cc & 3)
            intact = alive == (1 << len(comps)) - 1 and bool(self.diag3)
            lists = [self.potential[s][x] for s in range(3) if shapes >> s & 1]
            if intact:
                r, c = divmod(x, self.stride)
                lists.append(self._potential(self.diag3, r, c))
            seen, out = set(), []
            for entries in lists:
                for dest, path in entries:
                    if dest not in seen:
                        seen.add(dest)
                        out.append((dest, path))
            self._pyramid_cache[key] = out
        return out

    def _ray(self, r: int, c: int, dr: int, dc: int, reach: int) -> tuple[list[int], bool]:
        """The cells (nearest first) within ``reach`` along a direction, and whether it leaves the board."""
        cells = []
        for k in range(1, reach + 1):
            if not self._on(r + k * dr, c + k * dc):
                return cells, True
            cells.append(self.grid.mask(r + k * dr, c + k * dc))
        return cells, False

    # --- contract ------------------------------------------------------------------------
    def new_state(self) -> "RithmomachiaState":
        """The start position of the chosen set-up, ``first_player`` to move."""
        return RithmomachiaState.build(self, dict(self.start_board), self.start_white, self.first,
                                       [0, 0, 0, 0], 0)

    def parse_fen(self, text: str) -> "RithmomachiaState":
        """A position from its FEN (module docstring); BadPosition names what is wrong."""
        original = text
        fields = fen_fields(text)
        side = fen_side(fields, original, ("W", "B"))
        board: dict[int, Any] = {}
        white = 0
        caps, ply, seen, winner = [0, 0, 0, 0], 0, set(), None
        for field in fields[1:]:
            if not field:
                continue
            head = field[0].upper()
            if head in seen:
                raise BadPosition(f"bad FEN {original!r}: field {head} given twice")
            seen.add(head)
            if head in ("W", "B"):
                for item in field[1:].split(","):
                    item = item.strip()
                    if not item:
                        continue
                    cell, piece = self._fen_item(item, original)
                    if cell in board:
                        raise BadPosition(f"bad FEN {original!r}: cell {self.name_of[cell]} given twice")
                    board[cell] = piece
                    if head == "W":
                        white |= 1 << cell
            elif head == "C":
                parts = field[1:].split("/")
                if len(parts) != 4 or not all(p.strip().isdigit() for p in parts):
                    raise BadPosition(f"bad FEN {original!r}: captures field {field!r} must be C<n>/<v>/<n>/<v>")
                caps = [int(p) for p in parts]
                if max(caps) > MAX_COUNT:
                    raise BadPosition(f"bad FEN {original!r}: captures field {field!r} counts past 2**60")
            elif head == "V":
                if field[1:].strip().upper() not in ("W", "B"):
                    raise BadPosition(f"bad FEN {original!r}: victory field {field!r} must be VW or VB")
                winner = WHITE if field[1:].strip().upper() == "W" else BLACK
            elif head == "N":
                if not field[1:].strip().isdigit():
                    raise BadPosition(f"bad FEN {original!r}: ply field {field!r} must be N<number>")
                ply = int(field[1:])
                if ply > MAX_COUNT:
                    raise BadPosition(f"bad FEN {original!r}: ply field {field!r} is past 2**60")
            else:
                raise BadPosition(f"bad FEN {original!r}: field {field!r} must start with W, B, C, N or V")
        if sum(type(p) is tuple for p in board.values()) > MAX_PYRAMIDS:
            raise BadPosition(f"bad FEN {original!r}: more than {MAX_PYRAMIDS} pyramids")
        state = RithmomachiaState.build(self, board, white, WHITE if side == "W" else BLACK, caps, ply)
        if winner is None:
            # counters past a threshold: the side that just moved first (it reached it on its move)
            for c in (state.side ^ 1, state.side):
                if caps[2 * c] >= self.options["win_piece_count"] or caps[2 * c + 1] >= self.thresholds[c]:
                    winner = c
                    break
        state.result = winner
        return state

    def _fen_item(self, item: str, original: str) -> tuple[int, Any]:
        cell, eq, body = item.partition("=")
        index = self.grid.parse_algebraic(cell)
        if not eq or index is None:
            raise BadPosition(f"bad FEN {original!r}: item {item!r} must be cell=piece on the 8x{self.ranks} board")
        body = body.strip()
        plain = re.fullmatch(r"([RTSrts])(\d+)", body)
        if plain:
            value = int(plain.group(2))
            if not 1 <= value <= MAX_VALUE:
                raise BadPosition(f"bad FEN {original!r}: piece {body!r} needs a value from 1 to 2**24 - 1")
            return index, value << 2 | SHAPES.index(plain.group(1).upper())
        pyramid = re.fullmatch(r"[Pp]\((.*)\)", body)
        if not pyramid:
            raise BadPosition(f"bad FEN {original!r}: piece {body!r} must be R<n>, T<n>, S<n> or P(...)")
        comps, alive = [], 0
        for k, part in enumerate(pyramid.group(1).split("+")):
            m = re.fullmatch(r"\s*([xX]?)([RTSrts])(\d+)\s*", part)
            if not m or not 1 <= int(m.group(3)) <= MAX_VALUE:
                raise BadPosition(f"bad FEN {original!r}: pyramid component {part!r} must be R<n>, T<n>, S<n> "
                                  "with n from 1 to 2**24 - 1 (x in front when lost)")
            comps.append(int(m.group(3)) << 2 | SHAPES.index(m.group(2).upper()))
            if not m.group(1):
                alive |= 1 << k
        if not alive:
            raise BadPosition(f"bad FEN {original!r}: pyramid {body!r} has no component left")
        if len(comps) > MAX_COMPONENTS:
            raise BadPosition(f"bad FEN {original!r}: pyramid {body!r} has more than {MAX_COMPONENTS} components")
        return index, (tuple(comps), alive)


class RithmomachiaState(CaptureResolution, State):
    """A Rithmomachia position: pieces, bitboards, capture counters, side to move, result."""

    __slots__ = ("game", "board", "m", "side", "ply", "caps", "result", "vac", "tgt", "att", "movable")

    @classmethod
    def build(cls, game: RithmomachiaGame, board: dict, white: int, side: int, caps: list, ply: int):
        """A fresh state (every capture relation will be checked once per side)."""
        s = object.__new__(cls)
        s.game, s.board, s.side, s.caps, s.ply = game, board, side, caps, ply
        s.movable = None
        m = [0] * 8
        for i, p in board.items():
            colour = 0 if white >> i & 1 else 1
            m[colour * 4 + (PYRAMID if type(p) is tuple else p & 3)] |= 1 << i
        s.m = m
        s.result = None
        # per colour, what changed since it last resolved captures (-1: everything)
        s.vac = [-1, -1]       # cells vacated (slides, short eruptions and sieges through them)
        s.tgt = [0, 0]         # opposing pieces that moved or lost components (new targets)
        s.att = [0, 0]         # own pyramids that lost components (new attack values)
        return s

    @property
    def to_move(self) -> int:
        """0 when the first player is to move."""
        return self.side ^ self.game.first

    def copy(self) -> "RithmomachiaState":
        s = object.__new__(RithmomachiaState)
        s.game, s.board, s.m, s.side, s.ply = self.game, dict(self.board), list(self.m), self.side, self.ply
        s.caps, s.result, s.vac, s.tgt, s.att = list(self.caps), self.result, list(self.vac), list(self.tgt), list(self.att)
        s.movable = self.movable
        return s

    def raw(self) -> tuple:
        """The position as it crosses into the native rules: one flat tuple of ints
        (``native.raw_position``: side, ply, counters, winner, then the pieces)."""
        return raw_position(self.side, self.ply, self.caps, self.result, self.board, self.occupancy(WHITE))

    def set_raw(self, raw: tuple) -> None:
        """Take the position ``raw`` describes (as the native rules hand it back after playing);
        the next capture resolution of each side is a whole-board pass."""
        self.side, self.ply, self.caps, self.result, self.board, white = read_raw(raw)
        m = [0] * 8
        for i, p in self.board.items():
            m[(0 if white >> i & 1 else 4) + (PYRAMID if type(p) is tuple else p & 3)] |= 1 << i
        self.m = m
        self.vac, self.tgt, self.att = [-1, -1], [0, 0], [0, 0]
        self.movable = None

    def key(self) -> tuple:
        """(colour to move, pieces, capture counters, winner, plies when a ply cap is set)."""
        return (self.side, tuple(sorted(self.board.items())), tuple(self.caps), self.result,
                self.ply if self.game.options["max_plies"] else 0)

    def occupancy(self, colour: int) -> int:
        """The cells of one colour's pieces."""
        m = self.m
        k = colour * 4
        return m[k] | m[k + 1] | m[k + 2] | m[k + 3]

    # --- move generation ----------------------------------------------------------------
    def _pyramid_dests(self, b: int, piece, empty: int) -> int:
        g = self.game
        comps, alive = piece
        shapes = {c & 3 for i, c in enumerate(comps) if alive >> i & 1}
        pats = [p for s in shapes for p in g.shift_patterns[s]]
        if g.diag3 and alive == (1 << len(comps)) - 1:
            pats += g.shift_diag3
        dest = 0
        x0 = 1 << b
        for d, n, every in pats:
            cur = x0
            for i in range(n):
                cur = (cur << d if d > 0 else cur >> -d) & empty
                if not cur:
                    break
                if every or i == n - 1:
                    dest |= cur
        return dest

    def _buckets(self) -> list[tuple[int, int, int]]:
        """(destinations, delta, origin) groups covering every legal move once.

        For plain pieces ``origin`` is -1 and a destination's origin is ``dest - delta``;
        a pyramid's group has its own origin.
        """
        g, m, c = self.game, self.m, self.side * 4
        empty = g.cells & ~(self.occupancy(0) | self.occupancy(1))
        out = []
        for s in range(3):
            x = m[c + s]
            if not x:
                continue
            for d, n, every in g.shift_patterns[s]:
                cur = x
                for i in range(1, n + 1):
                    cur = (cur << d if d > 0 else cur >> -d) & empty
                    if not cur:
                        break
                    if every or i == n:
                        out.append((cur, d * i, -1))
        for b in indices(m[c + 3]):
            dest = self._pyramid_dests(b, self.board[b], empty)
            if dest:
                out.append((dest, 0, b))
        return out

    def legal_moves(self) -> list[Move]:
        """Every legal move (from * 256 + to); empty when the game is over."""
        if self.outcome() is not None:
            return []
        return self._all_moves()

    def _all_moves(self) -> list[Move]:
        out = []
        for dest, delta, origin in self._buckets():
            for t in indices(dest):
                out.append((t - delta if origin < 0 else origin) * 256 + t)
        return out

    def random_move(self, rng) -> Move | None:
        """A uniformly random legal move, or None when the game is over.

        Rejection sampling: a plain piece of kind k offers ``slots[k]`` pattern slots
        (the longest pattern list of its kind), a pyramid one slot per destination of
        its patterns; one slot is drawn uniformly and kept when it names a legal move.
        Every legal move owns exactly one slot, so the draw is uniform.  After many
        misses the exact list decides (it may be empty).
        """
        if self.game.kernel is not None:
            return self.game.kernel.random_move(self.raw(), rng)
        if self.result is not None or self._ply_capped():
            return None
        return self._draw(rng.random)

    def _draw(self, rnd) -> Move | None:
        """``random_move`` of a running game, drawing with ``rnd()`` uniform in [0, 1)."""
        g, m = self.game, self.m
        c4 = self.side * 4
        occ = m[0] | m[1] | m[2] | m[3] | m[4] | m[5] | m[6] | m[7]
        s0, s1, s2 = g.slots
        w0 = m[c4].bit_count() * s0
        w1 = w0 + m[c4 + 1].bit_count() * s1
        w2 = w1 + m[c4 + 2].bit_count() * s2
        pyramids = []
        total = w2
        if m[c4 + 3]:
            cache, board = g._pyramid_cache, self.board
            for x in indices(m[c4 + 3]):
                entries = cache.get((x, board[x]))
                if entries is None:
                    entries = g.pyramid_potential(x, board[x])
                pyramids.append((x, entries))
                total += len(entries)
        if not total:
            return None
        pot = g.potential
        for _ in range(64):
            k = int(rnd() * total)
            if k >= w2:
                k -= w2
                for x, entries in pyramids:
                    if k < len(entries):
                        dest, path = entries[k]
                        if not (dest | path) & occ:
                            return x * 256 + dest.bit_length() - 1
                        break
                    k -= len(entries)
                continue
            if k < w0:
                kind, (i, slot) = 0, divmod(k, s0)
            elif k < w1:
                kind, (i, slot) = 1, divmod(k - w0, s1)
            else:
                kind, (i, slot) = 2, divmod(k - w1, s2)
            mask = m[c4 + kind]
            for _ in range(i):
                mask &= mask - 1
            x = (mask & -mask).bit_length() - 1
            entries = pot[kind][x]
            if slot < len(entries):
                dest, path = entries[slot]
                if not (dest | path) & occ:
                    return x * 256 + dest.bit_length() - 1
        moves = self._all_moves()
        return moves[int(rnd() * len(moves))] if moves else None

    def playout(self, rng, max_plies: int = NO_LIMIT) -> float | None:
        """Random moves in place to the end; the outcome, or None when cut off after ``max_plies``.

        The same random draws as ``random_move`` then ``play``, with the end tests hoisted (in
        the native rules where they run, drawing from ``rng`` just the same).
        """
        if self.game.kernel is not None:
            result, raw = self.game.kernel.playout(self.raw(), rng, max_plies)
            self.set_raw(raw)
            return result
        limit = max_plies
        cap = self.game.options["max_plies"]
        if cap:
            limit = min(limit, cap - self.ply)
        # the random_move / play loop, with random_move's end tests hoisted
        draw, play, rnd = self._draw, self.play, rng.random
        for _ in range(limit):
            if self.result is not None:
                break
            move = draw(rnd)
            if move is None:
                break
            play(move)
        return self.outcome()

    def _ply_capped(self) -> bool:
        cap = self.game.options["max_plies"]
        return bool(cap) and self.ply >= cap

    def _has_moves(self) -> bool:
        """Whether the side to move has a move: found once per position (``outcome`` and
        ``evaluate`` both ask, and a search asks both of every new position)."""
        if self.movable is None:
            self.movable = any(b[0] for b in self._buckets())
        return self.movable

    # --- playing ------------------------------------------------------------------------
    def play(self, move: Move) -> None:
        """Move one piece, resolve the captures (§5), test the end of the game (§7)."""
        f, t = move >> 8, move & 255
        board = self.board
        piece = board.pop(f)
        board[t] = piece
        c = self.side
        self.m[c * 4 + (PYRAMID if type(piece) is tuple else piece & 3)] ^= (1 << f) | (1 << t)
        self._resolve(c, f, t)
        self.side = c ^ 1
        self.ply += 1
        self.movable = None

    # --- the end ---------------------------------------------------------------------------
    def outcome(self) -> float | None:
        """None while running; else the first player's score (§7)."""
        g = self.game
        if self.result is not None:
            return 1.0 if self.result == g.first else 0.0
        if self._ply_capped():
            return 0.5
        if not self._has_moves():
            if g.options["no_moves"] == "draw":
                return 0.5
            return 0.0 if self.side == g.first else 1.0
        return None

    def winner(self) -> int | None:
        """The winning colour (0 White, 1 Black) once decided by a victory, else None."""
        return self.result

    # --- notation -------------------------------------------------------------------------
    def fen(self) -> str:
        """``side:W<items>:B<items>:C<wn>/<wv>/<bn>/<bv>:N<ply>`` (module docstring)."""
        names = self.game.name_of
        lists = []
        for colour in (WHITE, BLACK):
            occ = self.occupancy(colour)
            lists.append(",".join(f"{names[i]}={piece_text(self.board[i])}" for i in indices(occ)))
        caps = "/".join(str(v) for v in self.caps)
        victory = "" if self.result is None else ":V" + "WB"[self.result]
        return f"{'WB'[self.side]}:W{lists[0]}:B{lists[1]}:C{caps}:N{self.ply}{victory}"

    def move_str(self, move: Move) -> str:
        """``from-to``, e.g. ``a3-b6``."""
        names = self.game.name_of
        return f"{names[move >> 8]}-{names[move & 255]}"

    def parse_move(self, text: str) -> Move:
        """The legal move named ``from-to`` (``a3-b6``; ``a3b6`` is read too)."""
        body = str(text).strip().lower()
        m = re.fullmatch(r"([a-h]\d{1,2})[-x]?([a-h]\d{1,2})", body)
        g = self.game
        f = g.grid.parse_algebraic(m.group(1)) if m else None
        t = g.grid.parse_algebraic(m.group(2)) if m else None
        if f is None or t is None:
            raise IllegalMove(f"move {text!r} is not from-to on the 8x{g.ranks} board (e.g. a3-b6)")
        if self.outcome() is not None:
            raise IllegalMove(f"move {text!r}: the game is over, there is no legal move")
        move = f * 256 + t
        if move not in self._all_moves():
            if f not in self.board:
                why = "no piece stands on " + m.group(1)
            elif not self.occupancy(self.side) >> f & 1:
                why = "the piece on " + m.group(1) + " is not the mover's"
            else:
                why = "the piece cannot move there"
            raise IllegalMove(f"move {text!r} is illegal in {self.fen()} ({why})")
        return move

    # --- evaluation and display ------------------------------------------------------------
    def advancement(self, colour: int) -> float:
        """How far ``colour`` is towards a common victory: max of captured count and value over their targets."""
        g = self.game
        return max(self.caps[2 * colour] / g.options["win_piece_count"],
                   self.caps[2 * colour + 1] / g.thresholds[colour])

    def evaluate(self) -> float:
        """Material balance for the first player in [0, 1]: 0.5 + (own progress - opponent's) / 2.

        A side's progress is its captured count or value as a fraction of what a common
        victory needs (whichever is nearer), so a won position scores 1.
        """
        outcome = self.outcome()
        if outcome is not None:
            return outcome
        first = self.game.first
        diff = self.advancement(first) - self.advancement(first ^ 1)
        return min(1.0, max(0.0, 0.5 + diff / 2))

    def _after(self, move: Move) -> "RithmomachiaState":
        child = self.copy()
        child.play(move)
        return child

    def heuristic(self, move: Move) -> float:
        """One-ply gain for the mover: value it captures (a win scores 10000)."""
        c = self.side
        child = self._after(move)
        if child.result == c:
            return 10000.0
        return float(child.caps[2 * c + 1] - self.caps[2 * c + 1])

    def is_capture(self, move: Move) -> bool:
        """Whether the move takes at least one piece or component."""
        c = self.side
        return self._after(move).caps[2 * c] > self.caps[2 * c]

    def under_attack(self) -> int:
        """Cells of pieces that their opponent would take if it were to move now (pending threats)."""
        out = 0
        for c in (WHITE, BLACK):
            for x, _ in self.full_hits(c):
                out |= 1 << x
        return out

    def board_text(self) -> str:
        """The board with values, rank 16 on top; White upper case, Black lower case, ``*`` under attack."""
        g = self.game
        grid = g.grid
        attacked = self.under_attack()
        white = self.occupancy(WHITE)
        lines = []
        pyramids = []
        for r in range(grid.rows - 1, -1, -1):
            row = []
            for col in range(8):
                i = grid.index(r, col)
                piece = self.board.get(i)
                if piece is None:
                    row.append("     .")
                    continue
                if type(piece) is tuple:
                    text = f"P{piece_total(piece)}"
                    pyramids.append(f"{g.name_of[i]}={piece_text(piece)}")
                else:
                    text = piece_text(piece)
                if not white >> i & 1:
                    text = text.lower()
                row.append(f"{text + ('*' if attacked >> i & 1 else ''):>6}")
            lines.append(f"{r + 1:>2} " + "".join(row))
        lines.append("   " + "".join(f"{f:>6}" for f in "abcdefgh"))
        if pyramids:
            lines.append("pyramids: " + " ".join(pyramids))
        wn, wv, bn, bv = self.caps
        lines.append(f"captured by White: {wn} pieces, {wv} value; by Black: {bn} pieces, {bv} value")
        lines.append(f"{'White' if self.side == WHITE else 'Black'} to move; * = under attack")
        return "\n".join(lines)

    # --- drawing and clicking (view.py) -----------------------------------------------------------
    def board_view(self) -> BoardView:
        """The chequered 8x16 (or 8x14) board; each piece's shape and value, a pyramid's total
        and its components."""
        g = self.game
        white = self.occupancy(WHITE)
        kinds = ("round", "triangle", "square")
        pieces = []
        for i, piece in sorted(self.board.items()):
            owner = (WHITE if white >> i & 1 else BLACK) ^ g.first
            if type(piece) is tuple:
                parts = tuple(piece_text(piece)[2:-1].split("+"))
                pieces.append(ViewPiece(g.name_of[i], owner, "pyramid", str(piece_total(piece)), parts))
            else:
                pieces.append(ViewPiece(g.name_of[i], owner, kinds[piece & 3], str(piece >> 2)))
        return square_view(g.grid, g.name_of, pieces, shade=lambda r, c: "dark" if (r + c) % 2 == 0 else "light")

    def move_path(self, move: Move) -> MovePath:
        """From and to; the cells of the enemy pieces (or pyramid components) the move captures."""
        names = self.game.name_of
        after = self._after(move).board
        taken = tuple(names[i] for i in indices(self.occupancy(self.side ^ 1)) if after.get(i) != self.board[i])
        return MovePath((names[move >> 8], names[move & 255]), taken)

    def __repr__(self) -> str:
        return f"<rithmomachia {self.fen()}>"


def make_game(native: bool = True, **options) -> RithmomachiaGame:
    """Rithmomachia with rule options (rules file §8.1; strings or Python values); on its native
    rules where the core is built, unless ``native`` is False (the Python reference)."""
    return RithmomachiaGame(SCHEMA.parse(options), native)
