"""The live feed of public changes: SSE with ``Last-Event-ID`` resume, a WebSocket, and the same entries as paged
JSON. A client first gets the entries after its id from the table, then live ones from the hub, each id once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
from aiohttp import WSMsgType, web

from services.standings import reads
from services.standings.http import BIGINT_MAX, BadRequest, limit_of, respond, whole_number
from services.standings.hub import Entry, entry_id
from services.standings.keys import HUB
from shared.service.keys import POOL, READS

BACKLOG_PAGE = 500
HEARTBEAT_SECONDS = 15.0
POLL_SECONDS = 1.0
"""Idle this long, a client also looks at the table: entries folded by another replica reach no local hub."""
_encoder = msgspec.json.Encoder()


def after_of(text: str | None, name: str = "after") -> tuple[int, int]:
    """A feed id ``<tx>-<position>``, each a whole number that fits the tables' bigint; else 400 naming ``name``."""
    if not text:
        return (0, 0)
    tx_text, _, position_text = text.partition("-")
    tx, position = whole_number(tx_text, 0, BIGINT_MAX), whole_number(position_text, 0, BIGINT_MAX)
    if tx is None or position is None:
        raise BadRequest("standings.bad-after", f"{name} must be a feed id <tx>-<position> (whole numbers up to"
                                                f" {BIGINT_MAX}), not {text!r}")
    return tx, position


def entry_of(row: tuple[int, int, object, bytes]) -> Entry:
    tx, position, recorded_at, changes = row
    return Entry(id=entry_id(tx, position), tx=tx, position=position,
                 recorded_at=recorded_at.isoformat(),  # type: ignore[attr-defined]
                 changes=msgspec.Raw(changes))


async def entries(request: web.Request, after: tuple[int, int]) -> AsyncIterator[Entry | None]:
    """Every entry after ``after`` from the table, in order; the hub only wakes the reader (a fold of this
    process committed), and a short poll covers folds by other replicas. None now and then: a heartbeat."""
    wake = request.app[HUB].subscribe()
    idle = 0.0
    try:
        while True:
            async for entry in backlog(request, after):
                after = (entry.tx, entry.position)
                idle = 0.0
                yield entry
            try:
                await asyncio.wait_for(wake.get(), POLL_SECONDS)
            except TimeoutError:
                idle += POLL_SECONDS
                if idle >= HEARTBEAT_SECONDS:
                    idle = 0.0
                    yield None
            while not wake.empty():
                wake.get_nowait()
    finally:
        request.app[HUB].unsubscribe(wake)


async def backlog(request: web.Request, after: tuple[int, int]) -> AsyncIterator[Entry]:
    while True:
        async with request.app[POOL].acquire() as conn:
            rows = await reads.changes(conn, after, BACKLOG_PAGE)
        for row in rows:
            entry = entry_of(tuple(row))
            after = (entry.tx, entry.position)
            yield entry
        if len(rows) < BACKLOG_PAGE:
            return


async def latest(request: web.Request) -> tuple[int, int]:
    async with request.app[POOL].acquire() as conn:
        row = await conn.fetchrow("SELECT tx, position FROM standings_feed ORDER BY tx DESC, position DESC LIMIT 1")
    return (row[0], row[1]) if row else (0, 0)


async def start_of(request: web.Request) -> tuple[int, int]:
    """Last-Event-ID (a reconnecting client), else ?after=<id>, else ?from=now (only what happens from now on),
    else the whole feed."""
    if last := request.headers.get("Last-Event-ID"):
        return after_of(last, "Last-Event-ID")
    last = request.query.get("after")
    if not last and request.query.get("from") == "now":
        return await latest(request)
    return after_of(last)


async def sse(request: web.Request) -> web.StreamResponse:
    after = await start_of(request)
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                           "X-Accel-Buffering": "no"})
    await response.prepare(request)
    await response.write(b"retry: 1000\n\n")
    async for entry in entries(request, after):
        if entry is None:
            await response.write(b": heartbeat\n\n")
        else:
            await response.write(b"id: " + entry.id.encode() + b"\nevent: change\ndata: " + _encoder.encode(entry)
                                 + b"\n\n")
    return response


async def websocket(request: web.Request) -> web.StreamResponse:
    after = await start_of(request)
    ws = web.WebSocketResponse(heartbeat=HEARTBEAT_SECONDS)
    await ws.prepare(request)

    async def drain_client() -> None:
        async for msg in ws:
            if msg.type in (WSMsgType.CLOSE, WSMsgType.ERROR):
                break

    reader = asyncio.create_task(drain_client())
    try:
        async for entry in entries(request, after):
            if ws.closed:
                break
            if entry is not None:
                await ws.send_str(_encoder.encode(entry).decode())
    finally:
        reader.cancel()
        await ws.close()
    return ws


async def changes(request: web.Request) -> web.Response:
    limit = limit_of(request)
    async with request.app[READS].connection() as conn:
        rows = await reads.changes(conn, after_of(request.query.get("after")), limit + 1)
    items = [entry_of(tuple(r)) for r in rows]
    more = len(items) > limit
    items = items[:limit]
    return respond(request, {"items": items, "next": items[-1].id if more and items else None})
