"""The engine protocol (../shared/PROTOCOL.md), spoken to the real console script in a subprocess.

Every read has a timeout, so a silent or dead engine fails a test instead of hanging the suite.
"""
from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.drivers import ROOT, EngineProcess, engine_command, engine_env
from support.drivers import processes_in_group
from mcts_engine import __version__, native
from mcts_engine.rules import get_game, list_games

@pytest.fixture
def engine():
    eng = EngineProcess()
    yield eng
    eng.kill()


def options_of(lines: list[str]) -> dict[str, str]:
    """``option name X type ...`` lines by lowercase name -> the text after the name."""
    out = {}
    for line in lines:
        m = re.fullmatch(r"option name (\S+) (type .*)", line)
        if m:
            out[m.group(1).lower()] = m.group(2)
    return out


def info_fields(line: str) -> dict[str, str]:
    """An info line's fields; ``score``, ``wdl`` and ``pv`` keep their values joined."""
    tokens = line.split()[1:]
    out, i = {}, 0
    while i < len(tokens):
        key = tokens[i]
        if key == "pv":
            out[key] = " ".join(tokens[i + 1:])
            break
        width = {"score": 2, "wdl": 3}.get(key, 1)
        out[key] = " ".join(tokens[i + 1:i + 1 + width])
        i += 1 + width
    return out


# --- handshake, options, isready -----------------------------------------------------------

EXPECTED_OPTIONS = {
    "uci_variant": "type combo default english " + " ".join(f"var {g}" for g in list_games()),
    "threads": "type spin default 1 min 1 max 64",
    "hash": "type spin default 256 min 1 max 262143",
    "parallelmerge": "type combo default visits var visits var vote",
    "defaults": "type combo default game var game var plain",
    "seed": "type spin default 0 min 0 max 2147483647",
    "agent": "type combo default uct var uct var random var greedy",
    "uct_c": "type string default 0.5",             # English's measured defaults too
    "priorweight": "type string default 0",
    "minimaxweight": "type string default 0.37",    # English's measured defaults (Defaults game)
    "endgametables": "type check default true",
    "tablepath": "type string default <empty>",
    "widening": "type string default 0",
    "playout": "type combo default random var random var capture var greedy-eps var mast",
    "quiescencesearch": "type check default false",
    "evalmobility": "type string default 0.02",   # English's measured defaults
    "evaltempo": "type string default 0",
    "evalbackrank": "type string default 0.1",   # English's measured defaults
    "evalcentre": "type string default 0",
    "evalrunaway": "type string default 0.3",   # English's measured defaults
    "evaledge": "type string default -0.15",   # English's measured defaults
    "evalkinglead": "type string default 0",
    "evalguard": "type string default 0.15",   # English's measured defaults
    "evaluation": "type combo default handset var handset var learned",
    "evalweights": "type string default <empty>",
    "leafdepth": "type spin default 0 min 0 max 16",
    "rootcheck": "type spin default 0 min 0 max 32",
    "rootcheckmargin": "type string default 0.05",
    "rootcheckshare": "type string default 0.3",
    "rootcheckpieces": "type spin default 0 min 0 max 1000",
    "alphabetaprune": "type string default 0",
    "playoutdepth": "type spin default 6 min 0 max 10000",
    "epsilon": "type string default 0.1",
    "keepstats": "type check default false",
    "treereuse": "type check default true",
    "solver": "type check default true",
    "finalmove": "type combo default robust var robust var max",
    "moveoverhead": "type spin default 30 min 0 max 5000",
    "ponder": "type check default false",
    "ownbook": "type check default false",
    "bookfile": "type string default <empty>",
    "rules": "type string default <empty>",
}


def test_uci_handshake_lists_every_option(engine):
    engine.send("uci")
    lines = engine.until("uciok")
    assert lines[0] == f"id name mcts-engine {__version__}" + ("" if native.available() else " (python rules)")
    assert lines[1] == "id author mcts-engine developers"
    assert lines[-1] == "uciok"
    assert options_of(lines) == EXPECTED_OPTIONS
    assert all(s.startswith("option name ") for s in lines[2:-1])
    assert engine.sync() == []
    assert engine.close() == 0


