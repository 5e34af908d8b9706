"""The floor: the least a command can cost — an aiohttp POST whose handler does one asyncpg INSERT of a small row
into the same durable PostgreSQL, in a process of its own.

    python -m bench.floor_app   (DATABASE_URL, HTTP_PORT, DATABASE_POOL_SIZE, EVENT_LOOP=asyncio|uvloop)
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator

import asyncpg
import uvloop
from aiohttp import web

POOL = web.AppKey("pool", asyncpg.Pool)
TABLE = """CREATE TABLE IF NOT EXISTS bench_floor (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, command_id text NOT NULL, body jsonb NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT clock_timestamp())"""
INSERT = "INSERT INTO bench_floor (command_id, body) VALUES ($1, $2::text::jsonb)"


def new_loop() -> asyncio.AbstractEventLoop:
    """asyncio's own loop unless ``EVENT_LOOP=uvloop`` (the league's services run on uvloop)."""
    return uvloop.new_event_loop() if os.environ.get("EVENT_LOOP") == "uvloop" else asyncio.new_event_loop()


async def insert(request: web.Request) -> web.Response:
    body = await request.read()
    await request.app[POOL].execute(INSERT, request.headers.get("Idempotency-Key", ""), body.decode())
    return web.json_response({"ok": True})


async def healthz(_: web.Request) -> web.Response:
    return web.json_response({"ok": True})


def make_app(database_url: str, pool_size: int) -> web.Application:
    async def pool(app: web.Application) -> AsyncIterator[None]:
        async with asyncpg.create_pool(database_url, min_size=pool_size, max_size=pool_size) as opened:
            await opened.execute(TABLE)
            app[POOL] = opened
            yield

    app = web.Application()
    app.cleanup_ctx.append(pool)
    app.router.add_post("/insert", insert)
    app.router.add_get("/healthz", healthz)
    return app


def main() -> None:
    app = make_app(os.environ["DATABASE_URL"], int(os.environ.get("DATABASE_POOL_SIZE", "20")))
    web.run_app(app, host="127.0.0.1", port=int(os.environ["HTTP_PORT"]), print=None, access_log=None,
                loop=new_loop())


if __name__ == "__main__":
    main()
