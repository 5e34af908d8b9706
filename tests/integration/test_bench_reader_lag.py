"""``bench.hot_path``'s watch on the log's readers: how far each reader's checkpoint was behind the newest event,
in events and in seconds, sampled from the real tables while events are appended."""

from __future__ import annotations

import asyncio
import time
import uuid

from bench.reader_lag import ReaderLag
from shared.eventstore import Checkpoint, EventStore
from shared.eventstore.checkpoints import save_checkpoint
from tests.infra import RunInfra
from tests.integration.helpers import event, until


async def test_the_reader_furthest_behind_is_reported_per_window(store: EventStore, migrated: RunInfra) -> None:
    tag = uuid.uuid4().hex[:8]
    names = [f"lag-{tag}-b1", f"lag-{tag}-b2", f"lag-{tag}-c"]
    readers = {"behind": f"lag-{tag}-b%", "caught-up": names[2]}
    stream = f"lag{tag}-1"
    first = await store.append(stream, [event(0)])
    await asyncio.sleep(0.2)
    last = await store.append(stream, [event(n) for n in range(1, 10)], first.last_version)
    async with store.pool.acquire() as conn:
        rows = await conn.fetch("SELECT tx, position FROM events WHERE stream_id = $1 ORDER BY version", stream)
        at = [Checkpoint(int(str(tx)), position) for tx, position in rows]
        await save_checkpoint(conn, names[0], at[4])
        await save_checkpoint(conn, names[1], at[0])
        await save_checkpoint(conn, names[2], at[-1])
    assert at[-1].position == last.positions[-1]
    async with ReaderLag(migrated.database_url, interval=0.05, readers=readers) as lag:
        start = time.perf_counter()
        await until("both readers sampled", lambda: len({reader for _, reader, *_ in lag.samples}) == 2)
        end = time.perf_counter()
    seen = lag.between(start, end)
    # Against the newest event of the log, which another test's writer may have moved past this test's last one.
    assert seen["behind"]["events"] - seen["caught-up"]["events"] == at[-1].position - at[0].position
    assert seen["behind"]["seconds"] - seen["caught-up"]["seconds"] >= 0.2
    assert lag.between(end + 1, end + 2) == {}
