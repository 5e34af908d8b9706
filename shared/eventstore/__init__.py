"""The asyncpg event store: append with expected version, read, subscribe, hash chain, verify."""

from shared.eventstore.errors import (
    ConcurrencyError,
    EventStoreError,
    IdempotencyConflict,
    InvalidStreamId,
    StreamNotFound,
)
from shared.eventstore.store import EventStore
from shared.eventstore.types import (
    AppendResult,
    Checkpoint,
    ExpectedVersion,
    Metadata,
    NewEvent,
    RecordedEvent,
    category_of,
)
from shared.eventstore.verify import VerifyReport, verify_events

__all__ = [
    "AppendResult", "Checkpoint", "ConcurrencyError", "EventStore", "EventStoreError", "ExpectedVersion",
    "IdempotencyConflict", "InvalidStreamId", "Metadata", "NewEvent", "RecordedEvent", "StreamNotFound",
    "VerifyReport", "category_of", "verify_events",
]
