"""The protocol driven in-process: ``serve`` over a fake transport, and the session on its own.

No subprocess: the whole protocol runs in a thread of the test (``InProcessEngine``), as
python-chess's ``MockTransport`` drives an engine; the session is driven directly with a
recording output.  The same behaviours are checked against the real process in
``test_protocol.py``; these check the state machine more finely and fast.
"""
from __future__ import annotations

import io
import re
import sys
import threading
import time

import pytest

from support.drivers import EngineProcess, InProcessEngine, hub_fields
from mcts_engine.protocol.conventions import SquareTranslation
from mcts_engine.protocol.hub import hub_quote
from mcts_engine.protocol import FinishedSearch, ProtocolError, Session, UciProtocol, run
from mcts_engine.protocol.session import build_position
from mcts_engine import engine as engine_module
from mcts_engine.protocol.options import OptionError
from mcts_engine.mcts.agent import SearchInfo, SearchResult
from mcts_engine.mcts.limits import Limits
from mcts_engine.rules import get_game, list_games
from mcts_engine.rules.base import BadPosition, IllegalMove, RulesError
from mcts_engine.rules.draughts.variants import COUNT_MAX


@pytest.fixture
def engine():
    eng = InProcessEngine()
    yield eng
    eng.close()


def bestmoves(lines: list[str]) -> list[str]:
    return [s for s in lines if s.startswith("bestmove")]


# --- the search state machine ---------------------------------------------------------------

def test_a_search_answers_isready_query_and_go_then_one_bestmove_after_stop(engine):
    engine.ask("setoption name Seed value 3")
    engine.send("go infinite")
    engine.read_until(lambda s: s.startswith("info depth"))      # the search is under way
    assert bestmoves(engine.sync()) == []
    assert engine.query("gameover") == "false"
    lines = engine.ask("go nodes 10")
    assert lines == ["info string error: already searching; send stop first (go ignored)"]
    engine.send("stop")
    lines = engine.until("bestmove")
    assert all(s.startswith("info") for s in lines[:-1])
    assert engine.sync() == []                                     # one bestmove, nothing after it
    _, move = engine.go("nodes 20")                                # and the next go is accepted
    assert move in engine.query("moves").split()


def test_ponder_waits_for_ponderhit_then_searches_with_the_go_limits(engine):
    engine.ask("position startpos moves 11-15")
    engine.send("go ponder nodes 50")
    time.sleep(0.3)
    assert bestmoves(engine.sync()) == []                          # pondering: no move yet
    engine.send("ponderhit")
    move = engine.until("bestmove")[-1].split()[1]
    assert move in engine.query("moves").split()
    assert engine.sync() == []
    engine.send("go ponder nodes 50")
    time.sleep(0.1)
    engine.send("stop")                                            # a stopped ponder answers once
    engine.until("bestmove")
    assert engine.sync() == []


def test_infinite_waits_for_stop_even_when_the_agent_is_done(engine):
    engine.ask("setoption name Agent value random")                # decides at once
    engine.send("go infinite")
    time.sleep(0.2)
    assert bestmoves(engine.sync()) == []
    engine.send("stop")
    assert len(bestmoves(engine.until("bestmove"))) == 1


def test_position_and_setoption_during_a_search_stop_it_first(engine):
    engine.send("go infinite")
    time.sleep(0.1)
    assert len(bestmoves(engine.ask("position startpos moves 11-15"))) == 1
    engine.send("go infinite")
    time.sleep(0.1)
    assert len(bestmoves(engine.ask("setoption name UCT_C value 0.5"))) == 1
    engine.send("go infinite")
    time.sleep(0.1)
    assert len(bestmoves(engine.ask("ucinewgame"))) == 1
    assert engine.query("fen") == get_game("english").new_state().fen()


def test_a_finished_game_answers_go_at_once_with_the_reason(engine):
    engine.ask("position fen W:W29:B25,22")
    engine.send("go nodes 100")
    assert engine.until("bestmove") == ["info string the game is over (the first player has won): "
                                        "no move to search", "bestmove 0000"]


def test_end_of_input_during_a_search_ends_it_with_one_bestmove(engine):
    engine.send("go infinite")
    engine.read_until(lambda s: s.startswith("info depth"))
    engine.end_input()
    engine.thread.join(5)
    assert not engine.thread.is_alive() and engine.status == 0
    rest = []
    while not engine.lines.empty():
        rest.append(engine.lines.get()[1])
    assert rest[-1] is None and len(bestmoves(rest[:-1])) == 1


# --- errors: one line each, state unchanged, the right kind -------------------------------------

