"""What a dishonest administrator could do to stored events, for the audit to catch."""

from __future__ import annotations

import uuid
from typing import Any

import asyncpg
import msgspec

from shared.eventstore import RecordedEvent, hashing
from shared.eventstore.hashing import GENESIS
from shared.messages.engine import DrawsUsed
from shared.messages.registry import registry
from shared.messages.rng import Drawn

_encoder = msgspec.json.Encoder()
NEW_ROW = 0
"""The position of an event that is not in the table yet: the database gives it one when ``rewrite`` writes it."""


def edit_data(event: RecordedEvent, change: Any) -> RecordedEvent:
    data = msgspec.json.decode(event.data)
    change(data)
    return msgspec.structs.replace(event, data=_encoder.encode(data))


def rechain(events: list[RecordedEvent]) -> list[RecordedEvent]:
    """Renumber and re-hash a stream so that its hash chain verifies again."""
    out, prev = [], GENESIS
    for version, event in enumerate(events, start=1):
        body = hashing.body(event.stream_id, event.event_id, event.type, event.schema_version, event.data,
                            _encoder.encode(event.metadata))
        digest = hashing.chain(prev, version, body)
        out.append(msgspec.structs.replace(event, version=version, prev_hash=prev, hash=digest))
        prev = digest
    return out


async def rewrite(superuser: asyncpg.Connection, stream_id: str, events: list[RecordedEvent]) -> None:
    columns = "tx, event_id, stream_id, version, type, schema_version, data, metadata, recorded_at, prev_hash, hash"
    values = "$1::bigint::text::xid8, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11"

    def row(e: RecordedEvent) -> tuple[Any, ...]:
        return (e.tx, e.event_id, e.stream_id, e.version, e.type, e.schema_version, e.data,
                _encoder.encode(e.metadata), e.recorded_at, e.prev_hash, e.hash)

    kept = [e for e in events if e.position != NEW_ROW]
    new = [e for e in events if e.position == NEW_ROW]
    async with superuser.transaction():
        await superuser.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        await superuser.execute("DELETE FROM events WHERE stream_id = $1", stream_id)
        if kept:
            await superuser.executemany(
                f"INSERT INTO events (position, {columns}) OVERRIDING SYSTEM VALUE VALUES ($12, {values})",
                [(*row(e), e.position) for e in kept])
        if new:
            await superuser.executemany(f"INSERT INTO events ({columns}) VALUES ({values})", [row(e) for e in new])
        await superuser.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")


def with_drawn(game_id: str, game: list[RecordedEvent], rng: list[RecordedEvent]) -> list[RecordedEvent]:
    """The RNG stream as the service wrote it before draws left the write path: an ``rng.Drawn`` per draw the game
    used, private to nobody, before the reveal. Renumbered but not re-hashed (``rechain`` makes it consistent).
    The new rows get their positions from the database when written (``NEW_ROW``)."""
    draws = [d for e in game if e.type == "engine.DrawsUsed" for d in msgspec.convert(e.payload(), DrawsUsed).draws]
    reveal = next(i for i, e in enumerate(rng) if e.type == "rng.SeedRevealed")
    template = rng[reveal]
    drawn = []
    for d in draws:
        name, version, data = registry.encode(Drawn(nonce=d.nonce, request=d.request, values=d.values))
        drawn.append(msgspec.structs.replace(
            template, event_id=uuid.uuid5(uuid.NAMESPACE_URL, f"{game_id}:drawn:{d.nonce}"), type=name,
            schema_version=version, data=data, position=NEW_ROW,
            metadata=msgspec.structs.replace(template.metadata, visibility=(), causation_id=None)))
    out = [*rng[:reveal], *drawn, *rng[reveal:]]
    return [msgspec.structs.replace(e, version=v) for v, e in enumerate(out, start=1)]
