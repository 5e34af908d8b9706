// One game on the play page: your seat's view as the gateway sends it (and nothing else), live over the game's
// WebSocket, your legal moves as buttons, the client seed when the game asks for one, and at the end your result
// with the audit link and every draw recomputed here, in the browser.
import { $, el, replace, seatColour, seatName, getJSON } from "/lib/dom.js";
import { drawGame, GAME_TITLES } from "/lib/boards.js";
import { card as drawCard } from "/lib/phantoms.js";
import { commandText, spiralRegionOf } from "/lib/words.js";
import { checkBundle } from "/lib/fairness.js";
import { api, me, newKey, noteCommitment, randomSeed } from "./api.js";

const RECONNECT_MS = [500, 1000, 2000, 4000, 8000];
const REVEAL_WAIT_MS = 30_000;

export class GameScreen {
  constructor(gameId, standings) {
    this.gameId = gameId;
    this.standings = standings;
    this.game = gameId.split("-")[0];
    this.view = null;
    this.players = [];
    this.names = [];
    this.cards = {};
    this.socket = null;
    this.closed = false;
    this.attempt = 0;
    this.sending = false;
    this.checked = false;
  }

  async start() {
    $("#game-title").textContent = GAME_TITLES[this.game] || this.game;
    replace($("#moves"), el("p", { class: "waiting" }, "Loading your view…"));
    replace($("#fairness"));
    $("#result-card").hidden = true;
    $("#seed-card").hidden = true;
    $("#hand-card").hidden = true;
    await this.seats();
    this.show(await api("GET", `/v1/games/${encodeURIComponent(this.gameId)}`));
    this.connect();
    for (let wait = 500; !this.names.length && this.standings && !this.closed && wait < 8000; wait *= 2) {
      // A game just opened reaches the public directory a moment later.
      await new Promise((resolve) => setTimeout(resolve, wait));
      await this.seats();
      if (this.names.length && this.view) this.redraw();
    }
  }

  redraw() {
    const view = this.view;
    this.view = null;
    this.show(view);
  }

  stop() {
    this.closed = true;
    if (this.socket) this.socket.close();
  }

