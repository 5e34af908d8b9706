"""What a projection is: tables (per generation), and a fold of one event into them that reports public changes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import asyncpg
import msgspec

from shared.eventstore import EventStore, RecordedEvent
from shared.messages.engine import GameOpened
from shared.messages.readable import read


class Change(msgspec.Struct, frozen=True, kw_only=True):
    """One public fact that changed: what the live feed carries."""

    projection: str
    key: str
    data: Any


@dataclass
class Fold:
    """What a projection folds with: the event (decoded once), a connection in the batch's transaction, the
    tables of the generation being written, and memory that lives as long as that generation's fold."""

    conn: asyncpg.Connection
    store: EventStore
    tables: dict[str, str]
    memory: dict[str, Any]
    recorded: RecordedEvent
    event: Any
    changes: list[Change] = field(default_factory=list)

    def t(self, base: str) -> str:
        return self.tables[base]

    def change(self, projection: str, key: str, data: Any) -> None:
        self.changes.append(Change(projection=projection, key=key, data=data))

    @property
    def public(self) -> bool:
        return self.recorded.metadata.visibility is None

    async def opened(self) -> GameOpened | None:
        """The GameOpened of this event's stream (immutable, so cached), or None for a stream that is no game."""
        cache: dict[str, GameOpened | None] = self.memory.setdefault("opened", {})
        stream = self.recorded.stream_id
        if stream not in cache:
            if isinstance(self.event, GameOpened):
                cache[stream] = self.event
            else:
                first = await self.store.read_stream(stream, 1, 1)
                event = read(first[0]) if first else None  # UnreadableEvent: the fold quarantines the stream
                cache[stream] = event if isinstance(event, GameOpened) else None
        return cache[stream]

    def forget(self) -> None:
        self.memory.get("opened", {}).pop(self.recorded.stream_id, None)


class Projection:
    name: str
    tables: dict[str, str]
    """base name -> column definitions (the first table's first column is its key)."""
    categories: frozenset[str] | None = None
    """Only events of streams of these categories reach ``apply`` (None: every category)."""
    types: frozenset[str] | None = None
    """Only events of these stored types reach ``apply`` (None: every type)."""

    def wants(self, category: str, type_: str) -> bool:
        return ((self.categories is None or category in self.categories)
                and (self.types is None or type_ in self.types))
    counts_quarantined = False
    """True: also given the events of quarantined streams (as ``event`` None), to count them as events of the log."""
    whole_values = False
    """True: each change carries its key's whole value, so of one batch's changes to a key only the last is
    reported (a busy game's board once per batch, not once per event)."""

    async def apply(self, fold: Fold) -> None:
        raise NotImplementedError

    async def flush(self, fold: Fold) -> None:
        """After the last event of a batch (for what is summed per batch, like counters)."""
