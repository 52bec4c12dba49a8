"""Fanorona: the 9x5 capture-by-approach-or-withdrawal game of Madagascar.

Rules: the Fanorona rules text with the defaults of its Ambiguities section (§9;
docs/games.md#fanorona-fanorona).  In short: 9x5 points, orthogonal lines everywhere, diagonals only through the
"strong" points (file index + rank even, a1 strong); White (player 0, ranks 1-2 and
b3 d3 g3 i3) moves first, e3 starts empty.  A turn is one paika (a step to an
adjacent empty point, allowed only when no capture exists anywhere) or one capturing
move: a chain of capturing steps by one stone.  A step from P to Q in direction d
captures by approach (the point beyond Q holds an enemy) or by withdrawal (the point
behind P holds an enemy), taking that stone and the enemies directly behind it on
the line up to the first non-enemy point; a step that could do both is two moves.
Chain steps must capture, may not revisit a point of the turn (start included) and
may not repeat the previous step's direction; by default the player may stop after
any capture, so every prefix of a chain is its own move.  A player without a legal
move loses.  Draws (§7 [E]): 50 plies in a row without a capture, or ply 400.

Rule options (``make_game(**options)``, strings accepted):

* ``chain``: ``optional`` (default; every prefix is a move) or ``compulsory`` (a
  chain must go on while a capture continues it: only maximal chains are moves);
* ``first_turn_single_capture``: ``false`` (default) or ``true`` (each player's
  first turn, plies 0 and 1, captures one step only);
* ``removal``: ``immediate`` (default; a captured line leaves before the next step)
  or ``dagaz`` (Dagaz's generator: while the chain is explored only the first stone
  of each line is gone; the lines, traced on the start-of-turn board, go at the end);
* ``no_capture_plies``: draw after this many plies in a row without a capture
  (default 50; 0 = never);
* ``max_plies``: draw when this many plies have been played since the start
  (default 400; 0 = never).

Board: ``Grid(5, 9)`` with one ghost column, bit ``row * 10 + col`` (row 0 = rank 1,
col 0 = file a).  Every direction is one shift: E +1, W -1, N +10, S -10, NE +11,
SW -11, NW +9, SE -9.  The ghost column stops east-west wrap-around; a diagonal step
keeps the parity of row + col, so computing diagonal captures from the strong points
only (``STRONG``) is all the diagonal masking needed.  Which stones can capture is
found for all stones at once by shifts (``capturers``); chains are then followed
stone by stone with per-point step tables (``STEPS``), whose run tables give the
captured line with one dict lookup.  A uniformly random move lists the captures
(every chain prefix is a move) but draws a paika by counting, without a list.

Notation (§8).  A paika is ``from-to`` (``c3-d3``); a capturing move is the path of
the stone with ``(A)`` (approach) or ``(W)`` (withdrawal) after every point reached,
e.g. ``d4-d3(A)-c3(W)-d2(A)-e3(W)``.  ``parse_move`` also reads the path without the
letters when only one legal move fits it (else AmbiguousMove lists the moves).
``long_str(move)`` gives Dagaz's long form ``d4 - d3 - c3 x d2 x d1 x b3``.

Internally a move is a tuple ``(from, to, captured, *steps)``: the bit indices of the
first and last point, the mask of all captured stones, and per capturing step
``index * 2 + kind`` (kind 0 = approach, 1 = withdrawal); a paika is ``(from, to, 0)``.

FEN: the board from rank 5 down to rank 1, ranks separated by ``/``, each rank from
file a to i with ``W``/``B`` for stones and a digit for a run of empty points, then
the side to move (``w``/``b``), the plies since the last capture and the plies since
the start (both optional, default 0), e.g. the start position
``BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w 0 0``.
"""
from __future__ import annotations

import re

from .. import native
from .base import NO_LIMIT, BadPosition, Game, IllegalMove, TurnState, balance_score, count_limit, single_match
from .geometry import Grid, indices
from .view import BoardView, MovePath, ViewPiece, line_view, mask_names
from .options import Option, Schema

Move = tuple  # (from, to, captured mask, *step codes)

