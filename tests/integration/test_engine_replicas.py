"""Two engine replicas in one queue group, hammered with commands and views for the same 50 games: a per-game
advisory lock (with optimistic concurrency on the event store behind it), not a single instance, keeps every game
correct."""

from __future__ import annotations

import asyncio
import random
import urllib.request
import uuid
from collections import Counter
from collections.abc import AsyncIterator

import msgspec
import pytest
from nats.aio.client import Client

from shared.audit import audit_game
from shared.audit.fetch import fetch_game
from shared.bus.replies import RejectedError
from shared.bus.rpc import request
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.engine import CommandResult, GameView, GetView, PlayCommand
from shared.play.table import Table
from tests.infra import RunInfra
from tests.integration.play import create, revealed

GAMES = 50
_encoder = msgspec.json.Encoder()


@pytest.fixture
async def replicas(migrated: RunInfra, game_services: dict[str, ServiceProcess]
                   ) -> AsyncIterator[list[ServiceProcess]]:
    replica = ServiceProcess("engine", {**migrated.env, "LOG_LEVEL": "warning"}, migrated.tmp / "engine-2.log")
    replica.start()
    replica.wait_healthy(60)
    yield [game_services["engine"], replica]
    assert replica.stop() == 0


def metric(service: ServiceProcess, name: str) -> float:
    with urllib.request.urlopen(f"{service.url}/metrics", timeout=5) as response:
        text = response.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name))


async def hammer(nc: Client, infra: RunInfra, store: EventStore, game_id: str, seed: int) -> list[str]:
    """Send each move twice at once under two command ids, and retry some under the same id: returns the ids
    the engine accepted."""
    rng = random.Random(seed)
    accepted: list[str] = []
    subject = infra.namespace.command("engine", "command")
    table = Table(game_id)
    while True:
        table.apply_all(await store.read_stream(game_id, table.version + 1))
        if table.ended is not None:
            return accepted
        assert table.rules is not None
        seat = min(table.rules.pending_seats(table.state))
        command = msgspec.Raw(_encoder.encode(table.rules.bots["random"](table.state, seat, rng)))
        ids = [str(uuid.uuid4()), str(uuid.uuid4())]
        sends = [PlayCommand(game_id=game_id, command=command, command_id=i) for i in ids]
        sends.append(sends[0])
        views = [request(nc, infra.namespace.command("engine", "view"), GetView(game_id=game_id), GameView,
                         timeout=30) for _ in range(2)]
        *results, view_a, view_b = await asyncio.gather(
            *(request(nc, subject, s, CommandResult, timeout=30) for s in sends), *views, return_exceptions=True)
        assert isinstance(view_a, GameView) and isinstance(view_b, GameView), (view_a, view_b)
        for result in results:
            assert isinstance(result, CommandResult | RejectedError), result
        if isinstance(results[0], CommandResult) and isinstance(results[2], CommandResult):
            assert results[2].version == results[0].version, "a retried command id got another result"
        accepted += {s.command_id for s, r in zip(sends, results, strict=True) if isinstance(r, CommandResult)}


async def test_two_engine_replicas_hammered_on_50_games_lose_and_double_nothing(
    nc: Client, store: EventStore, migrated: RunInfra, replicas: list[ServiceProcess]
) -> None:
    before = [metric(r, 'engine_requests_total{kind="command"}') for r in replicas]
    waits_before = sum(metric(r, "engine_lock_waits") for r in replicas)
    short = {"periods": 1, "shots_per_period": 2}
    game_ids = [await create(nc, migrated.namespace, "hockeydice", 2, short) for _ in range(GAMES)]
    accepted = await asyncio.gather(*(hammer(nc, migrated, store, g, n) for n, g in enumerate(game_ids)))
    for game_id, ids in zip(game_ids, accepted, strict=True):
        await revealed(store, game_id)
        game_events, rng_events = await fetch_game(store, game_id)
        report = audit_game(game_id, game_events, rng_events)
        assert report.verified, str(report)
        stored_ids = Counter(e.metadata.command_id for e in game_events if e.type == "engine.CommandAccepted")
        assert sorted(stored_ids) == sorted(ids), "an accepted command is missing, or a stored one was not accepted"
        assert set(stored_ids.values()) == {1}, "a command was stored twice"
    served = [metric(r, 'engine_requests_total{kind="command"}') - b for r, b in zip(replicas, before, strict=True)]
    assert all(count > 50 for count in served), f"both replicas must have served commands: {served}"
    assert sum(metric(r, "engine_lock_waits") for r in replicas) > waits_before, \
        "the replicas never raced for one game"
