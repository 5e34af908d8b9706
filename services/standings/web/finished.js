// The latest finished games of every kind, each a link into the replay viewer.
import { $, el, replace, ago, seatName, getJSON } from "/lib/dom.js";
import { GAME_TITLES } from "/lib/boards.js";

const KINDS = [["", "all"], ["vortex", "Vortex"], ["hockeydice", "Hockey"], ["phantoms", "Phantoms"]];

export class FinishedGames {
  constructor() {
    this.kind = "";
    replace($("#replay-kinds"), KINDS.map(([kind, label]) => el("button", { class: kind === this.kind ? "active" : "",
      dataset: { kind }, onclick: (e) => { this.kind = kind; this.tabs(e.target); this.load(); } }, label)));
  }

  tabs(active) {
    document.querySelectorAll("#replay-kinds button").forEach((b) => b.classList.toggle("active", b === active));
  }

  async load() {
    const { items } = await getJSON(`/v1/games?running=false&limit=15${this.kind ? `&game=${this.kind}` : ""}`);
    replace($("#finished tbody"), items.length ? items.map((g) => {
      const names = g.players.map((p, seat) => seatName(g.names, g.players, seat, g.bots));
      return el("tr", { dataset: { gameId: g.game_id } },
        el("td", {}, el("span", { class: "finished-kind" }, el("span", { class: `kind-icon ${g.game}` },
          g.game[0].toUpperCase()), GAME_TITLES[g.game] || g.game)),
        el("td", { class: "wrap" }, names.join(", ")),
        el("td", {}, (g.winners || []).map((s) => names[s]).join(", ") || "nobody"),
        el("td", { class: "muted" }, ago(g.ended_at)),
        el("td", {}, el("a", { href: `/replay/${encodeURIComponent(g.game_id)}` }, "replay ▸")));
    }) : el("tr", {}, el("td", { colspan: 5, class: "empty" }, "No finished game yet.")));
  }
}
