// Line plots in SVG for the tournament watcher: a game's scores against the move, the match's
// score and Elo against games played.  No library: axes with a few round ticks, a zero line,
// each series a polyline (data-series, data-count = its points) with an optional band (an
// interval, drawn as a shaded polygon), a legend, and an optional marker at one x.

const SVG = "http://www.w3.org/2000/svg";
const W = 440, LEFT = 46, RIGHT = 10, BOTTOM = 28, BODY = 142;   // BODY: the plotting area's height

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function label(parent, x, y, content, attrs) {
  const t = el("text", Object.assign({ x, y, "font-size": 11, "font-family": "sans-serif", fill: "#444" }, attrs || {}), parent);
  t.textContent = content;
  return t;
}

// Round tick values covering [lo, hi], about `count` of them.
export function ticks(lo, hi, count) {
  const span = hi - lo || 1;
  const raw = span / Math.max(1, count);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map(m => m * mag).find(s => s >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
  return out;
}

// Draw into `svg`: opts = {series: [{name, colour, points: [[x, y]], band: [[x, low, high]]}],
// x: [min, max], y: [min, max], xLabel, yLabel, format(y) for the y ticks, marker: x or null,
// empty: the text shown without points}.
export function drawPlot(svg, opts) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const TOP = 18 + 12 * Math.ceil(opts.series.length / 2), H = TOP + BODY + BOTTOM;   // room for the legend
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const [x0, x1] = opts.x[1] > opts.x[0] ? opts.x : [opts.x[0], opts.x[0] + 1];
  const [y0, y1] = opts.y[1] > opts.y[0] ? opts.y : [opts.y[0] - 1, opts.y[0] + 1];
  const X = x => LEFT + (x - x0) / (x1 - x0) * (W - LEFT - RIGHT);
  const Y = y => TOP + (y1 - Math.max(y0, Math.min(y1, y))) / (y1 - y0) * (H - TOP - BOTTOM);
  el("rect", { x: LEFT, y: TOP, width: W - LEFT - RIGHT, height: H - TOP - BOTTOM, fill: "#fffdf8", stroke: "#bba" }, svg);
  const format = opts.format || (v => String(v));
  for (const v of ticks(y0, y1, 4)) {
    el("line", { x1: LEFT, x2: W - RIGHT, y1: Y(v), y2: Y(v), stroke: v === 0 ? "#888" : "#e4dccb" }, svg);
    label(svg, LEFT - 4, Y(v) + 4, format(v), { "text-anchor": "end" });
  }
  for (const v of ticks(x0, x1, 8).filter(v => Number.isInteger(v))) {
    el("line", { x1: X(v), x2: X(v), y1: H - BOTTOM, y2: H - BOTTOM + 4, stroke: "#888" }, svg);
    label(svg, X(v), H - BOTTOM + 15, String(v), { "text-anchor": "middle" });
  }
  if (opts.xLabel) label(svg, W - RIGHT, H - 3, opts.xLabel, { "text-anchor": "end" });
  if (opts.yLabel) label(svg, LEFT, TOP - 4, opts.yLabel, { "font-size": 10, fill: "#666" });
  let total = 0;
  opts.series.forEach((s, i) => {
    if (s.band && s.band.length) {
      const upper = s.band.map(([x, , hi]) => `${X(x)},${Y(hi)}`);
      const lower = s.band.slice().reverse().map(([x, lo]) => `${X(x)},${Y(lo)}`);
      el("polygon", { points: upper.concat(lower).join(" "), fill: s.colour, opacity: 0.16, class: "band",
        "data-series": s.name }, svg);
    }
    el("polyline", { points: s.points.map(([x, y]) => `${X(x)},${Y(y)}`).join(" "), fill: "none", stroke: s.colour,
      "stroke-width": 2, class: "line", "data-series": s.name, "data-count": s.points.length }, svg);
    for (const [x, y] of s.points.length <= 60 ? s.points : []) {
      el("circle", { cx: X(x), cy: Y(y), r: 2.4, fill: s.colour, class: "dot", "data-series": s.name }, svg);
    }
    total += s.points.length;
    const lx = LEFT + 4 + (i % 2) * (W - LEFT - RIGHT) / 2, ly = 8 + Math.floor(i / 2) * 12;
    el("rect", { x: lx, y: ly - 4, width: 12, height: 4, fill: s.colour }, svg);
    label(svg, lx + 16, ly, s.name);
  });
  svg.dataset.points = total;
  if (!total && opts.empty) label(svg, W / 2, H / 2, opts.empty, { "text-anchor": "middle" });
  if (opts.marker !== null && opts.marker !== undefined) {
    el("line", { x1: X(opts.marker), x2: X(opts.marker), y1: TOP, y2: H - BOTTOM, stroke: "#d4a017",
      "stroke-width": 2, class: "marker" }, svg);
  }
}
