"""Bot games in the background while a test looks at the league: seated players, tournament tables, a pace."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import urllib.error
import urllib.request
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import msgspec
from nats.aio.client import Client

from shared.bus.engine_requests import ask_engine
from shared.bus.namespace import Namespace
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.engine import CommandResult, CreateGame
from shared.play.table import Table
from tests.infra import RunInfra
from tests.integration.helpers import NotYet, until
from tests.integration.play import Pace, play_to_end

_encoder = msgspec.json.Encoder()


@dataclass(frozen=True)
class Spec:
    game: str
    seats: int
    options: dict[str, object] = field(default_factory=dict)
    players: tuple[str | None, ...] = ()
    tournament_id: str | None = None
    round: int | None = None
    table: int | None = None


async def open_game(nc: Client, ns: Namespace, spec: Spec) -> str:
    game_id = f"{spec.game}-{uuid.uuid4().hex[:16]}"
    await ask_engine(nc, ns, game_id, "command", CreateGame(
        game=spec.game, game_id=game_id, seats=spec.seats, options=msgspec.Raw(_encoder.encode(spec.options)),
        players=spec.players, tournament_id=spec.tournament_id, round=spec.round, table=spec.table,
        command_id=str(uuid.uuid4())), CommandResult)
    return game_id


def tournament(tournament_id: str, game: str, seats: int, players: Sequence[str], rounds: int,
               options: dict[str, object] | None = None) -> list[Spec]:
    """Round after round, the players rotated over tables of ``seats``."""
    specs = []
    for round_ in range(1, rounds + 1):
        order = list(players[round_ - 1:]) + list(players[:round_ - 1])
        for table in range(len(order) // seats):
            specs.append(Spec(game, seats, options or {}, tuple(order[table * seats:(table + 1) * seats]),
                              tournament_id, round_, table + 1))
    return specs


class BotLoad:
    """Games played concurrently as tasks; ``wait()`` for all of them to end."""

    def __init__(self, nc: Client, ns: Namespace, store: EventStore) -> None:
        self.nc, self.ns, self.store = nc, ns, store
        self.tasks: list[asyncio.Task[Table]] = []
        self.game_ids: list[str] = []
        self.pace = Pace()

    async def start(self, specs: Sequence[Spec], *, seed: int = 1) -> list[str]:
        started = []
        for index, spec in enumerate(specs):
            game_id = await open_game(self.nc, self.ns, spec)
            started.append(game_id)
            self.tasks.append(asyncio.create_task(
                play_to_end(self.nc, self.ns, self.store, game_id, seed=seed + index, pace=self.pace)))
        self.game_ids += started
        return started

    def running(self) -> int:
        return sum(not t.done() for t in self.tasks)

    async def wait(self, timeout: float = 90) -> list[Table]:
        return list(await asyncio.wait_for(asyncio.gather(*self.tasks), timeout))

    async def cancel(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def get_json(url: str, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    request_ = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request_, timeout=30) as response:
            body = response.read()
            return response.status, json.loads(body) if body else None
    except urllib.error.HTTPError as error:
        body = error.read()
        return error.code, json.loads(body) if body else None


async def fetch(url: str) -> tuple[int, Any]:
    return await asyncio.to_thread(get_json, url)


async def events_in_log(store: EventStore) -> int:
    async with store.pool.acquire() as conn:
        return int(await conn.fetchval("SELECT count(*) FROM events"))


async def caught_up(url: str, store: EventStore, timeout: float = 120) -> dict[str, Any]:
    """Wait until the standings service has folded every event of the log (its counter equals the log's size)."""
    async def counted() -> dict[str, Any] | NotYet:
        _, counters = await fetch(f"{url}/v1/counters")
        total = await events_in_log(store)  # after the counters: events may still be appended (seed reveals)
        if counters and counters["events"] > total:
            raise AssertionError(f"standings counted {counters['events']} events, the log holds {total}")
        if counters and counters["events"] == total:
            return dict(counters)
        return NotYet(f"standings at {counters and counters['events']} of {total} events")

    found: dict[str, Any] = await until("standings folded every event of the log", counted, timeout)
    return found


@asynccontextmanager
async def standings_service(infra: RunInfra, name: str = "standings") -> AsyncIterator[ServiceProcess]:
    service = ServiceProcess("standings", {**infra.env, "LOG_LEVEL": "warning"}, infra.tmp / f"{name}.log")
    service.start()
    try:
        await asyncio.to_thread(service.wait_healthy, 60)
        yield service
    finally:
        if service.alive():
            assert service.stop() == 0
        if os.environ.get("STANDINGS_KEEP_LOG"):  # a file to keep the service's log in (the tmp dir goes)
            shutil.copy(infra.tmp / f"{name}.log", os.environ["STANDINGS_KEEP_LOG"])
