"""The native kernel's learned evaluation (draughts_impl.h, learned_evaluate) against its
reference, rules/draughts/learned.py, to the last bit: every variant, with seeded random weights
on seeded games and random placements at each layout stride, and the shipped weights files, each
with the regions gathered both ways (one pext each where the CPU has it, and by shifts); the
kernel's checks of the numbers it is handed.  Run under ASan/UBSan too (test_native_draughts.py's
slow test)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from mcts_engine import native
from mcts_engine.rules import get_game
from mcts_engine.rules.draughts import VARIANTS, make_game
from mcts_engine.rules.draughts.evaluation import EvalTerms
from mcts_engine.rules.draughts.learned import (KING_BITS, PATTERN_SIZE, SCALARS, STRIDES, LearnedWeights, layout_named,
                                                learned_evaluate, learned_spec, pattern_layout)
from mcts_engine.rules.draughts.weights import SHIPPED_VERSIONS, WEIGHTS_DIR, read_weights, weights_path
from support import sanitized

if not native.available():
    pytest.skip(f"no native kernel: {native.status()}", allow_module_level=True)

from test_native_draughts import placements, seeded_positions  # noqa: E402  (needs the kernel)

NAMES = sorted(VARIANTS)
SHIPPED = sorted(SHIPPED_VERSIONS)
GATHERS = ("auto", "shifts")      # the kernel's choice (pext where it can), and the shifts forced


def learned_kernel(game, layout, weights, gather: str):
    """``game``'s kernel with ``weights``, its regions gathered as ``gather`` says (``shifts``:
    the spec's ``plain_bits``)."""
    spec = learned_spec(layout, weights)
    kernel = game.kernel.with_learned(dict(spec, plain_bits=1) if gather == "shifts" else spec)
    assert kernel.learned_pext == (gather == "auto" and native.core.cpu_fast_bits() and not game.kernel.wide)
    return kernel


def random_weights(game, seed: int, scale: int = 5000, stride: int = 2) -> LearnedWeights:
    """Seeded weights of every size the file allows, on ``game``'s layout at ``stride``."""
    layout = pattern_layout(game, stride)
    rng = np.random.default_rng(seed)
    patterns = rng.integers(-scale, scale, size=(len(layout.regions), PATTERN_SIZE, 2), dtype=np.int32)
    scalars = tuple((int(a), int(b)) for a, b in rng.integers(-4 * scale, 4 * scale, size=(len(SCALARS), 2)))
    kings = np.zeros((KING_BITS, 2), dtype=np.int32)
    kings[:layout.top_bit + 1] = rng.integers(-4 * scale, 4 * scale, size=(layout.top_bit + 1, 2))
    return LearnedWeights(game.name, layout.signature, 1000, scalars, patterns, (), kings)


@pytest.mark.parametrize("gather", GATHERS)
@pytest.mark.parametrize("stride", STRIDES)
@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_evaluates_as_the_reference_along_games(name, stride, gather):
    fast, ref = make_game(name), make_game(name, native=False)
    layout = pattern_layout(ref, stride)
    weights = random_weights(ref, seed=len(name), stride=stride)
    kernel = learned_kernel(fast, layout, weights, gather)
    assert kernel.learned and not fast.kernel.learned
    for s in seeded_positions(ref, 300, seed=len(name)):
        assert kernel.evaluate(s.own, s.opp, s.kings, s.turn) == \
            learned_evaluate(layout, weights, s.own, s.opp, s.kings, s.turn), s.fen()


@pytest.mark.parametrize("gather", GATHERS)
@pytest.mark.parametrize("stride", STRIDES)
@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_evaluates_as_the_reference_on_random_placements(name, stride, gather):
    fast, ref = make_game(name), make_game(name, native=False)
    layout = pattern_layout(ref, stride)
    weights = random_weights(ref, seed=7, scale=1 << 20, stride=stride)
    kernel = learned_kernel(fast, layout, weights, gather)

    @settings(max_examples=sanitized.examples(200), deadline=None, derandomize=True)
    @given(placements(name))
    def check(raw):
        own, opp, kings, turn = raw
        assert kernel.evaluate(own, opp, kings, turn) == learned_evaluate(layout, weights, own, opp, kings, turn)
    check()


