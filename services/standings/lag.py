"""Projection lag for /metrics: events of the log not yet folded, and the age of the oldest of them
(``shared.eventstore.behind``)."""

from __future__ import annotations

import asyncio

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from shared.eventstore import Checkpoint, RecordedEvent
from shared.eventstore.behind import behind
from shared.service.keys import STORE


class Lag:
    def __init__(self, registry: CollectorRegistry) -> None:
        self.checkpoint = Checkpoint()
        self.events = Gauge("standings_lag_events", "events in the log not yet folded into the projections (exact"
                            " up to 10,000, estimated beyond)", registry=registry)
        self.seconds = Gauge("standings_lag_seconds", "age of the oldest event not yet folded (0 when caught up)",
                             registry=registry)
        self.applied_total = Counter("standings_events_folded", "events folded by this process", registry=registry)
        self.quarantined = Gauge("standings_quarantined_streams", "streams left out of the projections from an "
                                 "unreadable event on (/v1/quarantine lists them)", registry=registry)
        self.delay = Histogram("standings_fold_delay_seconds", "from an event's commit to its fold's commit",
                               buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10), registry=registry)

    def applied(self, last: RecordedEvent, count: int, now: float) -> None:
        self.checkpoint = last.checkpoint
        self.applied_total.inc(count)
        self.delay.observe(max(0.0, now - last.recorded_at.timestamp()))

    async def measure(self, app: web.Application) -> None:
        while True:
            async with app[STORE].pool.acquire() as conn:
                waiting = await behind(conn, self.checkpoint.tx, self.checkpoint.position)
                self.quarantined.set(await conn.fetchval("SELECT count(*) FROM standings_quarantine"))
            self.events.set(waiting.events)
            self.seconds.set(waiting.oldest_seconds)
            await asyncio.sleep(1.0)
