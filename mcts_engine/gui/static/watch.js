// The tournament watcher: the journal's standings (Elo with its 95% interval), crosstable and
// games from /api/journal (polled, so a running tournament updates), and any game replayed
// move by move on the board (frames from /api/journal/game/<id>, computed by our rules).

import { drawBoard } from "./board.js";

const $ = id => document.getElementById(id);
const watch = { summary: null, game: null, ply: 0, flipped: false, count: -1 };
window.watch = watch;

function cell(tr, text, tag) {
  const c = document.createElement(tag || "td");
  c.textContent = text;
  tr.appendChild(c);
  return c;
}

function elo(x) { return typeof x === "string" ? x : (x >= 0 ? "+" : "") + x.toFixed(1); }

function showSummary(s) {
  watch.summary = s;
  $("journal-name").textContent = `${s.path} (${s.game}, ${s.kind})`;
  $("journal-count").textContent = `${s.count} games`;
  $("journal-count").dataset.count = s.count;
  const st = $("standings");
  st.replaceChildren();
  const head = document.createElement("tr");
  for (const h of ["Engine", "Games", "+/=/-", "Points", "Score", "Elo", "95% interval"]) cell(head, h, "th");
  st.appendChild(head);
  for (const r of s.standings) {
    const tr = document.createElement("tr");
    [r.name, r.games, `${r.wins}/${r.draws}/${r.losses}`, r.points, `${(100 * r.score).toFixed(1)}%`, elo(r.elo),
      `[${elo(r.elo_low)}, ${elo(r.elo_high)}]`].forEach(v => cell(tr, String(v)));
    st.appendChild(tr);
  }
  const ct = $("crosstable");
  ct.replaceChildren();
  const top = document.createElement("tr");
  cell(top, "", "th");
  s.engines.forEach(n => cell(top, n, "th"));
  ct.appendChild(top);
  for (const a of s.engines) {
    const tr = document.createElement("tr");
    cell(tr, a, "th");
    for (const b of s.engines) {
      const r = (s.crosstable[a] || {})[b];
      cell(tr, a === b ? "-" : r ? `${r.points}/${r.games}` : "");
    }
    ct.appendChild(tr);
  }
  const games = $("games");
  games.replaceChildren(...s.games.map(g => {
    const li = document.createElement("li");
    const result = g.score_first === null ? "*" : g.score_first === 1 ? "1-0" : g.score_first === 0 ? "0-1" : "1/2";
    li.textContent = `${g.players[0]} - ${g.players[1]}  ${result}  (${g.plies} plies, ${g.reason})`;
    li.dataset.game = g.id;
    li.onclick = () => loadGame(g.id);
    if (watch.game && watch.game.id === g.id) li.className = "current";
    return li;
  }));
}

async function poll() {
  try {
    const response = await fetch("/api/journal");
    const data = await response.json();
    if (data.error) $("message").textContent = data.error;
    else {
      $("message").textContent = "";
      if (data.count !== watch.count) { watch.count = data.count; showSummary(data); }
    }
  } catch (err) {
    $("message").textContent = "the server does not answer: retrying";
  }
  setTimeout(poll, 2000);
}

async function loadGame(id) {
  const response = await fetch(`/api/journal/game/${id}`);
  const data = await response.json();
  if (data.error) { $("message").textContent = data.error; return; }
  watch.game = data;
  $("ply").max = data.frames.length - 1;
  const result = data.score_first === null ? "*" : data.score_first === 1 ? "1-0" : data.score_first === 0 ? "0-1" : "1/2-1/2";
  $("game-title").textContent = `game ${id}: ${data.players[0]} (${data.colours[0]}) - ${data.players[1]} (${data.colours[1]}) ${result} ${data.reason}`;
  $("moves").replaceChildren(...data.frames.slice(1).map((f, i) => {
    const li = document.createElement("li");
    li.textContent = f.move;
    li.onclick = () => show(i + 1);
    return li;
  }));
  if (watch.summary) showSummary(watch.summary);
  show(0);
}

function show(ply) {
  const g = watch.game;
  if (!g) return;
  watch.ply = Math.max(0, Math.min(ply, g.frames.length - 1));
  const frame = g.frames[watch.ply];
  const view = Object.assign({}, g.geometry, { pieces: frame.pieces });
  drawBoard($("board"), view, { last: frame.last, flipped: watch.flipped, colours: g.colours }, null);
  $("ply").value = watch.ply;
  $("ply-text").textContent = `ply ${watch.ply} / ${g.frames.length - 1}${frame.move ? ": " + frame.move : ""}`;
  $("ply-text").dataset.ply = watch.ply;
  $("fen").textContent = frame.fen + (frame.error ? `  (${frame.error})` : "");
}

$("first").onclick = () => show(0);
$("prev").onclick = () => show(watch.ply - 1);
$("next").onclick = () => show(watch.ply + 1);
$("last").onclick = () => show(Infinity);
$("ply").oninput = () => show(parseInt($("ply").value, 10));
$("flip").onclick = () => { watch.flipped = !watch.flipped; show(watch.ply); };
document.addEventListener("keydown", e => {
  if (e.key === "ArrowLeft") show(watch.ply - 1);
  if (e.key === "ArrowRight") show(watch.ply + 1);
});
poll();
