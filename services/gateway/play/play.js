// The play page: register with a name, see open tournaments and your games, open a game against bots or people
// (or be seated by quick play), and play it (game.js).
import { $, el, replace, getJSON, ago, logErrors, seatName, shortId } from "/lib/dom.js";
import { GAME_TITLES } from "/lib/boards.js";
import { api, forget, keepGame, keepTournament, keptGames, keptTournaments, me, newKey, register } from "./api.js";
import { GameScreen } from "./game.js";

logErrors();
const KINDS = {
  vortex: { seats: [2, 3, 4], default: 4 },
  hockeydice: { seats: [2], default: 2 },
  phantoms: { seats: [2, 3, 4, 5, 6], default: 4 },
};
const QUICK = { vortex: 4, hockeydice: 2, phantoms: 4 };
let standings = "";
let kind = "vortex";
let screen = null;
let lobbyTimer = null;

function showOnly(id) {
  for (const section of ["register-view", "lobby-view", "game-view"]) $(`#${section}`).hidden = section !== id;
}

function header() {
  const player = me();
  replace($("#me"), player ? [el("span", {}, "playing as ", el("b", { id: "me-name" }, player.name)),
    el("button", { onclick: () => { if (confirm("Forget your key in this browser? You cannot play your games here again.")) {
      forget(); route(); } } }, "sign out")] : []);
  if (standings) {
    $("#nav-dashboard").hidden = false;
    $("#nav-dashboard").href = `${standings}/`;
  }
}

async function route() {
  header();
  if (screen) { screen.stop(); screen = null; }
  clearInterval(lobbyTimer);
  if (!me()) {
    showOnly("register-view");
    $("#register-name").focus();
    document.body.dataset.ready = "true";
    return;
  }
  const gameId = new URLSearchParams(location.hash.slice(1)).get("game");
  if (gameId) {
    showOnly("game-view");
    screen = new GameScreen(gameId, standings);
    await screen.start();
  } else {
    showOnly("lobby-view");
    await lobby();
    lobbyTimer = setInterval(() => refresh().catch((e) => console.warn(e)), 4000);
  }
  document.body.dataset.ready = "true";
}

export function openGame(gameId, game) {
  keepGame(gameId, game);
  location.hash = `game=${encodeURIComponent(gameId)}`;
}

// --- the lobby

async function lobby() {
  replace($("#kind-tabs"), Object.keys(KINDS).map((k) => el("button", { class: k === kind ? "active" : "", dataset: { kind: k },
    onclick: () => { kind = k; lobby(); } }, GAME_TITLES[k].replace("Phantoms of the Ice", "Phantoms"))));
  newGameForm();
  quickPlay();
  await refresh();
}

async function refresh() {
  await Promise.all([myGames(), tournaments(), queueStatus()]);
}

function seatRow(seat) {
  const choice = el("select", { class: "opponent", dataset: { seat }, "aria-label": `seat ${seat + 1}` },
    el("option", { value: "greedy" }, "Greedy bot"), el("option", { value: "random" }, "Random bot"),
    el("option", { value: "person" }, "A person…"));
  const who = el("input", { class: "person", dataset: { seat }, placeholder: "their name", list: "people", hidden: true });
  choice.onchange = () => { who.hidden = choice.value !== "person"; };
  who.oninput = () => suggest(who.value);
  return [el("span", { class: "muted" }, `seat ${seat + 1}`), choice, el("div", {}, who)];
}

async function suggest(prefix) {
  if (!standings || prefix.length < 1) return;
  try {
    const { items } = await getJSON(`${standings}/v1/players?name=${encodeURIComponent(prefix)}&limit=20`);
    replace($("#people"), items.filter((p) => p.player_id !== me().player_id)
      .map((p) => el("option", { value: p.name }, `${p.name} · ${shortId(p.player_id)}`)));
  } catch { /* no suggestions */ }
}

