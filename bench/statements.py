"""Where PostgreSQL's time goes while a benchmark runs: ``pg_stat_statements`` of the bench's database, sampled
every half second, so that a window of the load generator (its ``perf_counter`` bounds) gets its own figures.

Each statement's figures are the difference between the last sample taken before the window opened and the first
taken after it closed, grouped by (normalised) statement and by the service whose database login ran it. ``exec_ms`` is
PostgreSQL's execution time, which is wall time: on a machine whose cores are all busy it includes the time a
backend waited for a core, so read the shares, not the sums, as where the work is. A durable commit's wait for
the disk is not in it (the commit is not a statement of its own). The sampler's own statements are left out.

The library must be loaded when the server starts (``shared_preload_libraries``): ``SETTINGS`` does that for an
embedded PostgreSQL; a server of your own (``DATABASE_URL``) needs it in its configuration.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import asyncpg

from shared.eventstore.roles import login_of

SETTINGS = ("shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track=all",
            "pg_stat_statements.max=1000")
"""``track=all``: the statements inside the event store's functions (``append_events``) are listed too."""
INTERVAL = 0.5
QUERY_TEXT = 160
SAMPLE = """
    SELECT queryid, toplevel, userid, calls, total_exec_time, rows FROM pg_stat_statements(false)
    WHERE dbid = $1 AND userid <> $2
"""
"""Without the texts (each sample stays cheap), and without the sampler's own statements (its login's)."""
NAMES = """
    SELECT s.queryid, s.toplevel, s.userid, r.rolname, left(regexp_replace(s.query, '\\s+', ' ', 'g'), $2)
    FROM pg_stat_statements(true) s JOIN pg_roles r ON r.oid = s.userid WHERE s.dbid = $1
"""

Key = tuple[int, bool, int]
"""queryid, top level or not (a statement inside a function), the user's oid (a service's group role)."""


@dataclass(frozen=True)
class Counts:
    calls: int
    exec_ms: float
    rows: int


@dataclass(frozen=True)
class Statement:
    service: str
    text: str
    nested: bool
    """Run inside a function (``append_events``): its time is also in the function's call."""
    calls: int
    exec_ms: float
    rows: int


async def available(conn: asyncpg.Connection) -> str | None:
    """None when statements can be sampled on this server (the extension is made if missing), else why not."""
    preloaded = str(await conn.fetchval("SHOW shared_preload_libraries"))
    if "pg_stat_statements" not in preloaded:
        return "pg_stat_statements is not in the server's shared_preload_libraries"
    try:
        await conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    except asyncpg.PostgresError as error:
        return f"CREATE EXTENSION pg_stat_statements failed: {error}"
    return None


class StatementSampler:
    """Samples the statements run in the database ``url`` names while entered (connecting as its owner)."""

    def __init__(self, url: str, interval: float = INTERVAL) -> None:
        self.url = url
        self.interval = interval
        self.samples: list[tuple[float, dict[Key, Counts]]] = []
        self.names: dict[Key, tuple[str, str]] = {}
        """Each statement's service (else its login) and text, read when the sampler is left."""
        self.unavailable: str | None = None
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._ids: tuple[int, int] = (0, 0)
        self._database = ""

    async def __aenter__(self) -> StatementSampler:
        self._conn = await asyncpg.connect(self.url)
        self.unavailable = await available(self._conn)
        if self.unavailable is None:
            row = await self._conn.fetchrow("SELECT (SELECT oid FROM pg_database WHERE datname = current_database()),"
                                            " (SELECT oid FROM pg_roles WHERE rolname = current_user),"
                                            " current_database()")
            self._ids, self._database = (row[0], row[1]), row[2]
            await self._sample()
            self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        tb: TracebackType | None) -> None:
        try:
            if self._task is not None:
                self._task.cancel()
                await asyncio.gather(self._task, return_exceptions=True)
                await self._sample()
                await self._name()
        finally:
            if self._conn is not None:
                await self._conn.close()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            await self._sample()

    async def _sample(self) -> None:
        assert self._conn is not None
        taken = time.perf_counter()
        rows = await self._conn.fetch(SAMPLE, *self._ids)
        self.samples.append((taken, {(r[0], r[1], r[2]): Counts(r[3], r[4], r[5]) for r in rows}))

    async def _name(self) -> None:
        assert self._conn is not None
        # A service's session switches to its group role (``shared.eventstore.roles``): that is the user listed.
        for r in await self._conn.fetch(NAMES, self._ids[0], QUERY_TEXT):
            self.names[(r[0], r[1], r[2])] = (login_of(r[3], self._database) or r[3], r[4])

    def between(self, start: float, end: float) -> list[Statement]:
        """Each statement's work from the last sample at or before ``start`` to the first at or after ``end``,
        most execution time first."""
        before = next((counts for taken, counts in reversed(self.samples) if taken <= start), {})
        after = next((counts for taken, counts in self.samples if taken >= end), None)
        if after is None:
            return []
        found = []
        for key, now in after.items():
            then = before.get(key, Counts(0, 0.0, 0))
            if now.calls > then.calls:
                service, text = self.names.get(key, (str(key[2]), f"(statement {key[0]})"))
                found.append(Statement(service=service, text=text, nested=not key[1], calls=now.calls - then.calls,
                                       exec_ms=now.exec_ms - then.exec_ms, rows=now.rows - then.rows))
        return sorted(found, key=lambda s: s.exec_ms, reverse=True)


def per_command(statements: Iterable[Statement], commands: int, top: int = 15) -> list[dict[str, Any]]:
    """The ``top`` statements by execution time, with their share of the top-level statements' time and their
    figures per command."""
    statements = list(statements)
    top_level = sum(s.exec_ms for s in statements if not s.nested) or 1.0
    return [{"service": s.service, "statement": s.text, "nested": s.nested,
             "share": round(s.exec_ms / top_level, 4), "calls_per_command": round(s.calls / max(commands, 1), 4),
             "exec_us_per_command": round(1000 * s.exec_ms / max(commands, 1), 1),
             "exec_us_per_call": round(1000 * s.exec_ms / max(s.calls, 1), 1),
             "rows_per_call": round(s.rows / max(s.calls, 1), 1)} for s in statements[:top]]


def report(rows: list[dict[str, Any]], window: str) -> None:
    print(f"  PostgreSQL statements over {window}, by execution time (wall time inside PostgreSQL; share of all"
          " top-level statements' time; * runs inside a function, its time also counted in the function's call):")
    print(f"    {'share':>6} {'us/cmd':>7} {'calls/cmd':>9} {'us/call':>8} {'rows/call':>9}  {'service':<12} statement")
    for row in rows:
        print(f"    {row['share']:>6.1%} {row['exec_us_per_command']:>7.1f} {row['calls_per_command']:>9.3f}"
              f" {row['exec_us_per_call']:>8.1f} {row['rows_per_call']:>9.1f}  {row['service']:<12}"
              f" {'*' if row['nested'] else ''}{row['statement']}")
