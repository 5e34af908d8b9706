// Phantoms of the Ice / Power Play: the paper Team Scorepad of the seed (the games grid and the wins track) and
// the game on the ice, round by round, with every revealed card as it is printed.
import { el, seatColour } from "./dom.js";

const KIND = { regular: "regular season", tiebreak: "tie-breaker", final: "championship series", playoff: "playoff" };
const POSITION = { F: "forward", D: "defenseman", G: "goalie" };
const STEP = {
  opening: "drawing their team", regular: "regular season", postseason: "post-season", over: "season over",
};

const manager = (names, seat) => names[seat] || `Manager ${seat + 1}`;
const fmtValue = (v) => (v === null || v === undefined ? "?" : Number.isInteger(v) ? String(v) :
  `${Math.floor(v)}½`.replace(/^0½$/, "½"));

/** The seed's Team Scorepad: row manager's games against each column manager, and X marks on the wins track. */
export function drawScorepad(scorepad, names, seats) {
  const count = seats || scorepad.grid.length;
  const track = Math.max(9, ...scorepad.wins);
  const head = el("tr", {}, el("th", { class: "name" }, "Name / Team"),
    ...Array.from({ length: count }, (_, j) => el("th", { title: manager(names, j) }, initials(manager(names, j)))),
    el("th", { colspan: track }, "Wins"));
  const rows = scorepad.grid.map((row, i) => el("tr", { class: scorepad.champion === i ? "champion" : "",
    dataset: { seat: i } },
  el("th", { class: "name" }, el("span", { class: "seat-dot", style: `background:${seatColour(i)}` }),
    manager(names, i), scorepad.champion === i ? " — champion" : ""),
  ...row.map((cell, j) => (i === j ? el("td", { class: "self" }, "X") :
    el("td", { class: "result" }, cell.join("  ")))),
  ...Array.from({ length: track }, (_, k) => el("td", { class: "win", title: `win ${k + 1}` },
    k < scorepad.wins[i] ? "X" : ""))));
  const numbers = el("tr", {}, el("th", { class: "name" }, ""), ...Array.from({ length: count }, () => el("th", {}, "")),
    ...Array.from({ length: track }, (_, k) => el("th", { class: "win" }, k + 1)));
  return el("div", { class: "paper scorepad-paper" },
    el("h4", {}, "Team Scorepad"),
    el("table", { class: "scorepad" }, el("thead", {}, head, numbers), el("tbody", {}, rows)),
    scorepad.postseason && scorepad.postseason.length ?
      el("p", { class: "postseason" }, "Post-season: ", scorepad.postseason.map((line) => postseasonLine(line, names))
        .join(" · ")) : null);
}

function initials(name) {
  const words = name.split(/\s+/).filter(Boolean);
  const number = words.length > 1 && /^\d+$/.test(words.at(-1)) ? words.pop() : "";
  const letters = number || words.length > 1 ? words.map((w) => w[0]).join("").slice(0, 3).toUpperCase() :
    (words[0] || "").slice(0, 4);
  return letters + number;
}

function postseasonLine(line, names) {
  // "final: 2 4:3 0" (kind: home score away, seats as numbers)
  const match = /^(\w+): (\d+) (\S+) (\d+)$/.exec(line);
  if (!match) return line;
  return `${KIND[match[1]] || match[1]}: ${manager(names, +match[2])} ${match[3]} ${manager(names, +match[4])}`;
}

/** One printed card (a player of the deck), or its back when `id` is null. */
export function card(id, cards, { goal = false, injured = false } = {}) {
  if (!id) return el("div", { class: "pcard back", title: "a card laid face down" });
  const c = cards[id] || { name: id, position: "?", value: null };
  const classes = ["pcard", c.position, c.bruiser ? "bruiser" : "", goal ? "goal" : "", injured ? "injured" : ""];
  const special = c.special ? ` (special: ${c.special.replaceAll("_", " ")})` : "";
  return el("div", { class: classes.filter(Boolean).join(" "), dataset: { card: id },
    title: `${c.name}: ${POSITION[c.position] || c.position}, value ${fmtValue(c.value)}${c.bruiser ? ", bruiser" : ""}` +
      `${special}, team ${c.team}` },
  el("div", { class: "value" }, fmtValue(c.value)), el("div", { class: "pos" }, c.position),
  el("div", { class: "name" }, c.name));
}

/** The game on the ice (or the last one played): both teams' revealed cards round by round. */
export function drawSeasonGame(board, names) {
  const game = board.game;
  if (!game) {
    return el("div", { class: "empty" }, board.phase === "opening" ? "Managers are drawing their teams." :
      board.games_played ? "Between games." : "No game played yet.");
  }
  const cards = board.cards || {};
  const sides = [game.home, game.away];
  const rows = sides.map((seat, side) => {
    const played = game.history.map((r) => card(r.cards[side], cards, { goal: r.goal === seat,
      injured: r.injured.includes(r.cards[side]) }));
    const onTable = game.table[side] ? card(game.table[side], cards) : game.ready && game.ready[side] &&
      !board.game_over ? card(null, cards) : null;
    return [el("div", { class: "label" }, el("span", { class: "seat-dot", style: `background:${seatColour(seat)}` }),
      `${manager(names, seat)} `, el("b", {}, game.score[side])),
    el("div", { class: "cards-row", dataset: { side } }, played, onTable)];
  });
  const block = game.block ? `, sudden death ${game.block}` : "";
  return el("div", { class: "season-game" },
    el("div", { class: "muted", style: "margin-bottom:6px" },
      `${board.game_over ? "Last game" : "On the ice"}: ${KIND[game.kind] || game.kind}${block}, ` +
      `${board.game_over ? "final" : `round ${game.round}`} — ${manager(names, game.home)} ${game.score[0]} : ` +
      `${game.score[1]} ${manager(names, game.away)}`),
    el("div", { class: "game-rounds" }, rows.flat()));
}

/** The managers as a short table: wins, goals, players, who is to move. */
export function seasonManagers(board, names) {
  const pending = new Set(board.pending || []);
  return el("table", { class: "data compact" },
    el("thead", {}, el("tr", {}, el("th", {}, "manager"), el("th", { class: "num" }, "wins"),
      el("th", { class: "num" }, "goals"), el("th", { class: "num" }, "players"), el("th", {}, ""))),
    el("tbody", {}, board.managers.map((m) => el("tr", { class: board.champion === m.seat ? "winner" : "" },
      el("td", {}, el("span", { class: "player" }, el("span", { class: "seat-dot",
        style: `background:${seatColour(m.seat)}` }), manager(names, m.seat))),
      el("td", { class: "num" }, m.wins), el("td", { class: "num" }, `${m.goals_for}:${m.goals_against}`),
      el("td", { class: "num" }, m.players),
      el("td", { class: "muted" }, m.eliminated ? "out" : board.champion === m.seat ? "champion ★" :
        pending.has(m.seat) ? "to move" : "")))));
}

export function seasonStatus(board, names) {
  if (board.champion !== null && board.champion !== undefined) {
    return `Season over: ${manager(names, board.champion)} is champion after ${board.games_played} games`;
  }
  const waiting = (board.pending || []).map((s) => manager(names, s)).join(", ");
  return `${STEP[board.phase] || board.phase} · ${board.games_played} games played` +
    (waiting ? ` · waiting for ${waiting}` : "");
}
