"""The game WebSocket's own handler over real NATS, with an engine that misbehaves on cue: a change made while the
first view is being fetched is still pushed, a change published while the gateway was cut off from NATS is pushed
once it is back (the gateway asks the engine), and a view that then fails closes the socket with an error."""

from __future__ import annotations

import asyncio
import contextlib
import urllib.parse
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import msgspec
import pytest
from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.test_utils import TestServer
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js import JetStreamContext

from services.gateway.changes import GameChanges
from services.gateway.errors import json_errors
from services.gateway.keys import ENGINE_CLIENT, GAME_CHANGES
from services.gateway.routes_live import add_live_routes
from shared.bus.connect import connect
from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.bus.streams import ensure_events_stream
from shared.http.errors import last_resort
from shared.messages.engine import GameChanged, GameView
from tests.infra import RunInfra
from tests.integration.helpers import until


class ScriptedEngine:
    """``view`` answers from a script: one callable per call, given the call's number."""

    def __init__(self, script: Callable[[int], Any]) -> None:
        self.script = script
        self.calls = 0

    async def view(self, game_id: str, player_id: str | None, at_least_version: int | None = None) -> GameView:
        self.calls += 1
        return await self.script(self.calls)  # type: ignore[no-any-return]


def view(game_id: str, version: int) -> GameView:
    return GameView(game_id=game_id, game="vortex", version=version, ended=False, seat=None, pending_seats=(0,),
                    winners=(), view=msgspec.Raw(b"{}"))


async def publish_change(nc: Client, ns: Namespace, game_id: str, version: int) -> None:
    """What the owning engine publishes after a change: every seat's view, then a spectator's."""
    change = GameChanged(game_id=game_id, version=version, views=(view(game_id, version),) * 3)
    await nc.publish(ns.game_changed(game_id), msgspec.json.encode(change))


