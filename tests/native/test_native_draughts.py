"""The native kernel against the Python rules, its reference, in every test run.

Every draughts variant: perft (native = Python = the published tables), the legal moves of
10,000 positions from seeded random games and of random placements (hypothesis), listed
in the same order; outcome, draw counters, repetition history and evaluation (to the last
bit) along whole games played move by move on a Python state, a native state and the
kernel's own ``play``; random moves and playouts drawing from the same ``random.Random``
(the same games); the endgame tables' index.  A slow test builds the kernel with ASan and
UBSan and runs this file under them.

Without the kernel (not built, or ``MCTS_ENGINE_NATIVE=0``) the module skips, except in
CI, where an unbuilt kernel fails the run.
"""
from __future__ import annotations

import os
import pickle
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from support import ROOT, in_ci, pytest_runs, sanitized
from mcts_engine import native
from mcts_engine.rules.draughts import VARIANTS, DraughtsGame, DraughtsState, MoveGenerator, make_game
from mcts_engine.rules.draughts.kernel import kernel_spec
from mcts_engine.rules.draughts.variants import COUNT_MAX, variant_with_options
from mcts_engine.rules.geometry import indices
from mcts_engine.tables.material import Material, Numbering, materials_named
from mcts_engine.tables.store import TableSet

from support.closed_chains import closed_chains, closing_moves
from support.perft import PERFT

SWITCHED_OFF = native.switched_off


def test_the_kernel_is_built_in_ci():
    """In CI the extension must have been compiled by the install (unless switched off on
    purpose for the Python-rules run): a failed build must not pass as a slow green run."""
    if not in_ci() or SWITCHED_OFF:
        pytest.skip("only checked in CI with the kernel on")
    assert native.available(), native.status()


if not native.available():
    pytest.skip(f"no native kernel: {native.status()}", allow_module_level=True)

NAMES = sorted(VARIANTS)
Core = native.core


def games(name: str, **options):
    """The native game and the Python reference game of a variant."""
    return make_game(name, **options), make_game(name, native=False, **options)


def position(state) -> tuple:
    """Everything a draughts state holds, for comparing two of them."""
    return (state.own, state.opp, state.kings, state.turn, state.ply, state.progress_ply, state.capture_ply,
            state.drawn, state.runs, state.history)