def test_ugi_handshake_ends_with_ugiok(engine):
    engine.send("ugi")
    lines = engine.until("ugiok")
    assert lines[-1] == "ugiok" and "uciok" not in lines
    assert options_of(lines) == EXPECTED_OPTIONS


GOOD_SETTINGS = [
    ("Threads", "1"), ("ParallelMerge", "vote"),
    ("Seed", "0"), ("Seed", "2147483647"), ("Agent", "random"), ("Agent", "GREEDY"),
    ("Agent", "uct"), ("UCT_C", "0"), ("UCT_C", "1.41"), ("Playout", "mast"), ("Playout", "greedy-eps"),
    ("Playout", "MAST"), ("Playout", "capture"), ("KeepStats", "true"), ("Widening", "0.5"), ("Widening", "0"),
    ("PlayoutDepth", "10000"), ("PlayoutDepth", "0"), ("LeafDepth", "3"), ("LeafDepth", "0"), ("RootCheck", "8"),
    ("RootCheckMargin", "0.1"), ("RootCheckShare", "0.6"), ("RootCheckPieces", "10"), ("AlphaBetaPrune", "0.03"), ("Epsilon", "1"), ("Epsilon", "0.25"),
    ("TreeReuse", "false"), ("TreeReuse", "TRUE"), ("Solver", "false"), ("FinalMove", "max"),
    ("MoveOverhead", "0"), ("MoveOverhead", "5000"), ("Ponder", "true"), ("Rules", "no_progress=0"),
    ("Rules", "<empty>"), ("UCI_Variant", "english"),
]

BAD_SETTINGS = [  # (name, value, words the error line must contain)
    ("Threads", "65", ["Threads", "[1, 64]"]),
    ("Threads", "0", ["Threads", "[1, 64]"]),
    ("Parallel", "root", ["Parallel"]),               # removed with tree-parallel search: unknown now
    ("ParallelMerge", "mean", ["ParallelMerge", "visits, vote"]),
    ("Seed", "-1", ["Seed", "2147483647"]),
    ("Seed", "2147483648", ["Seed", "2147483647"]),
    ("Seed", "seven", ["Seed"]),
    ("Agent", "minimax", ["Agent", "uct, random, greedy"]),
    ("UCT_C", "-0.5", ["UCT_C", "[0, 100]"]),
    ("UCT_C", "1e300", ["UCT_C", "[0, 100]"]),
    ("PriorWeight", "101", ["PriorWeight", "[0, 100]"]),
    ("Hash", "262144", ["Hash", "[1, 262143]"]),     # past the arena's 32-bit node index
    ("UCT_C", "nan", ["UCT_C"]),
    ("UCT_C", "inf", ["UCT_C"]),
    ("UCT_C", "abc", ["UCT_C"]),
    ("Playout", "smart", ["Playout", "random, capture, greedy-eps, mast"]),
    ("Playout", "nst", ["Playout", "random, capture, greedy-eps, mast"]),         # removed: lost every match
    ("Selection", "grave", ["Selection"]),             # removed: lost every match
    ("ProgressWeight", "0.5", ["ProgressWeight"]),     # removed: the endgame tables convert won endings
    ("Widening", "-1", ["Widening", "[0, 100]"]),
    ("Widening", "1e308", ["Widening", "[0, 100]"]),  # issue 30: accepted, then every search failed
    ("KeepStats", "1", ["KeepStats", "true or false"]),
    ("PlayoutDepth", "10001", ["PlayoutDepth", "[0, 10000]"]),
    ("RootCheck", "33", ["RootCheck", "[0, 32]"]),
    ("RootCheckMargin", "1.5", ["RootCheckMargin", "[0, 1]"]),
    ("RootCheckShare", "0", ["RootCheckShare", "[0.01, 1]"]),
    ("AlphaBetaPrune", "1.5", ["AlphaBetaPrune", "[0, 1]"]),
    ("Epsilon", "1.5", ["Epsilon", "[0, 1]"]),
    ("Epsilon", "-0.1", ["Epsilon", "[0, 1]"]),
    ("TreeReuse", "yes", ["TreeReuse", "true or false"]),
    ("Solver", "", ["Solver", "true or false"]),
    ("FinalMove", "secure", ["FinalMove", "robust, max"]),
    ("MoveOverhead", "5001", ["MoveOverhead", "[0, 5000]"]),
    ("Ponder", "1", ["Ponder", "true or false"]),
    ("UCI_Variant", "chess", ["UCI_Variant", "english", "international"]),
    ("Rules", "promotion=sideways", ["Rules", "sideways"]),
    ("Rules", "nosuchkey=1", ["nosuchkey"]),
    ("Rules", "garbage", ["garbage", "key=value"]),
]


