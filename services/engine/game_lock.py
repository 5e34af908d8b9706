"""One command at a time per game, across every engine replica.

Commands for one game queue on an asyncio lock inside a replica, then take a PostgreSQL advisory lock held on the
connection that the command reads the stream, records its rejection and appends with. Without it, two replicas
could both draw nonce n of a game from the RNG service and only one of them append it: the other draw would be
left unused, and a later command asking nonce n for another kind of draw would be refused for ever. The
expected-version check on append stays as the safety net.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import asyncpg

LOCK_SPACE = 0x504C  # the first key of pg_advisory_lock(int, int): "PL", games of Phantom League


@dataclass
class _Queue:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class GameLocks:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self._queues: dict[str, _Queue] = {}
        self.waits = 0
        """Commands that found their game held by another replica and waited for it."""

    @asynccontextmanager
    async def hold(self, game_id: str) -> AsyncIterator[asyncpg.Connection]:
        queue = self._queues.setdefault(game_id, _Queue())
        queue.users += 1
        try:
            async with queue.lock, self.pool.acquire() as conn:
                maybe_held = True  # from the first lock request until the unlock has run
                try:
                    if not await conn.fetchval("SELECT pg_try_advisory_lock($1, hashtext($2))", LOCK_SPACE,
                                               game_id):
                        self.waits += 1
                        await conn.execute("SELECT pg_advisory_lock($1, hashtext($2))", LOCK_SPACE, game_id)
                    try:
                        yield conn
                    finally:
                        await conn.execute("SELECT pg_advisory_unlock($1, hashtext($2))", LOCK_SPACE, game_id)
                        maybe_held = False
                finally:
                    if maybe_held:
                        # Cut short (cancelled, connection lost): the pool does not unlock on release, so the
                        # session goes, and the lock with it.
                        conn.terminate()
        finally:
            queue.users -= 1
            if queue.users == 0:
                del self._queues[game_id]
