// The tournament watcher: the game being played, live (the manager's live file, pushed over
// /ws/watch as `live` messages: the rules' position after its moves, each engine's last score,
// depth and PV), the match as it stands (`summary`: standings, crosstable with totals, games
// numbered from 1 with their results in words, the Elo and score against games played), and
// any finished game replayed move by move (/api/journal/game/<id>).  The board follows the
// live game until a finished game is clicked; *Live* goes back to it.

import { drawBoard } from "./board.js";
import { showMatchPlots, showMoves, showPlayer, showScorePlot, showTables, timeText } from "./watchview.js";

const $ = id => document.getElementById(id);
const watch = { summary: null, live: null, mode: "live", follow: null, game: null, ply: 0, flipped: false,
  updates: { live: 0, summary: 0 }, seen: [], retry: 0, autoLoaded: null };
window.watch = watch;   // for tests and the curious

function say(text) { $("message").textContent = text || ""; }

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/watch`);
  watch.ws = ws;
  ws.onopen = () => { watch.retry = 0; document.body.dataset.connected = "1"; };
  ws.onmessage = event => {
    const msg = JSON.parse(event.data);
    if (msg.type === "summary") showSummary(msg);
    else if (msg.type === "live") showLive(msg);
  };
  ws.onclose = () => {
    document.body.dataset.connected = "0";
    say("the server does not answer: reconnecting ...");
    setTimeout(connect, Math.min(5000, 250 * 2 ** watch.retry++));
  };
}

function remember() {
  watch.seen.push({ count: watch.summary ? watch.summary.count : null, series: watch.summary ? (watch.summary.series || []).length : 0,
    live: watch.live ? watch.live.games.map(g => [g.number, g.plies.length, !!g.result]) : [] });
  if (watch.seen.length > 2000) watch.seen.shift();
}

function showSummary(s) {
  if (s.error) { say(s.error); return; }
  say("");
  watch.summary = s;
  watch.updates.summary++;
  $("journal-name").textContent = `${s.path} (${s.game}, ${s.kind})`;
  $("journal-count").textContent = `${s.count} game${s.count === 1 ? "" : "s"} played`;
  $("journal-count").dataset.count = s.count;
  showTables(s);
  showMatchPlots(s);
  $("games").replaceChildren(...s.games.map(g => {
    const li = document.createElement("li");
    li.value = g.number;
    li.textContent = `${g.players[0]} - ${g.players[1]}: ${g.result} (${g.reason}, ${g.plies} plies)`;
    li.dataset.game = g.id;
    li.onclick = () => loadGame(g.id, false);
    if (watch.mode === "replay" && watch.game && watch.game.id === g.id) li.className = "current";
    return li;
  }));
  remember();
  idle();
}

function showLive(msg) {
  watch.live = msg;
  watch.updates.live++;
  const games = msg.games || [];
  $("run-status").textContent = msg.running ? `playing ${games.filter(g => !g.result).map(g => "game " + g.number).join(", ") || "..."}` : (msg.why || "");
  $("run-status").dataset.running = msg.running ? "1" : "0";
  $("time-left").textContent = timeText(msg.time_left);
  if (!games.some(g => g.id === watch.follow)) {
    const next = games.find(g => !g.result) || games[0];
    watch.follow = next ? next.id : null;
  }
  $("live-games").replaceChildren(...(games.length > 1 ? games : []).map(g => {
    const b = document.createElement("button");
    b.textContent = `game ${g.number}${g.result ? " (over)" : ""}`;
    b.className = g.id === watch.follow ? "current" : "";
    b.onclick = () => { watch.follow = g.id; watch.mode = "live"; showLive(watch.live); };
    return b;
  }));
  remember();
  if (watch.mode !== "live") return;
  const game = games.find(g => g.id === watch.follow);
  if (game) showLiveGame(game);
  else idle();
}

// No live game: show the last finished game (once), so the board is never empty after a run.
function idle() {
  if (watch.mode !== "live" || (watch.live && watch.live.games.length) || !watch.summary || !watch.summary.games.length) return;
  const last = watch.summary.games.reduce((a, b) => (b.id > a.id ? b : a));
  if (watch.autoLoaded !== last.id) { watch.autoLoaded = last.id; loadGame(last.id, true); }
}

function showLiveGame(g) {
  watch.game = Object.assign({ kind: "live" }, g);
  watch.ply = g.plies.length;
  const view = Object.assign({}, g.geometry, { pieces: g.pieces });
  drawBoard($("board"), view, { last: g.last, flipped: watch.flipped, colours: g.colours, pv: g.pv_paths }, null);
  const board = $("board");
  board.dataset.game = g.number;
  board.dataset.plies = g.plies.length;
  board.dataset.fen = g.fen;
  board.dataset.live = "1";
  $("ply").max = g.plies.length;
  $("ply").value = g.plies.length;
  $("ply-text").textContent = `ply ${g.plies.length} (live)`;
  $("ply-text").dataset.ply = g.plies.length;
  $("game-title").textContent = `Game ${g.number} (live): ${g.players[0]} (${g.colours[0]}) - ${g.players[1]} (${g.colours[1]})` +
    (g.result ? `: ${g.result_text} (${g.result.reason})` : "");
  $("fen").textContent = g.fen + (g.error ? `  (${g.error})` : "");
  showPanels(g.plies.length);
  showMoves(watch.game, g.plies.length, null);
  showScorePlot(watch.game, g.plies.length);
}

async function loadGame(id, auto) {
  const response = await fetch(`/api/journal/game/${id}`);
  const data = await response.json();
  if (data.error) { say(data.error); return; }
  if (!auto) watch.mode = "replay";
  else if (watch.mode !== "live" || (watch.live && watch.live.games.length)) return;
  watch.game = Object.assign({ kind: "replay" }, data);
  $("ply").max = data.frames.length - 1;
  $("game-title").textContent = `Game ${data.number}: ${data.players[0]} (${data.colours[0]}) - ${data.players[1]} ` +
    `(${data.colours[1]}): ${data.result_text} (${data.reason})`;
  if (watch.summary) showSummary(watch.summary);
  show(auto ? Infinity : 0);
}

function showPanels(upto) {
  const g = watch.game;
  const [top, bottom] = watch.flipped ? [0, 1] : [1, 0];     // the board is seen from the first player
  showPlayer($("player-top"), g, top, upto);
  showPlayer($("player-bottom"), g, bottom, upto);
}

function show(ply) {
  const g = watch.game;
  if (!g) return;
  if (g.kind === "live") { showLiveGame(g); return; }
  watch.ply = Math.max(0, Math.min(ply, g.frames.length - 1));
  const frame = g.frames[watch.ply];
  const view = Object.assign({}, g.geometry, { pieces: frame.pieces });
  drawBoard($("board"), view, { last: frame.last, flipped: watch.flipped, colours: g.colours }, null);
  const board = $("board");
  board.dataset.game = g.number;
  board.dataset.plies = watch.ply;
  board.dataset.fen = frame.fen;
  board.dataset.live = "0";
  $("ply").value = watch.ply;
  $("ply-text").textContent = `ply ${watch.ply} / ${g.frames.length - 1}${frame.move ? ": " + frame.move : ""}`;
  $("ply-text").dataset.ply = watch.ply;
  $("fen").textContent = frame.fen + (frame.error ? `  (${frame.error})` : "");
  showPanels(watch.ply);
  showMoves(g, watch.ply, show);
  showScorePlot(g, watch.ply);
}

function goLive() {
  watch.mode = "live";
  watch.autoLoaded = null;
  if (watch.live) showLive(watch.live);
  if (watch.summary) showSummary(watch.summary);
}

function step(to) {
  if (watch.game && watch.game.kind === "live") return;     // a live game shows its position now
  show(to);
}

$("live").onclick = goLive;
$("first").onclick = () => step(0);
$("prev").onclick = () => step(watch.ply - 1);
$("next").onclick = () => step(watch.ply + 1);
$("last").onclick = () => step(Infinity);
$("ply").oninput = () => step(parseInt($("ply").value, 10));
$("flip").onclick = () => { watch.flipped = !watch.flipped; show(watch.ply); };
document.addEventListener("keydown", e => {
  if (e.key === "ArrowLeft") step(watch.ply - 1);
  if (e.key === "ArrowRight") step(watch.ply + 1);
});
connect();
