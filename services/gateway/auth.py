"""Bearer tokens: random, shown once, kept as sha256."""

from __future__ import annotations

import hashlib
import secrets

import asyncpg
from aiohttp import web

from shared.service.keys import POOL

PLAYER_ID = "player_id"


def new_token() -> tuple[str, bytes]:
    token = secrets.token_urlsafe(32)
    return token, hashlib.sha256(token.encode()).digest()


async def player_of(request: web.Request) -> str | None:
    """The authenticated player, None without a token; a bad token is refused (401)."""
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise web.HTTPUnauthorized(text="Authorization must be 'Bearer <token>'")
    async with request.app[POOL].acquire() as conn:
        player_id = await conn.fetchval("SELECT player_id FROM player_tokens WHERE token_hash = $1",
                                        hashlib.sha256(token.encode()).digest())
    if player_id is None:
        raise web.HTTPUnauthorized(text="unknown token")
    return str(player_id)


async def require_player(request: web.Request) -> str:
    player_id = await player_of(request)
    if player_id is None:
        raise web.HTTPUnauthorized(text="this route needs 'Authorization: Bearer <token>' (POST /v1/players)")
    return player_id


async def save_player(conn: asyncpg.Connection, player_id: str, name: str, token_hash: bytes) -> None:
    await conn.execute("INSERT INTO player_tokens (player_id, name, token_hash) VALUES ($1, $2, $3)",
                       player_id, name, token_hash)
