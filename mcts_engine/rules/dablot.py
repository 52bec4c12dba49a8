"""Dablot Prejjesne: the Sámi capture game with ranked pieces (King > Prince > Man).

Rules: the Dablot rules text with the defaults of its Ambiguities section (§9, the
Dagaz rules; docs/games.md#dablot-prejjesne-dablot).  In short: 72 points (a 6x7 lattice of grid points plus the
30 cell centres), 30 pieces a side (28 men, a Prince, a King); Black moves first.
Every piece steps one point along any line, or jumps an adjacent enemy piece
along a line to the empty point beyond, the captured piece leaving at once; the
same piece must go on jumping while a legal capture exists.  Rank restriction: a
man takes only men, a Prince men and the Prince, the King anything.  Capture
obligation: when some man can capture the player must capture (with any piece);
when only the King and/or the Prince can, capturing is optional.  After every
move the mover wins if the opponent has no King or only one piece left; a player
without a legal move loses.  Draws (§7, engine default): 50 plies in a row
without a capture, or 400 plies in all.

What is genuinely Dablot here: the rank-dependent prey masks, the capture
obligation that only men's captures trigger, and the King / one-piece win.

The lattice (``DablotLattice``) is a ``Grid`` of 13 rows x 11 columns at double
resolution: grid point (file f, odd rank r) is cell (r - 1, 2f), the centre (file
f, even rank r) is cell (r - 1, 2f + 1), so the points are the cells with
``row + col`` even (like the dark squares of draughts).  Diagonal lines are then
the single diagonal steps (every one of them is a line: corner - centre - corner
runs straight on), orthogonal lines are steps of two cells and exist only
between grid points.  Two ghost columns keep every step and jump one shift.

Rule options (strings accepted, as from the protocol's ``Rules`` option):

* ``compulsory``: ``dagaz`` (default: compulsory when a man can capture) or
  ``never`` (Ludii: capturing is always optional).
* ``chain``: ``compulsory`` (default: jump on while a legal capture exists) or
  ``optional`` (Ludii: the player may stop after any jump).
* ``win``: ``dagaz`` (default: the opponent has no King, or one piece left, or no
  move) or ``ludii`` (capture every piece or leave the opponent without a move;
  only the two Kings left is a draw).
* ``first``: ``B`` (default) or ``W``: the colour that moves first (player 0).
* ``no_capture_plies`` (default 50, 0 = off) and ``max_plies`` (default 400,
  0 = off): the draw counters.

Notation (dablot.md §8): points ``a1``..``f13`` (grid, odd ranks) and
``a2``..``e12`` (centres, even ranks); a step ``e6-e7``; a capture the whole path
``b3xb7``, ``a1xa5xc5`` (a short ``fromxto`` is read when only one capture fits).
Internally a move is ``(from_mask, to_mask, captured_mask, route)`` with
``route`` the tuple of landing point indices (empty for a step).

FEN: the side to move, one list per colour (``K``/``P`` before the King's and the
Prince's point), then the draw counters when they are not zero::

    B:BKf7,Pe6,a1,b1,...:WKa7,Pa8,a9,...[:H<plies without capture>][:N<plies played>]
"""
from __future__ import annotations

from .. import native
from .base import (NO_LIMIT, BadPosition, Game, IllegalMove, TurnState, count_limit, material_share, perft_walk,
                   read_move_squares, single_match)
from .fen import counters_text, fen_fields, fen_side, read_piece_lists
from .geometry import FILES, Grid, indices
from .view import BoardView, MovePath, ViewPiece, line_view, mask_names
from .options import Option, Schema

Move = tuple  # (from_mask, to_mask, captured_mask, route)

