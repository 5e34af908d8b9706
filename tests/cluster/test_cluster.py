"""Past one machine, on this one: a 3-node nats-server cluster, two engine and two gateway replicas and the other
services play a Swiss bot tournament through both gateways while the nats-server leading the event stream and one
engine replica are killed with SIGKILL. The other engine takes every partition at once; the killed ones come back,
and the engines share the partitions again without a stop. The tournament finishes, PostgreSQL and JetStream hold
the same events once each (the stream kept on all three servers again), every game audits, standings equal a
rebuild and the log verifies."""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from services.standings.rebuild import rebuild
from shared.audit import audit_game
from shared.bus.connect import connect
from shared.bus.namespace import Namespace
from shared.bus.partitions import PARTITIONS
from shared.client.table import register_bots
from shared.client.tournament import play_tournament
from shared.eventstore import EventStore
from shared.infra.embedded_nats import EmbeddedNats
from shared.verify.run import verify_log
from tests.closed_league import store_as
from tests.cluster.league import ClusterLeague, running_cluster_league
from tests.faults.checks import Statuses, relayed, revealed, same_events_in_postgresql_and_jetstream
from tests.integration.helpers import metric
from tests.integration.test_engine_replicas import shares_settle

pytestmark = pytest.mark.cluster
PLAYERS = 8
ROUNDS = 4


@pytest.fixture(scope="module")
def league() -> Iterator[ClusterLeague]:
    # Not under pytest's temporary folder: the embedded PostgreSQL runs as a user of its own when tests run as root.
    with tempfile.TemporaryDirectory(prefix="league-cluster-") as data, running_cluster_league(Path(data)) as running:
        yield running


@pytest.fixture
async def store(league: ClusterLeague) -> AsyncIterator[EventStore]:
    async with store_as(league.postgres.url, "league_app", 4) as store:
        yield store


@pytest.fixture
async def standings_store(league: ClusterLeague) -> AsyncIterator[EventStore]:
    async with store_as(league.postgres.url, "league_standings", 2) as store:
        yield store


async def events_leader(league: ClusterLeague) -> EmbeddedNats:
    """The nats-server that leads the EVENTS stream's replicas now."""
    nc = await connect(league.nats.url, name="cluster-test", nkey_file=league.admin_nkey)
    try:
        info = await nc.jetstream().stream_info(Namespace().events_stream)
    finally:
        await nc.close()
    assert info.config.num_replicas == len(league.nats.servers)
    assert info.cluster is not None
    return next(server for server in league.nats.servers if server.name == info.cluster.leader)


async def stream_replicated(league: ClusterLeague, timeout: float = 60) -> None:
    """Both event streams kept on every server again, each copy current."""
    nc = await connect(league.nats.url, name="cluster-test", nkey_file=league.admin_nkey)
    deadline = time.monotonic() + timeout
    try:
        for stream in (Namespace().events_stream, Namespace().private_events_stream):
            while True:
                cluster = (await nc.jetstream().stream_info(stream)).cluster
                assert cluster is not None
                peers = cluster.replicas or []
                if len(peers) == len(league.nats.servers) - 1 and all(p.current and not p.offline for p in peers):
                    break
                assert time.monotonic() < deadline, f"{stream} not current on every server: {cluster}"
                await asyncio.sleep(0.5)
    finally:
        await nc.close()


