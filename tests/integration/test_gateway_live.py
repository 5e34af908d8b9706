"""The game WebSocket's own handler over real JetStream, with an engine that misbehaves on cue: a change made while
the first view is being fetched is still pushed, and a view that fails closes the socket with an error."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import msgspec
import pytest
from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.test_utils import TestServer
from nats.js import JetStreamContext

from services.gateway.errors import json_errors
from services.gateway.keys import ENGINE_CLIENT
from services.gateway.routes_live import add_live_routes
from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.bus.streams import ensure_events_stream
from shared.http.errors import last_resort
from shared.messages.engine import GameView
from shared.service.keys import JETSTREAM, NAMESPACE


class ScriptedEngine:
    """``view`` answers from a script: one callable per call, given the call's number."""

    def __init__(self, script: Callable[[int], Any]) -> None:
        self.script = script
        self.calls = 0

    async def view(self, game_id: str, player_id: str | None) -> GameView:
        self.calls += 1
        return await self.script(self.calls)  # type: ignore[no-any-return]


def view(game_id: str, version: int) -> GameView:
    return GameView(game_id=game_id, game="vortex", version=version, ended=False, seat=None, pending_seats=(0,),
                    winners=(), view=msgspec.Raw(b"{}"))


@pytest.fixture
async def live(js: JetStreamContext) -> AsyncIterator[tuple[Namespace, Callable[[ScriptedEngine], Any]]]:
    """A gateway app holding only the WebSocket route, on its own events stream; ``serve(engine)`` starts it."""
    ns = Namespace(f"live{uuid.uuid4().hex[:10]}")
    await ensure_events_stream(js, ns)
    servers: list[TestServer] = []

    async def serve(engine: ScriptedEngine) -> str:
        app = web.Application(middlewares=[last_resort, json_errors])
        app[ENGINE_CLIENT] = engine  # type: ignore[assignment]
        app[JETSTREAM], app[NAMESPACE] = js, ns
        add_live_routes(app)
        server = TestServer(app)
        await server.start_server()
        servers.append(server)
        return str(server.make_url("/"))

    yield ns, serve
    for server in servers:
        await server.close()
    await js.delete_stream(ns.events_stream)


async def test_a_change_made_while_the_first_view_is_fetched_is_still_pushed(
    live: tuple[Namespace, Callable[[ScriptedEngine], Any]], js: JetStreamContext
) -> None:
    ns, serve = live
    game_id = f"vortex-{uuid.uuid4().hex[:16]}"

    async def script(call: int) -> GameView:
        if call == 1:  # the game moves on right after the first view was read, before anything is sent
            await js.publish(ns.event_subject("vortex", game_id), b"{}", stream=ns.events_stream)
            return view(game_id, 1)
        return view(game_id, 2)

    url = await serve(ScriptedEngine(script))
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{url}v1/games/{game_id}/ws") as socket:
        versions = [msgspec.json.decode((await socket.receive(timeout=10)).data, type=GameView).version
                    for _ in range(2)]
    assert versions == [1, 2]


async def test_a_view_that_fails_closes_the_socket_with_an_error(
    live: tuple[Namespace, Callable[[ScriptedEngine], Any]], js: JetStreamContext
) -> None:
    ns, serve = live
    game_id = f"vortex-{uuid.uuid4().hex[:16]}"

    async def script(call: int) -> GameView:
        if call == 1:
            return view(game_id, 1)
        raise TimeoutError("the engine did not answer")

    url = await serve(ScriptedEngine(script))
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{url}v1/games/{game_id}/ws") as socket:
        first = await socket.receive(timeout=10)
        assert msgspec.json.decode(first.data, type=GameView).version == 1
        await js.publish(ns.event_subject("vortex", game_id), b"{}", stream=ns.events_stream)
        closing = await socket.receive(timeout=10)
        assert closing.type == WSMsgType.CLOSE, closing
        assert closing.data == WSCloseCode.INTERNAL_ERROR and "failed" in closing.extra
    assert socket.closed and socket.close_code == WSCloseCode.INTERNAL_ERROR


async def test_an_unknown_game_is_a_404_before_the_upgrade(
    live: tuple[Namespace, Callable[[ScriptedEngine], Any]]
) -> None:
    async def script(call: int) -> GameView:
        raise RejectedError("engine.unknown-game", "no game")

    _, serve = live
    url = await serve(ScriptedEngine(script))
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"{url}v1/games/vortex-{uuid.uuid4().hex[:16]}/ws")
    assert refused.value.status == 404
