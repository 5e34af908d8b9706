// Phantom's Vortex drawn from its public view (vortex.View): the three rings of stepping stones, the spirals, the
// Sentinels, the headstones with the monsters standing on them, and every phantom on its stone.
import { el, svg, title, seatColour, LETTERS } from "./dom.js";

const C = 320;
const RINGS = { outer: 270, courtyard: 193, temple: 116 };
const STONE_R = { outer: 16, courtyard: 15.5, temple: 15 };
const REGION_TITLES = { outer: "Outer Grounds", courtyard: "Courtyard", temple: "Temple" };
const MONSTER = {
  "skeletal-hand": { letter: "H", name: "Skeletal Hand", cost: 1 },
  "skeletal-warrior": { letter: "W", name: "Skeletal Warrior", cost: 2 },
  "thing-from-beyond": { letter: "T", name: "Thing From Beyond", cost: 3 },
};
const STONE_STYLE = {
  plain: { fill: "#333d4a", stroke: "#556172", label: "a stepping stone" },
  coins2: { fill: "#5b470e", stroke: "#e3b341", label: "2 coins" },
  coins3: { fill: "#5b470e", stroke: "#e3b341", label: "3 coins" },
  shovel: { fill: "#48321f", stroke: "#b07a4a", label: "buried coins: dig (1-3 finds 3)" },
  green: { fill: "#17432a", stroke: "#3fb950", label: "green spiral (a starting stone)" },
  purple: { fill: "#35204f", stroke: "#bc8cff", label: "purple spiral (3 coins)" },
  orange: { fill: "#552f10", stroke: "#ff8c42", label: "orange spiral" },
  black: { fill: "#07030c", stroke: "#bc8cff", label: "the black spiral: the Vortex" },
};
export const PHASES = {
  roll: "to roll", direction: "to choose a direction", vortex: "to try for the Vortex", spiral: "to choose a spiral",
  magic: "to place or move a monster", over: "race over",
};

const angle = (i, n) => (-90 + (i * 360) / n) * (Math.PI / 180);
const at = (r, a) => [C + r * Math.cos(a), C + r * Math.sin(a)];

function spiral(cx, cy, size, colour, turns = 2.2) {
  const points = [];
  for (let t = 0; t <= turns * 2 * Math.PI; t += 0.3) {
    const r = (size * t) / (turns * 2 * Math.PI);
    points.push(`${(cx + r * Math.cos(t)).toFixed(1)},${(cy + r * Math.sin(t)).toFixed(1)}`);
  }
  return svg("polyline", { points: points.join(" "), fill: "none", stroke: colour, "stroke-width": 1.8,
    "stroke-linecap": "round" });
}

