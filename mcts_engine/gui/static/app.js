// The board page: one WebSocket to the server (messages.py's protocol), the board drawn by
// board.js from the server's state, the engine's info lines, and the controls.  The page
// decides nothing about the rules: a click is sent as a point name and the server answers
// with the new state or an error.  A closed WebSocket reconnects and restores the game
// (start FEN and moves) on the new connection.

import { drawBoard } from "./board.js";

const $ = id => document.getElementById(id);
const page = { ws: null, state: null, flipped: false, pv: [], retry: 0, restoring: null, pending: {} };
window.gui = page;   // for tests and the curious: the last state, the socket

function send(message) {
  if (page.ws && page.ws.readyState === WebSocket.OPEN) page.ws.send(JSON.stringify(message));
}

function say(text, isError) {
  const box = $("message");
  box.textContent = text || "";
  box.className = isError ? "error" : "";
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  page.ws = ws;
  ws.onopen = () => {
    page.retry = 0;
    page.connections = (page.connections || 0) + 1;
    $("status").dataset.connected = "1";
    if (page.state) {   // a reconnection: put the game back on the fresh board
      const s = page.state;
      page.restoring = s;
      const restore = { type: "restore", game: s.game, rules: s.rules || "", fen: s.start_fen, moves: s.moves,
        players: s.players };
      if (s.limits && Object.keys(s.limits).length) restore.limits = s.limits;
      if (s.engine) restore.engine = s.engine;
      send(restore);   // one frame, whatever the length of the game
      page.restoring = null;
      say("reconnected", false);
    }
  };
  ws.onmessage = event => receive(JSON.parse(event.data));
  ws.onclose = () => {
    $("status").dataset.connected = "0";
    say("connection lost: reconnecting ...", true);
    const wait = Math.min(5000, 250 * 2 ** page.retry++);
    setTimeout(connect, wait);
  };
}

function receive(msg) {
  const handler = { hello, state: showState, info: showInfo, error: showError, engine: showEngine,
    record: saveRecord, pong: m => { const t = page.pending[m.id]; if (t) { t(performance.now()); delete page.pending[m.id]; } } }[msg.type];
  if (handler) handler(msg);
}

function hello(msg) {
  if (!page.state) {
    $("game").replaceChildren(...msg.games.map(g => new Option(g, g)));
    $("engine").replaceChildren(...msg.engines.map(e => new Option(e, e)));
  }
  $("watch-link").style.display = msg.journal ? "" : "none";
}

function showState(s) {
  const gameChanged = !page.state || page.state.game !== s.game || page.state.start_fen !== s.start_fen;
  page.state = s;
  page.states = (page.states || 0) + 1;
  page.stateFrom = page.connections;     // which connection this state came over (reconnects)
  if (gameChanged || s.ply === 0) page.pv = [];
  $("game").value = s.game;
  if (document.activeElement !== $("rules")) $("rules").value = s.rules;
  if (document.activeElement !== $("fen")) $("fen").value = s.fen;
  $("p0").value = s.players[0]; $("p1").value = s.players[1];
  if (s.engine) $("engine").value = s.engine;
  if (document.activeElement !== $("movetime")) {
    const kind = s.limits.nodes ? "nodes" : "movetime";
    $("limit-kind").value = kind;
    $("movetime").value = s.limits[kind];
  }
  $("analyse").classList.toggle("on", s.analysing);
  const side = `${s.colours[s.to_move]} (${s.to_move === 0 ? "first" : "second"} player)`;
  $("status").textContent = s.outcome !== null ? `Game over: ${s.result}` : `${s.game}: ${side} to move`;
  $("status").dataset.ply = s.ply;
  $("status").dataset.fen = s.fen;
  if (s.note) say(s.note, false);
  const moves = $("moves");
  moves.replaceChildren(...s.moves.map(m => { const li = document.createElement("li"); li.textContent = m; return li; }));
  moves.scrollTop = moves.scrollHeight;
  $("legal").replaceChildren(...s.legal.slice(0, 400).map(text => {
    const b = document.createElement("button");
    b.textContent = text;
    b.onclick = () => send({ type: "move", move: text });
    return b;
  }));
  const pyramids = s.view.pieces.filter(p => p.parts.length);   // Rithmomachia: each pyramid's components
  $("pyramids").textContent = pyramids.map(p => `${p.point}: ${p.label} = ${p.parts.map(c => c.startsWith("x") ? `(${c.slice(1)} lost)` : c).join(" + ")}`).join("; ");
  $("options").replaceChildren(...s.options.map(o => {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td></td><td></td>";
    tr.children[0].textContent = `${o.name} (${o.default})`;
    tr.children[1].textContent = `${o.allowed}. ${o.doc}`;
    return tr;
  }));
  render();
}

