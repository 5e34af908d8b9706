"""DATABASE_READ_URL with real streaming replicas (base backups of the run's PostgreSQL by pg_basebackup, hot
standbys following its WAL): reads go to a replica where it has replayed what was already shown, else to the
primary, so what a reader shows never goes backwards; the standings and the gateway's audit read from the replica,
and a game that ended while the replica was paused still audits and replays (from the primary)."""

from __future__ import annotations

import asyncio
import json
import os
import urllib.request
from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest
from nats.aio.client import Client

from shared.eventstore import EventStore
from shared.eventstore.pool import create_pool
from shared.eventstore.read_replica import Reads
from shared.infra.embedded_replica import EmbeddedReplica
from shared.infra.ports import free_port
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.helpers import NotYet, event, metric, new_stream, service_running, until
from tests.integration.play import create, play_to_end

SHORT: dict[str, object] = {"periods": 1, "shots_per_period": 2}


def on_port(url: str, port: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=f"{parts.netloc.rpartition('@')[0]}@127.0.0.1:{port}".lstrip("@")))


@pytest.fixture(scope="module")
def replicas(infra: RunInfra) -> Iterator[tuple[EmbeddedReplica, EmbeddedReplica]]:
    if os.environ.get("DATABASE_URL"):
        pytest.skip("replicas are made from the embedded PostgreSQL with pg_basebackup; DATABASE_URL is another")
    server = urlsplit(infra.admin_url)
    assert server.port and server.password
    made = [EmbeddedReplica(infra.tmp / f"replica-{n}", primary_port=server.port, password=server.password)
            for n in range(2)]
    try:
        for replica in made:
            replica.start()
        yield made[0], made[1]
    finally:
        for replica in made:
            replica.stop()


@pytest.fixture
async def pools(infra: RunInfra, replicas: tuple[EmbeddedReplica, EmbeddedReplica]
                ) -> AsyncIterator[tuple[asyncpg.Pool, asyncpg.Pool]]:
    made = [await create_pool(on_port(infra.database_url, r.port), role="league_app", max_size=2) for r in replicas]
    yield made[0], made[1]
    for pool in made:
        await pool.close()


async def superuser_on(replica: EmbeddedReplica) -> asyncpg.Connection:
    return await asyncpg.connect(replica.url)


async def replayed_past(replica: EmbeddedReplica, position: int, timeout: float = 10) -> None:
    conn = await superuser_on(replica)

    async def replayed() -> bool | NotYet:
        at = await conn.fetchval("SELECT (pg_last_wal_replay_lsn() - '0/0')::bigint")
        return at >= position or NotYet(f"replayed up to WAL byte {at} of {position}")

    try:
        await until("the replica replays the primary's WAL", replayed, timeout)
    finally:
        await conn.close()


async def primary_position(store: EventStore) -> int:
    async with store.pool.acquire() as conn:
        position: int = await conn.fetchval("SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint")
    return position


async def versions(reads: Reads, stream: str) -> int:
    async with reads.connection() as conn:
        return len(await EventStore(reads.primary).on(conn).read_stream(stream))


async def test_a_reader_never_shows_less_than_it_showed_when_its_replica_falls_behind(
    store: EventStore, replicas: tuple[EmbeddedReplica, EmbeddedReplica], pools: tuple[asyncpg.Pool, asyncpg.Pool]
) -> None:
    behind, current = replicas
    behind_pool, current_pool = pools
    stream = new_stream()
    await store.append(stream, [event(1)])
    await replayed_past(behind, await primary_position(store))
    paused = await superuser_on(behind)
    try:
        await paused.execute("SELECT pg_wal_replay_pause()")
        await store.append(stream, [event(2)])
        await replayed_past(current, await primary_position(store))
        assert len(await EventStore(behind_pool).read_stream(stream)) == 1, "the paused replica must lag"

        reads = Reads(store.pool, current_pool)
        assert await versions(reads, stream) == 2
        assert (reads.from_replica, reads.from_primary) == (1, 0)
        reads.replica = behind_pool  # the replicas' name now lands on one further behind
        assert await versions(reads, stream) == 2, "a read went backwards"
        assert (reads.from_replica, reads.from_primary) == (1, 1)

        await paused.execute("SELECT pg_wal_replay_resume()")
        await replayed_past(behind, reads.shown)
        assert await versions(reads, stream) == 2
        assert (reads.from_replica, reads.from_primary) == (2, 1)
    finally:
        await paused.execute("SELECT pg_wal_replay_resume()")
        await paused.close()


async def test_a_replica_out_of_reach_leaves_the_reads_to_the_primary(store: EventStore, infra: RunInfra) -> None:
    nowhere = await create_pool(on_port(infra.database_url, free_port()), role="league_app", min_size=0, max_size=1)
    try:
        stream = new_stream()
        await store.append(stream, [event(1)])
        reads = Reads(store.pool, nowhere)
        assert await versions(reads, stream) == 1
        assert (reads.from_replica, reads.from_primary) == (0, 1)
    finally:
        await nowhere.close()


async def test_standings_and_audits_read_from_the_replica_and_a_game_that_outran_a_paused_one_still_shows(
    migrated: RunInfra, nc: Client, store: EventStore, replicas: tuple[EmbeddedReplica, EmbeddedReplica],
    game_services: dict[str, ServiceProcess]
) -> None:
    replica = replicas[1]
    env = {**migrated.env, "LOG_LEVEL": "warning",
           "DATABASE_READ_URL": on_port(migrated.env["DATABASE_URL"], replica.port)}
    ns = migrated.namespace
    with service_running("standings", env, migrated.tmp / "standings-replica.log") as standings, \
            service_running("gateway", env, migrated.tmp / "gateway-replica.log") as gateway:
        for _ in range(3):
            assert "events" in await get_json(f"{standings.url}/v1/counters")
        assert metric(standings.url, "db_reads_from_replica") >= 3

        ended = await create(nc, ns, "hockeydice", 2, SHORT)
        await play_to_end(nc, ns, store, ended)
        await replayed_past(replica, await primary_position(store))
        assert (await audit(gateway, ended))["verified"]
        from_replica = metric(gateway.url, "db_reads_from_replica")
        assert from_replica >= 1

        paused = await superuser_on(replica)
        try:
            await paused.execute("SELECT pg_wal_replay_pause()")
            late = await create(nc, ns, "hockeydice", 2, SHORT)
            await play_to_end(nc, ns, store, late)
            lagging = await asyncpg.connect(on_port(migrated.database_url, replica.port))
            try:
                assert await lagging.fetchval("SELECT count(*) FROM events WHERE stream_id = $1", late) == 0
            finally:
                await lagging.close()
            report = await audit(gateway, late)
            assert report["verified"], report
            timeline = await get_json(f"{standings.url}/v1/games/{late}/timeline")
            assert timeline["game_id"] == late
        finally:
            await paused.execute("SELECT pg_wal_replay_resume()")
            await paused.close()


async def audit(gateway: ServiceProcess, game_id: str) -> dict[str, object]:
    return await get_json(f"{gateway.url}/audit/{game_id}")


async def get_json(url: str) -> dict[str, object]:
    def fetch() -> dict[str, object]:
        with urllib.request.urlopen(url, timeout=30) as response:
            found: dict[str, object] = json.loads(response.read())
        return found

    return await asyncio.to_thread(fetch)
