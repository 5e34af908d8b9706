"""Partition leases: which engine replica owns which games now.

Each replica keeps one PostgreSQL connection of its own. On it, it holds a *member* lock (so replicas can count
each other) and one session advisory lock per partition it owns. PostgreSQL releases all of them when the
replica's session ends, also when the process is killed, so a dead replica's partitions are free at once and the
others take them on their next look (every ``interval`` seconds). Each replica aims at an equal share of the
partitions: a replica that joins takes free ones, and one holding more than its share gives the extra back (after
it stopped serving them), so the league re-balances without a stop. A lease is an optimisation, not the guarantee:
the expected version on append fences off a replica that still acts on a partition it lost.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Awaitable, Callable

import asyncpg

from shared.bus.partitions import PARTITIONS
from shared.eventstore.pool import connect
from shared.logging import get_logger

MEMBER_SPACE = 0x504D  # pg_advisory_lock(MEMBER_SPACE, replica): one per running engine replica
PARTITION_SPACE = 0x5050  # pg_advisory_lock(PARTITION_SPACE, partition): held by the partition's owner
HELD = """
    SELECT classid::int, objid::int, pid FROM pg_locks
    WHERE locktype = 'advisory' AND objsubid = 2 AND granted AND classid::int IN ($1, $2)
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""
log = get_logger(__name__)
Change = Callable[[int], Awaitable[None]]


class Leases:
    def __init__(self, database_url: str, *, role: str | None, gained: Change, lost: Change, interval: float = 1.0,
                 partitions: int = PARTITIONS) -> None:
        self.database_url = database_url
        self.role = role
        self.gained, self.lost = gained, lost
        self.interval = interval
        self.partitions = partitions
        self.owned: set[int] = set()
        self.members = 0
        self.handovers = 0
        self._conn: asyncpg.Connection | None = None

    async def start(self) -> None:
        """Join and take a first share before the replica says it is ready."""
        await self._join()
        await self.balance()

    async def run(self) -> None:
        """Keep the share: look every ``interval``; a lost connection loses every lease, then join again."""
        while True:
            try:
                if self._conn is None or self._conn.is_closed():
                    await self._join()
                await self.balance()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("partitions.connection-lost", error=f"{type(error).__name__}: {error}",
                            owned=len(self.owned))
                await self._lose_all()
            await asyncio.sleep(self.interval)

    async def _join(self) -> None:
        self._conn = await connect(self.database_url, role=self.role)
        await self._conn.execute("SELECT pg_advisory_lock($1, $2)", MEMBER_SPACE, random.getrandbits(31))

    async def balance(self) -> None:
        conn = self._conn
        assert conn is not None
        rows = await conn.fetch(HELD, MEMBER_SPACE, PARTITION_SPACE)
        self.members = max(1, len({pid for space, _key, pid in rows if space == MEMBER_SPACE}))
        held = {key for space, key, _pid in rows if space == PARTITION_SPACE}
        share = math.ceil(self.partitions / self.members)
        for partition in sorted(self.owned, reverse=True)[:max(0, len(self.owned) - share)]:
            await self._give_back(conn, partition)
        free = [p for p in range(self.partitions) if p not in held and p not in self.owned]
        random.shuffle(free)
        for partition in free[:max(0, share - len(self.owned))]:
            if await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", PARTITION_SPACE, partition):
                try:
                    await self.gained(partition)
                except BaseException:
                    # Not serving it: leave it to whoever looks next (this replica included).
                    await self.lost(partition)
                    await conn.execute("SELECT pg_advisory_unlock($1, $2)", PARTITION_SPACE, partition)
                    raise
                self.owned.add(partition)
                self.handovers += 1

    async def _give_back(self, conn: asyncpg.Connection, partition: int) -> None:
        self.owned.discard(partition)
        await self.lost(partition)
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", PARTITION_SPACE, partition)
        log.info("partitions.given-back", partition=partition, members=self.members)

    async def _lose_all(self) -> None:
        for partition in sorted(self.owned):
            await self.lost(partition)
        self.owned.clear()
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None

    async def close(self) -> None:
        """Stop serving every partition, then leave (closing the session frees the locks for the others)."""
        for partition in sorted(self.owned):
            await self.lost(partition)
        self.owned.clear()
        if self._conn is not None:
            await self._conn.close()
            self._conn = None
