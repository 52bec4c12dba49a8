"""The tournament manager end to end: real engine processes, broken fakes, kill and resume."""
import json
import os
import re
import signal
import subprocess
import time

import pytest
from click.testing import CliRunner

from tournaments.cli import main
from mcts_engine.records import parse_records, replay
from tournaments.results.journal import Journal
from tournaments.results.sprt import SPRT
from tournaments.play.conditions import Opening, PlayConditions, TimeControl
from tournaments.play.openings import read_openings
from tournaments.play.runner import TournamentSettings, schedule
from mcts_engine.client import EngineSpec
from support import FAKES
from support.drivers import engine_command, engine_env
from support.tournament import PY, expected_clocks, fake, games_of, go_fields, ours, run, tournament_command

def test_a_match_journals_every_game_in_colour_swapped_pairs(tmp_path):
    journal, pdn = tmp_path / "j.jsonl", tmp_path / "g.pdn"
    out = run("match", "--game", "english", "--engine", ours("A", "Agent=random", "Seed=1"),
              "--engine", ours("B", "Agent=random", "Seed=2"), "--games", "10", "--concurrency", "2",
              "--movetime", "20", "--opening-plies", "4", "--journal", str(journal), "--pdn", str(pdn),
              "--quiet").stdout
    line = out.strip().splitlines()[-1]
    match = re.fullmatch(r'Final results: Player 1 "A", wins = (\d+)\. Player 2 "B", wins = (\d+)\. '
                         r'Draws = (\d+)\. 10 game\(s\) played', line)
    assert match, line
    games = sorted(games_of(journal), key=lambda g: g["id"])
    assert [g["id"] for g in games] == list(range(10))
    assert sum(map(int, match.groups())) == 10
    for first, second in zip(games[::2], games[1::2]):
        assert first["players"] == second["players"][::-1]            # colours swapped
        assert first["opening"] == second["opening"] and first["pair"] == second["pair"]
        assert len(first["opening"]["moves"]) == 4
    assert len({tuple(g["opening"]["moves"]) for g in games}) == 5   # five distinct openings
    for g in games:
        assert g["reason"] and len(g["times_ms"]) == len(g["moves"]) == g["plies"]
    parsed = parse_records(pdn.read_text())
    assert len(parsed) == 10
    for p, g in zip(parsed, games):
        state = replay(p)
        assert state.outcome() == g["score_first"] or g["reason"].startswith("adjudicated")


def test_report_recomputes_from_the_journal(tmp_path):
    journal = tmp_path / "j.jsonl"
    live = run("match", "--game", "russian", "--engine", ours("A", "Agent=random"), "--engine",
               ours("B", "Agent=greedy"), "--games", "6", "--movetime", "20", "--journal", str(journal),
               "--json").stdout
    again = run("report", str(journal), "--json").stdout
    assert json.loads(live) == json.loads(again)
    report = json.loads(again)
    assert report["games"] == 6 and report["pairs"][0]["wins"] + report["pairs"][0]["draws"] \
        + report["pairs"][0]["losses"] == 6
    assert sum(report["pairs"][0]["pentanomial"]) == 3


def test_with_recover_broken_engines_lose_with_the_right_reason_and_the_tournament_completes(tmp_path):
    journal = tmp_path / "j.jsonl"
    proc = run("gauntlet", "--game", "english", "--engine", ours("good", "Agent=random"),
               "--engine", fake("crasher", "crash.py", "CrashAfter=2"),
               "--engine", fake("hanger", "hang.py", "HangAfter=1"),
               "--engine", fake("cheater", "illegal.py", "LegalMoves=1"),
               "--games", "2", "--concurrency", "2", "--movetime", "50", "--margin", "500", "--recover",
               "--journal", str(journal), "--quiet", timeout=180)
    games = games_of(journal)
    assert len(games) == 6
    expected = {"crasher": "crash", "hanger": "timeout", "cheater": "illegal move"}
    for g in games:
        bad = next(n for n in g["players"] if n != "good")
        assert expected[bad] in g["reason"], g["reason"]
        good_first = g["players"][0] == "good"
        assert g["score_first"] == (1.0 if good_first else 0.0), g
        assert g.get("fault", {}).get("engine") == (None if bad == "cheater" else bad)
    table = proc.stdout[proc.stdout.index("Rank"):].splitlines()
    assert table[1].split()[:4] == ["1", "good", "6", "6"]   # first, 6 points from 6 games


