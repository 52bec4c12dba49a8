"""Pondering in matches (``--pondering``, ``ponder`` in a SPEC), as cutechess-cli's
``-pondering``: the exchange each engine sees, the clocks, whole games journaled, and an engine
that dies while pondering."""
from __future__ import annotations

import re

from support import FAKES
from support.tournament import PY, expected_clocks, games_of, go_fields, ours, run


def ponder_fake(name: str, log, *options: str) -> str:
    """The pondering fake (tests/fake_engines/ponder.py) logging every line it reads to ``log``."""
    return " ".join([f"name={name}", f'cmd="{PY} {FAKES / "ponder.py"} {log}"', "ponder"]
                    + [f"option.{o}" for o in options])


def first_mover(name: str) -> str:
    """An engine that always plays the first legal move (crash.py that never crashes): the
    pondering fake's guess, the first legal reply, always comes true against it."""
    return f'name={name} cmd="{PY} {FAKES / "crash.py"}" option.CrashAfter=100000'


def test_a_ponderer_hears_go_ponder_on_its_guess_then_ponderhit_and_at_the_end_stop(tmp_path):
    """Against an opponent that plays the guessed reply, every turn of the ponderer after its
    first is a ponderhit: the lines it reads are exactly those of cutechess's pondering."""
    journal, log = tmp_path / "j.jsonl", tmp_path / "P.log"
    run("match", "--game", "english", "--engine", ponder_fake("P", log, "Seed=3"), "--engine", first_mover("F"),
        "--games", "1", "--movetime", "20", "--max-plies", "12", "--journal", str(journal), "--quiet")
    [game] = games_of(journal)
    assert game["reason"] == "adjudicated: 12 plies" and game["players"] == ["P", "F"]
    moves = game["moves"]
    assert [info.get("ponder") for info in game["infos"][::2]] == [None, "hit", "hit", "hit", "hit", "hit"]
    read = [line for line in log.read_text().splitlines() if line.split()[0] in ("position", "go", "ponderhit", "stop")]
    expected = ["position startpos", "go movetime 20"]
    for ply in range(0, 10, 2):        # after each of its moves: ponder on the reply that F then plays
        expected += [f"position startpos moves {' '.join(moves[:ply + 2])}", "go ponder movetime 20", "ponderhit"]
    assert read == expected            # its last move ends the game at 12 plies: no ponder after it
    assert "Ponder value true" in log.read_text()


def test_a_miss_is_stop_then_the_position_and_a_fresh_go(tmp_path):
    journal, log = tmp_path / "j.jsonl", tmp_path / "P.log"
    run("match", "--game", "english", "--engine", ponder_fake("P", log, "Seed=3"),
        "--engine", ours("R", "Agent=random", "Seed=5"), "--games", "2", "--movetime", "20", "--max-plies", "30",
        "--concurrency", "1", "--journal", str(journal), "--quiet")
    outcomes = [info.get("ponder") for g in games_of(journal) for info in g["infos"][g["players"].index("P")::2]]
    assert "miss" in outcomes and "hit" in outcomes                 # the random engine's replies vary
    text = log.read_text()
    assert text.count("ponderhit") == outcomes.count("hit")
    misses = re.findall(r"go ponder movetime 20\nstop\nposition startpos moves [^\n]+\ngo movetime 20\n", text)
    assert len(misses) == outcomes.count("miss")


def test_both_sides_pondering_play_whole_games_on_exact_clocks(tmp_path):
    """Our engine on both sides with --pondering on a clock: the games end normally and are
    journaled; every move's governing go (the go ponder of a hit, else the fresh go) carries
    the mover's clock as the journal's times charge it, each side's in its own line."""
    journal, log = tmp_path / "j.jsonl", tmp_path / "io.log"
    run("match", "--game", "english", "--engine", ours("A", "Seed=1"), "--engine", ours("B", "Seed=2"),
        "--pondering", "--games", "2", "--tc", "4+0.05", "--max-plies", "24", "--concurrency", "1",
        "--journal", str(journal), "--log", str(log), "--quiet")
    games = sorted(games_of(journal), key=lambda g: g["id"])
    assert len(games) == 2 and all(g["reason"] == "adjudicated: 24 plies" and "fault" not in g for g in games)
    sent = {n: [line.split(" > ", 1)[1] for line in log.read_text().splitlines()
                if f" {n} > go" in line or f" {n} > stop" in line] for n in "AB"}
    ponders = 0
    for game in games:
        for ply, (p, p1, p2, _) in enumerate(expected_clocks(game["times_ms"], 4000, 50)):
            name, outcome = game["players"][p], game["infos"][ply].get("ponder")
            lines = sent[name]
            if outcome == "miss":
                assert lines.pop(0).startswith("go ponder") and lines.pop(0) == "stop"
            go = lines.pop(0)
            assert go.startswith("go ponder") == (outcome == "hit"), (ply, go, outcome)
            ponders += outcome is not None
            fields = go_fields(go)
            assert abs(fields[("p1time", "p2time")[p]] - (p1, p2)[p]) <= 10, (ply, go, p1, p2)
            if outcome != "hit":       # a go ponder was sent before the opponent's move was charged
                assert abs(fields["p1time"] - p1) <= 10 and abs(fields["p2time"] - p2) <= 10
        for name in game["players"]:   # a ponder search running at the game's end is stopped
            if sent[name][:1] and sent[name][0].startswith("go ponder"):
                assert sent[name][1] == "stop"
                del sent[name][:2]
    assert sent == {"A": [], "B": []} and ponders >= 20


def test_an_engine_that_dies_while_pondering_forfeits_as_after_any_crash(tmp_path):
    journal = tmp_path / "j.jsonl"
    proc = run("match", "--game", "english", "--engine", ponder_fake("P", tmp_path / "P.log", "CrashOnPonder=2"),
               "--engine", ours("R", "Agent=random", "Seed=5"), "--games", "4", "--movetime", "20",
               "--concurrency", "1", "--journal", str(journal), check=False)
    assert proc.returncode == 1 and "engine 'P' lost game" in proc.stderr and "--recover" in proc.stderr
    games = games_of(journal)
    assert 1 <= len(games) <= 2             # the game in flight beside it (its colour-swapped twin) may end too
    for game in games:
        assert game["fault"] == {"engine": "P", "kind": "crash"}
        assert game["score_first"] == (0.0 if game["players"][0] == "P" else 1.0)
        assert "exited with code 3" in game["reason"] and len(game["moves"]) >= 5
    again = run("match", "--game", "english", "--engine", ponder_fake("P", tmp_path / "P.log", "CrashOnPonder=2"),
                "--engine", ours("R", "Agent=random", "Seed=5"), "--games", "4", "--movetime", "20",
                "--concurrency", "1", "--journal", str(journal), "--recover", "--quiet")
    games = games_of(journal)
    assert len(games) == 4 and all(g["fault"]["engine"] == "P" for g in games), again.stdout
