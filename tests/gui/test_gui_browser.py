"""The GUI in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

Whole short games are played by clicks (English draughts with a multi-capture, Fanorona
with an approach capture and a chain, Life drops, a Rithmomachia capture that wins), a
journal is loaded into the watcher, and every registered game's start position is
drawn and saved as ``docs/gui/<game>.png``.  The page's responsiveness while the engine
analyses is measured (info updates, click round trips).

Where no Chromium can be found the tests are skipped with a message saying so, unless
``CI`` is set: then a missing browser is a failure (``.ci/run`` installs Debian's).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time

import pytest

from mcts_engine.rules import get_game, list_games
from support import ROOT

pytestmark = pytest.mark.browser

SHOTS = ROOT / "docs" / "gui"
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def _unavailable(why: str):
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {why}")
    pytest.skip(f"browser tests skipped: {why} (install Debian's chromium: apt-get install chromium)")


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    path = tmp_path_factory.mktemp("browser") / "match.jsonl"
    subprocess.run([sys.executable, "-m", "tournaments", "round-robin", "--game", "fanorona",
                    "--engine", "name=Random cmd=mcts-engine option.Agent=random option.Seed=1",
                    "--engine", "name=Greedy cmd=mcts-engine option.Agent=greedy option.Seed=2",
                    "--engine", "name=UCT cmd=mcts-engine option.Seed=3",
                    "--games", "2", "--concurrency", "2", "--nodes", "30", "--journal", str(path), "--quiet"],
                   check=True, capture_output=True, timeout=180)
    return str(path)


@pytest.fixture(scope="module")
def server(journal):
    uvicorn = pytest.importorskip("uvicorn")
    from mcts_engine.gui.app import create_app
    from mcts_engine.gui.board import GuiConfig
    from mcts_engine.client import parse_engine_arg
    specs = {"mcts": parse_engine_arg("name=mcts cmd=mcts-engine option.Seed=7")}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(GuiConfig(engines=specs, journal=journal, port=port)), host="127.0.0.1", port=port,
                            log_level="warning", ws="websockets-sansio")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    executable = _chromium()
    if executable is None:
        _unavailable("no Chromium found (/usr/bin/chromium, chromium, chromium-browser, google-chrome)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, headless=True, args=BROWSER_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1100, "height": 820})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda err: errors.append(str(err)))
    pg.goto(server + "/")
    pg.wait_for_selector("#board .hit")
    yield pg
    context.close()
    assert not errors, errors


def state(pg) -> dict:
    return pg.evaluate("window.gui.state")


def new_game(pg, game: str, fen: str | None = None, players=("human", "human")) -> None:
    pg.select_option("#p0", players[0])
    pg.select_option("#p1", players[1])
    pg.wait_for_function(f"window.gui.state.players.join() === '{','.join(players)}'")
    pg.select_option("#game", game)
    pg.wait_for_function(f"window.gui.state.game === '{game}' && window.gui.state.ply === 0")
    if fen:
        pg.fill("#fen", fen)
        pg.click("#load-fen")
        want = get_game(game).parse_fen(fen).fen()
        pg.wait_for_function("fen => window.gui.state.fen === fen", arg=want)


def click_point(pg, point: str) -> None:
    """Click a point and wait for the server's answer (every click gets a new state)."""
    seen = pg.evaluate("window.gui.states")
    pg.locator(f'#board circle.hit[data-point="{point}"]').click()
    pg.wait_for_function("n => window.gui.states > n", arg=seen)


def play_by_clicks(pg, game: str, moves: list[str]) -> None:
    """Enter each move by clicking its path (from the rules' move_path); where the path does
    not decide (Fanorona's approach or withdrawal), click the stone the move captures."""
    for text in moves:
        s = state(pg)
        position = get_game(game).parse_fen(s["fen"])
        path = position.move_path(position.parse_move(text))
        ply = s["ply"]
        for point in path.points:
            click_point(pg, point)
        if state(pg)["ply"] == ply:
            others = [c for c in state(pg)["selection"]["choices"] if c in path.captures]
            click_point(pg, others[0])
        pg.wait_for_function("p => window.gui.state.ply > p", arg=ply)
        assert state(pg)["moves"][-1] == text


