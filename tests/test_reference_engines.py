"""The reference engines (``mcts-engine reference-engine``): independent engines as engines of
our protocol, every move checked by our rules.  Real engines throughout, no mocks of them:

* OpenSpiel's C++ MCTS (``open_spiel``, a test dependency): the protocol in-process and as
  a process, a game the engine's rules and ours disagree on (its moves must be caught),
  OpenSpiel's own 40-ply draw, and whole games through ``mcts-tournament match``;
* py-draughts' engines (they need py-draughts' own virtual environment, made here
  once under the temporary directory when ``MCTS_PYDRAUGHTS_PYTHON`` names none; in CI a
  missing piece fails): for every game py-draughts has a board for, seeded random games of
  our rules replayed through its worker with the two rules' legal moves compared at every
  ply (equal, but for its optional English captures and its missing Frisian king limit);
  py-draughts' own English draw said and the fallback played; short games of SimpleEngine
  (Russian, Brazilian) against random moves; and, slow, whole games of TurboEngine
  (International) and SimpleEngine (English) through the tournament and py-draughts'
  optional English captures (quiet moves listed beside a compulsory capture, and played) caught.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from support import in_ci, require
from support.drivers import engine_env
from mcts_engine.reference_engines import make_engine
from mcts_engine.reference_engines.adapter import AdapterProtocol, EngineAnswer
from mcts_engine.reference_engines.adjudicate import adjudicate_journal, material
from mcts_engine.reference_engines.bridge import Bridge
from mcts_engine.reference_engines.moves import (ForeignMoveError, MoveKey, check_answer, compare_legal,
                                                 identity_map, key_of, legal_by_key)
from mcts_engine.reference_engines.openspiel_mcts import openspiel_squares
from mcts_engine.reference_engines.adapter import common_options
from mcts_engine.reference_engines.pydraughts_engines import BOARDS, KINDS, pydraughts_fen, pydraughts_squares
from mcts_engine.reference_engines.pydraughts_env import PYDRAUGHTS_REQUIREMENT, installed_version, setup
from mcts_engine.rules import get_game

PY = sys.executable
ENGINE = f"{PY} -m mcts_engine"


def pyspiel():
    return require("pyspiel", "open_spiel is not installed (pip install open_spiel)")


class Session:
    """An in-process adapter with its output lines."""

    def __init__(self, engine, game=None):
        self.lines: list[str] = []
        self.protocol = AdapterProtocol(engine, self.lines.append, game=game)

    def send(self, *lines: str) -> list[str]:
        start = len(self.lines)
        for line in lines:
            self.protocol.handle(line)
        self.protocol.wait_search()
        return self.lines[start:]

    def close(self):
        self.protocol.shutdown()


def bestmoves(lines):
    return [line.split()[1] for line in lines if line.startswith("bestmove")]


def errors(lines):
    return [line for line in lines if line.startswith("info string error")]


# --- the pieces, without an engine ------------------------------------------------------------

def test_square_maps_and_fen_translation():
    """OpenSpiel's squares are the PDN diagram turned 180 degrees; py-draughts' american board is
    n -> 33 - n with the colours swapped; its Russian and Brazilian boards number b8 = 1 .. g1 = 32;
    its 10x10 boards are PDN's."""
    squares = openspiel_squares()
    assert (squares["12"], squares["16"], squares["1"], squares["32"]) == ("a3", "b4", "g1", "b8")
    assert len(set(squares.values())) == 32
    english = get_game("english")
    american = pydraughts_squares(english).ours_to_theirs
    assert american == {str(n): str(33 - n) for n in range(1, 33)}
    state = english.parse_fen("B:W5,6,21,22:BK32,1,4,12,23")
    assert pydraughts_fen(english, state) == "W:W32,29,21,10,K1:B28,27,12,11"
    for name in ("russian", "brazilian"):
        game = get_game(name)
        russian = pydraughts_squares(game).ours_to_theirs
        assert (russian["b8"], russian["h8"], russian["a7"], russian["a1"], russian["g1"]) == ("1", "4", "5", "29", "32")
        state = game.parse_fen("B:Wa1,Kc3:Bb8,Kh2")
        assert pydraughts_fen(game, state) == "B:W29,K22:BK28,1"
    for name in ("international", "frisian", "frysk", "antidraughts", "breakthrough"):
        assert pydraughts_squares(get_game(name)).ours_to_theirs == {str(n): str(n) for n in range(1, 51)}
        assert pydraughts_fen(get_game(name), get_game(name).parse_fen("B:W31,K46:B5,K12")) == "B:W31,K46:B5,K12"


