"""A player's own token: rotate it (a new one replaces it) or revoke it; either way the one presented stops
working at once on every gateway replica."""

from __future__ import annotations

import msgspec
from aiohttp import web

from services.gateway.auth import new_token, presented_token, require_player
from services.gateway.revocations import REVOCATIONS
from services.gateway.routes import Route, add_routes
from services.gateway.schemas import Me, TokenIssued
from services.gateway.settings import GatewaySettings
from shared.service.keys import POOL, SETTINGS

ROTATE = """
    UPDATE player_tokens SET token_hash = $3, created_at = clock_timestamp(),
                             expires_at = clock_timestamp() + make_interval(secs => $4)
    WHERE player_id = $1 AND token_hash = $2 AND revoked_at IS NULL AND expires_at > clock_timestamp()
    RETURNING expires_at
"""
ME = "SELECT name, expires_at FROM player_tokens WHERE player_id = $1"
REVOKE = """
    UPDATE player_tokens SET revoked_at = clock_timestamp()
    WHERE player_id = $1 AND token_hash = $2 AND revoked_at IS NULL
    RETURNING revoked_at
"""
_encoder = msgspec.json.Encoder()


def token_seconds(request: web.Request) -> float:
    settings = request.app[SETTINGS]
    assert isinstance(settings, GatewaySettings)
    return settings.token_days * 86_400


async def me(request: web.Request) -> web.Response:
    """GET /v1/players/me: who the token says you are, and when it expires."""
    player_id = await require_player(request)
    async with request.app[POOL].acquire() as conn:
        row = await conn.fetchrow(ME, player_id)
    return web.Response(body=_encoder.encode(Me(player_id=player_id, name=row["name"],
                                                 token_expires_at=row["expires_at"])),
                        content_type="application/json")


async def rotate(request: web.Request) -> web.Response:
    """POST /v1/players/me/token: a new token (shown once) with a new expiry, in place of the one presented."""
    player_id = await require_player(request)
    old = presented_token(request)
    assert old is not None  # require_player found one
    token, token_hash = new_token()
    async with request.app[POOL].acquire() as conn:
        expires_at = await conn.fetchval(ROTATE, player_id, old, token_hash, token_seconds(request))
    if expires_at is None:
        raise web.HTTPUnauthorized(text="this token was rotated or revoked meanwhile")
    await request.app[REVOCATIONS].announce(old)
    return web.Response(body=_encoder.encode(TokenIssued(player_id=player_id, token=token, expires_at=expires_at)),
                        content_type="application/json")


async def revoke(request: web.Request) -> web.Response:
    """DELETE /v1/players/me/token: the token presented stops working for good."""
    player_id = await require_player(request)
    old = presented_token(request)
    assert old is not None
    async with request.app[POOL].acquire() as conn:
        revoked = await conn.fetchval(REVOKE, player_id, old)
    if revoked is None:
        raise web.HTTPUnauthorized(text="this token was rotated or revoked meanwhile")
    await request.app[REVOCATIONS].announce(old)
    return web.Response(status=204)


ROUTES = (
    Route("GET", "/v1/players/me", me, "getMe"),
    Route("POST", "/v1/players/me/token", rotate, "rotateToken"),
    Route("DELETE", "/v1/players/me/token", revoke, "revokeToken"),
)


def add_token_routes(app: web.Application) -> None:
    add_routes(app, ROUTES)
