"""Event store throughput against raw asyncpg COPY on the same server, in the same run (medians of repeats).

    python -m bench.eventstore [--repeats 5]
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import asyncpg

from bench.hardware import describe, median
from bench.pg_settings import show_settings
from shared.eventstore import Checkpoint, EventStore, ExpectedVersion, Metadata, NewEvent
from shared.eventstore.migrate import apply_migrations
from shared.eventstore.pool import create_pool
from tests.infra import running_infra

DATA = b'{"seat":2,"card":"troll","round":3,"face_down":true,"values":[1,2,3,4,5,6]}'
METADATA = Metadata(correlation_id="bench", actor="bench", command_id="c")


def new_event() -> NewEvent:
    return NewEvent(type="bench.CardPlayed", data=DATA, metadata=METADATA)


async def timed(work: Callable[[], Awaitable[int]], repeats: int) -> float:
    """Median rate (items/s) of ``work``, which returns how many items it handled."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        items = await work()
        rates.append(items / (time.perf_counter() - start))
    return median(rates)


async def run(database_url: str, repeats: int) -> dict[str, float]:
    await apply_migrations(database_url)
    pool = await create_pool(database_url, role="league_app", max_size=16)
    store = EventStore(pool)

    async def single_sequential() -> int:
        stream = f"bench-{uuid.uuid4().hex}"
        for version in range(1000):
            await store.append(stream, [new_event()], version or ExpectedVersion.NO_STREAM)
        return 1000

    async def single_concurrent() -> int:
        async def writer() -> None:
            stream = f"bench-{uuid.uuid4().hex}"
            for version in range(250):
                await store.append(stream, [new_event()], version or ExpectedVersion.NO_STREAM)

        await asyncio.gather(*(writer() for _ in range(8)))
        return 2000

    async def batches() -> int:
        stream = f"bench-{uuid.uuid4().hex}"
        for n in range(100):
            await store.append(stream, [new_event() for _ in range(100)], n * 100 or ExpectedVersion.NO_STREAM)
        return 100 * 100

    async def read_all() -> int:
        count, after = 0, Checkpoint()
        while events := await store.read_all(after, 1000):
            count += len(events)
            after = events[-1].checkpoint
        return count

    results = {
        "single-event appends/s (1 writer)": await timed(single_sequential, repeats),
        "single-event appends/s (8 writers)": await timed(single_concurrent, repeats),
        "100-event batch appends: events/s": await timed(batches, repeats),
    }
    results["global read events/s"] = await timed(read_all, repeats)
    results["raw asyncpg COPY events/s"] = await timed(lambda: copy_rate(database_url), repeats)
    results["raw asyncpg 1-row INSERTs/s (1 writer)"] = await timed(lambda: insert_rate(database_url), repeats)
    await pool.close()
    return results


COPY_COLUMNS = ["event_id", "stream_id", "version", "type", "schema_version", "data", "metadata", "recorded_at",
                "prev_hash", "hash"]


async def plain_table(database_url: str) -> asyncpg.Connection:
    conn = await asyncpg.connect(database_url)
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS bench_copy (position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
        " event_id uuid UNIQUE, stream_id text, version int, type text, schema_version smallint, data jsonb,"
        " metadata jsonb, recorded_at timestamptz, prev_hash bytea, hash bytea, UNIQUE (stream_id, version))"
    )
    return conn


def plain_rows(count: int) -> list[tuple[object, ...]]:
    stream = f"bench-{uuid.uuid4().hex}"
    now = datetime.now(UTC)
    metadata = '{"correlation_id":"bench","actor":"bench","command_id":"c"}'
    return [(uuid.uuid4(), stream, v, "bench.CardPlayed", 1, DATA.decode(), metadata, now, bytes(32), bytes(32))
            for v in range(1, count + 1)]


async def copy_rate(database_url: str) -> int:
    """The same rows, bulk-loaded by COPY into a plain table with the events table's columns."""
    conn = await plain_table(database_url)
    try:
        rows = plain_rows(10_000)
        await conn.copy_records_to_table("bench_copy", records=rows, columns=COPY_COLUMNS)
        return len(rows)
    finally:
        await conn.close()


async def insert_rate(database_url: str) -> int:
    """One plain INSERT per transaction: the floor under a single-event append."""
    conn = await plain_table(database_url)
    try:
        rows = plain_rows(1000)
        insert = (f"INSERT INTO bench_copy ({', '.join(COPY_COLUMNS)})"
                  " VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7::text::jsonb, $8, $9, $10)")
        for row in rows:
            await conn.execute(insert, *row)
        return len(rows)
    finally:
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    for infra in running_infra(durable=True):
        print(f"event store benchmark — {describe()}; medians of {args.repeats} runs")
        show_settings(infra.database_url)
        results = asyncio.run(run(infra.database_url, args.repeats))
    width = max(map(len, results))
    for name, rate in results.items():
        print(f"  {name:<{width}}  {rate:>10,.0f}")
    copy = results["raw asyncpg COPY events/s"]
    insert = results["raw asyncpg 1-row INSERTs/s (1 writer)"]
    print(f"  single appends / raw INSERT ratio: {results['single-event appends/s (1 writer)'] / insert:.2f}")
    print(f"  batch appends / COPY ratio: {results['100-event batch appends: events/s'] / copy:.2f}")
    print(f"  global read / COPY ratio  : {results['global read events/s'] / copy:.2f}")


if __name__ == "__main__":
    main()
