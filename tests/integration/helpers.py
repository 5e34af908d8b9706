from __future__ import annotations

import asyncio
import inspect
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
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


def metric(url: str, name: str) -> float:
    """A service's metric from its /metrics: one sample, named as printed (``name`` or ``name{labels}``), or, for a
    bare name, the sum of its labelled samples. A declared metric without that sample yet (labels not used so far)
    reads 0; an undeclared one fails."""
    with urllib.request.urlopen(f"{url}/metrics", timeout=5) as response:
        lines = response.read().decode().splitlines()
    declared = {line.split()[2] for line in lines if line.startswith("# TYPE ")}
    samples = (line.rpartition(" ") for line in lines if line and not line.startswith("#"))
    values = [float(value) for series, _, value in samples if series == name or series.startswith(f"{name}{{")]
    assert values or name.partition("{")[0] in declared, f"{name} is not in /metrics"
    return sum(values)


async def rejections_written(engine: ServiceProcess, timeout: float = 10) -> None:
    """Until the engine has written every refusal it answered (they are written behind the answer)."""
    await until("the engine has written every refusal it answered",
                lambda: metric(engine.url, "engine_rejections_unwritten") == 0, timeout)


@dataclass(frozen=True)
class NotYet:
    """A check's answer to ``until`` when it has not seen what is waited for: false, and quoted if the wait runs
    out."""
    seen: str

    def __bool__(self) -> bool:
        return False


async def until(what: str, check: Callable[[], Any], timeout: float = 60) -> Any:
    """Polls ``check`` (a blocking one runs in a thread, an awaitable it gives is awaited) until it gives something
    true, and returns that."""
    deadline = time.monotonic() + timeout
    while True:
        result = check() if inspect.iscoroutinefunction(check) else await asyncio.to_thread(check)
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        seen = f"; last seen: {result.seen}" if isinstance(result, NotYet) else ""
        assert time.monotonic() < deadline, f"not within {timeout}s: {what}{seen}"
        await asyncio.sleep(0.1)
