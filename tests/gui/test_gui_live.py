"""The tournament watcher's data (issue 37), without a browser: games numbered from 1 with
their results in words, the live file read as the manager writes it (the board the rules'
position after its moves, a file at fault refused with a message, a killed manager's file
shown as such), the estimate of the time left, the match's Elo series (the manager's own
report of the journal cut after each game), and the pushes of ``/ws/watch``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("starlette")

from mcts_engine.client import EngineInfo, GoResult, Score  # noqa: E402
from mcts_engine.gui import live as gui_live  # noqa: E402
from mcts_engine.gui.live import LiveWatch, time_left  # noqa: E402
from mcts_engine.gui.series import EloSeries, point, targets  # noqa: E402
from mcts_engine.gui.watch import JournalWatch, WatchError, result_words  # noqa: E402
from mcts_engine.rules import get_game  # noqa: E402
from tournaments.play import live as manager_live  # noqa: E402
from tournaments.play.live import LiveFeed  # noqa: E402

from test_gui_server import config, served  # noqa: E402

MOVES = ["11-15", "23-19", "8-11", "22-17", "9-13", "17x10", "7x14"]     # English draughts, legal in turn


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    """A real match of four games (our engine, a few nodes a move)."""
    path = tmp_path_factory.mktemp("live") / "match.jsonl"
    subprocess.run([sys.executable, "-m", "tournaments", "match", "--game", "english",
                    "--engine", "name=UCT cmd=mcts-engine option.Seed=1", "--engine",
                    "name=Eval cmd=mcts-engine option.Agent=greedy option.Seed=2", "--games", "4", "--nodes", "20",
                    "--opening-plies", "2", "--journal", str(path), "--quiet"], check=True, capture_output=True,
                   timeout=120)
    return str(path)


def journal_games(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [r for r in map(json.loads, f) if r["type"] == "game"]


# --- games numbered from 1, results in words ---------------------------------------------------

def test_games_are_numbered_from_1_with_their_results_in_words(journal):
    """The page showed ``0. UCT - Eval 1-0``: games from 0, chess results (issue 37)."""
    client = served(config(journal=journal))
    summary = client.get("/api/journal").json()
    games = {g["id"]: g for g in journal_games(journal)}
    assert [g["number"] for g in summary["games"]] == [1, 2, 3, 4]
    for shown in summary["games"]:
        record = games[shown["number"] - 1]
        winner = {1: record["players"][0], 0: record["players"][1]}.get(record["score_first"])
        assert shown["result"] == (f"{winner} wins" if winner else "draw")
        replay = client.get(f"/api/journal/game/{shown['id']}").json()
        assert replay["number"] == shown["number"] and replay["result_text"] == shown["result"]
        assert [p["move"] for p in replay["plies"]] == record["moves"]
        assert [p.get("depth") for p in replay["plies"]] == [i.get("depth") for i in record["infos"]]
    assert result_words(["A", "B"], 1.0) == "A wins" and result_words(["A", "B"], 0.0) == "B wins"
    assert result_words(["A", "B"], 0.5) == "draw" and result_words(["A", "B"], None) == "*"


# --- the live file ---------------------------------------------------------------------------

def answer(move: str) -> GoResult:
    return GoResult(move=move, ponder=None, elapsed=0.01, info=EngineInfo(depth=3, nodes=50, score=Score(cp=20),
                                                                          pv=(move, "22-17", "11-16")))


def write_live(journal: str, moves: list[str], result: dict | None = None) -> LiveFeed:
    """The manager's own writer, fed a game as its referee feeds it."""
    feed = LiveFeed(manager_live.live_path(journal), games_total=6, games_done=2, interval=0.0)
    record = {"id": 2, "pair": 1, "game": "english", "rules": {}, "players": ["UCT", "Eval"],
              "start_fen": get_game("english").new_state().fen(), "moves": []}
    feed.started(record, (None, None))
    for move in moves:
        record["moves"].append(move)
        feed.moved(record, answer(move), (None, None))
    if result:
        record.update(result)
        feed.finished(record)
    return feed


def test_the_gui_reads_the_live_file_where_the_manager_writes_it():
    assert gui_live.SUFFIX == manager_live.SUFFIX and gui_live.LIVE_FORMAT == manager_live.LIVE_FORMAT
    assert gui_live.live_path("a/j.jsonl") == manager_live.live_path("a/j.jsonl")


def test_a_live_game_is_the_rules_position_after_its_moves(tmp_path):
    journal = str(tmp_path / "j.jsonl")
    watch = LiveWatch(journal)
    assert watch.read()["running"] is False                        # no live file: nothing played
    write_live(journal, MOVES[:3])
    content = watch.read()
    assert content["running"] and content["games_total"] == 6
    game = content["games"][0]
    state = get_game("english").new_state()
    for move in MOVES[:3]:
        state.play(state.parse_move(move))
    assert game["number"] == 3 and game["fen"] == state.fen() and game["to_move"] == state.to_move
    assert json.loads(json.dumps(game["pieces"])) == json.loads(json.dumps(state.board_view().to_dict()["pieces"]))
    assert game["last"]["points"] == ["8", "11"] and game["first_to_move"] == 0
    assert [p["points"] for p in game["pv_paths"]] == [["22", "17"], ["11", "16"]]   # the PV after the move played
    write_live(journal, MOVES, {"score_first": 0.5, "reason": "adjudicated"})       # extended, then over
    game = watch.read()["games"][0]
    assert len(game["plies"]) == len(MOVES) and game["result_text"] == "draw" and game["pv_paths"] == []