def test_setoption_good_values_are_silent(engine):
    for name, value in GOOD_SETTINGS:
        assert engine.ask(f"setoption name {name} value {value}") == [], (name, value)
    # names are case-insensitive
    assert engine.ask("setoption name uct_c value 0.7") == []
    assert engine.ask("setoption name MOVEOVERHEAD value 10") == []
    assert engine.ask("setoption name seed value 3") == []


@pytest.mark.parametrize("name,value,words", BAD_SETTINGS)
def test_setoption_bad_values_name_the_allowed_ones(engine, name, value, words):
    fen = engine.query("fen")
    lines = engine.ask(f"setoption name {name} value {value}")
    assert len(lines) == 1 and lines[0].startswith("info string error: "), lines
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert engine.query("fen") == fen


def test_setoption_malformed_and_unknown(engine):
    for line in ("setoption", "setoption Seed 5", "setoption name", "setoption name value 3",
                 "setoption name NoSuchOption value 1", "setoption name Seed"):
        lines = engine.ask(line)
        assert len(lines) == 1 and lines[0].startswith("info string error: "), (line, lines)
    assert "NoSuchOption" in engine.ask("setoption name NoSuchOption value 1")[0]


def test_variant_and_rules_reset_the_position_and_bad_rules_keep_the_old(engine):
    engine.ask("position startpos moves 11-15")
    assert engine.ask("setoption name UCI_Variant value international") == []
    assert engine.query("fen") == get_game("international").new_state().fen()
    assert engine.query("p1turn") == "true"
    engine.ask("position startpos moves 32-28")
    assert engine.ask("setoption name Rules value men_rows=3") == []
    assert engine.query("fen") == get_game("international", men_rows="3").new_state().fen()
    lines = engine.ask("setoption name Rules value men_rows=banana")
    assert len(lines) == 1 and "banana" in lines[0] and lines[0].startswith("info string error: ")
    assert "men_rows=3" in engine.query("rules")
    assert engine.query("fen") == get_game("international", men_rows="3").new_state().fen()
    # an alias names its registered game
    assert engine.ask("setoption name UCI_Variant value checkers") == []
    assert engine.query("fen") == get_game("english", men_rows="3").new_state().fen()
    assert engine.ask("setoption name Rules value") == []
    assert engine.query("fen") == get_game("english").new_state().fen()


def test_isready_and_unknown_commands(engine):
    assert engine.ask("") == []
    assert engine.ask("   \t  ") == []
    lines = engine.ask("bogus command here")
    assert len(lines) == 1 and lines[0].startswith("info string error: ") and "bogus" in lines[0]
    assert engine.ask("stop") == []        # no search: ignored
    assert engine.ask("ponderhit") == []   # no ponder search: ignored
    assert engine.ask("debug on") == []


# --- position, query, d, perft ------------------------------------------------------------------