function newGameForm() {
  const spec = KINDS[kind];
  const seats = el("select", { id: "seats", "aria-label": "seats" },
    spec.seats.map((n) => el("option", { value: n, selected: n === spec.default }, `${n} seats`)));
  const rows = el("div", { class: "seat-rows", id: "seat-rows" });
  const fillRows = () => replace(rows, el("span", { class: "muted" }, "seat 1"), el("b", {}, "you"), el("span"),
    Array.from({ length: Number(seats.value) - 1 }, (_, i) => seatRow(i + 1)));
  seats.onchange = fillRows;
  fillRows();
  const options = {
    vortex: [el("label", {}, "rounds (empty: to the end)", el("input", { id: "opt-max-rounds", type: "number", min: 1,
      max: 200, placeholder: "to the end" }))],
    hockeydice: [el("label", {}, "periods", el("input", { id: "opt-periods", type: "number", min: 1, max: 3, value: 3 })),
      el("label", {}, "shots a period", el("input", { id: "opt-shots", type: "number", min: 1, max: 10, value: 5 }))],
    phantoms: [el("label", {}, "edition", el("select", { id: "opt-edition" }, el("option", { value: "poti" },
      "Phantoms of the Ice"), el("option", { value: "powerplay" }, "Power Play"))),
    el("label", { class: "check" }, el("input", { id: "opt-team", type: "checkbox" }), "team variant")],
  }[kind];
  const seeds = el("label", { class: "check", title: "Every seated person sends a seed of their own, mixed into every draw" },
    el("input", { id: "opt-seed", type: "checkbox" }), "add my own seed to the dice");
  replace($("#new-game-form"), el("div", { class: "form-row" }, seats, options, seeds), rows,
    el("datalist", { id: "people" }),
    el("div", { class: "form-row" }, el("button", { class: "primary", id: "create-game", onclick: createGame },
      `Start a ${GAME_TITLES[kind]} game`)));
}

async function resolvePerson(name) {
  if (/^p[0-9a-f]{20}$/.test(name)) return name;
  if (!standings) throw new Error("type the player id: this league does not list names (STANDINGS_URL is not set)");
  const { items } = await getJSON(`${standings}/v1/players?name=${encodeURIComponent(name)}&limit=50`);
  const exact = items.filter((p) => p.name.toLowerCase() === name.toLowerCase());
  if (exact.length === 1) return exact[0].player_id;
  throw new Error(exact.length ? `several players are called ${name}: type the player id instead` :
    `nobody called ${name} has registered`);
}

async function createGame() {
  const error = $("#new-game-error");
  error.textContent = "";
  const button = $("#create-game");
  button.disabled = true;
  try {
    const seats = Number($("#seats").value);
    const players = [me().player_id];
    const bots = [null];
    for (let seat = 1; seat < seats; seat++) {
      const choice = document.querySelector(`select.opponent[data-seat="${seat}"]`).value;
      if (choice === "person") {
        const name = document.querySelector(`input.person[data-seat="${seat}"]`).value.trim();
        if (!name) throw new Error(`seat ${seat + 1}: type the person's name`);
        players.push(await resolvePerson(name));
        bots.push(null);
      } else {
        players.push(null);
        bots.push(choice);
      }
    }
    const options = {};
    if (kind === "vortex" && $("#opt-max-rounds").value) options.max_rounds = Number($("#opt-max-rounds").value);
    if (kind === "hockeydice") {
      options.periods = Number($("#opt-periods").value);
      options.shots_per_period = Number($("#opt-shots").value);
    }
    if (kind === "phantoms") {
      options.edition = $("#opt-edition").value;
      if ($("#opt-team").checked) options.team_variant = true;
    }
    const body = { game: kind, seats, options, players, bots };
    if ($("#opt-seed").checked) body.client_seed_seconds = 60;
    const created = await api("POST", "/v1/games", body, { "Idempotency-Key": newKey() });
    openGame(created.game_id, kind);
  } catch (e) {
    error.textContent = e.message;
  } finally {
    button.disabled = false;
  }
}

function quickPlay() {
  const game = el("select", { id: "queue-game", "aria-label": "quick-play game" },
    Object.entries(QUICK).map(([k, seats]) => el("option", { value: k }, `${GAME_TITLES[k]} (${seats} players)`)));
  replace($("#queue"), el("div", { class: "form-row" }, game,
    el("button", { id: "queue-join", onclick: async () => {
      try {
        await api("POST", "/v1/queue", { game: game.value, seats: QUICK[game.value] });
        await queueStatus();
      } catch (e) { $("#queue-status").textContent = e.message; }
    } }, "Find me a table"),
    el("button", { id: "queue-leave", onclick: async () => { await api("DELETE", "/v1/queue"); await queueStatus(); } },
      "Leave the queue")),
  el("p", { class: "muted", id: "queue-status" }, ""));
}

async function queueStatus() {
  let ticket;
  try { ticket = await api("GET", "/v1/queue"); } catch (e) { $("#queue-status").textContent = e.message; return; }
  const status = $("#queue-status");
  if (ticket.status === "waiting") status.textContent = "Waiting for players near your rating…";
  else if (ticket.status === "seated" && ticket.game_id) {
    replace(status, "Seated: ", el("a", { href: `#game=${encodeURIComponent(ticket.game_id)}`,
      onclick: () => keepGame(ticket.game_id, ticket.game_id.split("-")[0]) }, "play your game"));
  } else status.textContent = "Not in the queue.";
}

