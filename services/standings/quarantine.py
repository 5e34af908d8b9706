"""Streams the projections leave out from an event they cannot read, recorded instead of blocking the whole log.

An event is unreadable when its stored data no longer hash to its stored hash, or no longer decode as its type (edited,
or two events' data swapped, behind the store's back). Its stream is quarantined from that version: every projection
skips the stream's events from there on (the counters still count them as events of the log), the live fold and a
rebuild alike, so the two still agree; the rest of the log is folded as before. ``standings_quarantine`` records each
stream with the event and the reason; it shows on ``/metrics`` (``standings_quarantined_streams``), in ``/v1/counters``
and, stream by stream, at ``/v1/quarantine``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg
import msgspec

from shared.eventstore import EventStore, RecordedEvent, hashing
from shared.logging import get_logger
from shared.messages.readable import UnreadableEvent
from shared.messages.registry import UnknownMessage
from shared.messages.stored import loaded

T = TypeVar("T")
log = get_logger(__name__)
RECORD = """
    INSERT INTO standings_quarantine (stream_id, from_version, event_id, position, reason) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (stream_id) DO UPDATE SET from_version = excluded.from_version, event_id = excluded.event_id,
        position = excluded.position, reason = excluded.reason, quarantined_at = clock_timestamp()
    WHERE excluded.from_version < standings_quarantine.from_version
"""

Quarantine = dict[str, int]
"""stream id -> the first version left out"""


def intact(recorded: RecordedEvent) -> str | None:
    """None when the row hashes to its stored hash (with its stored prev_hash), else what is wrong."""
    body = hashing.new_body(recorded.stream_id, recorded.event_id, recorded.type, recorded.schema_version,
                            recorded.data, recorded.metadata)
    if hashing.chain(recorded.prev_hash, recorded.version, body) != recorded.hash:
        return "its content does not match its stored hash"
    return None


def screened(recorded: RecordedEvent) -> Any:
    """The event as its type, None for a type this service does not know; UnreadableEvent when it is damaged."""
    if (problem := intact(recorded)) is not None:
        raise UnreadableEvent(recorded, ValueError(problem))
    try:
        return loaded(recorded)
    except UnknownMessage:
        return None
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        raise UnreadableEvent(recorded, error) from error


def held(quarantine: Quarantine, recorded: RecordedEvent) -> bool:
    first = quarantine.get(recorded.stream_id)
    return first is not None and recorded.version >= first


async def load(conn: asyncpg.Connection) -> Quarantine:
    return {row[0]: row[1] for row in await conn.fetch("SELECT stream_id, from_version FROM standings_quarantine")}


async def record(conn: asyncpg.Connection, error: UnreadableEvent, position: int | None = None) -> None:
    await conn.execute(RECORD, error.stream_id, error.version, error.event_id, position, error.message)
    log.error("standings.quarantined", stream_id=error.stream_id, version=error.version,
              event_id=str(error.event_id), reason=error.reason)


async def folded_around(store: EventStore, forget: Callable[[], None], fold_batch: Callable[[], Awaitable[T]],
                        on_quarantine: Callable[[UnreadableEvent], None] | None = None) -> T:
    """Fold one batch (``fold_batch`` runs its own transaction). A projection that read an unreadable event of its
    current stream's past (the opening it looks up) fails the batch: the stream is quarantined in a transaction of
    its own, the folder's memory (which may hold half the batch) is forgotten, and the batch is folded again."""
    seen: set[tuple[str, int]] = set()
    while True:
        try:
            return await fold_batch()
        except UnreadableEvent as error:
            if (error.stream_id, error.version) in seen:
                raise
            seen.add((error.stream_id, error.version))
            forget()
            async with store.pool.acquire() as conn:
                await record(conn, error)
            if on_quarantine:
                on_quarantine(error)


async def listing(conn: asyncpg.Connection, after: str, limit: int) -> list[dict[str, Any]]:
    rows = await conn.fetch(
        "SELECT stream_id, from_version, event_id, position, reason, quarantined_at FROM standings_quarantine"
        " WHERE stream_id > $1 ORDER BY stream_id LIMIT $2", after, limit + 1)
    return [{"stream_id": r[0], "from_version": r[1], "event_id": str(r[2]), "position": r[3], "reason": r[4],
             "quarantined_at": r[5].isoformat()} for r in rows]