def test_position_and_queries(engine):
    game = get_game("english")
    start = game.new_state()
    assert engine.query("fen") == start.fen()
    assert engine.query("gameover") == "false"
    assert engine.query("p1turn") == "true"
    assert engine.query("result") == "none"
    assert engine.query("moves").split() == [start.move_str(m) for m in start.legal_moves()]
    assert engine.ask("position startpos moves 11-15 22-18") == []
    state = game.new_state()
    for text in ("11-15", "22-18"):
        state.play(state.parse_move(text))
    assert engine.query("fen") == state.fen()
    assert engine.query("moves") == "15x22"
    assert engine.ask(f"position fen {state.fen()} moves 15x22") == []
    assert engine.query("p1turn") == "false"
    # errors name the offender and keep the previous position
    before = engine.query("fen")
    for line, word in (("position fen W:W99:B1", "99"), ("position startpos moves 11-15 11-15", "11-15"),
                       ("position startpos moves 11-15 zz", "zz"), ("position somewhere", "somewhere"),
                       ("position", "startpos"), ("position fen", "FEN"), ("position startpos junk", "junk")):
        lines = engine.ask(line)
        assert len(lines) == 1 and lines[0].startswith("info string error: ") and word in lines[0], (line, lines)
        assert engine.query("fen") == before
    for line in ("query", "query color", "query fen moves"):
        lines = engine.ask(line)
        assert len(lines) == 1 and lines[0].startswith("info string error: "), lines


def test_query_result_of_finished_games(engine):
    engine.ask("position fen B:W18:B")          # Black (first player) has no piece left
    assert (engine.query("gameover"), engine.query("result"), engine.query("moves")) == ("true", "p2win", "")
    engine.ask("position fen W:W29:B25,22")     # White (second player) is blocked
    assert (engine.query("gameover"), engine.query("result")) == ("true", "p1win")
    engine.ask("setoption name Rules value no_progress=2")
    engine.ask("position fen B:WK18:BK1 moves 1-5 18-22")
    assert (engine.query("gameover"), engine.query("result"), engine.query("moves")) == ("true", "draw", "")


def test_go_on_a_finished_game_says_why(engine):
    engine.ask("position fen B:W18:B")
    engine.send("go nodes 100")
    lines = engine.until("bestmove")
    assert lines[-1] == "bestmove 0000"
    assert len(lines) == 2 and lines[0].startswith("info string ") and "over" in lines[0]


def test_d_shows_board_fen_and_side(engine):
    lines = engine.ask("d")
    fen = get_game("english").new_state().fen()
    assert f"fen {fen}" in lines
    assert lines[-1].startswith("side to move: ") and "Black" in lines[-1]
    assert len(lines) > 3   # the board


def test_perft_divides(engine):
    lines = engine.ask("perft 4")
    assert lines[-1] == "nodes 1469"
    counts = dict(line.split() for line in lines[:-1])
    assert len(counts) == 7 and sum(map(int, counts.values())) == 1469
    assert engine.ask("perft 0") == ["nodes 1"]
    for bad in ("perft", "perft -1", "perft x", "perft 2 3", "perft 65"):
        lines = engine.ask(bad)
        assert len(lines) == 1 and lines[0].startswith("info string error: "), (bad, lines)


# --- searching ----------------------------------------------------------------------------------

INFO_LINE = re.compile(r"info depth \d+ seldepth \d+ nodes \d+ nps \d+( hashfull \d+)? time \d+ "
                       r"score (cp -?\d+|mate -?\d+) wdl \d+ \d+ \d+( pv( \S+)+)?")


def check_info(lines: list[str], state) -> None:
    """Every info line has the documented shape and a PV of legal moves from ``state``."""
    for line in lines:
        if line.startswith("info string"):
            continue
        assert INFO_LINE.fullmatch(line), line
        fields = info_fields(line)
        walker = state.copy()
        for text in fields.get("pv", "").split():
            walker.play(walker.parse_move(text))
        w, d, l = map(int, fields["wdl"].split())
        assert w + d + l == 1000, line


def play_random_against_engine(engine: EngineProcess, engine_side: int, limits: str, seed: int) -> None:
    """The test plays random legal moves for one side, the engine the other, to the end of the game."""
    rng = random.Random(seed)
    game = get_game("english")
    engine.send("ucinewgame")
    played: list[str] = []
    mirror = game.new_state()
    for _ in range(500):
        engine.ask("position startpos" + (" moves " + " ".join(played) if played else ""))
        if engine.query("gameover") == "true":
            break
        legal = engine.query("moves").split()
        assert sorted(legal) == sorted(mirror.move_str(m) for m in mirror.legal_moves())
        if mirror.to_move == engine_side:
            infos, move = engine.go(limits)
            assert move in legal, (move, legal)
            check_info(infos, mirror)
            assert any(not s.startswith("info string") for s in infos), "no final info line"
        else:
            move = rng.choice(legal)
        played.append(move)
        mirror.play(mirror.parse_move(move))
    else:
        pytest.fail("the game did not end in 500 plies")
    assert mirror.outcome() is not None
    expected = {1.0: "p1win", 0.0: "p2win", 0.5: "draw"}[mirror.outcome()]
    assert engine.query("result") == expected
    assert engine.query("moves") == ""        # a finished game, drawn or won, has no legal move
    if expected != "draw":
        loser = 0 if expected == "p2win" else 1
        assert engine.query("p1turn") == ("true" if loser == 0 else "false")


