"""Rithmomachia captures (§5 and §6 of its rules text; docs/games.md#rithmomachia): who takes what after a move.

Two mixins keep the capture rules apart from the board and the moves:

* ``CaptureArithmetic`` (mixed into the game): the value tests of §5 between one
  attacker and one target (equality, ambush, custodial ambush, eruption, natural
  siege), cached per pair of pieces, since a game meets the same pairs again and again.
* ``CaptureResolution`` (mixed into the state): after every move, which opposing
  pieces can have a new capture relation (the "dirty" cells, ``candidates``), the
  tests of each (``target_hits``), the removal and the capture counters (§5.8), then
  the end test (§7).  ``full_hits`` is the whole-board answer the tests compare
  against the incremental one.

A hit mask has ``WHOLE_BIT`` for the whole piece and bit i for pyramid component i.
"""
from __future__ import annotations

from collections import defaultdict

from ..geometry import indices
from .glory import glorious_win
from .options import PYRAMID

WHOLE_BIT = 1 << 20   # in a hit mask: the whole piece (bits 0.. are pyramid components)


def _ambush_ok(a1: int, a2: int, t: int) -> bool:
    """Sum, difference, product or exact quotient of two attack values equals ``t`` (§5.5)."""
    if a1 + a2 == t or a1 - a2 == t or a2 - a1 == t or a1 * a2 == t:
        return True
    lo, hi = (a1, a2) if a1 < a2 else (a2, a1)
    return lo > 0 and hi == t * lo


