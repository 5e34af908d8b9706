"""A tournament round by round: each round's tables (who sat there, the games of the table's series, their
winners), its byes, and the standings after it with Median-Buchholz; the elimination bracket's pairs in bracket
order. Tables and results come from the games; byes, brackets and round standings from the tournament's stream
(projections/rounds.py). A tournament known only from its games gets its round standings computed here."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import asyncpg
import msgspec

from services.standings.generations import serving_table
from services.standings.leaderboard import TournamentGame, leaderboard
from services.standings.names import names_of
from services.standings.reads import _row, tournament_games
from shared.tournaments.bracket import series_winner


def table_of(number: int, games: list[TournamentGame], best_of: int | None,
             seeds: list[str]) -> dict[str, Any]:
    """One table of a round: its players, the games played there, and who took it (a series' winner)."""
    players = [p for p in games[0].players if p]
    finished = [[player for seat in g.winners or () if (player := g.players[seat])] for g in games if not g.running]
    wins = {p: sum(1 for w in finished if w == [p]) for p in players}
    if best_of is not None and len(players) == 2:
        winner = series_winner(players, finished, best_of, seeds or players)
        winners = [winner] if winner else []
    else:
        winners = finished[-1] if finished and not any(g.running for g in games) else []
    return {"table": number, "players": list(games[0].players), "wins": wins, "winners": winners,
            "running": any(g.running for g in games),
            "games": [{"game_id": g.game_id, "game": g.game, "players": list(g.players),
                       "winners": None if g.winners is None else list(g.winners), "running": g.running}
                      for g in games]}


async def tournament_rounds(conn: asyncpg.Connection, tournament: str) -> dict[str, Any] | None:
    games = await tournament_games(conn, tournament)
    info_table = await serving_table(conn, "rounds", "tournament_info")
    rounds_table = await serving_table(conn, "rounds", "tournament_rounds")
    info = await conn.fetchrow(f"SELECT * FROM {info_table} WHERE tournament_id = $1", tournament)
    if info is None and not games:
        return None
    stored = {r["round"]: r for r in await conn.fetch(
        f"SELECT * FROM {rounds_table} WHERE tournament_id = $1 ORDER BY round", tournament)}
    seeds = json.loads(info["seeds"]) if info is not None and info["seeds"] else []
    best_of = info["best_of"] if info is not None else None
    by_round: dict[int, dict[int, list[TournamentGame]]] = defaultdict(lambda: defaultdict(list))
    for game in games:
        by_round[game.round or 0][game.table or 0].append(game)
    ratings: dict[str, float] = {}
    if info is None:
        table = await serving_table(conn, "ratings", "ratings")
        players = sorted({p for g in games for p in g.players if p})
        ratings = {r[0]: r[1] for r in await conn.fetch(
            f"SELECT player_id, ordinal FROM {table} WHERE player_id = ANY($1::text[])", players)}
    rounds = []
    for number in sorted(set(by_round) | set(stored)):
        row = stored.get(number)
        tables = [table_of(t, by_round[number][t], best_of, seeds) for t in sorted(by_round[number])]
        if row is not None:
            standings = None if row["standings"] is None else json.loads(row["standings"])
            completed = row["completed"]
        else:
            completed = not any(t["running"] for t in tables)
            upto = [g for g in games if (g.round or 0) <= number]
            standings = msgspec.to_builtins(leaderboard(upto, ratings)) if completed else None
        rounds.append({
            "round": number, "completed": completed, "tables": tables,
            "byes": json.loads(row["byes"]) if row is not None else [],
            "bracket": json.loads(row["bracket"]) if row is not None else [],
            "started_at": row["started_at"].isoformat() if row is not None else None,
            "standings": standings})
    ids = {p for g in games for p in g.players if p} | set(seeds)
    for r in rounds:
        ids.update(r["byes"])
        ids.update(p for pair in r["bracket"] for p in pair)
    head: dict[str, Any] = _row(info) if info is not None else {"tournament_id": tournament, "name": None, "game": None,
                                                "format": None, "best_of": None, "table_size": None,
                                                "created_at": None, "seeds": None}
    head.pop("position", None)
    head["seeds"] = seeds
    return {**head, "rounds": rounds, "names": await names_of(conn, ids)}
