"""A gateway looks every token it knows up again in one query, a few times within its recheck bound: the revoked,
expired and vanished are forgotten, the others trusted anew, and no player's move waits for a lookup."""

from __future__ import annotations

import asyncio
import uuid

import asyncpg

from services.gateway.auth import KnownTokens, new_token, save_player


async def test_one_recheck_forgets_the_revoked_expired_and_gone_and_keeps_the_rest(pool: asyncpg.Pool) -> None:
    known = KnownTokens(seconds=60)
    tokens: dict[str, bytes] = {}
    async with pool.acquire() as conn:
        for name in ("kept", "revoked", "expired", "also kept"):
            player_id = f"player-{uuid.uuid4().hex}"
            _, token_hash = new_token()
            expires_at = await save_player(conn, player_id, name, token_hash, 3600)
            known.put(token_hash, player_id, expires_at.timestamp())
            tokens[name] = token_hash
        await conn.execute("UPDATE player_tokens SET revoked_at = clock_timestamp() WHERE token_hash = $1",
                           tokens["revoked"])
        await conn.execute("UPDATE player_tokens SET expires_at = clock_timestamp() WHERE token_hash = $1",
                           tokens["expired"])
    _, never_stored = new_token()
    known.put(never_stored, "player-gone")
    assert await known.recheck(pool) == 3
    assert known.get(tokens["kept"]) is not None and known.get(tokens["also kept"]) is not None
    assert [known.get(tokens[name]) for name in ("revoked", "expired")] == [None, None]
    assert known.get(never_stored) is None


async def test_a_token_found_good_is_trusted_anew_from_the_recheck(pool: asyncpg.Pool) -> None:
    known = KnownTokens(seconds=0.6)
    async with pool.acquire() as conn:
        _, token_hash = new_token()
        expires_at = await save_player(conn, f"player-{uuid.uuid4().hex}", "Steady", token_hash, 3600)
    known.put(token_hash, "steady", expires_at.timestamp())
    await asyncio.sleep(0.4)
    await known.recheck(pool)
    await asyncio.sleep(0.4)  # past the first lookup's bound, within the recheck's
    assert known.get(token_hash) == "steady"
    await asyncio.sleep(0.4)
    assert known.get(token_hash) is None, "no recheck since: its bound ran out"


async def test_a_token_evicted_while_the_recheck_ran_stays_out(pool: asyncpg.Pool) -> None:
    known = KnownTokens(seconds=60)
    async with pool.acquire() as conn:
        _, token_hash = new_token()
        await save_player(conn, f"player-{uuid.uuid4().hex}", "Heard", token_hash, 3600)
    known.put(token_hash, "someone")
    known.evict(token_hash)  # a revocation heard over NATS
    await known.recheck(pool)
    assert known.get(token_hash) is None
