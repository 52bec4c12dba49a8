"""Foreign engines in our tournaments: ``protocol=hub`` and ``protocol=dxp`` engine specs, the
``position startpos`` the manager sends, and the warning for games that repeat move for move.

The Hub and DXP engines here are ours (``mcts-engine`` in Hub mode, ``mcts-engine dxp``) and
a deliberately broken Hub engine (``fake_engines/hub_broken.py``); our rules validate
every move, so a broken engine loses as over our protocol.
"""
from __future__ import annotations

import json
import sys

import pytest

from support import FAKES
from support.tournament import games_of, ours, run

from mcts_engine.rules import get_game
from tournaments.play import referee as referee_module
from mcts_engine.client import Clock, EngineProtocolError, EngineSpecError, GoLimits, GoResult, Score, parse_engine_arg
from mcts_engine.client.dxp import DxpClock, dxp_clock
from mcts_engine.client.hub import hub_score, level_command, variant_names
from tournaments.play.conditions import Adjudication, Opening, PlayConditions, TimeControl
from tournaments.play.runner import Tournament, TournamentSettings
from tournaments.results.journal import Journal
from tournaments.results.report import build, repeated_games
from mcts_engine.client import EngineSpec, load_engines_file

PY = sys.executable


def hub_fake(name: str, mode: str, good: int = 1) -> str:
    return f'name={name} protocol=hub cmd="env FAKE_HUB_MODE={mode} FAKE_GOOD_MOVES={good} {PY} {FAKES / "hub_broken.py"}"'


# --- engine specs -----------------------------------------------------------------------------

def test_specs_name_their_protocol_host_and_port(tmp_path):
    spec = parse_engine_arg("name=scan cmd='scan hub' protocol=hub")
    assert spec.protocol == "hub" and spec.cmd == ["scan", "hub"]
    spec = parse_engine_arg("name=far protocol=dxp host=192.0.2.7 port=27600")
    assert (spec.cmd, spec.host, spec.port) == ([], "192.0.2.7", 27600)
    assert parse_engine_arg("name=d protocol=dxp cmd='mcts-engine dxp'").port == 27531     # DXP's port
    assert parse_engine_arg("name=d protocol=dxp cmd='x --port {port}'").port is None      # chosen at start
    for text, words in (("name=x cmd=y protocol=xboard", "not one of uci, hub, dxp"),
                        ("name=x cmd=y port=1", "are for protocol=dxp"), ("name=x protocol=hub", "missing cmd"),
                        ("name=x protocol=dxp port=http", "not a number")):
        with pytest.raises(EngineSpecError, match=words):
            parse_engine_arg(text)
    path = tmp_path / "engines.json"
    path.write_text(json.dumps({"engines": [{"name": "s", "cmd": "scan hub", "protocol": "hub"},
                                            {"name": "k", "protocol": "dxp", "port": 27000}]}))
    specs = load_engines_file(path)
    assert specs["s"].protocol == "hub" and (specs["k"].cmd, specs["k"].port) == ([], 27000)


def test_journal_identity_keeps_old_specs_unchanged():
    """A spec of our protocol records what it recorded before protocols existed (journals resume)."""
    assert EngineSpec("a", ["x"]).identity() == {"name": "a", "cmd": ["x"], "options": {}, "cwd": None}
    assert EngineSpec("a", ["x"], protocol="hub").identity()["protocol"] == "hub"


def test_hub_scores_and_variant_names():
    assert hub_score("0.37") == Score(cp=37) and hub_score("99.97") == Score(mate=2)
    assert hub_score("-99.98") == Score(mate=-1) and hub_score("x") is None
    assert variant_names("international")[:3] == ["international", "normal", "standard"]
    assert "bt" in variant_names("breakthrough") and "losing" in variant_names("antidraughts")
    assert level_command(GoLimits(movetime=250), 0) == "level move-time=0.25"
    assert level_command(GoLimits(clock=Clock((60000, 50000), 500, 20)), 1) == "level moves=20 time=49.500 inc=0.5"


# --- matches over Hub and DXP -------------------------------------------------------------------