def test_full_game_random_agent(engine):
    engine.ask("setoption name Agent value random")
    engine.ask("setoption name Seed value 11")
    play_random_against_engine(engine, engine_side=0, limits="nodes 200", seed=1)
    play_random_against_engine(engine, engine_side=1, limits="movetime 20", seed=2)


def test_full_game_default_agent(engine):
    engine.ask("setoption name Seed value 5")
    play_random_against_engine(engine, engine_side=1, limits="nodes 200", seed=3)


def test_won_endgame_is_reported_as_mate_and_lost_one_as_negative_mate(engine):
    engine.ask("position fen W:W8,K13,19,20:BK25")      # 13-17 forces a win within 5 plies
    infos, best = engine.go("nodes 3000")
    assert best == "13-17"
    assert re.search(r"score mate [1-3] wdl 1000 0 0", infos[-1]), infos[-1]
    engine.ask("position fen B:WK7,17,23,24,29:B10")     # every Black move loses
    infos, best = engine.go("nodes 3000")
    assert re.search(r"score mate -[1-3] wdl 0 0 1000", infos[-1]), infos[-1]


# A stop or isready is not queued behind the search: go infinite never ends by itself, so a
# bestmove after stop, or a readyok with no bestmove before it, tells an answer that did not
# wait for the search.  How many ms it took is the machine's speed, not asserted (issue 37).


def test_go_infinite_then_stop_answers(engine):
    engine.ask("position startpos moves 9-14 22-17")
    engine.send("go infinite")
    engine.until("info")
    engine.send("stop")
    lines = engine.until("bestmove")
    assert all(s.startswith("info") for s in lines[:-1])
    # exactly one bestmove: nothing else follows before readyok
    assert not any(s.startswith("bestmove") for s in engine.sync())
    assert engine.close() == 0


def test_isready_during_search_is_answered_and_the_search_goes_on(engine):
    engine.send("go infinite")
    first = engine.read_until(lambda s: s.startswith("info depth"))   # the first report, after about 0.5 s
    nodes_before = int(info_fields(first[-1])["nodes"])
    engine.send("isready")
    lines = engine.read_until(lambda s: s == "readyok")
    assert not any(s.startswith("bestmove") for s in lines)
    # the search continues: a later report with more iterations, still no bestmove
    later = engine.read_until(lambda s: s.startswith("info depth") and int(info_fields(s)["nodes"]) > nodes_before)
    assert not any(s.startswith("bestmove") for s in later)
    assert engine.query("gameover") == "false"    # queries too are answered during the search
    engine.send("stop")
    assert engine.until("bestmove")[-1].startswith("bestmove ")
    assert not any(s.startswith("bestmove") for s in engine.sync())


def test_go_while_searching_is_an_error_and_one_bestmove_per_go(engine):
    engine.send("go infinite")
    time.sleep(0.2)
    lines = engine.ask("go nodes 10")
    assert len(lines_err := [s for s in lines if s.startswith("info string error")]) == 1, lines
    assert "already searching" in lines_err[0]
    assert not any(s.startswith("bestmove") for s in lines)
    # a bad position or option during the search is an error that leaves the search running
    for bad in ("position fen W:W99:B1", "setoption name Seed value -3", "position startpos moves 1-2"):
        lines = engine.ask(bad)
        assert len(lines) == 1 and lines[0].startswith("info string error: "), (bad, lines)
    engine.send("stop")
    engine.until("bestmove")
    assert not any(s.startswith("bestmove") for s in engine.sync())


