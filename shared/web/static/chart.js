// Small hand-drawn SVG charts: a player's rating over their games, and a sparkline of it.
import { svg, title } from "./dom.js";

/** Rating history as a line (the ordinal, mu − 3 sigma), one point per rated game from the unrated start. */
export function ratingChart(history, { width = 640, height = 240 } = {}) {
  const pad = { left: 44, right: 14, top: 14, bottom: 28 };
  const root = svg("svg", { class: "chart rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": "rating history" });
  if (!history.length) {
    root.append(svg("text", { x: width / 2, y: height / 2, "text-anchor": "middle", fill: "#8da0b3", "font-size": 13 },
      "no rated game yet"));
    return root;
  }
  const points = [{ ordinal: 0, mu: 25, sigma: 25 / 3 }, ...history];
  const lows = points.map((p) => p.ordinal);
  const highs = points.map((p) => p.ordinal);
  let lo = Math.floor(Math.min(...lows) - 1);
  let hi = Math.ceil(Math.max(...highs) + 1);
  if (hi - lo < 4) { hi += 2; lo -= 2; }
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(1, points.length - 1);
  const y = (v) => pad.top + ((hi - v) * (height - pad.top - pad.bottom)) / (hi - lo);
  const step = Math.max(1, Math.ceil((hi - lo) / 5));
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
    root.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), stroke: "#1c2936" }),
      svg("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 10, fill: "#8da0b3" }, v));
  }
  const area = `${x(0)},${y(Math.max(lo, 0))} ` + points.map((p, i) => `${x(i)},${y(p.ordinal)}`).join(" ") +
    ` ${x(points.length - 1)},${y(Math.max(lo, 0))}`;
  root.append(svg("polygon", { points: area, fill: "rgba(90,176,255,0.10)" }));
  root.append(svg("polyline", { class: "ordinal", points: points.map((p, i) => `${x(i)},${y(p.ordinal)}`).join(" "),
    fill: "none", stroke: "#5ab0ff", "stroke-width": 2.2 }));
  points.forEach((p, i) => {
    if (!i) return;
    root.append(svg("circle", { class: "game-point", cx: x(i), cy: y(p.ordinal), r: 3.2,
      fill: p.won ? "#3fb950" : "#f85149" }, title(`game ${i}: ${p.won ? "won" : "lost"}, rating ${p.ordinal.toFixed(2)}` +
      ` (mu ${p.mu.toFixed(2)}, sigma ${p.sigma.toFixed(2)}) — ${p.game_id}`)));
  });
  root.append(svg("text", { x: pad.left, y: height - 8, "font-size": 10, fill: "#8da0b3" }, "start"),
    svg("text", { x: width - pad.right, y: height - 8, "text-anchor": "end", "font-size": 10, fill: "#8da0b3" },
      `${history.length} rated games`));
  return root;
}

export function sparkline(history) {
  const root = svg("svg", { class: "spark", viewBox: "0 0 110 26" });
  const values = [0, ...history.map((p) => p.ordinal)];
  if (values.length < 2) return root;
  const lo = Math.min(...values);
  const hi = Math.max(...values, lo + 1);
  const pts = values.map((v, i) => `${(i * 108) / (values.length - 1) + 1},${24 - ((v - lo) * 22) / (hi - lo)}`);
  root.append(svg("polyline", { points: pts.join(" "), fill: "none", stroke: "#5ab0ff", "stroke-width": 1.6 }));
  return root;
}