def test_pydraughts_engines_offer_the_games_of_their_rows():
    """UCI_Variant offers each engine's games (BOARDS' rows), International first; a row without
    an engine says why."""
    assert KINDS == {"turbo": ("international",), "simple": ("international", "english", "russian", "brazilian")}
    for kind, games in KINDS.items():
        engine = make_engine(f"pydraughts-{kind}", python="/nonexistent/python")
        variant = next(d for d in common_options(engine) if d.option.name == "UCI_Variant")
        assert variant.option.choices == games and variant.default == "international"
    assert all(row.why_not for row in BOARDS.values() if not row.engines)
    assert {name for name, row in BOARDS.items() if not row.engines} == {"frisian", "frysk", "antidraughts", "breakthrough"}


def test_a_foreign_move_our_rules_forbid_is_named():
    """check_answer finds our legal move by key, and names a forbidden one in both notations."""
    state = get_game("english").new_state()
    squares = identity_map(str(n) for n in range(1, 33))
    move = check_answer(state, squares, ["11", "15", []])
    assert state.move_str(move) == "11-15" and key_of(state, move) == MoveKey("11", "15")
    with pytest.raises(ForeignMoveError, match=r"21-17.*our rules do not allow"):
        check_answer(state, squares, ["21", "17", []])
    with pytest.raises(ForeignMoveError, match="not a move"):
        check_answer(state, squares, "11-15")
    legal = [key_of(state, m).to_wire() for m in state.legal_moves()]
    assert compare_legal(state, squares, legal) is None
    problem = compare_legal(state, squares, legal[1:] + [["21", "17", []]])
    assert "forbid: 21-17" in problem and "lacks moves" in problem


def test_a_malformed_worker_answer_is_an_answer_without_a_move():
    assert not EngineAnswer.from_reply("bestmove 11-15").ok
    bad = EngineAnswer.from_reply({"ok": True, "move": ["11", "15", []], "nodes": "many"})
    assert not bad.ok and "malformed" in bad.error
    good = EngineAnswer.from_reply({"ok": True, "move": ["11", "15", []], "nodes": 300, "seconds": 0.5, "cp": 12})
    assert good.ok and good.info_line("11-15") == "info nodes 300 nps 600 time 500 score cp 12 pv 11-15"


# --- OpenSpiel's MCTS ---------------------------------------------------------------------------

def test_openspiel_session_every_go_one_legal_bestmove_and_bad_input_one_error():
    pyspiel()
    s = Session(make_engine("openspiel-mcts"))
    try:
        out = s.send("uci")
        assert out[0].startswith("id name openspiel-mcts (OpenSpiel") and out[-1] == "uciok"
        assert any("option name Iterations type spin" in line for line in out)
        for bad, words in [("setoption name Iterations value -3", "Iterations"),
                           ("setoption name UCI_Variant value international", "international"),
                           ("setoption name Nonsense value 1", "unknown option"),
                           ("position startpos moves 11-15 11-15", "11-15"),
                           ("position fen W:W18:B14", "cannot start from a FEN"),
                           ("frobnicate", "unknown command")]:
            out = s.send(bad)
            assert len(out) == 1 and out[0].startswith("info string error") and words in out[0], (bad, out)
        s.send("setoption name Iterations value 50")
        out = s.send("go nodes x")        # as our engine: the bad part named, the search run without it
        assert errors(out) == [out[0]] and "not an integer" in out[0] and len(bestmoves(out)) == 1, out
        s.send("setoption name Seed value 7", "setoption name Iterations value 300")
        first = s.send("position startpos moves 11-15 23-19", "go")
        again = s.send("ucinewgame", "position startpos moves 11-15 23-19", "go movetime 5000")
        assert len(bestmoves(first)) == 1 and bestmoves(first) == bestmoves(again)     # seeded: the same
        assert any(line.startswith("info nodes 300 ") for line in first)
        state = get_game("english").new_state()
        for text in ("11-15", "23-19"):
            state.play(state.parse_move(text))
        assert bestmoves(first)[0] in {state.move_str(m) for m in state.legal_moves()}
        out = s.send("position fen B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", "d")
        assert "fen B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" in out   # the start: taken
        out = s.send("setoption name Iterations value 0", "go depth 3")        # no limit OpenSpiel knows: 1 s
        assert len(bestmoves(out)) == 1 and any("depth is no limit" in line for line in out)
    finally:
        s.close()


