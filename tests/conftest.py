from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

import asyncpg
import pytest
from nats.aio.client import Client
from nats.js import JetStreamContext

from shared.bus.connect import connect
from shared.bus.streams import ensure_event_streams
from shared.eventstore import EventStore
from shared.eventstore.pool import connect as pg_connect
from shared.eventstore.pool import create_pool

if TYPE_CHECKING:
    from tests.infra import RunInfra


@pytest.fixture(scope="session")
def infra() -> Iterator[RunInfra]:
    # Imported here, not above: tests/unit runs without the embedded servers' packages installed.
    from tests.infra import running_infra

    yield from running_infra()


@pytest.fixture(scope="session")
async def migrated(infra: RunInfra) -> RunInfra:
    """Every migration is applied (and every service's login made) when the run's infrastructure starts."""
    return infra


@pytest.fixture(scope="session")
async def pool(migrated: RunInfra) -> AsyncIterator[asyncpg.Pool]:
    pool = await create_pool(migrated.database_url, role="league_app", max_size=20)
    yield pool
    await pool.close()


@pytest.fixture(scope="session")
def store(pool: asyncpg.Pool) -> EventStore:
    return EventStore(pool)


@pytest.fixture(scope="session")
async def standings_store(migrated: RunInfra) -> AsyncIterator[EventStore]:
    """As the standings service's role (it owns its projections' tables): what ``league rebuild`` uses."""
    pool = await create_pool(migrated.database_url, role="league_standings" if migrated.logins else "league_app",
                             max_size=5)
    yield EventStore(pool)
    await pool.close()


@pytest.fixture
async def superuser(migrated: RunInfra) -> AsyncIterator[asyncpg.Connection]:
    """A connection as the database owner (no restricted role), for what only an administrator could do."""
    conn = await pg_connect(migrated.database_url)
    yield conn
    await conn.close()


@pytest.fixture(scope="session")
async def nc(infra: RunInfra) -> AsyncIterator[Client]:
    client = await connect(infra.nats_url, name="tests", nkey_file=infra.admin_nkey)
    yield client
    await client.drain()


@pytest.fixture(scope="session")
async def js(nc: Client, infra: RunInfra) -> JetStreamContext:
    context = nc.jetstream()
    await ensure_event_streams(context, infra.namespace)
    return context
