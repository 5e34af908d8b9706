// The replay viewer: a finished game of any kind, event by event, on the same drawings as the live boards, with who
// did what, the draws each action used and the audit's verdict. /replay/<game-id>?step=N opens it at event N.
import { $, el, replace, getJSON, logErrors, seatName, seatColour, ago } from "/lib/dom.js";
import { drawGame, GAME_TITLES } from "/lib/boards.js";
import { commandText, drawText, eventText, spiralRegionOf } from "/lib/words.js";

logErrors();
const PAGE = 200;
const SPEED_MS = 350;
let game = null; // the timeline
let step = 1;
let names = [];
let cards = null;
let views = new Map();
let loading = new Map();
let timer = null;

const who = (seat) => (seat === null || seat === undefined ? "nobody" : names[seat] || `seat ${seat + 1}`);
const cardName = (id) => (cards && cards[id] ? `${cards[id].name} (${cards[id].value})` : id);

async function viewAt(number) {
  if (views.has(number)) return views.get(number);
  const start = Math.floor((number - 1) / PAGE) * PAGE;
  if (!loading.has(start)) {
    loading.set(start, getJSON(`/v1/games/${encodeURIComponent(game.game_id)}/views?after=${start}&limit=${PAGE}`)
      .then((page) => page.items.forEach((item) => views.set(item.step, item.view))));
  }
  await loading.get(start);
  return views.get(number);
}

async function open(gameId, at) {
  stop();
  game = await getJSON(`/v1/games/${encodeURIComponent(gameId)}/timeline`);
  views = new Map();
  loading = new Map();
  names = game.players.map((p, seat) => seatName(game.names, game.players, seat, game.bots));
  const opened = game.steps.find((s) => s.type === "phantoms.SeasonOpened");
  cards = opened ? Object.fromEntries(opened.data.deck.cards.map((c) => [c.id, c])) : null;
  $("#game-select").value = gameId;
  $("#game-title").textContent = `${GAME_TITLES[game.game] || game.game} — ${names.join(", ")}`;
  $("#game-hint").textContent = `${game.game_id} · won by ${(game.winners || []).map(who).join(", ") || "nobody"} · ` +
    `${game.steps.length} events, ${game.actions.length} actions · ended ${ago(game.ended_at)}`;
  const slider = $("#slider");
  slider.max = game.steps.length;
  replace($("#timeline"), game.steps.map((s) => el("div", {
    class: `ev${s.type === "engine.CommandAccepted" ? " action" : ""}`, dataset: { step: s.step },
    onclick: () => go(s.step) }, el("span", { class: "n" }, s.step), line(s))));
  verdict(gameId);
  await go(Math.min(Math.max(1, at || 1), game.steps.length));
  document.body.dataset.ready = "true";
}

function line(s) {
  if (s.type === "engine.CommandAccepted") {
    const action = game.actions[s.action - 1];
    return `${who(action.seat)}${action.by_bot ? ` (${action.by_bot} bot)` : ""}: ${commandText(action.command,
      { who, card: cardName })}`;
  }
  if (s.type === "engine.DrawsUsed") {
    const action = s.action ? game.actions[s.action - 1] : null;
    return el("span", { class: "draws" }, action && action.draws.length ? action.draws.map(drawText).join(" · ") :
      "draws of the opening (revealed in the audit)");
  }
  if (s.private) return el("span", { class: "muted" }, `${s.type} — private to ${s.private.length ?
    s.private.map(who).join(", ") : "nobody"} while the game ran`);
  return eventText(s.type, s.data, { who, card: cardName }) || s.type;
}

