// A tournament: its standings, and round by round its pairings and results (Swiss) or its bracket (single
// elimination, best-of-N series). The newest tournament by creation time is shown first.
import { $, el, replace, fmt, shortId, getJSON, allPages } from "/lib/dom.js";

export class TournamentPanel {
  constructor(names) {
    this.names = names;
    this.tournament = null;
    this.chosenByHand = false;
    this.round = null;
    this.roundByHand = false;
    this.data = null;
    this.board = null;
    $("#tournament-select").addEventListener("change", (e) => {
      this.tournament = e.target.value;
      this.chosenByHand = true;
      this.round = null;
      this.roundByHand = false;
      this.load();
    });
  }

  label(id, names) {
    return (names && names[id]) || this.names.name(id) || shortId(id);
  }

  /** All tournaments, newest first (by creation, else by their first game); the newest running one is chosen. */
  async list() {
    const items = await allPages("/v1/tournaments");
    items.sort((a, b) => (b.created_at || "").localeCompare(a.created_at || "") ||
      b.tournament_id.localeCompare(a.tournament_id));
    const select = $("#tournament-select");
    replace(select, items.map((t) => el("option", { value: t.tournament_id },
      `${t.name || t.tournament_id} — ${t.format || "games"} · ${t.status || (t.running ? "running" : "finished")}` +
      `${t.created_at ? ` · ${new Date(t.created_at).toLocaleString()}` : ""}`)));
    if (!items.length) {
      replace($("#rounds"), el("div", { class: "empty" }, "No tournament yet."));
      return;
    }
    // The one shown stays (a tournament that just ended shows its final ranking), unless the viewer left it to
    // us and a newer one started; an older one still running never takes its place.
    const running = items.find((t) => t.status === "running" || (t.status === null && t.running > 0));
    const shown = items.findIndex((t) => t.tournament_id === this.tournament);
    const newer = running && !this.chosenByHand && items.indexOf(running) < shown;
    if (shown < 0 || newer) this.tournament = (running || items[0]).tournament_id;
    select.value = this.tournament;
    await this.load();
  }

  async load() {
    if (!this.tournament) return;
    const id = encodeURIComponent(this.tournament);
    const [board, data] = await Promise.all([getJSON(`/v1/tournaments/${id}/leaderboard`),
      getJSON(`/v1/tournaments/${id}/rounds`)]);
    this.board = board;
    this.data = data;
    Object.entries(data.names || {}).forEach(([pid, name]) => this.names.names.set(pid, name));
    board.placings.forEach((p) => p.name && this.names.names.set(p.player_id, p.name));
    const current = Math.max(0, ...data.rounds.map((r) => r.round));
    // The newest round, as it starts, unless a round was picked by hand.
    if (this.round === null || this.round > current || !this.roundByHand) this.round = current;
    this.draw();
  }

  draw() {
    const { board, data } = this;
    const planned = board.rounds_planned ? ` of ${board.rounds_planned}` : "";
    $("#tournament-hint").textContent = `${board.name || board.tournament_id}: ${board.format || "tournament of games"}` +
      `${data.best_of ? `, best of ${data.best_of}` : ""}${data.table_size && data.format === "swiss" ?
        `, tables of ${data.table_size}` : ""} · ${board.status || ""} · round ${board.rounds}${planned} · ` +
      `${board.games} games, ${board.running} running`;
    this.drawLeaderboard();
    if (data.format === "elimination") this.drawBracket();
    else this.drawSwiss();
  }

  drawLeaderboard() {
    const { board } = this;
    $("#leaderboard-note").textContent = board.status === "finished" ? "final ranking" :
      board.format === "elimination" ? "still in first, by seed" : "points, then Median-Buchholz";
    replace($("#leaderboard tbody"), board.placings.length ? board.placings.map((p) => el("tr", {
      dataset: { player: p.player_id } },
    el("td", { class: "rank" }, p.rank),
    el("td", {}, el("span", { class: "player", title: p.player_id }, p.name || shortId(p.player_id))),
    el("td", { class: "num" }, fmt(p.points, p.points % 1 ? 2 : 0)),
    el("td", { class: "num" }, fmt(p.median_buchholz, p.median_buchholz % 1 ? 2 : 0)),
    el("td", { class: "num" }, p.games), el("td", { class: "num" }, p.wins), el("td", { class: "num" }, p.byes),
    el("td", { class: "num", title: p.seed ? `seed ${p.seed}, rated ${fmt(p.rating, 2)} at the start` : "" },
      p.current_rating === null || p.current_rating === undefined ? "unrated" : fmt(p.current_rating, 1))))
      : el("tr", {}, el("td", { colspan: 8, class: "empty" }, "Not started yet: players are registering.")));
  }

