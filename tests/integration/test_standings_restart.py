"""SIGKILL the standings service while bots play and start it again: no event counted twice or missed."""

from __future__ import annotations

import asyncio
import uuid

from nats.aio.client import Client

from services.standings.rebuild import rebuild
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.bots_running import BotLoad, Spec, caught_up, fetch, standings_service, tournament


async def test_a_standings_service_killed_mid_play_counts_every_event_exactly_once(
    nc: Client, store: EventStore, standings_store: EventStore, migrated: RunInfra,
    game_services: dict[str, ServiceProcess],
) -> None:
    cup = f"killed-cup-{uuid.uuid4().hex[:8]}"
    load = BotLoad(nc, migrated.namespace, store)
    load.pace.seconds = 0.01
    async with standings_service(migrated, "standings-killed") as standings:
        before = await caught_up(standings.url, store)
        await load.start(tournament(cup, "vortex", 3, ["ann", "bob", "cyd"], rounds=2)
                         + [Spec("hockeydice", 2, players=("ann", "dan"))])
        for _ in range(200):
            _, counters = await fetch(f"{standings.url}/v1/counters")
            if counters["events"] > before["events"] + 150:
                break
            await asyncio.sleep(0.05)
        standings.kill()
    assert load.running() == 3
    await asyncio.sleep(0.5)
    async with standings_service(migrated, "standings-restarted") as standings:
        load.pace.seconds = 0.0
        await load.wait()
        counters = await caught_up(standings.url, store)
        assert counters["games_finished"] - before["games_finished"] == 3
        ids: list[str] = []
        after = ""
        while True:
            _, changes = await fetch(f"{standings.url}/v1/changes?limit=500&after={after}")
            ids += [item["id"] for item in changes["items"]]
            if changes["next"] is None:
                break
            after = changes["next"]
        assert len(ids) == len(set(ids))
        assert [tuple(map(int, i.split("-"))) for i in ids] == sorted(tuple(map(int, i.split("-"))) for i in ids)
        status, board = await fetch(f"{standings.url}/v1/tournaments/{cup}/leaderboard")
        assert status == 200 and (board["games"], board["running"]) == (2, 0)
        assert sum(p["points"] for p in board["placings"]) == 2
        report = await rebuild(standings_store, "all", swap=False)
        assert report.equal, report.diffs
