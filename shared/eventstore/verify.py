"""Recompute a stream's hash chain and name the first event that does not fit."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

import msgspec

from shared.eventstore import hashing
from shared.eventstore.types import RecordedEvent

_encoder = msgspec.json.Encoder()


class ChainBreak(msgspec.Struct, frozen=True):
    version: int
    event_id: uuid.UUID | None
    reason: str


class VerifyReport(msgspec.Struct, frozen=True):
    stream_id: str
    events: int
    first_bad: ChainBreak | None

    @property
    def ok(self) -> bool:
        return self.first_bad is None

    def __str__(self) -> str:
        if self.first_bad is None:
            return f"{self.stream_id}: verified, {self.events} events, hash chain intact"
        bad = self.first_bad
        return f"{self.stream_id}: event v{bad.version} ({bad.event_id}): {bad.reason}"


def verify_events(stream_id: str, events: Iterable[RecordedEvent]) -> VerifyReport:
    prev = hashing.GENESIS
    count = 0
    for expected_version, event in enumerate(events, start=1):
        count += 1
        if event.version != expected_version:
            return VerifyReport(stream_id, count, ChainBreak(
                expected_version, event.event_id,
                f"version {event.version} where {expected_version} was expected (an event is missing)"))
        if event.prev_hash != prev:
            return VerifyReport(stream_id, count, ChainBreak(
                event.version, event.event_id, "prev_hash does not match the previous event's hash"))
        body = hashing.body(stream_id, event.event_id, event.type, event.schema_version, event.data,
                            _encoder.encode(event.metadata))
        computed = hashing.chain(prev, event.version, body)
        if computed != event.hash:
            return VerifyReport(stream_id, count, ChainBreak(
                event.version, event.event_id,
                f"content does not match its hash (stored {event.hash.hex()[:16]}…, computed {computed.hex()[:16]}…)"))
        prev = event.hash
    return VerifyReport(stream_id, count, None)
