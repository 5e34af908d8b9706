// Ratings, best first, each with its trend; the selected player's rating after every rated game as a chart.
import { $, el, replace, fmt, shortId, getJSON, allPages } from "/lib/dom.js";
import { ratingChart, sparkline } from "/lib/chart.js";

const TOP = 25;
const SPARKS = 12;

export class RatingsPanel {
  constructor() {
    this.selected = null;
    this.histories = new Map();
  }

  async history(player) {
    const items = await allPages(`/v1/players/${encodeURIComponent(player)}/history`);
    this.histories.set(player, items);
    return items;
  }

  async load() {
    const { items } = await getJSON(`/v1/ratings?order=ordinal&limit=${TOP}`);
    this.items = items;
    if (!items.some((r) => r.player_id === this.selected)) this.selected = items.length ? items[0].player_id : null;
    const histories = await Promise.all(items.slice(0, SPARKS).map((r) => this.history(r.player_id)));
    replace($("#ratings-table tbody"), items.length ? items.map((r, i) => el("tr", {
      class: r.player_id === this.selected ? "selected" : "", dataset: { player: r.player_id },
      onclick: () => { this.selected = r.player_id; this.load(); } },
    el("td", { class: "rank" }, i + 1),
    el("td", {}, el("span", { class: "player", title: r.player_id }, r.name || shortId(r.player_id))),
    el("td", { class: "num" }, fmt(r.ordinal, 2)), el("td", { class: "num" }, `${fmt(r.mu, 1)} ± ${fmt(r.sigma, 1)}`),
    el("td", { class: "num" }, r.games), el("td", { class: "num" }, r.wins),
    el("td", {}, i < SPARKS ? sparkline(histories[i]) : ""))) :
      el("tr", {}, el("td", { colspan: 7, class: "empty" }, "Nobody is rated yet: ratings come with finished games.")));
    await this.chart();
  }

  async chart() {
    if (!this.selected) {
      replace($("#chart"), el("div", { class: "empty" }, "No rated player yet."));
      return;
    }
    const row = this.items.find((r) => r.player_id === this.selected);
    const history = this.histories.get(this.selected) || await this.history(this.selected);
    $("#chart-title").textContent = `Rating history — ${row ? row.name || shortId(row.player_id) : this.selected}`;
    replace($("#chart"), ratingChart(history),
      el("p", { class: "muted" }, "The rating (ordinal, mu − 3 sigma) after each rated game: green a win, red a loss. Hover a point for mu and sigma."));
  }
}