@pytest.mark.parametrize("gather", GATHERS)
@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_weights_evaluate_as_the_reference(name, gather):
    game, ref = get_game(name), make_game(name, native=False)
    weights = read_weights(weights_path(name))
    layout = layout_named(ref, weights.layout)
    kernel = game.learned_kernel() if gather == "auto" else learned_kernel(game, layout, weights, gather)
    assert kernel.learned_pext == (gather == "auto" and native.core.cpu_fast_bits())
    for s in seeded_positions(ref, 500, seed=11):
        assert kernel.evaluate(s.own, s.opp, s.kings, s.turn) == \
            learned_evaluate(layout, weights, s.own, s.opp, s.kings, s.turn), s.fen()


def test_the_package_ships_the_versions_it_plays_with_and_no_other_file():
    shipped = {weights_path(name).name for name in SHIPPED_VERSIONS}
    assert shipped == {p.name for p in WEIGHTS_DIR.glob("*.weights")}
    assert weights_path("international").name == "international.v5.weights"
    assert weights_path("russian").name == "russian.v1.weights"        # none shipped: what train-eval writes


def test_the_terms_and_the_learned_evaluation_copy_the_rules_they_came_from():
    """with_terms of a learned kernel keeps the learned evaluation (and its weights alive);
    the plain kernel stays hand-set."""
    game = make_game("english")
    layout = pattern_layout(game)
    kernel = game.kernel.with_learned(learned_spec(layout, random_weights(game, 1)))
    copy = kernel.with_terms(EvalTerms(mobility=0.1).weights())
    del kernel
    s = game.parse_fen("W:W21,22,23,K30:B9,10,11")
    assert copy.learned and copy.evaluate(s.own, s.opp, s.kings, s.turn) == \
        learned_evaluate(layout, random_weights(game, 1), s.own, s.opp, s.kings, s.turn)
    assert game.kernel.evaluate(s.own, s.opp, s.kings, s.turn) == s.evaluate()


@pytest.mark.parametrize("change, message", [
    (dict(patterns=b"\0" * 16), "bytes"),
    (dict(regions=()), "regions"),
    (dict(regions=(((0, 9, 0),),)), "out of range"),
    (dict(regions=(((60, 8, 0),),)), "out of range"),
    (dict(scalars=((1, 2),)), "scalars"),
    (dict(scalars=((1 << 30, 0),) * len(SCALARS)), "out of range"),
    (dict(unit=0), "unit"),
    (dict(top_bit=64), "top_bit"),
    (dict(start_pieces=3), "start_pieces"),
    (dict(kings=b"\0" * 16), "kings"),
    (dict(kings=np.full((KING_BITS, 2), 1 << 30, dtype=np.int32).tobytes()), "kings: a weight out of range"),
    (dict(kings=np.eye(KING_BITS, 2, -127, dtype=np.int32).tobytes()), "off the board"),
    (dict(columns=()), "columns"),
    (dict(columns=(0,) * 17), "columns: a tuple of 1 to 16"),
    (dict(plain_bits=2), "plain_bits"),
])
def test_the_kernel_refuses_bad_numbers(change, message):
    game = make_game("english")
    spec = learned_spec(pattern_layout(game), random_weights(game, 1))
    spec.update(change)
    with pytest.raises(ValueError, match=message):
        game.kernel.with_learned(spec)


def test_the_kernel_refuses_a_pattern_weight_out_of_range():
    game = make_game("english")
    weights = random_weights(game, 1)
    weights.patterns[2, 17, 1] = 1 << 25
    with pytest.raises(ValueError, match="out of range"):
        game.kernel.with_learned(learned_spec(pattern_layout(game), weights))


def test_a_region_whose_digits_are_not_in_bit_order_is_gathered_by_shifts():
    """One pext gathers a region's men in bit order; runs whose digits run otherwise (a spec
    learned.segments would not write) keep the shifts, which follow the digits as given."""
    game = make_game("international")
    spec = learned_spec(pattern_layout(game), random_weights(game, 1))
    assert native.core.cpu_fast_bits() == game.kernel.with_learned(spec).learned_pext
    first = spec["regions"][0]
    squares = sum(width for _, width, _ in first)
    spec["regions"] = (tuple((shift, width, squares - digit - width) for shift, width, digit in first),) \
        + spec["regions"][1:]
    assert not game.kernel.with_learned(spec).learned_pext
