"""How far the log's readers (the relay, the standings' projections) were behind the log while a benchmark ran.

They share the cores with the command's path: a sustained rate bought by leaving them behind would not be
sustained, and how stale the dashboards' figures and JetStream's events were belongs beside it. Every ``INTERVAL``
seconds the newest event is compared with each reader's checkpoint: events behind, and seconds between the two
events' ``recorded_at``.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import suppress
from types import TracebackType
from typing import Any

import asyncpg

INTERVAL = 0.5
READERS = {"relay": "relay", "standings": "standings:%"}
"""reader -> its checkpoints' names (a LIKE pattern): the one furthest behind counts."""
BEHIND = """
    SELECT r.reader, head.position - e.position, extract(epoch FROM head.recorded_at - e.recorded_at)::float8
    FROM unnest($1::text[], $2::text[]) AS r(reader, pattern)
    CROSS JOIN LATERAL (SELECT c.position FROM checkpoints c WHERE c.name LIKE r.pattern
                        ORDER BY c.position LIMIT 1) AS furthest
    JOIN events e ON e.position = furthest.position
    CROSS JOIN (SELECT position, recorded_at FROM events ORDER BY position DESC LIMIT 1) AS head
"""
"""One statement, so every reader is measured against the same newest event."""


class ReaderLag:
    def __init__(self, database_url: str, interval: float = INTERVAL, readers: dict[str, str] = READERS) -> None:
        self.database_url = database_url
        self.interval = interval
        self.readers = readers
        self.samples: list[tuple[float, str, int, float]] = []
        """(perf_counter, reader, events behind, seconds behind): the clock the generator's windows use."""
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> ReaderLag:
        self._conn = await asyncpg.connect(self.database_url)
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        tb: TracebackType | None) -> None:
        assert self._task is not None
        self._task.cancel()
        with suppress(asyncio.CancelledError):
            await self._task
        await self._conn.close()

    async def _run(self) -> None:
        while True:
            rows = await self._conn.fetch(BEHIND, list(self.readers), list(self.readers.values()))
            at = time.perf_counter()
            self.samples += [(at, reader, events, seconds) for reader, events, seconds in rows]
            await asyncio.sleep(self.interval)

    def between(self, start: float, end: float) -> dict[str, Any]:
        """Per reader, the most it was behind in [start, end]: events and seconds."""
        worst: dict[str, Any] = {}
        for at, reader, events, seconds in self.samples:
            if start <= at <= end:
                was = worst.setdefault(reader, {"events": 0, "seconds": 0.0})
                was["events"] = max(was["events"], events)
                was["seconds"] = round(max(was["seconds"], seconds), 3)
        return worst
