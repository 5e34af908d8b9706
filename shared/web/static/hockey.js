// Hockey Championship drawn from its public view (hockeydice.HockeyView): the scoreboard (score, period, shots,
// Power Chip, penalties), the rink with the puck in its section, and the dice on the table.
import { svg, title, seatColour } from "./dom.js";

const SECTIONS = ["neutral", "point", "circle", "slot"];
const MODIFIER = { neutral: null, point: -1, circle: 0, slot: 1 };
const TEAM = ["HOME", "AWAY"];
export const PLAYS = {
  "six-sticks": "six sticks: a goal", advance: "advance the puck", shoot: "shoot on goal",
  "saucer-pass": "saucer pass (2 sections)", "push-back-1": "push back 1 section", "push-back-2": "clean puck (push back 2)",
  "free-reroll": "free reroll", penalty: "penalty on the other team",
};
const PHASE = {
  roll: "to roll", "contest-chip": "to use or keep the Power Chip", play: "to choose a play",
  "shot-chip": "to use or keep the Power Chip on the shot", shootout: "to shoot (shoot-out)", over: "final",
};
const X0 = 40;
const ZONE = 80;
const RINK_TOP = 96;
const RINK_H = 190;

const zoneX = (position) => X0 + (position + 4) * ZONE;

function face(kind, x, y, size = 26, highlight = false) {
  const g = svg("g", { class: `die ${kind}` }, title(kind === "penalty" ? "referee (penalty)" : kind),
    svg("rect", { x, y, width: size, height: size, rx: 5, fill: highlight ? "#fff7d6" : "#f3f6f9",
      stroke: highlight ? "#e3b341" : "#9aa7b6", "stroke-width": highlight ? 2 : 1 }));
  const cx = x + size / 2;
  const cy = y + size / 2;
  if (kind === "stick") {
    g.append(svg("path", { d: `M${cx - 2} ${y + 4} L${cx + 1} ${y + size - 8} L${cx + 8} ${y + size - 6}`,
      fill: "none", stroke: "#6b3f1d", "stroke-width": 3, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  } else if (kind === "puck") {
    g.append(svg("ellipse", { cx, cy: cy + 1, rx: 8, ry: 5, fill: "#111" }),
      svg("ellipse", { cx, cy: cy - 1, rx: 8, ry: 4, fill: "#3a3a3a" }));
  } else if (kind === "check") {
    g.append(svg("path", { d: `M${cx - 8} ${cy - 6} l6 6 l-6 6 M${cx} ${cy - 6} l6 6 l-6 6`, fill: "none",
      stroke: "#1f6feb", "stroke-width": 2.6, "stroke-linecap": "round" }));
  } else if (kind === "penalty") {
    for (let i = 0; i < 4; i++) {
      g.append(svg("rect", { x: x + 5 + i * 4.2, y: y + 5, width: 2.2, height: size - 10, fill: "#111" }));
    }
  } else {
    g.append(svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 800,
      fill: "#111" }, kind));
  }
  return g;
}

function goalieDie(value, x, y, size = 30) {
  return svg("g", { class: "die goalie" }, title(value === "mask" ? "goaltender: mask (an automatic save)" :
    `goaltender: ${value}`),
  svg("rect", { x, y, width: size, height: size, rx: 5, fill: "#c62828", stroke: "#ffb4a9" }),
  svg("text", { x: x + size / 2, y: y + size / 2 + 5, "text-anchor": "middle", "font-size": value === "mask" ? 10 : 16,
    "font-weight": 800, fill: "#fff" }, value === "mask" ? "MASK" : value));
}

function chip(x, y, team) {
  return svg("g", { class: "power-chip", dataset: { team } }, title(`the Power Chip: held by ${TEAM[team]}`),
    svg("circle", { cx: x, cy: y, r: 13, fill: "#e3b341", stroke: "#fff3c4", "stroke-width": 2 }),
    svg("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 10, "font-weight": 800, fill: "#3b2a00" }, "PC"));
}

function pips(x, y, total, done, colour) {
  const g = svg("g", { class: "pips" });
  for (let i = 0; i < total; i++) {
    g.append(svg("circle", { cx: x + i * 14, cy: y, r: 4.5, fill: i < done ? colour : "none", stroke: colour }));
  }
  return g;
}

function scoreboard(view, names) {
  const g = svg("g", { class: "scoreboard" });
  g.append(svg("rect", { x: 0, y: 0, width: 800, height: 80, rx: 10, fill: "#0d141c", stroke: "#243344" }));
  for (const team of [0, 1]) {
    const left = team === 0;
    const x = left ? 24 : 776;
    const anchor = left ? "start" : "end";
    g.append(svg("rect", { x: left ? 0 : 792, y: 0, width: 8, height: 80, fill: seatColour(team), rx: 3 }));
    g.append(svg("text", { x, y: 28, "text-anchor": anchor, "font-size": 12, fill: "#8da0b3", "letter-spacing": 2 },
      `${TEAM[team]}${view.offense && view.offense.length === 1 && view.offense[0] === team ? " · on offense" : ""}`));
    g.append(svg("text", { x, y: 56, "text-anchor": anchor, "font-size": 19, "font-weight": 700, fill: "#e6edf3",
      class: "team-name" }, (names[team] || `team ${team + 1}`).slice(0, 22)));
    g.append(svg("text", { x: left ? 330 : 470, y: 58, "text-anchor": "middle", "font-size": 44, "font-weight": 800,
      fill: view.winner === team ? "#3fb950" : "#ffffff", class: "score", dataset: { team } }, view.score[team]));
    if (view.penalties[team]) {
      g.append(svg("text", { x, y: 73, "text-anchor": anchor, "font-size": 11, fill: "#f85149" },
        `penalty: rolls ${view.dice[team]} dice`));
    }
    if (view.power_chip === team) g.append(chip(left ? 272 : 528, 42, team));
  }
  const stage = view.stage === "regulation" ? `PERIOD ${view.period}` : view.stage === "overtime" ? "OVERTIME" : "SHOOT-OUT";
  g.append(svg("text", { x: 400, y: 24, "text-anchor": "middle", "font-size": 12, fill: "#e3b341", "letter-spacing": 2,
    class: "period" }, view.phase === "over" ? "FINAL" : stage));
  g.append(svg("text", { x: 400, y: 48, "text-anchor": "middle", "font-size": 12, fill: "#8da0b3" },
    view.stage === "shootout" ? `shots ${view.shootout_shots[0]}–${view.shootout_shots[1]}` :
      `shots ${view.shots} of ${view.shots_in_period}`));
  if (view.stage !== "shootout") {
    const total = view.shots_in_period;
    g.append(pips(400 - ((total - 1) * 14) / 2, 64, total, view.shots, "#5ab0ff"));
  }
  return g;
}

function rink(view) {
  const g = svg("g", { class: "rink" });
  g.append(svg("rect", { x: X0 - 30, y: RINK_TOP, width: 9 * ZONE + 60, height: RINK_H, rx: 70, fill: "#e8eff5",
    stroke: "#b9c7d4", "stroke-width": 3 }));
  for (let p = -4; p <= 4; p++) {
    const name = p === 0 ? "centre" : SECTIONS[Math.abs(p) - 1];
    const attackers = p > 0 ? 0 : p < 0 ? 1 : null;
    const zone = svg("g", { class: "zone", dataset: { position: p, section: name } });
    zone.append(svg("rect", { x: zoneX(p), y: RINK_TOP + 8, width: ZONE, height: RINK_H - 16,
      fill: p === view.puck ? "rgba(90,176,255,0.22)" : "transparent" }));
    const modifier = p === 0 ? null : MODIFIER[name];
    zone.append(svg("text", { x: zoneX(p) + ZONE / 2, y: RINK_TOP + RINK_H - 14, "text-anchor": "middle",
      "font-size": 11, fill: "#4a5a6c" }, name));
    if (modifier !== null && modifier !== undefined) {
      zone.append(svg("text", { x: zoneX(p) + ZONE / 2, y: RINK_TOP + 22, "text-anchor": "middle", "font-size": 11,
        "font-weight": 700, fill: "#4a5a6c" }, `shot ${modifier > 0 ? "+" : ""}${modifier}`));
    }
    zone.append(title(p === 0 ? "centre ice: both teams on offense" :
      `${name} of the ${p > 0 ? "away" : "home"} half (${TEAM[attackers]} attacks here)`));
    g.append(zone);
  }
  g.append(svg("rect", { x: zoneX(0) + ZONE / 2 - 3, y: RINK_TOP, width: 6, height: RINK_H, fill: "#d1242f" }));
  for (const side of [-1, 1]) {
    const x = side < 0 ? zoneX(-1) : zoneX(2);
    g.append(svg("rect", { x: x - 4, y: RINK_TOP, width: 8, height: RINK_H, fill: "#1f6feb", opacity: 0.85 }));
  }
  g.append(svg("circle", { cx: zoneX(0) + ZONE / 2, cy: RINK_TOP + RINK_H / 2, r: 34, fill: "none", stroke: "#1f6feb",
    "stroke-width": 2 }));
  for (const [x, team] of [[X0 - 6, 0], [X0 + 9 * ZONE + 6, 1]]) {
    g.append(svg("path", { d: `M${x} ${RINK_TOP + RINK_H / 2 - 30} A30 30 0 0 ${team === 0 ? 1 : 0} ${x} ${RINK_TOP + RINK_H / 2 + 30}`,
      fill: "rgba(90,176,255,0.35)", stroke: "#d1242f", "stroke-width": 2 }));
    g.append(svg("rect", { x: team === 0 ? x - 14 : x, y: RINK_TOP + RINK_H / 2 - 16, width: 14, height: 32,
      fill: "none", stroke: seatColour(team), "stroke-width": 3 }));
  }
  g.append(svg("text", { x: X0 + 30, y: RINK_TOP - 6, "font-size": 11, fill: "#8da0b3" }, "◀ HOME goal"));
  g.append(svg("text", { x: X0 + 9 * ZONE - 30, y: RINK_TOP - 6, "text-anchor": "end", "font-size": 11,
    fill: "#8da0b3" }, "AWAY goal ▶"));
  const px = zoneX(view.puck) + ZONE / 2;
  const py = RINK_TOP + RINK_H / 2;
  g.append(svg("g", { class: "puck", dataset: { position: view.puck } }, title(`the puck: ${view.puck_section}`),
    svg("ellipse", { cx: px, cy: py + 4, rx: 15, ry: 7, fill: "#000" }),
    svg("ellipse", { cx: px, cy: py, rx: 15, ry: 7, fill: "#2b2b2b", stroke: "#000" })));
  return g;
}

function table(view, names) {
  const g = svg("g", { class: "dice-table" });
  const y = RINK_TOP + RINK_H + 16;
  if (view.shot) {
    const shot = view.shot;
    const shooter = names[shot.shooter] || TEAM[shot.shooter];
    g.append(svg("text", { x: 40, y: y + 18, "font-size": 12, fill: "#8da0b3" },
      `shot by ${shooter.length > 16 ? `${shooter.slice(0, 15)}…` : shooter} (${shot.modifier >= 0 ? "+" : ""}` +
      `${shot.modifier})`));
    shot.faces.forEach((f, i) => g.append(face(f, 240 + i * 30, y, 26, f === "stick")));
    g.append(svg("text", { x: 430, y: y + 18, "font-size": 12, fill: "#8da0b3" }, "vs goaltender"));
    g.append(goalieDie(shot.goalie, 520, y - 2));
  } else if (view.rolls) {
    for (const team of [0, 1]) {
      const x = team === 0 ? 40 : 430;
      const winner = view.roll_winner === team;
      g.append(svg("text", { x, y: y + 18, "font-size": 12, fill: winner ? "#3fb950" : "#8da0b3",
        "font-weight": winner ? 700 : 400 }, `${TEAM[team]}${winner ? " ✓" : ""}`));
      view.rolls[team].forEach((f, i) => g.append(face(f, x + 64 + i * 30, y, 26, winner)));
    }
  } else {
    g.append(svg("text", { x: 400, y: y + 18, "text-anchor": "middle", "font-size": 12, fill: "#8da0b3" },
      view.phase === "over" ? "" : "no dice on the table"));
  }
  return g;
}

/** The game as an SVG element; `names[seat]` for home (0) and away (1). */
export function drawHockey(view, names = []) {
  const root = svg("svg", { class: "board hockey", viewBox: "0 0 800 340", role: "img", "aria-label": "Hockey rink" });
  root.append(scoreboard(view, names), rink(view), table(view, names));
  return root;
}

export function hockeyStatus(view, names = []) {
  const team = (seat) => `${names[seat] || TEAM[seat]}`;
  if (view.phase === "over") {
    return view.winner === null || view.winner === undefined ? "Final" :
      `Final: ${team(view.winner)} wins ${Math.max(...view.score)}–${Math.min(...view.score)}` +
      (view.stage !== "regulation" ? ` (${view.stage})` : "");
  }
  const waiting = (view.pending || []).map(team).join(" or ");
  const plays = view.phase === "play" && view.plays.length ? `: ${view.plays.map((p) => PLAYS[p] || p).join(", ")}` : "";
  return `${waiting || "—"} ${PHASE[view.phase] || view.phase}${plays}`;
}
