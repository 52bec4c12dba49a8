// What the tournament watcher draws besides the board: the engines' panels (score, depth,
// nodes, PV, clock), the move list numbered by move (`1. 11-15 23-19`), the game's score plot,
// the match's Elo and score plots, the standings and the crosstable with totals.  The data
// are the server's (watch.py, live.py, series.py): nothing here computes a result or a rating.

import { drawPlot } from "./plot.js";

const $ = id => document.getElementById(id);
const COLOURS = ["#c0392b", "#2a6fdb", "#1e9e4a", "#8e44ad", "#d4a017", "#16a085", "#7f5539", "#555"];
const MATE_PAWNS = 10;     // a mate is plotted at this many pawns
const ELO_CAP = 800;       // an infinite Elo bound is plotted at this

function cell(tr, text, tag) {
  const c = document.createElement(tag || "td");
  c.textContent = text;
  tr.appendChild(c);
  return c;
}

export function elo(x) { return typeof x === "string" ? x : x === null || x === undefined ? "inf" : (x >= 0 ? "+" : "") + x.toFixed(1); }

// An engine's score as it said it (its own view): +0.25, -1.10, M3, -M2.
export function scoreText(ply) {
  if (!ply) return "";
  if (ply.mate !== undefined && ply.mate !== null) return (ply.mate < 0 ? "-M" : "M") + Math.abs(ply.mate);
  if (ply.cp === undefined || ply.cp === null) return "";
  return (ply.cp >= 0 ? "+" : "") + (ply.cp / 100).toFixed(2);
}

// The score of ply `i` (played by player `p`) for the first player, in pawns; null if none said.
function firstView(ply, p) {
  let y = null;
  if (ply.mate !== undefined && ply.mate !== null) y = ply.mate > 0 ? MATE_PAWNS : -MATE_PAWNS;
  else if (ply.cp !== undefined && ply.cp !== null) y = Math.max(-MATE_PAWNS, Math.min(MATE_PAWNS, ply.cp / 100));
  return y === null ? null : (p === 0 ? y : -y);
}

// Who played ply i (0-based) of a game whose first move is player `f`'s; its x on the plot (moves).
export const mover = (i, f) => (i + f) % 2;
export const plyX = (i, f) => 1 + (i + f) / 2;

// The moves numbered by move, both sides on one line: [{number, plies: [i or null, i or null]}].
export function moveLines(count, f) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    const number = Math.floor((i + f) / 2) + 1, side = (i + f) % 2;
    if (!lines.length || lines[lines.length - 1].number !== number) lines.push({ number, plies: [null, null] });
    lines[lines.length - 1].plies[side] = i;
  }
  return lines;
}

