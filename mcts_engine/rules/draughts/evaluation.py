"""The draughts evaluation: material and advanced men always, and the positional terms strong
engines weigh (mobility, tempo, back-rank guard, centre, men about to crown), each with a
weight the engine options set (``EvalTerms``; 0 = off, the default until a match against an
independent opponent keeps it, docs/strength.md).

The terms are counted for the side to move minus the other side, in men, added to the
material balance before the logistic (``base.balance_score``).  This module is the reference
the native kernel's ``evaluate`` (native/src/draughts_impl.h) is checked against bit for bit:
the same operations in the same order.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...engine_options import EngineOption, engine_field
from ..base import balance_score
from .generator import MoveGenerator

EVAL_SCALE = 0.5      # logistic slope per man of balance at full board
EVAL_ADVANCE = 0.1    # the extra worth of a man in the opponent's half
TEMPO_BITS = 4        # a row index (0..11) as four bits: tempo = sum of 2^j * men on rows with bit j
MAX_TERM = 10.0       # the largest weight of a term (men per unit)
EVALUATION_DOCS = "search.md#the-draughts-evaluation"
EVALUATIONS = ("handset", "learned")
LEARNED_DOCS = "search.md#the-learned-evaluation"


def eval_term(name: str, unit: str):
    """The field of one positional term: its weight, declared as the engine option ``name``, in
    men per ``unit`` the side to move has more than the opponent (0 = off)."""
    return engine_field(0.0, EngineOption(
        name, "real", f"draughts evaluation: men per {unit} more than the opponent's; 0 = off (native draughts "
        f"rules; see [evaluation]({EVALUATION_DOCS}))", low=-MAX_TERM, high=MAX_TERM, game_default=True))


@dataclass(frozen=True)
class EvalTerms:
    """The draughts family's own search parameters (``DraughtsGame.search_parameters``), each
    field an engine option that the protocol lists for a draughts game: which evaluation the
    search runs (``Evaluation``: this module's hand-set one, or the learned one of
    ``learned.py``, whose weights ``mcts-engine train-eval`` fits), and the weights of the
    hand-set evaluation's positional terms, in men per unit of the term (0 = off):

    * ``mobility``: per quiet move the side has more than the other (the steps its men and
      kings could make if it were to move, captures left out; MoveGenerator.scan's count);
    * ``tempo``: per row the side's men have advanced from their own back rank, summed;
    * ``back_rank``: per man still on its own back rank (the guard against the other side
      crowning);
    * ``centre``: per man on the centre squares (the two middle rows, away from the two
      outer files each side);
    * ``runaway``: per man one step from crowning with an empty crowning square in front;
    * ``edge``: per man on a side file (the first or the last column), where it guards one
      diagonal instead of two;
    * ``king_lead``: per king, at most two, the side has while the other side has none (the
      first king roams behind men that cannot yet be answered by one);
    * ``guard``: per unit of the back-rank guard, the square of the side's men on its back rank
      off the side files (the squares that stop a man from crowning: in English 1, 2 and 3,
      the bridge 1 and 3 among them), counted while the other side still has fewer kings than
      half its pieces: two guards hold far more than twice one, and the guard is worth keeping
      only while there are men to stop.
    """

    mobility: float = eval_term("EvalMobility", "quiet move")
    tempo: float = eval_term("EvalTempo", "row the men have advanced, summed,")
    back_rank: float = eval_term("EvalBackRank", "man on its own back rank")
    centre: float = eval_term("EvalCentre", "man on the centre squares")
    runaway: float = eval_term("EvalRunaway", "man one step from crowning with a free crowning square")
    edge: float = eval_term("EvalEdge", "man on a side file")
    king_lead: float = eval_term("EvalKingLead", "king (at most two) held while the other side has none")
    guard: float = eval_term("EvalGuard", "unit of back-rank guard (men on the back rank off the side files, "
                             "squared, while the other side has fewer kings than half its pieces)")
    evaluation: str = engine_field("handset", EngineOption(
        "Evaluation", "combo", "draughts evaluation: `handset` (material, advanced men and the `Eval*` terms) or "
        "`learned` (pattern weights fitted to the engine's own games by `mcts-engine train-eval`, shipped for some "
        "variants; the `Eval*` terms are then ignored) (native draughts rules; see "
        f"[the learned evaluation]({LEARNED_DOCS}))", choices=EVALUATIONS, game_default=True))
    weights_file: str = engine_field("", EngineOption(
        "EvalWeights", "string", "the learned evaluation's weights file (`Evaluation learned`); empty = the one "
        "shipped for the variant, `rules/draughts/weights/<variant>.v<N>.weights` (a file `mcts-engine train-eval` "
        "wrote, to try before shipping it; a bare name such as `english.v1.weights` also finds a shipped file)"))

    def weights(self) -> tuple[float, ...]:
        """The positional terms' weights, in the kernel's order (``DraughtsKernel.with_terms``)."""
        return (self.mobility, self.tempo, self.back_rank, self.centre, self.runaway, self.edge, self.king_lead,
                self.guard)

    def any(self) -> bool:
        """Whether any term is on (the plain material evaluation otherwise)."""
        return any(w != 0.0 for w in self.weights())


NO_TERMS = EvalTerms()


@dataclass(frozen=True)
class EvalMasks:
    """The squares the terms count, per player (index 0 = the first player), from the grid."""

    back_rank: tuple[int, int]
    centre: int
    near_crown: tuple[int, int]                      # the row before the crowning row
    edge: int                                        # the first and the last column
    guard: tuple[int, int]                           # the back rank off the side files
    tempo_bits: tuple[tuple[int, ...], tuple[int, ...]]   # bit j: squares whose row (from the back) has bit j


def eval_masks(game) -> EvalMasks:
    """The term masks of a ``MoveGenerator`` (its grid: player 0 starts on the low rows)."""
    grid, n = game.grid, game.variant.size
    rows = (tuple(grid.row_mask(r) for r in range(n)), tuple(grid.row_mask(n - 1 - r) for r in range(n)))
    centre = grid.where(lambda r, c: n // 2 - 1 <= r <= n // 2 and 2 <= c < n - 2)
    tempo = tuple(tuple(sum(rows[p][r] for r in range(n) if r >> j & 1) for j in range(TEMPO_BITS))
                  for p in (0, 1))
    edge = grid.where(lambda r, c: c in (0, n - 1))
    guard = (rows[0][0] & ~edge, rows[1][0] & ~edge)
    return EvalMasks((rows[0][0], rows[1][0]), centre, (rows[0][n - 2], rows[1][n - 2]), edge, guard, tempo)


def _shift(x: int, d: int) -> int:
    return x << d if d >= 0 else x >> -d


def tempo_of(men: int, bits: tuple[int, ...]) -> int:
    """The rows ``men`` have advanced, summed (``bits`` from ``EvalMasks.tempo_bits``)."""
    return sum((men & b).bit_count() << j for j, b in enumerate(bits))


def runaways(game, men: int, empty: int, turn: int, near: int) -> int:
    """How many of ``turn``'s ``men`` stand one step from crowning with an empty crowning square."""
    runners, ready = 0, men & near
    for d in game.man_step[turn]:
        runners |= _shift(_shift(ready, d) & empty & game.promo[turn], -d)
    return runners.bit_count()


def men_on(own_men: int, opp_men: int, own_mask: int, opp_mask: int) -> int:
    """The side's men on ``own_mask`` less the other side's on ``opp_mask`` (a term's count)."""
    return (own_men & own_mask).bit_count() - (opp_men & opp_mask).bit_count()


def king_lead(own_kings: int, opp_kings: int) -> int:
    """The side's kings, at most two, where the other side has none, less the same for the other."""
    mine, theirs = own_kings.bit_count(), opp_kings.bit_count()
    return (min(mine, 2) if not theirs else 0) - (min(theirs, 2) if not mine else 0)


def back_guard(men: int, mask: int, other: int, other_kings: int) -> int:
    """The square of ``men`` on the guard squares ``mask``, while the other side's pieces
    ``other`` hold fewer kings than half of them (0 once they hold more)."""
    if 2 * other_kings.bit_count() >= other.bit_count():
        return 0
    return (men & mask).bit_count() ** 2


def term_balance(game, masks: EvalMasks, own: int, opp: int, kings: int, turn: int, terms: EvalTerms) -> float:
    """The positional terms' sum, in men, for the side to move (0.0 with every term off)."""
    other = 1 - turn
    own_men, opp_men = own & ~kings, opp & ~kings
    empty = game.points ^ (own | opp)
    total = 0.0
    if terms.mobility != 0.0:
        mine = MoveGenerator.scan(game, own, opp, kings, turn)[1]
        theirs = MoveGenerator.scan(game, opp, own, kings, other)[1]
        total = total + terms.mobility * float(mine - theirs)
    if terms.tempo != 0.0:
        tempo = tempo_of(own_men, masks.tempo_bits[turn]) - tempo_of(opp_men, masks.tempo_bits[other])
        total = total + terms.tempo * float(tempo)
    if terms.back_rank != 0.0:
        guard = men_on(own_men, opp_men, masks.back_rank[turn], masks.back_rank[other])
        total = total + terms.back_rank * float(guard)
    if terms.centre != 0.0:
        centre = men_on(own_men, opp_men, masks.centre, masks.centre)
        total = total + terms.centre * float(centre)
    if terms.runaway != 0.0:
        run = (runaways(game, own_men, empty, turn, masks.near_crown[turn])
               - runaways(game, opp_men, empty, other, masks.near_crown[other]))
        total = total + terms.runaway * float(run)
    if terms.edge != 0.0:
        edge = men_on(own_men, opp_men, masks.edge, masks.edge)
        total = total + terms.edge * float(edge)
    if terms.king_lead != 0.0:
        total = total + terms.king_lead * float(king_lead(own & kings, opp & kings))
    if terms.guard != 0.0:
        guard = (back_guard(own_men, masks.guard[turn], opp, opp & kings)
                 - back_guard(opp_men, masks.guard[other], own, own & kings))
        total = total + terms.guard * float(guard)
    return total


def evaluate(game, own: int, opp: int, kings: int, turn: int, terms: EvalTerms = NO_TERMS) -> float:
    """The first player's winning chance in [0, 1] of a raw position (antidraughts, where losing
    pieces is the aim: one minus that): ``DraughtsState.evaluate`` and the kernel's reference.

    The balance counts men 1, kings ``game.king_value``, each man in the opponent's half
    ``EVAL_ADVANCE`` more, and the positional ``terms``; it is scaled up as the board empties
    (a man up in an ending decides more than in the opening) and mapped through a logistic,
    so that playout cut-offs and implicit minimax get a value that separates positions.
    """
    own_men, opp_men = own & ~kings, opp & ~kings
    n_own_k, n_opp_k = (own & kings).bit_count(), (opp & kings).bit_count()
    n_own_m, n_opp_m = own_men.bit_count(), opp_men.bit_count()
    balance = float(n_own_m - n_opp_m) + game.king_value * float(n_own_k - n_opp_k)
    balance = balance + EVAL_ADVANCE * float((own_men & game.far_half[turn]).bit_count()
                                             - (opp_men & game.far_half[1 - turn]).bit_count())
    if terms.any():
        balance = balance + term_balance(game, game.eval_masks, own, opp, kings, turn, terms)
    mover = balance_score(balance, n_own_m + n_opp_m + n_own_k + n_opp_k, game.start_pieces, EVAL_SCALE)
    first = mover if turn == 0 else 1.0 - mover
    return 1.0 - first if game.variant.goal == "lose" else first
