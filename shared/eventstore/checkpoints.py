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


async def load_checkpoints(conn: asyncpg.Connection, names: list[str]) -> dict[str, Checkpoint]:
    """Many consumers' places in one query (a name never saved is at the start)."""
    rows = await conn.fetch("SELECT name, tx::text::bigint, position FROM checkpoints WHERE name = ANY($1::text[])",
                            names)
    found = {row[0]: Checkpoint(row[1], row[2]) for row in rows}
    return {name: found.get(name, Checkpoint()) for name in names}


async def save_checkpoints(conn: asyncpg.Connection, checkpoints: dict[str, Checkpoint]) -> None:
    """``save_checkpoint`` of many consumers in one statement (migration 0004)."""
    if checkpoints:
        await conn.execute("SELECT save_checkpoints($1, $2, $3)", list(checkpoints),
                           [c.tx for c in checkpoints.values()], [c.position for c in checkpoints.values()])
