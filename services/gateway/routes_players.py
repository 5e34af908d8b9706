from __future__ import annotations

import uuid

import msgspec
from aiohttp import web

from services.gateway.auth import new_token, save_player
from services.gateway.body import body_of
from services.gateway.routes import Route, add_routes
from services.gateway.routes_tokens import token_seconds
from services.gateway.schemas import Registered, RegisterPlayer
from shared.eventstore import ExpectedVersion
from shared.messages.players import PlayerRegistered
from shared.messages.stored import stored
from shared.service.keys import POOL, STORE

_encoder = msgspec.json.Encoder()


async def register(request: web.Request) -> web.Response:
    """POST /v1/players: a new player and their bearer token (shown once)."""
    body = await body_of(request, RegisterPlayer)
    player_id = f"p{uuid.uuid4().hex[:20]}"
    token, token_hash = new_token()
    async with request.app[POOL].acquire() as conn:
        expires_at = await save_player(conn, player_id, body.name, token_hash, token_seconds(request))
    await request.app[STORE].append(f"player-{player_id}",
                                    [stored(PlayerRegistered(player_id=player_id, name=body.name), actor=player_id)],
                                    ExpectedVersion.NO_STREAM)
    return web.Response(status=201, body=_encoder.encode(Registered(player_id=player_id, name=body.name, token=token,
                                                                 expires_at=expires_at)),
                        content_type="application/json")


ROUTES = (Route("POST", "/v1/players", register, "registerPlayer"),)


def add_player_routes(app: web.Application) -> None:
    add_routes(app, ROUTES)