ROWS, COLS = 5, 9
GRID = Grid(ROWS, COLS)
STRIDE = GRID.stride  # 10
CELLS = GRID.cells
STRONG = GRID.where(lambda r, c: (r + c) % 2 == 0)
# direction k and k ^ 1 are opposite: E W N S NE SW NW SE
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1))
DELTAS = tuple(GRID.delta(dr, dc) for dr, dc in DIRECTIONS)
KINDS = "AW"
START_WHITE = GRID.row_mask(0) | GRID.row_mask(1) | sum(GRID.mask(2, c) for c in (1, 3, 6, 8))
START_BLACK = GRID.row_mask(3) | GRID.row_mask(4) | sum(GRID.mask(2, c) for c in (0, 2, 5, 7))
START_STONES = START_WHITE.bit_count() + START_BLACK.bit_count()
EVAL_SCALE = 0.5   # evaluate(): logistic slope per stone of balance at full board
START_FEN = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w 0 0"
STONES = 22  # per side at the start: no position has more

SCHEMA = Schema("fanorona", (
    Option("chain", "choice", "optional", "optional: every prefix of a chain is a move; compulsory: maximal chains",
           choices=("optional", "compulsory")),
    Option("first_turn_single_capture", "bool", False, "each player's first turn captures one step only"),
    Option("removal", "choice", "immediate", "a captured line leaves at once, or (dagaz) at the end of the turn",
           choices=("immediate", "dagaz")),
    Option("no_capture_plies", "int", 50, "plies in a row without a capture that draw (0 = off)", low=0),
    Option("max_plies", "int", 400, "plies since the start that draw (0 = off)", low=0),
))


def _has_line(index: int, k: int) -> bool:
    """Whether the board has a line from point ``index`` one step in direction ``k``."""
    r, c = GRID.coords(index)
    dr, dc = DIRECTIONS[k]
    if not (0 <= r + dr < ROWS and 0 <= c + dc < COLS):
        return False
    return k < 4 or (r + c) % 2 == 0


def _ray(index: int, k: int) -> tuple[int, ...]:
    """The single-bit masks of the points after ``index`` along direction ``k``, nearest first."""
    out = []
    while _has_line(index, k):
        index += DELTAS[k]
        out.append(1 << index)
    return tuple(out)


def _runs(ray: tuple[int, ...]) -> dict[int, int]:
    """For every set of enemy stones on ``ray`` (as a mask), the run a capture takes:
    the stones from the ray's first point up to the first point without an enemy."""
    runs = {}
    for subset in range(1 << len(ray)):
        mask = run = 0
        going = True
        for n, b in enumerate(ray):
            if subset >> n & 1:
                mask |= b
                run |= b if going else 0
            else:
                going = False
        runs[mask] = run
    return runs


def _step_table() -> list[tuple]:
    """Per point, a row ``(k, to_bit, to, a0, amask, aruns, w0, wmask, wruns)`` per line from it.

    The approach ray holds the points beyond the target ``to``, the withdrawal ray the
    points behind the start: ``a0``/``w0`` are their first points (0 if none), ``amask``/
    ``wmask`` all their points, and ``aruns[opp & amask]`` the line an approach takes
    (``_runs``), so no Python loop walks the line.
    """
    table: list[tuple] = [()] * (ROWS * STRIDE)
    for index in indices(CELLS):
        rows = []
        for k in range(8):
            if _has_line(index, k):
                to = index + DELTAS[k]
                aray, wray = _ray(to, k), _ray(index, k ^ 1)
                rows.append((k, 1 << to, to, aray[0] if aray else 0, sum(aray), _runs(aray),
                             wray[0] if wray else 0, sum(wray), _runs(wray)))
        table[index] = tuple(rows)
    return table


STEPS = _step_table()
# per point: its line neighbours, and those plus the points two steps away along a line.  A
# chain can go on from q only if a neighbour is free and one of NEAR[q] holds an enemy.
NEIGHBOURS = [sum(row[1] for row in rows) for rows in STEPS]
NEAR = [sum(row[1] | row[3] for row in rows) for rows in STEPS]
OPTIONAL, COMPULSORY, SINGLE = 0, 1, 2  # chain modes: stop anywhere, only maximal chains, one step