MAN, PRINCE, KING = 0, 1, 2
VALUES = {MAN: 1.0, PRINCE: 3.0, KING: 6.0}   # material weights for evaluate / heuristic
SCHEMA = Schema("dablot", (
    Option("compulsory", "choice", "dagaz", "dagaz: capture when a man can; never: capturing is optional",
           choices=("dagaz", "never")),
    Option("chain", "choice", "compulsory", "jump on while a capture exists, or stop after any jump",
           choices=("compulsory", "optional")),
    Option("win", "choice", "dagaz", "dagaz: no King or one piece loses; ludii: take every piece",
           choices=("dagaz", "ludii")),
    Option("first", "choice", "B", "the colour that moves first", choices=("B", "W")),
    Option("no_capture_plies", "int", 50, "plies in a row without a capture that draw (0 = off)", low=0),
    Option("max_plies", "int", 400, "plies that draw (0 = off)", low=0),
))


class DablotLattice:
    """The 72 points of the Dablot board and their lines, as bits of a 13x11 ``Grid``.

    ``dirs`` lists ``(delta, source)`` per direction: a step from the points of
    ``source`` along ``delta`` stays on a line (orthogonal lines start only at grid
    points).  ``jumps[i]`` lists ``(mid_mask, land_mask, land_index)`` for every
    straight jump from point ``i``.
    """

    ROWS, COLS = 13, 11

    def __init__(self):
        probe = Grid(self.ROWS, self.COLS, ghost=2)
        self.grid = g = Grid(self.ROWS, self.COLS, 2, probe.where(lambda r, c: (r + c) % 2 == 0))
        self.points = g.points
        self.corners = g.where(lambda r, c: r % 2 == 0)      # grid points (odd ranks)
        self.centres = self.points ^ self.corners
        orth = [(0, 2), (0, -2), (2, 0), (-2, 0)]
        diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        self.dirs = tuple((g.delta(dr, dc), g.line_from(dr, dc, self.corners)) for dr, dc in orth) + \
            tuple((g.delta(dr, dc), g.line_from(dr, dc)) for dr, dc in diag)
        self.jumps: dict[int, tuple] = {}
        for i in indices(self.points):
            out = []
            for d, source in self.dirs:
                mid, land = i + d, i + 2 * d
                if source >> i & 1 and 0 <= land and self.points >> land & 1 and source >> mid & 1:
                    out.append((1 << mid, 1 << land, land))
            self.jumps[i] = tuple(out)
        self.name_of = {i: self.point_name(i) for i in indices(self.points)}
        self.index_of = {name: i for i, name in self.name_of.items()}

    def point_name(self, index: int) -> str:
        """``a1`` for grid points (odd ranks), ``a2`` for centres (even ranks)."""
        r, c = self.grid.coords(index)
        return f"{FILES[c // 2]}{r + 1}"

    def parse_point(self, text: str) -> int | None:
        """Bit index of a point name, or None."""
        return self.index_of.get(text.strip().lower())


def dablot_spec(game: "DablotGame") -> dict:
    """Everything the native rules (``native.core.DablotRules``) need, as numbers: the points in
    ascending order (the native side numbers them 0..71 so), per direction of ``lattice.dirs``
    its shift among the points (one shift: checked there), its shift here and its source
    mask, the order the steps are listed in (the scan's: ``up`` then ``down``), the options and
    the material values."""
    lattice = game.lattice
    points = tuple(indices(lattice.points))
    rank = {p: i for i, p in enumerate(points)}
    dirs = []
    for d, source in lattice.dirs:
        shifts = {rank[p + d] - rank[p] for p in indices(source)}
        if len(shifts) != 1:
            raise ValueError(f"the Dablot direction {d} is not one shift among the points")
        dirs.append((shifts.pop(), d, source))
    up = [i for i, (d, _) in enumerate(lattice.dirs) if d > 0]
    order = up + [i for i, (d, _) in enumerate(lattice.dirs) if d < 0]
    return {"points": points, "dirs": tuple(dirs), "step_order": tuple(order), "man_forced": int(game.man_forced),
            "chain_optional": int(game.chain_optional), "ludii_win": int(game.ludii_win),
            "no_capture": game.no_capture, "max_plies": game.max_plies,
            "values": (VALUES[MAN], VALUES[PRINCE], VALUES[KING])}


