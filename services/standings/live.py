"""The live fold: follow the global log, fold each batch into the serving generations in one transaction with
their checkpoints and the feed rows, then tell this process's feed clients."""

from __future__ import annotations

import time
from contextlib import aclosing

import msgspec
from aiohttp import web

from services.standings import generations, quarantine
from services.standings.folding import Folder
from services.standings.keys import HUB, LAG
from shared.eventstore import RecordedEvent
from shared.logging import get_logger
from shared.service.keys import STORE

log = get_logger(__name__)
_encoder = msgspec.json.Encoder()
BATCH = 2000
"""Events folded at most in one batch: only reached when the fold is behind, and then each batch's fixed costs (a
big tournament's placings, the checkpoints, the transaction) are shared by more of the events it catches up on."""
READ_INTERVAL = 0.1
"""A busy log is read at most this often: boards and tables change at most ten times a second, each batch folding
more moves of each game."""
FEED_INSERT = ("INSERT INTO standings_feed SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[],"
               " $4::jsonb[]) ON CONFLICT DO NOTHING")
FOLD_LOCK = 0x57A9D2
"""pg_advisory_xact_lock key: replicas of the service fold one batch at a time, each skipping what another did."""


async def follow(app: web.Application) -> None:
    store, hub = app[STORE], app[HUB]
    async with store.pool.acquire() as conn:
        await generations.bootstrap(conn)
        folder = Folder(store, await generations.current(conn))
        after = min((await folder.checkpoints(conn)).values())
    app[LAG].checkpoint = after
    log.info("standings.follow", after=after, generations=folder.generations)
    async with aclosing(store.batches(after, batch=BATCH, min_interval=READ_INTERVAL)) as batches:
        async for events in batches:

            async def fold_batch(events: list[RecordedEvent] = events) -> list[tuple[object, ...]]:
                async with store.pool.acquire() as conn, conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", FOLD_LOCK)
                    folder.retarget(await generations.current(conn, lock="SHARE"))
                    changed = await folder.fold(conn, events)
                    rows: list[tuple[object, ...]] = [
                        (r.tx, r.position, r.recorded_at, _encoder.encode(changes)) for r, changes in changed]
                    # A projection new in a release catches up on events whose entries were announced long ago:
                    # those stay as they were (an entry once sent is never changed); its changes to new events are
                    # reported.
                    if rows:
                        await conn.execute(FEED_INSERT, *map(list, zip(*rows, strict=True)))
                return rows

            rows = await quarantine.folded_around(store, folder.forget, fold_batch)
            if rows:
                hub.wake()
            app[LAG].applied(events[-1], len(events), time.time())
