"""Rithmomachia properties over seeded random games (default options, author_compat and
the other option values), bad input, options, agents and the article's capture-first finding."""
from __future__ import annotations

import random

import pytest

from mcts_engine.rules import get_game, parse_rule_options
from mcts_engine.rules.base import BadOption, BadPosition, IllegalMove

OPTION_SETS = [
    {}, {"preset": "author_compat"}, {"movement": "linear"}, {"movement": "linear", "linear_up_to": True},
    {"siege": "natural"}, {"ambush": "custodial", "custodial_diagonal": True},
    {"pyramid_diagonal3": True, "pyramid_total_only_intact": True, "pyramid_total_only_intact_defence": False},
    {"pyramid_whole_on_component_hit": True, "pyramid_capture_wins": True},
    {"glorious": "on", "glorious_lines": "orthogonal_diagonal", "glorious_unobstructed": True},
    {"glorious": "after_pyramid", "glorious_ordered": True, "glorious_author_literal": True},
    {"board_ranks": 14, "setup": "back_ranks", "first_player": "black", "no_moves": "loss"},
    {"setup": "back_ranks", "max_plies": 60},
]
IDS = ["-".join(f"{k}={v}" for k, v in o.items()) or "default" for o in OPTION_SETS]
MAX_PLIES = 3000


def random_game(game, seed: int):
    """The states of a seeded random game (fresh copies) and the moves between them."""
    rng = random.Random(seed)
    state = game.new_state()
    states, moves = [state.copy()], []
    for _ in range(MAX_PLIES):
        move = state.random_move(rng)
        if move is None:
            return states, moves
        state.play(move)
        states.append(state.copy())
        moves.append(move)
    raise AssertionError(f"random game {seed} did not end in {MAX_PLIES} plies")


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_random_game_properties(options):
    game = get_game("rithmomachia", **options)
    for seed in range(2 if options in ({}, {"preset": "author_compat"}) else 1):
        states, moves = random_game(game, seed)
        for k, s in enumerate(states):
            legal = s.legal_moves()
            assert (s.outcome() is None) == bool(legal)
            assert 0.0 <= s.evaluate() <= 1.0
            fen = s.fen()
            again = game.parse_fen(fen)
            assert again.key() == s.key() and again.fen() == fen
            if k < len(moves):
                # the incremental capture resolution equals a whole-board pass from the FEN
                again.play(moves[k])
                assert again.key() == states[k + 1].key(), (fen, s.move_str(moves[k]))
                assert again.outcome() == states[k + 1].outcome()
            if k % 5 == 0 or k == len(states) - 1:
                assert sorted(game.parse_fen(fen).legal_moves()) == sorted(legal)
                assert len(set(legal)) == len(legal)
                for m in legal:
                    assert s.parse_move(s.move_str(m)) == m
        end = states[-1]
        assert end.outcome() in (0.0, 0.5, 1.0)
        assert end.random_move(random.Random(0)) is None


@pytest.mark.parametrize("options, max_plies", [({}, None), ({}, 150), ({"setup": "back_ranks", "max_plies": 60}, None)])
def test_playout_equals_the_random_move_loop(options, max_plies):
    # the playout fast path draws exactly what random_move / play would with the same seed
    game = get_game("rithmomachia", **options)
    for seed in range(3):
        fast, slow = game.new_state(), game.new_state()
        rng_fast, rng_slow = random.Random(seed), random.Random(seed)
        outcome = fast.playout(rng_fast) if max_plies is None else fast.playout(rng_fast, max_plies)
        for _ in range(MAX_PLIES if max_plies is None else max_plies):
            move = slow.random_move(rng_slow)
            if move is None:
                break
            slow.play(move)
        assert fast.key() == slow.key() and fast.ply == slow.ply
        assert outcome == slow.outcome()
        assert rng_fast.random() == rng_slow.random()


