"""The ratings read model: one OpenSkill rating per player, updated from every ended game in the same transaction
as the follower's checkpoint."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from shared.ratings import Rating, ranks_from_winners, rate


async def ratings_of(conn: asyncpg.Connection, players: Sequence[str], *, lock: bool = False) -> dict[str, Rating]:
    rows = await conn.fetch("SELECT player_id, mu, sigma FROM player_ratings WHERE player_id = ANY($1)"
                            + (" ORDER BY player_id FOR UPDATE" if lock else ""), list(players))
    known = {row[0]: Rating(row[1], row[2]) for row in rows}
    return {p: known.get(p, Rating()) for p in players}


async def rate_game(conn: asyncpg.Connection, players: Sequence[str | None], winners: Sequence[int]) -> None:
    """Rate the seats that have a player id (bot seats without one are not rated)."""
    ranks = ranks_from_winners(len(players), winners)
    rated = [(p, rank) for p, rank in zip(players, ranks, strict=True) if p is not None]
    if len({p for p, _ in rated}) != len(rated) or len(rated) < 2:
        return
    before = await ratings_of(conn, [p for p, _ in rated], lock=True)
    after = rate([before[p] for p, _ in rated], [rank for _, rank in rated])
    await conn.executemany(
        "INSERT INTO player_ratings (player_id, mu, sigma, games) VALUES ($1, $2, $3, 1)"
        " ON CONFLICT (player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " games = player_ratings.games + 1, updated_at = clock_timestamp()",
        [(p, r.mu, r.sigma) for (p, _), r in zip(rated, after, strict=True)])
