"""A benchmark's proof that speed cost no correctness: a sample of the games it played, audited from the log."""

from __future__ import annotations

import random

from shared.audit import audit_game
from shared.audit.fetch import fetch_game
from shared.eventstore import EventStore
from shared.eventstore.pool import create_pool

SAMPLE = 50


async def audit_sample(database_url: str, tournament_id: str, size: int = SAMPLE) -> tuple[int, int]:
    """(verified, audited) over ``size`` games of the tournament drawn at random; prints each that fails."""
    pool = await create_pool(database_url)
    try:
        store = EventStore(pool)
        game_ids = [row[0] for row in await pool.fetch(
            "SELECT stream_id FROM events WHERE type = 'engine.GameOpened' AND data->>'tournament_id' = $1",
            tournament_id)]
        sample = random.Random(1).sample(game_ids, min(size, len(game_ids)))
        verified = 0
        for game_id in sample:
            report = audit_game(game_id, *await fetch_game(store, game_id))
            verified += report.verified
            if not report.verified:
                print(f"  NOT VERIFIED: {report}")
    finally:
        await pool.close()
    return verified, len(sample)
