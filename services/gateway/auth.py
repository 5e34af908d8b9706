"""Bearer tokens: random, shown once, kept as sha256."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import OrderedDict

import asyncpg
from aiohttp import web

from shared.service.keys import POOL

PLAYER_ID = "player_id"
TOKEN_SECONDS = 300.0
KNOWN_TOKENS_MAX = 100_000


class KnownTokens:
    """Token hashes this gateway has looked up, each for ``TOKEN_SECONDS``: a player's every move is not a database
    read. Tokens are never reissued for another player; a revoked token would stay good here for at most that
    long. Only tokens that exist are kept, so unknown ones cannot fill it."""

    def __init__(self, seconds: float = TOKEN_SECONDS, most: int = KNOWN_TOKENS_MAX) -> None:
        self.seconds, self.most = seconds, most
        self._players: OrderedDict[bytes, tuple[str, float]] = OrderedDict()

    def get(self, token_hash: bytes) -> str | None:
        found = self._players.get(token_hash)
        if found is None or found[1] < time.monotonic():
            return None
        self._players.move_to_end(token_hash)
        return found[0]

    def put(self, token_hash: bytes, player_id: str) -> None:
        self._players[token_hash] = (player_id, time.monotonic() + self.seconds)
        self._players.move_to_end(token_hash)
        if len(self._players) > self.most:
            self._players.popitem(last=False)


KNOWN_TOKENS = web.AppKey("known_tokens", KnownTokens)


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
    token_hash = hashlib.sha256(token.encode()).digest()
    known = request.app[KNOWN_TOKENS]
    if (player_id := known.get(token_hash)) is not None:
        return player_id
    async with request.app[POOL].acquire() as conn:
        found = await conn.fetchval("SELECT player_id FROM player_tokens WHERE token_hash = $1", token_hash)
    if found is None:
        raise web.HTTPUnauthorized(text="unknown token")
    known.put(token_hash, str(found))
    return str(found)


async def require_player(request: web.Request) -> str:
    player_id = await player_of(request)
    if player_id is None:
        raise web.HTTPUnauthorized(text="this route needs 'Authorization: Bearer <token>' (POST /v1/players)")
    return player_id


async def save_player(conn: asyncpg.Connection, player_id: str, name: str, token_hash: bytes) -> None:
    await conn.execute("INSERT INTO player_tokens (player_id, name, token_hash) VALUES ($1, $2, $3)",
                       player_id, name, token_hash)
