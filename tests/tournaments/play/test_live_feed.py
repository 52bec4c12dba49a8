"""The live file beside the journal (``<journal>.live.json``, issue 37): the games being played,
as the GUI's tournament watcher reads them.

The feed on its own (a fake clock: written at a game's start and end at once, a move at most
every interval, a move held back written by its timer, removed at the run's end, a failing
disk never stopping a game); the referee's hook (a real game of our engine: the feed's moves,
scores and result are the journal record's); and a run (the file there while it plays, naming
the schedule, gone at its end).
"""
from __future__ import annotations

import json
import os
import time

from mcts_engine.client import EngineInfo, GoResult, Score, parse_engine_arg
from tournaments.play.adjudication import Adjudication
from tournaments.play.conditions import PlayConditions, TimeControl
from tournaments.play.live import LIVE_FORMAT, LiveFeed, live_path, ply_entry
from tournaments.play.referee import Engines, GameSpec, play_game
from tournaments.play.runner import Tournament, TournamentSettings
from tournaments.results.journal import Journal
from support.tournament import games_of, ours


class FakeClock:
    def __init__(self, now: float = 1000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def read(path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def answer(move: str, cp: int | None = 12, depth: int = 3, pv=("11-15", "23-19")) -> GoResult:
    info = EngineInfo(depth=depth, seldepth=depth + 2, nodes=100, score=Score(cp=cp) if cp is not None else None,
                      pv=tuple(pv))
    return GoResult(move=move, ponder=None, elapsed=0.0123, info=info)


def record(game_id: int, moves=()) -> dict:
    return {"id": game_id, "pair": game_id // 2, "game": "english", "rules": {}, "players": ["A", "B"],
            "start_fen": "B:W21,22:B1,2", "moves": list(moves)}


def test_a_game_start_moves_and_end_as_the_file_says(tmp_path):
    path, clock = tmp_path / "j.jsonl.live.json", FakeClock()
    feed = LiveFeed(str(path), games_total=4, games_done=1, interval=10.0, clock=clock)
    head = read(path)
    assert head["format"] == LIVE_FORMAT and head["journal"] == "j.jsonl" and head["pid"] == os.getpid()
    assert head["games_total"] == 4 and head["games_done_at_start"] == 1 and head["games"] == []
    rec = record(2)
    feed.started(rec, (60.0, None))
    game = read(path)["games"][0]                                    # a start is written at once
    assert game["number"] == 3 and game["players"] == ["A", "B"] and game["clocks_ms"] == [60000, None]
    assert game["plies"] == [] and game["result"] is None
    rec["moves"].append("11-15")
    feed.moved(rec, answer("11-15"), (59.5, None))
    assert read(path)["games"][0]["plies"] == []                     # within the interval: held back
    assert feed.snapshot()["games"][0]["plies"][0]["move"] == "11-15"
    clock.now += 10.0
    rec["moves"].append("23-19")
    feed.moved(rec, answer("23-19", cp=-30, depth=4), (59.5, None))
    plies = read(path)["games"][0]["plies"]                          # the interval is over: written
    assert [p["move"] for p in plies] == ["11-15", "23-19"]
    assert plies[1] == {"move": "23-19", "time_ms": 12, "cp": -30, "depth": 4, "seldepth": 6, "nodes": 100,
                        "pv": ["11-15", "23-19"]}
    rec.update(score_first=1.0, reason="first player wins by the rules")
    feed.finished(rec)
    assert read(path)["games"][0]["result"] == {"score_first": 1.0, "reason": "first player wins by the rules"}
    feed.started(record(3), (None, None))                            # a finished game makes way for a new one
    assert [g["id"] for g in read(path)["games"]] == [3]
    feed.close()
    assert not path.exists()
    feed.moved(record(3, ["9-13"]), answer("9-13"), (None, None))    # after the end: nothing written
    assert not path.exists()


def test_a_move_held_back_is_written_by_the_timer(tmp_path):
    path = tmp_path / "j.live.json"
    feed = LiveFeed(str(path), games_total=2, games_done=0, interval=0.05)
    rec = record(0)
    feed.started(rec, (None, None))
    rec["moves"].append("11-15")
    feed.moved(rec, answer("11-15"), (None, None))
    deadline = time.monotonic() + 30
    while not read(path)["games"][0]["plies"] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert read(path)["games"][0]["plies"][0]["move"] == "11-15"
    feed.close()


def test_a_failing_disk_turns_the_feed_off_and_never_stops_a_game(tmp_path):
    feed = LiveFeed(str(tmp_path / "missing" / "j.live.json"), games_total=2, games_done=0)
    assert isinstance(feed.error, OSError)
    rec = record(0, ["11-15"])
    feed.started(rec, (None, None))
    feed.moved(rec, answer("11-15"), (None, None))
    feed.close()
    assert not (tmp_path / "missing").exists()


def test_a_ply_keeps_what_the_engine_said():
    assert ply_entry("11-15", answer("11-15", cp=None, pv=())) == {"move": "11-15", "time_ms": 12, "depth": 3,
                                                                     "seldepth": 5, "nodes": 100}
    mate = GoResult(move="1-5", ponder=None, elapsed=0.5, info=EngineInfo(score=Score(mate=-3), pv=tuple("abcdefghijklmnop")))
    assert ply_entry("1-5", mate) == {"move": "1-5", "time_ms": 500, "mate": -3, "pv": list("abcdefghijkl")}


def conditions(**kw) -> PlayConditions:
    return PlayConditions("english", tc=TimeControl(nodes=50), adjudication=Adjudication(max_plies=30), **kw)


def test_the_referee_feeds_every_move_of_a_real_game(tmp_path):
    settings = TournamentSettings(conditions(), (parse_engine_arg(ours("A", "Seed=1")),
                                                 parse_engine_arg(ours("B", "Seed=2"))))
    feed = LiveFeed(str(tmp_path / "j.live.json"), games_total=1, games_done=0, interval=0.0)
    with Engines(settings.lineup(), live=feed) as engines:
        rec = play_game(settings.lineup(), GameSpec(0, "A", "B", 0, 0), engines)
    game = read(tmp_path / "j.live.json")["games"][0]
    assert [p["move"] for p in game["plies"]] == rec["moves"] and len(rec["moves"]) == 30
    assert [p["time_ms"] for p in game["plies"]] == rec["times_ms"]
    for ply, info in zip(game["plies"], rec["infos"]):      # the journal keeps a part of what the feed shows
        assert {k: ply[k] for k in info} == info and ply["pv"][0] == ply["move"]
    assert game["result"] == {"score_first": rec["score_first"], "reason": rec["reason"]}
    assert game["start_fen"] == rec["start_fen"] and game["players"] == ["A", "B"]
    feed.close()


def test_a_run_keeps_the_file_while_it_plays_and_removes_it_at_its_end(tmp_path):
    journal = tmp_path / "j.jsonl"
    settings = TournamentSettings(conditions(), (parse_engine_arg(ours("A", "Seed=1")),
                                                 parse_engine_arg(ours("B", "Seed=2"))), games=4)
    seen = []

    def on_game(rec: dict) -> None:          # the driver, after journaling each game
        live = read(live_path(str(journal)))
        seen.append((rec["id"], live["games_total"], [(g["id"], g["result"] is not None) for g in live["games"]]))

    tournament = Tournament(settings, Journal(str(journal)), on_game=on_game)
    todo, done = tournament.prepare()
    tournament.run(todo, done)
    assert [s[0] for s in seen] == [0, 1, 2, 3] and {s[1] for s in seen} == {4}
    for game_id, _, listed in seen:          # the game just journaled (finished), or the next one started
        assert len(listed) <= 1 and all(g > game_id or (g == game_id and over) for g, over in listed), listed
    assert len(games_of(journal)) == 4
    assert not os.path.exists(live_path(str(journal)))
