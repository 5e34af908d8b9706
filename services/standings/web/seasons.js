// A Phantoms season: the seed's paper scorepad and the game on the ice. The newest season by its opening is shown
// first, a running one before a finished one.
import { $, el, replace, getJSON, allPages } from "/lib/dom.js";
import { drawScorepad } from "/lib/phantoms.js";
import { drawGame } from "/lib/boards.js";

export class SeasonPanel {
  constructor(names) {
    this.names = names;
    this.season = null;
    this.chosenByHand = false;
    $("#season-select").addEventListener("change", (e) => {
      this.season = e.target.value;
      this.chosenByHand = true;
      this.load();
    });
  }

  async list() {
    const items = await allPages("/v1/seasons");
    items.sort((a, b) => (b.running - a.running) || b.opened_at.localeCompare(a.opened_at));
    items.forEach((s) => this.names.learn(s.players, s.names));
    replace($("#season-select"), items.map((s) => el("option", { value: s.season_id },
      `${s.running ? "● " : ""}${(s.names || []).map((n, i) => n || `M${i + 1}`).join(", ").slice(0, 70)} — ` +
      `${s.edition} · ${new Date(s.opened_at).toLocaleString()}`)));
    if (!items.length) {
      replace($("#scorepad"), el("div", { class: "empty" }, "No Phantoms season yet."));
      return;
    }
    if (!this.chosenByHand || !items.some((s) => s.season_id === this.season)) this.season = items[0].season_id;
    $("#season-select").value = this.season;
    await this.load();
  }

  async load() {
    if (!this.season) return;
    const found = await getJSON(`/v1/seasons/${encodeURIComponent(this.season)}`);
    const s = found.season;
    this.names.learn(s.players, s.names);
    const names = s.players.map((p, i) => (s.names && s.names[i]) || (p ? p.slice(0, 12) : `Manager ${i + 1}`));
    $("#season-hint").textContent = `${s.edition === "poti" ? "Phantoms of the Ice" : "Power Play"} · ` +
      `${s.running ? "running" : "finished"} · ${found.results.length} games`;
    replace($("#scorepad"), drawScorepad(found.scorepad, names, s.seats));
    replace($("#season-board"), found.board ? drawGame("phantoms", found.board.board, { names }) :
      el("div", { class: "empty" }, "No board yet."));
    $("#scorepad-card").dataset.season = this.season;
  }

  /** Seasons' feed changes: the shown season is read again (after a short pause that gathers a burst). */
  changed(seasonId) {
    if (seasonId && seasonId !== this.season && this.chosenByHand) return false;
    return true;
  }
}
