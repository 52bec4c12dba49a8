"""One table-driven engine for the whole draughts family.

Every variant is a row of the parameters of ``../shared/rules/draughts.md`` §2-3
(``Variant`` and the table ``VARIANTS`` in ``draughts_variants.py``); ``DraughtsGame``
compiles a row into direction and mask tables once, and the same move generator
serves all rows.

Internal frame: the board is seen from the first player's side.  Row 0 is the
first player's back rank, so player 0's men move up (+stride) and player 1's
men move down.  PDN square numbers and algebraic names are given "as seen by
the first player" (the PDN GameType convention), so no variant needs a flip.

A state keeps the pieces relative to the side to move (``own``, ``opp``) plus the
``kings`` mask and ``turn``; ``play`` swaps ``own`` and ``opp``.  A move is the
tuple ``(from_mask, to_mask, captured_mask, crowned)``: exactly the FMJD
identity of a move (same start, end, captured set and resulting kind), so
capture routes that differ only in order collapse into one move by construction.
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Callable

from .base import (NO_LIMIT, BadPosition, Game, TurnState, balance_score, count_limit, is_subsequence, perft_walk,
                   read_move_squares, single_match)
from .draughts_variants import ENDGAME_COUNTS, ENDGAME_FLOOR, ENDGAME_MAX_PIECES, Variant, schema, variant_with_options
from .fen import fen_fields, fen_side, read_piece_lists
from .geometry import Grid, indices
from .view import BoardView, MovePath, ViewPiece, mask_names, square_view

Move = tuple  # (from_mask, to_mask, captured_mask, crowned)


# Frisian: a king is worth more than one man but less than two (pydraughts: 1.501).
_MAN_VALUE, _KING_VALUE = 1000, 1501


EVAL_SCALE = 0.5     # evaluate(): logistic slope per man of balance at full board
EVAL_ADVANCE = 0.1   # evaluate(): the extra worth of a man in the opponent's half
PROGRESS_DISTANCE = 0.5      # progress(): weight of the strong kings' distance to the weak pieces


class DraughtsGame(Game):
    """A compiled variant: geometry, direction tables and notation for one rule row."""

    def __init__(self, variant: Variant):
        v = self.variant = variant
        self.name = v.name
        self.use_options(schema(v.name), asdict(v))
        n = v.size
        grid_ghost = 2 if v.lines == "both" and v.squares == "dark" else 1
        playable = (lambda r, c: (r + c) % 2 == (1 if v.invert else 0)) if v.squares == "dark" else (lambda r, c: True)
        probe = Grid(n, n, grid_ghost)
        self.grid = grid = Grid(n, n, grid_ghost, probe.where(playable))
        self.points = grid.points
        S = grid.stride
        diag = (S + 1, S - 1, -S + 1, -S - 1)
        orth_unit = 2 if v.squares == "dark" else 1  # on dark boards an orthogonal neighbour is 2 cells away
        orth = (S * orth_unit, -S * orth_unit, orth_unit, -orth_unit)
        fwd = (S, -S)

        def man_dirs(kind: str, p: int) -> tuple[int, ...]:
            f = fwd[p]
            return {"fwd-diag": (f + 1, f - 1), "fwd": (f + 1, f - 1), "all-diag": diag,
                    "fwd+side": (f, 1, -1), "all-8": diag + orth}[kind]

        self.man_step = [man_dirs(v.man_steps, p) for p in (0, 1)]
        self.man_jump = [man_dirs(v.man_jumps, p) for p in (0, 1)]
        self.king_step = orth if v.lines == "orthogonal" else diag
        self.king_jump = {"diagonal": diag, "orthogonal": orth, "both": diag + orth}[v.lines]
        self.king_step_up = tuple(d for d in self.king_step if d > 0)     # as shift amounts
        self.king_step_down = tuple(-d for d in self.king_step if d < 0)
        self.flying = v.king_range == "flying"
        self.king_value = 3.0 if self.flying else 1.5   # material weight of a king (evaluate)
        self.man_takes_king = v.man_takes_king
        self.king_reverse = v.king_reverse
        self.immediate = v.removal == "immediate"
        self.promotion = v.promotion
        self.king_landing = v.king_landing
        self.killer = v.king_landing == "killer"
        self._setup_scan_plan()
        self.man_jump_table = [self._jump_table(ds) for ds in self.man_jump]
        self.king_jump_table = self._jump_table(self.king_jump)
        self.promo = (grid.row_mask(n - 1), grid.row_mask(0))
        half = n // 2     # evaluate(): each player's men in the opponent's half count a little more
        self.far_half = (sum(grid.row_mask(r) for r in range(n - half, n)),
                         sum(grid.row_mask(r) for r in range(half)))
        self.men_sideways = v.man_steps == "fwd+side"
        self.repetition = v.repetition
        self.no_progress = count_limit(v.no_progress)
        self.quiet_on_man_move = v.progress == "capture"   # does a man move leave the counter running?
        self.king_move_limit = v.king_move_limit
        self.extra_rules = bool(v.king_move_limit) or v.endgame != "none"
        self.endgame_counts = ENDGAME_COUNTS[v.endgame]
        self.endgame_max = ENDGAME_MAX_PIECES.get(v.endgame, 0)
        self.endgame_floor = ENDGAME_FLOOR.get(v.endgame, 0)
        self.long_diagonal = sum(grid.mask(i, i) for i in range(n)) & self.points if n == 8 else 0
        self.crown_wins = v.goal == "crown"
        # the first player's score when the side to move (index) has no move
        self.stuck_score = (1.0, 0.0) if v.goal == "lose" else (0.0, 1.0)
        self.endgame_tables = v.goal == "block" and not v.king_move_limit
        self._setup_names()
        self._setup_start()

    def _setup_scan_plan(self) -> None:
        """Direction plans for ``scan``, per player and per "kings on the board / frozen king" case.

        Along each short direction, ``who`` says which pieces step and which jump
        (1 = men, 2 = short kings, 3 = both).  Where the same pieces do both, one
        shift serves the step targets and the jump test ("shared" entries).
        """
        MEN, KINGS = 1, 2
        short_kings = not self.flying
        kings_jump_men_prey = short_kings and self.man_takes_king
        self.plans = []
        for p in (0, 1):
            cases = []
            for case in ("men only", "kings", "frozen king"):
                step_who: dict[int, int] = {}
                jump_who: dict[int, int] = {}
                for d in self.man_step[p]:
                    step_who[d] = step_who.get(d, 0) | MEN
                for d in self.man_jump[p]:
                    jump_who[d] = jump_who.get(d, 0) | MEN
                if case != "men only":
                    if short_kings:
                        for d in self.king_step:
                            step_who[d] = step_who.get(d, 0) | KINGS
                    if kings_jump_men_prey:
                        for d in self.king_jump:
                            jump_who[d] = jump_who.get(d, 0) | KINGS
                shared_up, shared_down, split_up, split_down = [], [], [], []
                for d in sorted(set(step_who) | set(jump_who), reverse=True):
                    st, ju = step_who.get(d, 0), jump_who.get(d, 0)
                    if st == ju and case != "frozen king":
                        (shared_up if d > 0 else shared_down).append((abs(d), 2 * abs(d), st))
                    else:
                        (split_up if d > 0 else split_down).append((abs(d), 2 * abs(d), st, ju))
                cases.append((tuple(shared_up), tuple(shared_down), tuple(split_up), tuple(split_down)))
            self.plans.append(cases)
        # short kings that may take kings where men may not (Italian): their own jump test
        self.king_only_jumps = (tuple((d, 2 * d) for d in self.king_jump if d > 0),
                                tuple((-d, -2 * d) for d in self.king_jump if d < 0)) \
            if short_kings and not self.man_takes_king else None

    def _jump_table(self, dirs: tuple[int, ...]) -> dict[int, tuple]:
        """For each square mask, the short jumps from it: ``(delta, jumped square, landing square)``."""
        table = {}
        for i in indices(self.points):
            sq = 1 << i
            jumps = []
            for d in dirs:
                mid = sq << d if d > 0 else sq >> -d
                land = mid << d if d > 0 else mid >> -d
                if mid & self.points and land & self.points:
                    jumps.append((d, mid, land))
            table[sq] = tuple(jumps)
        return table

    # --- notation ------------------------------------------------------------
    def _setup_names(self) -> None:
        grid, v = self.grid, self.variant
        self.name_of: dict[int, str] = {}
        if v.notation == "algebraic":
            for i in indices(grid.points):
                self.name_of[i] = grid.algebraic(i)
        else:
            top_down = v.corner.startswith("top")
            left_to_right = v.corner.endswith("left")
            for number, i in enumerate(grid.numbering(top_down, left_to_right), 1):
                self.name_of[i] = str(number)
        self.index_of = {name: i for i, name in self.name_of.items()}
        self.colours = (v.first, "B" if v.first == "W" else "W")

    def square_name(self, mask: int) -> str:
        """The notation name of a single-bit square mask."""
        return self.name_of[mask.bit_length() - 1]

    def parse_square(self, text: str) -> int | None:
        """Mask of a square given by name, or None."""
        i = self.index_of.get(text.strip().lower())
        return None if i is None else 1 << i

    def _setup_start(self) -> None:
        v, grid, n = self.variant, self.grid, self.variant.size
        first_row = 1 if v.skip_back_row else 0
        rows0 = range(first_row, first_row + v.men_rows)
        self.start = (sum(grid.row_mask(r) for r in rows0),
                      sum(grid.row_mask(n - 1 - r) for r in rows0))
        self.start_pieces = self.start[0].bit_count() + self.start[1].bit_count()

    # --- contract --------------------------------------------------------------
    def new_state(self) -> "DraughtsState":
        """The variant's start position, first player to move."""
        return DraughtsState(self, self.start[0], self.start[1], 0, 0)

    def parse_fen(self, text: str) -> "DraughtsState":
        """Read a PDN FEN ``T:W<list>:B<list>`` (K marks kings; numeric ranges like 31-50 allowed)."""
        original = text
        text = str(text).strip().strip('"').strip()
        fields = fen_fields(text[:-1] if text.endswith(".") else text)
        side = fen_side(fields, original, ("W", "B"))
        lists, _ = read_piece_lists(fields[1:], original, tags="WB", square=self.parse_square, noun="square",
                                    board=self.name, prefixes="K", ranges=self.variant.notation == "numeric")
        men = [lists.get(colour, {}).get("", 0) for colour in self.colours]
        kings = [lists.get(colour, {}).get("K", 0) for colour in self.colours]
        for p in (0, 1):
            crowning = men[p] & self.promo[p]
            if crowning:
                raise BadPosition(f"bad FEN {original!r}: {self.colours[p]} man on "
                                  f"{self.square_name(crowning & -crowning)} stands on its crowning row")
        turn = self.colours.index(side)
        p0, p1 = men[0] | kings[0], men[1] | kings[1]
        own, opp = (p0, p1) if turn == 0 else (p1, p0)
        return DraughtsState(self, own, opp, kings[0] | kings[1], turn)

    def perft(self, state: "DraughtsState", depth: int) -> int:
        """Leaf count of the legal-move tree (draw rules ignored), on raw masks.

        Where the first king wins (breakthrough) a position with a king has no moves.
        """
        def crown_ends(own, opp, kings, turn):
            return [] if kings else self.legal(own, opp, kings, turn)
        legal = crown_ends if self.crown_wins else self.legal
        return perft_walk(legal, self.child, (state.own, state.opp, state.kings, state.turn), depth)

    @staticmethod
    def child(position: tuple, move: Move) -> tuple:
        """The raw position ``(own, opp, kings, turn)`` after a legal move (perft, and the
        endgame tables' builder, walk raw positions without building states)."""
        own, opp, kings, turn = position
        frm, to, cap, crown = move
        if kings & frm:
            kings ^= frm ^ to
        elif crown:
            kings |= to
        return opp & ~cap, own ^ frm ^ to, kings & ~cap, turn ^ 1

    # --- numbered squares and the Hub protocol's notation -------------------------------
    def square_numbering(self, corner: str | None = None) -> tuple[str, ...]:
        """The playing squares' names counted row by row from ``corner`` as the first player sees
        the board (``top-left``, ``top-right``, ``bottom-left``, ``bottom-right``, as PDN's
        GameType corners); default the variant's own corner, the order of its PDN numbers
        (algebraic boards: ``a1`` first, along each rank)."""
        corner = corner or self.variant.corner
        order = self.grid.numbering(corner.startswith("top"), corner.endswith("left"))
        return tuple(self.name_of[i] for i in order)

    @property
    def hub_squares(self) -> int:
        """The squares of a Hub position string: every playing square."""
        return len(self.name_of)

    def parse_hub_position(self, text: str) -> "DraughtsState":
        """A position from Hub's ``W``/``B`` + one of ``w b W B e`` per square in the order of
        ``square_numbering()`` (the PDN numbers; on algebraic boards ``a1``, ``c1``, ... ``h8``)."""
        n = self.hub_squares
        text = text.strip()
        if len(text) != n + 1 or text[0] not in "WB" or any(c not in "wbWBe" for c in text[1:]):
            raise BadPosition(f"bad Hub position {text!r}: expected W or B then {n} of w b W B e")
        lists: dict[str, list[str]] = {"W": [], "B": []}
        for name, c in zip(self.square_numbering(), text[1:]):
            if c != "e":
                lists[c.upper()].append(("K" if c.isupper() else "") + name)
        return self.parse_fen(f"{text[0]}:W{','.join(lists['W'])}:B{','.join(lists['B'])}")

    # --- move generation -----------------------------------------------------------
    def scan(self, own: int, opp: int, kings: int, turn: int, frozen: int = 0) -> tuple[int, int, list]:
        """One whole-board pass over the side to move: ``(jumpers, step_count, step_buckets)``.

        ``jumpers`` are the pieces that may start a capture (0 = no capture; then
        the steps are the legal moves).  Short jumpers are exact; flying kings are
        all included when any piece has a capture (the search sorts them out).
        ``step_buckets`` hold ``(targets, delta, n)``: each of the ``n`` set bits
        ``t`` of ``targets`` is the step from ``t`` shifted back by ``delta`` to ``t``.
        ``frozen`` kings may not step (the Frisian king-move limit).
        """
        empty = self.points ^ (own | opp)
        mine = own & kings
        men = own ^ mine
        prey = opp if self.man_takes_king else opp ^ (opp & kings)
        movers = (0, men, mine, own)
        steppers = movers
        if not mine:
            plan = self.plans[turn][0]
        elif frozen and not self.flying:
            plan = self.plans[turn][2]
            steppers = (0, men, mine ^ frozen, own ^ frozen)
        else:
            plan = self.plans[turn][1]
        shared_up, shared_down, split_up, split_down = plan
        jumpers = count = 0
        out = []
        for d, dd, who in shared_up:
            a = movers[who] << d
            t = a & empty
            if t:
                n = t.bit_count()
                out.append((t, d, n))
                count += n
            t = ((a & prey) << d) & empty
            if t:
                jumpers |= t >> dd
        for d, dd, who in shared_down:
            a = movers[who] >> d
            t = a & empty
            if t:
                n = t.bit_count()
                out.append((t, -d, n))
                count += n
            t = ((a & prey) >> d) & empty
            if t:
                jumpers |= t << dd
        for d, dd, st, ju in split_up:
            if st:
                t = (steppers[st] << d) & empty
                if t:
                    n = t.bit_count()
                    out.append((t, d, n))
                    count += n
            if ju:
                t = ((((movers[ju] << d) & prey) << d) & empty)
                if t:
                    jumpers |= t >> dd
        for d, dd, st, ju in split_down:
            if st:
                t = (steppers[st] >> d) & empty
                if t:
                    n = t.bit_count()
                    out.append((t, -d, n))
                    count += n
            if ju:
                t = ((((movers[ju] >> d) & prey) >> d) & empty)
                if t:
                    jumpers |= t << dd
        if mine:
            if self.flying:
                if jumpers:
                    jumpers |= mine
                else:
                    found, n = self._king_rays(mine ^ frozen, frozen, opp, empty, out)
                    if found:
                        jumpers = mine
                    count += n
            elif self.king_only_jumps:
                up, down = self.king_only_jumps
                for d, dd in up:
                    jumpers |= mine & (opp >> d) & (empty >> dd)
                for d, dd in down:
                    jumpers |= mine & (opp << d) & (empty << dd)
        return jumpers, count, out

    def _king_rays(self, steppers: int, frozen: int, opp: int, empty: int, out: list) -> tuple[bool, int]:
        """Flying kings: step buckets per direction and distance, walking all rays at once.

        Returns ``(capture found, number of steps added)``; stops at the first
        capture found (steps no longer matter then).  ``frozen`` kings are only
        tested for captures.
        """
        count = 0
        for d in self.king_step_up:
            r, k = steppers, d
            while r:
                r <<= d
                if ((r & opp) << d) & empty:
                    return True, count
                r &= empty
                if r:
                    n = r.bit_count()
                    out.append((r, k, n))
                    count += n
                k += d
        for d in self.king_step_down:
            r, k = steppers, d
            while r:
                r >>= d
                if ((r & opp) >> d) & empty:
                    return True, count
                r &= empty
                if r:
                    n = r.bit_count()
                    out.append((r, -k, n))
                    count += n
                k += d
        if self.king_jump != self.king_step or frozen:
            if self._flying_capture(frozen | steppers, opp, empty):
                return True, count
        return False, count

    def _flying_capture(self, mine: int, opp: int, empty: int) -> bool:
        """Whether any of the flying kings ``mine`` has a jump along the king jump lines."""
        for d in self.king_jump:
            r = mine
            while r:
                r = r << d if d > 0 else r >> -d
                if (r & opp) and ((r & opp) << d if d > 0 else (r & opp) >> -d) & empty:
                    return True
                r &= empty
        return False

    def jumpers(self, own: int, opp: int, kings: int, turn: int) -> int:
        """The pieces that may start a capture (0 = no capture): see ``scan``."""
        return self.scan(own, opp, kings, turn)[0]

    def steps(self, own: int, opp: int, kings: int, turn: int, frozen: int = 0) -> list[Move]:
        """All non-capturing moves (whether or not a capture is compulsory)."""
        return self._steps_from(self.scan(own, opp, kings, turn, frozen)[2], kings, turn)

    def _steps_from(self, buckets: list, kings: int, turn: int) -> list[Move]:
        promo = self.promo[turn]
        out = []
        for targets, d, _ in buckets:
            while targets:
                to = targets & -targets
                targets ^= to
                frm = to >> d if d > 0 else to << -d
                out.append((frm, to, 0, to & promo != 0 and not frm & kings))
        return out

    def pick_step(self, count: int, buckets: list, kings: int, turn: int, rng_random) -> Move:
        """A uniformly random step among ``count`` in ``buckets`` (from ``scan``)."""
        r = int(rng_random() * count)
        for targets, d, n in buckets:
            if r < n:
                while r:
                    targets &= targets - 1
                    r -= 1
                to = targets & -targets
                frm = to >> d if d > 0 else to << -d
                return (frm, to, 0, to & self.promo[turn] != 0 and not frm & kings)
            r -= n
        raise ValueError("pick_step: count does not match the buckets")

    def sequences(self, own: int, opp: int, kings: int, turn: int, starters: int | None = None) -> list[tuple]:
        """Every complete capture sequence, before the choice rule and deduplication.

        Each is ``(from, to, captured, crowned, order, route)``: ``order`` the
        captured masks in capture order, ``route`` the landing masks.  ``starters``
        (default: ``jumpers(...)``) are the pieces to search from.
        """
        out: list[tuple] = []
        occupied = own | opp
        if starters is None:
            starters = self.jumpers(own, opp, kings, turn)
        while starters:
            frm = starters & -starters
            starters ^= frm
            self._extend(frm, frm, frm & kings != 0, False, 0, (), (), 0,
                         occupied ^ frm, opp, kings, turn, out)
        return out

    def _extend(self, frm, sq, king, crowned, captured, order, route, last, occupied, opp, kings, turn, out):
        """Depth-first search of the jumps from ``sq``; append finished sequences to ``out``.

        ``occupied`` blocks (it keeps jumped pieces under the Turkish strike and
        lacks the moving piece's start square, rule 1.7).  Returns True when at
        least one jump exists from ``sq``, so the caller knows that this landing
        continues (rule 1.6).
        """
        if king and self.flying:
            return self._extend_flying(frm, sq, crowned, captured, order, route, last, occupied, opp, kings,
                                       turn, out)
        if king:
            table, prey = self.king_jump_table, opp & ~captured
        else:
            table = self.man_jump_table[turn]
            prey = opp & ~captured if self.man_takes_king else opp & ~captured & ~kings
        empty = self.points & ~occupied
        promo = self.promo[turn]
        found = False
        for d, mid, land in table[sq]:
            if not (mid & prey and land & empty) or (not self.king_reverse and king and d == -last):
                continue
            found = True
            cap2, order2, route2 = captured | mid, order + (mid,), route + (land,)
            occ2, opp2 = (occupied ^ mid, opp ^ mid) if self.immediate else (occupied, opp)
            king2 = king
            if not king and land & promo:
                if self.promotion == "stop":
                    out.append((frm, land, cap2, True, order2, route2))
                    continue
                king2 = self.promotion == "fly"
            if not self._extend(frm, land, king2, crowned or king2 != king, cap2, order2, route2, d,
                                occ2, opp2, kings, turn, out):
                out.append((frm, land, cap2, crowned or (not king and land & promo != 0), order2, route2))
        return found

    def _extend_flying(self, frm, sq, crowned, captured, order, route, last, occupied, opp, kings, turn, out):
        """``_extend`` for a flying king: walk each line to the first piece, land on any/next square."""
        points = self.points
        prey = opp & ~captured
        free = points & ~occupied
        found = False
        for d in self.king_jump:
            if d == -last and not self.king_reverse:
                continue
            s = sq << d if d > 0 else sq >> -d
            while s & free:
                s = s << d if d > 0 else s >> -d
            if not s & prey:
                continue
            land = s << d if d > 0 else s >> -d
            if not land & free:
                continue
            found = True
            cap2, order2 = captured | s, order + (s,)
            occ2, opp2 = (occupied ^ s, opp ^ s) if self.immediate else (occupied, opp)
            finals = []
            continuing = False
            while land & free:
                if self._extend_flying(frm, land, crowned, cap2, order2, route + (land,), d, occ2, opp2,
                                       kings, turn, out):
                    continuing = True
                elif not continuing:
                    finals.append(land)
                if self.king_landing == "next":
                    break
                land = land << d if d > 0 else land >> -d
            if not continuing:  # rule 1.6: stop only where no further jump exists from any landing
                if self.killer and s & kings:   # Killer: after a king as the last piece, just behind it
                    finals = finals[:1]
                for land in finals:
                    out.append((frm, land, cap2, crowned, order2, route + (land,)))
        return found

    def captures(self, own: int, opp: int, kings: int, turn: int) -> list[Move]:
        """The legal captures: sequences filtered by the choice rule (C3), deduplicated."""
        starters = self.jumpers(own, opp, kings, turn)
        return self.choose(self.sequences(own, opp, kings, turn, starters), kings) if starters else []

    def choose(self, seqs: list[tuple], kings: int) -> list[Move]:
        """Apply the choice rule (C3) to raw sequences, then merge FMJD-equal ones."""
        if len(seqs) == 1:
            return [seqs[0][:4]]
        choice = self.variant.choice
        if choice != "free":
            key = self._choice_key(choice, kings)
            best = max(map(key, seqs))
            seqs = [s for s in seqs if key(s) == best]
        seen = {}
        for s in seqs:
            seen.setdefault(s[:4], None)
        return list(seen)

    @staticmethod
    def _choice_key(choice: str, kings: int) -> Callable:
        """The lexicographic key of draughts.md §2.3.1 for a choice rule."""
        if choice == "max":
            return lambda s: len(s[4])
        if choice == "max-kings":
            return lambda s: (len(s[4]), (s[2] & kings).bit_count())
        if choice == "italian":
            def italian(s):
                order = s[4]
                first_king = next((i for i, c in enumerate(order) if c & kings), len(order) + 99)
                return (len(order), bool(s[0] & kings), (s[2] & kings).bit_count(), -first_king)
            return italian
        if choice == "frisian":
            def frisian(s):
                n_kings = (s[2] & kings).bit_count()
                return ((len(s[4]) - n_kings) * _MAN_VALUE + n_kings * _KING_VALUE, bool(s[0] & kings))
            return frisian
        if choice == "king-first":
            return lambda s: bool(s[0] & kings)
        raise ValueError(choice)

    def endgame_limit(self, own: int, opp: int, kings: int) -> int | None:
        """The plies since the last capture after which the variant's endgame count draws
        this placement (the side to move's pieces ``own``), or None where no count applies."""
        if self.endgame_counts is None or (own | opp).bit_count() > self.endgame_max:
            return None
        longd = self.long_diagonal
        return self.endgame_counts((own & ~kings).bit_count(), (own & kings).bit_count(),
                                   (opp & ~kings).bit_count(), (opp & kings).bit_count(),
                                   (own & kings & longd != 0, opp & kings & longd != 0),
                                   (own & longd != 0, opp & longd != 0))

    def legal(self, own: int, opp: int, kings: int, turn: int, frozen: int = 0) -> list[Move]:
        """All legal moves of a raw position: captures if any, else steps."""
        starters, _, buckets = self.scan(own, opp, kings, turn, frozen)
        if starters:
            return self.choose(self.sequences(own, opp, kings, turn, starters), kings)
        return self._steps_from(buckets, kings, turn)