async def kill_and_recover(league: ClusterLeague, running: asyncio.Future[Any], began: float) -> list[str]:
    """kill -9 the EVENTS stream's leader and engine-2; engine-1 takes every partition; both come back and the
    engines share the partitions again. Returns what was done and when (seconds since ``began``), each while the
    tournament was still being played."""
    done = []

    def did(what: str) -> None:
        done.append(f"{what} at {time.monotonic() - began:.1f}s")

    survivor, doomed = league.processes["engine-1"], league.processes["engine-2"]
    await shares_settle([survivor, doomed])
    await asyncio.sleep(1.5)
    leader = await events_leader(league)
    assert not running.done(), "the tournament ended before anything was killed"
    await asyncio.to_thread(leader.kill)
    did(f"killed {leader.name}")
    await asyncio.sleep(0.5)
    await asyncio.to_thread(doomed.kill)
    did("killed engine-2")
    assert await shares_settle([survivor], timeout=15) == [PARTITIONS]
    did("engine-1 took every partition")
    await asyncio.sleep(2)
    await asyncio.to_thread(leader.start)
    did(f"{leader.name} started again")
    doomed.start()
    await asyncio.to_thread(doomed.wait_healthy, 60)
    owned = await shares_settle([survivor, doomed])
    did(f"engines share the partitions again: {owned}")
    assert not running.done(), f"the tournament ended before the league recovered: {done}"
    return done


async def test_a_tournament_through_two_gateways_survives_a_nats_server_and_an_engine_killed(
    league: ClusterLeague, store: EventStore, standings_store: EventStore
) -> None:
    began = time.monotonic()
    statuses = Statuses()
    gateways = [process.url for process in league.replicas("gateway")]
    async with aiohttp.ClientSession(trace_configs=[statuses.config], connector=aiohttp.TCPConnector(limit=0),
                                     timeout=aiohttp.ClientTimeout(total=30)) as session:
        clients = [client for n, gateway in enumerate(gateways) for client in await register_bots(
            session, gateway, [f"Cluster bot {n}.{m}" for m in range(PLAYERS // len(gateways))])]
        organiser = clients[0]
        tournament_id = await organiser.create_tournament(
            "Cluster cup", "hockeydice", {"type": "swiss", "table_size": 2, "rounds": ROUNDS}, PLAYERS,
            {"periods": 3, "shots_per_period": 10}, turn_seconds=5)
        await asyncio.gather(*(c.enter(tournament_id) for c in clients))
        await organiser.start(tournament_id)
        bots = asyncio.ensure_future(asyncio.gather(
            *(play_tournament(c, tournament_id, random.Random(n)) for n, c in enumerate(clients))))
        try:
            done = await kill_and_recover(league, bots, began)
            await asyncio.wait_for(asyncio.shield(bots), 150)
        finally:
            bots.cancel()
        final = await organiser.tournament(tournament_id)
    played = time.monotonic() - began
    assert final["status"] == "finished" and len(final["ranking"]) == PLAYERS, final
    assert statuses.seen[500] == statuses.seen[502] == 0, f"the bots got a server error: {dict(statuses.seen)}"
    for gateway in league.replicas("gateway"):
        assert metric(gateway.url, "http_responses_total") > 0, f"{gateway.url} served no bot"
    print(f"\n{'; '.join(done)}; played in {played:.0f}s; the bots saw {dict(statuses.seen)}, "
          f"{statuses.unanswered} requests unanswered")

    games = [g["game_id"] for r in final["rounds"] for t in r["tables"] for g in t["games"]]
    assert len(games) == ROUNDS * PLAYERS // 2
    for game_id in games:
        report = audit_game(game_id, *await revealed(store, game_id))
        assert report.verified, str(report)

    async with store.pool.acquire() as conn:
        doubled = await conn.fetch(
            "SELECT stream_id, metadata->>'command_id' FROM events WHERE type = 'engine.CommandAccepted'"
            " GROUP BY 1, 2 HAVING count(*) > 1")
    assert not doubled, f"commands stored twice: {doubled}"
    await relayed(store)
    await stream_replicated(league)
    await same_events_in_postgresql_and_jetstream(league.nats.url, league.admin_nkey, store)
    compared = await rebuild(standings_store, "all", swap=False)
    assert compared.equal and not compared.quarantined, compared.diffs
    nc = await connect(league.nats.url, name="cluster-verify", nkey_file=league.admin_nkey)
    try:
        verified = await verify_log(store, js=nc.jetstream(), ns=Namespace())
    finally:
        await nc.close()
    assert not verified.findings, "\n".join(map(str, verified.findings))