def test_copy_independence():
    game = get_game("rithmomachia")
    s = game.new_state()
    rng = random.Random(5)
    for _ in range(40):
        s.play(s.random_move(rng))
    c = s.copy()
    fen, key = s.fen(), s.key()
    for _ in range(30):
        m = c.random_move(rng)
        if m is None:
            break
        c.play(m)
    assert s.fen() == fen and s.key() == key
    assert c.key() != key


def test_pending_threat_taken_by_any_move():
    # §5.1: a piece left en prise is taken by whatever move the mover makes next
    game = get_game("rithmomachia")
    s = game.parse_fen("B:Wd5=R16,a1=R2:Be6=T16,h16=R3")
    s.play(s.parse_move("h16-g15"))     # Black cannot save the T16 and does not
    for move in s.legal_moves():
        if s.move_str(move).startswith("d5"):
            continue                    # moving the attacker away lifts the threat
        c = s.copy()
        c.play(move)
        assert "e6" not in c.fen(), s.move_str(move)


def test_outcome_rules():
    game = get_game("rithmomachia")
    s = game.parse_fen("W:Wa1=R2:Bb2=R4,h16=R3")   # the round's only step is blocked
    assert s.legal_moves() == [] and s.outcome() == 0.5
    lose = get_game("rithmomachia", no_moves="loss").parse_fen("W:Wa1=R2:Bb2=R4,h16=R3")
    assert lose.outcome() == 0.0
    black_first = get_game("rithmomachia", first_player="black", no_moves="loss")
    assert black_first.parse_fen("W:Wa1=R2:Bb2=R4,h16=R3").outcome() == 1.0   # White is player 1
    capped = get_game("rithmomachia", max_plies=2)
    s = capped.new_state()
    rng = random.Random(1)
    s.play(s.random_move(rng))
    assert s.outcome() is None
    s.play(s.random_move(rng))
    assert s.outcome() == 0.5 and s.legal_moves() == [] and "N2" in s.fen()


def test_pyramid_capture_wins():
    s = get_game("rithmomachia", pyramid_capture_wins=True).parse_fen("W:Wc14=R2:Ba16=P(S64+xS49+T36+T25+R16),h1=R3")
    s.play(s.parse_move("c14-b15"))
    assert s.outcome() == 1.0 and s.caps[0] == 4


@pytest.mark.parametrize("fen", [
    "", "X:Wa1=R2", "W:Wa1=R2:Ba1=R3", "W:Wz1=R2", "W:Wa17=R2", "W:Wa1=Q2", "W:Wa1=R0", "W:Wa1R2",
    "W:Wa1=P()", "W:Wa1=P(xR1+xT2)", "W:Wa1=P(R1+Q2)", "W:Wa1=R2:Bh16=R3:C1/2/3", "W:Wa1=R2:Nx",
    "W:Wa1=R2:Wb1=R3", "W:Wa1=R2:Zfoo"])
def test_bad_fen(fen):
    with pytest.raises(BadPosition):
        get_game("rithmomachia").parse_fen(fen)


@pytest.mark.parametrize("fen, why", [
    ("W:Wa1=R16777216:Bh16=R3", "2\\*\\*24"), ("W:Wa1=P(" + "+".join(["R1"] * 17) + "):Bh16=R3", "16 components"),
    ("W:W" + ",".join(f"{f}1=P(R1)" for f in "abcdefgh") + ",a2=P(R1):Bh16=R3", "8 pyramids"),
    ("W:Wa1=R2:Bh16=R3:C1/2/3/1152921504606846977", "2\\*\\*60"), ("W:Wa1=R2:Bh16=R3:N1152921504606846977", "2\\*\\*60")])
def test_a_fen_past_the_rules_limits_is_refused_naming_them(fen, why):
    # the native rules hold values below 2**24, 8 pyramids of 16 components, counters to 2**60:
    # a FEN past them is refused where it is read, on both cores (not at the first search)
    for native in (True, False):
        with pytest.raises(BadPosition, match=why):
            get_game("rithmomachia", native=native).parse_fen(fen)