def seeded_positions(game, count: int, seed: int):
    """``count`` states of seeded random games of ``game`` (Python rules), the ends included."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_state()
        while len(out) < count:
            out.append(state.copy())
            moves = state.legal_moves()
            if not moves:
                break
            state.play(moves[int(rng.random() * len(moves))])
    return out


# --- perft -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(PERFT))
def test_perft_matches_the_published_table_and_python(name):
    opts, counts = PERFT[name]
    fast, ref = games(name, **opts)
    start = fast.new_state()
    for depth, expected in enumerate(counts, 1):
        assert fast.perft(start, depth) == expected, (name, depth)
    python_depth = 4 if fast.variant.size > 8 or fast.variant.squares == "all" else 5
    assert ref.perft(ref.new_state(), python_depth) == fast.perft(start, python_depth) == counts[python_depth - 1]


@pytest.mark.parametrize("name", NAMES)
def test_perft_of_every_variant_from_mid_game_positions(name):
    fast, ref = games(name)
    for state in seeded_positions(ref, 30, seed=7)[::6]:
        native_state = fast.parse_fen(state.fen())
        assert fast.perft(native_state, 3) == ref.perft(state, 3), state.fen()


# --- legal moves ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_legal_moves_of_ten_thousand_positions(name):
    """The same moves in the same order (the order decides which move a seeded draw picks)."""
    fast, ref = games(name)
    kernel = fast.kernel
    for state in seeded_positions(ref, 10_000, seed=11):
        frozen = state._frozen()
        expected = MoveGenerator.legal(ref, state.own, state.opp, state.kings, state.turn, frozen)
        assert kernel.legal(state.own, state.opp, state.kings, state.turn, frozen) == expected, state.fen()
        assert kernel.jumpers(state.own, state.opp, state.kings, state.turn) == \
            MoveGenerator.jumpers(ref, state.own, state.opp, state.kings, state.turn)


def placements(name: str):
    """Random placements of men and kings (men off their crowning rows), either side to move:
    the crowded, king-rich positions that random games seldom reach."""
    game = make_game(name, native=False)
    squares = indices(game.points)

    @st.composite
    def draw(draw_fn):
        chosen = draw_fn(st.lists(st.sampled_from(squares), min_size=2, max_size=min(24, len(squares)), unique=True))
        own = opp = kings = 0
        for i in chosen:
            bit = 1 << i
            side = draw_fn(st.integers(0, 1))
            # a man cannot stand on a crowning row: there it is a king
            king = draw_fn(st.integers(0, 2)) == 0 or bool(bit & (game.promo[0] | game.promo[1]))
            if side == 0:
                own |= bit
            else:
                opp |= bit
            if king:
                kings |= bit
        return own, opp, kings, draw_fn(st.integers(0, 1))
    return draw()


@pytest.mark.parametrize("name", NAMES)
def test_legal_moves_of_random_placements(name):
    fast, ref = games(name)

    @settings(max_examples=sanitized.examples(300), deadline=None, derandomize=True)
    @given(placements(name))
    def check(raw):
        own, opp, kings, turn = raw
        assert fast.kernel.legal(own, opp, kings, turn) == MoveGenerator.legal(ref, own, opp, kings, turn)
        assert fast.kernel.evaluate(own, opp, kings, turn) == DraughtsState(ref, own, opp, kings, turn).evaluate()
        assert fast.kernel.endgame_limit(own, opp, kings) == DraughtsGame.endgame_limit(ref, own, opp, kings)
    check()


# --- whole games: play, outcome, counters, evaluation ------------------------------------------

KING_ENDINGS = {   # positions where kings shuffle, so repetition and the counts decide
    "english": "W:WK1,K3:BK30",
    "international": "W:WK46,K47,K48:BK5",
    "russian": "W:WKa1,Kc1,Ke1:BKh8",
    "frisian": "W:WK1,K3:BK50",
    "turkish": "W:WKa1:BKh8",
    "antidraughts": "W:WK46,K47:BK5,K4",
}


def check_same_game(fast, ref, start_fen: str | None, seed: int, plies: int = 400) -> int:
    """Play one seeded random game on a Python state, a native state and through the kernel's
    own ``play``, comparing everything after every ply; the plies played."""
    py = ref.new_state() if start_fen is None else ref.parse_fen(start_fen)
    na = fast.new_state() if start_fen is None else fast.parse_fen(start_fen)
    kp = na.copy()
    rng = random.Random(seed)
    for ply in range(plies):
        assert position(na) == position(py) == position(kp), (ply, py.fen())
        assert na.outcome() == py.outcome(), (ply, py.fen())
        assert na.evaluate() == py.evaluate(), (ply, py.fen())     # to the last bit
        moves = py.legal_moves()
        assert na.legal_moves() == moves
        if not moves:
            return ply
        move = moves[int(rng.random() * len(moves))]
        py.play(move)
        na.play(move)
        kp.set_raw(fast.kernel.play(kp.raw(), move))
    return plies


@pytest.mark.parametrize("name", NAMES)
def test_whole_games_keep_the_same_outcome_and_counters(name):
    fast, ref = games(name)
    plies = sum(check_same_game(fast, ref, None, seed) for seed in range(12))
    fen = KING_ENDINGS.get(name)
    if fen is not None:
        plies += sum(check_same_game(fast, ref, fen, seed) for seed in range(6))
    assert plies > 300


@pytest.mark.parametrize("name", NAMES)
def test_closed_chains_keep_the_piece_as_in_python(name):
    """A chain that ends on its start square (a king, and a man that jumps backwards, round
    four men: tests/support/closed_chains.py): the same moves, the same position after each
    closing move by the state's and the kernel's ``play``, the same perft and random games."""
    fast, ref = games(name)
    for chain in closed_chains(ref):
        py = chain.state
        na = DraughtsState(fast, py.own, py.opp, py.kings, py.turn)
        assert na.legal_moves() == py.legal_moves(), chain.label
        closing = closing_moves(chain)
        assert bool(closing) == chain.expected, chain.label
        for move in closing:
            a, b, k = py.copy(), na.copy(), na.copy()
            a.play(move)
            b.play(move)
            k.set_raw(fast.kernel.play(k.raw(), move))
            assert position(a) == position(b) == position(k), chain.label
            assert a.opp == chain.start and a.kings == py.kings & chain.start
        assert fast.perft(na, 2) == ref.perft(py, 2), chain.label
        for seed in range(4):
            check_same_game(fast, ref, py.fen(), seed)


LARGEST = {"repetition": COUNT_MAX, "king_move_limit": COUNT_MAX, "no_progress": COUNT_MAX}


@pytest.mark.parametrize("name,fen", [("frisian", "W:WK28,K33,46,47:BK3,4,5"), ("english", "W:WK1,K3:BK30"),
                                      ("international", "W:WK46,K47,36,37:BK4,K5,14,15")])
def test_the_largest_counts_behave_alike(name, fen):
    """The rule options the kernel holds in a C int, at the largest value the parser accepts:
    the same moves, counters and outcomes on both sides (a value past a C int once became 1
    there: every king move drew, every Frisian king froze after one move)."""
    fast, ref = games(name, **LARGEST)
    assert fast.kernel is not None and ref.repetition == ref.king_move_limit == COUNT_MAX
    assert sum(check_same_game(fast, ref, fen, seed, plies=200) for seed in range(8)) > 50
    assert fast.parse_fen(fen).legal_moves() == ref.parse_fen(fen).legal_moves()


def test_a_variant_built_past_the_option_bounds_is_refused_by_the_bridge():
    """kernel.py checks what it hands to C's int fields, even from a row built without the parser."""
    row = replace(VARIANTS["frisian"], repetition=COUNT_MAX + 1)
    with pytest.raises(ValueError, match="repetition=2147483648 does not fit a C int"):
        DraughtsGame(row)


