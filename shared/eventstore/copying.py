"""Many streams' appends by COPY, each item decided exactly as ``append_events`` would decide it alone.

One transaction: one query reads where each stream is and which of the ids are already stored; each item is decided
(ids first: all of them known in this stream is the original result, some known is a conflict; then the expected
version); the hash chains are computed here; the rows go in by COPY (PostgreSQL's bulk path: one WAL record per page,
not one per row), in stream order and within a stream in version order; one more query reads their positions. A
writer that took one of these streams' next versions (or ids) between the read and the COPY makes the COPY fail on a
unique index, and the whole transaction changed nothing: the caller then halves the call, down to an item alone,
which goes by ``append_events`` (``EventStore._settle``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import asyncpg

from shared.eventstore.appending import AppendOutcome, Item
from shared.eventstore.errors import ConcurrencyError, IdempotencyConflict
from shared.eventstore.hashing import GENESIS, chain
from shared.eventstore.types import AppendResult, ExpectedVersion

STATE = """
    SELECT s.n::integer, c.version, c.hash, NULL::uuid, NULL::text, NULL::bigint
    FROM unnest($1::text[]) WITH ORDINALITY AS s(stream, n)
    LEFT JOIN LATERAL (
        SELECT e.version, e.hash FROM events e WHERE e.stream_id = s.stream ORDER BY e.version DESC LIMIT 1
    ) c ON true
    UNION ALL
    SELECT NULL, e.version, NULL, e.event_id, e.stream_id, e.position FROM events e WHERE e.event_id = ANY ($2::uuid[])
"""
POSITIONS = "SELECT event_id, position FROM events WHERE tx = pg_current_xact_id()"
"""This transaction's rows, along the (tx, position) index (the caller's own earlier rows too, if it holds the
transaction: only these ids are looked up)."""
COLUMNS = ["event_id", "stream_id", "version", "type", "schema_version", "data", "metadata", "prev_hash", "hash"]


def _wrong_version(item: Item, current: int) -> bool:
    if item.expected is ExpectedVersion.ANY:
        return False
    if item.expected is ExpectedVersion.NO_STREAM:
        return current != 0
    return current != item.expected


async def copy_many(conn: asyncpg.Connection, items: Sequence[Item]) -> list[AppendOutcome]:
    found: list[AppendOutcome | None] = [None] * len(items)
    owner = {event_id: n for n, item in enumerate(items) for event_id in item.ids}
    async with conn.transaction():
        rows = await conn.fetch(STATE, [item.stream_id for item in items], list(owner))
        current: dict[int, tuple[int, bytes]] = {}
        stored: dict[int, list[tuple[int, int, str]]] = {}
        for n, version, hash_, event_id, stream_id, position in rows:
            if event_id is None:
                current[n - 1] = (version or 0, hash_ or GENESIS)
            else:
                stored.setdefault(owner[event_id], []).append((version, position, stream_id))
        for n, places in stored.items():
            item = items[n]
            if len({p for _, p, _ in places}) == len(item.ids) and all(s == item.stream_id for _, _, s in places):
                places.sort()
                found[n] = AppendResult(positions=tuple(p for _, p, _ in places),
                                        versions=tuple(v for v, _, _ in places), duplicate=True)
            else:
                found[n] = IdempotencyConflict(
                    f"some of these event ids are already stored, not all in stream {item.stream_id}")
        records: list[tuple[object, ...]] = []
        versions: dict[int, tuple[int, ...]] = {}
        heads: dict[int, bytes] = {}
        for n in sorted(range(len(items)), key=lambda n: items[n].stream_id):
            if found[n] is not None:
                continue
            item = items[n]
            version, hash_ = current[n]
            if _wrong_version(item, version):
                found[n] = ConcurrencyError(item.stream_id, item.expected, version)
                continue
            versions[n] = tuple(range(version + 1, version + len(item.ids) + 1))
            for k, body in enumerate(item.bodies):
                version += 1
                prev, hash_ = hash_, chain(hash_, version, body)
                records.append((item.ids[k], item.stream_id, version, item.types[k], item.schema_versions[k],
                                item.data[k], item.metadata[k], prev, hash_))
            heads[n] = hash_
        if records:
            await conn.copy_records_to_table("events", records=records, columns=COLUMNS)
            placed: dict[uuid.UUID, int] = dict(await conn.fetch(POSITIONS))
    for n, numbers in versions.items():
        found[n] = AppendResult(positions=tuple(placed[i] for i in items[n].ids), versions=numbers, duplicate=False,
                                hash=heads[n])
    assert all(o is not None for o in found)
    return found  # type: ignore[return-value]
