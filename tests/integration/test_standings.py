"""The standings projections against real PostgreSQL, NATS, engine and RNG processes, with bots playing."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid

import pytest
from nats.aio.client import Client

from services.standings.rebuild import rebuild
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.bots_running import (
    BotLoad,
    Spec,
    caught_up,
    events_in_log,
    fetch,
    standings_service,
    tournament,
)

PLAYERS = [f"player-{n}" for n in range(6)]


async def test_every_projection_equals_a_rebuild_while_bots_play(
    nc: Client, store: EventStore, standings_store: EventStore, migrated: RunInfra,
    game_services: dict[str, ServiceProcess],
) -> None:
    cup = f"cup-{uuid.uuid4().hex[:8]}"
    async with standings_service(migrated) as standings:
        load = BotLoad(nc, migrated.namespace, store)
        load.pace.seconds = 0.05  # games that go on while the whole test session's log is rebuilt
        await load.start(tournament(cup, "vortex", 3, PLAYERS, rounds=2, options={"max_rounds": 8})
                         + [Spec("hockeydice", 2, players=("player-0", "player-3")),
                            Spec("phantoms", 4, {"edition": "poti"}, players=tuple(PLAYERS[:4]))])
        await asyncio.sleep(1.0)
        assert load.running() > 0
        before = await events_in_log(store)
        report = await rebuild(standings_store, "all")
        assert report.swapped and report.equal and report.events > 0, report.diffs
        assert await events_in_log(store) > before, "the rebuild should have happened while bots played"
        load.pace.seconds = 0.0
        await load.wait()
        counters = await caught_up(standings.url, store)
        assert counters["games_finished"] >= len(load.game_ids)
        for game_id in load.game_ids:
            if not game_id.startswith("phantoms"):
                status, found = await fetch(f"{standings.url}/v1/boards/{game_id}")
                assert status == 200 and found["running"] is False and found["winners"] is not None

        status, board = await fetch(f"{standings.url}/v1/tournaments/{cup}/leaderboard")
        assert status == 200 and board["games"] == 4 and board["running"] == 0
        assert {p["player_id"] for p in board["placings"]} == set(PLAYERS)
        assert sum(p["points"] for p in board["placings"]) == pytest.approx(4)
        ranks = [p["rank"] for p in board["placings"]]
        assert ranks == sorted(ranks) and ranks[0] == 1

        compared = await rebuild(standings_store, "all", swap=False)
        assert compared.equal and not compared.swapped
        result = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-m", "shared.cli.main", "rebuild", "all"],
            env={**os.environ, **{k: migrated.env[k] for k in ("DATABASE_URL", "SECRETS_DIR")}},
            capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert "100%" in result.stderr and "equal to the live projection row by row: True" in result.stdout