BAD_LINES = [  # (line, the error's class, a word its message must hold); a malformed go still searches:
    # test_protocol.py's test_a_malformed_go_names_its_bad_parts_and_still_answers_exactly_one_bestmove
    ("bogus 1 2", ProtocolError, "bogus"),
    ("debug maybe", ProtocolError, "on or off"),
    ("setoption Seed 5", ProtocolError, "setoption name"),
    ("setoption name", ProtocolError, "setoption name"),
    ("position", ProtocolError, "startpos"),
    ("position somewhere", ProtocolError, "somewhere"),
    ("position startpos junk", ProtocolError, "junk"),
    ("position fen", ProtocolError, "FEN"),
    ("query", ProtocolError, "query"),
    ("query color", ProtocolError, "color"),
    ("perft x", ProtocolError, "x"),
    ("perft 65", ProtocolError, "64"),
    ("position fen W:W99:B1", BadPosition, "99"),
    ("position startpos moves 11-15 zz", IllegalMove, "zz"),
    ("position startpos moves 1-2", IllegalMove, "1-2"),
    ("setoption name Seed value -1", OptionError, "Seed"),
    ("setoption name NoSuchOption value 1", OptionError, "NoSuchOption"),
    ("setoption name Rules value promotion=sideways", OptionError, "sideways"),
    ("setoption name Rules value repetition=4294967297", OptionError, "repetition='4294967297'"),
]


@pytest.mark.parametrize("line,kind,word", BAD_LINES)
def test_bad_input_raises_its_kind_and_prints_one_error_line(line, kind, word):
    out: list[str] = []
    uci = UciProtocol(out.append)
    with pytest.raises(kind) as info:
        uci.execute(line)
    assert word in str(info.value)
    families = (ProtocolError, OptionError, RulesError)   # three kinds, never mixed
    assert [f for f in families if isinstance(info.value, f)] == [f for f in families if issubclass(kind, f)]
    uci.handle(line)
    assert out == [f"info string error: {info.value}"]
    uci.session.shutdown()


def test_errors_leave_the_position_options_and_a_search_alone(engine):
    engine.ask("setoption name Rules value no_progress=10")
    engine.ask("position startpos moves 11-15 22-18")
    before = (engine.query("fen"), engine.query("rules"))
    engine.send("go infinite")
    engine.read_until(lambda s: s.startswith("info depth"))    # searching (after its notes, if any)
    for line, _, _ in BAD_LINES:
        if line.startswith("go"):
            continue                     # during a search a go is refused as "already searching"
        lines = engine.ask(line)
        assert len(lines) == 1 and lines[0].startswith("info string error: "), (line, lines)
    assert (engine.query("fen"), engine.query("rules")) == before
    engine.send("stop")
    assert len(bestmoves(engine.until("bestmove"))) == 1


# --- rule options that reach the native kernel: bounded where they are read -----------------

@pytest.mark.parametrize("option", ["repetition", "king_move_limit", "no_progress"])
def test_a_count_past_what_the_kernel_holds_is_refused_naming_it(engine, option):
    """4294967297 read as a C int is 1: every king move drew in the search (issue 37)."""
    engine.ask("setoption name UCI_Variant value frisian")
    lines = engine.ask(f"setoption name Rules value {option}=4294967297")
    assert len(lines) == 1 and lines[0].startswith("info string error: option Rules: ")
    assert f"frisian rule option {option}='4294967297' is not a whole number from 0 to {COUNT_MAX}" in lines[0]
    assert f"{option}=4294967297" not in engine.query("rules")


@pytest.mark.parametrize("rules", ["", f"repetition={COUNT_MAX}", f"repetition={COUNT_MAX},no_progress={COUNT_MAX}"])
def test_two_kings_against_one_search_as_a_win_with_a_large_repetition(engine, rules):
    """English, White to move: 7-11 forces 11x20 next (two kings against one is a win, not the
    draw a repetition count cut short in C made of every king move)."""
    if rules:
        assert engine.ask(f"setoption name Rules value {rules}") == []
        assert f"repetition={COUNT_MAX}" in engine.query("rules")
    engine.ask("setoption name Seed value 1")
    engine.ask("position fen W:WK1,K7:BK12")
    lines, move = engine.go("nodes 2000")
    scores = [line for line in lines if " score " in line]
    assert " score mate 2 wdl 1000 0 0 " in scores[-1] and move == "7-11"


# --- the same results over every transport ---------------------------------------------------

