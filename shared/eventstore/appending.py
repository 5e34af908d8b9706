"""One stream's append, encoded once for every attempt; one stream's append by ``append_events`` (migration 0001)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg
import msgspec

from shared.eventstore import hashing
from shared.eventstore.errors import ConcurrencyError, IdempotencyConflict
from shared.eventstore.types import AppendResult, Expected, ExpectedVersion, NewEvent, check_stream_id

APPEND = "SELECT out_position, out_version, out_duplicate FROM append_events($1, $2, $3, $4, $5, $6, $7, $8)"

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
    head: bytes | None = None
    """The hash of the stream's event at ``expected`` (GENESIS for a new stream), when the writer knows it: the item
    can then go in one statement, its hash chain computed here (``shared.eventstore.chained``)."""

    @property
    def after(self) -> int | None:
        """The version this item must follow, when the writer stated it and the head it builds on."""
        if self.head is None or self.expected is ExpectedVersion.ANY:
            return None
        return 0 if self.expected is ExpectedVersion.NO_STREAM else int(self.expected)

    @classmethod
    def of(cls, stream_id: str, events: Sequence[NewEvent], expected: Expected, head: bytes | None = None) -> Item:
        check_stream_id(stream_id)
        if not events:
            raise ValueError("append needs at least one event")
        code = expected_code(expected)
        metadata = [_encoder.encode(e.metadata) for e in events]
        bodies = [hashing.new_body(stream_id, e.event_id, e.type, e.schema_version, e.data, e.metadata)
                  for e in events]
        return cls(stream_id, expected, code, [e.event_id for e in events], [e.type for e in events],
                   [e.schema_version for e in events], [e.data for e in events], metadata, bodies, head)


async def append_one(conn: asyncpg.Connection, item: Item) -> AppendOutcome:
    """Raises the driver's UniqueViolationError when another writer stored this version or these ids first."""
    try:
        rows = await conn.fetch(APPEND, item.stream_id, item.code, item.ids, item.types, item.schema_versions,
                                item.data, item.metadata, item.bodies)
    except asyncpg.PostgresError as error:
        if error.sqlstate == "EV003":
            return ConcurrencyError(item.stream_id, item.expected, int(error.detail or 0))
        if error.sqlstate == "EV002":
            return IdempotencyConflict(str(error))
        raise
    return AppendResult(positions=tuple(r[0] for r in rows), versions=tuple(r[1] for r in rows), duplicate=rows[0][2])
