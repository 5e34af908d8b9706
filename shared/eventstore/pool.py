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


async def kept_as_is(conn: asyncpg.Connection) -> None:
    """What the pool does to a released connection beyond asyncpg's own part (roll back a transaction left open,
    drop listener callbacks): nothing. asyncpg's default would also send ``pg_advisory_unlock_all(); CLOSE ALL;
    UNLISTEN *; RESET ALL`` on every release, one round trip more per acquire. Our code sets no session variables
    and holds no cursor outside a transaction, nor LISTENs (readers of the log are woken over NATS); the engine's
    partition leases are advisory locks on a connection of their own, never a pooled one."""


async def create_pool(dsn: str, *, role: str | None = None, min_size: int = 1, max_size: int = 10) -> asyncpg.Pool:
    pool = await asyncpg.create_pool(
        dsn, min_size=min_size, max_size=max_size, init=init_connection, server_settings=server_settings(role),
        reset=kept_as_is,
    )
    assert pool is not None
    return pool


async def connect(dsn: str, *, role: str | None = None) -> asyncpg.Connection:
    conn = await asyncpg.connect(dsn, server_settings=server_settings(role))
    await init_connection(conn)
    return conn