def seeded_search(engine) -> list[str]:
    engine.ask("setoption name Seed value 7")
    engine.ask("position startpos moves 10-14 23-19")
    engine.send("go nodes 300")
    lines = engine.until("bestmove")
    engine.close()
    return [re.sub(r" (time|nps) \d+", "", s) for s in lines]


def test_equal_seeds_give_equal_output_in_process_and_in_a_process():
    in_process = seeded_search(InProcessEngine())
    process = EngineProcess()
    try:
        assert seeded_search(process) == in_process
    finally:
        process.kill()
    assert in_process[-1].startswith("bestmove ") and " nodes 300 " in in_process[-2]


def test_run_reads_bytes_leniently_and_survives_a_closed_output(monkeypatch):
    monkeypatch.setattr(sys, "setswitchinterval", lambda seconds: None)   # run() sets it for its process
    stdin = io.TextIOWrapper(io.BytesIO(b"isready\nquery p1turn\n\xff\xfe bad\nquery fen\n"))
    stdout = io.StringIO()
    assert run(stdin, stdout) == 0
    lines = stdout.getvalue().splitlines()
    assert lines[:2] == ["readyok", "response true"]
    assert lines[2].startswith("info string error: unknown command '\ufffd\ufffd'")
    assert lines[3] == "response " + get_game("english").new_state().fen()

    class Gone(io.StringIO):
        def write(self, text):
            raise BrokenPipeError

    assert run(io.StringIO("uci\ngo nodes 10\nisready\n"), Gone()) == 0


# --- the session on its own ----------------------------------------------------------------

class Recorder:
    """A ``SessionOutput`` that keeps everything, and signals each finished search."""

    def __init__(self, fail_first_move: bool = False):
        self.infos: list[SearchInfo] = []
        self.done: list[FinishedSearch] = []
        self.notes: list[str] = []
        self.errors: list[str] = []
        self.finished_event = threading.Event()
        self.fail_first_move = fail_first_move

    def info(self, state, info):
        self.infos.append(info)

    def finished(self, done):
        if self.fail_first_move and not self.done and done.move is not None:
            self.done.append(done)
            raise ValueError("cannot write this move")
        self.done.append(done)
        self.finished_event.set()

    def note(self, text):
        self.notes.append(text)

    def error(self, text):
        self.errors.append(text)

    def wait(self) -> FinishedSearch:
        assert self.finished_event.wait(20), "no finished search"
        return self.done[-1]


def ponder_then(played: str, hit: bool) -> tuple[Session, Recorder, FinishedSearch]:
    """Our move 11-15, a go ponder on the guess 23-19, then the opponent's move ``played``:
    a ponderhit (``hit``) or a stop and a fresh go, each with a limit of 100 iterations."""
    out = Recorder()
    session = Session(out)
    session.set_option("Seed", "5")
    session.set_position(build_position(session.game.new_state(), ["11-15", "23-19"]))
    session.go(Limits(nodes=100), ponder=True)
    assert out.done == []                            # pondering: no move before ponderhit or stop
    if hit:
        session.ponderhit()
    else:
        session.stop()
        out.wait()
        out.finished_event.clear()
        after = build_position(session.game.new_state(), ["11-15", played])
        memory = session.engine.agent().memory       # the ponder search's root: the position before the guess
        assert memory.walk(after.state, after.history()) == [after.moves[-1]]
        session.set_position(after)
        session.go(Limits(nodes=100))
    done = out.wait()
    return session, out, done


@pytest.mark.parametrize("played,hit", [("23-19", True), ("22-18", False)])
def test_a_ponder_search_keeps_the_tree_of_the_move_played_whatever_the_guess(played, hit):
    session, out, done = ponder_then(played, hit)
    root = session.engine.agent().core.dump(1)
    session.shutdown()
    assert done.move in session.state.legal_moves()
    assert root["n"] >= 100                          # the reply's subtree from the ponder search, and 100 more
    assert len(out.done) == (1 if hit else 2) and out.errors == []


def test_without_tree_reuse_a_ponder_search_searches_the_guess_itself():
    out = Recorder()
    session = Session(out)
    session.set_option("TreeReuse", "false")
    session.set_position(build_position(session.game.new_state(), ["11-15", "23-19"]))
    assert session.ponder_root() is None
    session.set_option("TreeReuse", "true")
    session.set_position(build_position(session.game.new_state(), ["11-15", "23-19"]))
    parent = session.ponder_root()
    session.shutdown()
    assert parent is not None and parent.key() == build_position(session.game.new_state(), ["11-15"]).state.key()


