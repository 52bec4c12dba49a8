"""The draughts evaluation's positional terms (rules/draughts/evaluation.py): worked examples of
what each counts, and the evaluation with every term off unchanged.  The native kernel's
copy is checked against this module in tests/native/test_native_evaluation.py."""
from __future__ import annotations

import random

import pytest

from mcts_engine.rules import get_game
from mcts_engine.rules.draughts import MoveGenerator, evaluation
from mcts_engine.rules.draughts.evaluation import NO_TERMS, EvalTerms, term_balance
from mcts_engine.rules.geometry import indices

TERMS = ("mobility", "tempo", "back_rank", "centre", "runaway", "edge", "king_lead", "guard")


def counts(game, fen: str) -> dict[str, float]:
    """Each term's count (its value at weight 1) in the position ``fen``."""
    s = game.parse_fen(fen)
    return {t: term_balance(game, game.eval_masks, s.own, s.opp, s.kings, s.turn, EvalTerms(**{t: 1.0}))
            for t in TERMS}


def squares(game, mask: int) -> list[int]:
    return sorted(int(game.square_name(1 << i)) for i in indices(mask))


def test_the_masks_of_the_international_board():
    game = get_game("international", native=False)
    m = game.eval_masks
    assert squares(game, m.centre) == [22, 23, 24, 27, 28, 29]
    assert squares(game, m.back_rank[0]) == [46, 47, 48, 49, 50] and squares(game, m.back_rank[1]) == [1, 2, 3, 4, 5]
    assert squares(game, m.near_crown[0]) == [6, 7, 8, 9, 10] and squares(game, m.near_crown[1]) == [41, 42, 43, 44, 45]
    assert squares(game, m.edge) == [5, 6, 15, 16, 25, 26, 35, 36, 45, 46]
    assert squares(game, m.guard[0]) == [47, 48, 49, 50] and squares(game, m.guard[1]) == [1, 2, 3, 4]


def test_the_side_files_and_the_guard_of_the_english_board():
    """The guard is each back rank without its single corner (Black's 4, White's 29)."""
    game = get_game("english", native=False)
    m = game.eval_masks
    assert squares(game, m.edge) == [4, 5, 12, 13, 20, 21, 28, 29]
    assert squares(game, m.guard[0]) == [1, 2, 3] and squares(game, m.guard[1]) == [30, 31, 32]


@pytest.mark.parametrize("fen,expected", [
    # White: 6 one step from crowning (1 free), 49 and 50 on the back rank; Black's 44 is boxed in
    # by them.  Steps: 6-1, 49-43, 50-45 against none.  Rows from the back: 8 + 0 + 0 against 8.
    # 6 is on a side file, 49 and 50 and Black's 44 are not; no kings.  49 and 50 guard: 2 * 2.
    ("W:W6,49,50:B44", dict(mobility=3, tempo=0, back_rank=2, centre=0, runaway=1, edge=1, king_lead=0, guard=4)),
    # the same position with Black to move: every count for the mover, so negated
    ("B:W6,49,50:B44", dict(mobility=-3, tempo=0, back_rank=-2, centre=0, runaway=-1, edge=-1, king_lead=0, guard=-4)),
    # two white men in the centre, one black.  Steps: 22-17, 22-18, 33-29 against 23-29 (28 may
    # take 23: captures are not counted).  Rows from the back: 5 + 4 + 3 against Black's 23 on its 4
    ("W:W22,28,33:B23", dict(mobility=2, tempo=8, back_rank=0, centre=1, runaway=0, edge=0, king_lead=0, guard=0)),
    # a man one step from crowning whose crowning squares are both taken is no runaway
    # two white kings against none: the lead counts both; Black's 36 is on a side file
    ("W:W7,K1,K2:B36", dict(mobility=None, tempo=None, back_rank=0, centre=0, runaway=0, edge=-1, king_lead=2, guard=0)),
    # three kings count two; a king on each side is no lead
    ("W:WK1,K2,K3:B36", dict(mobility=None, tempo=None, back_rank=0, centre=0, runaway=0, edge=-1, king_lead=2, guard=0)),
    ("B:WK1,K2:BK36,40", dict(mobility=None, tempo=None, back_rank=0, centre=0, runaway=0, edge=0, king_lead=0, guard=0)),
    # the guard: White's 47, 48, 49 (46 is the single corner, on a side file) 3 * 3, Black's 1 (5 is
    # on the side file) 1 * 1
    ("W:W46,47,48,49:B1,5,12", dict(mobility=None, tempo=None, back_rank=2, centre=0, runaway=0, edge=0, king_lead=0,
                                    guard=8)),
    # White's guard counts while Black has fewer kings than half its pieces (one of three), not
    # once it has that many (two of three)
    ("W:W47,48:BK10,12,13", dict(mobility=None, tempo=None, back_rank=2, centre=0, runaway=0, edge=0, king_lead=-1,
                                 guard=4)),
    ("W:W47,48:BK10,K11,12", dict(mobility=None, tempo=None, back_rank=2, centre=0, runaway=0, edge=0, king_lead=-2,
                                  guard=0)),
])
def test_what_each_term_counts(fen, expected):
    game = get_game("international", native=False)
    got = counts(game, fen)
    assert {t: got[t] for t in TERMS if expected[t] is not None} == \
        {t: float(v) for t, v in expected.items() if v is not None}


@pytest.mark.parametrize("name", ["english", "international", "russian", "frisian", "turkish"])
def test_mobility_is_the_difference_of_legal_moves_where_nobody_can_capture(name):
    """Where neither side has a capture, the steps are the legal moves (kings' included)."""
    game = get_game(name, native=False)
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        state = game.new_state()
        for _ in range(rng.randrange(0, 120)):
            moves = state.legal_moves()
            if not moves or state.outcome() is not None:
                break
            state.play(rng.choice(moves))
        own, opp, kings, turn = state.own, state.opp, state.kings, state.turn
        mine = MoveGenerator.legal(game, own, opp, kings, turn)
        theirs = MoveGenerator.legal(game, opp, own, kings, 1 - turn)
        if game.jumpers(own, opp, kings, turn) or game.jumpers(opp, own, kings, 1 - turn):
            continue
        got = term_balance(game, game.eval_masks, own, opp, kings, turn, EvalTerms(mobility=1.0))
        assert got == float(len(mine) - len(theirs)), state.fen()
        checked += 1
    assert checked >= 10


def test_every_term_off_is_the_material_evaluation():
    for name in ("english", "international", "russian", "canadian", "turkish", "antidraughts"):
        game = get_game(name, native=False)
        state = game.new_state()
        assert not NO_TERMS.any()
        assert evaluation.evaluate(game, state.own, state.opp, state.kings, state.turn) == state.evaluate() == 0.5


def test_a_term_moves_the_evaluation_its_way():
    game = get_game("international", native=False)
    for term in TERMS:
        if term in ("tempo", "centre"):
            continue
        # king_lead counts kings, which the other position has none of
        s = game.parse_fen("W:W7,K1,K2:B36" if term == "king_lead" else "W:W6,49,50:B44")
        plain = evaluation.evaluate(game, s.own, s.opp, s.kings, s.turn)
        up = evaluation.evaluate(game, s.own, s.opp, s.kings, s.turn, EvalTerms(**{term: 0.3}))
        down = evaluation.evaluate(game, s.own, s.opp, s.kings, s.turn, EvalTerms(**{term: -0.3}))
        assert down < plain < up, term
