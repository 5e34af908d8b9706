"""The whole events table, read in pages without holding it all, tolerant of rows damaged beyond decoding."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import msgspec

from shared.eventstore import Checkpoint, Metadata, RecordedEvent
from shared.eventstore.reading import COLUMNS
from shared.verify.findings import Finding

PAGE = 5000
BY_STREAM = f"""
    SELECT {COLUMNS} FROM events WHERE (stream_id, version) > ($1, $2) ORDER BY stream_id, version LIMIT $3
"""
OF_STREAMS = f"SELECT {COLUMNS} FROM events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, version"
IN_READ_ORDER = f"""
    SELECT {COLUMNS} FROM events WHERE (tx, position) > ($1::bigint::text::xid8, $2::bigint)
    ORDER BY tx, position LIMIT $3
"""
_metadata = msgspec.json.Decoder(Metadata)


def recorded(row: asyncpg.Record, findings: list[Finding]) -> RecordedEvent:
    try:
        metadata = _metadata.decode(row[8])
    except msgspec.DecodeError as error:
        findings.append(Finding(check="the event's metadata is readable", found=str(error), stream_id=row[3],
                                version=row[4], event_id=row[2]))
        metadata = Metadata(correlation_id="?")
    return RecordedEvent(*row[:8], metadata, *row[9:])  # type: ignore[call-arg]


async def by_stream(pool: asyncpg.Pool, findings: list[Finding], streams: list[str] | None = None
                    ) -> AsyncIterator[RecordedEvent]:
    """Every event (of ``streams``, when given), stream after stream, each stream in version order."""
    if streams is not None:
        async with pool.acquire() as conn:
            for row in await conn.fetch(OF_STREAMS, streams):
                yield recorded(row, findings)
        return
    after: tuple[str, int] = ("", 0)
    while True:
        async with pool.acquire() as conn:
            rows = await conn.fetch(BY_STREAM, *after, PAGE)
        for row in rows:
            yield recorded(row, findings)
        if len(rows) < PAGE:
            return
        after = (rows[-1][3], rows[-1][4])


async def in_read_order(pool: asyncpg.Pool, findings: list[Finding]) -> AsyncIterator[RecordedEvent]:
    """Every event in the global read order, (tx, position)."""
    after = Checkpoint()
    while True:
        async with pool.acquire() as conn:
            rows = await conn.fetch(IN_READ_ORDER, after.tx, after.position, PAGE)
        for row in rows:
            yield recorded(row, findings)
        if len(rows) < PAGE:
            return
        after = Checkpoint(rows[-1][1], rows[-1][0])