def test_the_session_delivers_a_typed_finished_search():
    out = Recorder()
    session = Session(out)
    session.set_option("Seed", "5")
    session.go(Limits(nodes=200))
    done = out.wait()
    session.shutdown()
    state = session.state
    assert isinstance(done, FinishedSearch) and done.move in state.legal_moves()
    assert done.state.fen() == state.fen()
    if done.ponder is not None:
        after = state.copy()
        after.play(done.move)
        assert done.ponder in after.legal_moves()
    final = done.info or out.infos[-1]        # the final report, unless it came as progress already
    assert isinstance(final, SearchInfo) and final.nodes == 200
    assert out.errors == [] and len(out.done) == 1


class Broken:
    """An agent that fails, or answers an illegal move."""

    def __init__(self, illegal: bool):
        self.illegal = illegal
        self.on_note = None

    def new_game(self):
        pass

    def close(self):
        pass

    def search(self, state, limits, stop, on_info=None, history=()):
        if self.illegal:
            return SearchResult("not a move", None, SearchInfo(nodes=1))
        raise RuntimeError("boom")


def test_a_broken_agent_still_gets_a_legal_move_out(monkeypatch):
    monkeypatch.setattr(engine_module, "make_agent", lambda game, settings: Broken(False))
    out = Recorder()
    session = Session(out)
    session.go(Limits(nodes=10))
    done = out.wait()
    session.shutdown()
    assert done.move in session.state.legal_moves()
    assert [e for e in out.errors if "search failed: RuntimeError: boom" in e] == out.errors and len(out.errors) == 1


def test_the_engines_move_is_not_checked_again_but_a_move_that_cannot_be_written_still_ends_the_go(monkeypatch):
    """A move is checked once, where it enters: the core's moves come from the rules' lists.
    An agent that answered garbage would fail where the dialect writes it, and the go ends."""
    monkeypatch.setattr(engine_module, "make_agent", lambda game, settings: Broken(True))
    lines: list[str] = []
    protocol = UciProtocol(lines.append)
    protocol.session.go(Limits(nodes=10))
    deadline = time.monotonic() + 60
    while not any(line.startswith("bestmove") for line in lines) and time.monotonic() < deadline:
        time.sleep(0.01)
    protocol.session.shutdown()
    assert lines[-1] == "bestmove 0000" and any("cannot report the move" in line for line in lines), lines


def test_a_move_the_dialect_cannot_write_still_ends_the_go():
    out = Recorder(fail_first_move=True)
    session = Session(out)
    session.go(Limits(nodes=10))
    done = out.wait()
    session.shutdown()
    assert done.move is None and len(out.done) == 2
    assert out.errors == ["cannot report the move: ValueError: cannot write this move"]


@pytest.mark.parametrize("position, go, clock", [
    ("startpos", "wtime 100000 btime 300 winc 0 binc 2000", (0.3, 2.0)),    # English: Black moves first
    ("startpos", "p1time 300 p2time 100000", (0.3, 0.0)),
    ("startpos moves 11-15", "wtime 300 btime 100000 movestogo 10", (0.3, 0.0)),
])
def test_go_reads_the_clock_of_the_side_to_move(engine, monkeypatch, position, go, clock):
    """Which clock the search gets, read from the limits handed to the session (on main the
    process test timed the search instead, and a busy machine could fail it)."""
    seen: list[Limits] = []
    original = Session.go
    monkeypatch.setattr(Session, "go", lambda self, limits, *args: (seen.append(limits), original(self, limits, *args))[1])
    engine.ask(f"position {position}")
    engine.go(go)
    assert (seen[0].time_left, seen[0].increment) == clock


def test_every_game_plays_a_move_in_process(engine):
    for name in list_games():
        assert engine.ask(f"setoption name UCI_Variant value {name}") == [], name
        legal = engine.query("moves").split()
        _, move = engine.go("nodes 20")
        assert move in legal, (name, move)


# --- the Hub dialect ---------------------------------------------------------------------------

@pytest.fixture
def hub():
    eng = InProcessEngine()
    eng.send("hub")
    eng.until("wait")
    yield eng
    eng.close()


def hub_go(eng, level: str = "nodes=20") -> list[str]:
    eng.send(f"level {level}")
    eng.send("go think")
    return eng.until("done")


def test_hub_every_game_answers_go_or_says_why(hub):
    for name in list_games():
        game = get_game(name)
        hub.send(f"set-param name=variant value={name}")
        fen = game.new_state().fen()
        hub.send(f'pos pos="{fen}"')
        lines = hub_go(hub)
        assert not any(s.startswith("error") for s in lines), (name, lines)
        move = lines[-1].split()[1].split("=", 1)[1]
        game.new_state().parse_hub_move(SquareTranslation(game).move_in(move))   # the clients' numbering
        if not game.hub_squares:                     # a Hub position string: one error naming why
            hub.send("pos pos=W" + "e" * 50)
            hub.send("ping")
            lines = hub.until("pong")
            assert len(lines) == 2 and lines[0].startswith("error message=") and name in lines[0], lines