def test_without_recover_a_crash_stops_the_tournament_after_journaling_it(tmp_path):
    """As cutechess without -recover: the crash is a journaled forfeit, then no new game starts;
    exit status 1 names the engine, the game and --recover; a rerun with --recover goes on."""
    journal = tmp_path / "j.jsonl"
    args = ["match", "--game", "english", "--engine", ours("good", "Agent=random"), "--engine",
            fake("crasher", "crash.py", "CrashAfter=1"), "--games", "8", "--concurrency", "1", "--movetime", "20",
            "--journal", str(journal), "--quiet"]
    proc = run(*args, check=False)
    games = games_of(journal)
    assert proc.returncode == 1 and "engine 'crasher' lost game" in proc.stderr and "--recover" in proc.stderr
    assert 1 <= len(games) <= 2 and any(g.get("fault", {}).get("kind") == "crash" for g in games)
    assert "Final results" in proc.stdout                       # the report of what was played
    run(*args, "--recover", timeout=180)
    assert len(games_of(journal)) == 8


def write_script(path, text: str) -> str:
    path.write_text(text)
    return f'cmd="{PY} {path}"'


@pytest.mark.parametrize("case", ["no handshake", "wrong cwd", "bad option", "dies with a message", "no such program",
                                  "hub wrong cwd"])
def test_an_engine_that_cannot_start_is_an_error_before_any_game(tmp_path, case):
    """cutechess's "Could not initialize player": exit status 2 naming the engine, its command
    and what it wrote to stderr; no journal at all, so fixing the engine and rerunning starts
    clean (no forfeits left behind).  The engine is tried once (the --log shows one handshake
    begun, none where it cannot even be spawned), not once per game."""
    script = tmp_path / "engine.py"
    spec = {"no handshake": fake("broken", "no_handshake.py"),
            "wrong cwd": "name=broken cmd=mcts-engine cwd=/wrong/path",
            "bad option": ours("broken", "UCT_C=abc"),
            "dies with a message": "name=broken " + write_script(
                script, "import sys\nsys.stderr.write('cannot read scan.ini in this directory\\n')\nsys.exit(1)\n"),
            "no such program": "name=broken cmd=/no/such/engine",
            "hub wrong cwd": 'name=broken protocol=hub cmd="mcts-engine hub" cwd=/wrong/path'}[case]
    journal, log = tmp_path / "j.jsonl", tmp_path / "io.log"
    proc = run("match", "--game", "english", "--engine", ours("good", "Agent=random"), "--engine", spec,
               "--games", "2", "--movetime", "20", "--journal", str(journal), "--log", str(log),
               check=False)             # a manager that hung on the engine would meet run's timeout
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "engine 'broken' could not be initialized" in proc.stderr and "command:" in proc.stderr
    assert "good" not in proc.stderr and "Traceback" not in proc.stderr and not journal.exists()
    why = {"no handshake": "no uciok", "wrong cwd": "/wrong/path", "bad option": "UCT_C=abc rejected",
           "dies with a message": "stderr: cannot read scan.ini", "no such program": "/no/such/engine",
           "hub wrong cwd": "/wrong/path"}[case]
    assert why in proc.stderr, proc.stderr
    sent = [line.split(" ", 3)[3] for line in log.read_text().splitlines() if line.split(" ", 3)[1:3] == ["broken", ">"]]
    spawned = case not in ("wrong cwd", "no such program", "hub wrong cwd")
    assert sum(text in ("uci", "hub") for text in sent) == (1 if spawned else 0), sent


