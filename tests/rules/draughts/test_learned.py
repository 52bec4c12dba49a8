"""The learned evaluation's reference (rules/draughts/learned.py) and its weights files
(weights.py): the regions each board is read by, worked examples of the features, the file's
round trip and every fault a file may have, and the engine option that chooses the evaluation.
The native kernel's copy is checked against the reference in tests/native/test_native_learned.py."""
from __future__ import annotations

import zlib
from dataclasses import replace

import numpy as np
import pytest

from mcts_engine import native
from mcts_engine.engine_options import OptionError
from mcts_engine.protocol.options import OptionValues, all_options
from mcts_engine.rules import get_game
from mcts_engine.rules.draughts import VARIANTS, make_game, weights as weights_mod
from mcts_engine.rules.draughts.evaluation import EvalTerms
from mcts_engine.rules.draughts.learned import (KING_BITS, PATTERN_SIZE, SCALARS, STRIDES, LearnedWeights, layout_named,
                                                learned_balance, learned_evaluate, pattern_layout, region_index,
                                                rotate, scalar_features, segments)
from mcts_engine.rules.draughts.weights import WeightsError, format_weights, parse_weights, read_weights, write_weights
from support.defaults import ENGLISH_TERMS



def squares(game, mask_bits) -> list[int]:
    return sorted(int(game.square_name(1 << b)) for b in mask_bits)


def small_weights(game, stride: int = 2) -> LearnedWeights:
    layout = pattern_layout(game, stride)
    patterns = np.zeros((len(layout.regions), PATTERN_SIZE, 2), dtype=np.int32)
    patterns[0, 5] = (120, -40)
    patterns[len(layout.regions) - 1, PATTERN_SIZE - 1] = (-7, 9)
    kings = np.zeros((KING_BITS, 2), dtype=np.int32)
    kings[layout.regions[0][0]] = (55, -66)
    return LearnedWeights(game.name, layout.signature, 1000,
                          ((10, 0), (800, 2000), (2000, 3500), (300, 900), (0, 150), (0, 0)),
                          patterns, ("made by hand for a test", "second line"), kings)


@pytest.mark.parametrize("stride", STRIDES)
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_board_has_a_layout_of_eight_square_regions_that_cover_it(name, stride):
    game = make_game(name, native=False)
    layout = pattern_layout(game, stride)
    assert all(len(r) == 8 for r in layout.regions) and len(set(layout.regions)) == len(layout.regions)
    covered = sum(1 << b for b in {b for r in layout.regions for b in r})     # the regions overlap
    assert covered == game.points
    assert layout.signature.split("-")[2].startswith(str(len(layout.regions)))
    assert layout_named(game, layout.signature) == layout


@pytest.mark.parametrize("name, sparse, dense", [("english", 9, 25), ("international", 16, 49), ("canadian", 25, 81),
                                                 ("turkish", 21, 35)])
def test_a_window_every_row_and_column_reads_about_three_times_the_regions(name, sparse, dense):
    game = make_game(name, native=False)
    assert [len(pattern_layout(game, stride).regions) for stride in (2, 1)] == [sparse, dense]
    assert set(pattern_layout(game, 2).regions) < set(pattern_layout(game, 1).regions)


def test_a_layout_no_stride_gives_is_refused_naming_the_boards_layouts():
    game = get_game("international", native=False)
    with pytest.raises(ValueError, match=r"weights of layout dark-10x10-9x4x4-0, where international's board has "
                                         r"dark-10x10-16x4x4-\w+ or dark-10x10-49x4x4-\w+"):
        layout_named(game, "dark-10x10-9x4x4-0")
    with pytest.raises(ValueError, match="pattern stride 3"):
        pattern_layout(game, 3)


def test_the_english_regions_are_the_4x4_windows():
    """English: Black (the first player) on 1-12; the first window is its side's corner."""
    game = get_game("english", native=False)
    layout = pattern_layout(game)
    assert [squares(game, r) for r in layout.regions[:3]] == [
        [3, 4, 7, 8, 11, 12, 15, 16], [2, 3, 6, 7, 10, 11, 14, 15], [1, 2, 5, 6, 9, 10, 13, 14]]
    assert squares(game, layout.regions[-1]) == [17, 18, 21, 22, 25, 26, 29, 30]
    assert len(segments(layout.regions[0])) == 4 and all(width == 2 for _, width, _ in segments(layout.regions[0]))


def test_the_half_turn_maps_each_square_to_its_opposite():
    game = get_game("international", native=False)
    layout = pattern_layout(game)
    for n in range(1, 51):
        square = game.parse_square(str(n))
        assert rotate(square, layout.top_bit) == game.parse_square(str(51 - n))


