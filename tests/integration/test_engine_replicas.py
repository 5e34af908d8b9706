"""Engine replicas share the games by partition: two and three replicas hammered with commands and views for the
same games lose and double nothing, and when the owner of half the partitions is killed mid-burst, another replica
takes them within seconds and every game plays on to a verified audit."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable

import msgspec
import pytest
from nats.aio.client import Client

from shared.audit import audit_game
from shared.audit.fetch import fetch_game
from shared.bus.engine_requests import ask_engine
from shared.bus.partitions import PARTITIONS
from shared.bus.replies import RejectedError
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.engine import CommandResult, GameView, GetView, PlayCommand
from shared.play.table import Table
from tests.infra import RunInfra
from tests.integration.helpers import NotYet, metric, until
from tests.integration.play import create, revealed

GAMES = 50
SHORT: dict[str, object] = {"periods": 1, "shots_per_period": 2}
_encoder = msgspec.json.Encoder()


async def shares_settle(engines: list[ServiceProcess], timeout: float = 30) -> list[float]:
    """Wait until the live engines own every partition between them, each a share: returns each one's count."""

    def settled() -> list[float] | NotYet:
        owned = [metric(e.url, "engine_partitions_owned") for e in engines]
        if sum(owned) == PARTITIONS and max(owned) - min(owned) <= 1 + PARTITIONS % len(engines):
            return owned
        return NotYet(f"owned {owned} of {PARTITIONS}")

    owned: list[float] = await until(f"the partitions settle over {len(engines)} replicas", settled, timeout)
    return owned


@pytest.fixture
async def started(migrated: RunInfra, game_services: dict[str, ServiceProcess]
                  ) -> AsyncIterator[Callable[[int], Awaitable[list[ServiceProcess]]]]:
    """``started(n)``: the session's engine plus ``n - 1`` more replicas, running until the test ends; then the
    session's engine owns every partition again."""
    extra: list[ServiceProcess] = []

    async def start(replicas: int) -> list[ServiceProcess]:
        for n in range(replicas - 1):
            replica = ServiceProcess("engine", {**migrated.env, "LOG_LEVEL": "warning"},
                                     migrated.tmp / f"engine-{len(extra) + n + 2}.log")
            replica.start()
            extra.append(replica)
        for replica in extra:
            await asyncio.to_thread(replica.wait_healthy, 60)
        return [game_services["engine"], *extra]

    try:
        yield start
    finally:
        for replica in extra:
            if replica.alive():
                assert replica.stop() == 0
    await shares_settle([game_services["engine"]])


async def hammer(nc: Client, infra: RunInfra, store: EventStore, game_id: str, seed: int) -> list[str]:
    """Send each move twice at once under two command ids, and retry some under the same id; a send that got no
    answer (its replica died) is sent again under its id until it does. Returns the ids the engine accepted."""
    rng = random.Random(seed)
    accepted: list[str] = []
    ns = infra.namespace
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
        views = [ask_engine(nc, ns, game_id, "view", GetView(game_id=game_id), GameView, timeout=30)
                 for _ in range(2)]
        *results, view_a, view_b = await asyncio.gather(
            *(ask_engine(nc, ns, game_id, "command", s, CommandResult, timeout=10) for s in sends), *views,
            return_exceptions=True)
        assert isinstance(view_a, GameView) and isinstance(view_b, GameView), (view_a, view_b)
        for n, send in enumerate(sends):
            for _retry in range(10):
                if isinstance(results[n], CommandResult | RejectedError):
                    break
                try:
                    results[n] = await ask_engine(nc, ns, game_id, "command", send, CommandResult, timeout=10)
                except (RejectedError, TimeoutError) as error:
                    results[n] = error
            assert isinstance(results[n], CommandResult | RejectedError), results[n]
        if isinstance(results[0], CommandResult) and isinstance(results[2], CommandResult):
            assert results[2].version == results[0].version, "a retried command id got another result"
        accepted += {s.command_id for s, r in zip(sends, results, strict=True) if isinstance(r, CommandResult)}


async def check_games(store: EventStore, game_ids: list[str], accepted: list[list[str]]) -> None:
    for game_id, ids in zip(game_ids, accepted, strict=True):
        await revealed(store, game_id)
        game_events, rng_events = await fetch_game(store, game_id)
        report = audit_game(game_id, game_events, rng_events)
        assert report.verified, str(report)
        stored_ids = Counter(e.metadata.command_id for e in game_events if e.type == "engine.CommandAccepted")
        assert sorted(stored_ids) == sorted(set(ids)), (  # type: ignore[type-var]
            "an accepted command is missing, or a stored one was not")
        assert set(stored_ids.values()) == {1}, "a command was stored twice"


@pytest.mark.parametrize("replicas", [2, 3])
async def test_engine_replicas_hammered_on_50_games_lose_and_double_nothing(
    nc: Client, store: EventStore, migrated: RunInfra, started: Callable[[int], Awaitable[list[ServiceProcess]]],
    replicas: int
) -> None:
    engines = await started(replicas)
    owned = await shares_settle(engines)
    assert min(owned) > 0, owned
    before = [metric(r.url, 'engine_requests_total{kind="command"}') for r in engines]
    creates_before = sum(metric(r.url, 'engine_requests_total{kind="create"}') for r in engines)
    game_ids = [await create(nc, migrated.namespace, "hockeydice", 2, SHORT) for _ in range(GAMES)]
    creates = sum(metric(r.url, 'engine_requests_total{kind="create"}') for r in engines) - creates_before
    assert creates >= GAMES, f"each game's creation is counted as a create, not as a move: {creates}"
    accepted = await asyncio.gather(*(hammer(nc, migrated, store, g, n) for n, g in enumerate(game_ids)))
    await check_games(store, game_ids, accepted)
    served = [metric(r.url, 'engine_requests_total{kind="command"}') - b for r, b in zip(engines, before, strict=True)]
    assert all(count > 20 for count in served), f"every replica must have served its games' commands: {served}"
    ahead = sum(metric(r.url, "engine_draws_answered_ahead") for r in engines)
    assert ahead > GAMES, f"the draws were not answered from blocks ahead ({ahead}), yet every game must verify"


async def test_when_an_owner_is_killed_mid_burst_another_replica_takes_its_partitions_and_play_goes_on(
    nc: Client, store: EventStore, migrated: RunInfra, started: Callable[[int], Awaitable[list[ServiceProcess]]],
    game_services: dict[str, ServiceProcess]
) -> None:
    survivor, doomed = await started(2)
    await shares_settle([survivor, doomed])
    game_ids = [await create(nc, migrated.namespace, "hockeydice", 2, {"periods": 1, "shots_per_period": 4})
                for _ in range(20)]
    burst = asyncio.gather(*(hammer(nc, migrated, store, g, n) for n, g in enumerate(game_ids)))
    for _ in range(200):
        if metric(doomed.url, 'engine_requests_total{kind="command"}') >= 40:
            break
        await asyncio.sleep(0.05)
    doomed.kill()
    killed_at = time.monotonic()
    await shares_settle([survivor])
    took_over = time.monotonic() - killed_at
    assert took_over < 5, f"the survivor took {took_over:.1f}s to own the dead replica's partitions"
    accepted = await burst
    await check_games(store, game_ids, accepted)
