"""A draughts position and the counters its variant's draw rules need: the rules contract's
``State`` for the whole draughts family (moves, outcome, notation, evaluation, drawing)."""
from __future__ import annotations

from typing import Callable

from ..base import NO_LIMIT, TurnState, is_subsequence, read_move_squares, single_match
from ..geometry import indices
from ..view import BoardView, MovePath, ViewPiece, mask_names, square_view
from . import evaluation
from .generator import Move, MoveGenerator


class DraughtsState(TurnState):
    """A draughts position with the counters its variant's draw rules need."""

    compulsory_captures = True

    __slots__ = ("game", "own", "opp", "kings", "turn", "ply", "progress_ply", "capture_ply", "history",
                 "drawn", "runs")

    def __init__(self, game: MoveGenerator, own: int, opp: int, kings: int, turn: int):
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

    def raw(self) -> tuple:
        """The position as it crosses into the native kernel: (own, opp, kings, turn, ply,
        progress_ply, capture_ply, drawn, runs, history), one tuple (native/src/convert.c)."""
        return (self.own, self.opp, self.kings, self.turn, self.ply, self.progress_ply, self.capture_ply, self.drawn,
                self.runs, self.history)

    def set_raw(self, raw: tuple) -> None:
        """Take the position ``raw`` describes (as the kernel hands it back after playing)."""
        (self.own, self.opp, self.kings, self.turn, self.ply, self.progress_ply, self.capture_ply, self.drawn,
         self.runs, self.history) = raw

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
        if self.game.kernel is not None:
            return self.game.kernel.random_move(self.raw(), rng)
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
        draws as ``random_move`` then ``play``, without a method call per step (in the
        native kernel where it is built: given a ``native.core.Random`` it draws in C, given
        a ``random.Random`` it draws exactly as the Python loop does).
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
        if g.kernel is not None:
            result, raw = g.kernel.playout(self.raw(), rng, max_plies, record)
            self.set_raw(raw)
            return result
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
        if g.kernel is not None:
            return g.kernel.outcome(self.raw())
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
        (``evaluation.evaluate`` with every positional term off; the kernel's where it runs)."""
        g = self.game
        if g.kernel is not None:
            return g.kernel.evaluate(self.own, self.opp, self.kings, self.turn)
        return evaluation.evaluate(g, self.own, self.opp, self.kings, self.turn)

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
                bit = grid.mask(r, c)          # 0 on a light cell (DarkGrid.index would alias a neighbour)
                if not g.points & bit:
                    cells.append(" ")
                    continue
                names.append(g.name_of[bit.bit_length() - 1])
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


