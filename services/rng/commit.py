"""Seeds committed for many games at once: one statement keeps the sealed seeds, then each game's stream gets its
``SeedCommitted``. Creating a game again keeps its first seed, so a retried or repeated request commits nothing
new."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import asyncpg

from services.rng.sealing import Sealer
from shared.fairness import new_server_seed

NAMESPACE = uuid.UUID("5f0c1d9e-3b0a-4c55-9d55-6a1f2c7d8e90")
# The rows this statement inserts are not visible to its own SELECT of rng_seeds: those come from ``inserted``.
KEEP = """
WITH inserted AS (
    INSERT INTO rng_seeds (game_id, sealed) SELECT * FROM unnest($1::text[], $2::bytea[])
    ON CONFLICT DO NOTHING RETURNING game_id, sealed
)
SELECT game_id, sealed FROM inserted
UNION ALL
SELECT game_id, sealed FROM rng_seeds WHERE game_id = ANY($1::text[]) AND game_id NOT IN (SELECT game_id FROM inserted)
"""
KEPT = "SELECT game_id, sealed FROM rng_seeds WHERE game_id = ANY($1::text[])"


def commit_event_id(game_id: str) -> uuid.UUID:
    """The commitment's event id follows from the game id: a repeated create appends nothing new."""
    return uuid.uuid5(NAMESPACE, f"commit:{game_id}")


async def keep_seeds(pool: asyncpg.Pool, sealer: Sealer, game_ids: Sequence[str]) -> dict[str, bytes]:
    """Each game's server seed, opened: a new one sealed and stored, or the one stored before."""
    sealed = [sealer.seal(game_id, new_server_seed()) for game_id in game_ids]
    async with pool.acquire() as conn:
        kept = {row[0]: row[1] for row in await conn.fetch(KEEP, list(game_ids), sealed)}
        missing = [game_id for game_id in game_ids if game_id not in kept]
        if missing:  # stored by a concurrent request that committed after this statement began
            kept.update({row[0]: row[1] for row in await conn.fetch(KEPT, missing)})
    return {game_id: sealer.open(game_id, kept[game_id]) for game_id in game_ids}
