"""Many streams' appends in one statement, when each writer knows the head it builds on (``Item.head``).

The engine owns its games and keeps each one's last version and hash in memory, so it can compute the hash chain of
what it appends itself. One INSERT then carries every stream's rows, and the database checks each stream's fence:
an item goes in only if the stored event at the version it follows has the hash it names (for a new stream, that
there is none), and the unique index on (stream_id, version) refuses a version someone else took meanwhile. One
round trip and one durable commit, where ``copy_many`` takes five. An item whose head does not match is left out
(None: the caller decides it the slow way, which names the conflict); a clash on a unique index (a version or an
event id stored already, a retry) fails the whole statement, which then changed nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import asyncpg

from shared.eventstore.appending import Item
from shared.eventstore.hashing import GENESIS, chain
from shared.eventstore.types import AppendResult

INSERT_AFTER_HEADS = f"""
    WITH fit AS (
        SELECT h.n FROM unnest($1::text[], $2::integer[], $3::bytea[]) WITH ORDINALITY AS h(stream_id, after, head, n)
        WHERE h.head = coalesce(
            (SELECT e.hash FROM events e WHERE e.stream_id = h.stream_id AND e.version = h.after),
            CASE WHEN h.after = 0 THEN '\\x{GENESIS.hex()}'::bytea END)
    )
    INSERT INTO events (event_id, stream_id, version, type, schema_version, data, metadata, prev_hash, hash)
    SELECT r.event_id, r.stream_id, r.version, r.type, r.schema_version, r.data, r.metadata, r.prev_hash, r.hash
    FROM unnest($4::bigint[], $5::uuid[], $6::text[], $7::integer[], $8::text[], $9::smallint[], $10::jsonb[],
                $11::jsonb[], $12::bytea[], $13::bytea[]) WITH ORDINALITY
        AS r(item, event_id, stream_id, version, type, schema_version, data, metadata, prev_hash, hash, k)
    WHERE r.item IN (SELECT n FROM fit)
    ORDER BY r.k
    RETURNING event_id, position
"""


async def insert_after_heads(conn: asyncpg.Connection, items: Sequence[Item]) -> list[AppendResult | None]:
    """Each item's result, or None where the stream's head is not the one it names. Every item must have ``after``.
    Raises the driver's UniqueViolationError (nothing written) when a version or an id is stored already."""
    streams, afters, heads = [], [], []
    owners: list[int] = []
    ids: list[uuid.UUID] = []
    stream_ids: list[str] = []
    versions: list[int] = []
    types: list[str] = []
    schema_versions: list[int] = []
    data: list[bytes] = []
    metadata: list[bytes] = []
    prevs: list[bytes] = []
    hashes: list[bytes] = []
    last: list[bytes] = []
    for n, item in enumerate(items, start=1):
        after, hash_ = item.after, item.head
        assert after is not None and hash_ is not None
        streams.append(item.stream_id)
        afters.append(after)
        heads.append(hash_)
        for k, body in enumerate(item.bodies):
            version = after + k + 1
            prev, hash_ = hash_, chain(hash_, version, body)
            owners.append(n)
            ids.append(item.ids[k])
            stream_ids.append(item.stream_id)
            versions.append(version)
            types.append(item.types[k])
            schema_versions.append(item.schema_versions[k])
            data.append(item.data[k])
            metadata.append(item.metadata[k])
            prevs.append(prev)
            hashes.append(hash_)
        last.append(hash_)
    rows = await conn.fetch(INSERT_AFTER_HEADS, streams, afters, heads, owners, ids, stream_ids, versions, types,
                            schema_versions, data, metadata, prevs, hashes)
    placed: dict[uuid.UUID, int] = {event_id: position for event_id, position in rows}
    found: list[AppendResult | None] = []
    for item, after, head in zip(items, afters, last, strict=True):
        if item.ids[0] not in placed:
            found.append(None)
            continue
        found.append(AppendResult(positions=tuple(placed[i] for i in item.ids),
                                  versions=tuple(range(after + 1, after + len(item.ids) + 1)), duplicate=False,
                                  hash=head))
    return found
