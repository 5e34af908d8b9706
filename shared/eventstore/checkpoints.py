"""Consumers of the global log keep their place here, in the same transaction as their own writes."""

from __future__ import annotations

import asyncpg

from shared.eventstore.types import Checkpoint


async def load_checkpoint(conn: asyncpg.Connection, name: str) -> Checkpoint:
    row = await conn.fetchrow("SELECT tx::text::bigint, position FROM checkpoints WHERE name = $1", name)
    return Checkpoint(row[0], row[1]) if row else Checkpoint()


async def save_checkpoint(conn: asyncpg.Connection, name: str, checkpoint: Checkpoint) -> None:
    await conn.execute(
        "INSERT INTO checkpoints (name, tx, position) VALUES ($1, $2::bigint::text::xid8, $3)"
        " ON CONFLICT (name) DO UPDATE SET tx = excluded.tx, position = excluded.position,"
        " updated_at = clock_timestamp()",
        name, checkpoint.tx, checkpoint.position,
    )