def test_hub_errors_unknown_commands_and_a_go_during_a_search(hub):
    for line, word in (("level nodes=x", "nodes"), ("level move-time=-1", "move-time"),
                       ("set-param name=Seed value=-4", "Seed"),
                       ("set-param name=variant value=chess", "chess"), ("pos pos=W:W99:B1", "99"),
                       ('pos moves="32-28 32-28"', "32-28")):
        hub.send(line)
        hub.send("ping")
        lines = hub.until("pong")
        assert len(lines) == 2 and lines[0].startswith("error message=") and word in lines[0], (line, lines)
    hub.send("frobnicate now")                       # unknown: ignored, as Hub asks
    hub.send("set-param name=initial-time value=60")  # a parameter we lack (the lidraughts bridge's)
    hub.send("level time=-0.02")                     # a run-out clock, as pydraughts sends it: 0
    hub.send("ping")
    assert hub.until("pong") == ["pong"]
    hub.send("level infinite")
    hub.send("go think")
    time.sleep(0.1)
    hub.send("go think")
    hub.send("ping")
    lines = hub.until("pong")
    assert [s for s in lines if s.startswith("error")] == [
        'error message="already searching; send stop first (go ignored)"']
    hub.send("stop")
    hub.until("done")
    hub.send("ping")
    assert not any(s.startswith("done") for s in hub.until("pong"))


def test_hub_guesses_the_game_from_the_board_size_until_a_variant_is_set(hub):
    canadian = "W" + "b" * 30 + "e" * 12 + "w" * 30              # 12x12: Canadian, as Hub numbers it
    hub.send(f"pos pos={canadian}")
    move = hub_go(hub)[-1].split()[1].split("=", 1)[1]
    get_game("canadian").new_state().parse_hub_move(move)
    hub.send("set-param name=variant value=normal")  # Scan's name of international
    hub.send(f"pos pos={canadian}")
    hub.send("ping")
    lines = hub.until("pong")
    assert len(lines) == 2 and "50" in lines[0] and lines[0].startswith("error message="), lines


# the Hub clients' variant names: Scan's (normal, killer, bt, frisian, losing), pydraughts' and
# lidraughts' (standard, frysk!, antidraughts, breakthrough, from position), and ours
CLIENT_VARIANTS = {"normal": "international", "killer": "killer", "bt": "breakthrough", "frisian": "frisian",
                   "losing": "antidraughts", "standard": "international", "frysk!": "frysk",
                   "antidraughts": "antidraughts", "breakthrough": "breakthrough",
                   "from position": "international", "english": "english", "russian": "russian"}


@pytest.mark.parametrize("name", sorted(CLIENT_VARIANTS))
def test_hub_variant_names_of_the_clients_are_accepted(hub, name):
    hub.send(f"set-param name=variant value={hub_quote(name)}")
    hub.send("hub")                                   # the params again, with their values now
    lines = hub.until("wait")
    assert not [s for s in lines if s.startswith("error")], lines
    (variant,) = [hub_fields(s) for s in lines if s.startswith("param name=variant ")]
    assert variant["value"] == CLIENT_VARIANTS[name]


def test_hub_captures_are_written_and_read_in_hub_notation(hub):
    hub.send("set-param name=variant value=international")
    hub.send('pos pos=W' + "b" * 20 + "e" * 10 + "w" * 20 + ' moves="32-28 19-23"')
    lines = hub_go(hub)
    assert lines[-1].split()[1] == "move=28x19x23"   # the only legal move, from x to x captured
    hub.send('pos moves="32-28 19-23 28x19x23 14x23x19"')
    hub.send("ping")
    assert hub.until("pong") == ["pong"]


def test_d_and_play_name_the_sides_alike(engine):
    from mcts_engine.play import play
    assert engine.ask("d")[-1] == "side to move: Black (p1, first player)"
    engine.ask("setoption name UCI_Variant value international")
    assert engine.ask("d")[-1] == "side to move: White (p1, first player)"
    out: list[str] = []
    play(get_game("english"), human_first=True, agent="random", ask=lambda prompt: out.append(prompt) or "quit",
         echo=out.append)
    assert out[0].startswith("english: you play Black (first player), the engine (random) plays "
                             "White (second player).")
    assert "your move (Black (first player)): " in out
