"""Feed entries, and the wake-up of live SSE / WebSocket clients of this process."""

from __future__ import annotations

import asyncio

import msgspec


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One feed message: the public changes one event caused. ``id`` is ``<tx>-<position>`` of that event."""

    id: str
    tx: int
    position: int
    recorded_at: str
    changes: msgspec.Raw


def entry_id(tx: int, position: int) -> str:
    return f"{tx}-{position}"


class Hub:
    """Wakes this process's feed clients when a fold committed; they read the entries from the table."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[None]] = set()

    def subscribe(self) -> asyncio.Queue[None]:
        queue: asyncio.Queue[None] = asyncio.Queue(1)
        self.queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[None]) -> None:
        self.queues.discard(queue)

    def wake(self) -> None:
        for queue in self.queues:
            if not queue.full():
                queue.put_nowait(None)
