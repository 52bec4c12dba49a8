"""The GUI server without a browser: message validation, click resolution, the WebSocket
protocol with real engine processes (ours and a crashing fake), hostile messages, the
journal watcher, and the server's responsiveness while the engine searches."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from urllib.parse import urljoin

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from mcts_engine.gui import messages as m  # noqa: E402
from mcts_engine.gui.app import create_app  # noqa: E402
from mcts_engine.gui.board import GuiConfig  # noqa: E402
from mcts_engine.gui.session import BoardSession  # noqa: E402
from mcts_engine.client import GoLimits, parse_engine_arg  # noqa: E402
from support import FAKES as FAKES_DIR  # noqa: E402

FAKES = str(FAKES_DIR)


def config(**kwargs) -> GuiConfig:
    specs = {"mcts": parse_engine_arg("name=mcts cmd=mcts-engine option.Seed=7"),
             "crasher": parse_engine_arg(f"name=crasher cmd='{sys.executable} {FAKES}/crash.py' option.CrashAfter=1")}
    return GuiConfig(engines=specs, **kwargs)


BASE = "http://127.0.0.1:8000"     # the address GuiConfig serves by default: its Host is accepted


class Served(TestClient):
    """Starlette's test client naming the host the app serves, in its WebSocket handshakes too."""

    def websocket_connect(self, url, *args, **kwargs):
        return super().websocket_connect(urljoin(BASE.replace("http", "ws"), url), *args, **kwargs)


def served(cfg: GuiConfig) -> TestClient:
    """A test client of the app for ``cfg``, naming the host the app serves."""
    return Served(create_app(cfg), base_url=BASE)


def receive_until(ws, predicate, limit=200):
    """Messages until one satisfies ``predicate``; returns (that one, all seen)."""
    seen = []
    for _ in range(limit):
        msg = ws.receive_json()
        seen.append(msg)
        if predicate(msg):
            return msg, seen
    raise AssertionError(f"no wanted message among {[s['type'] for s in seen]}")


def send(ws, **message):
    ws.send_text(json.dumps(message))


# --- messages ----------------------------------------------------------------------------------

def test_valid_messages_parse():
    assert m.parse_message('{"type": "click", "point": "c3"}') == m.Click("c3")
    assert m.parse_message('{"type": "new", "game": "fanorona"}') == m.StartGame("fanorona", "", None)
    assert m.parse_message('{"type": "limits", "nodes": 500}').go_limits() == GoLimits(nodes=500)
    assert m.parse_message('{"type": "players", "players": ["engine", "human"]}') == m.Players(("engine", "human"))
    assert m.parse_message('{"type": "analyse", "on": true}') == m.Analyse(True)