class DraughtsState(TurnState):
    """A draughts position with the counters its variant's draw rules need."""

    compulsory_captures = True

    __slots__ = ("game", "own", "opp", "kings", "turn", "ply", "progress_ply", "capture_ply", "history",
                 "drawn", "runs")

    def __init__(self, game: DraughtsGame, own: int, opp: int, kings: int, turn: int):
        self.game = game
        self.own, self.opp, self.kings, self.turn = own, opp, kings, turn
        self.ply = 0              # plies played since this state was set up
        self.progress_ply = 0     # ply of the last capture or man move (draughts.md §2.4 "no progress")
        self.capture_ply = 0      # ply of the last capture (endgame counts)
        self.history = ()         # keys of the positions since the last irreversible move
        self.runs = (0, 0, 0, 0)  # Frisian: (king square, moves in a row) for player 0, then player 1
        self.drawn = False
        if game.endgame_counts is not None:
            self.drawn = self._endgame_drawn()

    def copy(self) -> "DraughtsState":
        """A copy sharing the immutable history tuple."""
        s = object.__new__(DraughtsState)
        s.game, s.own, s.opp, s.kings, s.turn = self.game, self.own, self.opp, self.kings, self.turn
        s.ply, s.progress_ply, s.capture_ply = self.ply, self.progress_ply, self.capture_ply
        s.history = self.history
        s.drawn, s.runs = self.drawn, self.runs
        return s

    def key(self) -> tuple:
        """(turn, side to move's pieces, opponent's pieces, kings)."""
        return (self.turn, self.own, self.opp, self.kings)

    def _frozen(self) -> int:
        """The king that may not make another plain move (Frisian), as a mask, or 0.

        The run's square must still hold one of our kings: a king taken after its run (the
        run is not cleared then) must not leave a phantom king behind for ``scan``.
        """
        limit = self.game.king_move_limit
        if not limit:
            return 0
        sq, n = self.runs[2 * self.turn], self.runs[2 * self.turn + 1]
        return sq if n >= limit and sq & self.own & self.kings and self.own & ~self.kings else 0

    # --- moves -----------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Captures (after the choice rule) if any, else steps; empty when the game is over."""
        if self.drawn or (self.kings and self.game.crown_wins):
            return []
        return self.game.legal(self.own, self.opp, self.kings, self.turn, self._frozen())

    def random_move(self, rng) -> Move | None:
        """A uniformly random legal move without listing the steps, or None when the game is over."""
        if self.drawn or (self.kings and self.game.crown_wins):
            return None
        g = self.game
        own, opp, kings, turn = self.own, self.opp, self.kings, self.turn
        starters, count, buckets = g.scan(own, opp, kings, turn, self._frozen() if g.king_move_limit else 0)
        if starters:
            moves = g.choose(g.sequences(own, opp, kings, turn, starters), kings)
            return moves[int(rng.random() * len(moves))]
        return g.pick_step(count, buckets, kings, turn, rng.random) if count else None

    def playout(self, rng, max_plies: int = NO_LIMIT) -> float | None:
        """Play uniformly random moves in place to the end; return ``outcome()``.

        The fast path behind random playouts: the same rules and the same random
        draws as ``random_move`` then ``play``, without a method call per step.
        Returns None if the game is still running after ``max_plies`` plies.
        """
        return self._random_playout(rng, max_plies, None)

    def recorded_playout(self, rng, moves: list, max_plies: int = NO_LIMIT) -> float | None:
        """The fast ``playout``, keeping its moves in ``moves``."""
        return self._random_playout(rng, max_plies, moves)

    def _random_playout(self, rng, max_plies: int, record: list | None) -> float | None:
        """The one loop behind ``playout`` and ``recorded_playout``; ``record``: a list that
        gets each move played as ``(player, move)``."""
        g = self.game
        scan, sequences, choose, pick_step = g.scan, g.sequences, g.choose, g.pick_step
        play, rnd, limit = self.play, rng.random, g.king_move_limit
        if record is not None:      # the loop stays as it is: only ``play`` also records
            play = self._recording_play(record)
        crown_wins, stuck_score = g.crown_wins, g.stuck_score
        for _ in range(max_plies):
            if self.drawn:
                return 0.5
            if crown_wins and self.kings:
                return self.outcome()
            own, opp, kings, turn = self.own, self.opp, self.kings, self.turn
            starters, count, buckets = scan(own, opp, kings, turn, self._frozen() if limit else 0)
            if starters:
                moves = choose(sequences(own, opp, kings, turn, starters), kings)
                play(moves[int(rnd() * len(moves))])
            elif count:
                play(pick_step(count, buckets, kings, turn, rnd))
            else:
                return stuck_score[turn]
        return self.outcome()

    def _recording_play(self, record: list) -> Callable:
        """``play``, appending ``(player, move)`` to ``record`` first."""
        play, append = self.play, record.append

        def recording_play(move: Move) -> None:
            append((self.turn, move))
            play(move)
        return recording_play

    def play(self, move: Move) -> None:
        """Apply a legal move in place and update the draw counters."""
        frm, to, cap, crown = move
        g = self.game
        turn, own0, opp0, kings0 = self.turn, self.own, self.opp, self.kings
        own, opp, kings = own0 ^ frm ^ to, opp0, kings0
        by_king = kings & frm
        if by_king:
            kings ^= frm ^ to
        elif crown:
            kings |= to
        if cap:
            opp &= ~cap
            kings &= ~cap
        self.own, self.opp, self.kings, self.turn = opp, own, kings, turn ^ 1
        ply = self.ply = self.ply + 1
        # draw counters (draughts.md §2.4)
        if cap:
            self.progress_ply = self.capture_ply = ply
            self.history = ()
        else:
            if not by_king and not g.quiet_on_man_move:
                self.progress_ply = ply
            if by_king or (g.men_sideways and (to == frm << 1 or frm == to << 1)):
                # a reversible move: look for repetitions since the last irreversible one
                if g.repetition:
                    new_key = (turn ^ 1, opp, own, kings)
                    history = self.history or ((turn, own0, opp0, kings0),)
                    self.history = history + (new_key,)
                    if history.count(new_key) + 1 >= g.repetition:
                        self.drawn = True
            else:
                self.history = ()
            if ply - self.progress_ply >= g.no_progress:
                self.drawn = True
        if g.extra_rules:
            self._extra_rules(frm, to, cap, by_king, turn)

    def _extra_rules(self, frm: int, to: int, cap: int, by_king: int, turn: int) -> None:
        """The rarer draw and move rules: the Frisian king-move limit and endgame counts."""
        g = self.game
        if g.king_move_limit:
            runs = list(self.runs)
            if by_king and not cap:
                runs[2 * turn + 1] = runs[2 * turn + 1] + 1 if runs[2 * turn] == frm else 1
                runs[2 * turn] = to
            else:
                runs[2 * turn] = runs[2 * turn + 1] = 0
            self.runs = tuple(runs)
        if g.endgame_counts is not None and not self.drawn:
            self.drawn = self._endgame_drawn()

    def _endgame_drawn(self) -> bool:
        """Whether an endgame count of the variant has run out."""
        g = self.game
        own, opp, kings = self.own, self.opp, self.kings
        # the common cases, kept inline: playouts pass here at every ply
        if self.ply - self.capture_ply < g.endgame_floor or (own | opp).bit_count() > g.endgame_max:
            return False
        limit = g.endgame_limit(own, opp, kings)
        if limit is None or self.ply - self.capture_ply < limit:
            return False
        # a draw by material waits while the side to move has a capture that may win outright
        return limit > 0 or not g.jumpers(own, opp, kings, self.turn)

    def quiet_plies_left(self, count: int | None) -> int:
        """The plies this game may still run without a capture before a draw rule ends it,
        man moves aside: the no-progress rule, and ``count`` plies since the last capture
        (an endgame count) if given.  The endgame tables prove a win only within them."""
        left = self.game.no_progress - (self.ply - self.progress_ply)
        if count is not None:
            left = min(left, count - (self.ply - self.capture_ply))
        return left

    def outcome(self) -> float | None:
        """None while the game runs; 1.0 / 0.5 / 0.0 for the first player."""
        g = self.game
        own, opp, kings, turn = self.own, self.opp, self.kings, self.turn
        if kings and g.crown_wins:
            return self._crowned_winner()
        starters, count, _ = g.scan(own, opp, kings, turn, self._frozen())
        if starters or count:
            return 0.5 if self.drawn else None
        return g.stuck_score[turn]  # the side to move cannot move: it loses (antidraughts: it wins)

    def _crowned_winner(self) -> float:
        """Breakthrough: the player with a king has won (both, from a set-up position: who moved last)."""
        p0 = self.own if self.turn == 0 else self.opp
        first, second = bool(self.kings & p0), bool(self.kings & ~p0)
        if first != second:
            return 1.0 if first else 0.0
        return 0.0 if self.turn == 0 else 1.0

    def play_on(self) -> bool:
        """The arbiter plays on past a draw of the draw counters: clear it and restart the counters
        (repetition, no progress, endgame counts) from this position; whether there was one."""
        if not self.drawn:
            return False
        self.drawn = False
        self.progress_ply = self.capture_ply = self.ply
        self.history = ()
        return True

    # --- notation ----------------------------------------------------------------
    def fen(self) -> str:
        """PDN FEN, White's list first, squares in numeric / board order, K for kings."""
        g = self.game
        p = (self.own, self.opp) if self.turn == 0 else (self.opp, self.own)
        lists = {}
        for player in (0, 1):
            items = []
            for i in indices(p[player]):
                items.append(("K" if self.kings >> i & 1 else "") + g.name_of[i])
            if g.variant.notation == "numeric":
                items.sort(key=lambda s: int(s.lstrip("K")))
            else:
                items.sort(key=lambda s: (int(s.lstrip("K")[1:]), s.lstrip("K")[0]))
            lists[g.colours[player]] = ",".join(items)
        return f"{g.colours[self.turn]}:W{lists['W']}:B{lists['B']}"

    def move_str(self, move: Move) -> str:
        """PDN notation: ``from-to`` or ``fromxto``; the full route when the short form is ambiguous."""
        g = self.game
        frm, to, cap, crown = move
        if not cap:
            return f"{g.square_name(frm)}-{g.square_name(to)}"
        sep = g.variant.capture_sep
        short = f"{g.square_name(frm)}{sep}{g.square_name(to)}"
        clash = [m for m in self.legal_moves() if m[0] == frm and m[1] == to and m != move]
        if not clash:
            return short
        route = next(s[5] for s in self._sequences() if s[:4] == move)
        return sep.join([g.square_name(frm)] + [g.square_name(r) for r in route])

    def _sequences(self) -> list[tuple]:
        g = self.game
        return g.sequences(self.own, self.opp, self.kings, self.turn)

    def parse_move(self, text: str) -> Move:
        """The legal move named by PDN text; accepts short and full capture forms, any of ``- x :``."""
        g = self.game
        masks, legal = read_move_squares(self, text, square=g.parse_square, separators="-x:×",
                                         notation="in PDN notation (e.g. 32-28, 28x19x23)",
                                         where=f"a square of {g.name}")
        matches = [m for m in legal if m[0] == masks[0] and m[1] == masks[-1]]
        if len(matches) > 1 or (len(masks) > 2 and matches):
            # a full route names exactly one move; a partial one must fit in order
            routes = [q for q in self._sequences() if q[:4] in matches]
            exact = [q[:4] for q in routes if q[5] == tuple(masks[1:])]
            if exact:
                matches = list(dict.fromkeys(exact))
            elif len(masks) > 2:
                matches = list(dict.fromkeys(q[:4] for q in routes if is_subsequence(masks[1:-1], q[5])))
        why = " (a capture is compulsory)" if legal[0][2] else ""
        return single_match(self, text, matches, why)

    def hub_position(self) -> str:
        """The Hub position string: side letter, then ``w b W B e`` per square of ``square_numbering()``."""
        g = self.game
        p0 = self.own if self.turn == 0 else self.opp
        cells = []
        for name in g.square_numbering():
            bit = 1 << g.index_of[name]
            if not (self.own | self.opp) & bit:
                cells.append("e")
            else:
                colour = g.colours[0] if p0 & bit else g.colours[1]
                cells.append(colour if self.kings & bit else colour.lower())
        return g.colours[self.turn] + "".join(cells)

    def hub_move_str(self, move: Move) -> str:
        """Hub notation: a step as ``move_str``; a capture ``from x to x captured...`` with the
        captured squares in numeric order (how Scan and the Hub GUIs name a capture)."""
        frm, to, cap, _ = move
        if not cap:
            return self.move_str(move)
        g = self.game
        taken = sorted((g.name_of[i] for i in indices(cap)), key=lambda name: (len(name), name))
        return "x".join([g.square_name(frm), g.square_name(to)] + taken)

    def parse_hub_move(self, text: str) -> Move:
        """The legal move named in Hub notation (``from x to x captured...``), else by ``parse_move``."""
        g = self.game
        parts = text.strip().lower().split("x")
        if len(parts) > 2 and all(parts):
            masks = [g.parse_square(p) for p in parts]
            if None not in masks:
                cap = 0
                for mask in masks[2:]:
                    cap |= mask
                hits = [m for m in self.legal_moves() if m[0] == masks[0] and m[1] == masks[1] and m[2] == cap]
                if len(hits) == 1:
                    return hits[0]
        return self.parse_move(text)

    # --- evaluation and display -------------------------------------------------
    def evaluate(self) -> float:
        """The first player's winning chance in [0, 1] from material and advanced men
        (antidraughts, where losing pieces is the aim: one minus that).

        The balance counts men 1, kings ``game.king_value`` and each man in the opponent's
        half ``EVAL_ADVANCE`` more; it is scaled up as the board empties (a man up in an
        ending decides more than in the opening) and mapped through a logistic, so that
        playout cut-offs and implicit minimax get a value that separates positions, where
        a material share (12 against 11: 0.52) hardly does.  A bare board scores 0.5.
        """
        g = self.game
        kings, own, opp = self.kings, self.own, self.opp
        own_men, opp_men = own & ~kings, opp & ~kings
        n_own_k, n_opp_k = (own & kings).bit_count(), (opp & kings).bit_count()
        n_own_m, n_opp_m = own_men.bit_count(), opp_men.bit_count()
        turn = self.turn
        balance = (n_own_m - n_opp_m + g.king_value * (n_own_k - n_opp_k)
                   + EVAL_ADVANCE * ((own_men & g.far_half[turn]).bit_count()
                                     - (opp_men & g.far_half[1 - turn]).bit_count()))
        mover = balance_score(balance, n_own_m + n_opp_m + n_own_k + n_opp_k, g.start_pieces, EVAL_SCALE)
        first = mover if turn == 0 else 1.0 - mover
        return 1.0 - first if g.variant.goal == "lose" else first

    def is_capture(self, move: Move) -> bool:
        """Whether a legal move captures."""
        return move[2] != 0

    def heuristic(self, move: Move) -> float:
        """One-ply material gain of a legal move for its mover: pieces taken, plus crowning
        (antidraughts: the gain counts against the mover; breakthrough: crowning wins)."""
        g = self.game
        kv = g.king_value
        cap = move[2]
        gain = (cap & ~self.kings).bit_count() + kv * (cap & self.kings).bit_count()
        if g.crown_wins and move[3]:
            return gain + 1000.0           # the first king wins
        gain += kv - 1 if move[3] else 0
        return -gain if g.variant.goal == "lose" else gain

    def progress(self) -> float:
        """How close the side with more material is to winning, for the first player, in
        [0, 1] (equal material, or antidraughts and breakthrough: 0.5).

        The stronger side scores its material share ``share`` (men 1, kings ``king_value``)
        plus a confinement bonus, ``(1 - share) / (2 + safe + PROGRESS_DISTANCE * far)``:
        ``safe`` counts the weaker side's moves (it to move) after which the stronger side
        has no capture, ``far`` the stronger kings' steps to the nearest weaker piece.  A
        capture that is due (the side to move can capture) counts as made, so a hanging
        piece is seen.  The score grows as enemy pieces go (the decisive progress) and,
        between captures, as the weaker pieces lose their safe squares and the kings close
        in (a lone king driven into a corner), which is what converts a king ending.
        """
        g = self.game
        if g.variant.goal != "block":
            return 0.5
        kv, kings = g.king_value, self.kings
        own = (self.own & ~kings).bit_count() + kv * (self.own & kings).bit_count()
        opp = (self.opp & ~kings).bit_count() + kv * (self.opp & kings).bit_count()
        if own == opp:
            return 0.5
        weak_to_move = own < opp
        strong_mask, weak_mask = (self.opp, self.own) if weak_to_move else (self.own, self.opp)
        strong, weak = max(own, opp), min(own, opp)
        if g.jumpers(self.own, self.opp, kings, self.turn):   # a capture is due: count it taken
            if weak_to_move:
                strong -= kv if strong_mask & kings else 1.0
            else:
                weak -= kv if weak_mask & kings else 1.0
            value = 1.0 if weak <= 0 else strong / (strong + weak)
        else:
            share = strong / (strong + weak)
            far = PROGRESS_DISTANCE * self._distance(strong_mask, weak_mask)
            value = share + (1.0 - share) / (2 + self._safe_moves(weak_to_move) + far)
        strong_player = self.turn ^ 1 if weak_to_move else self.turn
        return value if strong_player == 0 else 1.0 - value

    def _distance(self, strong: int, weak: int) -> int:
        """The stronger side's kings' distance (king steps, less one) to the nearest weaker piece, summed."""
        coords = self.game.grid.coords
        targets = [coords(i) for i in indices(weak)]
        total = 0
        for i in indices(strong & self.kings):
            r, c = coords(i)
            total += min(max(abs(r - tr), abs(c - tc)) for tr, tc in targets) - 1
        return total

    def _safe_moves(self, weak_to_move: bool) -> int:
        """The weaker side's moves (as if it were to move) after which the other side has
        no capture."""
        g = self.game
        if weak_to_move:
            own, opp, turn = self.own, self.opp, self.turn
        else:
            own, opp, turn = self.opp, self.own, self.turn ^ 1
        kings, safe = self.kings, 0
        for frm, to, cap, crown in g.legal(own, opp, kings, turn):
            mine, theirs, k = own ^ frm ^ to, opp & ~cap, kings & ~cap
            if kings & frm:
                k ^= frm ^ to
            elif crown:
                k |= to
            if not g.jumpers(theirs, mine, k, turn ^ 1):
                safe += 1
        return safe

    def board_text(self) -> str:
        """The board as text, seen from the first player's side, with the square names per row.

        ``w``/``b`` are men and ``W``/``B`` kings of White and Black; ``.`` an empty
        playing square; blank a square that is not played on.
        """
        g = self.game
        grid = g.grid
        p0 = self.own if self.turn == 0 else self.opp
        letters = [g.colours[0].lower(), g.colours[1].lower()]
        lines = []
        for r in range(grid.rows - 1, -1, -1):
            cells, names = [], []
            for c in range(grid.cols):
                i = grid.index(r, c)
                bit = 1 << i
                if not g.points & bit:
                    cells.append(" ")
                    continue
                names.append(g.name_of[i])
                if not (self.own | self.opp) & bit:
                    cells.append(".")
                else:
                    ch = letters[0 if p0 & bit else 1]
                    cells.append(ch.upper() if self.kings & bit else ch)
            lines.append(f"{' '.join(cells)}    {' '.join(f'{n:>3}' for n in names)}")
        side = {"W": "White", "B": "Black"}[g.colours[self.turn]]
        lines.append(f"{side} ({'first' if self.turn == 0 else 'second'} player) to move")
        return "\n".join(lines)

    # --- drawing and clicking (view.py) -------------------------------------------
    def board_view(self) -> BoardView:
        """The board seen from the first player's side: the playing squares dark (every square
        plain on all-square boards), men and kings, algebraic names on the edges or PDN numbers
        on the squares."""
        g = self.game
        p0 = self.own if self.turn == 0 else self.opp
        pieces = [ViewPiece(g.name_of[i], 0 if p0 >> i & 1 else 1, "king" if self.kings >> i & 1 else "man")
                  for i in indices(self.own | self.opp)]
        if g.variant.squares == "dark":
            def shade(r: int, c: int) -> str:
                return "dark" if g.points & g.grid.mask(r, c) else "light"
        else:
            def shade(r: int, c: int) -> str:
                return "plain"
        return square_view(g.grid, g.name_of, pieces, shade=shade, algebraic=g.variant.notation == "algebraic")

    def move_path(self, move: Move) -> MovePath:
        """From, then every landing square of the capture route (one route of the move); the
        captured squares."""
        g = self.game
        frm, to, cap, _ = move
        if not cap:
            return MovePath((g.square_name(frm), g.square_name(to)))
        route = next((s[5] for s in self._sequences() if s[:4] == move), (to,))
        return MovePath((g.square_name(frm),) + tuple(g.square_name(r) for r in route), mask_names(g.name_of, cap))

    def __repr__(self) -> str:
        return f"<{self.game.name} {self.fen()}>"


def make_game(name: str, **options) -> DraughtsGame:
    """The compiled game of variant ``name`` with rule options applied."""
    return DraughtsGame(variant_with_options(name, **options))