def test_bad_fen_on_the_short_board():
    with pytest.raises(BadPosition, match="a15"):
        get_game("rithmomachia", board_ranks=14).parse_fen("W:Wa15=R2")


@pytest.mark.parametrize("move", ["a3-a4", "a3-b6x", "", "a3", "z1-a1", "a1-a2", "h14-h11", "a3-a17", "a3--b6"])
def test_illegal_move(move):
    s = get_game("rithmomachia").new_state()
    with pytest.raises(IllegalMove):
        s.parse_move(move)


def test_move_texts_accepted():
    s = get_game("rithmomachia").new_state()
    assert s.parse_move("A3-B6") == s.parse_move("a3b6") == s.parse_move(" a3-b6 ")


@pytest.mark.parametrize("options,word", [
    ({"colour": "red"}, "colour"), ({"siege": "far"}, "far"), ({"board_ranks": 12}, "board_ranks"),
    ({"preset": "ludii"}, "preset"), ({"max_plies": -3}, "max_plies"), ({"eruption_division": "maybe"}, "maybe"),
    ({"win_piece_count": "x"}, "win_piece_count"), ({"glorious": "yes"}, "glorious"),
    ({"win_value_white": 2**61}, "win_value_white"), ({"max_plies": 2**61}, "max_plies")])
def test_bad_option(options, word):
    with pytest.raises(BadOption, match=word):
        get_game("rithmomachia", **options)


def test_options_from_rules_string():
    game = get_game("rithmomachia", **parse_rule_options("preset=author_compat,eruption_division=true,max_plies=500"))
    o = game.options
    assert o["preset"] == "author_compat" and o["eruption_division"] is True and o["max_plies"] == 500
    assert o["ambush_same_piece_pairs"] is True and o["capture_counting"] == "author"
    default = get_game("rithmomachia").options
    assert default["glorious"] == "off" and default["max_plies"] is None and len(default) == 30


def test_setups():
    back = get_game("rithmomachia", setup="back_ranks").new_state().fen()
    assert "a1=S25" in back and "a16=S361" in back and "c13=R9" in back
    short = get_game("rithmomachia", board_ranks=14)
    fen = short.new_state().fen()
    assert "a2=S25" in fen and "a13=S361" in fen and "c10=R9" in fen
    assert "a1=S25" in get_game("rithmomachia", board_ranks=14, setup="back_ranks").new_state().fen()
    assert "a14=S361" in get_game("rithmomachia", board_ranks=14, setup="back_ranks").new_state().fen()


def test_linear_movement():
    g = get_game("rithmomachia", movement="linear")
    s = g.parse_fen("W:Wd4=T9,d5=R2:Bh16=R3")
    dests = {s.move_str(m) for m in s.legal_moves() if s.move_str(m).startswith("d4")}
    assert dests == {"d4-b2", "d4-b4", "d4-b6", "d4-d2", "d4-f2", "d4-f4", "d4-f6"}
    up = get_game("rithmomachia", movement="linear", linear_up_to=True).parse_fen("W:Wd4=T9,d5=R2:Bh16=R3")
    dests = {up.move_str(m) for m in up.legal_moves() if up.move_str(m).startswith("d4")}
    assert dests == {"d4-" + c for c in "b2 b4 b6 c3 c4 c5 d3 d2 e3 e4 e5 f2 f4 f6".split()}


def test_pyramid_diagonal3():
    g = get_game("rithmomachia", pyramid_diagonal3=True)
    s = g.parse_fen("W:Wd4=P(S36+S25+T16+T9+R4+R1):Bh16=R3")
    assert "d4-g7" in {s.move_str(m) for m in s.legal_moves()}
    s = g.parse_fen("W:Wd4=P(S36+S25+T16+T9+R4+xR1):Bh16=R3")
    assert "d4-g7" not in {s.move_str(m) for m in s.legal_moves()}


