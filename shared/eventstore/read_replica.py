"""Reads that a streaming replica may answer (``DATABASE_READ_URL``), without ever going backwards.

A replica replays the primary's WAL a little behind it, and a name that balances over several replicas may reach
one further behind than the last. So every read notes how far the server it read had got, as a WAL position
(LSN), and the next read goes to the replica only if the replica has replayed at least that far; otherwise to the
primary, which has everything. What this process shows (standings, audits, dashboards) then only moves forward:

- on the replica, the position is read *before* the read's snapshot (a lower bound: the read sees at least that)
  and again after it (an upper bound, kept as what was shown);
- on the primary, the WAL insert position after the read (every commit the read saw is before it).

A replica that cannot be reached is skipped for the primary, as is a read with no replica configured.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import asyncpg

from shared.eventstore.store import EventStore
from shared.eventstore.types import RecordedEvent
from shared.logging import get_logger

REPLAYED = "SELECT (pg_last_wal_replay_lsn() - '0/0')::bigint"
INSERTED = "SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint"
log = get_logger(__name__)


class Reads:
    def __init__(self, primary: asyncpg.Pool, replica: asyncpg.Pool | None = None) -> None:
        self.primary = primary
        self.replica = replica
        self.shown = 0
        """The furthest WAL position a read of this process may have shown."""
        self.from_replica = 0
        self.from_primary = 0
        """Reads the primary answered because the replica was behind, unreachable or not configured."""

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection whose reads show nothing older than any read before it did. On the replica the block runs
        in one read-only snapshot (REPEATABLE READ), so its several queries agree with each other."""
        conn = await self._replica_caught_up() if self.replica is not None else None
        if conn is not None:
            assert self.replica is not None
            try:
                async with conn.transaction(isolation="repeatable_read", readonly=True):
                    yield conn
                self._showed(await conn.fetchval(REPLAYED))
                self.from_replica += 1
            finally:
                await self.replica.release(conn)
            return
        async with self.primary.acquire() as conn:
            yield conn
            if self.replica is not None:
                self._showed(await conn.fetchval(INSERTED))
            self.from_primary += 1

    async def _replica_caught_up(self) -> asyncpg.Connection | None:
        """A replica connection whose server has replayed at least what was shown; None: ask the primary."""
        assert self.replica is not None
        try:
            conn = await self.replica.acquire()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            log.warning("read-replica.unreachable", error=f"{type(error).__name__}: {error}")
            return None
        try:
            replayed = await conn.fetchval(REPLAYED)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            log.warning("read-replica.unreachable", error=f"{type(error).__name__}: {error}")
            replayed = None
        if replayed is None or replayed < self.shown:
            await self.replica.release(conn)
            return None
        return conn

    def _showed(self, position: int | None) -> None:
        if position is not None and position > self.shown:
            self.shown = position


async def read_ended(reads: Reads, store: EventStore, stream_id: str,
                     ended: Callable[[list[RecordedEvent]], bool]) -> list[RecordedEvent]:
    """A stream that takes no event after its end (a game's): the replica's copy once that has the end, else the
    primary's. A replica that has replayed the end has the whole stream, since nothing comes after it."""
    async with reads.connection() as conn:
        events = await store.on(conn).read_stream(stream_id)
    if ended(events) or reads.replica is None:
        return events
    return await store.read_stream(stream_id)
