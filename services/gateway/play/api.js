// The gateway's API from the page, and what this browser keeps: the player's key, the games it opened or joined,
// and each game's seed commitment as first seen (so that the end-of-game check compares with what was shown then).

const PLAYER = "phantom-league.player";
const GAMES = "phantom-league.games";
const TOURNAMENTS = "phantom-league.tournaments";
const COMMITMENT = "phantom-league.commitment.";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

export const me = () => JSON.parse(localStorage.getItem(PLAYER) || "null");
export const forget = () => localStorage.removeItem(PLAYER);

export async function api(method, path, body = undefined, headers = {}) {
  const player = me();
  const response = await fetch(path, {
    method,
    headers: { ...(player ? { Authorization: `Bearer ${player.token}` } : {}),
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text }; }
  if (!response.ok) throw new ApiError(response.status, data && data.code || String(response.status),
    data && data.message || response.statusText);
  return data;
}

export async function register(name) {
  const player = await api("POST", "/v1/players", { name });
  localStorage.setItem(PLAYER, JSON.stringify(player));
  return player;
}

export function newKey() {
  return crypto.randomUUID().replaceAll("-", "");
}

export function keptGames() {
  return JSON.parse(localStorage.getItem(GAMES) || "[]");
}

export function keepGame(gameId, game) {
  const games = keptGames().filter((g) => g.game_id !== gameId);
  games.unshift({ game_id: gameId, game, kept_at: new Date().toISOString() });
  localStorage.setItem(GAMES, JSON.stringify(games.slice(0, 100)));
}

export function keptTournaments() {
  return JSON.parse(localStorage.getItem(TOURNAMENTS) || "[]");
}

export function keepTournament(tournamentId, name) {
  const kept = keptTournaments().filter((t) => t.tournament_id !== tournamentId);
  kept.unshift({ tournament_id: tournamentId, name });
  localStorage.setItem(TOURNAMENTS, JSON.stringify(kept.slice(0, 50)));
}

/** The commitment first seen for a game; the first call records it. */
export function noteCommitment(gameId, commitment) {
  const key = COMMITMENT + gameId;
  const noted = JSON.parse(localStorage.getItem(key) || "null");
  if (noted || !commitment) return noted;
  const record = { commitment, at: new Date().toISOString() };
  localStorage.setItem(key, JSON.stringify(record));
  return record;
}

export function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return [...bytes].map((b) => b.toString(36).padStart(2, "0")).join("").slice(0, 20);
}