def test_a_region_index_counts_the_movers_men_1_and_the_others_2():
    region = (3, 5, 9)
    assert region_index(region, 1 << 5, 1 << 9) == 1 * 3 + 2 * 9
    assert region_index(region, 1 << 3 | 1 << 9, 0) == 1 + 9
    assert region_index(region, 0, 0) == 0


def test_the_scalar_features_of_a_position():
    game = get_game("international", native=False)
    layout = pattern_layout(game)
    s = game.parse_fen("W:W31,32,33,K46,K27:B5,19,20,K1")   # 46-5 is the long diagonal: White's king 46 on it, 27 and Black's 1 off
    # the men's lean, 2 * column - 9: White's 31, 32, 33 at columns 1, 3, 5 (-7 - 3 + 1 = -9), Black's 5, 19, 20
    # at columns 9, 6, 8 (9 + 3 + 7 = 19); balance is |-9| - |19|
    assert dict(zip(SCALARS, scalar_features(layout, s.own, s.opp, s.kings))) == \
        dict(to_move=1, men=0, kings=1, king_lead=0, diagonal_kings=1, balance=-10)
    black = game.parse_fen("B:W31,32,33,K46,K27:B5,19,20,K1")
    assert scalar_features(layout, black.own, black.opp, black.kings)[-1] == 10


def test_a_king_square_is_read_from_its_owners_side():
    game = get_game("international", native=False)
    layout = pattern_layout(game)
    bit_46 = game.parse_fen("W:WK46:BK1").own.bit_length() - 1
    kings = np.zeros((KING_BITS, 2), dtype=np.int32)
    kings[bit_46] = (700, 300)                  # a king on its own back corner square (46 for White, 5 for Black)
    w = LearnedWeights(game.name, layout.signature, 1000, ((0, 0),) * len(SCALARS),
                       np.zeros((len(layout.regions), PATTERN_SIZE, 2), dtype=np.int32), (), kings)

    def num(fen: str) -> int:
        s = game.parse_fen(fen)
        return learned_balance(layout, w, s.own, s.opp, s.kings, s.turn)

    p, rest = 2, 40 - 2                        # 2 pieces of 40: the blend's shares
    assert num("W:WK46:BK1") == 700 * p + 300 * rest         # White to move, its king on 46
    assert num("B:WK46:BK1") == -(700 * p + 300 * rest)      # Black to move: the other side's king on 46
    assert num("W:WK46:BK5") == 0 == num("B:WK46:BK5")       # both kings on their own corner: level
    assert num("B:WK1:BK5") == 700 * p + 300 * rest          # Black's king on 5 is its 46


def test_the_blend_of_full_and_empty_boards_and_the_logistic():
    game = get_game("english", native=False)
    w = small_weights(game)
    layout = pattern_layout(game)
    s = game.parse_fen("B:W21,22:B9,10,11")       # Black (first) to move, a man up, 5 pieces of 24
    num = learned_balance(layout, w, s.own, s.opp, s.kings, s.turn)
    assert num == (10 + 800) * 5 + (0 + 2000) * 19      # no pattern weight touched
    assert learned_evaluate(layout, w, s.own, s.opp, s.kings, s.turn) == 1.0 / (1.0 + np.exp(-num / 24000))
    white = game.parse_fen("W:W21,22:B9,10,11")   # White to move, a man down: the first player's chance is high
    assert learned_evaluate(layout, w, white.own, white.opp, white.kings, white.turn) > 0.5


def test_a_weights_file_round_trips(tmp_path):
    game = get_game("english", native=False)
    w = small_weights(game)
    path = tmp_path / "english.v1.weights"
    write_weights(path, w)
    text = path.read_text()
    assert text.startswith("# made by hand for a test\n# second line\nformat 2\nvariant english\n")
    assert f"\nscalar balance 0 0\nkings 1\n{layout_bit(w)} 55 -66\npatterns " in text
    back = read_weights(path)
    assert (back.variant, back.layout, back.unit, back.scalars, back.header) == \
        (w.variant, w.layout, w.unit, w.scalars, w.header)
    assert np.array_equal(back.patterns, w.patterns) and np.array_equal(back.kings, w.kings)
    assert format_weights(back) == text


def layout_bit(w: LearnedWeights) -> int:
    return int(np.nonzero(w.kings.any(axis=1))[0][0])


def test_a_file_of_format_1_reads_with_no_balance_and_no_king_squares():
    w = read_weights("international.v5.weights")
    assert w.scalars[-1] == (0, 0) and len(w.scalars) == len(SCALARS)
    assert not w.kings.any() and w.kings.shape == (KING_BITS, 2)


