"""Relay lag for /metrics and /healthz, measured against the stored checkpoint: how many events JetStream has not
yet acknowledged, how old the oldest of them is, and whether the relay is stalled (events have waited longer
than ``stall_seconds`` while no batch was acknowledged)."""

from __future__ import annotations

import asyncio
import time

from prometheus_client import CollectorRegistry, Gauge

from shared.eventstore import EventStore

COUNT_CAP = 1_000_000
"""Counting stops here: a relay this far behind is far behind, and the count stays cheap."""
CHECKPOINT = """
    SELECT tx::text::bigint, position, extract(epoch FROM clock_timestamp() - updated_at)
    FROM checkpoints WHERE name = $1
"""
# Ordered, so that even the generic plan of this prepared statement walks the read-order index from the checkpoint
# (unordered, PostgreSQL guessed a third of the table and scanned all of it, every second).
WAITING = """
    SELECT (SELECT count(*) FROM (SELECT 1 FROM events WHERE (tx, position) > ($1::bigint::text::xid8, $2::bigint)
                                  ORDER BY tx, position LIMIT $3) AS waiting),
           (SELECT extract(epoch FROM clock_timestamp() - recorded_at) FROM events
            WHERE (tx, position) > ($1::bigint::text::xid8, $2::bigint) ORDER BY tx, position LIMIT 1)
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
        Gauge("relay_lag_events", "events stored but not yet acknowledged by JetStream", registry=registry
              ).set_function(lambda: self.waiting)
        Gauge("relay_lag_seconds", "age of the oldest event not yet acknowledged (0 when caught up)",
              registry=registry).set_function(lambda: self.oldest_seconds)
        Gauge("relay_stalled_seconds", "how long events have waited with no batch acknowledged (0 when moving)",
              registry=registry).set_function(lambda: self.stalled_seconds)

    async def measure_once(self) -> None:
        async with self.store.pool.acquire() as conn:
            row = await conn.fetchrow(CHECKPOINT, self.checkpoint)
            tx, position, since_ack = (row[0], row[1], float(row[2])) if row else (0, 0, float("inf"))
            waiting, oldest = await conn.fetchrow(WAITING, tx, position, COUNT_CAP)
        idle = min(since_ack, time.monotonic() - self.started)
        self.waiting = int(waiting)
        self.oldest_seconds = float(oldest or 0.0)
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
