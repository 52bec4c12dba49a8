// Draws any game's board as SVG from the rules' BoardView (State.board_view()): cells, lines,
// edge names, pieces (men, kings, stones, Rithmomachia shapes with values, pyramids with their
// components), and the marks of play: last move, the move being clicked, pieces to be captured,
// principal-variation arrows.  No game is known here: only points, coordinates and kinds.

const SVG = "http://www.w3.org/2000/svg";
const UNIT = 56;            // pixels per board unit
const MARGIN = 0.7;         // board units around the board, for the edge names

const FILL = { W: "#f6f2e6", B: "#26221f", G: "#fbfbfb", F: "#d9772b" };
const STROKE = { W: "#5a5045", B: "#000000", G: "#66625c", F: "#7a3a0a" };
const INK = { W: "#26221f", B: "#f6f2e6", G: "#26221f", F: "#ffffff" };

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, size, attrs) {
  const t = el("text", Object.assign({ x, y, "font-size": size, "text-anchor": "middle",
    "dominant-baseline": "central", "font-family": "sans-serif" }, attrs || {}), parent);
  t.textContent = content;
  return t;
}

// A transform from board units (x right, y up) to SVG pixels; flipped = seen from the other side.
export function projector(view, flipped) {
  const W = view.width, H = view.height;
  return (x, y) => {
    const bx = flipped ? W - x : x, by = flipped ? y : H - y;
    return [(bx + MARGIN) * UNIT, (by + MARGIN) * UNIT];
  };
}

function drawPiece(g, piece, cx, cy, r, colour) {
  const fill = FILL[colour] || "#999", stroke = STROKE[colour] || "#333", ink = INK[colour] || "#000";
  const common = { fill, stroke, "stroke-width": Math.max(1.5, r * 0.08) };
  const k = piece.kind;
  if (k === "triangle") {
    el("polygon", Object.assign({ points: `${cx},${cy - r} ${cx + r * 0.95},${cy + r * 0.75} ${cx - r * 0.95},${cy + r * 0.75}` }, common), g);
  } else if (k === "square") {
    el("rect", Object.assign({ x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7 }, common), g);
  } else if (k === "pyramid") {
    el("polygon", Object.assign({ points: `${cx},${cy - r} ${cx + r},${cy - r * 0.1} ${cx + r * 0.8},${cy + r} ${cx - r * 0.8},${cy + r} ${cx - r},${cy - r * 0.1}` }, common), g);
  } else {
    el("circle", Object.assign({ cx, cy, r }, common), g);
  }
  const label = { king: "K", prince: "P", runner: "\u2191", left: "\u2192", right: "\u2190" }[k];
  if (k === "king") {
    el("circle", { cx, cy, r: r * 0.62, fill: "none", stroke: ink, "stroke-width": Math.max(1.2, r * 0.07) }, g);
    text(g, cx, cy + 1, "K", r * 0.75, { fill: ink, "font-weight": "bold" });
  } else if (label) {
    text(g, cx, cy + 1, label, r * 0.95, { fill: ink, "font-weight": "bold" });
  } else if (piece.label) {
    const size = r * (piece.label.length > 2 ? 0.62 : 0.8);
    text(g, cx, cy + (k === "triangle" ? r * 0.2 : 1) - (k === "pyramid" ? r * 0.38 : 0), piece.label,
      k === "pyramid" ? r * 0.55 : size,
      { fill: ink, "font-weight": "bold" });
    if (k === "pyramid" && piece.parts.length) {   // the components, two rows; a lost one as a dot
      const parts = piece.parts.map(p => p.startsWith("x") ? "\u00b7" : p.slice(1));
      const half = Math.ceil(parts.length / 2);
      text(g, cx, cy + r * 0.36, parts.slice(0, half).join(" "), r * 0.34, { fill: ink });
      text(g, cx, cy + r * 0.72, parts.slice(half).join(" "), r * 0.34, { fill: ink });
    }
  }
  const title = el("title", {}, g);
  title.textContent = `${piece.point}: ${k}${piece.label ? " " + piece.label : ""}${piece.parts.length ? " (" + piece.parts.join("+") + ")" : ""}`;
}

function arrow(layer, pts, colour, width, opacity, head) {
  if (pts.length < 2) return;
  el("polyline", { points: pts.map(p => p.join(",")).join(" "), fill: "none", stroke: colour,
    "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round", opacity,
    "marker-end": head ? `url(#${head})` : "" }, layer);
}