  roundTabs(rounds, label) {
    replace($("#round-tabs"), rounds.map((r) => el("button", {
      class: r.round === this.round ? "active" : "", dataset: { round: r.round },
      onclick: () => { this.round = r.round; this.roundByHand = true; this.draw(); } }, `${label} ${r.round}${r.completed ? "" : " ●"}`)));
  }

  drawSwiss() {
    const { data } = this;
    $("#rounds-title").textContent = "Swiss rounds";
    const rounds = data.rounds.filter((r) => r.round > 0);
    this.roundTabs(rounds, "Round");
    const round = rounds.find((r) => r.round === this.round);
    if (!round) {
      replace($("#rounds"), el("div", { class: "empty" }, "No round has started yet."));
      return;
    }
    const pairings = round.tables.map((t) => el("div", { class: "pairing", dataset: { table: t.table } },
      el("div", { class: "head" }, el("span", {}, `table ${t.table}`),
        el("span", { class: t.running ? "badge running" : "" }, t.running ? "playing" : "done")),
      t.players.map((p) => el("div", { class: `line${t.winners.includes(p) ? " won" : ""}` },
        el("span", { class: "player" }, this.label(p, data.names)),
        el("span", {}, t.running ? "" : t.winners.includes(p) ? (t.winners.length > 1 ? "shared win" : "won") : "")))));
    const byes = round.byes.length ? el("p", { class: "muted" }, `Byes (a point each): ${round.byes.map((p) =>
      this.label(p, data.names)).join(", ")}`) : null;
    const standings = round.standings || (round.round === Math.max(...rounds.map((r) => r.round)) ?
      this.board.placings : null);
    const table = standings ? el("div", { class: "standings-after" },
      el("h3", {}, round.standings ? `Standings after round ${round.round}` : `Standings so far (round ${round.round} is being played)`),
      el("table", { class: "data compact round-standings" },
        el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "player"), el("th", { class: "num" }, "points"),
          el("th", { class: "num" }, "Median-Buchholz"), el("th", { class: "num" }, "games"))),
        el("tbody", {}, standings.map((p) => el("tr", {}, el("td", { class: "rank" }, p.rank),
          el("td", {}, el("span", { class: "player" }, this.label(p.player_id, data.names))),
          el("td", { class: "num" }, fmt(p.points, p.points % 1 ? 2 : 0)),
          el("td", { class: "num" }, fmt(p.median_buchholz, p.median_buchholz % 1 ? 2 : 0)),
          el("td", { class: "num" }, p.games)))))) : null;
    replace($("#rounds"), el("div", { class: "pairings" }, pairings), byes, table);
  }

  drawBracket() {
    const { data, board } = this;
    $("#rounds-title").textContent = `Bracket${data.best_of > 1 ? ` — best of ${data.best_of}` : ""}`;
    replace($("#round-tabs"));
    const total = Math.max(board.rounds_planned || 0, data.rounds.length);
    const columns = [];
    for (let number = 1; number <= total; number++) {
      const round = data.rounds.find((r) => r.round === number);
      const pairs = round && round.bracket.length ? round.bracket : null;
      const size = 2 ** (total - number);
      const matches = pairs ? pairs.map((pair) => this.match(pair, round)) :
        Array.from({ length: size }, () => this.match([], null));
      const name = number === total ? "Final" : number === total - 1 ? "Semi-finals" : `Round ${number}`;
      columns.push(el("div", { class: "col", dataset: { round: number } }, el("h3", {}, name), matches));
    }
    const champion = board.status === "finished" && board.placings[0];
    if (champion) {
      columns.push(el("div", { class: "col" }, el("h3", {}, "Champion"),
        el("div", { class: "match" }, el("div", { class: "slot won" }, `★ ${this.label(champion.player_id, data.names)}`))));
    }
    replace($("#rounds"), el("div", { class: "bracket" }, columns));
  }

  match(pair, round) {
    if (!pair.length) {
      return el("div", { class: "match pending" }, el("div", { class: "slot muted" }, "to be decided"),
        el("div", { class: "slot muted" }, "to be decided"));
    }
    if (pair.length === 1) {
      return el("div", { class: "match bye" }, el("div", { class: "slot won" }, this.label(pair[0], this.data.names),
        el("span", { class: "muted" }, "bye")));
    }
    const table = round.tables.find((t) => pair.every((p) => t.players.includes(p)));
    const winner = table && table.winners.length === 1 ? table.winners[0] : null;
    return el("div", { class: `match${table && table.running ? " live" : ""}`, dataset: { table: table?.table ?? "" } },
      pair.map((p) => el("div", { class: `slot${winner === p ? " won" : winner ? " out" : ""}` },
        el("span", { class: "player" }, this.label(p, this.data.names)),
        el("span", { class: "score" }, table ? table.wins[p] ?? 0 : ""))),
      table ? el("div", { class: "slot muted", style: "font-size:11px" },
        `${table.games.length} game${table.games.length === 1 ? "" : "s"}${table.running ? " · playing" : ""}`) : null);
  }
}