class CuttableProxy:
    """A TCP proxy in front of nats-server whose connections can all be cut at once, as a network fault would."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._pipe, "127.0.0.1", 0)
        return f"nats://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        self.writers += [writer, up_writer]

        async def copy(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(copy(reader, up_writer), copy(up_reader, writer))

    def cut(self) -> None:
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()


@pytest.fixture
async def live(js: JetStreamContext, nc: Client) -> AsyncIterator[tuple[Namespace, Callable[..., Any]]]:
    """A gateway app holding only the WebSocket route, on its own events stream; ``serve(engine)`` starts it (on
    its own NATS connection when given one)."""
    ns = Namespace(f"live{uuid.uuid4().hex[:10]}")
    await ensure_events_stream(js, ns)
    servers: list[TestServer] = []
    followers: list[asyncio.Task[None]] = []

    async def serve(engine: ScriptedEngine, own_nc: Client | None = None) -> str:
        app = web.Application(middlewares=[last_resort, json_errors])
        app[ENGINE_CLIENT] = engine  # type: ignore[misc]
        app[GAME_CHANGES] = changes = GameChanges(own_nc or nc, ns)
        followers.append(asyncio.create_task(changes.follow_reconnects(0.1)))
        add_live_routes(app)
        server = TestServer(app)
        await server.start_server()
        servers.append(server)
        return str(server.make_url("/"))

    yield ns, serve
    for follower in followers:
        follower.cancel()
    for server in servers:
        await server.close()
    await js.delete_stream(ns.events_stream)


@contextlib.asynccontextmanager
async def behind_proxy(infra: RunInfra) -> AsyncIterator[tuple[Client, CuttableProxy]]:
    """A NATS connection for the gateway that the test can cut as a network fault would."""
    target = urllib.parse.urlsplit(infra.nats_url)
    proxy = CuttableProxy(target.hostname or "127.0.0.1", target.port or 4222)
    gateway_nc = await connect(await proxy.start(), name="gateway-behind-proxy", nkey_file=infra.admin_nkey)
    try:
        yield gateway_nc, proxy
    finally:
        await gateway_nc.close()
        await proxy.close()


async def cut_off(gateway_nc: Client, proxy: CuttableProxy) -> None:
    proxy.cut()
    for _ in range(100):
        if not gateway_nc.is_connected:
            break
        await asyncio.sleep(0.01)
    assert not gateway_nc.is_connected


async def test_a_change_published_while_the_gateway_was_cut_off_from_nats_is_pushed_when_it_is_back(
    live: tuple[Namespace, Callable[..., Any]], nc: Client, migrated: RunInfra
) -> None:
    ns, serve = live
    game_id = f"vortex-{uuid.uuid4().hex[:16]}"
    published = asyncio.Event()

    async def script(call: int) -> GameView:
        return view(game_id, 2 if published.is_set() else 1)

    async with behind_proxy(migrated) as (gateway_nc, proxy):
        url = await serve(ScriptedEngine(script), gateway_nc)
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{url}v1/games/{game_id}/ws") as socket:
            assert msgspec.json.decode((await socket.receive(timeout=10)).data, type=GameView).version == 1
            await cut_off(gateway_nc, proxy)
            published.set()
            await publish_change(nc, ns, game_id, 2)  # core NATS: lost for the gateway, which is cut off
            pushed = await socket.receive(timeout=20)
            assert msgspec.json.decode(pushed.data, type=GameView).version == 2
            assert gateway_nc.stats["reconnects"] >= 1


async def test_a_change_made_while_the_first_view_is_fetched_is_still_pushed(
    live: tuple[Namespace, Callable[..., Any]], nc: Client
) -> None:
    ns, serve = live
    game_id = f"vortex-{uuid.uuid4().hex[:16]}"

    async def script(call: int) -> GameView:
        if call == 1:  # the game moves on right after the first view was read, before anything is sent
            await publish_change(nc, ns, game_id, 2)
            await nc.flush()
            await asyncio.sleep(0.2)
        return view(game_id, call)

    engine = ScriptedEngine(script)
    url = await serve(engine)
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{url}v1/games/{game_id}/ws") as socket:
        versions = [msgspec.json.decode((await socket.receive(timeout=10)).data, type=GameView).version
                    for _ in range(2)]
    assert versions == [1, 2]
    assert engine.calls == 1, "the pushed view came from the engine's change, not from asking the engine again"


async def test_every_engine_replica_is_told_a_game_is_watched_when_a_socket_opens_and_after_a_reconnect(
    live: tuple[Namespace, Callable[..., Any]], nc: Client, migrated: RunInfra
) -> None:
    """The engine publishes a game's changes only once someone asked to see it. A replica that lost the game's
    partition without knowing it yet hears this notice too, though the first view comes from the new owner."""
    ns, serve = live
    game_id = f"vortex-{uuid.uuid4().hex[:16]}"
    told: list[Msg] = []

    async def noticed(msg: Msg) -> None:
        told.append(msg)

    async def script(call: int) -> GameView:
        return view(game_id, call)

    async def told_once() -> bool:
        return len(told) >= 1

    async def told_again() -> bool:
        return len(told) >= 2

    notices = await nc.subscribe(ns.game_watched(game_id), cb=noticed)
    await nc.flush()
    try:
        async with behind_proxy(migrated) as (gateway_nc, proxy):
            url = await serve(ScriptedEngine(script), gateway_nc)
            async with aiohttp.ClientSession() as session, \
                    session.ws_connect(f"{url}v1/games/{game_id}/ws") as socket:
                await socket.receive(timeout=10)
                await until("the notice", told_once, 10)
                assert len(told) == 1 and told[0].data == b""
                await cut_off(gateway_nc, proxy)
                await until("the notice again after the reconnect", told_again, 20)
    finally:
        await notices.unsubscribe()


async def test_a_view_that_fails_closes_the_socket_with_an_error(
    live: tuple[Namespace, Callable[..., Any]], migrated: RunInfra
) -> None:
    _, serve = live
    game_id = f"vortex-{uuid.uuid4().hex[:16]}"

    async def script(call: int) -> GameView:
        if call == 1:
            return view(game_id, 1)
        raise TimeoutError("the engine did not answer")

    async with behind_proxy(migrated) as (gateway_nc, proxy):
        url = await serve(ScriptedEngine(script), gateway_nc)
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{url}v1/games/{game_id}/ws") as socket:
            first = await socket.receive(timeout=10)
            assert msgspec.json.decode(first.data, type=GameView).version == 1
            await cut_off(gateway_nc, proxy)  # back, the socket asks the engine for its view, which fails
            closing = await socket.receive(timeout=20)
            assert closing.type == WSMsgType.CLOSE, closing
            assert closing.data == WSCloseCode.INTERNAL_ERROR and "failed" in (closing.extra or "")
        assert socket.closed and socket.close_code == WSCloseCode.INTERNAL_ERROR


async def test_an_unknown_game_is_a_404_before_the_upgrade(
    live: tuple[Namespace, Callable[..., Any]]
) -> None:
    async def script(call: int) -> GameView:
        raise RejectedError("engine.unknown-game", "no game")

    _, serve = live
    url = await serve(ScriptedEngine(script))
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"{url}v1/games/vortex-{uuid.uuid4().hex[:16]}/ws")
    assert refused.value.status == 404
