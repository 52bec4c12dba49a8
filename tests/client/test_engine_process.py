"""The engine client (mcts_engine/client/): the process layer and our protocol's driver.

Our real engine and the fake engines in tests/fake_engines/ run as subprocesses;
every wait has a timeout, so a broken engine fails a test instead of hanging the suite.
"""
from __future__ import annotations

import json
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from mcts_engine.rules import get_game
from mcts_engine.client import (EngineCrash, EngineError, EngineInfo, EngineProcess, EngineProtocolError,
                                EngineSpec, EngineSpecError, EngineStartError, EngineTimeout, GoLimits,
                                GoResult, Score, load_engines_file, parse_engine_arg)
from mcts_engine.client.engine import parse_option_line
from mcts_engine.client import process
from mcts_engine.client.info import parse_info
from mcts_engine.client.process import group_pids
from mcts_engine.client.specs import resolve_cmd
from support import FAKES, ROOT

GO_TIMEOUT = 10.0        # generous: the machine may be slow and shared


def fake(name: str, **options) -> EngineSpec:
    return EngineSpec(name=name, cmd=[sys.executable, str(FAKES / f"{name}.py")],
                      options={k: str(v) for k, v in options.items()})


def ours(**options) -> EngineSpec:
    return EngineSpec(name="ours", cmd=resolve_cmd(["mcts-engine"]), options={k: str(v) for k, v in options.items()})


def running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] != "Z"


