"""A player whose game WebSocket drops (a closed tab) while the game goes on is normal: the gateway logs no
warning, no error and no traceback for it."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import aiohttp
import yarl

from shared.client.http import LeagueClient
from shared.infra.processes import ServiceProcess


async def drop_after_first_view(url: str, game_id: str, token: str) -> None:
    address = yarl.URL(url)
    reader, writer = await asyncio.open_connection(address.host, address.port)
    writer.write((f"GET /v1/games/{game_id}/ws HTTP/1.1\r\nHost: {address.authority}\r\nUpgrade: websocket\r\n"
                  "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                  f"Authorization: Bearer {token}\r\n\r\n").encode())
    seen = b""
    while b'"game_id"' not in seen:
        seen += await asyncio.wait_for(reader.read(4096), 30)
    writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                                b"\x01\x00\x00\x00\x00\x00\x00\x00")  # close = RST
    writer.close()


async def test_a_dropped_game_socket_is_not_an_error(league: dict[str, ServiceProcess], league_env: dict[str, str],
                                                     tmp_path: Path) -> None:
    log = tmp_path / "gateway-drops.log"
    gateway = ServiceProcess("gateway", {**league_env, "LOG_LEVEL": "debug"}, log)
    gateway.start()
    try:
        await asyncio.to_thread(gateway.wait_healthy, 60)
        async with aiohttp.ClientSession() as session:
            ann, bob = LeagueClient(session, gateway.url), LeagueClient(session, gateway.url)
            await ann.register("Ann")
            await bob.register("Bob")
            game_id = await ann.create_game("vortex", 2, options={"max_rounds": 3},
                                            players=[ann.player_id, bob.player_id])
            assert bob.token is not None
            for _ in range(3):
                await drop_after_first_view(gateway.url, game_id, bob.token)
            for _ in range(6):  # each move is pushed to the sockets that went away
                for client in (ann, bob):
                    view = await client.view(game_id)
                    moves = json.loads(bytes(view.legal)) if view.seat in view.pending_seats else []
                    if moves and not view.ended:
                        await client.command(game_id, moves[0])
            await asyncio.sleep(1)
    finally:
        assert gateway.stop() == 0
    assert_quiet(log)


def assert_quiet(log: Path) -> None:
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    loud = [line for line in lines if line.get("level") in ("warning", "error", "critical", "exception")]
    assert loud == [], loud
    assert not any("Traceback" in line.get("exception", "") for line in lines)
