"""Gauntlet (Phillip L. Leduc): six runners try to break through twelve blockers.

Rules: the Gauntlet rules text with the defaults of its Ambiguities section (§9; docs/games.md#gauntlet-gauntlet).  In short: an 8x8 board; White (player 0, moves first) has six runners on
b1-g1 that move only north; Black has six left blockers on a2-a7 that move only
east and six right blockers on h2-h7 that move only west.  A piece steps one
square in its own direction to an empty square, or jumps an adjacent enemy piece
in its own direction to the empty square beyond, and may go on jumping straight
on.  Capturing is compulsory; by default (Dagaz) every length >= 1 of a straight
multiple jump is a separate move, ``max_capture=1`` keeps only the captures that
take the most pieces over all pieces (designer / Ludii).  White wins as soon as
a runner stands on the last rank; a player with no legal move loses.  There is
no draw: every move advances a piece for good, so every game ends.

What is genuinely Gauntlet here: the asymmetric goal (only runners reach a rank)
and the three fixed directions.  The board is a plain ``Grid`` with one ghost
column, so north is ``+stride``, east ``+1``, west ``-1``: one shift each.

Native rules: where the kernel is built, ``GauntletGame.kernel`` is the compiled
``GauntletRules`` (``native/src/gauntlet.c``, the same masks in one 128-bit word): the search
runs the game in C, and ``random_move``, ``playout`` and ``perft`` call it, drawing as the
loops here do; this module stays the reference (``native=False``, ``MCTS_ENGINE_NATIVE=0``).

Rule options (strings accepted, as from the protocol's ``Rules`` option):

* ``max_capture`` (bool, default off): only the longest captures are legal.
* ``compulsory`` (bool, default on): off = captures are optional (the designer's
  10x10 tournament game); steps are then legal beside the captures.
* ``size`` (``FILESxRANKS``, default ``8x8``): the Dagaz sizes 5x4 5x5 6x5 6x6
  7x6 7x7 8x7 8x8 and Ludii's 9x9 and 10x10.  Every size is set up the same
  way: runners on rank 1 except the corner files, left blockers on file a and
  right blockers on the last file, ranks 2 to the last but one.

Notation (gauntlet.md §8): squares ``a1``..``h8``; a step ``d1-d2``; a capture
the whole path ``d3xd5xd7`` (``d3xd7`` is read too: a jump path is straight, so
its ends name it).  Internally a move is ``(from_mask, to_mask, captured_mask)``.

FEN: the side to move (``W`` runners or ``B`` blockers), then one list per kind::

    W:Wb1,c1,d1,e1,f1,g1:La2,a3,a4,a5,a6,a7:Rh2,h3,h4,h5,h6,h7

``W`` lists runners, ``L`` left blockers, ``R`` right blockers (any order; an
omitted list is empty).  Runners stand on files b..(last but one), blockers on
ranks 2..(last but one): no piece can ever stand elsewhere.
"""
from __future__ import annotations


from .. import native as compiled
from .base import NO_LIMIT, BadPosition, Game, IllegalMove, TurnState, perft_walk, read_move_squares
from .fen import fen_fields, fen_side, read_piece_lists
from .geometry import Grid, indices
from .view import BoardView, MovePath, ViewPiece, mask_names, square_view
from .options import Option, Schema

Move = tuple  # (from_mask, to_mask, captured_mask)

SIZES = ("5x4", "5x5", "6x5", "6x6", "7x6", "7x7", "8x7", "8x8", "9x9", "10x10")
SCHEMA = Schema("gauntlet", (
    Option("max_capture", "bool", False, "only the captures taking the most pieces are legal"),
    Option("compulsory", "bool", True, "capturing is compulsory (off: steps are legal beside captures)"),
    Option("size", "choice", "8x8", "the board, FILESxRANKS", choices=SIZES,
           aliases={size.replace("x", "×"): size for size in SIZES}),
))


