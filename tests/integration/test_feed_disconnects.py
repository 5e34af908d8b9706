"""A dashboard that closes its SSE or WebSocket feed mid-stream is normal: the standings service notes it at debug
and logs no error, no traceback."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator

import yarl
from nats.aio.client import Client

from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.bots_running import BotLoad, Spec


@contextlib.asynccontextmanager
async def standings_at_debug(infra: RunInfra) -> AsyncIterator[ServiceProcess]:
    service = ServiceProcess("standings", {**infra.env, "LOG_LEVEL": "debug"}, infra.tmp / "standings-drops.log")
    service.start()
    try:
        await asyncio.to_thread(service.wait_healthy, 60)
        yield service
    finally:
        assert service.stop() == 0


async def hang_up_after(url: str, request: bytes, wanted: bytes) -> None:
    """Send ``request`` on a raw socket, read until ``wanted`` arrives, then drop the connection with a reset."""
    address = yarl.URL(url)
    reader, writer = await asyncio.open_connection(address.host, address.port)
    writer.write(request)
    seen = b""
    while wanted not in seen:
        seen += await asyncio.wait_for(reader.read(4096), 30)
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # close = RST
    writer.close()


async def test_feed_clients_that_hang_up_are_noted_at_debug_not_as_errors(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    async with standings_at_debug(migrated) as standings:
        load = BotLoad(nc, migrated.namespace, store)
        load.pace.seconds = 0.02
        await load.start([Spec("vortex", 2, {"max_rounds": 8}, players=("ann", "bob"))])
        host = yarl.URL(standings.url).authority
        for _ in range(3):
            await hang_up_after(standings.url, f"GET /v1/feed HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(),
                                b"event: change")
            await hang_up_after(standings.url, (
                f"GET /v1/feed/ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode(),
                b'"changes"')
            await asyncio.sleep(1.0)  # changes keep coming: the service writes to the sockets that went away
        load.pace.seconds = 0.0
        await load.wait()
        await asyncio.sleep(1.5)
    lines = [json.loads(line) for line in (migrated.tmp / "standings-drops.log").read_text().splitlines()
             if line.startswith("{")]
    # The run's log also holds other tests' deliberately damaged streams, which a standings service rightly
    # reports as it quarantines them: that is about the log, not about the clients that went away.
    loud = [line for line in lines if line.get("level") in ("error", "critical", "exception", "warning")
            and line.get("event") != "standings.quarantined"]
    assert loud == [], loud
    assert not any("Traceback" in line.get("exception", "") for line in lines)
    assert any(line.get("event") == "http.client-gone" for line in lines)
