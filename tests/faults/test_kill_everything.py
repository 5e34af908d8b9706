"""The fault suite: a bot tournament played through the gateway by the shipped bots while every service, then
nats-server, then PostgreSQL is killed with SIGKILL and started again by the supervisor. The tournament finishes;
PostgreSQL and JetStream hold the same events, id by id, none twice; every game audits; the standings equal a
rebuild; the log verifies; no request got a 500. Then nats-server is frozen (SIGSTOP): every /healthz says so."""

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
from shared.client.table import register_bots
from shared.client.tournament import play_tournament
from shared.eventstore import EventStore
from shared.verify.run import verify_log
from tests.closed_league import store_as
from tests.faults.checks import Statuses, relayed, revealed, same_events_in_postgresql_and_jetstream
from tests.faults.league import League, running_league

pytestmark = pytest.mark.faults
KILLED = ("relay", "rng", "engine", "matchmaking", "standings", "gateway", "nats-server", "postgresql")
PLAYERS = 8
VANISHED = 1
"""Players who enter and never play: the tournament's turn timer has the default bot play for them."""


@pytest.fixture(scope="module")
def league() -> Iterator[League]:
    # Not under pytest's own temporary folder: pytest makes that private to its user again when any run starts,
    # and the embedded PostgreSQL runs as a user of its own when the tests run as root.
    with tempfile.TemporaryDirectory(prefix="league-faults-") as data, running_league(Path(data)) as running:
        yield running


def failures_logged(league: League) -> str:
    """Every request a service answered with an error of its own (a 500, ``internal``), as its log tells it: the
    logs go with the league's folder when the test ends."""
    found = [f"{name}: {line}" for name, service in league.services.items() if service.log_path is not None
             for line in service.log_path.read_text(errors="replace").splitlines()
             if '"http.failed"' in line or '"request.failed"' in line]
    return "\n".join(found) or "no request failed inside a service"


@pytest.fixture
async def store(league: League) -> AsyncIterator[EventStore]:
    async with store_as(league.postgres.url, "league_app", 4) as store:
        yield store


@pytest.fixture
async def standings_store(league: League) -> AsyncIterator[EventStore]:
    async with store_as(league.postgres.url, "league_standings", 2) as store:
        yield store


async def kill_each_while_it_runs(league: League, running: asyncio.Future[Any]) -> list[str]:
    """Each in turn: kill -9, wait for the supervisor to start it again and for the whole league to be healthy."""
    killed: list[str] = []
    for name in KILLED:
        await asyncio.sleep(1.0)
        assert not running.done(), f"the tournament ended before {name} was killed; killed so far: {killed}"
        before = await asyncio.to_thread(league.kill, name)
        deadline = time.monotonic() + 60
        while league.pid(name) == before:
            assert time.monotonic() < deadline, f"{name} was not started again"
            await asyncio.sleep(0.1)
        await league.all_healthy()
        killed.append(name)
    return killed


async def test_a_bot_tournament_survives_kill_9_of_every_process(league: League, store: EventStore,
                                                                 standings_store: EventStore) -> None:
    statuses = Statuses()
    async with aiohttp.ClientSession(trace_configs=[statuses.config], connector=aiohttp.TCPConnector(limit=0),
                                     timeout=aiohttp.ClientTimeout(total=30)) as session:
        clients = await register_bots(session, league.gateway, [f"Fault bot {n}" for n in range(PLAYERS)])
        organiser = clients[0]
        tournament_id = await organiser.create_tournament(
            "Fault cup", "hockeydice", {"type": "swiss", "table_size": 2, "rounds": 4}, PLAYERS,
            {"periods": 1, "shots_per_period": 3}, turn_seconds=2)
        await asyncio.gather(*(c.enter(tournament_id) for c in clients))
        await organiser.start(tournament_id)
        playing = clients[VANISHED:]
        bots = asyncio.ensure_future(asyncio.gather(
            *(play_tournament(c, tournament_id, random.Random(n)) for n, c in enumerate(playing))))
        try:
            killed = await kill_each_while_it_runs(league, bots)
            await asyncio.wait_for(asyncio.shield(bots), 240)
        except Exception:
            print(failures_logged(league))  # beside the failure: what the service that failed logged
            raise
        finally:
            bots.cancel()
        final = await organiser.tournament(tournament_id)
    assert killed == list(KILLED)
    assert final["status"] == "finished" and len(final["ranking"]) == PLAYERS, final
    assert statuses.seen[500] == statuses.seen[502] == 0, (
        f"the bots got a server error: {dict(statuses.seen)}\n{failures_logged(league)}")
    print(f"\nkilled {', '.join(killed)}; the bots saw {dict(statuses.seen)}, {statuses.unanswered} requests "
          f"unanswered; restarts: {league.said}")

    games = [g["game_id"] for r in final["rounds"] for t in r["tables"] for g in t["games"]]
    assert len(games) == 4 * PLAYERS // 2
    for game_id in games:
        report = audit_game(game_id, *await revealed(store, game_id))
        assert report.verified, str(report)

    await relayed(store)
    await same_events_in_postgresql_and_jetstream(league.nats.url, league.admin_nkey, store)
    compared = await rebuild(standings_store, "all", swap=False)
    assert compared.equal and not compared.quarantined, compared.diffs
    nc = await connect(league.nats.url, name="fault-verify", nkey_file=league.admin_nkey)
    try:
        verified = await verify_log(store, js=nc.jetstream(), ns=Namespace())
    finally:
        await nc.close()
    assert not verified.findings, "\n".join(map(str, verified.findings))


async def test_every_healthz_says_so_while_nats_server_is_frozen(league: League) -> None:
    await league.all_healthy()
    league.nats.pause()
    try:
        deadline = time.monotonic() + 15
        while True:
            statuses = await asyncio.to_thread(league.healthz)
            if all(status == 503 for status in statuses.values()):
                break
            assert time.monotonic() < deadline, f"/healthz while nats-server is frozen: {statuses}"
            await asyncio.sleep(0.25)
    finally:
        league.nats.resume()
    await league.all_healthy(60)