def test_openspiel_moves_our_rules_forbid_are_caught_and_never_played():
    """A game whose rules differ from OpenSpiel's (our English with the board turned: Black on
    21-32): every move OpenSpiel answers is illegal there; the adapter says so and plays a
    legal move of our rules instead."""
    pyspiel()
    game = get_game("english", corner="top-left")
    s = Session(make_engine("openspiel-mcts"), game=game)
    try:
        out = s.send("setoption name Seed value 3", "position startpos", "go nodes 100")
        legal = {game.new_state().move_str(m) for m in game.new_state().legal_moves()}
        assert bestmoves(out)[0] in legal
        text = " ".join(errors(out))
        assert "lists moves our rules forbid" in text and "our rules do not allow" in text, out
        assert any("fallback" in line for line in out)
    finally:
        s.close()


def test_openspiel_worker_death_costs_one_fallback_move_then_it_is_restarted():
    """A worker that dies during a search costs that search a fallback move (an error line says
    why); the next go starts a new worker.  One found dead between searches is restarted
    before the search, at no cost."""
    pyspiel()
    s = Session(make_engine("openspiel-mcts"))
    try:
        s.send("setoption name Iterations value 50", "position startpos moves 11-15", "go")
        old = s.protocol.bridge.process
        old.kill()
        old.wait()
        out = s.send("go")
        assert len(bestmoves(out)) == 1 and not errors(out) and s.protocol.bridge.process is not old
        start = len(s.lines)
        s.protocol.handle("setoption name Iterations value 0")
        s.protocol.handle("go movetime 5000")
        deadline = time.monotonic() + 30
        while not s.protocol._bridge_lock.locked() and time.monotonic() < deadline:   # the request is out
            time.sleep(0.01)
        s.protocol.bridge.process.kill()
        s.protocol.wait_search()
        out = s.lines[start:]
        assert len(bestmoves(out)) == 1 and any("worker exited" in line for line in errors(out)), out
        assert any("fallback" in line for line in out)
        out = s.send("setoption name Iterations value 50", "go")
        assert len(bestmoves(out)) == 1 and not errors(out) and not any("fallback" in line for line in out)
    finally:
        s.close()


def quiet_line(game, plies: int) -> list[str]:
    """A seeded random game's moves up to the first time ``plies`` plies in a row took nothing."""
    for seed in range(1000):
        rng, state, quiet, moves = random.Random(seed), game.new_state(), 0, []
        while state.outcome() is None:
            move = state.random_move(rng)
            quiet = 0 if state.is_capture(move) else quiet + 1
            moves.append(state.move_str(move))
            state.play(move)
            if quiet == plies and state.outcome() is None:
                return moves
    raise AssertionError("no such game")


def revived(game, moves: list[str]):
    """(state, moves): a seeded random continuation of ``moves`` up to just after a capture,
    with the game still going."""
    for seed in range(1000):
        rng, state, more = random.Random(seed), game.new_state(), []
        for text in moves:
            state.play(state.parse_move(text))
        while state.outcome() is None:
            move = state.random_move(rng)
            captured = state.is_capture(move)
            more.append(state.move_str(move))
            state.play(move)
            if captured:
                if state.outcome() is None:
                    return state, more
                break
    raise AssertionError("no such continuation")


