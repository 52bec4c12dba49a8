"""The native kernel's evaluation with the positional terms on (the ``Eval*`` options, the
draughts family's own search parameters) against its reference, rules/draughts/evaluation.py,
to the last bit: every variant, each term alone and all together, on random placements and
along seeded games; and the terms reaching the search through the options the game declares.
Run under ASan/UBSan too (test_native_draughts.py's slow test)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from mcts_engine import native
from mcts_engine.agents import make_agent
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.settings import Settings
from mcts_engine.native import StopSignal
from mcts_engine.protocol.options import OptionValues
from mcts_engine.rules import get_game
from mcts_engine.rules.draughts import VARIANTS, make_game
from mcts_engine.rules.draughts import evaluation
from mcts_engine.rules.draughts.evaluation import NO_TERMS, EvalTerms
from support import sanitized

if not native.available():
    pytest.skip(f"no native kernel: {native.status()}", allow_module_level=True)

from test_native_draughts import placements, seeded_positions  # noqa: E402  (needs the kernel)

NAMES = sorted(VARIANTS)
WEIGHTS = [EvalTerms(mobility=0.03), EvalTerms(tempo=-0.07), EvalTerms(back_rank=0.3), EvalTerms(centre=0.1),
           EvalTerms(runaway=0.9), EvalTerms(edge=-0.04), EvalTerms(king_lead=0.25),
           EvalTerms(guard=0.05), EvalTerms(0.013, 0.021, -0.17, 0.11, 0.7, -0.03, 0.2, 0.04)]


@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_evaluates_the_terms_as_the_reference_along_games(name):
    fast, ref = make_game(name), make_game(name, native=False)
    for terms in WEIGHTS:
        kernel = fast.search_rules(terms)
        for s in seeded_positions(ref, 300, seed=len(name)):
            assert kernel.evaluate(s.own, s.opp, s.kings, s.turn) == \
                evaluation.evaluate(ref, s.own, s.opp, s.kings, s.turn, terms), (terms, s.fen())


@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_evaluates_the_terms_as_the_reference_on_random_placements(name):
    fast, ref = make_game(name), make_game(name, native=False)
    terms = WEIGHTS[-1]
    kernel = fast.search_rules(terms)

    @settings(max_examples=sanitized.examples(200), deadline=None, derandomize=True)
    @given(placements(name))
    def check(raw):
        own, opp, kings, turn = raw
        assert kernel.evaluate(own, opp, kings, turn) == evaluation.evaluate(ref, own, opp, kings, turn, terms)
    check()


def test_the_plain_kernel_without_terms_and_a_copy_of_its_rules_with_them():
    game = get_game("international")
    assert game.search_parameters is EvalTerms and game.search_rules(NO_TERMS) is game.kernel
    weighed = game.search_rules(EvalTerms(tempo=0.02))
    assert weighed is not game.kernel and weighed.wide == game.kernel.wide
    state = game.parse_fen("W:W6,31,32,33,46,47:B15,19,20,24,25")
    assert weighed.legal(state.own, state.opp, state.kings, state.turn) == state.legal_moves()
    assert weighed.evaluate(state.own, state.opp, state.kings, state.turn) != state.evaluate()


def test_the_options_reach_the_search():
    """A seeded, node-limited search scores the root otherwise once a term weighs in (and
    exactly alike with the same weights): the tree evaluates with the options' kernel."""
    game = get_game("international")
    state = game.parse_fen("W:W6,31,32,33,46,47:B15,19,20,24,25")

    def root_value(**options):
        values = OptionValues()
        for name, value in {"UCI_Variant": "international", "Defaults": "plain", "Seed": "3", "PlayoutDepth": "2",
                            "MinimaxWeight": "0.5", **options}.items():
            values.apply(values.check(name, value))
        agent = make_agent(game, values.settings())
        agent.search(state.copy(), Limits(nodes=1500), StopSignal())
        root = agent.core.dump(1)
        return root["w"] / root["n"]

    values = OptionValues()
    values.apply(values.check("UCI_Variant", "international"))
    values.apply(values.check("Evaluation", "handset"))       # International plays the learned one by default
    values.apply(values.check("EvalRunaway", "2"))
    assert values.settings().game_parameters == EvalTerms(runaway=2.0)
    plain = root_value()
    assert root_value() == plain
    assert root_value(EvalRunaway="2", EvalBackRank="0.5") != plain