def test_natural_siege_and_custodial_ambush():
    # a square on e8 whose 4 orthogonal lines meet White pieces within 3 cells (or the edge)
    g = get_game("rithmomachia", siege="natural")
    s = g.parse_fen("W:We5=R2,e11=R4,b8=R6,h8=R8,a1=R10:Be8=S97,h16=R3")
    s.play(s.parse_move("a1-b2"))
    assert "e8" not in s.fen()
    s = get_game("rithmomachia").parse_fen("W:We5=R2,e11=R4,b8=R6,h8=R8,a1=R10:Be8=S97,h16=R3")
    s.play(s.parse_move("a1-b2"))
    assert "e8=S97" in s.fen()
    c = get_game("rithmomachia", ambush="custodial")
    s = c.parse_fen("W:Wd8=R5,f8=R7,a1=R10:Be8=S12,h16=R3")
    s.play(s.parse_move("a1-b2"))
    assert "e8" not in s.fen()
    s = get_game("rithmomachia").parse_fen("W:Wd8=R5,f8=R7,a1=R10:Be8=S12,h16=R3")
    s.play(s.parse_move("a1-b2"))
    assert "e8=S12" in s.fen()


def test_evaluate_heuristic_board_text():
    s = get_game("rithmomachia").new_state()
    assert s.evaluate() == 0.5
    moves = {s.move_str(m): m for m in s.legal_moves()}
    assert s.heuristic(moves["a3-b6"]) == 225 and s.heuristic(moves["c6-b7"]) == 0
    assert s.is_capture(moves["g5-g7"]) and not s.is_capture(moves["c6-b7"])
    after = s.copy()
    after.play(moves["a3-b6"])
    assert after.evaluate() > 0.5
    text = get_game("rithmomachia").parse_fen("B:Wd5=R16,a1=R2:Be6=T16,h16=R3").board_text()
    assert "t16*" in text and "R16 " in text and "Black to move" in text


def test_capture_first_players_reproduce_the_article():
    """Two capture-first players: short games, the first player wins nearly all (article: 13 of 13)."""
    game = get_game("rithmomachia")
    wins, lengths = 0, []
    for seed in range(13):
        rng = random.Random(seed)
        s = game.new_state()
        while (moves := s.legal_moves()):
            captures = [m for m in moves if s.is_capture(m)] or moves     # a random capture, else any move
            s.play(captures[int(rng.random() * len(captures))])
        wins += s.outcome() == 1.0
        lengths.append(s.ply)
    assert wins >= 9
    assert sum(lengths) / len(lengths) < 60


def _play(state, *moves):
    for m in moves:
        state.play(state.parse_move(m))
    return state


@pytest.mark.parametrize("fresh", [False, True], ids=["incremental", "from-fen"])
def test_line_opened_by_a_capture_is_a_pending_threat(fresh):
    # W b3-c4 takes B R5 d5 (equality); that opens W S16 d3's slide to B R16 d6, which is
    # not taken on that move (captures are simultaneous) but by White's next move, whatever it is
    s = _play(get_game("rithmomachia").parse_fen("W:Wd3=S16,b3=R5,a1=R2:Bd5=R5,d6=R16,h16=R3"), "b3-c4", "h16-g15")
    assert "d5" not in s.fen() and "d6=R16" in s.fen()
    if fresh:
        s = s.game.parse_fen(s.fen())
    _play(s, "a1-b2")
    assert "d6" not in s.fen() and s.caps[:2] == [2, 21]


def test_line_opened_by_the_moving_piece():
    # W S7 leaves d4 by a long leap to c1, three ranks away from the target: the slide d3-d6 opens
    s = _play(get_game("rithmomachia").parse_fen("W:Wd3=S16,d4=S7,a1=R2:Bd6=R16,h16=R3"), "a1-b2", "h16-g15")
    assert "d6=R16" in s.fen()
    _play(s, "d4-c1")
    assert "d6" not in s.fen()
