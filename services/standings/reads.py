"""Reading the serving generation of each projection, as plain dicts for the JSON feeds."""

from __future__ import annotations

import json
from typing import Any

import asyncpg
import msgspec

from services.standings.generations import serving_table
from services.standings.leaderboard import Placing, TournamentGame, leaderboard
from services.standings.names import with_name, with_names
from services.standings.placings import READ_ORDER, ranked
from services.standings.projections.counters import league_counters
from services.standings.projections.leaderboards import PLACING_COLUMNS
from shared.games.phantoms.scorepad import from_results
from shared.games.phantoms.state import Result


def _row(row: asyncpg.Record) -> dict[str, Any]:
    out = dict(row)
    for key, value in out.items():
        if isinstance(value, bytes):
            out[key] = json.loads(value)
        elif hasattr(value, "isoformat"):
            out[key] = value.isoformat()
    return out


async def counters(conn: asyncpg.Connection) -> dict[str, Any]:
    table = await serving_table(conn, "counters", "counters")
    minutes = await serving_table(conn, "counters", "events_per_minute")
    values = {row[0]: row[1] for row in await conn.fetch(f"SELECT name, value FROM {table}")}
    per_minute = await conn.fetch(f"SELECT minute, events FROM {minutes} ORDER BY minute DESC LIMIT 60")
    return {**league_counters(values), "events_per_minute": [_row(r) for r in reversed(per_minute)]}


async def tournaments(conn: asyncpg.Connection, after: str, limit: int) -> list[dict[str, Any]]:
    """Tournaments seen in game streams or run by matchmaking (``format`` and ``status`` only for the latter)."""
    games = await serving_table(conn, "tournaments", "tournament_games")
    boards = await serving_table(conn, "leaderboards", "leaderboards")
    info = await serving_table(conn, "rounds", "tournament_info")
    opened = await serving_table(conn, "games", "games")
    rows = await conn.fetch(
        f"WITH g AS (SELECT tournament_id, count(*) AS games, count(*) FILTER (WHERE running) AS running,"
        f" max(round) AS rounds FROM {games} GROUP BY tournament_id),"
        f" t AS (SELECT tournament_id, min(opened_at) AS first_game FROM {opened}"
        "  WHERE tournament_id IS NOT NULL GROUP BY tournament_id)"
        " SELECT tournament_id, coalesce(g.games, 0) AS games, coalesce(g.running, 0) AS running, g.rounds,"
        " b.name, b.format, b.status, coalesce(i.created_at, t.first_game) AS created_at"
        f" FROM g FULL JOIN {boards} b USING (tournament_id) LEFT JOIN {info} i USING (tournament_id)"
        " LEFT JOIN t USING (tournament_id)"
        " WHERE tournament_id > $1 ORDER BY tournament_id LIMIT $2", after, limit + 1)
    return [_row(r) for r in rows]


async def tournament_games(conn: asyncpg.Connection, tournament: str) -> list[TournamentGame]:
    table = await serving_table(conn, "tournaments", "tournament_games")
    rows = await conn.fetch(
        f"SELECT game_id, round, table_no, game, players, winners, running FROM {table}"
        " WHERE tournament_id = $1 ORDER BY round NULLS FIRST, table_no NULLS FIRST, game_id", tournament)
    return [TournamentGame(game_id=r[0], round=r[1], table=r[2], game=r[3], players=tuple(json.loads(r[4])),
                           winners=None if r[5] is None else tuple(json.loads(r[5])), running=r[6]) for r in rows]


async def tournament_leaderboard(conn: asyncpg.Connection, tournament: str) -> dict[str, Any] | None:
    """A tournament run by matchmaking: its placings as its own stream scores them (projections/leaderboards.py);
    one known only from game streams: computed here from its games (leaderboard.py)."""
    games = await tournament_games(conn, tournament)
    boards = await serving_table(conn, "leaderboards", "leaderboards")
    header = await conn.fetchrow(f"SELECT name, format, status, rounds_planned FROM {boards} WHERE tournament_id = $1",
                                 tournament)
    if header is not None:
        table = await serving_table(conn, "leaderboards", "leaderboard_placings")
        rows = await conn.fetch(f"SELECT {PLACING_COLUMNS} FROM {table} WHERE tournament_id = $1"
                                f" ORDER BY {READ_ORDER}", tournament)
        placings = ranked([msgspec.convert(dict(r), Placing) for r in rows])
    elif games:
        players = sorted({p for g in games for p in g.players if p})
        table = await serving_table(conn, "ratings", "ratings")
        rows = await conn.fetch(f"SELECT player_id, ordinal FROM {table} WHERE player_id = ANY($1::text[])",
                                players)
        placings = leaderboard(games, {r[0]: r[1] for r in rows})
    else:
        return None
    shown = msgspec.to_builtins(placings)
    await with_name(conn, shown)
    ratings = await serving_table(conn, "ratings", "ratings")
    current = {r[0]: r[1] for r in await conn.fetch(
        f"SELECT player_id, ordinal FROM {ratings} WHERE player_id = ANY($1::text[])", [p.player_id for p in placings])}
    for placing in shown:
        placing["current_rating"] = current.get(placing["player_id"])
    return {"tournament_id": tournament, "games": len(games), "running": sum(g.running for g in games),
            "rounds": max((g.round or 0 for g in games), default=0),
            **(dict(header) if header else {"name": None, "format": None, "status": None, "rounds_planned": None}),
            "placings": shown}