def test_every_start_position_is_drawn(page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name in list_games():
        page.select_option("#game", name)
        page.wait_for_function(f"window.gui.state.game === '{name}'")
        view = get_game(name).new_state().board_view()
        assert page.locator("#board g.piece").count() == len(view.pieces), name
        assert page.locator("#board circle.hit").count() == len(view.points), name
        page.locator("#board").screenshot(path=str(SHOTS / f"{name}.png"))


def test_english_draughts_with_a_multi_capture(page):
    # a short ending found in a seeded random game: it ends with a king's double capture
    new_game(page, "english", "W:WK3,K5,20,22,24,26,29,31:B4,9,14,16")
    click_point(page, "22")                          # a man that cannot move: refused with a message
    page.wait_for_function("document.getElementById('message').className === 'error'")
    assert "20" in page.inner_text("#message")       # it says where moves start (20x11 is forced)
    play_by_clicks(page, "english", ["20x11", "4-8", "3x12", "14-18"])
    click_point(page, "5")                           # the last move hop by hop: 5 -> 14 -> 23
    page.wait_for_selector('#board circle.target[data-target="14"]')
    assert page.locator("#board path.capture").count() >= 1   # the piece to be taken is marked
    click_point(page, "14")
    click_point(page, "23")
    page.wait_for_function("window.gui.state.outcome !== null")
    assert state(page)["moves"][-1] == "5x23" and "W wins" in page.inner_text("#status")
    page.click("#record")
    page.wait_for_function("document.getElementById('record').dataset.text !== undefined")
    assert '[Result "2-0"]' in page.get_attribute("#record", "data-text")


def test_fanorona_approach_capture_and_chain(page):
    new_game(page, "fanorona")
    click_point(page, "d3")                          # the first move: approach or withdrawal
    click_point(page, "e3")
    page.wait_for_selector('#board circle.choice[data-choice="f3"]')
    click_point(page, "f3")                          # the approached stone: d3-e3(A)
    page.wait_for_function("window.gui.state.ply === 1")
    assert state(page)["moves"] == ["d3-e3(A)"]
    # a short ending from a seeded random game: a chain (b5-c5(A)-b4(A)) and an approach that wins
    new_game(page, "fanorona", "1B5BB/3W2B1B/W5B2/9/1W7 w 1 16")
    play_by_clicks(page, "fanorona", ["d4-d5", "b5-c5(A)-b4(A)", "b1-b2", "b4-b3(A)"])
    assert state(page)["outcome"] is not None


def test_life_drops(page):
    new_game(page, "life", "W:Bg2,h2,k2,l2,e3,f3,g3,j3,l3,e4,f4,h4,f5,g5,i5,m5,m6,k7:Wg7,i8,j8")
    click_point(page, "a19")                         # not next to a stone: the rules say so
    page.wait_for_function("document.getElementById('message').textContent.includes('not next to a stone')")
    play_by_clicks(page, "life", ["@d3", "@e1", "@g2", "@e3"])
    assert state(page)["outcome"] == 1.0 and "B wins" in page.inner_text("#status")


def test_rithmomachia_capture_wins(page):
    fen = ("B:Wb3=S81,g3=S169,h3=S289,d4=T20,e4=T42,f4=T81,h4=S153,a5=T25,c5=R4,d5=R16,e5=S45,c6=R2,d6=R4,"
           "b7=S15,c10=T49:Bd8=S225,g10=T12,d11=R25,e11=T36,f11=R3,a12=T100,c12=R81,f12=T56,h12=T16,b13=S120,"
           "e13=T30,g13=S66,a14=S361,g14=S121,h14=S49:C13/451/14/317:N27")
    new_game(page, "rithmomachia", fen)
    play_by_clicks(page, "rithmomachia", ["d8-g9", "e5-b6"])
    click_point(page, "g9")
    page.wait_for_selector('#board circle.target[data-target="f6"]')
    click_point(page, "f6")                          # the move captures b6: Black's 15th piece
    page.wait_for_function("window.gui.state.outcome !== null")
    assert state(page)["last"]["captures"] == ["b6"] and "B wins" in page.inner_text("#status")


def test_engine_replies_and_the_page_stays_responsive(page):
    new_game(page, "english", players=("human", "engine"))
    page.fill("#movetime", "300")
    page.dispatch_event("#movetime", "change")
    click_point(page, "11")
    click_point(page, "15")
    page.wait_for_function("window.gui.state.ply === 2", timeout=90_000)   # the engine started and answered
    page.select_option("#p1", "human")
    page.wait_for_function("window.gui.state.players[1] === 'human'")
    page.click("#analyse")
    page.wait_for_function("Number(document.getElementById('analysis').dataset.infos || 0) > 0", timeout=90_000)
    start_infos = page.evaluate("window.gui.infos")
    latencies = []
    started = time.monotonic()
    for _ in range(6):                                # clicks answered while the engine analyses
        for point in ("22", "24"):
            latencies.append(page.evaluate("""point => new Promise(resolve => {
                const t0 = performance.now();
                window.gui.ws.addEventListener("message", function once(e) {
                  if (JSON.parse(e.data).type !== "state") return;
                  window.gui.ws.removeEventListener("message", once);
                  resolve(performance.now() - t0);
                });
                document.querySelector(`#board circle.hit[data-point="${point}"]`)
                  .dispatchEvent(new MouseEvent("click", {bubbles: true}));
              })""", point))
        time.sleep(0.3)
    elapsed = time.monotonic() - started
    infos = page.evaluate("window.gui.infos") - start_infos
    page.click("#stop")
    page.wait_for_function("document.getElementById('engine-status').dataset.status === 'idle'")
    latencies.sort()
    print(f"\nclick round trip while analysing: median {latencies[len(latencies) // 2]:.1f} ms, "
          f"max {latencies[-1]:.1f} ms; info updates: {infos / elapsed:.2f}/s")
    # every click was answered while the analysis ran (a server loop blocked by it would answer
    # none: page.evaluate would time out); how fast is the machine's speed, printed above only
    assert len(latencies) == 12, latencies
    assert infos >= 2, (infos, elapsed)                 # the analysis kept reporting meanwhile
    assert page.locator("#board polyline").count() >= 1     # the PV's arrows were drawn


def test_a_closed_websocket_reconnects_and_keeps_the_game(page):
    new_game(page, "fanorona")
    play_by_clicks(page, "fanorona", ["d2-e3(A)"])
    fen = state(page)["fen"]
    assert page.evaluate("window.gui.connections") == 1
    page.evaluate("window.gui.ws.close()")
    page.wait_for_function("document.getElementById('status').dataset.connected === '0'")
    # a state of the new connection with the game put back (start FEN, then the move replayed)
    page.wait_for_function("fen => window.gui.stateFrom === 2 && window.gui.state.fen === fen && "
                           "window.gui.state.moves.length === 1", arg=fen, timeout=15_000)
    assert state(page)["moves"] == ["d2-e3(A)"] and state(page)["players"] == ["human", "human"]


def test_the_watcher_shows_a_tournament_and_replays_a_game(browser, server):
    context = browser.new_context(viewport={"width": 1100, "height": 820})
    page = context.new_page()
    page.goto(server + "/watch")
    page.wait_for_function("document.getElementById('journal-count').dataset.count === '6'")
    assert page.locator("#standings tr").count() == 4           # header + three engines
    assert "Greedy" in page.inner_text("#crosstable")
    page.locator("#games li").first.click()
    page.wait_for_function("window.watch.mode === 'replay' && window.watch.game.number === 1")   # numbered from 1
    page.wait_for_selector("#board g.piece")
    for _ in range(3):
        page.click("#next")
    assert page.get_attribute("#ply-text", "data-ply") == "3"
    assert page.locator("#board circle.last").count() >= 2     # the last move is shown
    assert page.get_attribute("#elo-plot", "data-points") != "0"   # (the live page: test_gui_watch_browser.py)
    context.close()