@pytest.mark.parametrize("name,fen", sorted((n, f) for n, f in KING_ENDINGS.items() if n != "antidraughts"))
def test_king_endings_are_drawn_alike(name, fen):
    """Shuffling kings end by repetition, no progress or a count at the same ply on both sides
    (where random play does not end them by a capture first)."""
    fast, ref = games(name)
    drawn = 0
    for seed in range(10):
        py, na = ref.parse_fen(fen), fast.parse_fen(fen)
        rng_py, rng_na = random.Random(seed), random.Random(seed)
        assert na.playout(rng_na) == py.playout(rng_py)
        assert position(na) == position(py)
        drawn += na.drawn
    assert drawn > 0 or name in ("international", "russian")


# --- random moves and playouts ---------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_playouts_draw_as_the_python_loop(name):
    """Given a ``random.Random``, the native playout plays the Python playout's very game:
    same result, same final state, same recorded moves, same draws left in the generator."""
    fast, ref = games(name)
    for seed in range(8):
        rng_py, rng_na = random.Random(seed), random.Random(seed)
        py, na = ref.new_state(), fast.new_state()
        moves_py, moves_na = [], []
        depth = (0, 7, 1)[seed % 3] or 10_000
        assert na.recorded_playout(rng_na, moves_na, depth) == py.recorded_playout(rng_py, moves_py, depth)
        assert moves_na == moves_py
        assert position(na) == position(py)
        assert rng_na.random() == rng_py.random()
        for _ in range(5):
            assert na.random_move(rng_na) == py.random_move(rng_py)


def test_native_random_source_plays_legal_games():
    fast, ref = games("international")
    rng = Core.Random(5)
    results = set()
    for _ in range(200):
        state = fast.new_state()
        results.add(state.playout(rng))
        assert state.outcome() in (0.0, 0.5, 1.0)
        assert ref.parse_fen(state.fen()).outcome() == state.outcome() or state.drawn
    assert results == {0.0, 0.5, 1.0}
    wins, draws, losses, plies = fast.kernel.playouts(fast.new_state().raw(), 500, 3)
    assert wins + draws + losses == 500 and plies > 500 * 30