async function tournaments() {
  const entered = keptTournaments();
  let open = [];
  if (standings) {
    try {
      const { items } = await getJSON(`${standings}/v1/tournaments?limit=500`);
      open = items.filter((t) => t.status === "registering");
    } catch { /* no list */ }
  }
  const rows = [];
  for (const t of open) {
    const mine = entered.some((e) => e.tournament_id === t.tournament_id);
    rows.push(el("div", { class: "row", dataset: { tournament: t.tournament_id } },
      el("div", { class: "grow" }, el("div", {}, t.name || t.tournament_id), el("div", { class: "sub" },
        `${t.format || ""} · registering${t.created_at ? ` · opened ${ago(t.created_at)}` : ""}`)),
      mine ? el("span", { class: "badge good" }, "entered") : el("button", { onclick: async (e) => {
        e.target.disabled = true;
        try {
          await api("POST", `/v1/tournaments/${encodeURIComponent(t.tournament_id)}/players`, {});
          keepTournament(t.tournament_id, t.name);
          await tournaments();
        } catch (err) { e.target.disabled = false; alert(err.message); }
      } }, "Enter")));
  }
  for (const t of entered.filter((e) => !open.some((o) => o.tournament_id === e.tournament_id)).slice(0, 5)) {
    let mine = null;
    try { mine = await api("GET", `/v1/tournaments/${encodeURIComponent(t.tournament_id)}/me`); } catch { continue; }
    rows.push(el("div", { class: "row" }, el("div", { class: "grow" }, el("div", {}, t.name || t.tournament_id),
      el("div", { class: "sub" }, `${mine.status} · round ${mine.round}`)),
    mine.game_id ? el("a", { href: `#game=${encodeURIComponent(mine.game_id)}` }, "play your game ▸") :
      el("span", { class: "muted" }, mine.status === "finished" ? "finished" : "no game for you now")));
  }
  replace($("#tournaments"), rows.length ? el("div", { class: "list" }, rows) :
    el("p", { class: "muted" }, standings ? "No tournament is open for entries." :
      "The tournament list comes from the standings service, which this league does not name (STANDINGS_URL)."));
}

async function myGames() {
  const player = me();
  const kept = keptGames();
  let listed = [];
  if (standings) {
    try {
      ({ items: listed } = await getJSON(`${standings}/v1/games?player=${encodeURIComponent(player.player_id)}&limit=50`));
    } catch { /* only the games kept here */ }
  }
  const ids = new Set(listed.map((g) => g.game_id));
  const extra = kept.filter((g) => !ids.has(g.game_id)).map((g) => ({ game_id: g.game_id, game: g.game, running: null,
    players: [], names: [], bots: [], opened_at: g.kept_at }));
  const games = [...listed, ...extra].sort((a, b) => (b.running === true) - (a.running === true) ||
    (b.opened_at || "").localeCompare(a.opened_at || ""));
  $("#my-games-note").textContent = `${games.filter((g) => g.running).length} running`;
  replace($("#my-games"), games.length ? el("div", { class: "list" }, games.map((g) => {
    const others = g.players.map((p, s) => (p === player.player_id ? null : seatName(g.names, g.players, s, g.bots)));
    const won = g.winners && g.players.some((p, s) => p === player.player_id && g.winners.includes(s));
    return el("div", { class: "row", dataset: { gameId: g.game_id } },
      el("span", { class: `kind-icon ${g.game}` }, g.game[0].toUpperCase()),
      el("div", { class: "grow" }, el("div", {}, `${GAME_TITLES[g.game] || g.game}` +
        `${others.filter(Boolean).length ? ` against ${others.filter(Boolean).join(", ")}` : ""}`),
        el("div", { class: "sub" }, g.running === null ? "opened here" : g.running ? `running · opened ${ago(g.opened_at)}` :
          `${won ? "you won" : "finished"} · ${ago(g.ended_at)}`)),
      el("a", { href: `#game=${encodeURIComponent(g.game_id)}`, class: g.running ? "play-link" : "" },
        g.running === false ? "look ▸" : "play ▸"));
  })) : el("p", { class: "muted" }, "No game yet: start one."));
}

async function start() {
  try {
    standings = (await getJSON("/play/config.json")).standings_url || "";
  } catch { standings = ""; }
  $("#register-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("#register-error").textContent = "";
    try {
      await register($("#register-name").value.trim());
      await route();
    } catch (error) {
      $("#register-error").textContent = error.message;
    }
  });
  addEventListener("hashchange", () => route().catch((e) => window.__errors.push(String(e.message))));
  await route();
}

start().catch((error) => {
  window.__errors.push(String(error.message || error));
  document.body.dataset.ready = "error";
});
