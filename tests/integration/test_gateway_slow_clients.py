"""Slow and greedy clients are cut off: headers that never finish, a body that never arrives, and more connections
from one address than it may hold."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import pytest

from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra

PER_CLIENT = 20


@pytest.fixture(scope="module")
async def gateway(migrated: RunInfra, game_services: object) -> AsyncIterator[str]:
    env = {**migrated.env, "LOG_LEVEL": "warning", "HTTP_HEADER_SECONDS": "1", "HTTP_BODY_SECONDS": "1",
           "HTTP_CONNECTIONS_PER_CLIENT": str(PER_CLIENT)}
    service = ServiceProcess("gateway", env, migrated.tmp / "gateway-slow.log")
    service.start()
    try:
        await asyncio.to_thread(service.wait_healthy, 60)
        yield service.url
    finally:
        assert service.stop() == 0


async def open_raw(url: str, data: bytes) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(data)
    await writer.drain()
    return reader, writer


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bytes:
    """What the server sent before it closed the connection, which it must do within ``seconds``."""
    return await asyncio.wait_for(reader.read(), seconds)


async def test_unfinished_headers_are_cut_off_and_one_address_holds_only_so_many_connections(gateway: str) -> None:
    began = time.monotonic()
    slow = [await open_raw(gateway, b"GET /healthz HTTP/1.1\r\nHost: league\r\n") for _ in range(PER_CLIENT)]
    extra = [await open_raw(gateway, b"GET /healthz HTTP/1.1\r\n") for _ in range(5)]
    for reader, _ in extra:
        answer = await closed_within(reader, 2)
        assert answer.startswith(b"HTTP/1.1 503") and b"Retry-After" in answer, answer
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["code"] == "http.too-many-connections"
    for reader, _ in slow:
        assert await closed_within(reader, 5) == b""
    assert time.monotonic() - began < 5, "the unfinished headers were not cut off within their second"
    for _, writer in slow + extra:
        writer.close()
    reader, writer = await open_raw(gateway, b"GET /healthz HTTP/1.1\r\nHost: league\r\nConnection: close\r\n\r\n")
    assert (await closed_within(reader, 5)).startswith(b"HTTP/1.1 200"), "the address's connections were not freed"
    writer.close()


async def test_a_body_that_does_not_arrive_in_time_is_a_408_and_the_connection_closes(gateway: str) -> None:
    reader, writer = await open_raw(gateway, b"POST /v1/players HTTP/1.1\r\nHost: league\r\nContent-Type: "
                                             b"application/json\r\nContent-Length: 100\r\n\r\n{\"name\": ")
    answer = await closed_within(reader, 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["code"] == "request.timeout"