def test_random_source_is_seeded_and_uniform():
    a, b = Core.Random(9), Core.Random(9)
    xs = [a.random() for _ in range(20_000)]
    assert xs[:50] == [b.random() for _ in range(50)]
    assert all(0.0 <= x < 1.0 for x in xs)
    mean = sum(xs) / len(xs)
    assert abs(mean - 0.5) < 0.01
    assert a.getrandbits(64) != a.getrandbits(64) and 0 <= a.getrandbits(3) < 8


# --- endgame tables ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,material", [("english", "2K-1K"), ("english", "1K1M-1M/1"),
                                           ("international", "3K-1K"), ("russian", "2K1M-1K/0"),
                                           ("canadian", "2K-1K")])
def test_table_index_matches_the_numbering(name, material):
    fast, _ = games(name)
    numbering = Numbering(fast, Material.parse(material))
    m = numbering.material
    classes = (m.own_kings, m.own_men, m.opp_kings, m.opp_men)
    for n, (index, own, opp, kings) in enumerate(numbering.positions()):
        if n % 97 == 0:
            assert fast.kernel.table_index(own, opp, kings, classes) == index == numbering.index(own, opp, kings)
    with pytest.raises(KeyError):
        fast.kernel.table_index(own, opp, 0, classes)


@pytest.mark.parametrize("name,materials", [("english", ["2K-1K", "1K1M-1K", "2M-1K"]),
                                            ("russian", ["2K-1K", "1K1M-1K/0"]),      # stricter counts on the long diagonal
                                            ("canadian", ["1K-1K", "1M-1K/0"])])     # the 128-bit word
def test_the_kernel_s_tables_are_the_python_rules_tables(name, materials, tmp_path):
    """The tables' builder on the kernel's move graph (table_graph) and on the Python rules'
    walk: every table (the smaller ones each leads to included) the same, value for value."""
    built = {}
    for game in games(name):
        store = TableSet(game, tmp_path / str(game.native))
        for text in materials:
            for material in materials_named(text):
                store.build(material)
        built[game.native] = {m: store.table(m) for m in store.on_disk()}
    assert built[True].keys() == built[False].keys() and len(built[True]) >= len(materials)
    for material, table in built[True].items():
        reference = built[False][material]
        assert (table.count, table.exact) == (reference.count, reference.exact), material.name
        assert (table.values == reference.values).all(), material.name


def test_the_table_graph_refuses_bad_buffers():
    fast, _ = games("english")
    size = Numbering(fast, Material.parse("2K-1K")).size
    valid, degree = bytearray(size), bytearray(4 * size)
    with pytest.raises(ValueError, match="degree: .* expected"):
        fast.kernel.table_graph((2, 0, 1, 0), 0, (1, 0, 2, 0), valid, bytearray(size), None, None, None)
    with pytest.raises(ValueError, match="piece count"):
        fast.kernel.table_graph((7, 0, 1, 0), 0, (1, 0, 7, 0), valid, degree, None, None, None)
    with pytest.raises(BufferError):
        fast.kernel.table_graph((2, 0, 1, 0), 0, (1, 0, 2, 0), bytes(size), degree, None, None, None)   # not writable
    assert fast.kernel.table_graph((2, 0, 1, 0), 0, (1, 0, 2, 0), valid, degree, None, None, None) is None
    assert sum(valid) == 32 * 31 * 30 // 2


# --- the boundary ---------------------------------------------------------------------------

def test_bad_input_is_refused_with_a_clear_error():
    fast, _ = games("english")
    k, s = fast.kernel, fast.new_state()
    with pytest.raises(ValueError, match="not a square"):
        k.legal(1 << 40, 0, 0, 0)
    with pytest.raises(ValueError, match="overlap"):
        k.legal(s.own, s.own, 0, 0)
    with pytest.raises(OverflowError):
        k.legal(-1, 0, 0, 0)
    with pytest.raises(ValueError, match="turn"):
        k.legal(s.own, s.opp, 0, 2)

    class Broken:
        def random(self):
            return 1.0
    with pytest.raises(ValueError, match="outside"):
        fast.new_state().playout(Broken())

    class Raising:
        def random(self):
            raise RuntimeError("no entropy")
    with pytest.raises(RuntimeError, match="no entropy"):
        fast.new_state().random_move(Raising())
    with pytest.raises(KeyError):
        Core.DraughtsKernel({})