def test_a_live_file_at_fault_is_refused_with_a_message(tmp_path):
    journal = str(tmp_path / "j.jsonl")
    path = gui_live.live_path(journal)
    good = write_live(journal, MOVES[:2]).snapshot()
    cases = {"not JSON": "{", "format": {**good, "format": 99}, "games": {**good, "games": {}},
             "players": {**good, "games": [{**good["games"][0], "players": ["A"]}]},
             "plies": {**good, "games": [{**good["games"][0], "plies": [{"move": 7}]}]},
             "result": {**good, "games": [{**good["games"][0], "result": {"score_first": 2}}]},
             "set up": {**good, "games": [{**good["games"][0], "game": "no-such-game"}]}}
    for words, content in cases.items():
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        with pytest.raises(WatchError, match="live"):
            LiveWatch(journal).read()
    illegal = {**good, "games": [{**good["games"][0], "plies": [{"move": "11-15"}, {"move": "11-15"}]}]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(illegal, f)
    game = LiveWatch(journal).read()["games"][0]                  # the position before the refused move
    state = get_game("english").new_state()
    state.play(state.parse_move("11-15"))
    assert "'11-15' is refused by the rules" in game["error"] and game["fen"] == state.fen()


def test_the_file_of_a_killed_manager_is_shown_as_such(tmp_path):
    journal = str(tmp_path / "j.jsonl")
    content = write_live(journal, MOVES[:2]).snapshot()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with open(gui_live.live_path(journal), "w", encoding="utf-8") as f:
        json.dump({**content, "pid": int(dead.stdout)}, f)
    shown = LiveWatch(journal).read()
    assert shown["running"] is False and shown["games"] == [] and "is gone" in shown["why"]


def test_the_time_left_is_the_pace_of_this_run():
    content = {"games_total": 10, "games_done_at_start": 2, "run_started": 1000.0}
    assert time_left(content, 2, now=1100.0) is None                # no game of this run finished yet
    assert time_left(content, 6, now=1100.0) == {"games": 4, "seconds": 100.0, "per_game": 25.0}
    assert time_left(content, 10, now=1100.0) is None               # every game played
    assert time_left({}, 3) is None


# --- the match's Elo against games played ------------------------------------------------------

def test_the_series_is_the_managers_report_of_the_journal_cut_after_each_game(journal):
    from mcts_engine.gui.watch import manager_report, records_report
    with open(journal, encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    series = EloSeries(records_report)
    series.add(records, records_report(records))
    while series.step(records):
        pass
    points = series.points(4)
    assert [p["games"] for p in points] == [1, 2, 3, 4]
    cut = records[:next(i for i, r in enumerate(records) if r is journal_games_of(records)[1]) + 1]
    two = os.path.join(os.path.dirname(journal), "two.jsonl")
    with open(two, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in cut)
    assert points[1] == point(manager_report(two), 2)             # the manager's figures after two games
    last = manager_report(journal)["ratings"]["UCT"]
    assert points[-1]["lines"]["UCT"]["elo"] == last["elo"] and points[-1]["against"] == "Eval"
    assert list(points[-1]["lines"]) == ["UCT"]                    # a match: the first engine's line


def journal_games_of(records: list[dict]) -> list[dict]:
    return [r for r in records if r["type"] == "game"]


def test_series_targets_spread_and_a_new_tournament_starts_over():
    assert targets(0) == [] and targets(5) == [1, 2, 3, 4, 5]
    spread = targets(1000, 50)
    assert spread[-1] == 1000 and len(spread) == 50 and spread[0] == 20
    calls = []
    series = EloSeries(lambda records: calls.append(records) or {"kind": "match", "ratings": {}})
    header = {"type": "tournament", "settings": {"a": 1}}
    games = [{"type": "game", "id": i} for i in range(3)]
    assert series.step([header, *games]) and len(calls) == 2      # two reports a step
    assert series.step([header, *games]) and not series.step([header, *games])
    assert [p["games"] for p in series.points(3)] == [1, 2, 3]
    series.step([{"type": "tournament", "settings": {"a": 2}}, games[0]])
    assert [p["games"] for p in series.points(1)] == [1]


# --- the pushes ------------------------------------------------------------------------------------

def test_the_watch_socket_pushes_the_summary_and_the_live_games(journal, tmp_path):
    feed = write_live(journal, MOVES[:4])
    try:
        client = served(config(journal=journal))
        with client.websocket_connect("/ws/watch") as ws:
            seen = {}
            while not {"summary", "live"} <= set(seen):
                msg = ws.receive_json()
                seen[msg["type"]] = msg
            assert seen["summary"]["count"] == 4 and seen["summary"]["games"][0]["number"] == 1
            live = seen["live"]
            assert live["running"] and [len(g["plies"]) for g in live["games"]] == [4]
            assert live["time_left"] is None or live["time_left"]["games"] == 2
            write_live(journal, MOVES[:6])                          # a move later: pushed
            while True:
                msg = ws.receive_json()
                if msg["type"] == "live" and msg["games"] and len(msg["games"][0]["plies"]) == 6:
                    break
            assert client.get("/api/live").json()["games"][0]["plies"][-1]["move"] == MOVES[5]
    finally:
        feed.close()


def test_the_watch_socket_takes_no_frames_and_no_foreign_page(journal):
    client = served(config(journal=journal))
    with client.websocket_connect("/ws/watch") as ws:
        ws.send_text("{}")
        while True:
            msg = ws.receive()
            if msg["type"] == "websocket.close":
                assert msg["code"] == 1003
                break
    with pytest.raises(Exception):
        with client.websocket_connect("/ws/watch", headers={"origin": "https://127.0.0.1:8000"}) as ws:
            ws.receive_json()
    with pytest.raises(Exception):
        with served(config()).websocket_connect("/ws/watch") as ws:     # no journal: nothing to watch
            ws.receive_json()
