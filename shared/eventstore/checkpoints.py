"""Consumers of the global log keep their place here, in the same transaction as their own writes."""

from __future__ import annotations

import asyncpg

from shared.eventstore.types import Checkpoint


async def load_checkpoint(conn: asyncpg.Connection, name: str) -> Checkpoint:
    row = await conn.fetchrow("SELECT tx::text::bigint, position FROM checkpoints WHERE name = $1", name)
    return Checkpoint(row[0], row[1]) if row else Checkpoint()


async def save_checkpoint(conn: asyncpg.Connection, name: str, checkpoint: Checkpoint) -> None:
    """Saved without waiting for the disk, with what the caller's transaction wrote (migration 0003 says why)."""
    await conn.execute("SELECT save_checkpoint($1, $2, $3)", name, checkpoint.tx, checkpoint.position)