@pytest.mark.parametrize("game", ["russian", "international"])
def test_our_engine_over_hub_plays_a_match_against_our_protocol(tmp_path, game):
    """Russian needs the clients' square numbers (conventions.py) in both directions."""
    journal = tmp_path / "j.jsonl"
    hub = "name=H cmd=mcts-engine protocol=hub option.Seed=2"
    run("match", "--game", game, "--engine", ours("U", "Seed=1"), "--engine", hub, "--games", "2",
        "--nodes", "30", "--max-plies", "120", "--journal", str(journal), "--quiet", timeout=300)
    games = games_of(journal)
    assert len(games) == 2
    for g in games:
        assert "by the rules" in g["reason"] or g["reason"].startswith("adjudicated"), g["reason"]
        state = get_game(game).new_state()
        for text in g["moves"]:
            state.play(state.parse_move(text))
        assert any(info.get("nodes") == 30 for info in g["infos"][1::2] + g["infos"][::2])


def test_broken_hub_engines_lose_as_over_our_protocol(tmp_path):
    journal = tmp_path / "j.jsonl"
    run("gauntlet", "--game", "english", "--engine", ours("good", "Agent=random"),
        "--engine", hub_fake("crasher", "crash"), "--engine", hub_fake("cheater", "illegal"),
        "--engine", hub_fake("mute", "silent"), "--games", "2", "--concurrency", "2", "--movetime", "50",
        "--margin", "300", "--recover", "--journal", str(journal), "--quiet", timeout=300)
    games = games_of(journal)
    assert len(games) == 6
    expected = {"crasher": "crash", "cheater": "illegal move", "mute": "timeout"}
    for g in games:
        bad = next(n for n in g["players"] if n != "good")
        assert expected[bad] in g["reason"], g["reason"]
        assert g["score_first"] == (1.0 if g["players"][0] == "good" else 0.0), g


def test_a_hub_engine_that_lacks_the_game_cannot_start(tmp_path):
    """An error before any game (exit 2, nothing journaled), naming the variants it plays."""
    journal = tmp_path / "j.jsonl"
    proc = run("match", "--game", "pool", "--engine", ours("good", "Agent=random"), "--engine",
               hub_fake("narrow", "illegal", 9), "--games", "2", "--movetime", "20", "--journal", str(journal),
               "--quiet", check=False)
    assert proc.returncode == 2 and "engine 'narrow' could not be initialized" in proc.stderr
    assert "does not play pool" in proc.stderr and not journal.exists()


def test_our_dxp_follower_plays_a_match(tmp_path):
    """The manager is the initiator; the follower is started on a free port ({port}).  DXP's time
    control is a clock (whole minutes); the follower here thinks 30 iterations a move."""
    journal = tmp_path / "j.jsonl"
    dxp = "name=D protocol=dxp cmd='mcts-engine dxp --port {port} --nodes 30 --option Seed=2'"
    run("match", "--game", "international", "--engine", ours("U", "Agent=greedy", "Seed=1"), "--engine", dxp,
        "--games", "2", "--tc", "60", "--concurrency", "2", "--opening-plies", "2", "--max-plies", "150",
        "--journal", str(journal), "--quiet", timeout=300)
    games = games_of(journal)
    assert len(games) == 2
    for g in games:
        assert "by the rules" in g["reason"] or g["reason"].startswith("adjudicated"), g["reason"]


@pytest.mark.parametrize("limits, words", [
    (["--movetime", "100"], "use --tc with at least 60 s"), (["--nodes", "100"], "use --tc with at least 60 s"),
    (["--tc", "59+1"], "use --tc with at least 60 s"), (["--tc", "60", "--concurrency", "2"], "--concurrency 1"),
])
def test_a_tournament_a_dxp_engine_cannot_play_is_refused_before_any_game(tmp_path, limits, words):
    """DXP's only time control is a game clock in whole minutes (a follower spends it as it likes:
    Scan plans on about 30 moves to go), and a fixed port holds one game at a time."""
    journal = tmp_path / "j.jsonl"
    proc = run("match", "--game", "international", "--engine", ours("U"), "--engine",
               "name=far protocol=dxp port=27999", *limits, "--journal", str(journal), check=False)
    assert proc.returncode == 2 and words in proc.stderr and "engine 'far'" in proc.stderr, proc.stderr
    assert not journal.exists()