LINES = tuple(sum(1 << i for i in indices(CELLS) if _has_line(i, k)) for k in range(8))  # per direction k


def _native_rows() -> tuple:
    """The lines ``native/src/fanorona.c`` walks: per point, ``(k, to, approach ray, withdrawal
    ray)`` as point indices."""
    def points(ray: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(b.bit_length() - 1 for b in ray)
    return tuple(tuple((k, to, points(_ray(to, k)), points(_ray(q, k ^ 1))) for k, _, to, *_ in STEPS[q])
                 for q in range(len(STEPS)))


def fanorona_spec(mode: int = OPTIONAL, first_single: bool = False, dagaz: bool = False,
                  quiet_limit: int = NO_LIMIT, ply_limit: int = NO_LIMIT) -> dict:
    """Everything the native rules (``native.core.FanoronaRules``) need, as numbers: the board's
    lines (``_native_rows``, ``LINES``, ``DELTAS``), the rule options, the evaluation's constants."""
    return {"rows": _native_rows(), "lines": LINES, "delta": DELTAS,
            "mode": mode, "first_single": int(first_single), "dagaz": int(dagaz), "quiet_limit": quiet_limit,
            "ply_limit": ply_limit, "eval_scale": EVAL_SCALE, "start_stones": START_STONES, "max_stones": STONES}


_compiled_chains = None       # the default rules' native chains once made; False where the kernel is off


def compiled_chains():
    """The native rules' ``chains(own, opp, starters, mode)`` (immediate removal; the same moves
    in the same order as ``python_chains``, checked in every test run), or None where the native
    kernel is not built or switched off (``MCTS_ENGINE_NATIVE=0``)."""
    global _compiled_chains
    if _compiled_chains is None:
        _compiled_chains = native.core.FanoronaRules(fanorona_spec()).chains if native.available() else False
    return _compiled_chains or None


def capturers(own: int, opp: int) -> int:
    """The stones of ``own`` that have a capturing step (approach or withdrawal), all at once.

    A step in +s from P to an empty Q = P + s approaches when Q + s holds an enemy
    (Q in ``opp >> s``) and withdraws when P - s = Q - 2s does (Q in ``opp << 2s``);
    the step in -s is the mirror image.  Diagonal axes use only the strong points.
    """
    e = CELLS & ~(own | opp)
    c = (e & (opp >> 1 | opp << 2)) >> 1 | (e & (opp << 1 | opp >> 2)) << 1
    c |= (e & (opp >> 10 | opp << 20)) >> 10 | (e & (opp << 10 | opp >> 20)) << 10
    e &= STRONG
    opp &= STRONG
    c |= (e & (opp >> 11 | opp << 22)) >> 11 | (e & (opp << 11 | opp >> 22)) << 11
    c |= (e & (opp >> 9 | opp << 18)) >> 9 | (e & (opp << 9 | opp >> 18)) << 9
    return own & c


def extend(out: list, frm: int, q: int, free: int, opp: int, last: int, taken: int, path: tuple,
           mode: int) -> bool:
    """Follow every capturing step of the stone on ``q``; append the moves found to ``out``.

    ``free`` holds the empty points the stone has not visited this turn, ``last`` the
    direction of the previous step (-1 at the start), ``taken`` the stones captured
    so far, ``path`` the step codes so far.  Returns whether any capturing step exists.
    A move is recorded after a step unless the chain must go on (``COMPULSORY``).
    """
    found = False
    for k, tb, to, a0, amask, aruns, w0, wmask, wruns in STEPS[q]:
        if not tb & free or k == last:
            continue
        if a0 & opp:
            line = aruns[opp & amask]
            found = True
            cap, p, f2, o2 = taken | line, path + (to << 1,), (free ^ tb) | line, opp ^ line
            if mode == SINGLE or not (NEIGHBOURS[to] & f2 and NEAR[to] & o2
                                      and extend(out, frm, to, f2, o2, k, cap, p, mode)) or mode == OPTIONAL:
                out.append((frm, to, cap) + p)
        if w0 & opp:
            line = wruns[opp & wmask]
            found = True
            cap, p, f2, o2 = taken | line, path + ((to << 1) | 1,), (free ^ tb) | line, opp ^ line
            if mode == SINGLE or not (NEIGHBOURS[to] & f2 and NEAR[to] & o2
                                      and extend(out, frm, to, f2, o2, k, cap, p, mode)) or mode == OPTIONAL:
                out.append((frm, to, cap) + p)
    return found


def extend_dagaz(out: list, frm: int, q: int, free: int, opp: int, last: int, taken: int, path: tuple,
                 mode: int, opp0: int) -> bool:
    """``extend`` with Dagaz's removal: only each line's first stone leaves during the chain;
    the whole line, traced on the start-of-turn board ``opp0``, is captured."""
    found = False
    for k, tb, to, a0, amask, aruns, w0, wmask, wruns in STEPS[q]:
        if not tb & free or k == last:
            continue
        for kind, first, mask, runs in ((0, a0, amask, aruns), (1, w0, wmask, wruns)):
            if not first & opp:
                continue
            line = runs[opp0 & mask]
            found = True
            cap, p = taken | line, path + ((to << 1) | kind,)
            if mode == SINGLE or not extend_dagaz(out, frm, to, (free ^ tb) | first, opp ^ first, k, cap, p,
                                                  mode, opp0) or mode == OPTIONAL:
                out.append((frm, to, cap) + p)
    return found


def paika_masks(own: int, opp: int) -> tuple[int, ...]:
    """Per direction k (``DIRECTIONS`` order), the stones of ``own`` that can step that way."""
    e = CELLS & ~(own | opp)
    es = e & STRONG
    os_ = own & STRONG
    return (own & (e >> 1), own & (e << 1), own & (e >> 10), own & (e << 10),
            os_ & (es >> 11), os_ & (es << 11), os_ & (es >> 9), os_ & (es << 9))


class FanoronaGame(Game):
    """Fanorona with its rule options fixed (see the module docstring).

    ``kernel`` is the native rules (``native.core.FanoronaRules``, every option compiled) unless
    ``native`` is False or the kernel is not built or switched off: the search then runs it
    through the C game interface (``native`` True), and the states' fast paths (``random_move``,
    ``playout``, ``perft``, the capture chains) call it; else everything is the Python rules.
    """

    name = "fanorona"
    colours = ("W", "B")

    def __init__(self, options: dict, native: bool = True):
        self.use_options(SCHEMA, options)
        self.mode = OPTIONAL if options["chain"] == "optional" else COMPULSORY
        self.first_turn_single = options["first_turn_single_capture"]
        self.dagaz = options["removal"] == "dagaz"
        self.quiet_limit = count_limit(options["no_capture_plies"])
        self.ply_limit = count_limit(options["max_plies"])
        self.grid = GRID
        self.name_of = {i: GRID.algebraic(i) for i in indices(CELLS)}
        self._attach_kernel(native)

    def _attach_kernel(self, want: bool) -> None:
        """The native rules where they are built and wanted (``want``), else None: ``kernel``,
        ``native`` and ``compiled`` (the native ``chains``, or None for the Python chains)."""
        self.kernel = native.core.FanoronaRules(fanorona_spec(
            self.mode, self.first_turn_single, self.dagaz, self.quiet_limit, self.ply_limit)) \
            if want and native.available() else None
        self.native = self.kernel is not None
        self.compiled = self.kernel.chains if self.kernel is not None else None

    def __getstate__(self) -> dict:
        """Pickled without the native rules (a game outside the registry); rebuilt on arrival."""
        return {k: v for k, v in self.__dict__.items() if k not in ("kernel", "compiled")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._attach_kernel(state["native"])

    # --- contract -------------------------------------------------------------------
    def new_state(self) -> "FanoronaState":
        """The start position, White to move."""
        return FanoronaState(self, START_WHITE, START_BLACK, 0, 0, 0)

    def parse_fen(self, text: str) -> "FanoronaState":
        """A position from its FEN (see the module docstring); BadPosition names what is wrong."""
        original = text
        fields = str(text).strip().strip('"').split()
        if not 2 <= len(fields) <= 4:
            raise BadPosition(f"bad FEN {original!r}: expected '<rank5>/.../<rank1> <w|b> [quiet plies] [ply]'")
        ranks = fields[0].split("/")
        if len(ranks) != ROWS:
            raise BadPosition(f"bad FEN {original!r}: {len(ranks)} ranks, Fanorona has {ROWS} (5 down to 1, "
                              f"separated by '/')")
        white = black = 0
        for n, rank in enumerate(ranks):
            row, col = ROWS - 1 - n, 0
            for ch in rank:
                if ch.isdigit() and ch != "0":
                    col += int(ch)
                elif ch.upper() in "WB" and col < COLS:
                    if ch.upper() == "W":
                        white |= GRID.mask(row, col)
                    else:
                        black |= GRID.mask(row, col)
                    col += 1
                elif ch.upper() not in "WB":
                    raise BadPosition(f"bad FEN {original!r}: {ch!r} in rank {row + 1} is not W, B or a digit 1-9")
                else:
                    col += 1
            if col != COLS:
                raise BadPosition(f"bad FEN {original!r}: rank {row + 1} ({rank!r}) has {col} points, not {COLS}")
        side = fields[1].lower()
        if side not in ("w", "b"):
            raise BadPosition(f"bad FEN {original!r}: side to move {fields[1]!r} is not w or b")
        for colour, mask in (("White", white), ("Black", black)):
            if mask.bit_count() > STONES:
                raise BadPosition(f"bad FEN {original!r}: {colour} has {mask.bit_count()} stones, at most {STONES}")
        counters = []
        for field, what in zip(fields[2:], ("plies since the last capture", "ply")):
            if not field.isdigit():
                raise BadPosition(f"bad FEN {original!r}: {what} {field!r} is not a whole number")
            if int(field) > NO_LIMIT:
                raise BadPosition(f"bad FEN {original!r}: {what} {field} is too large (at most 2**62)")
            counters.append(int(field))
        quiet, ply = (counters + [0, 0])[:2]
        turn = 0 if side == "w" else 1
        own, opp = (white, black) if turn == 0 else (black, white)
        return FanoronaState(self, own, opp, turn, ply, quiet)

    # --- move generation on raw masks ------------------------------------------------------
    def chains(self, own: int, opp: int, starters: int, ply: int) -> list[Move]:
        """Every capturing move of the stones in ``starters`` (each must have a capture) at ``ply``.

        A move is listed when the chain may stop there: after every capture when
        chains are optional, only where no capture continues it when compulsory; on
        a first turn with ``first_turn_single_capture`` chains are one step long.
        """
        mode = SINGLE if self.first_turn_single and ply < 2 else self.mode
        if self.compiled is not None:
            return self.compiled(own, opp, starters, mode)
        return self.python_chains(own, opp, starters, mode)

    def python_chains(self, own: int, opp: int, starters: int, mode: int) -> list[Move]:
        """``chains`` on the Python rules, in chain ``mode``: the reference of the compiled one."""
        out: list[Move] = []
        free = CELLS & ~(own | opp)
        while starters:
            bit = starters & -starters
            starters ^= bit
            frm = bit.bit_length() - 1
            if self.dagaz:
                extend_dagaz(out, frm, frm, free, opp, -1, 0, (), mode, opp)
            else:
                extend(out, frm, frm, free, opp, -1, 0, (), mode)
        return out

    def legal(self, own: int, opp: int, ply: int) -> list[Move]:
        """All legal moves of a raw position (draw rules ignored): captures if any, else paikas."""
        starters = capturers(own, opp)
        if starters:
            return self.chains(own, opp, starters, ply)
        out = []
        for k, mask in enumerate(paika_masks(own, opp)):
            d = DELTAS[k]
            while mask:
                bit = mask & -mask
                mask ^= bit
                frm = bit.bit_length() - 1
                out.append((frm, frm + d, 0))
        return out

    def pick(self, own: int, opp: int, ply: int, rnd) -> Move | None:
        """A uniformly random legal move of a raw position (draw rules ignored), or None.

        Captures are listed; paikas are drawn by counting the stones per direction,
        using one ``rnd()`` either way.
        """
        starters = capturers(own, opp)
        if starters:
            moves = self.chains(own, opp, starters, ply)
            return moves[int(rnd() * len(moves))]
        masks = paika_masks(own, opp)
        counts = list(map(int.bit_count, masks))
        total = sum(counts)
        if not total:
            return None
        k = int(rnd() * total)
        for d, mask, n in zip(DELTAS, masks, counts):
            if k < n:
                for _ in range(k):
                    mask &= mask - 1
                frm = (mask & -mask).bit_length() - 1
                return (frm, frm + d, 0)
            k -= n
        raise AssertionError("unreachable")

    def perft(self, state: "FanoronaState", depth: int) -> int:
        """Leaf count of the legal-move tree on raw masks (draw rules ignored); the native
        rules count it where they run."""
        if self.kernel is not None:
            return self.kernel.perft(state.raw(), depth)
        return self._perft(state.own, state.opp, state.ply, depth)

    def _perft(self, own: int, opp: int, ply: int, depth: int) -> int:
        if depth <= 0:
            return 1
        starters = capturers(own, opp)
        if starters:
            moves = self.chains(own, opp, starters, ply)
            if depth == 1:
                return len(moves)
            return sum(self._perft(opp & ~m[2], own ^ (1 << m[0]) ^ (1 << m[1]), ply + 1, depth - 1)
                       for m in moves)
        masks = paika_masks(own, opp)
        if depth == 1:
            return sum(m.bit_count() for m in masks)
        total = 0
        for k, mask in enumerate(masks):
            d = DELTAS[k]
            while mask:
                bit = mask & -mask
                mask ^= bit
                total += self._perft(opp, own ^ bit ^ (bit << d if d > 0 else bit >> -d), ply + 1, depth - 1)
        return total


class FanoronaState(TurnState):
    """A Fanorona position: the mover's and the other side's stones, and the draw counters."""

    compulsory_captures = True

    __slots__ = ("game", "own", "opp", "turn", "ply", "quiet")

    def __init__(self, game: FanoronaGame, own: int, opp: int, turn: int, ply: int, quiet: int):
        self.game = game
        self.own, self.opp, self.turn = own, opp, turn
        self.ply = ply        # plies since the start of the game (FEN field 4)
        self.quiet = quiet    # plies in a row without a capture (FEN field 3)

    @property
    def white(self) -> int:
        """White's stones."""
        return self.own if self.turn == 0 else self.opp

    @property
    def black(self) -> int:
        """Black's stones."""
        return self.opp if self.turn == 0 else self.own

    def copy(self) -> "FanoronaState":
        """An independent copy."""
        s = object.__new__(FanoronaState)
        s.game, s.own, s.opp, s.turn, s.ply, s.quiet = self.game, self.own, self.opp, self.turn, self.ply, self.quiet
        return s

    def key(self) -> tuple:
        """(side to move, its stones, the other side's stones)."""
        return (self.turn, self.own, self.opp)

    def raw(self) -> tuple:
        """The position as it crosses into the native rules: (own, opp, turn, ply, quiet)."""
        return (self.own, self.opp, self.turn, self.ply, self.quiet)

    def set_raw(self, raw: tuple) -> None:
        """Take the position ``raw`` describes (as the native rules hand it back after playing)."""
        self.own, self.opp, self.turn, self.ply, self.quiet = raw

    def _drawn(self) -> bool:
        g = self.game
        return self.quiet >= g.quiet_limit or self.ply >= g.ply_limit

    # --- moves ---------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Captures if any, else paikas; empty when the game is over (including a draw)."""
        if self._drawn():
            return []
        return self.game.legal(self.own, self.opp, self.ply)

    def random_move(self, rng) -> Move | None:
        """A uniformly random legal move (paikas drawn by counting, not listed), or None; in the
        native rules where they run (the same draw from ``rng``)."""
        if self.game.kernel is not None:
            return self.game.kernel.random_move(self.raw(), rng)
        if self._drawn():
            return None
        return self.game.pick(self.own, self.opp, self.ply, rng.random)

    def play(self, move: Move) -> None:
        """Apply a legal move in place and update the draw counters."""
        frm, to, cap = move[0], move[1], move[2]
        self.own, self.opp = self.opp & ~cap, self.own ^ (1 << frm) ^ (1 << to)
        self.turn ^= 1
        self.ply += 1
        self.quiet = 0 if cap else self.quiet + 1

    def playout(self, rng, max_plies: int = NO_LIMIT) -> float | None:
        """Uniformly random moves in place to the end; the outcome, or None if cut off.

        The same rules and random draws as ``random_move`` then ``play``: in the native rules
        where they run (a ``random.Random`` drawn from as this loop does, one draw a ply, or a
        ``native.core.Random``), else this loop.
        """
        g = self.game
        if g.kernel is not None:
            result, raw = g.kernel.playout(self.raw(), rng, max_plies)
            self.set_raw(raw)
            return result
        pick, rnd, quiet_limit, ply_limit = g.pick, rng.random, g.quiet_limit, g.ply_limit
        own, opp, turn, ply, quiet = self.own, self.opp, self.turn, self.ply, self.quiet
        for _ in range(max_plies):
            if quiet >= quiet_limit or ply >= ply_limit:
                break
            move = pick(own, opp, ply, rnd)
            if move is None:
                break
            cap = move[2]
            own, opp = opp & ~cap, own ^ (1 << move[0]) ^ (1 << move[1])
            turn ^= 1
            ply += 1
            quiet = 0 if cap else quiet + 1
        self.own, self.opp, self.turn, self.ply, self.quiet = own, opp, turn, ply, quiet
        return self.outcome()

    def outcome(self) -> float | None:
        """None while the game runs; else White's score: the side without a move loses, then draws."""
        own, opp = self.own, self.opp
        if not capturers(own, opp) and not any(paika_masks(own, opp)):
            return 0.0 if self.turn == 0 else 1.0
        return 0.5 if self._drawn() else None

    # --- notation ---------------------------------------------------------------------------
    def fen(self) -> str:
        """Ranks 5..1 with ``W``/``B``/digits, side, plies since the last capture, ply."""
        white, black = self.white, self.black
        ranks = []
        for row in range(ROWS - 1, -1, -1):
            text, run = "", 0
            for col in range(COLS):
                bit = GRID.mask(row, col)
                ch = "W" if white & bit else "B" if black & bit else ""
                if ch:
                    text += (str(run) if run else "") + ch
                    run = 0
                else:
                    run += 1
            ranks.append(text + (str(run) if run else ""))
        return f"{'/'.join(ranks)} {'wb'[self.turn]} {self.quiet} {self.ply}"

    def move_str(self, move: Move) -> str:
        """``c3-d3`` for a paika, ``d4-d3(A)-c3(W)`` for a capturing move."""
        names = self.game.name_of
        if len(move) == 3:
            return f"{names[move[0]]}-{names[move[1]]}"
        return names[move[0]] + "".join(f"-{names[c >> 1]}({KINDS[c & 1]})" for c in move[3:])

    def steps_of(self, move: Move) -> list[tuple[int, int, int]]:
        """Per step of a legal move: (from index, to index, mask of the stones it captures)."""
        if len(move) == 3:
            return [(move[0], move[1], 0)]
        out, q, opp, opp0 = [], move[0], self.opp, self.opp
        for c in move[3:]:
            to, kind = c >> 1, c & 1
            row = next(r for r in STEPS[q] if r[2] == to)
            first, mask, runs = row[3 + 3 * kind: 6 + 3 * kind]
            line = runs[(opp0 if self.game.dagaz else opp) & mask]
            opp &= ~(first if self.game.dagaz else line)
            out.append((q, to, line))
            q = to
        return out

    def long_str(self, move: Move) -> str:
        """Dagaz's long form: the path joined by `` - ``, then each captured stone after `` x ``."""
        names = self.game.name_of
        steps = self.steps_of(move)
        path = " - ".join([names[move[0]]] + [names[to] for _, to, _ in steps])
        taken = []
        for q, to, line in steps:
            taken += sorted(indices(line), key=lambda i: abs(i - q))
        return path + "".join(f" x {names[i]}" for i in taken)

    def parse_move(self, text: str) -> Move:
        """The legal move named by ``text``: the full notation, or the path without (A)/(W)
        when exactly one legal move has it (AmbiguousMove lists them otherwise)."""
        body = str(text).strip().lower()
        parts = body.split("-")
        points, kinds = [], []
        for part in parts:
            m = re.fullmatch(r"([a-i][1-5])(?:\(([aw])\))?", part)
            if not m:
                raise IllegalMove(f"move {text!r} is not Fanorona notation (e.g. c3-d3, d4-d3(A)-c3(W))")
            points.append(self.game.grid.parse_algebraic(m.group(1)))
            kinds.append(m.group(2))
        if len(points) < 2 or kinds[0] is not None:
            raise IllegalMove(f"move {text!r} is not Fanorona notation (e.g. c3-d3, d4-d3(A)-c3(W))")
        legal = self.legal_moves()
        if not legal:
            raise IllegalMove(f"move {text!r}: the game is over, there is no legal move")
        matches = []
        for move in legal:
            if len(move) == 3:
                if len(points) == 2 and kinds[1] is None and move[:2] == (points[0], points[1]):
                    matches.append(move)
                continue
            if move[0] != points[0] or len(move) - 3 != len(points) - 1:
                continue
            if all(c >> 1 == p and (k is None or KINDS[c & 1].lower() == k)
                   for c, p, k in zip(move[3:], points[1:], kinds[1:])):
                matches.append(move)
        why = " (a capture is compulsory)" if len(legal[0]) > 3 else ""
        return single_match(self, text, matches, why)

    # --- evaluation and display ----------------------------------------------------------------
    def evaluate(self) -> float:
        """White's winning chance in [0, 1] from the stone balance (``balance_score``: a
        logistic that grows steeper as the board empties; 0.5 on an empty board)."""
        white, black = self.white.bit_count(), self.black.bit_count()
        return balance_score(white - black, white + black, START_STONES, EVAL_SCALE)

    def heuristic(self, move: Move) -> float:
        """Stones a legal move captures (0 for a paika)."""
        return float(move[2].bit_count())

    def is_capture(self, move: Move) -> bool:
        """Whether a legal move captures (every non-paika does)."""
        return move[2] != 0

    def board_text(self) -> str:
        """The board with its lines, rank 5 on top: ``W``/``B`` stones, ``.`` empty."""
        white, black = self.white, self.black
        lines = []
        for row in range(ROWS - 1, -1, -1):
            cells = ["W" if white >> GRID.index(row, c) & 1 else "B" if black >> GRID.index(row, c) & 1 else "."
                     for c in range(COLS)]
            lines.append(f"{row + 1}  " + "---".join(cells))
            if row:
                links = ["\\" if (row + c) % 2 == 0 else "/" for c in range(COLS - 1)]
                lines.append("   " + "".join(f"| {x} " for x in links) + "|")
        lines.append("   " + "   ".join("abcdefghi"))
        side = "White" if self.turn == 0 else "Black"
        lines.append(f"{side} to move, {self.quiet} plies without capture, ply {self.ply}")
        return "\n".join(lines)

    # --- drawing and clicking (view.py) -------------------------------------------------------
    def board_view(self) -> BoardView:
        """The 9x5 points, orthogonal lines everywhere and diagonals through the strong points."""
        names = self.game.name_of
        white = self.white
        pieces = [ViewPiece(names[i], 0 if white >> i & 1 else 1, "stone") for i in indices(self.own | self.opp)]
        steps = [(DELTAS[k], sum(1 << i for i in indices(CELLS) if _has_line(i, k))) for k in range(8)]
        return line_view(GRID, names, steps, pieces)

    def move_path(self, move: Move) -> MovePath:
        """The stone's path (start, then every point reached); the stones it captures.  An
        approach and a withdrawal along the same path differ only in the captured stones."""
        names = self.game.name_of
        points = (names[move[0]],) + tuple(names[to] for _, to, _ in self.steps_of(move))
        return MovePath(points, mask_names(names, move[2]))

    def __repr__(self) -> str:
        return f"<fanorona {self.fen()}>"


def make_game(native: bool = True, **options) -> FanoronaGame:
    """Fanorona with rule options (``SCHEMA``, see the module docstring); BadOption names a bad one.
    On the native rules where they are built, unless ``native`` is False (the Python reference)."""
    return FanoronaGame(SCHEMA.parse(options), native)