async function go(number) {
  if (!game) return;
  step = Math.min(Math.max(1, number), game.steps.length);
  const view = await viewAt(step);
  const s = game.steps[step - 1];
  replace($("#drawing"), drawGame(game.game, view, { names, cards }));
  $("#slider").value = step;
  $("#step").textContent = `event ${step} of ${game.steps.length}`;
  const url = `/replay/${encodeURIComponent(game.game_id)}?step=${step}`;
  history.replaceState(null, "", url);
  $("#step-link").href = url;
  document.querySelectorAll("#timeline .ev.current").forEach((e) => e.classList.remove("current"));
  const row = document.querySelector(`#timeline .ev[data-step="${step}"]`);
  if (row) {
    row.classList.add("current");
    const box = $("#timeline");
    if (row.offsetTop < box.scrollTop || row.offsetTop + row.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = row.offsetTop - box.clientHeight / 2;  // only the list scrolls, never the page
    }
  }
  const action = s.action ? game.actions[s.action - 1] : null;
  replace($("#event"),
    el("div", { class: "mono muted" }, `#${s.step} ${s.type}`),
    el("p", { style: "margin:6px 0 10px;font-size:15px" }, line(s)),
    action ? el("div", {},
      el("h3", {}, `Action ${action.action}: who did what`),
      el("p", {}, el("span", { class: "seat-dot", style: `background:${seatColour(action.seat)}` }),
        `${who(action.seat)} — ${commandText(action.command, { who, card: cardName, spiralRegion: spiralRegionOf(view) })}`,
        action.by_bot ? el("span", { class: "badge", style: "margin-left:8px" }, `chosen by the ${action.by_bot} bot`) : null),
      el("h3", {}, "Draws this action used"),
      action.draws.length ? el("ul", { class: "draws" }, action.draws.map((d) => el("li", {}, drawText(d)))) :
        el("p", { class: "muted" }, "none")) :
      el("p", { class: "muted" }, "The opening, before any player acted."));
  for (let ahead = step + 1; ahead <= Math.min(step + 40, game.steps.length); ahead += PAGE) viewAt(ahead);
}

const VERDICT_RETRY_MS = 2000;

async function verdict(gameId) {
  const box = $("#verdict");
  box.className = "verdict";
  box.textContent = "auditing…";
  try {
    const found = await getJSON(`/v1/games/${encodeURIComponent(gameId)}/audit`);
    box.className = `verdict ${found.verified ? "good" : "bad"}`;
    box.dataset.verified = found.verified;
    replace(box, el("b", {}, found.verified ? "✓ verified" : found.seed_revealed ? "✗ discrepancy" : "not yet audited"),
      el("p", { style: "margin:6px 0 0;white-space:pre-wrap" }, found.verified ?
        `${found.counts.game_events} events, ${found.counts.draws} draws recomputed from the revealed seed, ` +
        `${found.counts.actions} actions re-run through the rules: identical.` :
        found.seed_revealed ? found.summary : "The seed is not revealed yet: audited again in a moment."),
      el("p", { class: "muted mono", style: "margin:6px 0 0" }, `seed commitment ${game.commitment || "–"}`));
    // The RNG reveals a game's seed shortly after it ends: until then, ask again.
    if (!found.verified && !found.seed_revealed) setTimeout(() => verdict(gameId), VERDICT_RETRY_MS);
  } catch (error) {
    box.textContent = `audit unavailable: ${error.message}`;
  }
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  $("#play").textContent = "▶ play";
}

function play() {
  if (timer) { stop(); return; }
  $("#play").textContent = "❚❚ pause";
  timer = setInterval(async () => {
    if (step >= game.steps.length) { stop(); return; }
    await go(step + 1);
  }, SPEED_MS);
}

function jumpAction(direction) {
  const current = game.steps[step - 1].action || 0;
  const target = game.actions[current - 1 + direction];
  if (target) go(target.version);
}

async function listGames() {
  const { items } = await getJSON("/v1/games?running=false&limit=100");
  replace($("#game-select"), el("option", { value: "" }, "choose a finished game…"),
    items.map((g) => el("option", { value: g.game_id },
      `${GAME_TITLES[g.game] || g.game}: ${g.players.map((p, s) => seatName(g.names, g.players, s, g.bots)).join(", ")}` +
      ` · ${ago(g.ended_at)}`)));
}

async function start() {
  $("#first").onclick = () => go(1);
  $("#prev").onclick = () => go(step - 1);
  $("#next").onclick = () => go(step + 1);
  $("#last").onclick = () => game && go(game.steps.length);
  $("#play").onclick = play;
  $("#prev-action").onclick = () => jumpAction(-1);
  $("#next-action").onclick = () => jumpAction(1);
  $("#slider").oninput = (e) => go(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (!game || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === " ") { e.preventDefault(); play(); }
  });
  $("#game-select").onchange = (e) => e.target.value && open(e.target.value, 1);
  await listGames();
  const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
  const at = Number(new URLSearchParams(location.search).get("step")) || 1;
  if (gameId) {
    if (![...$("#game-select").options].some((o) => o.value === gameId)) {
      $("#game-select").append(el("option", { value: gameId }, gameId));
    }
    await open(gameId, at);
  } else {
    document.body.dataset.ready = "true";
  }
}

start().catch((error) => {
  window.__errors.push(String(error.message || error));
  replace($("#drawing"), el("div", { class: "empty" }, `Cannot replay: ${error.message}`));
  document.body.dataset.ready = "error";
});
