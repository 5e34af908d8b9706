"""The queries services run on a timer (lag gauges every second, the engine's look for games owing moves) or at
every start (what is still running) must read from a place in the log or an index of what they look for, never
the whole log: their cost would grow with every event ever stored. Each is planned as asyncpg runs it after a few
executions, as a generic plan of a prepared statement, on a table large enough for PostgreSQL to care."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from services.engine.autoplay import RUNNING_ENGINE_GAMES
from services.matchmaking.tournaments import UNFINISHED_TOURNAMENTS
from services.migrations import MIGRATIONS
from shared.cli.interrupted import RUNNING_GAMES
from shared.eventstore import EventStore, ExpectedVersion
from shared.eventstore.behind import BEHIND
from shared.eventstore.migrate import apply_migrations
from shared.eventstore.pool import connect as pg_connect
from shared.eventstore.pool import create_pool
from shared.eventstore.store import READ_ALL, READ_HASHES, SCAN_TYPES
from tests.infra import RunInfra, database_of_its_own
from tests.integration.helpers import event, new_stream

ROWS = 20_000
PERIODIC = {
    "relay and standings lag": (BEHIND, "bigint, bigint, bigint"),
    "engine's running games": (RUNNING_ENGINE_GAMES, ""),
    "log page": (READ_ALL, "xid8, bigint, bigint"),
    "log hashes": (READ_HASHES, "xid8, bigint, bigint"),
    "log page by type": (SCAN_TYPES, "xid8, bigint, bigint, text[]"),
    "matchmaking's unfinished tournaments": (UNFINISHED_TOURNAMENTS, ""),
    "league up's interrupted demo games": (RUNNING_GAMES, "text[]"),
}


@pytest.fixture(scope="module")
async def planner(migrated: RunInfra, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[asyncpg.Connection]:
    """A database of its own (its many events would slow every projection of the run's shared one), migrated and
    filled, as its owner."""
    async with database_of_its_own(migrated.admin_url, "league_plans", tmp_path_factory.mktemp("no-logins")) as url:
        await apply_migrations(url, MIGRATIONS)
        pool = await create_pool(url)
        try:
            store = EventStore(pool)
            for _ in range(ROWS // 1000):
                await store.append_many([(new_stream("periodic"), [event(n) for n in range(10)],
                                          ExpectedVersion.ANY) for _ in range(100)])
        finally:
            await pool.close()
        conn = await pg_connect(url)
        try:
            await conn.execute("ANALYZE events")
            yield conn
        finally:
            await conn.close()


@pytest.mark.parametrize("name", PERIODIC)
async def test_a_periodic_query_reads_from_its_place_in_the_log_not_the_whole_log(
    planner: asyncpg.Connection, name: str
) -> None:
    query, types = PERIODIC[name]
    statement = "periodic_" + "".join(c if c.isalnum() else "_" for c in name)
    async with planner.transaction():
        await planner.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        await planner.execute(f"PREPARE {statement}{f' ({types})' if types else ''} AS {query}")
        try:
            arguments = ", ".join("NULL" for _ in types.split(",")) if types else ""
            plan = "\n".join(row[0] for row in await planner.fetch(
                f"EXPLAIN EXECUTE {statement}{f'({arguments})' if arguments else ''}"))
        finally:
            await planner.execute(f"DEALLOCATE {statement}")
    assert "Seq Scan on events" not in plan, plan
