from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp
import msgspec

from shared.client.http import LeagueClient
from shared.eventstore import Metadata, NewEvent
from shared.infra.processes import ServiceProcess, services_running


def new_stream(category: str = "test") -> str:
    return f"{category}-{uuid.uuid4().hex}"


def event(n: int = 0, *, type: str = "test.Happened", correlation_id: str = "corr", **data: Any) -> NewEvent:  # noqa: A002
    return NewEvent(
        type=type,
        data=msgspec.json.encode({"n": n, **data}),
        metadata=Metadata(correlation_id=correlation_id, actor="tester", command_id=f"cmd-{n}"),
    )


@contextmanager
def service_running(name: str, env: Mapping[str, str], log: Path) -> Iterator[ServiceProcess]:
    """A service as its own process, healthy, for the block; it must then stop cleanly."""
    with services_running(name, env=env, log=lambda _: log) as services:
        yield services[name]


async def players(session: aiohttp.ClientSession, url: str, count: int) -> list[LeagueClient]:
    clients = [LeagueClient(session, url) for _ in range(count)]
    for n, client in enumerate(clients):
        await client.register(f"Bot {n}")
    return clients
