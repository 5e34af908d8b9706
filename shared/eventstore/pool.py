"""Connections to the event store: jsonb as raw bytes both ways, and the restricted role from the first packet."""

from __future__ import annotations

import asyncpg

JSONB_BINARY_VERSION = b"\x01"


async def init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec(
        "jsonb",
        schema="pg_catalog",
        format="binary",
        encoder=lambda data: JSONB_BINARY_VERSION + (data.encode() if isinstance(data, str) else data),
        decoder=lambda data: data[1:],
    )


def server_settings(role: str | None) -> dict[str, str]:
    # A startup parameter, so the pool's RESET ALL on release keeps it.
    return {"role": role} if role else {}


async def create_pool(dsn: str, *, role: str | None = None, min_size: int = 1, max_size: int = 10) -> asyncpg.Pool:
    pool = await asyncpg.create_pool(
        dsn, min_size=min_size, max_size=max_size, init=init_connection, server_settings=server_settings(role)
    )
    assert pool is not None
    return pool


async def connect(dsn: str, *, role: str | None = None) -> asyncpg.Connection:
    conn = await asyncpg.connect(dsn, server_settings=server_settings(role))
    await init_connection(conn)
    return conn
