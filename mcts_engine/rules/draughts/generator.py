"""The draughts move generator: one table-driven generator for every row of the variant table.

``MoveGenerator`` compiles a variant's movement parameters (``variants.py``: lines, how men
step and jump, flying kings, capture choice, promotion during a capture, the Turkish strike)
into direction tables on the game's bit layout (``geometry.DarkGrid``, or ``Grid`` for boards
played on every square), once; the same code then serves every row.

A move is the tuple ``(from_mask, to_mask, captured_mask, crowned)``: exactly the FMJD
identity of a move (same start, end, captured set and resulting kind), so capture routes
that differ only in order collapse into one move by construction.

The native kernel (``mcts_engine/native``) runs the same algorithm on the same bit layout
and lists the same moves in the same order; this module is the reference it is checked
against.
"""
from __future__ import annotations

from typing import Callable

from ..geometry import Grid, indices
from .variants import Variant

Move = tuple  # (from_mask, to_mask, captured_mask, crowned)


# Frisian: a king is worth more than one man but less than two (pydraughts: 1.501).
MAN_VALUE, KING_VALUE = 1000, 1501


class MoveGenerator:
    """Legal moves of raw positions ``(own, opp, kings, turn)``: ``own`` the side to move's
    pieces, ``turn`` the player to move (0 moves up the board)."""

    def _setup_moves(self, v: Variant, grid: Grid) -> None:
        """Compile the row's movement rules into direction tables on ``grid``."""
        self.variant = v
        unit = 2 if v.squares == "dark" else 1   # on dark boards an orthogonal neighbour is 2 cells away
        delta = grid.delta
        diag = (delta(1, 1), delta(1, -1), delta(-1, 1), delta(-1, -1))
        orth = (delta(unit, 0), delta(-unit, 0), delta(0, unit), delta(0, -unit))

        def man_dirs(kind: str, p: int) -> tuple[int, ...]:
            up = 1 if p == 0 else -1
            if kind in ("fwd-diag", "fwd"):
                return delta(up, 1), delta(up, -1)
            if kind == "fwd+side":       # boards played on every square (Turkish)
                return delta(up, 0), delta(0, 1), delta(0, -1)
            return {"all-diag": diag, "all-8": diag + orth}[kind]

        self.points = grid.points
        self.man_step = [man_dirs(v.man_steps, p) for p in (0, 1)]
        self.man_jump = [man_dirs(v.man_jumps, p) for p in (0, 1)]
        self.king_step = orth if v.lines == "orthogonal" else diag
        self.king_jump = {"diagonal": diag, "orthogonal": orth, "both": diag + orth}[v.lines]
        self.king_step_up = tuple(d for d in self.king_step if d > 0)     # as shift amounts
        self.king_step_down = tuple(-d for d in self.king_step if d < 0)
        self.flying = v.king_range == "flying"
        self.man_takes_king = v.man_takes_king
        self.king_reverse = v.king_reverse
        self.immediate = v.removal == "immediate"
        self.promotion = v.promotion
        self.king_landing = v.king_landing
        self.killer = v.king_landing == "killer"
        self._setup_scan_plan()
        self.man_jump_table = [self._jump_table(ds) for ds in self.man_jump]
        self.king_jump_table = self._jump_table(self.king_jump)
        self.promo = (grid.row_mask(v.size - 1), grid.row_mask(0))

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
                return ((len(s[4]) - n_kings) * MAN_VALUE + n_kings * KING_VALUE, bool(s[0] & kings))
            return frisian
        if choice == "king-first":
            return lambda s: bool(s[0] & kings)
        raise ValueError(choice)


    def legal(self, own: int, opp: int, kings: int, turn: int, frozen: int = 0) -> list[Move]:
        """All legal moves of a raw position: captures if any, else steps."""
        starters, _, buckets = self.scan(own, opp, kings, turn, frozen)
        if starters:
            return self.choose(self.sequences(own, opp, kings, turn, starters), kings)
        return self._steps_from(buckets, kings, turn)

