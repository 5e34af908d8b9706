"""What the relay publishes: each JetStream message an ``EventBatch``, the events one stream got in one transaction
(a command's, or a round's opening), each in an ``EventEnvelope``."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
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


class EventBatch(msgspec.Struct, frozen=True, kw_only=True):
    """One message of ``events.<category>.<stream_id>``: events of that stream from one transaction, in version
    order. A transaction's events of one stream fill several messages when there are more than ``BATCH_EVENTS`` or
    ``BATCH_BYTES`` of them; its events visible only to some seats go to the private subject, in messages apart."""

    events: list[EventEnvelope]


BATCH_EVENTS = 100
BATCH_BYTES = 256 * 1024
"""Events fill a message up to this; an event that weighs more goes in a message of its own (``MAX_PAYLOAD``)."""
MAX_PAYLOAD = 8 * 1024 * 1024
"""The ``max_payload`` the league's nats-server configs set (embedded and deploy/; nats-server's default is 1 MB):
the largest message, so the largest stored event the relay can publish. A tournament's ``RoundStarted`` and
``TournamentStarted`` grow with its field (an elimination's first round about 96 bytes a player): 1 MB stops at
about 11,000 players; this holds the most a tournament takes (``shared.tournaments.decide.MAX_PLAYERS``)."""
_BATCH_OPEN, _BATCH_CLOSE = b'{"events":[', b"]}"


def batch_payload(envelopes: Sequence[bytes]) -> bytes:
    """The JSON of an ``EventBatch`` of these envelopes, each already encoded (the relay sizes its messages by them)."""
    return _BATCH_OPEN + b",".join(envelopes) + _BATCH_CLOSE