def faults(text: str):
    lines = text.split("\n")
    body = "\n".join(lines[:-2]) + "\n"
    yield "", "no checksum"
    yield text[: len(text) // 2], "no checksum"
    yield text.replace("scalar men 800", "scalar men 801"), "checksum does not match"
    for old, new, why in [("format 2", "format 3", "format 3"), ("unit 1000", "unit 0", "unit 0"),
                          ("scalar kings", "scalar queens", "scalar kings"), ("patterns 9 2", "patterns 9 3", "3"),
                          ("scalar men 800", f"scalar men {1 << 25}", "beyond"),
                          ("0 5 120 -40", "0 6561 120 -40", "out of range"),
                          ("kings 1\n", "kings 2\n", "of the kings"), (" 55 -66\n", " 55\n", "of the kings"),
                          ("scalar balance 0 0\n", "", "scalar balance"),
                          ("\nkings 1\n", "\nkings 0\n", "expected a line `patterns"),
                          ("\n0 55 -66\n", "\n128 55 -66\n", "bit 128 out of range")]:
        changed = body.replace(old, new)
        yield changed + f"checksum {zlib.crc32(changed.encode()):08x}\n", why


@pytest.mark.parametrize("index", range(14))
def test_a_damaged_file_is_refused_naming_it(tmp_path, index):
    game = get_game("english", native=False)
    text = format_weights(small_weights(game))
    damaged, why = list(faults(text))[index]
    path = tmp_path / "english.v1.weights"
    path.write_text(damaged)
    with pytest.raises(WeightsError, match=why) as caught:
        read_weights(path)
    assert str(path) in str(caught.value)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(WeightsError, match="no such file") as caught:
        read_weights(tmp_path / "nowhere.v1.weights")
    assert str(caught.value).count("nowhere.v1.weights") == 1        # named once, not wrapped twice


def test_a_bare_shipped_name_reads_the_package_file_and_a_local_file_comes_first(tmp_path, monkeypatch):
    """``EvalWeights english.v1.weights`` names the shipped file wherever the engine runs (a
    training command that plays with an older generation stays the same text); a file of that
    name in the working directory is read instead, and a bare name shipped nowhere is missing."""
    game = get_game("english", native=False)
    shipped = tmp_path / "package"
    shipped.mkdir()
    packaged, local = small_weights(game), small_weights(game)
    local.patterns[1, 3] = (5, 5)
    write_weights(shipped / "english.v7.weights", packaged)
    monkeypatch.setattr(weights_mod, "WEIGHTS_DIR", shipped)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert weights_mod.shipped_or_path("english.v7.weights") == shipped / "english.v7.weights"
    assert np.array_equal(read_weights("english.v7.weights").patterns, packaged.patterns)
    write_weights(here / "english.v7.weights", local)
    assert np.array_equal(read_weights("english.v7.weights").patterns, local.patterns)
    with pytest.raises(WeightsError, match="english.v8.weights: no such file"):
        read_weights("english.v8.weights")
    assert weights_mod.shipped_or_path("sub/english.v7.weights") == weights_mod.Path("sub/english.v7.weights")


def test_parse_weights_reads_what_format_weights_writes():
    game = get_game("international", native=False)
    w = small_weights(game)
    assert np.array_equal(parse_weights(format_weights(w)).patterns, w.patterns)


@pytest.fixture
def weights_dir(tmp_path, monkeypatch):
    """The package's weights directory replaced by an empty one (and the games' kernels forgotten)."""
    monkeypatch.setattr(weights_mod, "WEIGHTS_DIR", tmp_path)
    for name in ("english", "frisian", "international"):
        monkeypatch.setattr(get_game(name), "_learned", {})
    return tmp_path


def test_the_evaluation_option_is_a_draughts_option():
    names = [d.option.name for d in all_options(get_game("english"))]
    assert "Evaluation" in names and names.index("Evaluation") > names.index("EvalRunaway")
    assert "Evaluation" not in [d.option.name for d in all_options(get_game("fanorona"))]
    assert "Evaluation" not in [d.option.name for d in all_options()]


@pytest.mark.skipif(not native.available(), reason="the learned evaluation runs in the native kernel")
def test_learned_without_its_file_is_refused_and_hand_set_still_plays(weights_dir):
    values = OptionValues()
    values.apply(values.check("UCI_Variant", "english"))
    with pytest.raises(OptionError, match=r"Evaluation value 'learned' rejected: .*english\.v1\.weights: no such file"):
        values.check("Evaluation", "learned")
    assert values.settings().game_parameters == ENGLISH_TERMS  # still hand-set
    game = get_game("english")
    assert game.search_rules(EvalTerms()) is game.kernel
    with pytest.raises(WeightsError, match="english.v1.weights"):
        game.search_rules(EvalTerms(evaluation="learned"))


@pytest.mark.skipif(not native.available(), reason="the learned evaluation runs in the native kernel")
def test_learned_with_its_file_reaches_the_search_once(weights_dir):
    game = get_game("english")
    write_weights(weights_dir / "english.v1.weights", small_weights(game))
    values = OptionValues()
    values.apply(values.check("UCI_Variant", "english"))
    values.apply(values.check("Evaluation", "learned"))
    parameters = values.settings().game_parameters
    assert parameters == replace(ENGLISH_TERMS, evaluation="learned")
    kernel = game.search_rules(parameters)
    assert kernel.learned and game.search_rules(parameters) is kernel   # read once per game
    s = game.parse_fen("B:W21,22:B9,10,11")
    assert kernel.evaluate(s.own, s.opp, s.kings, s.turn) == \
        learned_evaluate(pattern_layout(game), small_weights(game), s.own, s.opp, s.kings, s.turn)


@pytest.mark.skipif(not native.available(), reason="the learned evaluation runs in the native kernel")
def test_a_file_of_the_dense_layout_plays_by_its_regions(weights_dir):
    game = get_game("international")
    write_weights(weights_mod.weights_path("international"), small_weights(game, stride=1))
    kernel = game.learned_kernel()
    s = game.parse_fen("W:W31,32,33,46,K27:B5,19,20,K1")
    dense = pattern_layout(game, 1)
    assert kernel.evaluate(s.own, s.opp, s.kings, s.turn) == \
        learned_evaluate(dense, small_weights(game, stride=1), s.own, s.opp, s.kings, s.turn)


@pytest.mark.skipif(not native.available(), reason="the learned evaluation runs in the native kernel")
def test_weights_of_another_board_are_refused(weights_dir):
    write_weights(weights_dir / "frisian.v1.weights", small_weights(get_game("english")))
    with pytest.raises(WeightsError, match="made for english"):
        get_game("frisian").learned_kernel()


@pytest.mark.skipif(not native.available(), reason="the learned evaluation runs in the native kernel")
def test_eval_weights_names_another_file_and_a_bad_one_is_refused_naming_it(weights_dir, tmp_path):
    game = get_game("english")
    mine = tmp_path / "mine" / "english.weights"
    mine.parent.mkdir()
    write_weights(mine, small_weights(game))
    values = OptionValues()
    values.apply(values.check("UCI_Variant", "english"))
    values.apply(values.check("EvalWeights", str(mine)))
    values.apply(values.check("Evaluation", "learned"))
    parameters = values.settings().game_parameters
    assert parameters == replace(ENGLISH_TERMS, evaluation="learned", weights_file=str(mine))
    s = game.parse_fen("B:W21,22:B9,10,11")
    kernel = game.search_rules(parameters)
    assert kernel.evaluate(s.own, s.opp, s.kings, s.turn) == \
        learned_evaluate(pattern_layout(game), small_weights(game), s.own, s.opp, s.kings, s.turn)
    with pytest.raises(OptionError, match=r"EvalWeights value '.*nothere\.weights' rejected: .*no such file"):
        values.check("EvalWeights", str(tmp_path / "nothere.weights"))
    assert values.settings().game_parameters.weights_file == str(mine)     # the previous value stays


@pytest.mark.skipif(not native.available(), reason="the learned evaluation runs in the native kernel")
def test_a_weights_file_set_before_its_variant_is_kept_and_a_game_it_does_not_fit_searches_hand_set(tmp_path):
    """Clients set the options before the variant (cutechess sends UCI_Variant at each new
    game): another board's file is taken, used once its variant is chosen; a search of a game
    it does not fit says so, naming the file, and searches with the hand-set evaluation
    (not random moves)."""
    from support.drivers import InProcessEngine
    theirs = tmp_path / "intl.weights"
    write_weights(theirs, small_weights(get_game("international")))
    engine = InProcessEngine()
    try:
        assert engine.ask(f"setoption name EvalWeights value {theirs}") == []        # while in English
        assert engine.ask("setoption name Evaluation value learned") == []
        assert engine.ask("setoption name UCI_Variant value international") == []
        engine.send("position startpos")
        lines, move = engine.go("nodes 200")
        assert not [s for s in lines if "error" in s] and move in engine.query("moves").split()
        assert engine.ask("setoption name UCI_Variant value english") == []
        engine.send("position startpos")
        lines, move = engine.go("nodes 200")
        errors = [s for s in lines if s.startswith("info string error")]
        assert len(errors) == 1 and str(theirs) in errors[0] and "made for international" in errors[0]
        assert errors[0].endswith("searching with the hand-set evaluation instead")
        assert move in engine.query("moves").split() and "nodes 200" in lines[-1]
    finally:
        engine.close()