async def seasons(conn: asyncpg.Connection, after: str, limit: int, running: bool | None) -> list[dict[str, Any]]:
    table = await serving_table(conn, "seasons", "seasons")
    rows = await conn.fetch(
        f"SELECT * FROM {table} WHERE season_id > $1 AND ($2::boolean IS NULL OR running = $2)"
        " ORDER BY season_id LIMIT $3", after, running, limit + 1)
    items = [_row(r) for r in rows]
    await with_names(conn, items)
    return items


async def season(conn: asyncpg.Connection, season_id: str) -> dict[str, Any] | None:
    table = await serving_table(conn, "seasons", "seasons")
    row = await conn.fetchrow(f"SELECT * FROM {table} WHERE season_id = $1", season_id)
    if row is None:
        return None
    results_table = await serving_table(conn, "seasons", "season_results")
    standings_table = await serving_table(conn, "seasons", "season_standings")
    results = await conn.fetch(f"SELECT * FROM {results_table} WHERE season_id = $1 ORDER BY seq", season_id)
    standings = await conn.fetch(f"SELECT * FROM {standings_table} WHERE season_id = $1 ORDER BY seat", season_id)
    pad = from_results(row["seats"], (Result(home=r["home"], away=r["away"], home_goals=r["home_goals"],
                                             away_goals=r["away_goals"], winner=r["winner"], kind=r["kind"],
                                             claimed=r["claimed"], forfeit=r["forfeit"],
                                             sudden_deaths=r["sudden_deaths"]) for r in results), row["champion"])
    boards = await serving_table(conn, "season_boards", "season_boards")
    board = await conn.fetchrow(f"SELECT version, running, board, updated_at FROM {boards} WHERE season_id = $1",
                                season_id)
    shown = _row(row)
    await with_names(conn, [shown])
    return {"season": shown, "board": None if board is None else _row(board),
            "scorepad": {"grid": pad.grid, "wins": pad.wins, "postseason": pad.postseason, "champion": pad.champion},
            "standings": [_row(r) for r in standings], "results": [_row(r) for r in results]}


async def ratings(conn: asyncpg.Connection, after: str, limit: int, min_games: int,
                  best_first: bool = False) -> list[dict[str, Any]]:
    """By player id from ``after``, or (``best_first``) the ``limit`` best by ordinal."""
    table = await serving_table(conn, "ratings", "ratings")
    if best_first:
        rows = await conn.fetch(f"SELECT * FROM {table} WHERE games >= $1 ORDER BY ordinal DESC, player_id LIMIT $2",
                                min_games, limit)
    else:
        rows = await conn.fetch(f"SELECT * FROM {table} WHERE player_id > $1 AND games >= $2 ORDER BY player_id"
                                " LIMIT $3", after, min_games, limit + 1)
    items = [_row(r) for r in rows]
    await with_name(conn, items)
    return items


async def history(conn: asyncpg.Connection, player: str, after: tuple[int, int], limit: int) -> list[dict[str, Any]]:
    table = await serving_table(conn, "ratings", "rating_history")
    rows = await conn.fetch(
        f"SELECT game_id, tx, position, won, mu, sigma, ordinal FROM {table} WHERE player_id = $1"
        " AND (tx, position) > ($2, $3) ORDER BY tx, position LIMIT $4", player, *after, limit + 1)
    return [_row(r) for r in rows]


async def boards(conn: asyncpg.Connection, after: str, limit: int, game: str | None,
                 running: bool | None) -> list[dict[str, Any]]:
    table = await serving_table(conn, "boards", "boards")
    rows = await conn.fetch(
        f"SELECT * FROM {table} WHERE game_id > $1 AND ($2::text IS NULL OR game = $2)"
        " AND ($3::boolean IS NULL OR running = $3) ORDER BY game_id LIMIT $4", after, game, running, limit + 1)
    items = [_row(r) for r in rows]
    await with_names(conn, items)
    return items


async def board(conn: asyncpg.Connection, game_id: str) -> dict[str, Any] | None:
    table = await serving_table(conn, "boards", "boards")
    row = await conn.fetchrow(f"SELECT * FROM {table} WHERE game_id = $1", game_id)
    if row is None:
        return None
    item = _row(row)
    await with_names(conn, [item])
    return item


async def changes(conn: asyncpg.Connection, after: tuple[int, int], limit: int) -> list[asyncpg.Record]:
    rows: list[asyncpg.Record] = await conn.fetch(
        "SELECT tx, position, recorded_at, changes FROM standings_feed WHERE (tx, position) > ($1, $2)"
        " ORDER BY tx, position LIMIT $3", *after, limit)
    return rows