def test_a_game_outside_the_registry_pickles_and_recompiles():
    game = make_game("frisian", no_progress=20)
    game.registry_entry = None
    clone = pickle.loads(pickle.dumps(game))
    assert clone.kernel is not None and clone.perft(clone.new_state(), 3) == game.perft(game.new_state(), 3)
    assert make_game("frisian", native=False).kernel is None


def test_wide_boards_take_the_128_bit_word():
    assert make_game("canadian").kernel.wide and make_game("turkish").kernel.wide
    assert not make_game("international").kernel.wide and not make_game("frisian").kernel.wide
    assert variant_with_options("canadian").size == 12


def test_a_kernel_set_up_again_takes_the_new_word_and_an_unset_one_refuses():
    """``DraughtsKernel.__init__`` called again with another board's spec takes that board's word
    (the old word's scratch buffers dropped), and a kernel never set up refuses every method
    with a clear error instead of reaching a word it does not have."""
    narrow, wide = make_game("english"), make_game("canadian")
    k = Core.DraughtsKernel(kernel_spec(make_game("english", native=False)))
    s, c = narrow.new_state(), wide.new_state()
    board = (s.own, s.opp, s.kings, s.turn)
    assert not k.wide and k.legal(*board) == narrow.legal(*board)
    assert k.perft(*board, 4) == narrow.kernel.perft(*board, 4)
    k.__init__(kernel_spec(make_game("canadian", native=False)))
    assert k.wide and k.legal(c.own, c.opp, c.kings, c.turn) == wide.kernel.legal(c.own, c.opp, c.kings, c.turn)
    assert k.playouts(c.raw(), 3, 5) == wide.kernel.playouts(c.raw(), 3, 5)
    unset = Core.DraughtsKernel.__new__(Core.DraughtsKernel)
    for call in (lambda: unset.legal(0, 0, 0, 0), lambda: unset.outcome(s.raw()), lambda: unset.perft(0, 0, 0, 0, 1)):
        with pytest.raises(RuntimeError, match="not set up"):
            call()


# --- the fallback ---------------------------------------------------------------------------------

#: in two groups of about equal run time, each in its own interpreter, side by side
FALLBACK_GROUPS = [["mcts/test_search_core.py", "rules/draughts/test_draughts_rules.py"],     # about 37 s of tests each
                   ["rules/test_dablot.py", "tables/test_tables.py", "rules/test_fanorona.py",
                    "protocol/test_protocol_inprocess.py", "rules/draughts/test_perft.py"]]


@pytest.mark.slow
@pytest.mark.timeout(1500)       # a whole run of test files in a subprocess, not one test
def test_the_rules_search_and_protocol_tests_pass_on_the_python_rules():
    """The draughts rules, table, search and protocol tests once more with the kernel switched
    off (``MCTS_ENGINE_NATIVE=0``): where the kernel did not build, the engine still works.
    (The whole suite: ``MCTS_ENGINE_NATIVE=0 python -m pytest``.)"""
    env = dict(os.environ, MCTS_ENGINE_NATIVE="0")
    runs = pytest_runs.run_groups(FALLBACK_GROUPS, ["-q", "-x", "-p", "no:cacheprovider", "-m", "not slow"], env,
                                  ROOT / "tests", timeout=1200)
    for done in runs:
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


# --- sanitizers ---------------------------------------------------------------------------------

HERE = Path(__file__).parent
#: the files run on the sanitized build: this file's checks, the search core's, every native
#: game's rules and interface, the evaluation's terms and the learned evaluation; in two groups
#: of about equal run time, each in its own interpreter, side by side
SANITIZED_GROUPS = [
    [__file__,                                           # the draughts kernel against the Python rules
     str(HERE / "test_native_learned.py"),               # the learned evaluation
     str(HERE.parent / "mcts" / "test_search_core.py"),  # the search core
     str(HERE / "test_native_fanorona.py"),              # Fanorona's rules
     str(HERE / "test_native_dablot.py"),                # Dablot's rules
     str(HERE.parent / "mcts" / "test_root_check.py")],  # the root check's alpha-beta and restriction
    [str(HERE / "test_native_evaluation.py"),            # the evaluation's terms
     str(HERE / "test_native_rithmomachia.py"),          # Rithmomachia's native rules
     str(HERE / "test_native_alquerque.py"),             # the Alquerque family's rules
     str(HERE / "test_native_life.py"),                  # Life's native rules
     str(HERE / "test_native_gauntlet.py"),              # Gauntlet's native rules
     str(HERE / "test_native_games.py")],                # every native game's interface
]