def test_position_during_search_stops_it_first(engine):
    engine.send("go infinite")
    time.sleep(0.2)
    engine.send("position startpos moves 11-15")
    lines = engine.sync()
    assert sum(s.startswith("bestmove") for s in lines) == 1, lines
    state = get_game("english").new_state()
    state.play(state.parse_move("11-15"))
    assert engine.query("fen") == state.fen()


MALFORMED_GO = [  # (go, words its one error line names, the move when it is forced)
    ("go nodes", ["go nodes needs a number"], None), ("go nodes x", ["'x' is not an integer"], None),
    ("go depth -3", ["-3 is negative"], None), ("go fast", ["unknown limit 'fast'"], None),
    ("go searchmoves", ["needs at least one move"], None),
    ("go movetime -1", ["go movetime: -1 is negative"], None),             # issue 30: no bestmove on main
    ("go xyz 5", ["unknown limit 'xyz'", "unknown limit '5'"], None),      # issue 30
    ("go searchmoves 99-98", ["searchmoves", "'99'"], None),               # issue 30
    ("go searchmoves 11-15 99-1", ["'99'"], "11-15"),
    ("go nodes depth 3", ["go nodes needs a number"], None),
]


@pytest.mark.parametrize("line, words, forced", MALFORMED_GO)
def test_a_malformed_go_names_its_bad_parts_and_still_answers_exactly_one_bestmove(engine, line, words, forced):
    engine.ask("setoption name Agent value random")
    engine.send(line)
    lines = engine.until("bestmove")
    errors = [s for s in lines if s.startswith("info string error: ")]
    assert len(errors) == 1 and all(w in errors[0] for w in words), lines
    move = lines[-1].split()[1]
    assert move in engine.query("moves").split() and (forced is None or move == forced), lines
    assert not any(s.startswith("bestmove") for s in engine.sync())


def test_searchmoves_with_one_move_plays_it(engine):
    engine.ask("setoption name Agent value random")
    for move in ("9-13", "12-16"):
        infos, best = engine.go(f"nodes 100 searchmoves {move}")
        assert best == move


def test_searchmoves_with_several_moves_restrict_the_search(engine):
    for agent in ("uct", "random", "greedy"):
        engine.ask(f"setoption name Agent value {agent}")
        for _ in range(4):
            infos, best = engine.go("nodes 200 searchmoves 9-13 12-16")
            assert best in ("9-13", "12-16")


def test_clock_limits_of_the_side_to_move(engine):
    """The process plays on the mover's short clock (which clock is read: in-process, in
    test_protocol_inprocess.py, without timing the search)."""
    # English: Black (first player) moves first; wtime is White's clock, btime Black's.
    _, move = engine.go("wtime 100000 btime 300 winc 0 binc 0")
    _, move = engine.go("p1time 300 p2time 100000")
    engine.ask("position startpos moves 11-15")   # White (second player) to move
    _, move = engine.go("wtime 300 btime 100000 movestogo 10")
    assert move in engine.query("moves").split()


def test_ponder_then_ponderhit_then_stop(engine):
    engine.send("position startpos moves 11-15")
    engine.send("go ponder movetime 200")
    time.sleep(0.4)
    assert not any(s.startswith("bestmove") for s in engine.sync())   # pondering waits
    engine.send("ponderhit")
    lines = engine.until("bestmove", timeout=10)                     # then a 200 ms search
    assert lines[-1].split()[1] in engine.query("moves").split()
    assert not any(s.startswith("bestmove") for s in engine.sync())
    # a ponder search that is stopped answers at once, once
    engine.send("go ponder wtime 1000 btime 1000")
    time.sleep(0.2)
    engine.send("stop")
    engine.until("bestmove")
    assert not any(s.startswith("bestmove") for s in engine.sync())


def test_same_seed_same_output():
    """Two processes, Seed 7, go nodes 300: the same bestmove and info lines (time and nps aside)."""
    outputs = []
    for _ in range(2):
        eng = EngineProcess()
        try:
            eng.ask("setoption name Seed value 7")
            eng.ask("position startpos moves 10-14 23-19")
            eng.send("go nodes 300")
            lines = eng.until("bestmove")
            assert eng.close() == 0
        finally:
            eng.kill()
        outputs.append([re.sub(r" (time|nps) \d+", "", s) for s in lines])
    assert outputs[0] == outputs[1]
    assert any(s.startswith("info depth") for s in outputs[0])
    assert " nodes 300 " in [s for s in outputs[0] if s.startswith("info depth")][-1]