// Draw `view` into the <svg> element `svg`.  `marks`: {last, selection, pv: [paths], flipped, colours}.
// `onPoint(name)` is called for a click on a point.  Returns nothing; the svg is rebuilt.
export function drawBoard(svg, view, marks, onPoint) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const flipped = !!marks.flipped;
  const P = projector(view, flipped);
  const Wpx = (view.width + 2 * MARGIN) * UNIT, Hpx = (view.height + 2 * MARGIN) * UNIT;
  svg.setAttribute("viewBox", `0 0 ${Wpx} ${Hpx}`);
  svg.setAttribute("data-width", view.width);
  if (!view.points.length) {
    text(svg, Wpx / 2, Hpx / 2, "no drawing for this game: pick moves from the list", 16);
    return;
  }
  const defs = el("defs", {}, svg);
  for (const [id, colour] of [["head-last", "#d4a017"], ["head-pv", "#2a6fdb"], ["head-sel", "#1e9e4a"]]) {
    const m = el("marker", { id, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: colour }, m);
  }
  const where = {};
  for (const p of view.points) where[p.name] = P(p.x, p.y);
  const cells = view.cells.length > 0;
  // the board
  const board = el("g", { class: "board" }, svg);
  const [x0, y0] = P(flipped ? view.width : 0, flipped ? 0 : view.height);
  el("rect", { x: x0 - 0.08 * UNIT, y: y0 - 0.08 * UNIT, width: view.width * UNIT + 0.16 * UNIT,
    height: view.height * UNIT + 0.16 * UNIT, fill: cells ? "#5b3b24" : "#e8d3a8", rx: 4 }, board);
  const shades = { dark: "#9a6b43", light: "#ecd8b0", plain: "#e6cf9c" };
  for (const c of view.cells) {
    const [a, b] = P(c.x + (flipped ? 1 : 0), c.y + (flipped ? 0 : 1));
    el("rect", { x: a, y: b, width: UNIT, height: UNIT, fill: shades[c.shade] || "#ccc",
      stroke: c.shade === "plain" ? "#a88a5a" : "none", "stroke-width": 0.8 }, board);
  }
  for (const [a, b] of view.lines) {
    const [xa, ya] = where[a], [xb, yb] = where[b];
    el("line", { x1: xa, y1: ya, x2: xb, y2: yb, stroke: "#5b3b24", "stroke-width": 2 }, board);
  }
  const labelSize = Math.min(16, UNIT * 0.3);
  for (const [name, x] of view.files) {
    const [px] = P(x, 0);
    text(board, px, (view.height + MARGIN * 1.5) * UNIT, name, labelSize, { fill: "#444" });
  }
  for (const [name, y] of view.ranks) {
    const [, py] = P(0, y);
    text(board, MARGIN * 0.5 * UNIT, py, name, labelSize, { fill: "#444" });
  }
  // last move and selection under the pieces
  const under = el("g", { class: "marks" }, svg);
  const r = view.piece_size * UNIT;
  if (marks.last && marks.last.points.length) {
    for (const name of marks.last.points) {
      if (where[name]) el("circle", { cx: where[name][0], cy: where[name][1], r: r * 1.12, fill: "#f5d04a", opacity: 0.55, class: "last" }, under);
    }
  }
  const sel = marks.selection || { clicked: [], targets: [], captures: [], choices: [] };
  for (const name of sel.clicked) {
    if (where[name]) el("circle", { cx: where[name][0], cy: where[name][1], r: r * 1.15, fill: "none", stroke: "#1e9e4a", "stroke-width": 4, class: "clicked" }, under);
  }
  // pieces
  const pieces = el("g", { class: "pieces" }, svg);
  const colours = marks.colours || ["W", "B"];
  for (const piece of view.pieces) {
    const [cx, cy] = where[piece.point];
    const g = el("g", { class: "piece", "data-piece": piece.point, "data-owner": piece.owner, "data-kind": piece.kind }, pieces);
    drawPiece(g, piece, cx, cy, r, colours[piece.owner]);
  }
  // marks above the pieces: targets, captures, choices, arrows
  const over = el("g", { class: "over" }, svg);
  if (view.point_labels) {   // numbered squares: the number in the cell's corner, above the pieces
    for (const p of view.points) {
      const [px, py] = where[p.name];
      text(over, px - UNIT * 0.47, py - UNIT * 0.38, p.name, UNIT * 0.19, { fill: "#f3e3c3", "text-anchor": "start" });
    }
  }
  arrow(over, (marks.last && marks.last.points || []).map(n => where[n]).filter(Boolean), "#d4a017", 5, 0.75, "head-last");
  (marks.pv || []).forEach((path, i) => {
    arrow(over, path.points.map(n => where[n]).filter(Boolean), "#2a6fdb", Math.max(3, 9 - 2 * i), Math.max(0.25, 0.85 - 0.18 * i), "head-pv");
  });
  arrow(over, sel.clicked.map(n => where[n]).filter(Boolean), "#1e9e4a", 6, 0.8, "");
  for (const name of sel.targets) {
    if (where[name]) el("circle", { cx: where[name][0], cy: where[name][1], r: r * 0.3, fill: "#1e9e4a", opacity: 0.8, class: "target", "data-target": name }, over);
  }
  for (const name of sel.captures) {
    if (!where[name]) continue;
    const [cx, cy] = where[name], d = r * 0.55;
    el("path", { d: `M ${cx - d} ${cy - d} L ${cx + d} ${cy + d} M ${cx + d} ${cy - d} L ${cx - d} ${cy + d}`, stroke: "#d62828", "stroke-width": 5, class: "capture", "data-capture": name }, over);
  }
  for (const name of sel.choices) {
    if (where[name]) el("circle", { cx: where[name][0], cy: where[name][1], r: r * 1.1, fill: "none", stroke: "#e67e22", "stroke-width": 4, "stroke-dasharray": "6 4", class: "choice", "data-choice": name }, over);
  }
  if (marks.last && marks.last.captures) {
    for (const name of marks.last.captures) {
      if (where[name]) el("circle", { cx: where[name][0], cy: where[name][1], r: r * 0.25, fill: "#d62828", opacity: 0.5, class: "taken" }, over);
    }
  }
  // click targets on top of everything
  const hits = el("g", { class: "hits" }, svg);
  const hitR = Math.max(r, UNIT * 0.48);
  for (const p of view.points) {
    const [cx, cy] = where[p.name];
    const c = el("circle", { cx, cy, r: hitR, fill: "transparent", "data-point": p.name, class: "hit" }, hits);
    c.addEventListener("click", () => onPoint && onPoint(p.name));
  }
}
