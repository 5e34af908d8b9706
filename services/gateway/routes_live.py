"""``GET /v1/games/{game_id}/ws``: a WebSocket that pushes the caller's own view each time the game changes.

Each change comes with every seat's view, pushed once by the engine that owns the game (``services.gateway.changes``),
so a socket carries exactly what ``GET /v1/games/{game_id}`` would show that player, without asking for it."""

from __future__ import annotations

import asyncio

import msgspec
from aiohttp import WSCloseCode, web

from services.gateway.auth import player_of
from services.gateway.keys import ENGINE_CLIENT, GAME_CHANGES
from services.gateway.routes import Route, add_routes
from services.gateway.routes_games import game_of
from shared.logging import get_logger

log = get_logger(__name__)
_encoder = msgspec.json.Encoder()


async def game_socket(request: web.Request) -> web.WebSocketResponse:
    game_id = request.match_info["game_id"]
    game_of(game_id)
    if "access_token" in request.query and "Authorization" not in request.headers:
        # Browsers cannot set headers on a WebSocket: the token may come as a query parameter.
        request = request.clone(headers={**request.headers, "Authorization": f"Bearer {request.query['access_token']}"})
    player_id = await player_of(request)
    engine = request.app[ENGINE_CLIENT]
    # Watch before the first view: a change committed after it is fetched is then always pushed.
    changes = request.app[GAME_CHANGES]
    async with changes.watch(game_id) as watcher:
        first = await engine.view(game_id, player_id)  # an unknown game is a plain 404, before the upgrade
        watcher.seat = first.seat
        socket = web.WebSocketResponse(heartbeat=30)
        await socket.prepare(request)
        sent = first.version
        await socket.send_bytes(_encoder.encode(first))

        async def push() -> tuple[int, bytes]:
            """A view after each change, until the game ends; then, or on any failure, how to close the socket
            (1011 with a reason on failure: never left open and silent)."""
            nonlocal sent
            try:
                while True:
                    await watcher.changed.wait()
                    watcher.changed.clear()
                    view = changes.view_for(game_id, watcher, sent)
                    if view is None and watcher.look_again:
                        watcher.look_again = False
                        view = await engine.view(game_id, player_id)
                    if view is None:
                        continue
                    if view.version > sent:
                        sent = view.version
                        await socket.send_bytes(_encoder.encode(view))
                    if view.ended:
                        return WSCloseCode.OK, b"the game has ended"
            except ConnectionResetError:  # the client went away: normal, and nobody is left to tell
                log.debug("live.client-gone", game_id=game_id)
                return WSCloseCode.GOING_AWAY, b"the client went away"
            except Exception as error:
                log.warning("live.push-failed", game_id=game_id, error=f"{type(error).__name__}: {error}")
                return WSCloseCode.INTERNAL_ERROR, b"the league failed to send this game's view; reconnect"

        async def hear_out() -> None:
            """Read the client's frames (pings, its close) until it goes: a client sends nothing else."""
            async for _message in socket:
                pass

        # One task reads the socket: the pusher only writes, and the close is made here, after the reader has
        # stopped, so that it completes the closing handshake instead of racing the reader for the client's reply.
        pusher, listener = asyncio.create_task(push()), asyncio.create_task(hear_out())
        try:
            await asyncio.wait({pusher, listener}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (pusher, listener):
                task.cancel()
            await asyncio.gather(pusher, listener, return_exceptions=True)
        if pusher.done() and not pusher.cancelled() and pusher.exception() is None and not socket.closed:
            code, reason = pusher.result()
            await socket.close(code=code, message=reason)
    return socket


ROUTES = (Route("GET", "/v1/games/{game_id}/ws", game_socket, "watchGame"),)


def add_live_routes(app: web.Application) -> None:
    add_routes(app, ROUTES)