def test_killing_the_manager_and_resuming_loses_and_repeats_no_game(tmp_path):
    journal = tmp_path / "j.jsonl"
    args = ["match", "--game", "english", "--engine", ours("A", "Seed=1"), "--engine", ours("B", "Seed=2"),
            "--games", "10", "--concurrency", "1", "--nodes", "40", "--journal", str(journal), "--quiet"]
    manager = subprocess.Popen(tournament_command() + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline and len(games_of(journal)) < 3:
        time.sleep(0.05)
    os.kill(manager.pid, signal.SIGKILL)
    manager.wait()
    before = games_of(journal)
    assert 3 <= len(before) < 10
    run(*args, timeout=180)
    after = games_of(journal)
    ids = [g["id"] for g in after]
    assert sorted(ids) == list(range(10))            # the full schedule, each game once
    assert [g for g in after if g["id"] in {b["id"] for b in before}] == before   # kept as they were


def test_sprt_stops_early_when_decided(tmp_path):
    journal = tmp_path / "j.jsonl"
    out = run("match", "--game", "english", "--engine", ours("UCT", "Seed=3"), "--engine",
              ours("Random", "Agent=random"), "--games", "200", "--nodes", "60", "--concurrency", "2",
              "--sprt", "0", "50", "0.05", "0.05", "--journal", str(journal), "--quiet", timeout=300).stdout
    assert "H1 accepted" in out
    assert len(games_of(journal)) < 60


@pytest.mark.parametrize("bounds,words", [
    (("0", "0", "0.05", "0.05"), "elo0 must be less than elo1"),      # equal: would never decide
    (("10", "0", "0.05", "0.05"), "elo0 must be less than elo1"),     # swapped: would swap H0 and H1
    (("0", "20000", "0.05", "0.05"), "too extreme"),                 # s1 = 1.0: a division by zero later
    (("0", "nan", "0.05", "0.05"), "elo0 must be less than elo1"),
    (("0", "10", "0.6", "0.5"), "alpha + beta < 1"),
    (("0", "10", "0", "0.05"), "alpha and beta must lie in (0, 1)"),
])
def test_bad_sprt_bounds_are_a_usage_error_before_any_game(tmp_path, bounds, words):
    journal = tmp_path / "j.jsonl"
    result = CliRunner().invoke(main, ["match", "--game", "english", "--engine", ours("A", "Agent=random"),
                                       "--engine", ours("B", "Agent=random"), "--sprt", *bounds,
                                       "--journal", str(journal), "--quiet"])
    assert result.exit_code == 2 and words in result.output and "--sprt" in result.output, result.output
    assert not journal.exists()                       # not even the tournament header was written
    write_journal(journal, [("A", "B", 1.0, 0)])
    result = CliRunner().invoke(main, ["report", str(journal), "--sprt", *bounds])
    assert result.exit_code == 2 and words in result.output, result.output


def write_journal(path, games: list[tuple[str, str, float, int]]) -> None:
    """A match journal of A against B: its header, then ``(first, second, score_first, pair)`` games."""
    journal = Journal(str(path))
    journal.append({"type": "tournament", "settings": {"game": "english", "rules": {}, "kind": "match",
                                                       "engines": [{"name": "A"}, {"name": "B"}]}})
    for i, (first, second, score, pair) in enumerate(games):
        journal.append({"type": "game", "id": i, "pair": pair, "game": "english", "rules": {}, "players": [first, second],
                        "score_first": score, "reason": "first player wins by the rules"})


def report_sprt(path) -> tuple[dict, str]:
    """``report --sprt 0 10 0.05 0.05`` of a journal: its JSON SPRT part and its text SPRT line."""
    args = ["report", str(path), "--sprt", "0", "10", "0.05", "0.05"]
    as_json = CliRunner().invoke(main, args + ["--json"])
    text = CliRunner().invoke(main, args)
    assert as_json.exit_code == 0 and text.exit_code == 0, as_json.output + text.output
    return json.loads(as_json.output)["sprt"], next(s for s in text.output.splitlines() if s.startswith("SPRT"))


def test_report_sprt_tests_games_until_a_pair_is_complete_then_pairs(tmp_path):
    sprt, journal = SPRT(0, 10), tmp_path / "j.jsonl"
    # one game, A won: no complete pair yet, so the game itself is the unit (trinomial)
    write_journal(journal, [("A", "B", 1.0, 0)])
    part, line = report_sprt(journal)
    assert part["llr"] == pytest.approx(sprt.llr(1, 0, 0), abs=1e-12) and part["status"] is None
    assert line == f"SPRT elo0=0.0 elo1=10.0 alpha=0.05 beta=0.05: LLR {sprt.llr(1, 0, 0):.3f} " \
                   "[-2.944, 2.944] continue"
    # its colour-swapped partner drawn: one pair scoring 1.5 for A; then a third game (A lost,
    # its pair incomplete) does not count: the pair is the unit (pentanomial [0, 0, 0, 1, 0])
    for games in ([("A", "B", 1.0, 0), ("B", "A", 0.5, 0)],
                  [("A", "B", 1.0, 0), ("B", "A", 0.5, 0), ("A", "B", 0.0, 1)]):
        journal.unlink()
        write_journal(journal, games)
        part, line = report_sprt(journal)
        assert part["llr"] == pytest.approx(sprt.llr_pentanomial([0, 0, 0, 1, 0]), abs=1e-12)
        assert part["llr"] != pytest.approx(sprt.llr(1, 1, 0)) and f"LLR {part['llr']:.3f} " in line
    # a decided test says so: 120 pairs won 2-0 (about 0.028 of evidence a pair for 0 against 10 Elo)
    journal.unlink()
    write_journal(journal, [g for k in range(120) for g in (("A", "B", 1.0, k), ("B", "A", 0.0, k))])
    part, line = report_sprt(journal)
    assert part["status"] == "H1" and line.endswith("H1 accepted") and part["llr"] >= sprt.upper


def test_a_journal_of_another_tournament_is_refused(tmp_path):
    journal = tmp_path / "j.jsonl"
    run("match", "--game", "english", "--engine", ours("A", "Agent=random"), "--engine",
        ours("B", "Agent=random"), "--games", "2", "--movetime", "10", "--journal", str(journal), "--quiet")
    proc = run("match", "--game", "russian", "--engine", ours("A", "Agent=random"), "--engine",
               ours("B", "Agent=random"), "--games", "2", "--movetime", "10", "--journal", str(journal),
               "--quiet", check=False)
    assert proc.returncode == 2 and "different tournament" in proc.stderr


@pytest.mark.parametrize("args,words", [
    (["--game", "nosuch"], "nosuch"),
    (["--engine", "cmd=mcts-engine"], "name"),
    (["--tc", "fast"], "fast"),
    (["--tc", "0/60"], "moves per period"),
    (["--tc", "inf"], "positive (and finite)"),
    (["--resume"], "does not exist"),
])
def test_bad_input_is_one_clear_error(tmp_path, args, words):
    argv = ["match"]
    if "--game" not in args:
        argv += ["--game", "english"]
    if "--engine" not in args:
        argv += ["--engine", ours("A", "Agent=random"), "--engine", ours("B", "Agent=random")]
    argv += args + ["--journal", str(tmp_path / "j.jsonl")]
    proc = run(*argv, check=False)
    assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr


def test_replay_flags_an_invalid_record(tmp_path):
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Game "english"]\n[FEN "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"]\n\n'
                   '1. 11-15 24-20 2. 15-16 *\n')
    proc = run("replay", str(bad), check=False)
    assert proc.returncode == 1 and "INVALID" in proc.stdout and "15-16" in proc.stdout


