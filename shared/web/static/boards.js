// One entry point for drawing any game: the picture, a one-line status, and the details table under it.
import { el } from "./dom.js";
import { drawHockey, hockeyStatus } from "./hockey.js";
import { drawScorepad, drawSeasonGame, seasonManagers, seasonStatus } from "./phantoms.js";
import { drawVortex, vortexPeople, vortexStatus } from "./vortex.js";

export const GAME_TITLES = { vortex: "Phantom's Vortex", hockeydice: "Hockey Championship", phantoms: "Phantoms of the Ice" };

/** `view`: the game's view (vortex.View, hockeydice.HockeyView, a season board or phantoms.SeasonView);
 * `names[seat]`: who sits there; `cards`: a Phantoms deck (id -> card) for a season view without one. */
export function drawGame(game, view, { names = [], cards = null } = {}) {
  if (!view) return el("div", { class: "empty" }, "Waiting for the opening.");
  switch (game) {
    case "vortex":
      return el("div", { class: "drawn" }, drawVortex(view, names), el("div", { class: "status" }, vortexStatus(view, names)),
        vortexPeople(view, names));
    case "hockeydice":
      return el("div", { class: "drawn" }, drawHockey(view, names), el("div", { class: "status" }, hockeyStatus(view, names)));
    case "phantoms": {
      const board = { ...view, cards: { ...(cards || {}), ...(view.cards || {}) },
        games_played: view.games_played ?? (view.results || []).length };
      return el("div", { class: "drawn" }, view.scorepad ? drawScorepad(view.scorepad, names, view.scorepad.seats) : null,
        drawSeasonGame(board, names), seasonManagers(board, names),
        el("div", { class: "status" }, seasonStatus(board, names)));
    }
    default:
      return el("pre", { class: "mono" }, JSON.stringify(view, null, 1).slice(0, 2000));
  }
}

export function statusOf(game, view, names = []) {
  if (!view) return "";
  if (game === "vortex") return vortexStatus(view, names);
  if (game === "hockeydice") return hockeyStatus(view, names);
  if (game === "phantoms") return seasonStatus({ ...view, games_played: view.games_played ?? (view.results || []).length }, names);
  return "";
}
