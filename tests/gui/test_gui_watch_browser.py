"""The live tournament page in a real browser (issue 37): headless Chromium watching a running
``mcts-tournament match`` of our engine, compared with what the journal holds.

While the match plays, the page shows the game in progress: its board must be the rules'
position after the moves the page lists (those of the manager's live file), the moves a
prefix of the game the journal records at its end, each engine's panel its last move's depth
as the journal keeps it, the score plot a point per scored move.  As games finish the page
follows them; at the end its Elo and score plots have a point per game, its crosstable's
totals are the journal's, its games are numbered from 1 with their results in words.  The
page mid-match is saved as ``docs/gui/watch.png``.

The match is timed by ``--movetime`` (and cut at 30 plies) rather than node counts: a game
then lasts at least its moves' time, whatever the machine's speed, so the page always has
games in progress to see; nothing here asserts a speed, every wait is on a condition.
"""
from __future__ import annotations

import json
import socket
import subprocess
import threading
import time

import pytest

from mcts_engine.rules import get_game
from support.tournament import ours, tournament_command
from test_gui_browser import SHOTS, browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser

GAMES = 4
WAIT = 120_000           # ms: generous, for a busy machine


@pytest.fixture
def watched(tmp_path):
    """A GUI server following a journal no match has written yet: (its URL, the journal path)."""
    uvicorn = pytest.importorskip("uvicorn")
    from mcts_engine.gui.app import create_app
    from mcts_engine.gui.board import GuiConfig
    journal = tmp_path / "match.jsonl"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(GuiConfig(engines={}, journal=str(journal), port=port)),
                                           host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", journal
    server.should_exit = True
    thread.join(10)