def assert_gone(engine: EngineProcess) -> None:
    """The engine is reaped and no process of its group is left."""
    pid = engine.pid
    assert engine.returncode is not None
    assert not engine.alive
    if not Path("/proc/self/stat").exists():
        return
    # reaped: no /proc entry left for it (or, at worst, not running under a reused pid)
    assert not running(pid) or group_pids(pid) == []
    # the group was killed; a loaded machine may take a moment to let its last child go
    deadline = time.monotonic() + 10.0
    while group_pids(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group_pids(pid) == []


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


# --- our engine ------------------------------------------------------------------------------

def test_our_engine_plays_movetime_and_nodes():
    game = get_game("english")
    state = game.new_state()
    moves: list[str] = []
    with EngineProcess(ours(Seed=7)) as engine:
        assert engine.alive
        assert engine.id_name.startswith("mcts-engine")
        assert "UCT_C" in engine.options_declared
        agent = engine.options_declared["Agent"]
        assert agent.type == "combo" and agent.choices == ("uct", "random", "greedy")
        assert agent.line.startswith("option name Agent type combo")
        engine.new_game()
        for i in range(4):
            limits = GoLimits(movetime=30) if i % 2 == 0 else GoLimits(nodes=50)
            result = engine.go(None, moves, limits, GO_TIMEOUT)
            assert isinstance(result, GoResult)
            move = state.parse_move(result.move)      # legal in our rules
            state.play(move)
            moves.append(result.move)
            assert result.lines and result.lines[-1].startswith("info")
            if limits.nodes:
                assert result.info.nodes == 50                 # the count asked for, exactly
            else:
                assert result.info.nodes >= 1
            assert result.info.pv[0] == result.move and result.info.depth is not None
            assert result.info.score.cp is not None and result.info.score.mate is None
            assert 0 <= result.elapsed < GO_TIMEOUT
            assert not result.stopped and result.errors == ()
        assert engine.ping() < 5.0
    assert_gone(engine)


def test_our_uct_engine_from_a_fen_reports_search_numbers():
    fen = "W:W21,22,23:B10,11"
    with EngineProcess(ours(Seed=1)) as engine:
        result = engine.go(fen, [], GoLimits(nodes=300), GO_TIMEOUT)
        state = get_game("english").parse_fen(fen)
        state.play(state.parse_move(result.move))
        assert result.info.nodes == 300
        assert result.info.pv and result.info.pv[0] == result.move
        for text in result.info.pv[1:]:                     # the whole PV is legal from the FEN on
            state.play(state.parse_move(text))
        assert (result.info.score.cp is None) != (result.info.score.mate is None)


def test_go_infinite_answers_after_stop_within_the_grace(monkeypatch):
    """After the go's 0.3 s, ``stop``; the engine's bestmove is the answer (``stopped``).  The
    grace after the stop is a minute here, so a loaded machine cannot use it up: an engine
    that ignored the stop would raise EngineTimeout after it, one slow to act on it would
    answer past half of it."""
    monkeypatch.setattr(process, "STOP_GRACE", 60.0)
    with EngineProcess(ours(Agent="random")) as engine:
        result = engine.go(None, [], GoLimits(infinite=True), 0.3)
        assert result.stopped
        assert 0.3 <= result.elapsed < 0.3 + process.STOP_GRACE / 2
        get_game("english").new_state().parse_move(result.move)
        assert result.info.nodes == 1 and result.info.pv == (result.move,)   # the random agent's one move
        # still usable afterwards
        assert engine.go(None, [result.move], GoLimits(movetime=20), GO_TIMEOUT).move


def test_on_info_hears_each_info_line_as_it_arrives():
    """The public hook for a live view (the GUI's): every info line of a go, while the search
    still runs (our engine reports twice a second), and the same lines in the result."""
    heard: list[tuple[float, str]] = []
    with EngineProcess(ours(Agent="uct", Seed=1), on_info=lambda line: heard.append((time.monotonic(), line))) \
            as engine:
        result = engine.go(None, [], GoLimits(movetime=1300), GO_TIMEOUT)
        ended = time.monotonic()
        assert [line for _, line in heard] == list(result.lines) and len(heard) >= 2
        assert heard[0][0] < ended - 0.3          # the first came long before bestmove (no bound on the machine's speed)
        engine.on_info = None                      # may be changed between searches
        assert engine.go(None, [], GoLimits(nodes=10), GO_TIMEOUT).lines and len(heard) == len(result.lines)


def test_a_rejected_option_is_a_start_error_naming_it():
    spec = parse_engine_arg("name=bad cmd=mcts-engine option.UCT_C=abc")
    engine = EngineProcess(spec)
    with pytest.raises(EngineStartError) as info:
        engine.start()
    assert "UCT_C" in str(info.value) and "abc" in str(info.value)
    assert info.value.reason == "start"
    assert_gone(engine)


def test_an_undeclared_option_is_a_start_error():
    engine = EngineProcess(ours(NoSuchOption=1))
    with pytest.raises(EngineStartError, match="NoSuchOption"):
        engine.start()
    assert_gone(engine)


@needs_proc
def test_quit_leaves_no_process():
    engine = EngineProcess(ours(Agent="random")).start()
    pid = engine.pid
    assert running(pid) and group_pids(pid) == [pid]
    assert engine.quit() == 0
    assert not Path(f"/proc/{pid}").exists()
    assert_gone(engine)
    assert engine.quit() == 0          # idempotent
    engine.kill()
    with pytest.raises(EngineCrash):
        engine.go(None, [], GoLimits(movetime=10), 1.0)


def test_kill_ends_the_engine_at_once():
    engine = EngineProcess(ours()).start()
    engine.kill()
    assert engine.returncode == -9
    assert_gone(engine)


# --- the fakes --------------------------------------------------------------------------------

def test_good_fake_is_a_seeded_random_mover():
    def play(seed):
        moves = []
        with EngineProcess(fake("good", Seed=seed)) as engine:
            for _ in range(6):
                moves.append(engine.go(None, moves, GoLimits(movetime=10), GO_TIMEOUT).move)
        return moves
    first = play(5)
    assert first == play(5)
    state = get_game("english").new_state()
    for move in first:
        state.play(state.parse_move(move))


def test_no_handshake_is_a_start_error_after_the_startup_timeout():
    engine = EngineProcess(fake("no_handshake"), startup_timeout=0.7)
    start = time.monotonic()
    with pytest.raises(EngineStartError, match="uciok") as info:
        engine.start()
    assert time.monotonic() - start >= 0.6           # it waited ...
    assert "no uciok within 0.7 s" in str(info.value)   # ... the startup timeout given (not the default 10 s)
    assert info.value.reason == "start"
    assert_gone(engine)


def test_a_missing_program_is_a_start_error():
    engine = EngineProcess(EngineSpec("nothing", ["/nonexistent/engine-binary"], {}))
    with pytest.raises(EngineStartError, match="cannot start"):
        engine.start()


def test_an_engine_exiting_at_once_is_a_start_error_with_its_code():
    spec = EngineSpec("dies", [sys.executable, "-c", "import sys; sys.stderr.write('boom\\n'); sys.exit(5)"], {})
    engine = EngineProcess(spec)
    with pytest.raises(EngineStartError) as info:
        engine.start()
    assert info.value.returncode == 5 and "code 5" in str(info.value)
    assert "boom" in info.value.stderr
    assert_gone(engine)


@pytest.mark.parametrize("configure", ["option", "env"])
def test_crash_is_reported_at_the_right_move(configure, monkeypatch):
    if configure == "env":
        monkeypatch.setenv("FAKE_CRASH_AFTER", "2")
        spec = fake("crash")
    else:
        spec = fake("crash", CrashAfter=2)
    engine = EngineProcess(spec).start()
    moves: list[str] = []
    for _ in range(2):
        moves.append(engine.go(None, moves, GoLimits(movetime=10), GO_TIMEOUT).move)
    with pytest.raises(EngineCrash) as info:
        engine.go(None, moves, GoLimits(movetime=10), GO_TIMEOUT)
    assert info.value.reason == "crash" and info.value.returncode == 3
    assert "code 3" in str(info.value)
    assert_gone(engine)                # a crash kills and reaps the group itself
    engine.quit()


CHILD_THEN_EXIT = """
import subprocess, sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name child-then-exit", flush=True); print("uciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], stdin=subprocess.DEVNULL)
        sys.exit(4)
"""


@needs_proc
def test_crash_is_seen_while_a_child_holds_stdout_open():
    engine = EngineProcess(EngineSpec("child", [sys.executable, "-c", CHILD_THEN_EXIT], {})).start()
    pid = engine.pid
    timeout = 60.0
    start = time.monotonic()
    with pytest.raises(EngineCrash) as info:
        engine.go(None, [], GoLimits(movetime=10), timeout)
    # not the go timeout: the exit is noticed while waiting for the answer (once the timeout
    # ran out, the stop we would send to the dead engine would fail "while sending 'stop'")
    assert "exited with code 4 during 'go movetime 10'" in str(info.value)
    assert time.monotonic() - start < timeout / 2
    assert info.value.returncode == 4
    assert_gone(engine)
    assert group_pids(pid) == []               # the child was killed with the group


@needs_proc
def test_hang_times_out_and_quit_kills_the_whole_group(monkeypatch):
    spec = fake("hang", HangAfter=1, HangChild=1, IgnoreTerm=1)
    engine = EngineProcess(spec).start()
    pid = engine.pid
    first = engine.go(None, [], GoLimits(movetime=10), GO_TIMEOUT).move
    start = time.monotonic()
    with pytest.raises(EngineTimeout) as info:
        engine.go(None, [first], GoLimits(movetime=10), 0.5)
    assert time.monotonic() - start >= 0.5 + 0.5          # the go's timeout, then the grace after stop ...
    waited = re.search(r"no bestmove within ([0-9.]+) s \(\+0\.5 s after stop\)", str(info.value))
    assert waited and float(waited.group(1)) <= 0.5       # ... and no more (what was left of the 0.5 s)
    assert info.value.reason == "timeout"
    assert engine.alive                # a timeout leaves the engine to the caller
    deadline = time.monotonic() + 5.0
    while len(group_pids(pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)               # the child is being spawned
    members = group_pids(pid)
    assert pid in members and len(members) == 2
    signals, waits = [], []
    killpg, wait_leader = process._killpg, engine._wait_leader
    monkeypatch.setattr(process, "_killpg", lambda pgid, sig: (signals.append(sig), killpg(pgid, sig))[1])
    monkeypatch.setattr(engine, "_wait_leader", lambda seconds: (waits.append(seconds), wait_leader(seconds))[1])
    engine.quit(timeout=0.3, term_timeout=0.3)   # quit and SIGTERM ignored: SIGKILL
    assert signals[:2] == [signal.SIGTERM, signal.SIGKILL]
    assert waits[:2] == [0.3, 0.3]     # each step waited the time given, not quit's defaults (2 s, 1 s)
    assert engine.returncode == -9
    for member in members:
        assert not running(member)
    assert_gone(engine)


def test_illegal_move_is_returned_not_judged():
    with EngineProcess(fake("illegal")) as engine:
        first = engine.go(None, [], GoLimits(movetime=10), GO_TIMEOUT)
        get_game("english").new_state().parse_move(first.move)
        second = engine.go(None, [first.move], GoLimits(movetime=10), GO_TIMEOUT)
        assert second.move == "1-2"
        assert engine.alive


def test_bestmove_without_a_move_is_a_protocol_error(monkeypatch):
    monkeypatch.setenv("FAKE_BAD_MOVE", "")
    with EngineProcess(fake("illegal", LegalMoves=0)) as engine:
        with pytest.raises(EngineProtocolError) as info:
            engine.go(None, [], GoLimits(nodes=5), GO_TIMEOUT)
        assert info.value.reason == "protocol"
        assert isinstance(info.value, EngineError)


def test_position_errors_are_reported_with_the_result():
    with EngineProcess(fake("good")) as engine:
        result = engine.go(None, ["9-14", "1-2"], GoLimits(movetime=10), GO_TIMEOUT)
        assert result.errors and "1-2" in result.errors[0]


# --- parsing ------------------------------------------------------------------------------------

def test_parse_info_and_last_line_wins():
    info = parse_info("info depth 3 seldepth 9 nodes 120 nps 5000 time 24 score mate -2 wdl 0 0 1000 pv 9-14 22-18")
    assert info == EngineInfo(depth=3, seldepth=9, nodes=120, nps=5000, time=24, score=Score(mate=-2),
                              wdl=(0, 0, 1000), pv=("9-14", "22-18"))
    assert parse_info("info string depth 5 nodes 7") == EngineInfo(string="depth 5 nodes 7")
    result = EngineProcess._result("9-14", None, [
        "info depth 1 nodes 10 score cp 30", "info depth 2 nodes 20 score mate 3", "info string done"],
        [], 0.1, False)
    assert (result.info.depth, result.info.nodes, result.info.score) == (2, 20, Score(mate=3))
    assert Score(mate=3).as_cp() == -Score(mate=-1).as_cp() > Score(cp=900).as_cp()
    with pytest.raises(ValueError):
        Score(cp=1, mate=2)


def test_option_lines_are_read_into_typed_declarations():
    spin = parse_option_line("option name Hash type spin default 256 min 1 max 1048576")
    assert (spin.name, spin.type, spin.default, spin.low, spin.high) == ("Hash", "spin", "256", 1, 1048576)
    combo = parse_option_line("option name Play Out type combo default random var random var mast")
    assert (combo.name, combo.default, combo.choices) == ("Play Out", "random", ("random", "mast"))
    assert parse_option_line("option name Bare").name == "Bare" and parse_option_line("optional") is None


def test_parse_engine_arg_good():
    spec = parse_engine_arg("name=uct1 cmd=mcts-engine option.UCT_C=0.7 option.Agent=random")
    assert spec.name == "uct1"
    assert spec.options == {"UCT_C": "0.7", "Agent": "random"}
    assert spec.cmd == resolve_cmd(["mcts-engine"])
    script = Path(sys.executable).parent / "mcts-engine"
    if script.exists():
        assert spec.cmd == [str(script)]
    spec = parse_engine_arg("name=f cmd=\"python fake.py --x\" option.Rules='a=1,b=2' cwd=/tmp")
    assert spec.cmd == ["python", "fake.py", "--x"]
    assert spec.options == {"Rules": "a=1,b=2"} and spec.cwd == "/tmp"
    assert parse_engine_arg("cmd=e name='my engine'").name == "my engine"


@pytest.mark.parametrize("text, needle", [
    ("cmd=mcts-engine", "missing name"),
    ("name=x", "missing cmd"),
    ("name=x cmd=mcts-engine UCT_C", "'UCT_C'"),
    ("name=x cmd=mcts-engine colour=red", "'colour=red'"),
    ("name=x cmd=mcts-engine option.=1", "'option.=1'"),
    ("name=x name=y cmd=e", "twice"),
    ("name=x cmd='e", "cannot split"),
    ("name= cmd=e", "empty name"),
    ("name=x cmd=e option.A=1 option.a=2", "twice"),
])
def test_parse_engine_arg_bad(text, needle):
    with pytest.raises(EngineSpecError, match=None) as info:
        parse_engine_arg(text)
    assert needle in str(info.value)


def test_engines_file_json_and_toml(tmp_path):
    data = {"engines": [
        {"name": "uct1", "cmd": "mcts-engine", "options": {"UCT_C": 0.7, "Solver": False, "Seed": 3}},
        {"name": "fake", "cmd": [sys.executable, "good.py"], "cwd": "fakes"},
    ]}
    (tmp_path / "engines.json").write_text(json.dumps(data))
    (tmp_path / "engines.toml").write_text(
        '[[engines]]\nname = "uct1"\ncmd = "mcts-engine"\n'
        '[engines.options]\nUCT_C = 0.7\nSolver = false\nSeed = 3\n\n'
        f'[[engines]]\nname = "fake"\ncmd = [{json.dumps(sys.executable)}, "good.py"]\ncwd = "fakes"\n')
    for name in ("engines.json", "engines.toml"):
        specs = load_engines_file(tmp_path / name)
        assert list(specs) == ["uct1", "fake"]
        assert specs["uct1"].cmd == resolve_cmd(["mcts-engine"])
        assert specs["uct1"].options == {"UCT_C": "0.7", "Solver": "false", "Seed": "3"}
        assert specs["fake"].cmd == [sys.executable, "good.py"]
        assert specs["fake"].cwd == str((tmp_path / "fakes").resolve())
    # a spec from a file runs
    (tmp_path / "fakes").mkdir()
    (tmp_path / "fakes" / "good.py").write_text((FAKES / "good.py").read_text().replace(
        "ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))", f"ROOT = {str(ROOT)!r}"))
    with EngineProcess(load_engines_file(tmp_path / "engines.toml")["fake"]) as engine:
        assert engine.id_name.startswith("fake-good")


@pytest.mark.parametrize("content, needle", [
    ('{"engines": [{"cmd": "x"}]}', "name"),
    ('{"engines": [{"name": "a"}]}', "cmd"),
    ('{"engines": [{"name": "a", "cmd": "x"}, {"name": "a", "cmd": "y"}]}', "twice"),
    ('{"engines": [{"name": "a", "cmd": "x", "options": {"A": [1]}}]}', "option value"),
    ('{"players": []}', "engines"),
    ('{"engines": [', "not valid JSON"),
])
def test_engines_file_errors(tmp_path, content, needle):
    path = tmp_path / "engines.json"
    path.write_text(content)
    with pytest.raises(EngineSpecError) as info:
        load_engines_file(path)
    assert needle in str(info.value)


def test_the_game_and_its_rules_are_set_after_the_spec_options():
    """``game``/``rules`` become UCI_Variant and Rules, sent after the spec's own options
    (so a spec's UCI_Variant cannot override the tournament's game)."""
    engine = EngineProcess(ours(UCI_Variant="english"), game="frisian", rules={"king_move_limit": "0"})
    with engine:
        engine.send("query rules")
        line = engine._next_line(time.monotonic() + GO_TIMEOUT)
        assert line.startswith("response ") and "king_move_limit=0" in line and "size=10" in line
        engine.send("query moves")
        moves = engine._next_line(time.monotonic() + GO_TIMEOUT).split()[1:]
        assert sorted(moves) == sorted(s.move_str(m) for s in [get_game("frisian").new_state()]
                                       for m in s.legal_moves())


def test_an_engine_without_uci_variant_can_only_play_the_default_game(tmp_path):
    script = tmp_path / "plain.py"
    script.write_text("import sys\n"
                      "for line in sys.stdin:\n"
                      "    word = line.split()[0] if line.split() else ''\n"
                      "    if word == 'uci': print('id name plain\\nuciok', flush=True)\n"
                      "    elif word == 'isready': print('readyok', flush=True)\n"
                      "    elif word == 'quit': break\n")
    spec = EngineSpec(name="plain", cmd=[sys.executable, str(script)])
    with EngineProcess(spec, game="english") as engine:   # the default game: nothing to set
        assert engine.alive
    with pytest.raises(EngineStartError, match="does not declare the UCI_Variant option.*russian"):
        with EngineProcess(spec, game="russian"):
            pass
