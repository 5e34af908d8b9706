// The standings dashboard: plain ES modules over the public JSON feeds (/v1/...) and the live SSE feed (/v1/feed).
import { $, el, replace, getJSON, allPages, logErrors } from "/lib/dom.js";
import { NameBook } from "/lib/names.js";
import { LiveBoards } from "./live.js";
import { TournamentPanel } from "./tournament.js";
import { SeasonPanel } from "./seasons.js";
import { RatingsPanel } from "./ratings.js";
import { FinishedGames } from "./finished.js";

logErrors();
const IDLE_AFTER_MS = 10_000;
const names = new NameBook("");
const live = new LiveBoards($("#boards"), names);
const tournament = new TournamentPanel(names);
const seasons = new SeasonPanel(names);
const ratings = new RatingsPanel();
const finished = new FinishedGames();

let quarantinedStreams = 0;  // only /v1/counters says it; a live change of the counters keeps the last count
function showCounters(c) {
  quarantinedStreams = c.quarantined_streams ?? quarantinedStreams;
  const perMinute = (c.events_per_minute || []).at(-1);
  replace($("#counters"),
    el("span", {}, "running ", el("b", { id: "games-running" }, c.games_running)),
    el("span", {}, "finished ", el("b", {}, c.games_finished)),
    el("span", {}, "events ", el("b", {}, Number(c.events).toLocaleString())),
    perMinute ? el("span", { title: perMinute.minute }, "last minute ", el("b", {}, perMinute.events)) : null,
    quarantinedStreams ? el("span", { class: "warning" }, "quarantined streams ", el("b", {}, quarantinedStreams),
      " (", el("a", { href: "/v1/quarantine" }, "list"), ")") : null);
}

// Reloads of a panel asked for by a burst of changes run once, a moment after the first.
const pending = new Map();
function soon(name, work, delay = 400) {
  if (pending.has(name)) return;
  pending.set(name, setTimeout(async () => {
    pending.delete(name);
    try { await work(); } catch (error) { console.warn(name, error); }
  }, delay));
}

function onChange(change) {
  switch (change.projection) {
    case "boards":
    case "season_boards":
      live.change(change).catch((e) => console.warn(e));
      if (change.projection === "season_boards" && change.key === seasons.season) soon("season", () => seasons.load());
      if (!change.data.running) soon("finished", () => finished.load(), 800);
      break;
    case "counters": showCounters({ ...change.data, events_per_minute: [] }); soon("counters", refreshCounters, 2000); break;
    case "tournaments": case "rounds":
      if (!tournament.tournament || change.key === tournament.tournament) soon("tournament", () => tournament.load());
      soon("tournaments", () => tournament.list(), 3000);
      break;
    case "ratings": soon("ratings", () => ratings.load(), 1500); break;
    case "seasons": case "season_results": case "season_standings":
      if (seasons.changed(change.key)) soon("season", () => seasons.load());
      soon("seasons", () => seasons.list(), 3000);
      break;
    case "games": if (!change.data.running) soon("finished", () => finished.load(), 800); break;
    case "players": names.names.set(change.data.player_id, change.data.name); break;
    default: break;
  }
}

async function refreshCounters() {
  showCounters(await getJSON("/v1/counters"));
}

/** The feed's state as it is: "live" (connected, changes in the last seconds), "idle" (connected, the league is
 * quiet), "reconnecting" (the connection dropped; the browser resumes from the last id it saw). */
function follow() {
  const status = $("#feed-status");
  let lastChange = 0;
  let lastId = "";
  const show = (state, text) => {
    status.title = lastId ? `last change ${lastId}` : "";
    if (status.dataset.state === state && status.textContent === text) return;
    status.dataset.state = state;
    status.textContent = text;
  };
  const source = new EventSource("/v1/feed?from=now");
  const judge = () => {
    if (source.readyState === EventSource.CONNECTING) show("reconnecting", "feed: reconnecting");
    else if (source.readyState === EventSource.CLOSED) show("offline", "feed: offline");
    else if (Date.now() - lastChange < IDLE_AFTER_MS) show("live", "feed: live");
    else show("idle", "feed: idle");
  };
  source.onopen = judge;
  source.onerror = judge;
  source.addEventListener("change", (message) => {
    lastChange = Date.now();
    lastId = message.lastEventId;
    document.body.dataset.lastEventId = message.lastEventId;
    judge();
    JSON.parse(message.data).changes.forEach(onChange);
  });
  setInterval(judge, 1000);
  window.__feed = source;
}

async function start() {
  follow();
  await refreshCounters();
  setInterval(() => refreshCounters().catch(() => {}), 10_000);
  await Promise.all([live.load(getJSON, allPages).then(() => live.draw()), tournament.list(), seasons.list(),
    ratings.load(), finished.load()]);
  document.body.dataset.ready = "true";
}

start().catch((error) => {
  window.__errors.push(String(error.message || error));
  $("#feed-status").textContent = `error: ${error.message}`;
});
