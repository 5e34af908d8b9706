"""Append and read the event log (DESIGN.md "Event store")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, aclosing, nullcontext

import asyncpg
import msgspec

from shared.eventstore import hashing
from shared.eventstore.errors import ConcurrencyError, IdempotencyConflict
from shared.eventstore.types import (
    AppendResult,
    Checkpoint,
    Expected,
    ExpectedVersion,
    Metadata,
    NewEvent,
    RecordedEvent,
    check_stream_id,
)
from shared.eventstore.verify import VerifyReport, verify_events

COLUMNS = (
    "position, tx::text::bigint AS tx, event_id, stream_id, version, type, schema_version, data, metadata,"
    " recorded_at, prev_hash, hash"
)
READ_ALL = f"""
    SELECT {COLUMNS} FROM events
    WHERE (tx, position) > ($1::bigint::text::xid8, $2::bigint)
      AND tx < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY tx, position
    LIMIT $3
"""
READ_STREAM = f"SELECT {COLUMNS} FROM events WHERE stream_id = $1 AND version >= $2 ORDER BY version LIMIT $3"
APPEND = "SELECT out_position, out_version, out_duplicate FROM append_events($1, $2, $3, $4, $5, $6, $7, $8)"
ANY_RETRIES = 20
NOTIFY_CHANNEL = "events_appended"
START = Checkpoint()

_metadata_decoder = msgspec.json.Decoder(Metadata)
_encoder = msgspec.json.Encoder()


def to_recorded(row: asyncpg.Record) -> RecordedEvent:
    return RecordedEvent(
        position=row[0], tx=row[1], event_id=row[2], stream_id=row[3], version=row[4], type=row[5],
        schema_version=row[6], data=row[7], metadata=_metadata_decoder.decode(row[8]), recorded_at=row[9],
        prev_hash=row[10], hash=row[11],
    )


def _expected_code(expected: Expected) -> int:
    if isinstance(expected, ExpectedVersion):
        return expected.value
    if expected < 0:
        raise ValueError(f"expected version must be >= 0, NO_STREAM or ANY, not {expected}")
    return expected


class EventStore:
    def __init__(self, pool: asyncpg.Pool, conn: asyncpg.Connection | None = None) -> None:
        self.pool = pool
        self._conn = conn

    def on(self, conn: asyncpg.Connection) -> EventStore:
        """The same store, every call on ``conn`` (one the caller holds, e.g. with a lock on it)."""
        return EventStore(self.pool, conn)

    def connection(self) -> AbstractAsyncContextManager[asyncpg.Connection]:
        return nullcontext(self._conn) if self._conn is not None else self.pool.acquire()

    async def append(
        self, stream_id: str, events: Sequence[NewEvent], expected: Expected = ExpectedVersion.ANY
    ) -> AppendResult:
        """Append ``events`` to one stream atomically, or not at all.

        Raises ConcurrencyError when the stream is not at ``expected``. Re-appending the same event ids returns
        the original places and adds nothing.
        """
        check_stream_id(stream_id)
        if not events:
            raise ValueError("append needs at least one event")
        code = _expected_code(expected)
        metadata = [_encoder.encode(e.metadata) for e in events]
        bodies = [
            hashing.body(stream_id, e.event_id, e.type, e.schema_version, e.data, m)
            for e, m in zip(events, metadata, strict=True)
        ]
        args = (
            stream_id, code, [e.event_id for e in events], [e.type for e in events],
            [e.schema_version for e in events], [e.data for e in events], metadata, bodies,
        )
        for _attempt in range(ANY_RETRIES):
            try:
                async with self.connection() as conn:
                    rows = await conn.fetch(APPEND, *args)
            except asyncpg.UniqueViolationError as error:
                # Another writer inserted the same version (or the same ids) first: decide again.
                if error.constraint_name == "events_stream_version" and expected is not ExpectedVersion.ANY:
                    raise ConcurrencyError(stream_id, expected, await self.stream_version(stream_id)) from error
                continue
            except asyncpg.PostgresError as error:
                if error.sqlstate == "EV003":
                    raise ConcurrencyError(stream_id, expected, int(error.detail or 0)) from error
                if error.sqlstate == "EV002":
                    raise IdempotencyConflict(str(error)) from error
                raise
            return AppendResult(
                positions=tuple(r[0] for r in rows), versions=tuple(r[1] for r in rows), duplicate=rows[0][2]
            )
        raise ConcurrencyError(stream_id, expected, await self.stream_version(stream_id))

    async def stream_version(self, stream_id: str) -> int:
        async with self.connection() as conn:
            version = await conn.fetchval("SELECT max(version) FROM events WHERE stream_id = $1", stream_id)
        return int(version or 0)

    async def read_stream(
        self, stream_id: str, from_version: int = 1, limit: int | None = None
    ) -> list[RecordedEvent]:
        async with self.connection() as conn:
            rows = await conn.fetch(READ_STREAM, stream_id, from_version, limit)
        return [to_recorded(r) for r in rows]

    async def verify(self, stream_id: str) -> VerifyReport:
        return verify_events(stream_id, await self.read_stream(stream_id))

    async def read_all(self, after: Checkpoint = START, limit: int = 1000) -> list[RecordedEvent]:
        """The next events of the global log in a stable, gap-free order: only transactions that have all
        finished are read, so an event committed late can never be skipped."""
        async with self.connection() as conn:
            rows = await conn.fetch(READ_ALL, after.tx, after.position, limit)
        return [to_recorded(r) for r in rows]

    async def batches(
        self, after: Checkpoint = START, *, batch: int = 500, poll_seconds: float = 0.25
    ) -> AsyncIterator[list[RecordedEvent]]:
        """Catch up from ``after``, then follow the log live, a batch at a time. NOTIFY wakes the reader; the
        table is the data, and a short poll covers what NOTIFY cannot (a reader held back by another open
        transaction). The caller decides when a batch is done: the next one starts after its last event.
        It holds a pooled connection: iterate it inside ``contextlib.aclosing`` so a cancelled reader gives it
        back at once."""
        wake = asyncio.Event()

        def on_notify(*_: object) -> None:
            wake.set()

        async with self.pool.acquire() as listener:
            listening = True  # until UNLISTEN has run: the pool does not UNLISTEN on release
            try:
                await listener.add_listener(NOTIFY_CHANNEL, on_notify)
                while True:
                    wake.clear()
                    events = await self.read_all(after, batch)
                    if events:
                        yield events
                        after = events[-1].checkpoint
                    if len(events) < batch:
                        try:
                            await asyncio.wait_for(wake.wait(), poll_seconds)
                        except TimeoutError:
                            pass
            finally:
                try:
                    await listener.remove_listener(NOTIFY_CHANNEL, on_notify)
                    listening = False
                finally:
                    if listening:
                        listener.terminate()

    async def subscribe(
        self, after: Checkpoint = START, *, batch: int = 500, poll_seconds: float = 0.25
    ) -> AsyncIterator[RecordedEvent]:
        async with aclosing(self.batches(after, batch=batch, poll_seconds=poll_seconds)) as batches:
            async for events in batches:
                for event in events:
                    yield event