function stone(region, index, kind, n, sentinel) {
  const [x, y] = at(RINGS[region], angle(index, n));
  const style = STONE_STYLE[kind] || STONE_STYLE.plain;
  const r = STONE_R[region];
  const g = svg("g", { class: `stone ${kind}`, dataset: { region, stone: index } },
    title(`${REGION_TITLES[region]} ${index}: ${style.label}${sentinel ? "; a Sentinel stands beside it" : ""}`),
    svg("circle", { cx: x, cy: y, r, fill: style.fill, stroke: style.stroke, "stroke-width": kind === "black" ? 3 : 1.6 }));
  if (kind === "coins2" || kind === "coins3") {
    g.append(svg("text", { x, y: y + 4.5, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#f2cc60" },
      kind === "coins2" ? "2" : "3"));
  } else if (kind === "shovel") {
    g.append(svg("path", { d: `M${x - 5} ${y - 7} L${x + 3} ${y + 3} M${x + 1} ${y + 1} l5 -1 l1 5 l-5 1 z`,
      stroke: "#e0a370", "stroke-width": 1.8, fill: "#e0a370", "stroke-linejoin": "round" }));
  } else if (kind === "green" || kind === "purple" || kind === "orange") {
    g.append(spiral(x, y, r - 4, style.stroke));
  } else if (kind === "black") {
    g.append(spiral(x, y, r - 2, "#d2b6ff", 3));
  }
  return g;
}

function sentinel(region, index, n) {
  const [x, y] = at(RINGS[region] - 30, angle(index, n));
  return svg("g", { class: "sentinel", dataset: { region, stone: index } },
    title(`Sentinel of the ${REGION_TITLES[region]} beside stone ${index}: with 6 coins or more, battle it (1-3 wins)`),
    svg("path", { d: `M${x - 8} ${y + 9} L${x - 8} ${y - 4} L${x} ${y - 11} L${x + 8} ${y - 4} L${x + 8} ${y + 9} Z`,
      fill: "#9aa7b6", stroke: "#dfe6ee", "stroke-width": 1.2 }),
    svg("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 10, "font-weight": 800, fill: "#1b2430" }, "S"));
}

function headstone(region, h, n, owner) {
  const [a, b] = h.between;
  const mid = (angle(a, n) + angle(b === 0 && a === n - 1 ? n : b, n)) / 2;
  const [x, y] = at(RINGS[region] + 27, mid);
  const g = svg("g", { class: "headstone", dataset: { headstone: h.id } },
    svg("path", { d: `M${x - 8} ${y + 10} L${x - 8} ${y - 3} A8 8 0 0 1 ${x + 8} ${y - 3} L${x + 8} ${y + 10} Z`,
      fill: "#4b5563", stroke: "#9aa3ad", "stroke-width": 1.1 }));
  if (owner) {
    const info = MONSTER[owner.monster] || { letter: "?", name: owner.monster, cost: "?" };
    g.append(svg("g", { class: "monster", dataset: { seat: owner.seat, monster: owner.monster } },
      title(`${info.name} of ${LETTERS[owner.seat]} on headstone ${h.id}: whoever lands beside it battles it (loses ${info.cost})`),
      svg("circle", { cx: x, cy: y + 2, r: 11, fill: "#111", stroke: seatColour(owner.seat), "stroke-width": 3 }),
      svg("text", { x, y: y + 6.5, "text-anchor": "middle", "font-size": 12, "font-weight": 800,
        fill: seatColour(owner.seat) }, info.letter)));
  } else {
    g.append(title(`Headstone ${h.id} (between stones ${a} and ${b}): empty`),
      svg("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 7.5, fill: "#d1d5db" }, h.id));
  }
  return g;
}

function ghost(x, y, seat, active, label) {
  const colour = seatColour(seat);
  const body = `M${x - 10} ${y + 11} L${x - 10} ${y - 2} A10 10 0 0 1 ${x + 10} ${y - 2} L${x + 10} ${y + 11}` +
    ` l-3.4 -4 l-3.3 4 l-3.3 -4 l-3.3 4 l-3.3 -4 Z`;
  return svg("g", { class: "phantom", dataset: { seat } },
    title(label),
    active ? svg("circle", { cx: x, cy: y + 1, r: 17, fill: "none", stroke: colour, "stroke-width": 2,
      "stroke-dasharray": "3 3", opacity: 0.9 }) : null,
    svg("path", { d: body, fill: colour, stroke: "#fff", "stroke-width": 1.4 }),
    svg("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 11, "font-weight": 800, fill: "#0b1118" },
      LETTERS[seat]));
}

/** The board as an SVG element. `names[seat]` labels each phantom. */
export function drawVortex(view, names = []) {
  const board = view.board;
  const root = svg("svg", { class: "board vortex", viewBox: "0 0 640 640", role: "img",
    "aria-label": "Phantom's Vortex board" });
  root.append(svg("defs", {},
    svg("radialGradient", { id: "vortex-bg" },
      svg("stop", { offset: "0%", "stop-color": "#2a1746" }), svg("stop", { offset: "100%", "stop-color": "#0b1118" }))));
  root.append(svg("circle", { cx: C, cy: C, r: 312, fill: "#0f1a14", stroke: "#1f3325" }));
  root.append(svg("circle", { cx: C, cy: C, r: 232, fill: "#141a22", stroke: "#2a3442" }));
  root.append(svg("circle", { cx: C, cy: C, r: 154, fill: "url(#vortex-bg)", stroke: "#3b2a57" }));
  for (const region of ["outer", "courtyard", "temple"]) {
    root.append(svg("circle", { cx: C, cy: C, r: RINGS[region], fill: "none", stroke: "#3a4656", "stroke-width": 2,
      "stroke-dasharray": region === "temple" ? "2 5" : "none" }));
  }
  const labels = { outer: 300, courtyard: 221, temple: 143 };
  for (const [region, r] of Object.entries(labels)) {
    root.append(svg("text", { x: C, y: C - r + 4, "text-anchor": "middle", "font-size": 10, fill: "#7d8da0",
      "letter-spacing": 2 }, REGION_TITLES[region].toUpperCase()));
  }
  const monsters = new Map((view.phantoms || []).filter((p) => p.headstone).map((p) => [p.headstone, p]));
  for (const region of ["outer", "courtyard", "temple"]) {
    const ring = board[region];
    const n = ring.stones.length;
    ring.stones.forEach((kind, i) => root.append(stone(region, i, kind, n, (ring.sentinels || []).includes(i))));
    (ring.sentinels || []).forEach((i) => root.append(sentinel(region, i, n)));
    (ring.headstones || []).forEach((h) => root.append(headstone(region, h, n, monsters.get(h.id))));
  }
  const together = new Map();
  for (const p of view.phantoms || []) {
    const key = `${p.region}:${p.stone}`;
    together.set(key, [...(together.get(key) || []), p]);
  }
  for (const group of together.values()) {
    group.forEach((p, k) => {
      const n = board[p.region].stones.length;
      const a = angle(p.stone, n);
      const spread = (k - (group.length - 1) / 2) * 17;
      const [x0, y0] = at(RINGS[p.region], a);
      const x = x0 - Math.sin(a) * spread;
      const y = y0 + Math.cos(a) * spread - 3;
      const name = names[p.seat] || `seat ${p.seat + 1}`;
      root.append(ghost(x, y, p.seat, view.phase !== "over" && view.turn === p.seat,
        `${LETTERS[p.seat]} ${name}: ${REGION_TITLES[p.region]} stone ${p.stone}, ${p.coins} coins`));
    });
  }
  const turn = view.phase === "over" ? "" : `${LETTERS[view.turn]} ${names[view.turn] || ""}`;
  root.append(svg("text", { x: C, y: C - 18, "text-anchor": "middle", "font-size": 12, fill: "#a89bc7",
    "letter-spacing": 3 }, "THE VORTEX"));
  root.append(svg("text", { x: C, y: C + 4, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: "#e6edf3" },
    view.phase === "over" ? "race over" : `round ${view.round}${view.max_rounds ? ` / ${view.max_rounds}` : ""}`));
  root.append(svg("text", { x: C, y: C + 24, "text-anchor": "middle", "font-size": 12, fill: "#c9d1d9" },
    turn ? `${turn.slice(0, 24)} ${PHASES[view.phase] || view.phase}` : ""));
  if (view.roll !== null && view.roll !== undefined) {
    root.append(svg("g", { class: "die" },
      svg("rect", { x: C - 13, y: C + 34, width: 26, height: 26, rx: 5, fill: "#f0f3f6" }),
      svg("text", { x: C, y: C + 53, "text-anchor": "middle", "font-size": 16, "font-weight": 800, fill: "#111" },
        view.roll)));
  }
  return root;
}

/** The phantoms as a short table: where each stands, its coins, its monsters (on the board, in hand, in limbo). */
export function vortexPeople(view, names = []) {
  const rows = (view.phantoms || []).map((p) => {
    const winner = (view.winners || []).includes(p.seat);
    const letters = (list) => [...(list || [])].map((m) => MONSTER[m].letter).join(" ") || "–";
    const monsters = el("span", { class: "monsters" },
      p.monster ? el("b", {}, `${MONSTER[p.monster].letter} on ${p.headstone}`) : el("span", { class: "muted" }, "none out"),
      el("span", { class: "muted" }, ` · hand ${letters(p.hand)} · limbo ${letters(p.limbo)}`));
    return el("tr", { class: winner ? "winner" : "", dataset: { seat: p.seat } },
      el("td", {}, el("span", { class: "player" }, el("span", { class: "seat-dot", style: `background:${seatColour(p.seat)}` }),
        `${LETTERS[p.seat]} ${names[p.seat] || `seat ${p.seat + 1}`}${winner ? " ★" : ""}`)),
      el("td", {}, `${REGION_TITLES[p.region]} ${p.stone}`),
      el("td", {}, coinTrack(p.coins)),
      el("td", { class: "wrap" }, monsters));
  });
  return el("table", { class: "data compact" },
    el("thead", {}, el("tr", {}, el("th", {}, "phantom"), el("th", {}, "stone"), el("th", {}, "coins"),
      el("th", {}, "monsters (H hand, W warrior, T thing)"))),
    el("tbody", {}, rows));
}

function coinTrack(coins) {
  const dots = svg("svg", { width: 56, height: 8, viewBox: "0 0 74 10", class: "coin-track" },
    title(`${coins} coins (at most 9)`),
    ...Array.from({ length: 9 }, (_, i) => svg("circle", { cx: 4 + i * 8, cy: 5, r: 3.2,
      fill: i < coins ? "#e3b341" : "none", stroke: "#6b5a26" })));
  return el("span", { style: "display:inline-flex;gap:6px;align-items:center" }, dots, String(coins));
}

export function vortexStatus(view, names = []) {
  if (view.phase === "over") {
    const won = (view.winners || []).map((s) => `${LETTERS[s]} ${names[s] || `seat ${s + 1}`}`).join(", ");
    return `Race over after ${view.round} rounds — won by ${won || "nobody"}`;
  }
  const rolled = view.roll !== null && view.roll !== undefined ? ` (rolled ${view.roll})` : "";
  return `Round ${view.round}${view.max_rounds ? ` of ${view.max_rounds}` : ""} · ${LETTERS[view.turn]} ` +
    `${names[view.turn] || ""} ${PHASES[view.phase] || view.phase}${rolled}`;
}

export const MONSTERS = MONSTER;