@pytest.mark.slow
@pytest.mark.timeout(1500)       # a whole run of test files on a sanitized build, not one test
def test_the_cross_checks_pass_under_asan_and_ubsan(tmp_path):
    """The extension built with AddressSanitizer and UndefinedBehaviorSanitizer (every finding
    aborts), then this file's checks, the search core's (tests/mcts/test_search_core.py and
    the root check's, test_root_check.py),
    Fanorona's and Dablot's rules' (test_native_fanorona.py, test_native_dablot.py), the evaluation's
    (test_native_evaluation.py) and the learned evaluation's (test_native_learned.py), every native
    game's interface (test_native_games.py) and Rithmomachia's, Life's, Gauntlet's and the Alquerque
    family's native rules (test_native_rithmomachia.py, test_native_life.py, test_native_gauntlet.py,
    test_native_alquerque.py) run on it in fresh interpreters (two, side by side:
    tests/support/pytest_runs.py)."""
    asan = sanitized.sanitizer_runtime("libasan.so")
    if asan is None:
        if in_ci():
            pytest.fail("gcc has no AddressSanitizer runtime (libasan.so)")
        pytest.skip("gcc has no AddressSanitizer runtime")
    library = sanitized.build(tmp_path, ["-O1", "-g", "-fno-omit-frame-pointer", "-ffp-contract=off",
                                         "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"], ["-lm"])
    env = dict(os.environ, LD_PRELOAD=asan, ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1", MCTS_ENGINE_NATIVE="1",
               **{sanitized.SANITIZED_RUN: "1"})
    runs = pytest_runs.run_groups(SANITIZED_GROUPS, ["-q", "-x", "-p", "no:cacheprovider", "-m", "not slow"], env,
                                  HERE, timeout=1200, library=library)
    for done in runs:
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        assert "passed" in done.stdout and "runtime error" not in done.stderr



# --- the quiescence search -------------------------------------------------------------------------

def capture_minimax(game, own: int, opp: int, kings: int, turn: int, depth: int = 16) -> float:
    """The side to move's value after best play over the pending captures (Python rules, the
    counters left out), the evaluation where the position is quiet: QuiescenceSearch's value."""
    moves = MoveGenerator.legal(game, own, opp, kings, turn)
    if not moves:
        first = game.stuck_score[turn]
        return first if turn == 0 else 1.0 - first
    if not moves[0][2] or depth == 0:
        first = DraughtsState(game, own, opp, kings, turn).evaluate()
        return first if turn == 0 else 1.0 - first
    best = -1.0
    for frm, to, cap, crowned in moves:
        child = DraughtsGame.child((own, opp, kings, turn), (frm, to, cap, crowned))
        best = max(best, 1.0 - capture_minimax(game, *child, depth - 1))
    return best


@pytest.mark.parametrize("name", ["english", "international", "russian", "frisian", "turkish", "canadian"])
def test_the_quiescence_value_is_the_minimax_of_the_capture_lines(name):
    fast, ref = games(name)
    checked = 0
    for state in seeded_positions(ref, 3000, seed=17)[::7]:
        if state.drawn or not state.legal_moves():
            continue
        value = fast.kernel.quiesce(fast.parse_fen(state.fen()).raw())
        expected = capture_minimax(ref, state.own, state.opp, state.kings, state.turn)
        assert value == pytest.approx(expected if state.turn == 0 else 1.0 - expected, abs=1e-12), state.fen()
        checked += bool(state.legal_moves()[0][2])
    assert checked > 10                                  # positions with captures pending were among them
    assert make_game("antidraughts").kernel.quiesce(make_game("antidraughts").new_state().raw()) is None