  /** Who sits where, from the public directory of games (names only; the seat view comes from the gateway). */
  async seats() {
    if (!this.standings) return;
    try {
      const player = me();
      const { items } = await getJSON(`${this.standings}/v1/games?player=${encodeURIComponent(player.player_id)}&limit=100`);
      const found = items.find((g) => g.game_id === this.gameId);
      if (found) {
        this.players = found.players;
        this.names = found.players.map((p, seat) => (p === player.player_id ? `${found.names[seat] || player.name} (you)` :
          seatName(found.names, found.players, seat, found.bots)));
      }
    } catch (error) {
      console.warn("no names from the standings:", error);
    }
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/v1/games/${encodeURIComponent(this.gameId)}/ws?access_token=` +
      encodeURIComponent(me().token);
    const socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    this.socketState("connecting");
    socket.onopen = () => { this.attempt = 0; this.socketState("live"); };
    socket.onmessage = (message) => {
      const text = typeof message.data === "string" ? message.data : new TextDecoder().decode(message.data);
      this.show(JSON.parse(text));
    };
    socket.onclose = () => {
      if (this.closed || (this.view && this.view.ended)) {
        this.socketState(this.view && this.view.ended ? "ended" : "closed");
        return;
      }
      this.socketState("reconnecting");
      const delay = RECONNECT_MS[Math.min(this.attempt++, RECONNECT_MS.length - 1)];
      setTimeout(() => this.connect(), delay);
    };
  }

  socketState(state) {
    const badge = $("#socket-state");
    badge.textContent = state === "live" ? "live" : state;
    badge.className = `badge ${state === "live" ? "running" : state === "reconnecting" ? "warn" : ""}`;
    badge.dataset.state = state;
  }

  /** A GameView from the gateway (a reply to a move, or the socket's push): drawn when newer than the one shown. */
  show(view) {
    if (!view || (this.view && view.version < this.view.version)) return;
    this.view = view;
    if (view.ended) this.socketState("ended");
    const rules = view.view;
    if (rules && rules.hand) rules.hand.forEach((c) => { this.cards[c.id] = c; });
    const noted = noteCommitment(this.gameId, view.commitment);
    const seat = view.seat;
    $("#game-hint").textContent = `${this.gameId} · you are ${seat === null ? "watching" : `seat ${seat + 1}`} · ` +
      `event ${view.version}`;
    const names = this.names.length ? this.names : Array.from({ length: 10 }, (_, s) => (s === seat ? "you" : `seat ${s + 1}`));
    replace($("#board"), drawGame(this.game, rules, { names, cards: this.cards }));
    $("#board").dataset.version = view.version;
    this.hand(rules);
    this.seed(view);
    this.moves(view, names);
    if (!view.ended) {
      replace($("#fairness"), el("p", {}, "Before the first roll the league committed to its secret dice seed:"),
        el("p", { class: "mono commitment", id: "commitment" }, view.commitment || "–"),
        el("p", { class: "muted" }, noted ? `Noted in this browser ${new Date(noted.at).toLocaleTimeString()}. ` : "",
          "When the game ends the seed is revealed, and this page recomputes every roll and shuffle itself."));
    } else {
      this.finish(view, names, noted);
    }
    if (this.game === "phantoms" && this.standings) this.revealedCards();
  }

  hand(rules) {
    const mine = rules && rules.hand && rules.hand.length ? rules.hand : null;
    $("#hand-card").hidden = !mine;
    if (!mine) return;
    const chosen = rules.choice;
    replace($("#hand"), el("div", { class: "hand" }, mine.map((c) => {
      const drawn = drawCard(c.id, this.cards);
      if (chosen === c.id) drawn.classList.add("goal");
      return drawn;
    })), chosen ? el("p", { class: "muted" }, `Face down: ${this.cards[chosen]?.name || chosen}`) : null);
  }

  seed(view) {
    const seat = view.seat;
    const asked = view.seeding_until && seat !== null && view.pending_seats.includes(seat);
    $("#seed-card").hidden = !view.seeding_until;
    if (!view.seeding_until) return;
    if (!asked) {
      replace($("#seed"), el("p", { class: "muted" }, `Your seed is in. The game starts when every player's seed is in, ` +
        `or at ${new Date(view.seeding_until).toLocaleTimeString()}.`));
      return;
    }
    if ($("#seed-input")) return;
    const input = el("input", { id: "seed-input", value: randomSeed(), maxlength: 64, "aria-label": "your client seed" });
    replace($("#seed"), el("p", {}, "This game mixes a seed of yours into every roll and shuffle, so the league's seed " +
      "alone decides nothing. Keep this one or type your own:"),
    el("div", { class: "form-row" }, input, el("button", { class: "primary", id: "seed-send", onclick: async () => {
      try {
        await api("POST", `/v1/games/${encodeURIComponent(this.gameId)}/client-seed`, { client_seed: input.value });
        localStorage.setItem(`phantom-league.seed.${this.gameId}`, input.value);
        replace($("#seed"), el("p", { class: "muted" }, `Seed sent: ${input.value}`));
      } catch (error) {
        $("#move-error").textContent = error.message;
      }
    } }, "Send my seed")),
    el("p", { class: "muted" }, `The game waits until ${new Date(view.seeding_until).toLocaleTimeString()} at most.`));
  }

  moves(view, names) {
    const legal = Array.isArray(view.legal) ? view.legal : [];
    const rules = view.view;
    $("#turn-title").textContent = view.ended ? "Game over" : legal.length ? "Your move" : "Waiting";
    if (view.ended) { replace($("#moves"), el("p", { class: "waiting" }, "No more moves.")); return; }
    if (!legal.length) {
      const waiting = (view.pending_seats || []).map((s) => names[s] || `seat ${s + 1}`).join(", ");
      replace($("#moves"), el("p", { class: "waiting" }, view.seeding_until ? "Waiting for the players' seeds." :
        waiting ? `Waiting for ${waiting}.` : "Waiting."));
      return;
    }
    const who = (s) => names[s] || `seat ${s + 1}`;
    const card = (id) => (this.cards[id] ? `${this.cards[id].name} (${this.cards[id].position} ${this.cards[id].value})` : id);
    replace($("#moves"), el("div", { class: "moves" }, legal.map((command) => el("button", {
      class: "move", dataset: { command: command.type }, disabled: this.sending,
      onclick: () => this.send(command) }, commandText(command, { who, card, spiralRegion: spiralRegionOf(rules) })))));
  }

  async send(command) {
    this.sending = true;
    document.querySelectorAll("#moves button").forEach((b) => { b.disabled = true; });
    $("#move-error").textContent = "";
    try {
      const done = await api("POST", `/v1/games/${encodeURIComponent(this.gameId)}/commands`, command,
        { "Idempotency-Key": newKey() });
      this.sending = false;
      const view = done.view || await api("GET", `/v1/games/${encodeURIComponent(this.gameId)}`);
      // The socket may have brought a newer view while the reply was on its way: then that one is redrawn.
      if (this.view && view.version < this.view.version) this.redraw(); else this.show(view);
    } catch (error) {
      this.sending = false;
      $("#move-error").textContent = `${error.code ? `${error.code}: ` : ""}${error.message}`;
      const view = await api("GET", `/v1/games/${encodeURIComponent(this.gameId)}`);
      if (this.view && view.version < this.view.version) this.redraw(); else this.show(view);
    }
  }

  finish(view, names, noted) {
    $("#result-card").hidden = false;
    const seat = view.seat;
    const winners = view.winners || [];
    const line = seat !== null && winners.includes(seat) ? (winners.length > 1 ? "You share the win!" : "You won!") :
      winners.length ? `${winners.map((s) => names[s] || `seat ${s + 1}`).join(", ")} won.` : "Nobody won.";
    const audit = `/audit/${encodeURIComponent(this.gameId)}${noted ? `?commitment=${noted.commitment}` : ""}`;
    replace($("#result"), el("p", { class: "result-line", id: "result-line" }, line),
      el("p", {}, el("a", { href: audit, id: "audit-link", target: "_blank" }, "The referee's audit of this game"),
        this.standings ? [" · ", el("a", { href: `${this.standings}/replay/${encodeURIComponent(this.gameId)}`,
          target: "_blank" }, "replay it event by event")] : null));
    if (!this.checked) {
      this.checked = true;
      this.check(noted);
    }
  }

  /** Every draw of the game recomputed here from the revealed seed (the seed may take a moment to be revealed). */
  async check(noted) {
    const box = el("div", { class: "fair", id: "fair-check" }, "Waiting for the league to reveal its seed…");
    replace($("#fairness"), box);
    const deadline = Date.now() + REVEAL_WAIT_MS;
    for (;;) {
      let result;
      try {
        const response = await fetch(`/audit/${encodeURIComponent(this.gameId)}/bundle`);
        if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
        result = await checkBundle(await response.text(), { noted: noted && noted.commitment,
          onProgress: (n, total) => { box.textContent = `Recomputing draws: ${n} of ${total}…`; } });
      } catch (error) {
        result = { ok: false, message: `could not check: ${error.message}` };
      }
      if (result.pending && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      box.className = `fair ${result.ok ? "good" : "bad"}`;
      box.dataset.verdict = result.ok ? "ok" : "mismatch";
      replace(box, el("b", {}, result.ok ? "✓ Every roll and shuffle checked here" : "✗ A draw does not check out"),
        el("p", { style: "margin:6px 0 0" }, result.message),
        result.mismatch ? el("p", { class: "mono", id: "first-difference" },
          `first difference: event ${result.mismatch.version}, draw #${result.mismatch.nonce} ` +
          `${JSON.stringify(result.mismatch.request)}: expected [${result.mismatch.expected}], ` +
          `recorded [${result.mismatch.found}]`) : null,
        result.ok ? el("p", { class: "muted mono commitment" }, `seed ${result.seed}`, el("br"),
          `sha256 = ${result.commitment}${noted ? " = the commitment noted at the start" : ""}`) : null,
        el("p", { class: "muted" }, "Computed in this browser with Web Crypto (HMAC-SHA256), recipe v1 of docs/fairness.md."));
      return;
    }
  }

  /** Phantoms: the printed details of revealed cards (public) from the season's live board. */
  async revealedCards() {
    if (this.cardsAsked && Date.now() - this.cardsAsked < 1500) return;
    this.cardsAsked = Date.now();
    try {
      const found = await getJSON(`${this.standings}/v1/seasons/${encodeURIComponent(this.gameId)}`);
      const known = Object.keys(this.cards).length;
      Object.assign(this.cards, (found.board && found.board.board.cards) || {});
      if (Object.keys(this.cards).length > known && this.view) {
        replace($("#board"), drawGame(this.game, this.view.view, { names: this.names, cards: this.cards }));
      }
    } catch { /* the standings may not have folded the season yet */ }
  }
}

export const seatDot = (seat) => el("span", { class: "seat-dot", style: `background:${seatColour(seat)}` });