def test_the_dxp_clock_is_the_followers_time_in_whole_minutes():
    assert dxp_clock(GoLimits(clock=Clock((150000, 59000))), 0) == DxpClock(2, 0)     # rounded down, no move count
    with pytest.raises(EngineProtocolError, match="less than one"):
        dxp_clock(GoLimits(clock=Clock((150000, 59000))), 1)


# --- what the manager sends, and the repeated-games warning ---------------------------------------

class Recorder:
    """A stand-in engine: records each go and plays the first legal move (never pondering)."""

    calls: list = []
    pondering = False

    def __init__(self, spec, *args, game=None, rules=None, io_log=None):
        self.name, self.game, self.alive = spec.name, get_game(game), True

    def start(self):
        return self

    def new_game(self):
        pass

    def go(self, start_fen, moves, limits, timeout):
        Recorder.calls.append((start_fen, list(moves)))
        state = self.game.parse_fen(start_fen) if start_fen else self.game.new_state()
        for text in moves:
            state.play(state.parse_move(text))
        return GoResult(move=state.move_str(state.legal_moves()[0]), ponder=None, elapsed=0.0)

    def check_pondering(self):
        pass

    def quit(self):
        pass

    def kill(self):
        pass


@pytest.mark.parametrize("openings, first_call", [
    ([(None, [])], (None, [])),                                   # position startpos
    ([(None, ["11-15", "23-19"])], (None, ["11-15", "23-19"])),   # startpos moves <the opening>
    ([("B:W21,22:B1,2", [])], ("B:W21,22:B1,2", [])),             # a FEN opening: position fen
])
def test_games_from_the_start_position_are_sent_as_startpos(tmp_path, monkeypatch, openings, first_call):
    monkeypatch.setattr(referee_module, "make_engine", Recorder)
    Recorder.calls = []
    conditions = PlayConditions("english", tc=TimeControl(nodes=1), adjudication=Adjudication(4),
                                openings=tuple(Opening(fen, tuple(moves)) for fen, moves in openings))
    settings = TournamentSettings(conditions, (EngineSpec("a", ["x"]), EngineSpec("b", ["y"])), games=1)
    tournament = Tournament(settings, Journal(str(tmp_path / "j.jsonl")))
    tournament.run(*tournament.prepare())
    assert Recorder.calls[0] == first_call
    fen, moves = Recorder.calls[1]
    assert fen == first_call[0] and moves[:-1] == first_call[1]       # the game goes on from there


def test_repeated_games_are_warned_about():
    game = {"players": ["A", "B"], "start_fen": "W:W1:B2", "moves": ["1-5"]}
    records = [{**game, "id": 0, "pair": 0, "score_first": 1.0}, {**game, "id": 1, "pair": 0, "score_first": 1.0,
                                                                  "players": ["B", "A"]},
               {**game, "id": 2, "pair": 1, "score_first": 1.0}]
    report = build(records)
    (warning,) = report["warnings"]
    assert warning.startswith("A vs B: 1 of 3 games repeat an earlier one move for move (game 3 = 1)")
    assert "--opening-plies" in warning and "Seed 0" in warning
    assert repeated_games({("A", "B"): records[:2]}) == []            # colours swapped: a different game


def test_a_match_of_seeded_engines_warns_and_openings_cure_it(tmp_path):
    """Seeded random movers replay the same game from the start position (the warning, with its
    advice, in the report); random openings give each pair its own game (no warning)."""
    engines = ["--engine", ours("A", "Agent=random", "Seed=1"), "--engine", ours("B", "Agent=random", "Seed=2")]
    common = ["match", "--game", "english", *engines, "--games", "4", "--nodes", "1", "--quiet"]
    out = run(*common, "--journal", str(tmp_path / "same.jsonl")).stdout
    (warning,) = [line for line in out.splitlines() if line.startswith("warning:")]
    assert "A vs B: 2 of 4 games repeat an earlier one move for move (game 3 = 1, 4 = 2)" in warning
    assert "--opening-plies" in warning and "Seed 0" in warning
    out = run(*common, "--opening-plies", "4", "--journal", str(tmp_path / "varied.jsonl")).stdout
    assert "warning" not in out and "4 game(s) played" in out