def test_openspiel_own_forty_ply_draw_is_said_and_the_game_goes_on(tmp_path):
    """Past OpenSpiel's own draw (40 plies without a capture) the adapter says so (also in its
    Log file) and plays a legal fallback; once a capture has revived OpenSpiel's game,
    OpenSpiel plays again."""
    pyspiel()
    game = get_game("english")
    moves = quiet_line(game, 40)
    s = Session(make_engine("openspiel-mcts"))
    log = tmp_path / "adapter.log"
    try:
        out = s.send("setoption name Iterations value 50", f"setoption name Log value {log}",
                     "position startpos moves " + " ".join(moves), "go")
        assert any("drawn here by its own rule" in line for line in out) and not errors(out), out
        assert len(bestmoves(out)) == 1
        logged = log.read_text()
        assert f"ply {len(moves)} " in logged and "drawn here by its own rule" in logged and "fallback" in logged
        state, more = revived(game, moves)
        moves += more
        out = s.send("position startpos moves " + " ".join(moves), "go")
        assert not any("fallback" in line for line in out), out
        assert bestmoves(out)[0] in {state.move_str(m) for m in state.legal_moves()}
    finally:
        s.close()


def test_adjudication_ends_a_game_at_openspiels_forty_plies_by_material(tmp_path):
    """adjudicate rewrites a journal: a game with 40 quiet plies is scored by material there
    (a man ahead wins, equal material draws), a game that ended earlier keeps its result."""
    game = get_game("english")
    moves = quiet_line(game, 40)
    state = game.new_state()
    for text in moves:
        state.play(state.parse_move(text))
    first, second = material(state, game, 1.5)
    expected = 1.0 if first - second >= 1 else 0.0 if second - first >= 1 else 0.5
    base = {"type": "game", "pair": 0, "game": "english", "rules": {}, "players": ["a", "b"],
            "opening": {"fen": None, "moves": moves[:2]}}
    journal = tmp_path / "j.jsonl"
    records = [{"type": "tournament", "settings": {}},
               dict(base, id=0, moves=moves[2:], score_first=0.0, reason="second player wins"),
               dict(base, id=1, moves=moves[2:10], score_first=1.0, reason="first player wins")]
    journal.write_text("".join(json.dumps(r) + "\n" for r in records))
    done = adjudicate_journal(journal, tmp_path / "out.jsonl")
    assert [(d.id, d.ply, d.score_first) for d in done] == [(0, len(moves), expected), (1, None, 1.0)]
    written = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert written[0] == records[0] and written[2] == records[2]
    assert written[1]["score_first"] == expected and f"OpenSpiel's 40-ply rule at ply {len(moves)}," in written[1]["reason"]


def test_openspiel_process_answers_isready_and_stop_during_a_search():
    """As a process: isready is answered during an infinite search, stop brings its one bestmove."""
    pyspiel()
    proc = subprocess.Popen(f"{ENGINE} reference-engine openspiel-mcts".split(), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=engine_env(), bufsize=1)
    try:
        def read_until(word, timeout):
            deadline = time.monotonic() + timeout
            seen = []
            while time.monotonic() < deadline:
                line = proc.stdout.readline()
                seen.append(line.strip())
                if line.startswith(word):
                    return seen
            raise AssertionError(f"no {word} in {seen}")

        proc.stdin.write("uci\n")
        read_until("uciok", 30)
        proc.stdin.write("position startpos moves 11-15\ngo infinite\n")
        time.sleep(0.5)
        proc.stdin.write("isready\n")
        # go infinite never ends by itself: a readyok with no bestmove before it was not queued
        # behind the search (how soon it came is the machine's speed, not asserted; issue 37)
        assert not any(line.startswith("bestmove") for line in read_until("readyok", 30))
        proc.stdin.write("stop\n")
        seen = read_until("bestmove", 15)
        assert sum(line.startswith("bestmove") for line in seen) == 1
        proc.stdin.write("quit\n")
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()


