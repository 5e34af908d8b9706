"""Who plays and what is played: registered players by name, and every game of the league newest first (all of
them, a player's, a tournament's, running or finished, of one kind or any)."""

from __future__ import annotations

from typing import Any

import asyncpg

from services.standings.generations import serving_table
from services.standings.names import with_names
from services.standings.reads import _row


async def players(conn: asyncpg.Connection, ids: list[str] | None, name: str | None, after: str,
                  limit: int) -> list[dict[str, Any]]:
    """By player id from ``after``; only ``ids`` when given; only names starting with ``name`` (any case)."""
    table = await serving_table(conn, "players", "players")
    prefix = None if name is None else name.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = await conn.fetch(
        f"SELECT player_id, name, registered_at FROM {table} WHERE player_id > $1"
        " AND ($2::text[] IS NULL OR player_id = ANY($2::text[])) AND ($3::text IS NULL OR lower(name) LIKE $3 || '%')"
        " ORDER BY player_id LIMIT $4", after, ids, prefix, limit + 1)
    return [_row(r) for r in rows]


async def games(conn: asyncpg.Connection, *, before: int | None, limit: int, game: str | None = None,
                running: bool | None = None, player: str | None = None,
                tournament: str | None = None) -> list[dict[str, Any]]:
    """Newest first (by the opening's place in the log), those opened before position ``before`` when given."""
    table = await serving_table(conn, "games", "games")
    columns = ("g.game_id, g.position, g.game, g.seats, g.players, g.bots, g.tournament_id, g.round,"
               " g.table_no AS table, g.running, g.winners, g.opened_at, g.ended_at")
    where = ("($1::bigint IS NULL OR g.position < $1) AND ($2::text IS NULL OR g.game = $2)"
             " AND ($3::boolean IS NULL OR g.running = $3) AND ($4::text IS NULL OR g.tournament_id = $4)")
    if player is None:
        rows = await conn.fetch(f"SELECT {columns} FROM {table} g WHERE {where} ORDER BY g.position DESC LIMIT $5",
                                before, game, running, tournament, limit + 1)
    else:
        seats = await serving_table(conn, "games", "player_games")
        rows = await conn.fetch(
            f"SELECT DISTINCT ON (g.position) {columns} FROM {seats} s JOIN {table} g USING (game_id)"
            f" WHERE s.player_id = $6 AND (s.position < $1 OR $1::bigint IS NULL) AND {where}"
            " ORDER BY g.position DESC LIMIT $5", before, game, running, tournament, limit + 1, player)
    items = [_row(r) for r in rows]
    await with_names(conn, items)
    return items
