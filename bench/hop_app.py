"""The floor's request carried over one NATS request/reply: a front process (aiohttp, POST /insert) asks a back
process over NATS, and the back one does the floor's INSERT and answers. What it costs beyond the floor
(``bench.floor_app``) is what one hop between two of the league's processes costs a command.

    python -m bench.hop_app front|back   (DATABASE_URL, NATS_URL, NATS_NKEY_FILE, NATS_SUBJECT, HTTP_PORT,
                                          DATABASE_POOL_SIZE, EVENT_LOOP=asyncio|uvloop)
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator

import asyncpg
from aiohttp import web
from nats.aio.client import Client
from nats.aio.msg import Msg

from bench.floor_app import INSERT, TABLE, healthz, new_loop
from shared.bus.connect import connect

NATS = web.AppKey("nats", Client)
OK = b'{"ok": true}'


async def connected(role: str) -> Client:
    return await connect(os.environ["NATS_URL"], name=f"bench-hop-{role}",
                         nkey_file=os.environ.get("NATS_NKEY_FILE", ""))


async def insert(request: web.Request) -> web.Response:
    reply = await request.app[NATS].request(os.environ["NATS_SUBJECT"], await request.read(), timeout=5,
                                            headers={"Idempotency-Key": request.headers.get("Idempotency-Key", "")})
    return web.Response(body=reply.data, content_type="application/json")


def front() -> None:
    async def bus(app: web.Application) -> AsyncIterator[None]:
        app[NATS] = await connected("front")
        yield
        await app[NATS].close()

    app = web.Application()
    app.cleanup_ctx.append(bus)
    app.router.add_post("/insert", insert)
    app.router.add_get("/healthz", healthz)
    web.run_app(app, host="127.0.0.1", port=int(os.environ["HTTP_PORT"]), print=None, access_log=None,
                loop=new_loop())


async def serve_back() -> None:
    """Each request in a task of its own, as the league's services answer theirs (``shared.bus.rpc.serve``)."""
    size = int(os.environ.get("DATABASE_POOL_SIZE", "20"))
    async with asyncpg.create_pool(os.environ["DATABASE_URL"], min_size=size, max_size=size) as pool:
        await pool.execute(TABLE)
        nc = await connected("back")
        tasks: set[asyncio.Task[None]] = set()

        async def handle(msg: Msg) -> None:
            await pool.execute(INSERT, (msg.headers or {}).get("Idempotency-Key", ""), msg.data.decode())
            await msg.respond(OK)

        async def on_message(msg: Msg) -> None:
            task = asyncio.create_task(handle(msg))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        await nc.subscribe(os.environ["NATS_SUBJECT"], queue="hop", cb=on_message)
        await nc.flush()
        print("back ready", flush=True)
        await asyncio.Event().wait()


def main() -> None:
    role = sys.argv[1] if len(sys.argv) > 1 else ""
    if role == "front":
        front()
    elif role == "back":
        with asyncio.Runner(loop_factory=new_loop) as runner:
            runner.run(serve_back())
    else:
        sys.exit("usage: python -m bench.hop_app front|back")


if __name__ == "__main__":
    main()
