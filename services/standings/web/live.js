// Live boards: every running Vortex race, Hockey game and Phantoms season, drawn, and redrawn as the feed moves them.
import { $, el, replace, seatName, ago } from "/lib/dom.js";
import { drawGame, GAME_TITLES } from "/lib/boards.js";

const SHOWN = 12;
const ENDED_KEPT_MS = 90_000;

export class LiveBoards {
  constructor(root, names) {
    this.root = root;
    this.names = names;
    this.games = new Map(); // game_id -> {game, version, running, players, bots, view, updated_at, ended_at}
    this.dirty = new Set();
    this.frame = null;
    this.cards = new Map();
  }

  async load(getJSON, allPages) {
    const [boards, seasons] = await Promise.all([allPages("/v1/boards?running=true"),
      allPages("/v1/seasons?running=true")]);
    for (const b of boards) {
      this.names.learn(b.players, b.names);
      this.put({ ...b });
    }
    await Promise.all(seasons.map(async (s) => {
      this.names.learn(s.players, s.names);
      const found = await getJSON(`/v1/seasons/${encodeURIComponent(s.season_id)}`);
      if (found.board) this.putSeason(s.season_id, s.players, found.board);
    }));
  }

  put(board) {
    const known = this.games.get(board.game_id);
    if (known && known.version >= board.version) return;
    this.games.set(board.game_id, { ...known, ...board, ended_at: board.running ? null : Date.now() });
    this.touch(board.game_id);
  }

  putSeason(seasonId, players, board) {
    this.put({ game_id: seasonId, game: "phantoms", version: board.version, running: board.running, players,
      view: board.board, updated_at: board.updated_at });
  }

  /** A feed change of the boards or season_boards projection. */
  async change(change) {
    if (change.projection === "boards") {
      const data = change.data;
      await this.names.lookup(data.players);
      this.put({ ...data, updated_at: new Date().toISOString() });
    } else if (change.projection === "season_boards") {
      const data = change.data;
      let players = this.games.get(data.season_id)?.players;
      if (!players) {
        const found = await fetch(`/v1/seasons/${encodeURIComponent(data.season_id)}`).then((r) => r.json());
        players = found.season.players;
        this.names.learn(players, found.season.names);
      }
      this.put({ game_id: data.season_id, game: "phantoms", version: data.version, running: data.running, players,
        view: data.board, updated_at: new Date().toISOString() });
    }
  }

  touch(gameId) {
    this.dirty.add(gameId);
    if (!this.frame) this.frame = requestAnimationFrame(() => this.draw());
  }

  shown() {
    const now = Date.now();
    for (const [id, g] of this.games) {
      if (!g.running && now - g.ended_at > ENDED_KEPT_MS) {
        this.games.delete(id);
        this.dirty.add(id);
      }
    }
    // Running first, the ones that moved last first: a table left idle does not hide the tables being played.
    const order = [...this.games.values()].sort((a, b) => (b.running - a.running) ||
      ((b.updated_at || "") > (a.updated_at || "") ? 1 : (b.updated_at || "") < (a.updated_at || "") ? -1 : 0) ||
      (a.game_id < b.game_id ? -1 : 1));
    // One of each kind first, so that a busy tournament of one game does not hide the others.
    const first = ["vortex", "hockeydice", "phantoms"].map((k) => order.find((g) => g.game === k)).filter(Boolean);
    const rest = order.filter((g) => !first.includes(g));
    return [...first, ...rest].slice(0, SHOWN);
  }

  draw() {
    this.frame = null;
    const shown = this.shown();
    const ids = new Set(shown.map((g) => g.game_id));
    for (const [id, card] of this.cards) {
      if (!ids.has(id)) { card.remove(); this.cards.delete(id); }
    }
    if (!shown.length) replace(this.root, el("div", { class: "empty" }, "No game is running right now."));
    else $(".empty", this.root)?.remove();
    for (const g of shown) {
      let card = this.cards.get(g.game_id);
      if (card && !this.dirty.has(g.game_id)) continue;
      const fresh = this.card(g);
      if (card) card.replaceWith(fresh); else this.root.append(fresh);
      if (card) { fresh.classList.add("flash"); setTimeout(() => fresh.classList.remove("flash"), 250); }
      this.cards.set(g.game_id, fresh);
      card = fresh;
    }
    shown.forEach((g) => this.root.append(this.cards.get(g.game_id)));
    this.dirty.clear();
    const running = [...this.games.values()].filter((g) => g.running).length;
    $("#live-hint").textContent = running > SHOWN ?
      `showing ${SHOWN} of ${running} running games, from public facts only` :
      "every running game, from public facts only";
  }

  card(g) {
    const names = (g.players || []).map((p, seat) => this.names.name(p) || seatName([], g.players, seat, g.bots));
    const winners = (g.winners || (g.view && g.view.winners) || []);
    const status = g.running ? el("span", { class: "badge running" }, "live") :
      el("span", { class: "badge finished" }, "ended");
    return el("article", { class: "board-card live-board", dataset: { gameId: g.game_id, game: g.game,
      version: g.version, running: g.running } },
    el("header", {}, el("span", { class: "title" }, GAME_TITLES[g.game] || g.game), status,
      el("span", { class: "grow" }),
      el("span", { class: "muted mono", title: g.game_id }, `v${g.version}`),
      g.running ? null : el("a", { href: `/replay/${encodeURIComponent(g.game_id)}` }, "replay")),
    drawGame(g.game, g.view, { names }),
    !g.running && winners.length ? el("div", { class: "status" }, `won by ${winners.map((s) => names[s]).join(", ")}`) :
      null,
    el("div", { class: "status muted" }, g.updated_at ? `updated ${ago(g.updated_at)}` : ""));
  }
}
