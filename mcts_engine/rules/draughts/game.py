"""A compiled draughts variant: its board, notation, start position and draw counts.

Every variant is a row of the parameters of the draughts rules (``Variant`` and the table
``VARIANTS`` in ``variants.py``); ``DraughtsGame`` compiles a row once: the bit layout
(``geometry.DarkGrid``: the dark squares two cells to a bit, so that a 10x10 board is one
machine word; ``Grid`` where every square is played), the move generator's direction
tables (``generator.py``), the square names and the draw rules' parameters.

Internal frame: the board is seen from the first player's side.  Row 0 is the
first player's back rank, so player 0's men move up and player 1's
men move down.  PDN square numbers and algebraic names are given "as seen by
the first player" (the PDN GameType convention), so no variant needs a flip.

A state (``state.py``) keeps the pieces relative to the side to move (``own``, ``opp``)
plus the ``kings`` mask and ``turn``; ``play`` swaps ``own`` and ``opp``.
"""
from __future__ import annotations

from dataclasses import asdict, replace

from ..base import BadPosition, Game, SearchFallback, count_limit, perft_walk
from ..errors import BadOption
from ..fen import fen_fields, fen_side, read_piece_lists
from ..geometry import DarkGrid, Grid, indices
from .evaluation import EvalTerms, eval_masks
from .generator import Move, MoveGenerator
from .kernel import native_kernel
from .learned import layout_named, learned_spec
from .state import DraughtsState
from .weights import WeightsError, read_weights, weights_path
from .variants import ENDGAME_COUNTS, ENDGAME_FLOOR, ENDGAME_MAX_PIECES, Variant, schema, variant_with_options


class DraughtsGame(MoveGenerator, Game):
    """A compiled variant: geometry, direction tables and notation for one rule row."""

    def __init__(self, variant: Variant, native: bool = True):
        v = self.variant = variant
        self.name = v.name
        self.use_options(schema(v.name), asdict(v))
        n = v.size
        if v.squares == "dark":
            self.grid = grid = DarkGrid(n, v.invert, ghost=3 if v.lines == "both" else 1)
        else:
            self.grid = grid = Grid(n, n)
        self._setup_moves(v, grid)
        self.king_value = 3.0 if self.flying else 1.5   # material weight of a king (evaluate)
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
        self.eval_masks = eval_masks(self)
        self._setup_names()
        self._setup_start()
        self._attach_kernel(native)

    def _attach_kernel(self, native: bool) -> None:
        """Run this game on the native kernel where it is built (``native``: unless told not to).

        ``kernel`` is the compiled ``DraughtsKernel`` or None.  Its generator replaces the
        Python one for every caller (``legal``, ``jumpers``, ``endgame_limit`` become the
        kernel's own, as instance attributes, so a call costs no extra layer); the Python
        methods stay the reference (``MoveGenerator.legal(game, ...)``), which the tests check
        the kernel against.
        """
        self.kernel = native_kernel(self) if native else None
        self._learned: dict = {}   # the learned evaluation's kernel of each weights file, made on first use
        self.native = self.kernel is not None
        if self.kernel is not None:
            self.legal = self.kernel.legal
            self.jumpers = self.kernel.jumpers
            self.endgame_limit = self.kernel.endgame_limit

    search_parameters = EvalTerms      # the evaluation (Evaluation) and its positional terms (EvalMobility, ...)

    def search_rules(self, parameters: EvalTerms):
        """The kernel the search runs with ``parameters`` (the ``Evaluation`` and ``Eval*``
        options): the learned evaluation's kernel (``learned_kernel``), or ``kernel`` itself
        when every term is off, else a copy of its rules with those weights (made per search: a
        copy of one struct).  None where the kernel is not running; WeightsError where the
        learned evaluation's weights cannot be read."""
        if self.kernel is None:
            return None
        if parameters.evaluation == "learned":
            return self.learned_kernel(parameters.weights_file)
        if not parameters.any():
            return self.kernel
        return self.kernel.with_terms(parameters.weights())

    def learned_kernel(self, weights_file: str = ""):
        """The kernel evaluating with the learned weights of ``weights_file`` (the
        ``EvalWeights`` option; "" = the variant's shipped file, ``weights_path``), read on the
        first call and kept (once per game and file); WeightsError naming the file where it is
        missing, damaged or of another board."""
        if weights_file not in self._learned:
            path = weights_file or weights_path(self.name)
            weights = read_weights(path)
            if weights.variant != self.name:
                raise WeightsError(f"learned evaluation weights {path}: made for {weights.variant} "
                                   f"({weights.layout}), not {self.name}")
            try:
                layout = layout_named(self, weights.layout)
            except ValueError as err:
                raise WeightsError(f"learned evaluation weights {path}: {err}") from None
            self._learned[weights_file] = self.kernel.with_learned(learned_spec(layout, weights))
        return self._learned[weights_file]

    def check_search_parameters(self, parameters: EvalTerms) -> None:
        """Refuse ``parameters`` the search could not run: the learned evaluation without its
        weights, a missing or damaged file (WeightsError naming the file).  A sound file of
        another board is not refused: clients set the options before the variant (cutechess
        sends ``UCI_Variant`` at each new game), so it may be meant for the game to come; a
        search of a game it does not fit says so and uses the hand-set evaluation (``Engine``)."""
        if parameters.evaluation != "learned" or self.kernel is None:
            return
        if not parameters.weights_file:
            self.learned_kernel()
        elif parameters.weights_file not in self._learned:
            read_weights(parameters.weights_file)

    def search_fallback(self, parameters: EvalTerms, err: Exception) -> SearchFallback | None:
        """The hand-set evaluation (the ``Eval*`` terms as set) where the learned one's weights
        do not fit this game (a file of another board, or a broken one): the search goes on."""
        if not isinstance(err, WeightsError):
            return None
        return SearchFallback(replace(parameters, evaluation="handset", weights_file=""), "the hand-set evaluation")

    def __getstate__(self) -> dict:
        """Pickled without the kernels (a game outside the registry; registered games pickle as
        their name): the receiver compiles its own."""
        return {k: v for k, v in self.__dict__.items()
                if k not in ("kernel", "legal", "jumpers", "endgame_limit", "_learned")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._attach_kernel(state["native"])

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
        most = (n - 2 * first_row) // 2
        if v.men_rows > most:      # the two armies would share squares: no position to play
            raise BadOption(f"men_rows={v.men_rows}: the {n}x{n} board holds at most {most} rows of men a side")
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
        if self.kernel is not None:
            return self.kernel.perft(state.own, state.opp, state.kings, state.turn, depth)

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



def make_game(name: str, native: bool = True, **options) -> DraughtsGame:
    """The compiled game of variant ``name`` with rule options applied; on the native kernel
    where it is built, unless ``native`` is False (the Python reference)."""
    return DraughtsGame(variant_with_options(name, **options), native)

