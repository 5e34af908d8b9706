"""Each projection's tables live in generations (``standings_<table>_g<n>``); ``standings_generations`` names the
one that serves. A rebuild fills a fresh generation and swaps that row; readers and the live fold follow it."""

from __future__ import annotations

import asyncpg

from services.standings.projections import PROJECTIONS
from services.standings.projections.base import Projection

BOOTSTRAP_LOCK = 0x57A9D1
"""pg_advisory_xact_lock key: one process at a time creates the first generation's tables."""


def table_name(base: str, generation: int) -> str:
    return f"standings_{base}_g{generation}"


def tables_of(projection: Projection, generation: int) -> dict[str, str]:
    return {base: table_name(base, generation) for base in projection.tables}


def checkpoint_name(projection: str, generation: int) -> str:
    return f"standings:{projection}:g{generation}"


async def create_tables(conn: asyncpg.Connection, projection: Projection, generation: int) -> None:
    for base, columns in projection.tables.items():
        await conn.execute(f"CREATE TABLE IF NOT EXISTS {table_name(base, generation)} ({columns})")


async def drop_tables(conn: asyncpg.Connection, projection: Projection, generation: int) -> None:
    for base in projection.tables:
        await conn.execute(f"DROP TABLE IF EXISTS {table_name(base, generation)}")


async def bootstrap(conn: asyncpg.Connection) -> None:
    """Generation 1 of every projection, the first time."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", BOOTSTRAP_LOCK)
        for name, projection in PROJECTIONS.items():
            generation = await conn.fetchval(
                "SELECT generation FROM standings_generations WHERE projection = $1", name)
            if generation is None:
                generation = 1
                await conn.execute("INSERT INTO standings_generations VALUES ($1, 1)", name)
            await create_tables(conn, projection, generation)


async def current(conn: asyncpg.Connection, *, lock: str | None = None) -> dict[str, int]:
    """projection -> serving generation; ``lock`` = "SHARE" (the live fold) or "UPDATE" (a swap)."""
    suffix = f" FOR {lock}" if lock else ""
    rows = await conn.fetch(f"SELECT projection, generation FROM standings_generations ORDER BY projection{suffix}")
    return {row[0]: row[1] for row in rows}


async def serving_table(conn: asyncpg.Connection, projection: str, base: str) -> str:
    generation = await conn.fetchval("SELECT generation FROM standings_generations WHERE projection = $1", projection)
    return table_name(base, generation or 1)