def test_schedule_swaps_colours_in_pairs_over_one_opening():
    engines = [EngineSpec(n, ["x"], {}) for n in "abc"]
    conditions = PlayConditions("english", openings=(Opening(None, ("9-13",)), Opening(None, ("10-14",))))
    settings = TournamentSettings(conditions, tuple(engines), kind="round-robin", games=4)
    games = schedule(settings)
    assert len(games) == 3 * 4
    for g1, g2 in zip(games[::2], games[1::2]):
        assert (g1.first, g1.second) == (g2.second, g2.first)
        assert g1.opening == g2.opening and g1.pair == g2.pair
    assert len({g.pair for g in games}) == 6
    gauntlet = schedule(TournamentSettings(PlayConditions("english"), tuple(engines), kind="gauntlet", games=2))
    assert {(g.first, g.second) for g in gauntlet} == {("a", "b"), ("b", "a"), ("a", "c"), ("c", "a")}


def test_time_controls_and_openings_files(tmp_path):
    assert TimeControl.parse(None, None, "40/60+0.5").moves == 40
    tc = TimeControl.parse(None, None, "60+0.6")
    assert (tc.base, tc.increment) == (60.0, 0.6)
    assert TimeControl.parse(250, None, None).movetime == 250
    assert TimeControl.parse(None, 100, None).nodes == 100
    with pytest.raises(ValueError):
        TimeControl.parse(100, 100, None)
    good = tmp_path / "openings.txt"
    good.write_text("# comment\n11-15 23-19\nB:W21,22,23:B1,2,3\nB:W21,22,23:B1,2,3 | 1-5\n")
    openings = read_openings(str(good), "english", {})
    assert openings == (Opening(None, ("11-15", "23-19")), Opening("B:W21,22,23:B1,2,3"),
                        Opening("B:W21,22,23:B1,2,3", ("1-5",)))
    bad = tmp_path / "bad.txt"
    bad.write_text("11-15 11-15\n")
    with pytest.raises(ValueError, match="bad.txt:1"):
        read_openings(str(bad), "english", {})