# --- ending the session ---------------------------------------------------------------------------

@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_eof_during_search_exits_0_leaving_no_process(engine):
    engine.send("go infinite")
    engine.until("info")
    pid = engine.proc.pid
    assert processes_in_group(pid) == [pid]   # Threads 1: no extra process
    engine.proc.stdin.close()
    assert engine.proc.wait(20) == 0              # go infinite would never end by itself
    assert processes_in_group(pid) == []
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]


def test_quit_exits_0(engine):
    engine.send("go infinite")
    engine.until("info")
    engine.send("quit")
    assert engine.proc.wait(20) == 0              # quit stopped the search: it would never end


def test_python_dash_m_runs_the_loop():
    env = engine_env()
    out = subprocess.run([sys.executable, "-m", "mcts_engine"], input="isready\nquery p1turn\n", text=True,
                         capture_output=True, timeout=30, cwd=ROOT, env=env)
    assert out.returncode == 0 and out.stdout.splitlines() == ["readyok", "response true"]


# --- the Hub dialect --------------------------------------------------------------------------------

def test_hub_dialect(engine):
    engine.send("hub")
    lines = engine.until("wait")
    assert lines[0].startswith("id name=mcts-engine")
    assert any(s.startswith("param name=variant ") and "international" in s for s in lines)
    engine.send("set-param name=variant value=international")
    engine.send("set-param name=Seed value=3")
    engine.send("init")
    assert engine.read() == "ready"
    engine.send("ping")
    assert engine.read() == "pong"
    start = "W" + "b" * 20 + "e" * 10 + "w" * 20
    engine.send(f'pos pos={start} moves="32-28 19-23"')
    engine.send("level nodes=50")
    engine.send("go think")
    done = engine.until("done")[-1]
    move = re.fullmatch(r"done move=(\S+)( ponder=\S+)?", done).group(1)
    # the only legal move is the capture 28x19, which Hub writes from x to x captured
    assert move == "28x19x23", done
    engine.send("set-param name=Seed value=-4")
    assert engine.read().startswith("error message=")
    engine.send("quit")
    assert engine.proc.wait(5) == 0


# --- mcts-engine play ----------------------------------------------------------------------------------

def test_play_a_whole_game_in_process():
    """The terminal game, with a scripted human who asks for the moves and plays a random one."""
    from mcts_engine.play import play
    rng = random.Random(4)
    out: list[str] = []
    pending: list[str] = []

    def ask(prompt: str) -> str:
        out.append(prompt)
        if len(out) > 20000:
            raise KeyboardInterrupt   # a runaway loop ends the game (and fails below)
        if pending:
            return pending.pop()
        if out[-2].startswith("legal moves: "):
            return rng.choice(out[-2].split()[2:])
        pending.append("moves")
        return rng.choice(["zz", "1-2", "moves"])

    assert play(get_game("english"), human_first=False, movetime=0.01, agent="random", seed=1,
                ask=ask, echo=out.append) == 0
    assert out[-1].startswith("game over after ")
    assert any("engine plays " in s for s in out) and any("is not" in s or "illegal" in s for s in out)


def test_play_command_handles_bad_moves_and_end_of_input():
    env = engine_env()
    cmd = engine_command() + ["play", "english", "--agent", "random", "--movetime", "10"]
    result = subprocess.run(cmd, input="11-16x\n99-1\n22-18\nmoves\n11-15\n", text=True,
                            capture_output=True, timeout=30, cwd=ROOT, env=env)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "not in PDN notation" in text and "'99' is not a square" in text
    assert "illegal" in text and "legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16" in text
    assert "engine plays " in text and "game abandoned" in text
    bad = subprocess.run(engine_command() + ["play", "chess"], capture_output=True, text=True,
                         timeout=30, cwd=ROOT, env=env)
    assert bad.returncode == 2 and "chess" in bad.stderr
