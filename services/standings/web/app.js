// The standings dashboard: plain JS over the public JSON feeds (/v1/...) and the SSE feed (/v1/feed).
"use strict";

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
const fmt = (n, d = 2) => (n === null || n === undefined ? "–" : Number(n).toFixed(d));

async function getJSON(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

async function allPages(path) {
  let items = [], after = "";
  for (;;) {
    const sep = path.includes("?") ? "&" : "?";
    const page = await getJSON(`${path}${sep}limit=500&after=${encodeURIComponent(after)}`);
    items = items.concat(page.items);
    if (!page.next) return items;
    after = page.next;
  }
}

// --- counters
let quarantinedStreams = 0;  // only /v1/counters says it; a live change of the counters keeps the last count
function showCounters(c) {
  quarantinedStreams = c.quarantined_streams ?? quarantinedStreams;
  $("counters").innerHTML = `<span>running <b id="games-running">${c.games_running}</b></span>` +
    `<span>finished <b>${c.games_finished}</b></span><span>events <b>${c.events ?? ""}</b></span>` +
    (quarantinedStreams ? `<span class="warning">quarantined streams <b>${quarantinedStreams}</b>` +
      ` (<a href="/v1/quarantine">list</a>)</span>` : "");
}

// --- tournaments and their leaderboards
let tournament = null;
async function loadTournaments() {
  const items = await allPages("/v1/tournaments");
  const select = $("tournament-select");
  const chosen = tournament;
  select.innerHTML = items.map((t) => `<option value="${esc(t.tournament_id)}">${esc(t.tournament_id)}` +
    ` (${t.games} games, ${t.running} running)</option>`).join("");
  if (items.length && !items.some((t) => t.tournament_id === chosen)) tournament = items[items.length - 1].tournament_id;
  if (tournament) { select.value = tournament; await loadLeaderboard(); }
}
async function loadLeaderboard() {
  if (!tournament) return;
  const board = await getJSON(`/v1/tournaments/${encodeURIComponent(tournament)}/leaderboard`);
  $("leaderboard").querySelector("tbody").innerHTML = board.placings.map((p) =>
    `<tr><td>${p.rank}</td><td>${esc(p.player_id)}</td><td>${fmt(p.points, 2)}</td>` +
    `<td>${fmt(p.median_buchholz, 2)}</td><td>${fmt(p.rating, 2)}</td><td>${p.games}</td><td>${p.wins}</td></tr>`).join("");
}

// --- live boards
const boards = new Map();
function summary(b) {
  const v = b.view || {};
  if (b.game === "vortex") {
    const phantoms = (v.phantoms || []).map((p) => `seat ${p.seat}: ${esc(p.region)} (${p.coins}¢)`).join("<br>");
    return `round ${v.round}${v.max_rounds ? "/" + v.max_rounds : ""} · turn seat ${v.turn} · ${esc(v.phase)}` +
      `${v.roll != null ? " · rolled " + v.roll : ""}<br>${phantoms}`;
  }
  if (b.game === "hockeydice") {
    return `score ${(v.score || []).join(" : ")} · period ${v.period} · shots ${v.shots}<br>` +
      `puck ${esc(v.puck_section)} · ${esc(v.phase)}`;
  }
  return esc(JSON.stringify(v).slice(0, 200));
}
function drawBoard(b) {
  let el = document.querySelector(`[data-game-id="${CSS.escape(b.game_id)}"]`);
  if (!el) {
    el = document.createElement("div");
    el.className = "board live-board";
    el.dataset.gameId = b.game_id;
    $("boards").prepend(el);
  }
  el.dataset.version = b.version;
  el.dataset.running = b.running;
  const players = (b.players || []).map((p, i) => esc(p || `bot ${i}`)).join(" · ");
  const result = b.running ? "" : `<br><b>ended</b>, winners: ${(b.winners || []).join(", ")}`;
  el.innerHTML = `<div class="title">${esc(b.game)} ${esc(b.game_id.split("-")[1])} v${b.version}</div>` +
    `<div class="players">${players}</div><div class="summary">${summary(b)}${result}</div>`;
  el.classList.add("flash");
  setTimeout(() => el.classList.remove("flash"), 300);
}
async function loadBoards() {
  const items = await allPages("/v1/boards?running=true");
  items.forEach((b) => { boards.set(b.game_id, b); drawBoard(b); });
}

// --- seasons
let season = null;
async function loadSeasons() {
  const items = await allPages("/v1/seasons");
  $("season-select").innerHTML = items.map((s) => `<option value="${esc(s.season_id)}">${esc(s.season_id)}` +
    `${s.running ? " (running)" : ""}</option>`).join("");
  if (items.length && !season) season = items[items.length - 1].season_id;
  if (season) { $("season-select").value = season; await loadSeason(); }
}
async function loadSeason() {
  const s = await getJSON(`/v1/seasons/${encodeURIComponent(season)}`);
  const names = s.season.players.map((p, i) => p || `M${i}`);
  const rows = s.scorepad.grid.map((row, i) => `<tr><th>${esc(names[i])}</th>` +
    row.map((cell, j) => `<td>${i === j ? "X" : esc(cell.join(" "))}</td>`).join("") +
    `<td>${s.scorepad.wins[i]}</td></tr>`).join("");
  const standings = s.standings.map((r) => `<tr><td>${esc(names[r.seat])}</td><td>${r.wins}</td><td>${r.played}</td>` +
    `<td>${r.goals_for}:${r.goals_against}</td><td>${r.injuries}</td></tr>`).join("");
  $("scorepad").innerHTML = `<table class="grid scorepad"><thead><tr><th>Name</th>` +
    names.map((n) => `<th>${esc(n)}</th>`).join("") + `<th>Wins</th></tr></thead><tbody>${rows}</tbody></table>` +
    (s.scorepad.postseason.length ? `<p>${s.scorepad.postseason.map(esc).join("<br>")}</p>` : "") +
    (s.scorepad.champion != null ? `<p>Champion: ${esc(names[s.scorepad.champion])}</p>` : "") +
    `<table class="grid"><thead><tr><th>manager</th><th>wins</th><th>played</th><th>goals</th><th>injuries</th></tr>` +
    `</thead><tbody>${standings}</tbody></table>`;
}

// --- ratings
async function loadRatings() {
  const items = (await allPages("/v1/ratings")).sort((a, b) => b.ordinal - a.ordinal);
  $("ratings").querySelector("tbody").innerHTML = items.map((r) => `<tr><td>${esc(r.player_id)}</td>` +
    `<td>${fmt(r.ordinal)}</td><td>${fmt(r.mu)}</td><td>${fmt(r.sigma)}</td><td>${r.games}</td><td>${r.wins}</td></tr>`).join("");
}

// --- replay viewer: a finished game's public views, step by step
let replay = null, replayAt = 0, replayTimer = null;
async function loadFinished() {
  const items = await allPages("/v1/boards?running=false");
  const select = $("replay-select");
  const chosen = select.value;
  select.innerHTML = `<option value="">choose a finished game</option>` +
    items.map((b) => `<option value="${esc(b.game_id)}">${esc(b.game_id)}</option>`).join("");
  select.value = chosen;
}
async function openReplay(gameId) {
  if (!gameId) return;
  replay = await getJSON(`/v1/games/${encodeURIComponent(gameId)}/replay`);
  replayAt = 0;
  showStep();
}
function showStep() {
  if (!replay) return;
  const step = replay.steps[replayAt];
  $("replay-step").textContent = `step ${replayAt} of ${replay.steps.length - 1}`;
  $("replay-view").innerHTML = summary({game: replay.game, view: step.view});
}
function move(by) {
  if (!replay) return;
  replayAt = Math.max(0, Math.min(replay.steps.length - 1, replayAt + by));
  showStep();
}

// --- the live feed
let refreshQueued = new Set();
function scheduleRefresh(what) {
  if (refreshQueued.has(what)) return;
  refreshQueued.add(what);
  setTimeout(async () => {
    refreshQueued.delete(what);
    try { await what(); } catch (e) { console.warn(e); }
  }, 300);
}
function onChange(change) {
  switch (change.projection) {
    case "boards":
      boards.set(change.key, change.data);
      drawBoard(change.data);
      if (!change.data.running) scheduleRefresh(loadFinished);
      break;
    case "counters": showCounters(change.data); break;
    case "tournaments": scheduleRefresh(loadTournaments); break;
    case "ratings": scheduleRefresh(loadRatings); scheduleRefresh(loadLeaderboard); break;
    case "seasons": case "season_results": case "season_standings":
      scheduleRefresh(loadSeasons); break;
  }
}
function follow() {
  // EventSource resends Last-Event-ID by itself when it reconnects.
  const source = new EventSource("/v1/feed?from=now");
  source.addEventListener("change", (message) => {
    JSON.parse(message.data).changes.forEach(onChange);
    $("feed-status").textContent = `feed: live (last ${message.lastEventId})`;
    document.body.dataset.lastEventId = message.lastEventId;
  });
  source.onerror = () => { $("feed-status").textContent = "feed: reconnecting"; };
}

async function start() {
  $("tournament-select").onchange = (e) => { tournament = e.target.value; loadLeaderboard(); };
  $("season-select").onchange = (e) => { season = e.target.value; loadSeason(); };
  $("replay-select").onchange = (e) => openReplay(e.target.value);
  $("replay-prev").onclick = () => move(-1);
  $("replay-next").onclick = () => move(1);
  $("replay-play").onclick = () => {
    if (replayTimer) { clearInterval(replayTimer); replayTimer = null; return; }
    replayTimer = setInterval(() => move(1), 300);
  };
  const counters = await getJSON("/v1/counters");
  showCounters(counters);
  follow();
  setInterval(() => getJSON("/v1/counters").then(showCounters).catch(() => {}), 5000);
  await Promise.all([loadTournaments(), loadBoards(), loadSeasons(), loadRatings(), loadFinished()]);
  document.body.dataset.ready = "true";
}
start().catch((e) => { $("feed-status").textContent = `error: ${e.message}`; });