function render() {
  const s = page.state;
  if (!s) return;
  drawBoard($("board"), s.view, { last: s.last, selection: s.selection, pv: page.pv, flipped: page.flipped,
    colours: s.colours }, point => send({ type: "click", point }));
}

function showInfo(info) {
  if (info.score_cp !== null) $("i-score").textContent = (info.score_cp >= 0 ? "+" : "") + (info.score_cp / 100).toFixed(2);
  else if (info.mate !== null) $("i-score").textContent = `mate ${info.mate}`;
  if (info.depth !== null) $("i-depth").textContent = info.seldepth ? `${info.depth}/${info.seldepth}` : info.depth;
  if (info.nodes !== null) $("i-nodes").textContent = info.nodes.toLocaleString("en");
  if (info.nps !== null) $("i-nps").textContent = info.nps.toLocaleString("en");
  if (info.wdl) {
    const [w, d, l] = info.wdl, total = w + d + l || 1;
    const bar = $("wdl");
    bar.title = `win ${w / 10}% draw ${d / 10}% loss ${l / 10}% (side to move)`;
    bar.querySelector(".w").style.width = `${100 * w / total}%`;
    bar.querySelector(".d").style.width = `${100 * d / total}%`;
    bar.querySelector(".l").style.width = `${100 * l / total}%`;
  }
  if (info.pv && info.pv.length) {
    $("pv").textContent = info.pv.join(" ");
    page.pv = info.pv_paths || [];
    render();
  }
  page.infos = (page.infos || 0) + 1;
  $("analysis").dataset.infos = page.infos;
}

function showError(msg) { say(msg.message, true); }

function showEngine(msg) {
  const box = $("engine-status");
  box.textContent = `engine ${msg.name || ""}: ${msg.status}${msg.message ? " - " + msg.message : ""}`;
  box.className = msg.status === "crashed" ? "crashed" : "";
  box.dataset.status = msg.status;
  if (msg.status === "idle" && page.state && page.state.analysing === false) page.pv = [];
}

function saveRecord(msg) {
  const blob = new Blob([msg.text], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = msg.filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  $("record").dataset.text = msg.text;
}

// measure a round trip (tests and the curious): resolves with milliseconds
page.ping = () => new Promise(resolve => {
  const id = Math.floor(Math.random() * 1e9), t0 = performance.now();
  page.pending[id] = t => resolve(t - t0);
  send({ type: "ping", id });
});
page.send = send;

function controls() {
  $("new").onclick = () => send({ type: "new", game: $("game").value, rules: $("rules").value });
  $("game").onchange = () => { $("rules").value = ""; send({ type: "new", game: $("game").value, rules: "" }); };
  $("undo").onclick = () => send({ type: "undo" });
  $("flip").onclick = () => { page.flipped = !page.flipped; render(); };
  const players = () => send({ type: "players", players: [$("p0").value, $("p1").value] });
  $("p0").onchange = players; $("p1").onchange = players;
  $("engine").onchange = () => send({ type: "engine", name: $("engine").value });
  const limits = () => {
    const value = parseInt($("movetime").value, 10), kind = $("limit-kind").value;
    if (value >= 1) send({ type: "limits", [kind]: value });
  };
  $("movetime").onchange = limits; $("limit-kind").onchange = limits;
  $("go").onclick = () => send({ type: "go" });
  $("analyse").onclick = () => send({ type: "analyse", on: !(page.state && page.state.analysing) });
  $("stop").onclick = () => send({ type: "stop" });
  $("load-fen").onclick = () => send({ type: "fen", fen: $("fen").value });
  $("copy-fen").onclick = async () => {
    try { await navigator.clipboard.writeText(page.state.fen); say("FEN copied", false); }
    catch (err) { $("fen").select(); say("select the FEN and copy it (the clipboard is not available)", false); }
  };
  $("record").onclick = () => send({ type: "record" });
  document.addEventListener("keydown", e => { if (e.key === "Escape") send({ type: "cancel" }); });
}

controls();
connect();