def test_engines_file_names(tmp_path):
    spec = tmp_path / "engines.toml"
    spec.write_text('[[engines]]\nname = "rand"\ncmd = "mcts-engine"\noptions = { Agent = "random" }\n\n'
                    '[[engines]]\nname = "eval"\ncmd = "mcts-engine"\noptions = { Agent = "greedy" }\n')
    out = run("match", "--game", "english", "--engines-file", str(spec), "--engine", "rand", "--engine", "eval",
              "--games", "2", "--movetime", "10", "--journal", str(tmp_path / "j.jsonl"), "--quiet").stdout
    assert 'Player 1 "rand"' in out and 'Player 2 "eval"' in out
    proc = run("match", "--game", "english", "--engines-file", str(spec), "--engine", "rand", "--engine", "nosuch",
               "--journal", str(tmp_path / "k.jsonl"), check=False)
    assert proc.returncode == 2 and "nosuch" in proc.stderr and "rand, eval" in proc.stderr


@pytest.mark.parametrize("game", sorted(__import__("mcts_engine.rules", fromlist=["list_games"]).list_games()))
def test_every_game_is_played_by_its_own_rules(tmp_path, game):
    """The manager tells each engine the game (UCI_Variant): random players finish every
    game by the game's rules, never with an engine's move refused as illegal."""
    journal = tmp_path / "j.jsonl"
    run("match", "--game", game, "--engine", ours("A", "Agent=random", "Seed=1"),
        "--engine", ours("B", "Agent=random", "Seed=2"), "--games", "2", "--concurrency", "2",
        "--nodes", "1", "--opening-plies", "2", "--journal", str(journal), "--quiet")
    games = games_of(journal)
    assert len(games) == 2
    for g in games:
        assert g["game"] == game and "illegal" not in g["reason"], g["reason"]


def test_rule_options_reach_the_engines(tmp_path):
    """With --rules the engines get the Rules option: Russian men that may only capture
    forwards (man_jumps=fwd) never play a backward capture the manager would refuse."""
    journal = tmp_path / "j.jsonl"
    run("match", "--game", "russian", "--rules", "man_jumps=fwd,no_progress=10",
        "--engine", ours("A", "Agent=random", "Seed=3"), "--engine", ours("B", "Agent=random", "Seed=4"),
        "--games", "6", "--concurrency", "2", "--nodes", "1", "--journal", str(journal), "--quiet")
    games = games_of(journal)
    assert len(games) == 6 and all("illegal" not in g["reason"] for g in games)
    assert all(g["rules"] == {"man_jumps": "fwd", "no_progress": "10"} for g in games)


# --- clocks, adjudication, a round robin --------------------------------------------------------

def clock_fake(name, log, *options):
    """The clock fake (tests/fake_engines/clock.py) logging its go lines to ``log``."""
    return " ".join([f"name={name}", f'cmd="{PY} {FAKES / "clock.py"} {log}"'] + [f"option.{o}" for o in options])