@pytest.mark.parametrize("frame, why", [
    ("not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"point": "c3"}', "unknown message type"),
    ('{"type": "launch", "cmd": "rm -rf /"}', "unknown message type"),
    ('{"type": "click"}', "must be a text"),
    ('{"type": "click", "point": 3}', "must be a text"),
    ('{"type": "click", "point": "c3", "cmd": "x"}', "unknown field"),
    ('{"type": "fen", "fen": "W:W1\\nquit"}', "control character"),
    ('{"type": "new", "game": "english", "rules": "a=b\\rgo"}', "control character"),
    ('{"type": "limits", "movetime": -5}', "from 10"),
    ('{"type": "limits", "movetime": 100, "nodes": 5}', "exactly one"),
    ('{"type": "limits", "nodes": true}', "whole number"),
    ('{"type": "players", "players": ["human", "root"]}', "two of"),
    ('{"type": "analyse", "on": "yes"}', "true or false"),
    ('{"type": "move", "move": "' + "x" * 300 + '"}', "longer than"),
    ('{"type": "click", "point": "' + "a" * 140000 + '"}', "longer than 131072"),
    ('{"type": "restore", "game": "english", "moves": ["9-13", 5], "players": ["human", "human"]}', "must be a text"),
    ('{"type": "restore", "game": "english", "moves": [], "players": ["human", "human"], "limits": {"nodes": 0}}',
     "from 1"),
    ("[" * 5000 + "]" * 5000, "JSON"),
])
def test_bad_messages_are_refused(frame, why):
    with pytest.raises(m.BadMessage, match=why):
        m.parse_message(frame)


# --- clicks ------------------------------------------------------------------------------------

def test_a_capture_fork_is_resolved_by_the_next_click():
    s = BoardSession()
    s.new_game("english", fen="B:W13,14,22,23:B9")
    assert s.click("9").kind == "select" and s.selection.targets() == ["18"]
    assert s.click("18").kind == "select" and s.selection.targets() == ["25", "27"]
    assert s.selection.marked() == (["14"], ["22", "23"])
    outcome = s.click("27")
    assert outcome.kind == "move" and s.move_texts == ["9x27"]


def test_fanorona_approach_or_withdrawal_is_picked_by_clicking_the_stone():
    s = BoardSession("fanorona")
    assert s.click("d3").kind == "select"
    outcome = s.click("e3")
    assert outcome.kind == "select" and "capture" in outcome.message
    assert s.selection.marked() == ([], ["c3", "f3"])
    assert s.click("c3").kind == "move" and s.move_texts == ["d3-e3(W)"]


def test_a_chain_may_stop_by_clicking_the_last_point_again():
    fen = "BBBBBBBBB/BBBBB1BBB/BWB1WBWBW/WWWWW1WWW/WWWWW1WWW w 0 2"   # e3-f2(W) may go on to f1
    s = BoardSession()
    s.new_game("fanorona", fen=fen)
    s.click("e3")
    outcome = s.click("f2")
    assert outcome.kind == "select" and s.selection.can_stop() and s.selection.targets() == ["f1"]
    assert s.click("f2").kind == "move" and s.move_texts == ["e3-f2(W)"]
    s.new_game("fanorona", fen=fen)
    for point in ("e3", "f2", "f1"):
        outcome = s.click(point)
    assert outcome.kind == "move" and s.move_texts == ["e3-f2(W)-f1(W)"]


def test_drops_and_refusals_carry_the_rules_message():
    s = BoardSession("life")
    outcome = s.click("a1")
    assert outcome.kind == "refused" and "not next to a stone" in outcome.message
    outcome = s.click("c2")
    assert outcome.kind == "move" and s.move_texts == ["@c2"]
    d = BoardSession("english")
    refused = d.click("20")
    assert refused.kind == "refused" and "no legal move starts on 20" in refused.message
    d.click("12")
    refused = d.click("19")
    assert refused.kind == "refused" and "illegal" in refused.message
    assert d.click("9").kind == "select" and d.selection.clicked == ["9"]   # another piece: start over


# --- the WebSocket -----------------------------------------------------------------------------

def test_hostile_messages_change_nothing():
    client = served(config())
    with client.websocket_connect("/ws") as ws:
        _, _ = receive_until(ws, lambda x: x["type"] == "state")
        send(ws, type="click", point="12")
        before, _ = receive_until(ws, lambda x: x["type"] == "state")
        hostile = ["garbage", json.dumps({"type": "engine", "name": "/bin/sh"}),
                   json.dumps({"type": "engine", "name": "mcts", "cmd": "rm -rf /"}),
                   json.dumps({"type": "new", "game": "chess"}),
                   json.dumps({"type": "new", "game": "english", "rules": "king_range=far"}),
                   json.dumps({"type": "fen", "fen": "W:W1\nquit"}),
                   json.dumps({"type": "fen", "fen": "X:nonsense"}),
                   json.dumps({"type": "move", "move": "1-99"}),
                   json.dumps({"type": "undo"}),
                   json.dumps({"type": "players", "players": ["human"]}),
                   json.dumps({"type": "limits", "movetime": 10 ** 12}),
                   json.dumps({"type": "click", "point": "z99"}),
                   json.dumps({"type": "analyse", "on": 1}),
                   json.dumps([{"type": "go"}])]
        for frame in hostile:
            ws.send_text(frame)
            error, _ = receive_until(ws, lambda x: x["type"] == "error")
            assert error["message"], frame
            send(ws, type="ping", id=1)
            receive_until(ws, lambda x: x["type"] == "pong")
        send(ws, type="record")
        record, _ = receive_until(ws, lambda x: x["type"] == "record")
        assert '[Game "english"]' in record["text"] and record["filename"] == "english.pdn"
        send(ws, type="cancel")
        after, _ = receive_until(ws, lambda x: x["type"] == "state")
        for key in ("game", "fen", "moves", "players", "engine", "limits", "rules"):
            assert after[key] == before[key], key


def test_a_foreign_origin_is_refused():
    client = served(config())
    with pytest.raises(Exception):
        with client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()
    with client.websocket_connect("/ws", headers={"origin": BASE}) as ws:
        assert ws.receive_json()["type"] == "hello"


def test_human_against_the_engine_with_info_and_arrows():
    client = served(config())
    with client.websocket_connect("/ws") as ws:
        receive_until(ws, lambda x: x["type"] == "state")
        send(ws, type="limits", nodes=300)
        send(ws, type="click", point="12")
        send(ws, type="click", point="16")
        state, seen = receive_until(ws, lambda x: x["type"] == "state" and x["ply"] == 2)
        infos = [x for x in seen if x["type"] == "info"]
        assert infos and infos[-1]["nodes"] and infos[-1]["pv"]
        assert infos[-1]["pv_paths"][0]["points"], "the PV's first move has a click path (an arrow)"
        assert state["last"]["points"] and state["moves"][0] == "12-16"
        send(ws, type="undo")
        state, _ = receive_until(ws, lambda x: x["type"] == "state")
        assert state["ply"] == 0 and state["to_move"] == 0
        send(ws, type="players", players=["engine", "human"])     # the engine plays the first player
        state, _ = receive_until(ws, lambda x: x["type"] == "state" and x["ply"] == 1)
        assert state["players"] == ["engine", "human"] and state["to_move"] == 1


def test_boards_are_limited():
    from mcts_engine.gui.app import MAX_BOARDS
    client = served(config())
    sockets = [client.websocket_connect("/ws") for _ in range(MAX_BOARDS)]
    try:
        for ws in sockets:
            ws.__enter__().receive_json()
        with pytest.raises(Exception):
            with client.websocket_connect("/ws") as extra:
                extra.receive_json()
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_an_engine_crash_is_shown_and_the_engine_restarted():
    client = served(config())
    with client.websocket_connect("/ws") as ws:
        receive_until(ws, lambda x: x["type"] == "state")
        send(ws, type="engine", name="crasher")
        send(ws, type="players", players=["engine", "engine"])
        _, seen = receive_until(ws, lambda x: x["type"] == "state" and x["ply"] >= 3)
        statuses = [x["status"] for x in seen if x["type"] == "engine"]
        assert "crashed" in statuses and "restarted" in statuses, statuses
        crash = next(x for x in seen if x.get("status") == "crashed")
        assert "exited with code 3" in crash["message"]
        send(ws, type="players", players=["human", "human"])
        receive_until(ws, lambda x: x["type"] == "state" and x["players"] == ["human", "human"])


def test_analysis_streams_info_and_the_server_answers_meanwhile():
    """Info lines at the engine's cadence (about two a second) and pings answered fast while
    the engine searches (the engine's I/O is on its own thread)."""
    client = served(config())
    with client.websocket_connect("/ws") as ws:
        receive_until(ws, lambda x: x["type"] == "state")
        send(ws, type="analyse", on=True)
        receive_until(ws, lambda x: x["type"] == "engine" and x["status"] == "analysing")
        receive_until(ws, lambda x: x["type"] == "info")
        start, infos, delays = time.monotonic(), 0, []
        while time.monotonic() - start < 3.0:
            sent = time.monotonic()
            send(ws, type="ping", id=len(delays))
            _, seen = receive_until(ws, lambda x: x["type"] == "pong")
            delays.append(time.monotonic() - sent)
            infos += sum(1 for x in seen if x["type"] == "info")
            time.sleep(0.05)
        elapsed = time.monotonic() - start
        send(ws, type="stop")
        receive_until(ws, lambda x: x["type"] == "engine" and x["status"] == "idle")
    assert infos >= 2 * elapsed - 2, (infos, elapsed)
    delays.sort()
    assert delays[len(delays) // 2] < 0.1, delays


# --- the journal watcher ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    path = tmp_path_factory.mktemp("watch") / "rr.jsonl"
    subprocess.run([sys.executable, "-m", "tournaments", "round-robin", "--game", "english",
                    "--engine", "name=A cmd=mcts-engine option.Agent=random option.Seed=1",
                    "--engine", "name=B cmd=mcts-engine option.Agent=greedy option.Seed=2",
                    "--engine", "name=C cmd=mcts-engine option.Agent=random option.Seed=3",
                    "--games", "2", "--concurrency", "2", "--nodes", "10", "--journal", str(path), "--quiet"],
                   check=True, capture_output=True, timeout=120)
    return str(path)


def test_the_watcher_reports_and_replays(journal):
    client = served(config(journal=journal))
    summary = client.get("/api/journal").json()
    assert summary["count"] == 6 and summary["kind"] == "round-robin"
    assert [r["name"] for r in summary["standings"]] and sum(r["games"] for r in summary["standings"]) == 12
    assert set(summary["crosstable"]) == {"A", "B", "C"}
    game_id = summary["games"][0]["id"]
    replay = client.get(f"/api/journal/game/{game_id}").json()
    assert len(replay["frames"]) == summary["games"][0]["plies"] + 1
    assert replay["geometry"]["points"] and replay["frames"][1]["last"]["points"]
    assert client.get("/api/journal/game/999").status_code == 404
    assert client.get("/api/journal/game/x").status_code == 404
    assert served(config()).get("/api/journal").status_code == 404


# --- the command -------------------------------------------------------------------------------

def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_gui_command_serves_the_page_on_localhost():
    import urllib.request
    script = os.path.join(os.path.dirname(sys.executable), "mcts-engine")
    port = _free_port()
    proc = subprocess.Popen([script, "gui", "--port", str(port), "--game", "dablot"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        banner = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in banner and "engines: mcts-engine" in banner
        for _ in range(100):
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert '<svg id="board"' in page
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_gui_command_refuses_a_bad_engine_or_game():
    script = os.path.join(os.path.dirname(sys.executable), "mcts-engine")
    bad = subprocess.run([script, "gui", "--engine", "cmd=x"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "missing name" in bad.stderr
    bad = subprocess.run([script, "gui", "--game", "chess"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown game" in bad.stderr
    bad = subprocess.run([script, "gui", "--engine", "name=scan cmd=scan protocol=hub"], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "our protocol only" in bad.stderr and "scan (protocol=hub)" in bad.stderr


def test_engine_against_engine_and_rule_options():
    client = served(config())
    with client.websocket_connect("/ws") as ws:
        receive_until(ws, lambda x: x["type"] == "state")
        send(ws, type="new", game="gauntlet", rules="size=6x6")
        state, _ = receive_until(ws, lambda x: x["type"] == "state" and x["game"] == "gauntlet")
        assert (state["view"]["width"], state["view"]["height"], state["rules"]) == (6, 6, "size=6x6")
        assert any(o["name"] == "size" for o in state["options"])
        send(ws, type="limits", nodes=50)
        send(ws, type="players", players=["engine", "engine"])
        state, _ = receive_until(ws, lambda x: x["type"] == "state" and (x["ply"] >= 4 or x["outcome"] is not None))
        send(ws, type="players", players=["human", "human"])
        state, _ = receive_until(ws, lambda x: x["type"] == "state" and x["players"] == ["human", "human"])
        moves = state["moves"]
        send(ws, type="ping", id=5)
        _, seen = receive_until(ws, lambda x: x["type"] == "pong")
        assert all(x.get("moves", moves) == moves for x in seen if x["type"] == "state"), "the engines stopped"
