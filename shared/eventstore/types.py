from __future__ import annotations

import asyncio
import os
import re
import time
import uuid
from contextlib import AbstractContextManager
from datetime import datetime
from enum import Enum
from typing import Any, Protocol

import msgspec

from shared.eventstore.errors import InvalidStreamId

STREAM_ID = re.compile(r"^[a-z][a-z0-9_]*-[A-Za-z0-9_-]{1,200}$")
"""``<category>-<id>``: the category names the aggregate kind; both survive as NATS subject tokens."""


def category_of(stream_id: str) -> str:
    return stream_id.split("-", 1)[0]


def check_stream_id(stream_id: str) -> str:
    if not STREAM_ID.match(stream_id):
        raise InvalidStreamId(f"stream id {stream_id!r} is not <category>-<id> ([a-z0-9_] then [A-Za-z0-9_-])")
    return stream_id


class ExpectedVersion(Enum):
    ANY = -2
    NO_STREAM = -1


Expected = int | ExpectedVersion


class Metadata(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    correlation_id: str
    causation_id: str | None = None
    actor: str | None = None
    command_id: str | None = None
    visibility: tuple[int, ...] | None = None
    """None: public. Otherwise the seats that may read the event while its game runs."""


class _TimeOrderedIds:
    """Version 7 UUIDs (RFC 9562): the time in milliseconds, then 74 random bits from a buffer of the OS's random
    bytes, refilled 4 KiB at a time (one system call for 409 ids). Ids made close in time sort close together, so
    the event id index takes each new one near the last instead of on a random leaf page of the whole index
    (which, durable, also costs a full-page image in the WAL for each first touch of a page after a checkpoint).
    A forked child starts with an empty buffer."""

    def __init__(self) -> None:
        self._buffer = b""
        self._at = 0
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._buffer, self._at = b"", 0

    def __call__(self) -> uuid.UUID:
        if self._at + 10 > len(self._buffer):
            self._buffer, self._at = os.urandom(4090), 0
        random = int.from_bytes(self._buffer[self._at:self._at + 10])
        self._at += 10
        # 48 bits of milliseconds, version 7, 12 random bits, variant 0b10, 62 random bits
        return uuid.UUID(int=(time.time_ns() // 1_000_000) << 80 | 0x7 << 76 | (random >> 64 & 0xFFF) << 64
                         | 0b10 << 62 | random & 0x3FFF_FFFF_FFFF_FFFF)


new_event_id = _TimeOrderedIds()


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    type: str
    data: bytes
    """The payload as JSON bytes (from the message registry)."""
    metadata: Metadata
    schema_version: int = 1
    event_id: uuid.UUID = msgspec.field(default_factory=new_event_id)


class Checkpoint(msgspec.Struct, frozen=True, order=True):
    """A place in the global read order: after the event at (tx, position)."""

    tx: int = 0
    position: int = 0


class RecordedEvent(msgspec.Struct, frozen=True, gc=False):
    """Built from every row read (``shared.eventstore.reading``): positional fields in column order, and no GC
    tracking (no field can hold a cycle), keep a decoded read cheap. Build one by keyword elsewhere."""

    position: int
    tx: int
    event_id: uuid.UUID
    stream_id: str
    version: int
    type: str
    schema_version: int
    data: bytes
    metadata: Metadata
    recorded_at: datetime
    prev_hash: bytes
    hash: bytes

    @property
    def checkpoint(self) -> Checkpoint:
        return Checkpoint(self.tx, self.position)

    @property
    def category(self) -> str:
        return category_of(self.stream_id)

    def payload(self) -> Any:
        return msgspec.json.decode(self.data)


class Page(msgspec.Struct, frozen=True):
    """A reader's step along the global log: the events it wanted and how far it looked (``scanned`` events, up
    to and including ``end``; the next page starts after it)."""

    events: list[RecordedEvent]
    end: Checkpoint
    scanned: int


class AppendResult(msgspec.Struct, frozen=True):
    positions: tuple[int, ...]
    versions: tuple[int, ...]
    duplicate: bool
    """True when every event id was already stored: nothing was added, the original places are returned."""
    hash: bytes | None = None
    """The hash of the last event appended, when this call computed it: a writer that keeps the stream's head can
    append after it next time in one round trip (``Item.head``)."""

    @property
    def last_version(self) -> int:
        return self.versions[-1]


class WakeSource(Protocol):
    """What wakes a reader of the log (``shared.bus.wakeups.Wakeups``): each waiter gets its own event, set when a
    writer says it committed."""

    def waiter(self) -> AbstractContextManager[asyncio.Event]: ...