def test_a_clock_game_sends_each_side_its_own_clock_with_increments_and_periods(tmp_path):
    """--tc 3/1+0.25 in English (the first player is Black): every go carries both clocks
    under both names (p1/p2 and Black's btime = p1time), the increments, and the moves left
    in the period; the clocks follow the moves' times.  B thinks 40 ms a move, A at once, so
    the two clocks differ and a swap would show."""
    journal, logs = tmp_path / "j.jsonl", {n: tmp_path / f"{n}.log" for n in "AB"}
    run("match", "--game", "english", "--engine", clock_fake("A", logs["A"], "Seed=1"),
        "--engine", clock_fake("B", logs["B"], "Seed=2", "ThinkMs=40"), "--games", "2", "--concurrency", "1",
        "--tc", "3/1+0.25", "--max-plies", "14", "--journal", str(journal), "--quiet")
    sent = {n: [go_fields(s) for s in logs[n].read_text().splitlines()] for n in "AB"}
    for game in sorted(games_of(journal), key=lambda g: g["id"]):
        assert game["reason"] == "adjudicated: 14 plies" and game["score_first"] == 0.5 and game["plies"] == 14
        for (p, p1, p2, togo), in_time in zip(expected_clocks(game["times_ms"], 1000, 250, 3), game["times_ms"]):
            go = sent[game["players"][p]].pop(0)
            assert (go["btime"], go["wtime"]) == (go["p1time"], go["p2time"])
            assert go["p1inc"] == go["p2inc"] == go["winc"] == go["binc"] == 250
            assert go["movestogo"] == togo
            assert abs(go["p1time"] - p1) <= 10 and abs(go["p2time"] - p2) <= 10, (go, p1, p2)
            assert in_time < 1000
        b_moves = game["times_ms"][game["players"].index("B")::2]
        assert min(b_moves) >= 40
    assert sent == {"A": [], "B": []}


def test_an_engine_that_overruns_its_clock_loses_on_time(tmp_path):
    """--tc 0.3: B never answers until stopped; the manager stops it at its clock plus the
    margin, and the late answer loses on time (A, answering at once, never does).  The game's
    time limit, the other way B's go could end, is two minutes here: a stop sent by it rather
    than by B's clock would come that late, far past any delay of a loaded machine."""
    journal, log = tmp_path / "j.jsonl", tmp_path / "io.log"
    game_timeout = 120.0
    run("match", "--game", "international", "--engine", clock_fake("A", tmp_path / "A.log"),
        "--engine", clock_fake("B", tmp_path / "B.log", "ThinkMs=1000000"), "--games", "2",
        "--concurrency", "1", "--tc", "0.3", "--margin", "100", "--game-timeout", f"{game_timeout:g}",
        "--journal", str(journal), "--log", str(log), "--quiet", timeout=300)
    games = sorted(games_of(journal), key=lambda g: g["id"])
    assert [(g["players"], g["reason"], g["score_first"], g["plies"]) for g in games] == [
        (["A", "B"], "B lost on time", 1.0, 1), (["B", "A"], "B lost on time", 0.0, 0)]
    sent_to_b = [(float(t), text) for t, name, direction, text in
                 (line.split(" ", 3) for line in log.read_text().splitlines()) if (name, direction) == ("B", ">")]
    gos = [t for t, text in sent_to_b if text.startswith("go ")]
    stops = [t for t, text in sent_to_b if text == "stop"]
    assert len(gos) == len(stops) == 2                       # each game B's one go, stopped
    for go, stop in zip(gos, stops):                         # after its clock, long before the game's limit
        assert 0.3 <= stop - go < game_timeout / 2, (go, stop)
    # International: White moves first, so White's clock is the first player's
    first = go_fields((tmp_path / "B.log").read_text().splitlines()[0])
    assert (first["wtime"], first["btime"]) == (first["p1time"], first["p2time"])