def tournament(*args, timeout=600):
    proc = subprocess.run([PY, "-m", "tournaments", *args], capture_output=True, text=True,
                          timeout=timeout, env=engine_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def check_journal(journal: Path, games: int, reference: str) -> list[dict]:
    records = [json.loads(line) for line in journal.read_text().splitlines() if line.strip()]
    records = [r for r in records if r.get("type") == "game"]
    assert len(records) == games
    for record in records:
        reason = record["reason"]
        assert "by the rules" in reason or reason.startswith("adjudicated"), reason   # no forfeit
        assert reference in record["players"]
        state = get_game(record["game"]).new_state()
        for text in record["opening"]["moves"] + record["moves"]:      # every move legal by our rules
            state.play(state.parse_move(text))
    return records


def test_openspiel_plays_whole_games_against_our_engine_through_the_tournament(tmp_path):
    pyspiel()
    journal = tmp_path / "j.jsonl"
    out = tournament("match", "--game", "english", "--engine", f'name=ours cmd="{ENGINE}" option.Seed=1',
                     "--engine", f'name=openspiel cmd="{ENGINE} reference-engine openspiel-mcts" option.Seed=2',
                     "--games", "2", "--nodes", "40", "--opening-plies", "2", "--seed", "1",
                     "--concurrency", "2", "--journal", str(journal), "--quiet")
    assert "2 game(s) played" in out
    check_journal(journal, 2, "openspiel")


# --- py-draughts' engines (their own virtual environment) --------------------------------------

@pytest.fixture(scope="session")
def pydraughts_python() -> str:
    """The Python of a virtual environment with py-draughts: $MCTS_PYDRAUGHTS_PYTHON, else one
    made (once, then reused) under the temporary directory."""
    named = os.environ.get("MCTS_PYDRAUGHTS_PYTHON")
    if named and installed_version(Path(named)):
        return named
    venv = Path(tempfile.gettempdir()) / f"mcts-tests-py-draughts-{sys.version_info[0]}{sys.version_info[1]}"
    try:
        return str(setup(venv, PYDRAUGHTS_REQUIREMENT).python)
    except Exception as err:
        if in_ci():
            pytest.fail(f"cannot make py-draughts' environment ({err}); CI is set: a missing test "
                        "dependency fails the run", pytrace=False)
        pytest.skip(f"cannot make py-draughts' environment: {err}")


@pytest.fixture(scope="module")
def pydraughts_worker(pydraughts_python):
    """py-draughts' worker, for its ``legal`` requests (no engine search)."""
    bridge = Bridge(make_engine("pydraughts-simple", python=pydraughts_python).worker_command())
    hello = bridge.request({"op": "hello"}, timeout=60)
    assert hello.get("ok"), hello
    yield bridge
    bridge.close()


def pydraughts_legal(worker, game, moves, start=None):
    """py-draughts' legal moves (and whether its rules have drawn) at every ply of ``moves`` (our
    moves, played from ``start``, a state of ours, or the start position)."""
    squares = pydraughts_squares(game)
    state = game.new_state() if start is None else start.copy()
    states, wire = [state.copy()], []
    for move in moves:
        wire.append(squares.to_theirs(key_of(state, move)).to_wire())
        state.play(move)
        states.append(state.copy())
    answer = worker.request({"op": "legal", "variant": BOARDS[game.name].board,
                             "start": None if start is None else pydraughts_fen(game, start), "moves": wire},
                            timeout=120)
    assert answer.get("ok"), answer
    assert len(answer["legal"]) == len(states)
    return states, answer["legal"], answer["drawn"]


def difference(state, squares, wire_moves):
    """(moves only py-draughts lists, moves only we list): keys in our squares."""
    theirs = {squares.to_ours(MoveKey.from_wire(m)) for m in wire_moves}
    ours = set(legal_by_key(state))
    return theirs - ours, ours - theirs


def king_limit_extras(state, history, extra):
    """Whether ``extra`` (moves only py-draughts lists) are moves of the one king that made its
    side's last three moves, plain moves in a row: Frisian's limit, which py-draughts 1.10.1 does
    not enforce."""
    own = history[-6::2] if len(history) >= 6 else []
    if len(own) != 3 or any(k.captures for k in own):
        return False
    chained = own[0].end == own[1].start and own[1].end == own[2].start
    return chained and all(k.start == own[2].end and not k.captures for k in extra)


#: the differences of py-draughts 1.10.1's legal moves from ours (our rules follow draughts.md):
#: English: its AmericanBoard makes captures optional (quiet moves listed beside a capture; the
#: rules text: capturing is compulsory in every variant); Frisian and Frysk!: it lists the moves
#: of a king that has made three moves in a row while its side has men (draughts.md 3.2 forbids them)
KNOWN_DIFFERENCES = {"english": "quiet moves beside captures", "frisian": "king limit", "frysk": "king limit"}


@pytest.mark.parametrize("name", list(BOARDS))
def test_pydraughts_legal_moves_equal_ours_along_random_games(pydraughts_worker, name):
    """Seeded random games of our rules replayed on py-draughts' board, the two rules' legal moves
    compared at every ply with the adapter's own check (``compare_legal``): equal, but for the
    known differences, each checked to be exactly what it is.  Where an engine is offered (but in
    English) py-draughts' own draw rules never end a game before ours."""
    game = get_game(name)
    squares = pydraughts_squares(game)
    plies = differing = 0
    for seed in range(60):
        rng, state, moves = random.Random(seed), game.new_state(), []
        while state.outcome() is None:
            moves.append(state.random_move(rng))
            state.play(moves[-1])
        states, lists, drawn = pydraughts_legal(pydraughts_worker, game, moves)
        history = []
        for ply, (here, legal) in enumerate(zip(states[:-1], lists)):
            plies += 1
            problem = compare_legal(here, squares, legal)
            if problem:
                differing += 1
                extra, missing = difference(here, squares, legal)
                known = KNOWN_DIFFERENCES.get(name)
                if known == "quiet moves beside captures":
                    ours = legal_by_key(here)
                    assert not missing and all(k.captures for k in ours) and not any(k.captures for k in extra), problem
                elif known == "king limit":
                    assert not missing and king_limit_extras(here, history, extra), problem
                else:
                    raise AssertionError(f"seed {seed} ply {ply}: {problem}")
            history.append(key_of(here, moves[ply]))
        if BOARDS[name].engines and name != "english":
            assert not any(drawn[:-1]), f"seed {seed}: py-draughts draws at ply {drawn.index(True)}, ours at {len(moves)}"
    assert plies > 1500
    if name in ("english", "frysk"):
        assert differing > 0          # shows within these games (Frisian's: the test below)


@pytest.mark.parametrize("name", ["frisian", "frysk"])
def test_pydraughts_frisian_boards_lack_the_three_king_moves_limit(pydraughts_worker, name):
    """W:WK46,45:B1,2 and three moves of the same king: our rules then allow only the man's move,
    py-draughts still lists the king's: why pydraughts-simple offers neither game."""
    game = get_game(name)
    start = game.parse_fen("W:WK46,45:B1,2")
    state, moves = start.copy(), []
    for text in ["46-41", "1-7", "41-37", "7-12", "37-32", "12-18"]:
        moves.append(state.parse_move(text))
        state.play(moves[-1])
    states, lists, _ = pydraughts_legal(pydraughts_worker, game, moves, start=start)
    squares = pydraughts_squares(game)
    assert all(compare_legal(s, squares, legal) is None for s, legal in zip(states[:-1], lists[:-1]))
    assert [state.move_str(m) for m in state.legal_moves()] == ["45-40"]
    extra, missing = difference(state, squares, lists[-1])
    assert not missing and {k.start for k in extra} == {"32"} and len(extra) == 15


def test_pydraughts_own_draw_is_said_and_the_fallback_played(pydraughts_python):
    """py-draughts' English board draws after 40 plies of king moves, ours after 80: there its
    engine would answer its first legal move unsearched; the worker says its rules ended the game,
    the adapter notes it (no error) and plays its fallback."""
    game = get_game("english")
    fen = "B:WK29,K30,K31:BK2,K3,K4"

    def quiet(state, move):       # no capture now, none for the opponent after it
        after = state.copy()
        after.play(move)
        return not state.is_capture(move) and not any(after.is_capture(r) for r in after.legal_moves())

    for seed in range(200):
        rng, state, texts = random.Random(seed), game.parse_fen(fen), []
        while len(texts) < 40 and state.outcome() is None:
            safe = [m for m in state.legal_moves() if quiet(state, m)]
            if not safe:
                break
            move = rng.choice(safe)
            texts.append(state.move_str(move))
            state.play(move)
        if len(texts) == 40 and state.outcome() is None:
            break
    else:
        raise AssertionError("no 40 quiet king plies found")
    s = Session(make_engine("pydraughts-simple", python=pydraughts_python))
    try:
        out = s.send("setoption name UCI_Variant value english", "setoption name Depth value 2",
                     f"position fen {fen} moves " + " ".join(texts[:39]), "go depth 2")
        assert not any("own rules" in line for line in out) and not errors(out), out
        out = s.send(f"position fen {fen} moves " + " ".join(texts), "go depth 2")
        assert any("draws the game here by its own rules" in line for line in out) and not errors(out), out
        assert any("fallback" in line for line in out)
        assert bestmoves(out)[0] in {state.move_str(m) for m in state.legal_moves()}
    finally:
        s.close()


@pytest.mark.parametrize("name", ["russian", "brazilian"])
def test_pydraughts_simple_plays_a_legal_game_against_random_moves(pydraughts_python, name):
    """SimpleEngine (depth 2) against seeded random moves of our rules, to the end of the game: not
    one error or fallback, so every move it chose was legal by our rules and its legal moves
    were ours at each of its turns; and from a FEN it takes the only (compulsory) capture."""
    game = get_game(name)
    s = Session(make_engine("pydraughts-simple", python=pydraughts_python))
    try:
        s.send(f"setoption name UCI_Variant value {name}", "setoption name Depth value 2", "setoption name Seed value 1")
        rng, state, texts, seen = random.Random(5), game.new_state(), [], []
        while state.outcome() is None:
            if len(texts) % 2 == 0:
                out = s.send("position startpos moves " + " ".join(texts), "go depth 2")
                seen += [line for line in out if line.startswith("info string")]
                text = bestmoves(out)[0]
            else:
                text = state.move_str(state.random_move(rng))
            state.play(state.parse_move(text))
            texts.append(text)
        assert not seen and len(texts) > 10, seen
        start = game.parse_fen("W:Wc3,a1:Bd4,f6,b8")
        only = [start.move_str(m) for m in start.legal_moves()]
        out = s.send("position fen W:Wc3,a1:Bd4,f6,b8", "go depth 2")
        assert len(only) == 1 and bestmoves(out) == only and not errors(out), out
    finally:
        s.close()


@pytest.mark.slow
def test_pydraughts_fen_bug_quiet_moves_beside_a_capture_is_caught(pydraughts_python):
    """py-draughts' american board makes captures optional (it lists quiet moves beside the
    compulsory capture, also loaded from a FEN), and SimpleEngine plays one: the adapter names
    both and plays our only legal move."""
    s = Session(make_engine("pydraughts-simple", python=pydraughts_python))
    try:
        out = s.send("setoption name UCI_Variant value english", "setoption name Depth value 4",
                     "position fen B:W5,6,21,22:BK32,1,4,12,23", "go movetime 5000")
        text = " ".join(errors(out))
        assert "lists moves our rules forbid" in text and "our rules do not allow" in text, out
        assert bestmoves(out) == ["1x10"]
    finally:
        s.close()


@pytest.mark.slow
@pytest.mark.parametrize("name, game, movetime", [("pydraughts-turbo", "international", "60"),
                                                   ("pydraughts-simple", "english", "40")])
def test_pydraughts_engines_play_whole_games_against_our_engine_through_the_tournament(
        tmp_path, pydraughts_python, name, game, movetime):
    journal = tmp_path / "j.jsonl"
    out = tournament("match", "--game", game, "--engine", f'name=ours cmd="{ENGINE}"',
                     "--engine", f'name=ref cmd="{ENGINE} reference-engine {name} --python {pydraughts_python}"',
                     "--games", "2", "--movetime", movetime, "--opening-plies", "2", "--seed", "3",
                     "--concurrency", "2", "--journal", str(journal), "--quiet")
    assert "2 game(s) played" in out
    check_journal(journal, 2, "ref")


@pytest.mark.slow
def test_check_pydraughts_names_the_version(pydraughts_python):
    ok = subprocess.run(f"{ENGINE} reference-engine check-pydraughts --python {pydraughts_python}".split(),
                        capture_output=True, text=True, env=engine_env(), timeout=120)
    assert ok.returncode == 0 and "py-draughts 1.10.1" in ok.stdout


def test_a_missing_pydraughts_environment_is_one_error_naming_the_set_up(tmp_path):
    missing = subprocess.run(f"{ENGINE} reference-engine pydraughts-turbo --python {tmp_path}/none".split(),
                             capture_output=True, text=True, env=engine_env(), timeout=60)
    assert missing.returncode == 2 and "setup-pydraughts" in missing.stderr
