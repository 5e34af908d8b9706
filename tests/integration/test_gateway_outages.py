"""What the league cannot reach is a 503 with Retry-After, never a 500; odd bodies are a 400 naming the field."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import pytest

from shared.client.http import LeagueClient
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.helpers import players

TOURNAMENT = {"name": "Cup", "game": "vortex", "format": {"type": "swiss", "table_size": 2}, "max_players": 4}


async def post(session: aiohttp.ClientSession, url: str, data: bytes,
               headers: dict[str, str]) -> tuple[int, dict[str, str], dict]:  # type: ignore[type-arg]
    async with session.post(url, data=data, headers={"Content-Type": "application/json", **headers}) as response:
        return response.status, dict(response.headers), json.loads(await response.read())


async def test_bodies_that_are_not_utf8_or_nest_too_deep_are_a_400_naming_the_field(
    gateway: str, session: aiohttp.ClientSession
) -> None:
    (player,) = await players(session, gateway, 1)
    auth = {"Authorization": f"Bearer {player.token}"}
    deep = b"[" * 30_000 + b"]" * 30_000
    cases = [
        (f"{gateway}/v1/players", b'{"name": "Ev\xffe"}', {}, "request.not-utf8", "$.name"),
        (f"{gateway}/v1/tournaments", b'{"name": "Cup\xc3", "game": "vortex", "format": {"type": "swiss", '
                                      b'"table_size": 2}, "max_players": 4}', auth, "request.not-utf8", "$.name"),
        (f"{gateway}/v1/tournaments", json.dumps({**TOURNAMENT, "options": {"x": "__"}}).encode().replace(
            b'"__"', deep), auth, "request.too-deep", "$.options.x"),
        (f"{gateway}/v1/games", b'{"game": "vortex", "seats": 2, "options": {"a": ' + deep + b"}}", auth,
         "request.too-deep", "$.options.a"),
        (f"{gateway}/v1/queue", b'{"game": "vortex", "seats": 2, "options": {"b": [1, ' + deep + b"]}}", auth,
         "request.too-deep", "$.options.b[1]"),
    ]
    for url, body, headers, code, field in cases:
        status, _, answer = await post(session, url, body, headers)
        assert (status, answer["code"]) == (400, code), (url, answer)
        assert f"`{field}" in answer["message"], (field, answer)


async def test_a_service_nobody_answers_for_is_a_503_with_retry_after(
    gateway: str, session: aiohttp.ClientSession
) -> None:
    """No matchmaking runs in this module: NATS says "no responders" at once."""
    (player,) = await players(session, gateway, 1)
    status, headers, answer = await post(session, f"{gateway}/v1/tournaments", json.dumps(TOURNAMENT).encode(),
                                         {"Authorization": f"Bearer {player.token}"})
    assert (status, answer["code"]) == (503, "service.unavailable"), answer
    assert int(headers["Retry-After"]) > 0
    async with session.get(f"{gateway}/v1/tournaments/t1") as response:
        assert response.status == 503 and "Retry-After" in response.headers


class Proxy:
    """A TCP proxy to PostgreSQL that can be shut: then the database refuses the service's connections."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._pipe, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, up_writer}

        async def copy(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                sink.close()

        await asyncio.gather(copy(reader, up_writer), copy(up_reader, writer))

    async def shut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in self.writers:
            writer.close()
        await self.server.wait_closed()


@pytest.fixture
async def gateway_behind_proxy(migrated: RunInfra) -> AsyncIterator[tuple[str, Proxy]]:
    parts = urlsplit(migrated.database_url)
    proxy = Proxy(parts.port or 5432)
    port = await proxy.start()
    url = urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{port}"))
    service = ServiceProcess("gateway", {**migrated.env, "DATABASE_URL": url, "LOG_LEVEL": "warning"},
                             migrated.tmp / "gateway-proxied.log")
    service.start()
    try:
        await asyncio.to_thread(service.wait_healthy, 60)
        yield service.url, proxy
    finally:
        service.stop()
        await proxy.shut()


async def test_a_database_that_refuses_connections_is_a_503_with_retry_after(
    gateway_behind_proxy: tuple[str, Proxy], session: aiohttp.ClientSession
) -> None:
    url, proxy = gateway_behind_proxy
    client = LeagueClient(session, url)
    await client.register("Before the outage")
    await proxy.shut()
    for _ in range(3):  # the pool's open connection is gone, and every new one is refused
        status, headers, answer = await post(session, f"{url}/v1/players", b'{"name": "During"}', {})
        assert (status, answer["code"]) == (503, "store.unavailable"), answer
        assert int(headers["Retry-After"]) > 0
    async with session.get(f"{url}/healthz") as response:
        assert response.status == 503
