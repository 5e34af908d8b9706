"""Bearer tokens: random, shown once, kept as sha256; each expires, may be rotated (a new one replaces it) and
revoked. A gateway keeps the lookups it made for a few seconds (``KnownTokens``); a rotation or revocation evicts
the token at once on every gateway replica (``services/gateway/revocations.py``), and a replica that missed that
message trusts its copy no longer than ``TOKEN_RECHECK_SECONDS``. Every known token is looked up again together, in
one query a few times within that bound (``KnownTokens.recheck``), so that a player's moves never wait for a lookup
of a token the gateway already knows."""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
import time
from collections import OrderedDict
from datetime import datetime

import asyncpg
from aiohttp import web

from shared.service.keys import POOL

TOKEN_RECHECK_SECONDS = 5.0
SPREAD = 0.5
"""A lookup is trusted for a random share of ``TOKEN_RECHECK_SECONDS`` between this and 1: players who started
together (a tournament round) would otherwise be looked up again all at once, every few seconds, and every move
made meanwhile would wait behind that burst of reads."""
KNOWN_TOKENS_MAX = 100_000
LOOKUP = "SELECT player_id, expires_at, revoked_at FROM player_tokens WHERE token_hash = $1"
RECHECK = "SELECT token_hash, expires_at, revoked_at FROM player_tokens WHERE token_hash = ANY($1::bytea[])"
RECHECKS_PER_BOUND = 4
"""Known tokens are looked up again this many times within ``TOKEN_RECHECK_SECONDS``: each survives a few slow or
failed rechecks before its own bound runs out (and it is looked up alone on its next use)."""
RECHECK_CHUNK = 5_000


class KnownTokens:
    """Token hashes this gateway has looked up: the player, trusted for at most ``seconds`` (``SPREAD``; never past
    the token's expiry), so a player's every move is not a database read. Only tokens that exist are kept, so
    unknown ones cannot fill it."""

    def __init__(self, seconds: float = TOKEN_RECHECK_SECONDS, most: int = KNOWN_TOKENS_MAX) -> None:
        self.seconds, self.most = seconds, most
        self._players: OrderedDict[bytes, tuple[str, float, float]] = OrderedDict()

    def get(self, token_hash: bytes) -> str | None:
        found = self._players.get(token_hash)
        if found is None or found[1] < time.monotonic() or found[2] <= time.time():
            return None
        self._players.move_to_end(token_hash)
        return found[0]

    def put(self, token_hash: bytes, player_id: str, expires_at: float = float("inf")) -> None:
        trusted = self.seconds * random.uniform(SPREAD, 1.0)
        self._players[token_hash] = (player_id, time.monotonic() + trusted, expires_at)
        self._players.move_to_end(token_hash)
        if len(self._players) > self.most:
            self._players.popitem(last=False)

    async def recheck(self, pool: asyncpg.Pool) -> int:
        """Look every known token up again, in one query per ``RECHECK_CHUNK``: those revoked, expired or gone are
        forgotten, the others trusted for ``seconds`` from when the query was sent. Returns how many it forgot."""
        forgotten = 0
        hashes = list(self._players)
        for start in range(0, len(hashes), RECHECK_CHUNK):
            chunk = hashes[start:start + RECHECK_CHUNK]
            asked = time.monotonic()
            async with pool.acquire() as conn:
                rows = {row[0]: row for row in await conn.fetch(RECHECK, chunk)}
            now = time.time()
            for token_hash in chunk:
                row, known = rows.get(token_hash), self._players.get(token_hash)
                if known is None:
                    continue  # evicted meanwhile (a revocation heard over NATS): stays out
                if row is None or row[2] is not None or row[1].timestamp() <= now:
                    del self._players[token_hash]
                    forgotten += 1
                else:
                    self._players[token_hash] = (known[0], max(known[1], asked + self.seconds), known[2])
        return forgotten

    async def keep_checked(self, pool: asyncpg.Pool) -> None:
        """``recheck`` every ``seconds / RECHECKS_PER_BOUND``, for the gateway's lifetime."""
        while True:
            await asyncio.sleep(self.seconds / RECHECKS_PER_BOUND)
            await self.recheck(pool)

    def evict(self, token_hash: bytes) -> None:
        self._players.pop(token_hash, None)

    def clear(self) -> None:
        self._players.clear()


KNOWN_TOKENS = web.AppKey("known_tokens", KnownTokens)


def new_token() -> tuple[str, bytes]:
    token = secrets.token_urlsafe(32)
    return token, hash_of(token)


def hash_of(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def presented_token(request: web.Request) -> bytes | None:
    """The hash of the request's bearer token; None without one; a malformed header is refused (401)."""
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise web.HTTPUnauthorized(text="Authorization must be 'Bearer <token>'")
    return hash_of(token)


async def player_of(request: web.Request) -> str | None:
    """The authenticated player, None without a token; an unknown, expired or revoked token is refused (401)."""
    token_hash = presented_token(request)
    if token_hash is None:
        return None
    known = request.app[KNOWN_TOKENS]
    if (player_id := known.get(token_hash)) is not None:
        return player_id
    async with request.app[POOL].acquire() as conn:
        row = await conn.fetchrow(LOOKUP, token_hash)
    player_id, expires_at = checked(row)
    known.put(token_hash, player_id, expires_at.timestamp())
    return player_id


def checked(row: asyncpg.Record | None) -> tuple[str, datetime]:
    if row is None:
        raise web.HTTPUnauthorized(text="unknown token")
    if row["revoked_at"] is not None:
        raise web.HTTPUnauthorized(text="this token was revoked")
    if row["expires_at"].timestamp() <= time.time():
        raise web.HTTPUnauthorized(text=f"this token expired at {row['expires_at'].isoformat()}; register again")
    return str(row["player_id"]), row["expires_at"]


async def require_player(request: web.Request) -> str:
    player_id = await player_of(request)
    if player_id is None:
        raise web.HTTPUnauthorized(text="this route needs 'Authorization: Bearer <token>' (POST /v1/players)")
    return player_id


async def save_player(conn: asyncpg.Connection, player_id: str, name: str, token_hash: bytes,
                      token_seconds: float) -> datetime:
    expires_at: datetime = await conn.fetchval(
        "INSERT INTO player_tokens (player_id, name, token_hash, expires_at)"
        " VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4)) RETURNING expires_at",
        player_id, name, token_hash, token_seconds)
    return expires_at