class CaptureArithmetic:
    """The §5 value tests of one attacker against one target, for ``RithmomachiaGame``.

    Uses the game's ``options`` and geometry tables (``rays``); ``_setup_capture_caches``
    must run in the game's constructor.
    """

    def _setup_capture_caches(self) -> None:
        """Empty caches of hit masks per pair (or triple) of pieces."""
        self.eq_cache: dict = {}
        self.amb_cache: dict = {}
        # erupt_table results by attacker then target piece, and by target then attacker
        self.erupt_by_attacker: defaultdict = defaultdict(dict)
        self.erupt_by_target: defaultdict = defaultdict(dict)
        self.cust_cache: dict = {}

    def target_values(self, piece) -> list[tuple[int, int]]:
        """(value, hit bit) pairs a target can be hit through: WHOLE_BIT or a component's bit."""
        if type(piece) is not tuple:
            return [(piece >> 2, WHOLE_BIT)]
        comps, alive = piece
        out = [(cc >> 2, 1 << i) for i, cc in enumerate(comps) if alive >> i & 1]
        o = self.options
        if (not o["pyramid_total_only_intact"] or o["pyramid_total_only_intact_defence"]
                or alive == (1 << len(comps)) - 1):
            out.append((sum(v for v, _ in out), WHOLE_BIT))
        return out

    def _total_allowed(self, piece) -> bool:
        comps, alive = piece
        return not self.options["pyramid_total_only_intact"] or alive == (1 << len(comps)) - 1

    def attack_values(self, piece, shapes: int, equality: bool) -> list[int]:
        """Usable values of an attacker reaching the target by ``shapes`` (§5.2, §8.2.2)."""
        if type(piece) is not tuple:
            return [piece >> 2] if shapes >> (piece & 3) & 1 else []
        comps, alive = piece
        present = [(cc & 3, cc >> 2) for i, cc in enumerate(comps) if alive >> i & 1]
        total = sum(v for _, v in present)
        if equality and self.options["pyramid_equality_any_component"]:
            values = [v for _, v in present]
        else:
            values = [v for s, v in present if shapes >> s & 1]
            if not values:
                return [total] if shapes & 8 and alive == (1 << len(comps)) - 1 else []
        if self._total_allowed(piece) or (shapes & 8 and alive == (1 << len(comps)) - 1):
            values.append(total)
        return values

    def all_values(self, piece) -> list[int]:
        """Values an attacker uses where movement plays no role (eruption, custodial ambush)."""
        if type(piece) is not tuple:
            return [piece >> 2]
        comps, alive = piece
        values = [cc >> 2 for i, cc in enumerate(comps) if alive >> i & 1]
        if self._total_allowed(piece):
            values.append(sum(values))
        return values

    def eq_hit(self, apiece, shapes: int, tpiece) -> int:
        """Equality hits (§5.4) of one attacker on one target."""
        if type(apiece) is int and type(tpiece) is int and shapes >> (apiece & 3) & 1:
            # two plain pieces (the common case): no table needed
            return WHOLE_BIT if apiece >> 2 == tpiece >> 2 else 0
        key = (apiece, shapes, tpiece)
        h = self.eq_cache.get(key)
        if h is None:
            values = set(self.attack_values(apiece, shapes, True))
            h = 0
            for t, bit in self.target_values(tpiece):
                if t in values:
                    h |= bit
            self.eq_cache[key] = h
        return h

    def amb_hit(self, p1, s1: int, p2, s2: int, tpiece) -> int:
        """Ambush hits (§5.5) of two attackers; ``p2`` None = pairs inside one pyramid (A5 option)."""
        if (type(p1) is int and type(p2) is int and type(tpiece) is int
                and s1 >> (p1 & 3) & 1 and s2 >> (p2 & 3) & 1):
            # three plain pieces (the common case): no table needed
            return WHOLE_BIT if _ambush_ok(p1 >> 2, p2 >> 2, tpiece >> 2) else 0
        key = (p1, s1, p2, s2, tpiece)
        h = self.amb_cache.get(key)
        if h is None:
            h = 0
            v1 = self.attack_values(p1, s1, False)
            targets = self.target_values(tpiece)
            if p2 is None:
                pairs = [(v1[i], v1[j]) for i in range(len(v1)) for j in range(i + 1, len(v1))]
            else:
                pairs = [(a, b) for a in v1 for b in self.attack_values(p2, s2, False)]
            for a, b in pairs:
                for t, bit in targets:
                    if _ambush_ok(a, b, t):
                        h |= bit
            self.amb_cache[key] = h
        return h

    def cust_hit(self, p1, p2, tpiece) -> int:
        """Custodial ambush hits (§8.2.6) of the two pieces on opposite sides of a target."""
        key = (p1, p2, tpiece)
        h = self.cust_cache.get(key)
        if h is None:
            h = 0
            for a in self.all_values(p1):
                for b in self.all_values(p2):
                    for t, bit in self.target_values(tpiece):
                        if _ambush_ok(a, b, t):
                            h |= bit
            self.cust_cache[key] = h
        return h

    def erupt_table(self, apiece, tpiece) -> dict[int, int]:
        """Distance D -> eruption hits (§5.6) of one attacker on one target (empty if none)."""
        division = self.options["eruption_division"]
        table: dict[int, int] = {}
        top = max(self.ranks, 8)
        for a in self.all_values(apiece):
            for t, bit in self.target_values(tpiece):
                if t % a == 0 and 2 <= t // a <= top:
                    table[t // a] = table.get(t // a, 0) | bit
                if division and a % t == 0 and 2 <= a // t <= top:
                    table[a // t] = table.get(a // t, 0) | bit
        self.erupt_by_attacker[apiece][tpiece] = self.erupt_by_target[tpiece][apiece] = table
        return table

    def natural_siege_hits(self, state, x: int, piece, mover: int, occ: int) -> int:
        """Natural siege (§8.2.5): the whole piece, or each pyramid component whose moves are all blocked."""
        if type(piece) is not tuple:
            return WHOLE_BIT if self._besieged(x, piece & 3, mover, occ) else 0
        hits = 0
        for i, cc in enumerate(piece[0]):
            if piece[1] >> i & 1 and self._besieged(x, cc & 3, mover, occ):
                hits |= 1 << i
        return hits

    def _besieged(self, x: int, shape: int, mover: int, occ: int) -> bool:
        """Every direction of the shape's regular move is blocked (edge or a mover's piece first)."""
        for cells, leaves in self.rays[shape][x]:
            blocked = leaves
            for bit in cells:
                if bit & occ:
                    blocked = bool(bit & mover)
                    break
            if not blocked:
                return False
        return True


class CaptureResolution:
    """Capture resolution after a move (§5, §6) and the end test (§7), for ``RithmomachiaState``.

    Works on the state's ``board``, bitboards ``m``, counters ``caps`` and the per-colour
    change sets ``vac``/``tgt``/``att``; the value tests are the game's (``CaptureArithmetic``).
    """

    def _resolve(self, c: int, f: int, t: int) -> None:
        """Captures by the mover ``c`` after its move f -> t (§5, §6), then the end test.

        Only opposing pieces that can have a new capture relation since ``c`` last
        resolved are examined (see ``candidates``); a fresh position examines them all.
        """
        o = c ^ 1
        m = self.m
        mover = m[0] | m[1] | m[2] | m[3]
        opp = m[4] | m[5] | m[6] | m[7]
        if c:
            mover, opp = opp, mover
        g = self.game
        if self.vac[c] < 0:
            hits = self.full_hits(c)
        else:
            occ = mover | opp
            targets, near, box, far, changed = self.candidates(c, f, t, mover, opp)
            hits = []
            while targets:
                bit = targets & -targets
                targets ^= bit
                h = self.target_hits(bit.bit_length() - 1, c, mover, occ, mover)
                if h:
                    hits.append(h)
            erupters = mover if g.blocking else changed
            while near:
                bit = near & -near
                near ^= bit
                h = self.target_hits(bit.bit_length() - 1, c, mover, occ, erupters)
                if h:
                    hits.append(h)
            if box:
                orth_nb, diag_nb, lines = g.orth_nb, g.diag_nb, g.lines
                while box:
                    bit = box & -box
                    box ^= bit
                    x = bit.bit_length() - 1
                    if orth_nb[x] & mover == orth_nb[x] or diag_nb[x] & mover == diag_nb[x]:
                        hits.append((x, WHOLE_BIT))
                    elif lines[x] & changed:
                        h = self.eruption_hits(x, c, changed, occ)
                        if h:
                            hits.append(h)
            if far and changed == 1 << t and not g.blocking:
                # the common case: eruption by the moved piece alone
                board, lineinfo = self.board, g.lineinfo
                piece = board[t]
                row = g.erupt_by_attacker[piece]
                while far:
                    bit = far & -far
                    far ^= bit
                    x = bit.bit_length() - 1
                    target = board[x]
                    table = row.get(target)
                    if table is None:
                        table = g.erupt_table(piece, target)
                    if table:
                        h = table.get(lineinfo[x][t][0])
                        if h:
                            hits.append((x, h))
            while far:
                bit = far & -far
                far ^= bit
                h = self.eruption_hits(bit.bit_length() - 1, c, changed, occ)
                if h:
                    hits.append(h)
        if hits:
            removed, damaged, pyramid_gone = self._remove(c, hits)
        else:
            removed = damaged = 0
            pyramid_gone = False
        self.vac[c] = removed
        self.tgt[c] = damaged
        self.att[c] = 0
        if self.vac[o] >= 0:
            self.vac[o] |= (1 << f) | removed
            self.tgt[o] |= 1 << t
            self.att[o] |= damaged
        if hits or g.glorious:
            self._end_test(c, pyramid_gone)

    def candidates(self, c: int, f: int, t: int, mover: int, opp: int) -> tuple[int, int, int, int, int]:
        """Opposing pieces that may be hit after the move f -> t.

        A capture relation is new only if an attacker moved or changed (the moved piece,
        own pyramids that lost components: what they reach, their neighbours, their
        rank and file), a target moved or changed (``tgt``), or a cell was vacated
        (slides and short eruptions through it reach at most 2 cells beyond; natural
        sieges 3).  Older relations were resolved at ``c``'s previous turn.

        Returns (changed targets: examine fully; other targets: examine with eruption
        only by the changed attackers; neighbours of t: siege only; rank and file of the
        changed attackers: eruption only; the changed attackers).
        """
        g, board = self.game, self.board
        occ = mover | opp
        piece = board[t]
        if type(piece) is tuple:
            near = g.reach[PYRAMID][t]
        else:
            kind = piece & 3
            near = g.leaps[kind][t]
            for dest, path in g.slides[kind][t]:
                if not path & occ:
                    near |= dest
        vac = self.vac[c] | 1 << f
        if g.natural_siege:
            while vac:
                bit = vac & -vac
                vac ^= bit
                near |= g.box3[bit.bit_length() - 1]
        else:
            # a line through a vacated cell: a slider (or, with short-range blocking, any
            # piece) within 2 cells behind it, a target within 2 cells ahead
            m, c4 = self.m, c * 4
            sliders = mover if g.options["eruption_short_range_blocking"] else m[c4 + 1] | m[c4 + 2] | m[c4 + 3]
            vline, vback = g.vline, g.vback
            while vac:
                bit = vac & -vac
                vac ^= bit
                x = bit.bit_length() - 1
                if vback[x] & sliders:
                    for fwd, back in vline[x]:
                        if back & sliders:
                            near |= fwd
        box = g.box1[t]
        if g.natural_siege:
            near |= g.box3[t]
        elif not g.movement_ambush:
            near |= box
        changed = 1 << t
        far = g.lines[t]
        extra = self.att[c] & mover
        while extra:
            bit = extra & -extra
            extra ^= bit
            a = bit.bit_length() - 1
            near |= g.box1[a] | g.reach[PYRAMID][a]
            far |= g.lines[a]
            changed |= bit
        targets = self.tgt[c] & opp
        near &= opp & ~targets
        box &= opp & ~targets & ~near
        return targets, near, box, far & opp & ~targets & ~near & ~box, changed

    def full_hits(self, c: int) -> list[tuple[int, int]]:
        """Every capture the colour ``c`` makes on the current position (whole-board pass)."""
        mover, opp = self.occupancy(c), self.occupancy(c ^ 1)
        out = []
        for x in indices(opp):
            h = self.target_hits(x, c, mover, mover | opp, mover)
            if h:
                out.append(h)
        return out

    def _remove(self, c: int, hits) -> tuple[int, int, bool]:
        """Take the hit pieces and components off together; update the §5.8 counters."""
        g, board, m, caps = self.game, self.board, self.m, self.caps
        o4 = (c ^ 1) * 4
        author = g.options["capture_counting"] == "author"
        whole_on_part = g.options["pyramid_whole_on_component_hit"]
        removed = damaged = 0
        pyramid_gone = False
        for x, h in hits:
            piece = board[x]
            bit = 1 << x
            if type(piece) is tuple:
                comps, alive = piece
                parts = h & alive
                if h & WHOLE_BIT or parts == alive or (whole_on_part and parts):
                    parts = alive
                for i, comp in enumerate(comps):
                    if parts >> i & 1:
                        caps[2 * c] += 1
                        caps[2 * c + 1] += comp >> 2
                if parts == alive:
                    del board[x]
                    m[o4 + PYRAMID] ^= bit
                    removed |= bit
                    pyramid_gone = True
                    if author:
                        caps[2 * c] += 1
                        caps[2 * c + 1] += sum(comp >> 2 for comp in comps)
                else:
                    board[x] = (comps, alive & ~parts)
                    damaged |= bit
            else:
                del board[x]
                m[o4 + (piece & 3)] ^= bit
                removed |= bit
                caps[2 * c] += 1
                caps[2 * c + 1] += piece >> 2
        return removed, damaged, pyramid_gone

    def _end_test(self, c: int, pyramid_gone: bool) -> None:
        """Common victories of the mover, the pyramid rule, then glorious victories (§7)."""
        g = self.game
        o = g.options
        if self.caps[2 * c] >= o["win_piece_count"] or self.caps[2 * c + 1] >= g.thresholds[c]:
            self.result = c
        elif pyramid_gone and o["pyramid_capture_wins"]:
            self.result = c
        elif o["glorious"] != "off":
            if glorious_win(self, c):
                self.result = c
            elif glorious_win(self, c ^ 1):
                self.result = c ^ 1

    # --- the capture tests of one target (§5) ----------------------------------------------
    def attackers(self, x: int, c: int, occ: int) -> dict[int, int]:
        """Mover pieces attacking cell ``x`` (§5.2): cell -> mask of the shapes it reaches ``x`` by
        (bit 3: the pyramid's diagonal-3 pattern)."""
        g, m = self.game, self.m
        c4 = c * 4
        pyr = m[c4 + 3]
        found: dict[int, int] = {}
        for s, sbit, mask, leaps, slides in g.rev_split[x]:
            movers = m[c4 + s] | pyr
            if not mask & movers:
                continue
            hit = leaps & movers
            while hit:
                abit = hit & -hit
                hit ^= abit
                a = abit.bit_length() - 1
                found[a] = found.get(a, 0) | sbit
            for abit, path in slides:
                if abit & movers and not path & occ:
                    a = abit.bit_length() - 1
                    found[a] = found.get(a, 0) | sbit
        if g.diag3 and pyr:
            mask, entries = g.rev_d3[x]
            if mask & pyr:
                for abit, path in entries:
                    if abit & pyr and not path & occ:
                        a = abit.bit_length() - 1
                        found[a] = found.get(a, 0) | 8
        return found

    def target_hits(self, x: int, c: int, mover: int, occ: int, erupters: int) -> tuple[int, int] | None:
        """What colour ``c`` takes of the piece on ``x``: (x, hit mask) or None (§6).

        Eruption is tested from the pieces of ``erupters`` only (all of the mover's, or
        the ones whose relations can be new).

        The hit mask has ``WHOLE_BIT`` for the whole piece and bit i for pyramid component i.
        """
        g, board = self.game, self.board
        piece = board[x]
        if g.natural_siege:
            hits = g.natural_siege_hits(self, x, piece, mover, occ)
        elif g.orth_nb[x] & mover == g.orth_nb[x] or g.diag_nb[x] & mover == g.diag_nb[x]:
            return (x, WHOLE_BIT)
        else:
            hits = 0
        found = self.attackers(x, c, occ)
        if len(found) == 1 and not g.pairs_in_one:
            for a, shapes in found.items():
                hits |= g.eq_hit(board[a], shapes, piece)
        elif found:
            eq = g.eq_hit
            items = list(found.items())
            for a, shapes in items:
                hits |= eq(board[a], shapes, piece)
            if g.movement_ambush:
                amb = g.amb_hit
                n = len(items)
                for i in range(n):
                    a1, s1 = items[i]
                    p1 = board[a1]
                    if g.same_piece_pairs:
                        hits |= amb(p1, s1, None, 0, piece)
                    for j in range(i + 1, n):
                        a2, s2 = items[j]
                        hits |= amb(p1, s1, board[a2], s2, piece)
        if not g.movement_ambush:
            for b1, b2 in g.custodial[x]:
                if b1 & mover and b2 & mover:
                    hits |= g.cust_hit(board[b1.bit_length() - 1], board[b2.bit_length() - 1], piece)
        near = g.lines[x] & erupters
        if near:
            hits |= self._erupt(x, piece, near, occ)
        return (x, hits) if hits else None

    def _erupt(self, x: int, piece, near: int, occ: int) -> int:
        """Eruption hits on the piece on ``x`` by the attackers in ``near`` (on its rank and file)."""
        g, board = self.game, self.board
        info, column = g.lineinfo[x], g.erupt_by_target[piece]
        blocking = g.blocking
        hits = 0
        while near:
            abit = near & -near
            near ^= abit
            a = abit.bit_length() - 1
            apiece = board[a]
            table = column.get(apiece)
            if table is None:
                table = g.erupt_table(apiece, piece)
            if table:
                d, between = info[a]
                h = table.get(d)
                if h and not (blocking and (d == 3 or d == 4) and between & occ):
                    hits |= h
        return hits

    def eruption_hits(self, x: int, c: int, attackers: int, occ: int) -> tuple[int, int] | None:
        """Eruption of the piece on ``x`` by the pieces of ``attackers`` on its rank and file."""
        near = self.game.lines[x] & attackers
        if not near:
            return None
        hits = self._erupt(x, self.board[x], near, occ)
        return (x, hits) if hits else None
