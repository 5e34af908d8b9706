"""What one call of ``append_events_many`` sends and what each item's rows mean (migration 0002)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from shared.eventstore import hashing
from shared.eventstore.errors import ConcurrencyError, IdempotencyConflict
from shared.eventstore.types import AppendResult, Expected, ExpectedVersion, NewEvent, check_stream_id

APPEND_MANY = ("SELECT out_item, out_status, out_event, out_position, out_version"
               " FROM append_events_many($1, $2, $3, $4, $5, $6, $7, $8, $9)")
APPENDED, DUPLICATE, WRONG_VERSION, IDS_CONFLICT = range(4)

AppendOutcome = AppendResult | Exception
"""An item's outcome: its result, or what ``EventStore.append`` would have raised for it alone (ConcurrencyError,
IdempotencyConflict, or the database's own error for an item the database refused, e.g. data that is not JSON)."""

_encoder = msgspec.json.Encoder()


def expected_code(expected: Expected) -> int:
    if isinstance(expected, ExpectedVersion):
        return expected.value
    if expected < 0:
        raise ValueError(f"expected version must be >= 0, NO_STREAM or ANY, not {expected}")
    return expected


@dataclass(frozen=True, slots=True)
class Item:
    """One stream's append, encoded once (its hash-chain bodies too) for every attempt."""

    stream_id: str
    expected: Expected
    code: int
    ids: list[uuid.UUID]
    types: list[str]
    schema_versions: list[int]
    data: list[bytes]
    metadata: list[bytes]
    bodies: list[bytes]

    @classmethod
    def of(cls, stream_id: str, events: Sequence[NewEvent], expected: Expected) -> Item:
        check_stream_id(stream_id)
        if not events:
            raise ValueError("append needs at least one event")
        code = expected_code(expected)
        metadata = [_encoder.encode(e.metadata) for e in events]
        bodies = [hashing.body(stream_id, e.event_id, e.type, e.schema_version, e.data, m)
                  for e, m in zip(events, metadata, strict=True)]
        return cls(stream_id, expected, code, [e.event_id for e in events], [e.type for e in events],
                   [e.schema_version for e in events], [e.data for e in events], metadata, bodies)


def arguments(items: Sequence[Item]) -> tuple[list[object], ...]:
    streams: list[object] = []
    codes: list[object] = []
    numbers: list[object] = []
    ids: list[object] = []
    types: list[object] = []
    schema_versions: list[object] = []
    data: list[object] = []
    metadata: list[object] = []
    bodies: list[object] = []
    for n, item in enumerate(items, 1):
        streams.append(item.stream_id)
        codes.append(item.code)
        numbers.extend([n] * len(item.ids))
        ids.extend(item.ids)
        types.extend(item.types)
        schema_versions.extend(item.schema_versions)
        data.extend(item.data)
        metadata.extend(item.metadata)
        bodies.extend(item.bodies)
    return streams, codes, numbers, ids, types, schema_versions, data, metadata, bodies


Row = tuple[int | None, int, uuid.UUID | None, int | None, int | None]
"""out_item (None for an appended event: its id says whose it is), out_status, out_event, out_position, out_version"""


def outcomes(items: Sequence[Item], rows: Sequence[Row]) -> list[AppendOutcome]:
    """Each item's outcome from the rows of one call."""
    owner: dict[uuid.UUID, int] | None = None
    placed: dict[int, list[tuple[int, int]]] = {}
    duplicates: set[int] = set()
    found: list[AppendOutcome | None] = [None] * len(items)
    for number, status, event_id, position, version in rows:
        if status == APPENDED:
            if owner is None:
                owner = {i: n for n, item in enumerate(items, 1) for i in item.ids}
            number = owner[event_id]  # type: ignore[index]
        assert number is not None
        if status == APPENDED or status == DUPLICATE:
            placed.setdefault(number, []).append((version, position))  # type: ignore[arg-type]
            if status == DUPLICATE:
                duplicates.add(number)
        elif status == WRONG_VERSION:
            item = items[number - 1]
            found[number - 1] = ConcurrencyError(item.stream_id, item.expected, version or 0)
        elif status == IDS_CONFLICT:
            found[number - 1] = IdempotencyConflict(
                f"some of these event ids are already stored, not all in stream {items[number - 1].stream_id}")
    for number, places in placed.items():
        places.sort()
        found[number - 1] = AppendResult(positions=tuple(p for _, p in places), versions=tuple(v for v, _ in places),
                                         duplicate=number in duplicates)
    missing = [items[n].stream_id for n, outcome in enumerate(found) if outcome is None]
    if missing:
        raise AssertionError(f"append_events_many gave no outcome for {missing}")
    return found  # type: ignore[return-value]