class GauntletGame(Game):
    """Gauntlet on a ``files x ranks`` board with its rule options."""

    name = "gauntlet"
    colours = ("W", "B")

    def __init__(self, options: dict, native: bool = True):
        self.use_options(SCHEMA, options)
        files, ranks = (int(n) for n in options["size"].split("x"))
        self.files, self.ranks = files, ranks
        self.max_capture, self.compulsory = options["max_capture"], options["compulsory"]
        self.grid = g = Grid(ranks, files)
        self.cells = g.cells
        self.stride = g.stride
        self.goal = g.row_mask(ranks - 1)
        inner_files = g.where(lambda r, c: 0 < c < files - 1)
        inner_ranks = g.where(lambda r, c: 0 < r < ranks - 1)
        self.runner_squares = inner_files
        self.blocker_squares = inner_ranks
        self.start = (g.row_mask(0) & inner_files, g.col_mask(0) & inner_ranks, g.col_mask(files - 1) & inner_ranks)
        self.name_of = {i: g.algebraic(i) for i in indices(g.cells)}
        # material normalisers for evaluate()
        self.n_runners = self.start[0].bit_count()
        self.n_blockers = self.start[1].bit_count() + self.start[2].bit_count()
        self._attach_kernel(native)

    # --- the native rules ----------------------------------------------------------------
    def _attach_kernel(self, on: bool) -> None:
        """Run this game on its native rules (``native/src/gauntlet.c``) where they are built and
        ``on``: ``kernel`` is the ``GauntletRules`` object (None on the Python rules, the
        reference), handed the board's masks, the material and the options as numbers."""
        self.kernel = None
        if on and compiled.available():
            self.kernel = compiled.core.GauntletRules(
                self.files, self.ranks, self.stride, self.cells, self.goal, self.n_runners, self.n_blockers,
                int(self.max_capture), int(self.compulsory))
        self.native = self.kernel is not None

    def __getstate__(self) -> dict:
        """Pickled without the kernel (a game outside the registry; registered games pickle as
        their name and options)."""
        return {k: v for k, v in self.__dict__.items() if k != "kernel"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._attach_kernel(state["native"])

    # --- raw move generation ------------------------------------------------------------
    def groups(self, runners: int, left: int, right: int, turn: int) -> tuple:
        """The moving groups of the side to move: ``((pieces, delta), ...)`` and their prey."""
        if turn == 0:
            return ((runners, self.stride),), left | right
        return ((left, 1), (right, -1)), runners

    def captures(self, runners: int, left: int, right: int, turn: int) -> list[Move]:
        """Every capturing move of the side to move (each jump length is its own move)."""
        empty = self.cells ^ (runners | left | right)
        groups, prey = self.groups(runners, left, right, turn)
        out = []
        for pieces, d in groups:
            if d > 0:
                starts = ((((pieces << d) & prey) << d) & empty) >> (2 * d)
            else:
                starts = ((((pieces >> -d) & prey) >> -d) & empty) << (-2 * d)
            while starts:
                frm = starts & -starts
                starts ^= frm
                sq, cap = frm, 0
                while True:
                    mid = sq << d if d > 0 else sq >> -d
                    if not mid & prey:
                        break
                    land = mid << d if d > 0 else mid >> -d
                    if not land & empty:
                        break
                    cap |= mid
                    sq = land
                    out.append((frm, sq, cap))
        if self.max_capture and out:
            best = max(m[2].bit_count() for m in out)
            out = [m for m in out if m[2].bit_count() == best]
        return out

    def steps(self, runners: int, left: int, right: int, turn: int) -> list[tuple[int, int]]:
        """Step targets of the side to move as ``(targets, delta)`` buckets."""
        empty = self.cells ^ (runners | left | right)
        if turn == 0:
            return [((runners << self.stride) & empty, self.stride)]
        return [((left << 1) & empty, 1), ((right >> 1) & empty, -1)]

    def legal(self, runners: int, left: int, right: int, turn: int) -> list[Move]:
        """All legal moves of a raw position (empty when a runner stands on the last rank)."""
        if runners & self.goal:
            return []
        caps = self.captures(runners, left, right, turn)
        if caps and self.compulsory:
            return caps
        out = caps
        for targets, d in self.steps(runners, left, right, turn):
            for i in indices(targets):
                to = 1 << i
                out.append((to >> d if d > 0 else to << -d, to, 0))
        return out

    def perft(self, state: "GauntletState", depth: int) -> int:
        """Leaf count of the legal-move tree, on raw masks (in C on the native rules)."""
        if self.kernel is not None:
            return self.kernel.perft(state.raw(), depth)
        return perft_walk(self.legal, self._child, (state.runners, state.left, state.right, state.turn), depth)

    @staticmethod
    def _child(position: tuple, move: Move) -> tuple:
        """The raw position ``(runners, left, right, turn)`` after a legal move (for perft)."""
        runners, left, right, turn = position
        frm, to, cap = move
        if turn == 0:
            return runners ^ frm ^ to, left & ~cap, right & ~cap, 1
        moved = frm | to
        return runners & ~cap, left ^ moved if left & frm else left, right ^ moved if right & frm else right, 0

    # --- contract ------------------------------------------------------------------------
    def new_state(self) -> "GauntletState":
        """The start position, White (the runners) to move."""
        return GauntletState(self, *self.start, 0)

    def parse_fen(self, text: str) -> "GauntletState":
        """A position from ``side:W<runners>:L<left blockers>:R<right blockers>``."""
        original = text
        fields = fen_fields(text)
        side = fen_side(fields, original, ("W", "B"))
        lists, _ = read_piece_lists(fields[1:], original, tags="WLR", square=self._square_mask, noun="square",
                                    board=f"the {self.files}x{self.ranks} board")
        masks = {kind: lists.get(kind, {}).get("", 0) for kind in "WLR"}
        for kind, what, allowed in (("W", "runner", self.runner_squares), ("L", "blocker", self.blocker_squares),
                                    ("R", "blocker", self.blocker_squares)):
            stray = masks[kind] & ~allowed
            if stray:
                raise BadPosition(f"bad FEN {original!r}: a {what} can never stand on "
                                  f"{self.square_name(stray & -stray)}")
        return GauntletState(self, masks["W"], masks["L"], masks["R"], 0 if side == "W" else 1)

    def _square_mask(self, name: str) -> int | None:
        """The single-bit mask of a square name, or None."""
        index = self.grid.parse_algebraic(name)
        return None if index is None else 1 << index

    def square_name(self, mask: int) -> str:
        """Algebraic name of a single-bit mask."""
        return self.name_of[mask.bit_length() - 1]


class GauntletState(TurnState):
    """A Gauntlet position: runner, left-blocker and right-blocker masks and the side to move."""

    __slots__ = ("game", "runners", "left", "right", "turn", "ply")

    def __init__(self, game: GauntletGame, runners: int, left: int, right: int, turn: int):
        self.game = game
        self.runners, self.left, self.right, self.turn = runners, left, right, turn
        self.ply = 0  # plies played since this state was set up

    def copy(self) -> "GauntletState":
        """An independent copy."""
        s = object.__new__(GauntletState)
        s.game, s.runners, s.left, s.right, s.turn, s.ply = (self.game, self.runners, self.left,
                                                             self.right, self.turn, self.ply)
        return s

    def key(self) -> tuple:
        """(side to move, runners, left blockers, right blockers)."""
        return (self.turn, self.runners, self.left, self.right)

    def raw(self) -> tuple:
        """The position as it crosses into the native rules: (runners, left, right, turn, ply)."""
        return (self.runners, self.left, self.right, self.turn, self.ply)

    def set_raw(self, raw: tuple) -> None:
        """Take the position ``raw`` describes (as the native rules hand it back)."""
        self.runners, self.left, self.right, self.turn, self.ply = raw

    # --- moves ----------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Captures (all of them compulsory by default), else steps; empty when the game is over."""
        return self.game.legal(self.runners, self.left, self.right, self.turn)

    def random_move(self, rng) -> Move | None:
        """A uniformly random legal move, counting the steps instead of listing them (in C on
        the native rules, drawing the same)."""
        if self.game.kernel is not None:
            return self.game.kernel.random_move(self.raw(), rng)
        return self._pick(rng.random)

    def _pick(self, rnd) -> Move | None:
        g = self.game
        runners, left, right, turn = self.runners, self.left, self.right, self.turn
        if runners & g.goal:
            return None
        caps = g.captures(runners, left, right, turn)
        if caps and g.compulsory:
            return caps[int(rnd() * len(caps))]
        buckets = g.steps(runners, left, right, turn)
        total = len(caps) + sum(t.bit_count() for t, _ in buckets)
        if not total:
            return None
        k = int(rnd() * total)
        if k < len(caps):
            return caps[k]
        k -= len(caps)
        for targets, d in buckets:
            n = targets.bit_count()
            if k < n:
                for _ in range(k):
                    targets &= targets - 1
                to = targets & -targets
                return (to >> d if d > 0 else to << -d, to, 0)
            k -= n
        raise AssertionError("unreachable")

    def playout(self, rng, max_plies: int = NO_LIMIT) -> float | None:
        """Uniformly random moves in place to the end (same draws as ``random_move``/``play``;
        the loop in C on the native rules, drawing from ``rng`` the same)."""
        if self.game.kernel is not None:
            result, raw = self.game.kernel.playout(self.raw(), rng, max_plies)
            self.set_raw(raw)
            return result
        rnd, pick, play = rng.random, self._pick, self.play
        for _ in range(max_plies):
            move = pick(rnd)
            if move is None:
                return self.outcome()
            play(move)
        return self.outcome()

    def play(self, move: Move) -> None:
        """Apply a legal move in place."""
        frm, to, cap = move
        if self.turn == 0:
            self.runners ^= frm | to
            if cap:
                self.left &= ~cap
                self.right &= ~cap
        else:
            if self.left & frm:
                self.left ^= frm | to
            else:
                self.right ^= frm | to
            if cap:
                self.runners &= ~cap
        self.turn ^= 1
        self.ply += 1

    def outcome(self) -> float | None:
        """1.0 once a runner stands on the last rank; else the side without a move loses."""
        g = self.game
        runners, left, right, turn = self.runners, self.left, self.right, self.turn
        if runners & g.goal:
            return 1.0
        if any(t for t, _ in g.steps(runners, left, right, turn)) or g.captures(runners, left, right, turn):
            return None
        return 0.0 if turn == 0 else 1.0

    # --- notation ------------------------------------------------------------------------------
    def fen(self) -> str:
        """``side:W<runners>:L<left blockers>:R<right blockers>``, squares in board order."""
        names = self.game.name_of

        def field(mask: int) -> str:
            return ",".join(names[i] for i in indices(mask))

        return f"{'WB'[self.turn]}:W{field(self.runners)}:L{field(self.left)}:R{field(self.right)}"

    def move_str(self, move: Move) -> str:
        """``d1-d2`` for a step, the whole path ``d3xd5xd7`` for a capture."""
        frm, to, cap = move
        g = self.game
        if not cap:
            return f"{g.square_name(frm)}-{g.square_name(to)}"
        a, b = frm.bit_length() - 1, to.bit_length() - 1
        n = cap.bit_count()
        d = (b - a) // n
        return "x".join(g.name_of[a + k * d] for k in range(n + 1))

    def parse_move(self, text: str) -> Move:
        """The legal move named by ``d1-d2`` or ``d3xd5xd7`` (or its short form ``d3xd7``)."""
        g = self.game
        masks, legal = read_move_squares(self, text, square=g._square_mask, separators="-x:",
                                         notation="in Gauntlet notation (e.g. d1-d2, d3xd5xd7)",
                                         where=f"a square of the {g.files}x{g.ranks} board")
        frm, to = masks[0], masks[-1]
        path = "x".join(g.square_name(mask) for mask in masks)
        for move in legal:
            if move[0] == frm and move[1] == to and (len(masks) == 2 or self.move_str(move) == path):
                return move
        why = " (a capture is compulsory)" if g.compulsory and legal[0][2] else ""
        raise IllegalMove(f"move {text!r} is illegal in {self.fen()}{why}")

    # --- evaluation and display --------------------------------------------------------------
    def evaluate(self) -> float:
        """Progress toward the goal plus material, in [0, 1] for White (the runners).

        Material: the share of runners kept minus the share of blockers kept (each
        side against its own start count).  Progress: the most advanced runner's
        rank as a fraction of the way to the goal.  0.5 + 0.25 * material +
        0.25 * (progress - 0.5) * 2, clamped to [0.02, 0.98]: never as sure as a result.
        """
        g = self.game
        if not self.runners:
            return 0.02
        material = self.runners.bit_count() / g.n_runners - (self.left | self.right).bit_count() / g.n_blockers
        top_row = (self.runners.bit_length() - 1) // g.stride
        progress = top_row / (g.ranks - 1)
        value = 0.5 + 0.25 * material + 0.5 * (progress - 0.5)
        return min(0.98, max(0.02, value))

    def is_capture(self, move: Move) -> bool:
        """Whether a legal move captures."""
        return move[2] != 0

    def heuristic(self, move: Move) -> float:
        """Pieces taken, plus for a runner the ranks it gains (10 for reaching the goal)."""
        frm, to, cap = move
        gain = float(cap.bit_count())
        if self.turn == 0:
            if to & self.game.goal:
                return gain + 10.0
            gain += 0.25 * ((to.bit_length() - frm.bit_length()) // self.game.stride)
        return gain

    def board_text(self) -> str:
        """The board, rank 1 at the bottom: ``W`` runner, ``L``/``R`` blockers, ``.`` empty."""
        g = self.game
        lines = []
        for r in range(g.ranks - 1, -1, -1):
            cells = []
            for c in range(g.files):
                bit = g.grid.mask(r, c)
                cells.append("W" if self.runners & bit else "L" if self.left & bit
                             else "R" if self.right & bit else ".")
            lines.append(f"{r + 1:>2} " + "  ".join(cells))
        lines.append("   " + "  ".join("abcdefghij"[: g.files]))
        lines.append(("White (runners)" if self.turn == 0 else "Black (blockers)") + " to move")
        return "\n".join(lines)

    # --- drawing and clicking (view.py) -----------------------------------------------------
    def board_view(self) -> BoardView:
        """A chequered board with the three armies: runners (player 0), left and right blockers."""
        g = self.game
        pieces = [ViewPiece(g.name_of[i], 0, "runner") for i in indices(self.runners)]
        pieces += [ViewPiece(g.name_of[i], 1, "left") for i in indices(self.left)]
        pieces += [ViewPiece(g.name_of[i], 1, "right") for i in indices(self.right)]
        return square_view(g.grid, g.name_of, pieces, shade=lambda r, c: "dark" if (r + c) % 2 == 0 else "light")

    def move_path(self, move: Move) -> MovePath:
        """From, then every landing square of a straight multiple jump (a step: its end); the
        captured squares."""
        frm, to, cap = move
        g = self.game
        if not cap:
            return MovePath((g.square_name(frm), g.square_name(to)))
        return MovePath(tuple(self.move_str(move).split("x")), mask_names(g.name_of, cap))

    def __repr__(self) -> str:
        return f"<gauntlet {self.fen()}>"


def make_game(native: bool = True, **options) -> GauntletGame:
    """Gauntlet with rule options ``max_capture``, ``compulsory`` and ``size`` (``SCHEMA``; strings
    accepted), on the native rules where they are built unless ``native`` is False (the reference)."""
    return GauntletGame(SCHEMA.parse(options), native)
