"""What the relay publishes for each stored event."""

from __future__ import annotations

import uuid
from datetime import datetime

import msgspec

from shared.eventstore.types import Metadata, RecordedEvent


class EventEnvelope(msgspec.Struct, frozen=True, kw_only=True):
    event_id: uuid.UUID
    stream_id: str
    version: int
    position: int
    tx: int
    type: str
    schema_version: int
    recorded_at: datetime
    metadata: Metadata
    data: msgspec.Raw
    hash: str | None = None
    """hex: the event's hash in its stream's chain (``league verify`` compares it with the table's); None in
    envelopes published before it was added."""

    @classmethod
    def of(cls, event: RecordedEvent) -> EventEnvelope:
        return cls(
            event_id=event.event_id, stream_id=event.stream_id, version=event.version, position=event.position,
            tx=event.tx, type=event.type, schema_version=event.schema_version, recorded_at=event.recorded_at,
            metadata=event.metadata, data=msgspec.Raw(event.data), hash=event.hash.hex(),
        )