class DablotGame(Game):
    """Dablot Prejjesne with its rule options; move generation on raw masks.

    A raw position is ``(own, opp, kings, princes)``: the pieces of the side to
    move, the opponent's, and the King and Prince squares of both sides.
    ``kernel`` is the native rules (``native.core.DablotRules``) unless ``native`` is False or
    the kernel is not built or switched off: the search then runs it through the C game
    interface (``native`` True) and the states' ``random_move``, ``playout`` and ``perft``
    call it; else everything is the Python rules.
    """

    name = "dablot"

    def __init__(self, options: dict, native: bool = True):
        self.use_options(SCHEMA, options)
        self.lattice = lat = DablotLattice()
        self.points = lat.points
        self.up = tuple((d, 2 * d, src) for d, src in lat.dirs if d > 0)
        self.down = tuple((-d, -2 * d, src) for d, src in lat.dirs if d < 0)
        self.jumps = lat.jumps
        self.ring = {i: sum(mid for mid, _, _ in js) for i, js in lat.jumps.items()}   # jumpable neighbours
        self.name_of, self.index_of = lat.name_of, lat.index_of
        self.man_forced = options["compulsory"] == "dagaz"
        self.chain_optional = options["chain"] == "optional"
        self.ludii_win = options["win"] == "ludii"
        self.no_capture = count_limit(options["no_capture_plies"])
        self.max_plies = count_limit(options["max_plies"])
        first = options["first"]
        self.colours = (first, "W" if first == "B" else "B")
        self.start = self._start()
        self._attach_kernel(native)

    def _attach_kernel(self, want: bool) -> None:
        """The native rules where they are built and wanted (``want``), else None."""
        self.kernel = native.core.DablotRules(dablot_spec(self)) if want and native.available() else None
        self.native = self.kernel is not None

    def __getstate__(self) -> dict:
        """Pickled without the native rules (a game outside the registry); rebuilt on arrival."""
        return {k: v for k, v in self.__dict__.items() if k != "kernel"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._attach_kernel(state["native"])

    def _start(self) -> tuple[int, int, int, int]:
        """(black, white, kings, princes) of dablot.md §2."""
        def bit(name: str) -> int:
            return 1 << self.lattice.parse_point(name)

        black = sum(bit(f"{f}{r}") for f in "abcdef" for r in (1, 3, 5)) + \
            sum(bit(f"{f}{r}") for f in "abcde" for r in (2, 4))
        white = sum(bit(f"{f}{r}") for f in "abcdef" for r in (9, 11, 13)) + \
            sum(bit(f"{f}{r}") for f in "abcde" for r in (10, 12))
        kings, princes = bit("f7") | bit("a7"), bit("e6") | bit("a8")
        return black | bit("f7") | bit("e6"), white | bit("a7") | bit("a8"), kings, princes

    # --- the end of the game ----------------------------------------------------------------
    def terminal(self, own: int, opp: int, kings: int) -> float | None:
        """The result for the side to move decided by material alone, else None.

        Dagaz: a side without its King or down to one piece has lost (the side to
        move is checked first: the last mover made that happen).  Ludii: a side
        without pieces has lost; the two Kings alone are a draw.
        """
        if self.ludii_win:
            if not own:
                return 0.0
            if not opp:
                return 1.0
            if own | opp == kings and own.bit_count() == opp.bit_count() == 1:
                return 0.5
            return None
        if not own & kings or own.bit_count() <= 1:
            return 0.0
        if not opp & kings or opp.bit_count() <= 1:
            return 1.0
        return None

    # --- move generation ------------------------------------------------------------------
    def scan(self, own: int, opp: int, kings: int, princes: int) -> tuple[int, int, list]:
        """One whole-board pass: ``(man_jumpers, step_count, step_buckets)``.

        ``man_jumpers`` are the men that can make a first jump (over an enemy man);
        ``step_buckets`` hold ``(targets, delta, n)``: each of the ``n`` bits ``t``
        of ``targets`` is the step from ``t`` shifted back by ``delta``.
        """
        empty = self.points ^ (own | opp)
        ranked = kings | princes
        men = own & ~ranked
        prey = opp & ~ranked
        jumpers = count = 0
        out = []
        for d, dd, src in self.up:
            a = own & src
            t = (a << d) & empty
            if t:
                n = t.bit_count()
                out.append((t, d, n))
                count += n
            t = ((a & men) << d) & prey
            if t:
                t = (t << d) & empty
                if t:
                    jumpers |= t >> dd
        for d, dd, src in self.down:
            a = own & src
            t = (a >> d) & empty
            if t:
                n = t.bit_count()
                out.append((t, -d, n))
                count += n
            t = ((a & men) >> d) & prey
            if t:
                t = (t >> d) & empty
                if t:
                    jumpers |= t << dd
        return jumpers, count, out

    def chains(self, frm_index: int, prey: int, empty: int, out: list) -> None:
        """Append every capture of the piece on ``frm_index`` that takes from ``prey``.

        ``empty`` must count the mover's own square as empty (it has left it).
        Captured pieces leave at once, so their squares become empty.
        """
        frm = 1 << frm_index
        jumps, optional = self.jumps, self.chain_optional

        def walk(i: int, prey: int, empty: int, cap: int, route: tuple) -> None:
            more = False
            for mid, land, li in jumps[i]:
                if mid & prey and land & empty:
                    more = True
                    r = route + (li,)
                    walk(li, prey ^ mid, empty | mid, cap | mid, r)
            if route and (optional or not more):
                out.append((frm, 1 << i, cap, route))

        walk(frm_index, prey, empty | frm, 0, ())

    def ranked_captures(self, own: int, opp: int, kings: int, princes: int, out: list) -> None:
        """Append the captures of the side to move's King and Prince."""
        empty = self.points ^ (own | opp)
        jumps = self.jumps
        king, prince = own & kings, own & princes
        ring = self.ring
        if king:
            i = king.bit_length() - 1
            if ring[i] & opp:
                for mid, land, _ in jumps[i]:
                    if mid & opp and land & empty:
                        self.chains(i, opp, empty, out)
                        break
        if prince:
            prey = opp & ~kings
            i = prince.bit_length() - 1
            if ring[i] & prey:
                for mid, land, _ in jumps[i]:
                    if mid & prey and land & empty:
                        self.chains(i, prey, empty, out)
                        break

    def captures(self, own: int, opp: int, kings: int, princes: int, men_jumpers: int) -> tuple[list, int]:
        """All captures: ``(moves, n_by_men)``, the men's captures first."""
        out: list = []
        if men_jumpers:
            empty = self.points ^ (own | opp)
            prey = opp & ~(kings | princes)
            for i in indices(men_jumpers):
                self.chains(i, prey, empty, out)
        n_men = len(out)
        self.ranked_captures(own, opp, kings, princes, out)
        return out, n_men

    def legal(self, own: int, opp: int, kings: int, princes: int) -> list[Move]:
        """All legal moves of a raw position (draw counters ignored)."""
        if self.terminal(own, opp, kings) is not None:
            return []
        jumpers, count, buckets = self.scan(own, opp, kings, princes)
        caps, n_men = self.captures(own, opp, kings, princes, jumpers)
        if n_men and self.man_forced:
            return caps
        for t, d, _ in buckets:
            while t:
                to = t & -t
                t ^= to
                caps.append((to >> d if d > 0 else to << -d, to, 0, ()))
        return caps

    def perft(self, state: "DablotState", depth: int) -> int:
        """Leaf count of the legal-move tree (draw counters ignored), on raw masks; the native
        rules count it where they run."""
        if self.kernel is not None:
            return self.kernel.perft(state.raw(), depth)
        return perft_walk(self.legal, self._child, (state.own, state.opp, state.kings, state.princes), depth)

    @staticmethod
    def _child(position: tuple, move: Move) -> tuple:
        """The raw position ``(own, opp, kings, princes)`` after a legal move (for perft)."""
        own, opp, kings, princes = position
        frm, to, cap, _ = move
        moved = frm ^ to          # 0 when a chain ends where it began
        kings = kings ^ moved if kings & frm else kings
        princes = princes ^ moved if princes & frm else princes
        return opp & ~cap, own ^ moved, kings & ~cap, princes & ~cap

    # --- contract ---------------------------------------------------------------------------
    def new_state(self) -> "DablotState":
        """The start position, the first colour (Black by default) to move."""
        black, white, kings, princes = self.start
        own, opp = (black, white) if self.colours[0] == "B" else (white, black)
        return DablotState(self, own, opp, kings, princes, 0)

    def parse_fen(self, text: str) -> "DablotState":
        """A position from ``side:B<points>:W<points>[:H<n>][:N<n>]`` (see the module docstring)."""
        original = text
        fields = fen_fields(text)
        side = fen_side(fields, original, ("B", "W"))
        lists, counters = read_piece_lists(fields[1:], original, tags="BW", square=self._point_mask, noun="point",
                                           board="the Dablot board", prefixes="KP", counters="HN")
        for colour, pieces in lists.items():
            for prefix, rank in (("K", "Kings"), ("P", "Princes")):
                if pieces.get(prefix, 0).bit_count() > 1:
                    raise BadPosition(f"bad FEN {original!r}: colour {colour} has two {rank}")
            if pieces.get("", 0).bit_count() > 28:
                raise BadPosition(f"bad FEN {original!r}: colour {colour} has more than 28 men")
        black, white = (sum(lists.get(c, {}).values()) for c in "BW")
        kings, princes = (lists.get("B", {}).get(p, 0) | lists.get("W", {}).get(p, 0) for p in "KP")
        own, opp = (black, white) if side == "B" else (white, black)
        for tag, value in counters.items():
            if value > NO_LIMIT:
                raise BadPosition(f"bad FEN {original!r}: counter {tag}{value} is too large (at most 2**62)")
        state = DablotState(self, own, opp, kings, princes, self.colours.index(side))
        state.quiet = counters.get("H", 0)
        state.ply = counters.get("N", 0)
        return state

    def _point_mask(self, name: str) -> int | None:
        """The single-bit mask of a point name, or None."""
        index = self.lattice.parse_point(name)
        return None if index is None else 1 << index


class DablotState(TurnState):
    """A Dablot position relative to the side to move, with the draw counters."""

    __slots__ = ("game", "own", "opp", "kings", "princes", "turn", "ply", "quiet")

    def __init__(self, game: DablotGame, own: int, opp: int, kings: int, princes: int, turn: int):
        self.game = game
        self.own, self.opp, self.kings, self.princes, self.turn = own, opp, kings, princes, turn
        self.ply = 0     # plies played (the 400-ply cap)
        self.quiet = 0   # plies since the last capture (the 50-ply rule)

    def copy(self) -> "DablotState":
        """An independent copy."""
        s = object.__new__(DablotState)
        s.game, s.own, s.opp, s.kings, s.princes = self.game, self.own, self.opp, self.kings, self.princes
        s.turn, s.ply, s.quiet = self.turn, self.ply, self.quiet
        return s

    def key(self) -> tuple:
        """(side to move, its pieces, the opponent's, Kings, Princes)."""
        return (self.turn, self.own, self.opp, self.kings, self.princes)

    def raw(self) -> tuple:
        """The position as it crosses into the native rules: (own, opp, kings, princes, turn,
        ply, quiet)."""
        return (self.own, self.opp, self.kings, self.princes, self.turn, self.ply, self.quiet)

    def set_raw(self, raw: tuple) -> None:
        """Take the position ``raw`` describes (as the native rules hand it back after playing)."""
        self.own, self.opp, self.kings, self.princes, self.turn, self.ply, self.quiet = raw

    def _drawn(self) -> bool:
        g = self.game
        return self.quiet >= g.no_capture or self.ply >= g.max_plies

    # --- moves -----------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move; empty when the game is over (won, lost or drawn)."""
        if self._drawn():
            return []
        return self.game.legal(self.own, self.opp, self.kings, self.princes)

    def random_move(self, rng) -> Move | None:
        """A uniformly random legal move, counting the steps instead of listing them; in the
        native rules where they run (the same draw from ``rng``)."""
        if self.game.kernel is not None:
            return self.game.kernel.random_move(self.raw(), rng)
        return self._pick(rng.random)

    def _pick(self, rnd) -> Move | None:
        g = self.game
        own, opp, kings, princes = self.own, self.opp, self.kings, self.princes
        if self._drawn() or g.terminal(own, opp, kings) is not None:
            return None
        jumpers, count, buckets = g.scan(own, opp, kings, princes)
        caps, n_men = g.captures(own, opp, kings, princes, jumpers)
        if n_men and g.man_forced:
            return caps[int(rnd() * len(caps))]
        k = int(rnd() * (len(caps) + count))
        if k < len(caps):
            return caps[k]
        k -= len(caps)
        for t, d, n in buckets:
            if k < n:
                for _ in range(k):
                    t &= t - 1
                to = t & -t
                return (to >> d if d > 0 else to << -d, to, 0, ())
            k -= n
        return None   # no move at all

    def playout(self, rng, max_plies: int = NO_LIMIT) -> float | None:
        """Uniformly random moves in place to the end; the outcome, or None if cut off.

        The fast path behind random playouts: the same rules and the same random
        draws as ``random_move`` then ``play``: in the native rules where they run (a
        ``random.Random`` drawn from as this loop does, or a ``native.core.Random``), else
        this loop on local ints.
        """
        g = self.game
        if g.kernel is not None:
            result, raw = g.kernel.playout(self.raw(), rng, max_plies)
            self.set_raw(raw)
            return result
        rnd = rng.random
        scan, chains, ranked, terminal = g.scan, g.chains, g.ranked_captures, g.terminal
        points, forced, no_capture, cap_plies = g.points, g.man_forced, g.no_capture, g.max_plies
        own, opp, kings, princes = self.own, self.opp, self.kings, self.princes
        turn, ply, quiet = self.turn, self.ply, self.quiet
        for _ in range(max_plies):
            if quiet >= no_capture or ply >= cap_plies or terminal(own, opp, kings) is not None:
                break
            jumpers, count, buckets = scan(own, opp, kings, princes)
            caps: list = []
            if jumpers:
                empty = points ^ (own | opp)
                prey = opp & ~(kings | princes)
                for i in indices(jumpers):
                    chains(i, prey, empty, caps)
            if caps and forced:
                ranked(own, opp, kings, princes, caps)
                frm, to, cap, _ = caps[int(rnd() * len(caps))]
            else:
                ranked(own, opp, kings, princes, caps)
                k = int(rnd() * (len(caps) + count))
                if k < len(caps):
                    frm, to, cap, _ = caps[k]
                elif count:
                    k -= len(caps)
                    for t, d, n in buckets:
                        if k < n:
                            for _ in range(k):
                                t &= t - 1
                            to = t & -t
                            break
                        k -= n
                    frm, cap = (to >> d if d > 0 else to << -d), 0
                else:
                    break
            moved = frm ^ to          # 0 when a chain ends where it began
            if kings & frm:
                kings ^= moved
            elif princes & frm:
                princes ^= moved
            if cap:
                opp, kings, princes, quiet = opp & ~cap, kings & ~cap, princes & ~cap, 0
            else:
                quiet += 1
            own, opp = opp, own ^ moved
            turn ^= 1
            ply += 1
        self.own, self.opp, self.kings, self.princes = own, opp, kings, princes
        self.turn, self.ply, self.quiet = turn, ply, quiet
        return self.outcome()

    def play(self, move: Move) -> None:
        """Apply a legal move in place and update the draw counters."""
        frm, to, cap, _ = move
        moved = frm ^ to          # 0 when a chain ends where it began
        if self.kings & frm:
            self.kings ^= moved
        elif self.princes & frm:
            self.princes ^= moved
        if cap:
            self.opp, self.kings, self.princes = self.opp & ~cap, self.kings & ~cap, self.princes & ~cap
            self.quiet = 0
        else:
            self.quiet += 1
        self.own, self.opp = self.opp, self.own ^ moved
        self.turn ^= 1
        self.ply += 1

    def outcome(self) -> float | None:
        """None while the game runs, else the first player's score (dablot.md §6-7)."""
        g = self.game
        own, opp, kings, princes = self.own, self.opp, self.kings, self.princes
        result = g.terminal(own, opp, kings)
        if result is None:
            jumpers, count, _ = g.scan(own, opp, kings, princes)
            if not (jumpers or count):
                caps: list = []
                g.ranked_captures(own, opp, kings, princes, caps)
                if not caps:
                    result = 0.0      # no legal move: the side to move loses
            if result is None:
                return 0.5 if self._drawn() else None
        return result if self.turn == 0 or result == 0.5 else 1.0 - result

    # --- notation ---------------------------------------------------------------------------
    def _colour_lists(self) -> dict[str, str]:
        names = self.game.name_of
        p = (self.own, self.opp) if self.turn == 0 else (self.opp, self.own)
        out = {}
        for player in (0, 1):
            items = []
            for i in indices(p[player]):
                prefix = "K" if self.kings >> i & 1 else "P" if self.princes >> i & 1 else ""
                items.append((prefix, names[i]))
            items.sort(key=lambda it: ({"K": 0, "P": 1, "": 2}[it[0]], int(it[1][1:]), it[1][0]))
            out[self.game.colours[player]] = ",".join(a + b for a, b in items)
        return out

    def fen(self) -> str:
        """``side:B<points>:W<points>`` (King, Prince, then men by rank and file), counters if set."""
        lists = self._colour_lists()
        return f"{self.game.colours[self.turn]}:B{lists['B']}:W{lists['W']}" + counters_text(self.quiet, self.ply)

    def move_str(self, move: Move) -> str:
        """``e6-e7`` for a step, the whole path ``a1xa5xc5`` for a capture."""
        frm, to, cap, route = move
        names = self.game.name_of
        if not cap:
            return f"{names[frm.bit_length() - 1]}-{names[to.bit_length() - 1]}"
        return "x".join([names[frm.bit_length() - 1]] + [names[i] for i in route])

    def parse_move(self, text: str) -> Move:
        """The legal move named by a step ``e6-e7`` or a capture path ``b3xb7x...``.

        A capture may be shortened to ``fromxto`` when only one legal capture
        joins those points (else AmbiguousMove lists the full paths).
        """
        notation = "in Dablot notation (e.g. e6-e7, b3xb7)"
        capture = "x" in str(text).lower()
        masks, legal = read_move_squares(self, text, square=self.game._point_mask, separators="-x:",
                                         notation=notation, where="a point of the Dablot board")
        if not capture and len(masks) != 2:
            raise IllegalMove(f"move {text!r} is not {notation}")
        frm, to = masks[0], masks[-1]
        if not capture:
            for m in legal:
                if not m[2] and m[0] == frm and m[1] == to:
                    return m
            why = " (a capture is compulsory)" if all(m[2] for m in legal) else ""
            raise IllegalMove(f"move {text!r} is illegal in {self.fen()}{why}")
        route = tuple(mask.bit_length() - 1 for mask in masks[1:])
        matches = [m for m in legal if m[2] and m[0] == frm and m[3] == route]
        if not matches and len(masks) == 2:
            matches = [m for m in legal if m[2] and m[0] == frm and m[1] == to]
        return single_match(self, text, matches)

    # --- evaluation and display -------------------------------------------------------------
    def _material(self, mask: int) -> float:
        kings, princes = self.kings & mask, self.princes & mask
        return ((mask & ~(kings | princes)).bit_count() * VALUES[MAN] + princes.bit_count() * VALUES[PRINCE]
                + kings.bit_count() * VALUES[KING])

    def evaluate(self) -> float:
        """Material by rank (man 1, Prince 3, King 6) as the first player's share, in [0, 1]."""
        return material_share(self._material(self.own), self._material(self.opp), self.turn)

    def is_capture(self, move: Move) -> bool:
        """Whether a legal move captures."""
        return move[2] != 0

    def heuristic(self, move: Move) -> float:
        """The material a legal move takes by rank; 100 when it wins on the spot."""
        cap = move[2]
        if not cap:
            return 0.0
        moved = move[0] ^ move[1]
        kings = (self.kings ^ moved if self.kings & move[0] else self.kings) & ~cap
        if self.game.terminal(self.opp & ~cap, self.own ^ moved, kings) == 0.0:
            return 100.0
        return self._material(cap)

    def board_text(self) -> str:
        """The board as in dablot.md §1: grid rows and centre rows, rank 13 at the top.

        ``B``/``W`` men, ``K``/``P`` and ``k``/``p`` the Kings and Princes of the
        player whose colour is White / Black, ``.`` an empty point.
        """
        g = self.game
        grid = g.lattice.grid
        p = (self.own, self.opp) if self.turn == 0 else (self.opp, self.own)
        white = p[g.colours.index("W")]
        lines = []
        for r in range(grid.rows - 1, -1, -1):
            cells = []
            for c in range(grid.cols):
                i = grid.index(r, c)
                if not g.points >> i & 1:
                    cells.append(" ")
                    continue
                if not (self.own | self.opp) >> i & 1:
                    cells.append(".")
                    continue
                is_white = white >> i & 1
                ch = "K" if self.kings >> i & 1 else "P" if self.princes >> i & 1 else "W" if is_white else "B"
                cells.append(ch.lower() if not is_white and ch in "KP" else ch)
            lines.append(f"{r + 1:>2} " + "   ".join(cells).rstrip())
        lines.append("   " + "       ".join("abcdef"))
        side = "Black" if g.colours[self.turn] == "B" else "White"
        lines.append(f"{side} ({'first' if self.turn == 0 else 'second'} player) to move")
        return "\n".join(lines)

    # --- drawing and clicking (view.py) ------------------------------------------------------
    def board_view(self) -> BoardView:
        """The 72-point lattice with its orthogonal and diagonal lines; men, Princes and Kings."""
        g = self.game
        p0 = self.own if self.turn == 0 else self.opp
        pieces = [ViewPiece(g.name_of[i], 0 if p0 >> i & 1 else 1,
                            "king" if self.kings >> i & 1 else "prince" if self.princes >> i & 1 else "man")
                  for i in indices(self.own | self.opp)]
        return line_view(g.lattice.grid, g.name_of, g.lattice.dirs, pieces, file_step=2, piece_size=0.5)

    def move_path(self, move: Move) -> MovePath:
        """From, then every landing point (a step: its end); the captured points."""
        frm, to, cap, route = move
        names = self.game.name_of
        points = (names[frm.bit_length() - 1],) + (tuple(names[i] for i in route) if cap
                                                    else (names[to.bit_length() - 1],))
        return MovePath(points, mask_names(names, cap))

    def __repr__(self) -> str:
        return f"<dablot {self.fen()}>"


def make_game(native: bool = True, **options) -> DablotGame:
    """Dablot with rule options (``SCHEMA``; strings accepted); raises BadOption naming a bad one.
    On the native rules where they are built, unless ``native`` is False (the Python reference)."""
    return DablotGame(SCHEMA.parse(options), native)
