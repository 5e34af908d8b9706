"""Rows of the events table as RecordedEvents, as cheaply as the driver's own records allow.

jsonb arrives as raw bytes (``pool.init_connection``) and xid8 as an int, so only the metadata is decoded here, and
once per distinct metadata of a batch: the events of one command share theirs, and a Metadata is immutable.
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg
import msgspec

from shared.eventstore.types import Metadata, RecordedEvent

COLUMNS = ("position, tx, event_id, stream_id, version, type, schema_version, data, metadata, recorded_at, prev_hash,"
           " hash")
"""In RecordedEvent's field order."""

_metadata_decoder = msgspec.json.Decoder(Metadata)


def to_recorded(row: asyncpg.Record) -> RecordedEvent:
    return RecordedEvent(*row[:8], _metadata_decoder.decode(row[8]), *row[9:])  # type: ignore[call-arg]


def to_recorded_all(rows: Sequence[asyncpg.Record]) -> list[RecordedEvent]:
    decode = _metadata_decoder.decode
    seen: dict[bytes, Metadata] = {}
    events: list[RecordedEvent] = []
    append = events.append
    for position, tx, event_id, stream_id, version, type_, schema_version, data, raw, at, prev, hash_ in rows:
        metadata = seen.get(raw)
        if metadata is None:
            metadata = seen[raw] = decode(raw)
        append(RecordedEvent(position, tx, event_id, stream_id, version, type_, schema_version, data, metadata, at,
                             prev, hash_))
    return events