export function showMoves(game, current, onPly) {
  const box = $("moves");
  box.replaceChildren(...moveLines(game.plies.length, game.first_to_move).map(line => {
    const div = document.createElement("div");
    div.className = "move-line";
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${line.number}.`;
    div.appendChild(num);
    for (const i of line.plies) {
      const span = document.createElement("span");
      span.className = "mv" + (i !== null && i + 1 === current ? " current" : "");
      span.textContent = i !== null ? game.plies[i].move : line.plies[1] !== null ? "..." : "";
      if (i !== null) {
        span.dataset.ply = i + 1;
        span.title = [scoreText(game.plies[i]), game.plies[i].depth ? `depth ${game.plies[i].depth}` : ""].filter(Boolean).join(", ");
        if (onPly) span.onclick = () => onPly(i + 1);
      }
      div.appendChild(span);
    }
    return div;
  }));
  const cur = box.querySelector(".mv.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function clockText(ms) {
  if (ms === null || ms === undefined) return "";
  const s = Math.max(0, ms) / 1000, m = Math.floor(s / 60);
  return `${m}:${(s - 60 * m).toFixed(1).padStart(4, "0")}`;
}

// The panel of player p: name, colour, clock, and its last move's score, depth, nodes, time, PV
// (among the first `upto` plies).
export function showPlayer(box, game, p, upto) {
  let last = null;
  for (let i = Math.min(upto, game.plies.length) - 1; i >= 0; i--) {
    if (mover(i, game.first_to_move) === p) { last = game.plies[i]; break; }
  }
  const toMove = game.kind === "live" && !game.result && mover(game.plies.length, game.first_to_move) === p;
  box.className = "player" + (toMove ? " to-move" : "");
  box.dataset.name = game.players[p];
  box.dataset.score = last ? scoreText(last) : "";
  box.dataset.depth = last && last.depth !== undefined ? last.depth : "";
  const parts = [`<span class="swatch owner${p}"></span><b></b> (${game.colours[p]})`];
  const clock = game.clocks_ms ? clockText(game.clocks_ms[p]) : "";
  box.innerHTML = parts.join("") + (clock ? ` <span class="clock">${clock}</span>` : "") + (toMove ? " <i>thinking</i>" : "") +
    `<div class="info"></div><div class="pv"></div>`;
  box.querySelector("b").textContent = game.players[p];
  const info = [];
  if (last) {
    if (scoreText(last)) info.push(`score ${scoreText(last)}`);
    if (last.depth !== undefined) info.push(`depth ${last.depth}${last.seldepth ? "/" + last.seldepth : ""}`);
    if (last.nodes !== undefined) info.push(`nodes ${last.nodes}`);
    if (last.time_ms !== undefined) info.push(`${(last.time_ms / 1000).toFixed(2)} s`);
  }
  box.querySelector(".info").textContent = info.join("  ");
  box.querySelector(".pv").textContent = last && last.pv ? "PV " + last.pv.join(" ") : "";
}

// The game's score by move: each engine's view on one scale (the first player's), two lines.
export function showScorePlot(game, current) {
  const f = game.first_to_move, series = [[], []];
  game.plies.forEach((ply, i) => {
    const p = mover(i, f), y = firstView(ply, p);
    if (y !== null) series[p].push([plyX(i, f), y]);
  });
  const all = series[0].concat(series[1]).map(([, y]) => Math.abs(y));
  const span = Math.min(MATE_PAWNS, Math.max(1, Math.ceil(Math.max(0, ...all))));
  drawPlot($("score-plot"), {
    series: [0, 1].map(p => ({ name: `${game.players[p]} (${game.colours[p]})`, colour: COLOURS[p], points: series[p] })),
    x: [1, Math.max(2, plyX(Math.max(0, game.plies.length - 1), f))], y: [-span, span],
    xLabel: "move", yLabel: `score for ${game.colours[0]} (${game.players[0]}), cp/100`, format: v => (v > 0 ? "+" : "") + v,
    marker: current > 0 ? plyX(current - 1, f) : null, empty: "no scores yet",
  });
}

function bounded(v, score, low) {
  if (v !== null && v !== undefined) return Math.max(-ELO_CAP, Math.min(ELO_CAP, v));
  if (score === 1 || score === 0) return score === 1 ? ELO_CAP : -ELO_CAP;
  return low ? -ELO_CAP : ELO_CAP;
}

// The match's Elo (with its 95% interval) and score against games played.
export function showMatchPlots(summary) {
  const points = summary.series || [];
  const names = points.length ? Object.keys(points[points.length - 1].lines) : [];
  const against = points.length ? points[points.length - 1].against : "";
  const lines = names.map((name, i) => {
    const mine = points.filter(pt => pt.lines[name]);
    return { name: against ? `${name} against ${against}` : name, colour: COLOURS[i % COLOURS.length],
      points: mine.map(pt => [pt.games, bounded(pt.lines[name].elo, pt.lines[name].score, false)]),
      band: mine.map(pt => [pt.games, bounded(pt.lines[name].elo_low, pt.lines[name].score, true),
        bounded(pt.lines[name].elo_high, pt.lines[name].score, false)]),
      scores: mine.map(pt => [pt.games, 100 * pt.lines[name].score]) };
  });
  const values = lines.flatMap(l => l.band.flatMap(([, lo, hi]) => [Math.abs(lo), Math.abs(hi)]));
  const range = Math.min(ELO_CAP, Math.max(100, Math.ceil(Math.max(0, ...values) / 100) * 100));
  const x = [1, Math.max(2, summary.count || 1)];
  drawPlot($("elo-plot"), { series: lines.map(l => ({ name: l.name, colour: l.colour, points: l.points, band: names.length <= 2 ? l.band : [] })),
    x, y: [-range, range], xLabel: "games", yLabel: "Elo (95% interval shaded)", empty: "no games yet",
    format: v => (v > 0 ? "+" : "") + v });
  drawPlot($("points-plot"), { series: lines.map(l => ({ name: l.name, colour: l.colour, points: l.scores })),
    x, y: [0, 100], xLabel: "games", yLabel: "score %", empty: "no games yet" });
}

export function showTables(s) {
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
  cell(top, "Total", "th");
  cell(top, "Score", "th");
  ct.appendChild(top);
  const rating = Object.fromEntries(s.standings.map(r => [r.name, r]));
  for (const a of s.engines) {
    const tr = document.createElement("tr");
    cell(tr, a, "th");
    for (const b of s.engines) {
      const r = (s.crosstable[a] || {})[b];
      cell(tr, a === b ? "-" : r ? `${r.points}/${r.games}` : "");
    }
    const total = rating[a];
    const c = cell(tr, total ? `${total.points}/${total.games}` : "");
    c.className = "total";
    if (total) { c.dataset.points = total.points; c.dataset.games = total.games; }
    cell(tr, total && total.games ? `${(100 * total.score).toFixed(1)}%` : "");
    ct.appendChild(tr);
  }
}

export function timeText(left) {
  if (!left) return "";
  const s = Math.round(left.seconds), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  const span = h ? `${h} h ${m} min` : m ? `${m} min ${s % 60} s` : `${s} s`;
  return `about ${span} left (${left.games} game${left.games === 1 ? "" : "s"} to play)`;
}