def start_match(journal) -> subprocess.Popen:
    return subprocess.Popen(tournament_command() + [
        "match", "--game", "english", "--engine", ours("UCT", "Seed=1", "MoveOverhead=0"),
        "--engine", ours("Eval", "Seed=2", "MoveOverhead=0", "PlayoutDepth=2"), "--games", str(GAMES),
        "--movetime", "30", "--max-plies", "30", "--concurrency", "1", "--journal", str(journal), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


LIVE_IN_PROGRESS = ("min => window.watch.game && window.watch.game.kind === 'live' && !window.watch.game.result "
                    "&& window.watch.game.plies.length >= min")
PAGE_NOW = """() => {
  const g = window.watch.game, board = document.getElementById("board");
  const side = id => { const b = document.getElementById(id); return {name: b.dataset.name, depth: b.dataset.depth}; };
  return {number: g.number, start_fen: g.start_fen, moves: g.plies.map(p => p.move), players: g.players,
    first_to_move: g.first_to_move, drawn_plies: Number(board.dataset.plies), fen: board.dataset.fen,
    pieces: [...board.querySelectorAll("g.piece")].map(p => [p.dataset.piece, Number(p.dataset.owner), p.dataset.kind]),
    panels: [side("player-bottom"), side("player-top")],
    plot: [...document.querySelectorAll("#score-plot polyline.line")].map(l => Number(l.dataset.count)),
    scored: [0, 1].map(p => g.plies.filter((x, i) => (i + g.first_to_move) % 2 === p && (x.cp !== undefined || x.mate !== undefined)).length),
    first_line: document.querySelector("#moves .move-line") ? document.querySelector("#moves .move-line").innerText : ""};
}"""


def rules_position(start_fen: str, moves: list[str]):
    state = get_game("english").parse_fen(start_fen)
    for move in moves:
        state.play(state.parse_move(move))
    return state


def journal_games(journal) -> dict[int, dict]:
    with open(journal, encoding="utf-8") as f:
        return {r["id"]: r for r in map(json.loads, f) if r["type"] == "game"}


def test_the_tournament_page_follows_a_running_match(browser, watched):  # noqa: F811
    url, journal = watched
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url + "/watch")
    page.wait_for_function("document.body.dataset.connected === '1'", timeout=WAIT)
    match = start_match(journal)
    try:
        # the game in progress, live: the board is the rules' position after the listed moves
        page.wait_for_function(LIVE_IN_PROGRESS, arg=2, timeout=WAIT)
        now = page.evaluate(PAGE_NOW)
        state = rules_position(now["start_fen"], now["moves"])
        view = state.board_view()
        assert sorted(now["pieces"]) == sorted([p.point, p.owner, p.kind] for p in view.pieces)
        assert now["fen"] == state.fen() and now["drawn_plies"] == len(now["moves"])
        assert now["plot"] == now["scored"] and sum(now["plot"]) > 0      # a point per scored move, both engines
        assert now["first_line"].split() == ["1.", *now["moves"][:2]] or now["first_to_move"] == 1
        # later, with games journaled: a live game beside both plots (the docs' picture; if the
        # machine is so busy that the match ends first, the finished match is pictured)
        page.wait_for_function("() => (window.watch.summary && window.watch.summary.count >= 2 && window.watch.game "
                               "&& window.watch.game.kind === 'live' && !window.watch.game.result) || "
                               "(window.watch.summary && window.watch.summary.count === %d)" % GAMES, timeout=WAIT)
        page.screenshot(path=str(SHOTS / "watch.png"))
        assert match.wait(timeout=WAIT / 1000) == 0, match.stderr.read()
        page.wait_for_function("n => window.watch.summary && window.watch.summary.count === n && "
                               "(window.watch.summary.series || []).length === n", arg=GAMES, timeout=WAIT)
    finally:
        if match.poll() is None:
            match.kill()
    games = journal_games(journal)
    record = games[now["number"] - 1]                                  # the game seen live, as journaled
    assert record["moves"][:len(now["moves"])] == now["moves"] and record["start_fen"] == now["start_fen"]
    for p, panel in enumerate(now["panels"]):                          # each engine's last move's depth
        assert panel["name"] == record["players"][p]
        mine = [i for i in range(len(now["moves"])) if (i + now["first_to_move"]) % 2 == p]
        if mine and panel["depth"] != "":
            assert int(panel["depth"]) == record["infos"][mine[-1]]["depth"]
    # the match plots: a point per game; the crosstable's totals: the journal's
    assert page.get_attribute("#elo-plot", "data-points") == str(GAMES)
    assert page.get_attribute("#points-plot", "data-points") == str(GAMES)
    points = {name: 0.0 for name in ("UCT", "Eval")}
    for g in games.values():
        points[g["players"][0]] += g["score_first"]
        points[g["players"][1]] += 1 - g["score_first"]
    totals = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll("#crosstable tr")].slice(1)
        .map(tr => [tr.querySelector("th").textContent, Number(tr.querySelector("td.total").dataset.points)]))""")
    assert totals == points
    # games from 1, results in words; the counts the page went through as games finished
    items = page.evaluate("[...document.querySelectorAll('#games li')].map(li => [li.value, li.textContent])")
    assert [v for v, _ in items] == list(range(1, GAMES + 1))
    for (number, text), g in zip(items, sorted(games.values(), key=lambda g: g["id"])):
        words = "draw" if g["score_first"] == 0.5 else f"{g['players'][0 if g['score_first'] == 1 else 1]} wins"
        assert f": {words} (" in text and "1-0" not in text and "0-2" not in text
    seen = page.evaluate("window.watch.seen")                       # what the page showed, update by update
    counts = [s["count"] for s in seen if s["count"] is not None]
    assert counts == sorted(counts) and counts[-1] == GAMES         # the games played grew to the end
    numbers = [number for s in seen for number, _, over in s["live"] if not over]
    assert numbers == sorted(numbers) and len(set(numbers)) >= 2    # it followed one live game, then the next
    page.wait_for_function("document.getElementById('run-status').dataset.running === '0'", timeout=WAIT)
    context.close()
    assert not errors, errors