@pytest.mark.parametrize("scores,flag,reasons", [
    # A says it is losing (-500 cp) on every move: it resigns on its third move
    (("-500", "0"), ["--resign", "300"], [("adjudicated: resign by score", 0.0, 5),
                                           ("adjudicated: resign by score", 1.0, 6)]),
    # cutechess's form: on its second move
    (("-500", "0"), ["--resign", "movecount=2 score=300"], [("adjudicated: resign by score", 0.0, 3),
                                                            ("adjudicated: resign by score", 1.0, 4)]),
    # two-sided: only once B agrees that A is lost (+400 >= 300) for three moves of its own
    (("-500", "400"), ["--resign", "movecount=3 score=300 twosided=true"],
     [("adjudicated: resign by score", 0.0, 6), ("adjudicated: resign by score", 1.0, 6)]),
    # both say 5 cp: once 20 full moves (40 plies) were played with 8 quiet moves each, a draw
    # (cutechess counts the quiet moves from the start); with these seeds both random games
    # would last longer (93 and 122 plies)
    (("5", "-5"), ["--draw", "10"], [("adjudicated: draw by score", 0.5, 40),
                                     ("adjudicated: draw by score", 0.5, 40)]),
    (("5", "-5"), ["--draw", "movenumber=30 movecount=4 score=10"], [("adjudicated: draw by score", 0.5, 60),
                                                                    ("adjudicated: draw by score", 0.5, 60)]),
])
def test_resign_and_draw_adjudication_by_engine_scores(tmp_path, scores, flag, reasons):
    journal = tmp_path / "j.jsonl"
    run("match", "--game", "english", "--engine", clock_fake("A", tmp_path / "A.log", "Seed=6", f"ScoreCp={scores[0]}"),
        "--engine", clock_fake("B", tmp_path / "B.log", "Seed=4", f"ScoreCp={scores[1]}"), "--games", "2",
        "--concurrency", "1", "--movetime", "20", *flag, "--journal", str(journal), "--quiet")
    games = sorted(games_of(journal), key=lambda g: g["id"])
    assert [(g["reason"], g["score_first"], g["plies"]) for g in games] == reasons
    assert [g["infos"][0]["cp"] for g in games] == [int(scores[0]), int(scores[1])]   # as the engines said


def test_a_one_sided_resignation_waits_for_the_winner_to_agree(tmp_path):
    """twosided=true: A says it is lost, B says the game is even: nobody resigns."""
    journal = tmp_path / "j.jsonl"
    run("match", "--game", "english", "--engine", clock_fake("A", tmp_path / "A.log", "Seed=6", "ScoreCp=-500"),
        "--engine", clock_fake("B", tmp_path / "B.log", "Seed=4", "ScoreCp=0"), "--games", "2", "--max-plies", "20",
        "--concurrency", "1", "--movetime", "20", "--resign", "movecount=2 score=300 twosided=true",
        "--journal", str(journal), "--quiet")
    assert all("resign" not in g["reason"] for g in games_of(journal))


@pytest.mark.parametrize("flag,words", [
    (["--resign", "movecount=0 score=300"], "movecount=0"), (["--resign", "count=3 score=300"], "'count=3'"),
    (["--draw", "movecount=8"], "score= is missing"), (["--resign", "movecount=2 score=300 twosided=maybe"],
                                                      "twosided=maybe"),
    (["--tb-adjudicate", "--game", "frisian"], "frisian has no endgame tables"),
    (["--tb-path", "/nowhere"], "--tb-path is for --tb-adjudicate"),
])
def test_bad_adjudication_is_one_clear_error(tmp_path, flag, words):
    game = [] if "--game" in flag else ["--game", "english"]
    proc = run("match", *game, "--engine", ours("A"), "--engine", ours("B"), *flag,
               "--journal", str(tmp_path / "j.jsonl"), check=False)
    assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_a_round_robin_plays_every_pair_and_reports_its_crosstable(tmp_path):
    """Three engines, two games a pair: the crosstable's cells and the rating table's points
    are those of the journaled games."""
    journal = tmp_path / "j.jsonl"
    names = ["A", "B", "C"]
    out = run("round-robin", "--game", "english",
              *[a for i, n in enumerate(names) for a in ("--engine", clock_fake(n, tmp_path / f"{n}.log", f"Seed={i + 1}"))],
              "--games", "2", "--concurrency", "2", "--movetime", "20", "--max-plies", "40",
              "--journal", str(journal), "--quiet").stdout
    games = games_of(journal)
    # with these seeds some games end by the rules and some are drawn at the ply cap
    assert {g["score_first"] for g in games} >= {0.5} and {g["score_first"] for g in games} - {0.5}
    assert sorted(tuple(sorted(g["players"])) for g in games) == [("A", "B")] * 2 + [("A", "C")] * 2 + [("B", "C")] * 2
    points = {(a, b): 0.0 for a in names for b in names if a != b}
    for g in games:
        first, second = g["players"]
        points[(first, second)] += g["score_first"]
        points[(second, first)] += 1.0 - g["score_first"]
    lines = out.splitlines()
    head = lines.index(next(s for s in lines if s.split() == names + ["Total"]))
    for row, a in zip(lines[head + 1:head + 4], names):
        cells = row.split()
        assert cells[0] == a and cells[1 + names.index(a)] == "-"
        for b in names:
            if b != a:
                assert cells[1 + names.index(b)] == f"{points[(a, b)]:g}/2", (row, a, b)
        assert cells[-1] == f"{sum(points[(a, b)] for b in names if b != a):g}/4"
    ranking = lines[lines.index(next(s for s in lines if s.startswith("Rank"))) + 1:][:3]
    total = {n: sum(points[(n, b)] for b in names if b != n) for n in names}
    assert [float(r.split()[3]) for r in ranking] == sorted(total.values(), reverse=True)


