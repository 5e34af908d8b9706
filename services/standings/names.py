"""Players' registered names for the ids a read shows (the ``players`` projection); an id without a registration
(a test's or a bot's made-up id) has no name, and the page shows the id."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import asyncpg

from services.standings.generations import serving_table


async def names_of(conn: asyncpg.Connection, ids: Iterable[str | None]) -> dict[str, str]:
    wanted = sorted({i for i in ids if i})
    if not wanted:
        return {}
    table = await serving_table(conn, "players", "players")
    rows = await conn.fetch(f"SELECT player_id, name FROM {table} WHERE player_id = ANY($1::text[])", wanted)
    return {row[0]: row[1] for row in rows}


async def with_names(conn: asyncpg.Connection, items: list[dict[str, Any]], field: str = "players") -> None:
    """Each item's ``names``: the name of each id in its ``field`` list (None where there is none)."""
    names = await names_of(conn, (p for item in items for p in item.get(field) or ()))
    for item in items:
        item["names"] = [names.get(p) if p else None for p in item.get(field) or ()]


async def with_name(conn: asyncpg.Connection, items: list[dict[str, Any]], field: str = "player_id") -> None:
    """Each item's ``name``: the name of its ``field`` id (None without one)."""
    names = await names_of(conn, (item.get(field) for item in items))
    for item in items:
        item["name"] = names.get(item.get(field) or "")
