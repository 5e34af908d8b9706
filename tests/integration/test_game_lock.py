"""The per-game lock of the engine replicas: the pool does not unlock on release, so a lock request cut short must
not leave the lock behind on a pooled connection."""

from __future__ import annotations

import asyncio
import uuid

import asyncpg

from services.engine.game_lock import LOCK_SPACE, GameLocks


async def held_locks(pool: asyncpg.Pool, game_id: str) -> int:
    async with pool.acquire() as conn:
        return int(await conn.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1"
            " AND objid = hashtext($2)::oid", LOCK_SPACE, game_id))


async def test_a_replica_cancelled_while_waiting_for_a_game_leaves_no_lock_behind(pool: asyncpg.Pool) -> None:
    game_id = f"vortex-{uuid.uuid4().hex}"
    first, second = GameLocks(pool), GameLocks(pool)

    async def wait_for_it() -> None:
        async with second.hold(game_id):
            raise AssertionError("got a lock another replica holds")

    async with first.hold(game_id):
        waiting = asyncio.create_task(wait_for_it())
        for _ in range(100):
            if second.waits:
                break
            await asyncio.sleep(0.05)
        assert second.waits == 1
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        assert await held_locks(pool, game_id) == 1
    assert await held_locks(pool, game_id) == 0
    async with asyncio.timeout(10), GameLocks(pool).hold(game_id):
        assert await held_locks(pool, game_id) == 1
    assert await held_locks(pool, game_id) == 0


async def test_a_rejected_command_releases_its_game_and_keeps_the_connection(pool: asyncpg.Pool) -> None:
    game_id = f"vortex-{uuid.uuid4().hex}"
    locks = GameLocks(pool)
    try:
        async with locks.hold(game_id) as conn:
            pid = await conn.fetchval("SELECT pg_backend_pid()")
            raise ValueError("a rule refused the command")
    except ValueError:
        pass
    assert await held_locks(pool, game_id) == 0
    async with pool.acquire() as conn:
        alive = await conn.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid)
    assert alive == 1
