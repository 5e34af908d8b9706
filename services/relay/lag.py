"""Relay lag for /metrics and /healthz, measured against the stored checkpoint: how many events JetStream has not
yet acknowledged, how old the oldest of them is, and whether the relay is stalled (events have waited longer
than ``stall_seconds`` while no batch was acknowledged)."""

from __future__ import annotations

import asyncio
import time

from prometheus_client import CollectorRegistry, Gauge

from shared.eventstore import EventStore
from shared.eventstore.behind import behind

CHECKPOINT = """
    SELECT tx::text::bigint, position, extract(epoch FROM clock_timestamp() - updated_at)
    FROM checkpoints WHERE name = $1
"""


class RelayLag:
    def __init__(self, store: EventStore, registry: CollectorRegistry, *, checkpoint: str,
                 stall_seconds: float) -> None:
        self.store = store
        self.checkpoint = checkpoint
        self.stall_seconds = stall_seconds
        self.started = time.monotonic()
        self.waiting = 0
        self.oldest_seconds = 0.0
        self.stalled_seconds = 0.0
        Gauge("relay_lag_events", "events stored but not yet acknowledged by JetStream (exact up to 10,000,"
              " estimated beyond)", registry=registry).set_function(lambda: self.waiting)
        Gauge("relay_lag_seconds", "age of the oldest event not yet acknowledged (0 when caught up)",
              registry=registry).set_function(lambda: self.oldest_seconds)
        Gauge("relay_stalled_seconds", "how long events have waited with no batch acknowledged (0 when moving)",
              registry=registry).set_function(lambda: self.stalled_seconds)

    async def measure_once(self) -> None:
        async with self.store.pool.acquire() as conn:
            row = await conn.fetchrow(CHECKPOINT, self.checkpoint)
            tx, position, since_ack = (row[0], row[1], float(row[2])) if row else (0, 0, float("inf"))
            waiting = await behind(conn, tx, position)
        idle = min(since_ack, time.monotonic() - self.started)
        self.waiting = waiting.events
        self.oldest_seconds = waiting.oldest_seconds
        self.stalled_seconds = min(self.oldest_seconds, idle) if self.waiting else 0.0

    async def measure(self, interval: float = 1.0) -> None:
        while True:
            await self.measure_once()
            await asyncio.sleep(interval)

    async def health(self) -> str | None:
        if self.stalled_seconds > self.stall_seconds:
            return (f"stalled: {self.waiting} events waiting, none acknowledged by JetStream for "
                    f"{self.stalled_seconds:.0f}s (oldest waiting {self.oldest_seconds:.0f}s)")
        return None