def test_endgame_tables_adjudicate_a_settled_ending(tmp_path):
    """--tb-adjudicate with 2K-1K built: two kings against one, Black to move, is a win the
    tables know; each game ends after its first move with the tables' verdict."""
    tables = tmp_path / "tables"
    subprocess.run([*engine_command(), "tables", "english", "--material", "2K-1K", "--path", str(tables)],
                   check=True, capture_output=True, env=engine_env(), timeout=120)
    openings, journal = tmp_path / "ending.txt", tmp_path / "j.jsonl"
    openings.write_text("B:WK32:BK1,K2\n")      # every Black move keeps a won 2K-1K
    run("match", "--game", "english", "--engine", ours("A", "Agent=random", "Seed=1"), "--engine",
        ours("B", "Agent=random", "Seed=2"), "--games", "2", "--nodes", "1", "--openings", str(openings),
        "--tb-adjudicate", "--tb-path", str(tables), "--journal", str(journal), "--quiet")
    games = sorted(games_of(journal), key=lambda g: g["id"])
    assert [g["plies"] for g in games] == [1, 1]
    assert all(g["reason"].startswith("adjudicated: endgame tables: the first player wins") for g in games), games
    assert [g["score_first"] for g in games] == [1.0, 1.0]
    proc = run("match", "--game", "english", "--engine", ours("A"), "--engine", ours("B"), "--tb-adjudicate",
               "--tb-path", str(tmp_path / "empty"), "--journal", str(tmp_path / "k.jsonl"), check=False)
    assert proc.returncode == 2 and "no endgame tables of english" in proc.stderr


def test_each_engine_its_own_time_control(tmp_path):
    """tc= in a spec: A on a 2 s + 0.1 s clock, B on 50 ms a move (st=0.05): A's go lines carry
    the clocks with A's increment on its own side, B's a move time; a bad tc= is a usage error."""
    journal, logs = tmp_path / "j.jsonl", {n: tmp_path / f"{n}.log" for n in "AB"}
    run("match", "--game", "english", "--engine", clock_fake("A", logs["A"]) + " tc=2+0.1",
        "--engine", clock_fake("B", logs["B"]) + " st=0.05", "--games", "2", "--max-plies", "6",
        "--concurrency", "1", "--journal", str(journal), "--quiet")
    a_lines, b_lines = logs["A"].read_text().splitlines(), logs["B"].read_text().splitlines()
    assert len(a_lines) == len(b_lines) == 6 and all(line == "go movetime 50" for line in b_lines)
    for line in a_lines:
        go = go_fields(line)
        a_is_first = go["p1inc"] == 100
        assert (go["p1inc"], go["p2inc"]) == ((100, 0) if a_is_first else (0, 100))
        assert 1000 < go["p1time"] <= 2400 and go["p1time"] == go["p2time"] == go["btime"]
    header = json.loads(journal.read_text().splitlines()[0])
    assert [e.get("tc") for e in header["settings"]["engines"]] == ["2+0.1", "st=0.05"]
    proc = run("match", "--game", "english", "--engine", ours("A") + " tc=fast", "--engine", ours("B"),
               "--journal", str(tmp_path / "k.jsonl"), check=False)
    assert proc.returncode == 2 and "engine 'A': tc=fast: expected" in proc.stderr
