"""What the order of event ids costs a durable append: random (version 4) UUIDs against time-ordered (version 7,
what ``shared.eventstore.types.new_event_id`` makes), in the same run on the same server.

    python -m bench.event_ids [--rows 500000] [--appends 1000] [--repeats 3]

For each kind: a copy of the events table (its indexes, no triggers) holding ``--rows`` events with ids of that
kind, a CHECKPOINT, then ``--appends`` INSERTs of 50 events each (as a group commit's flush of many games writes
them), one commit each. It prints the WAL written per event (the first change to a page after a checkpoint writes
the whole page: random ids touch a new leaf of the id index for nearly every event, time-ordered ones the same
few), PostgreSQL's CPU per event (from /proc) and the rate.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import time
import uuid
from collections.abc import Callable

import asyncpg

from bench.eventstore import DATA, server
from bench.hardware import describe, median
from bench.pg_settings import postmaster_pid
from bench.proc_cpu import all_stats, tree_seconds
from shared.eventstore.migrate import apply_migrations
from shared.eventstore.types import new_event_id
from tests.infra import running_infra

BATCH = 50
KINDS: dict[str, Callable[[], uuid.UUID]] = {"random (v4)": uuid.uuid4, "time-ordered (v7)": new_event_id}
COLUMNS = ("event_id", "stream_id", "version", "type", "schema_version", "data", "metadata", "prev_hash", "hash")
METADATA = b'{"actor":"bench","correlation_id":"bench"}'
INSERT = """
    INSERT INTO bench_ids (event_id, stream_id, version, type, schema_version, data, metadata, prev_hash, hash)
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::smallint[], $6::jsonb[], $7::jsonb[],
                         $8::bytea[], $9::bytea[])
"""


def rows(make_id: Callable[[], uuid.UUID], first: int, count: int) -> list[tuple[object, ...]]:
    """Events of games of 100 events each, numbered from ``first``."""
    return [(make_id(), f"bench-{n // 100}", n % 100 + 1, "bench.CardPlayed", 1, DATA.decode(), METADATA.decode(),
             bytes(32), os.urandom(32)) for n in range(first, first + count)]


def server_cpu(postmaster: int | None) -> float:
    return tree_seconds(postmaster, all_stats()) if postmaster else math.nan


async def one(url: str, make_id: Callable[[], uuid.UUID], before: int, appends: int) -> tuple[float, float, float]:
    """(WAL bytes per event, PostgreSQL CPU µs per event (NaN on another machine), events/s) of the appends."""
    postmaster = await postmaster_pid(url)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("DROP TABLE IF EXISTS bench_ids")
        await conn.execute("CREATE TABLE bench_ids (LIKE events INCLUDING DEFAULTS INCLUDING IDENTITY"
                           " INCLUDING CONSTRAINTS INCLUDING INDEXES)")
        for start in range(0, before, 100_000):
            await conn.copy_records_to_table("bench_ids", records=rows(make_id, start, min(100_000, before - start)),
                                             columns=COLUMNS)
        await conn.execute("VACUUM ANALYZE bench_ids")
        await conn.execute("CHECKPOINT")
        batches = [list(zip(*rows(make_id, before + n * BATCH, BATCH), strict=True)) for n in range(appends)]
        lsn = await conn.fetchval("SELECT pg_current_wal_insert_lsn()")
        cpu, started = server_cpu(postmaster), time.perf_counter()
        for columns in batches:
            await conn.execute(INSERT, *map(list, columns))
        seconds = time.perf_counter() - started
        cpu = server_cpu(postmaster) - cpu
        wal = await conn.fetchval("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1)", lsn)
        events = appends * BATCH
        return float(wal) / events, cpu * 1e6 / events, events / seconds
    finally:
        await conn.execute("DROP TABLE IF EXISTS bench_ids")
        await conn.close()


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "n/a"


async def run(url: str, before: int, appends: int, repeats: int) -> list[str]:
    await apply_migrations(url)
    figures: dict[str, list[tuple[float, float, float]]] = {kind: [] for kind in KINDS}
    for _ in range(repeats):
        for kind, make_id in KINDS.items():
            figures[kind].append(await one(url, make_id, before, appends))
    lines = [f"{appends:,} appends of {BATCH} events after a CHECKPOINT, {before:,} events in the table before;"
             f" medians of {repeats}"]
    medians = {kind: [median([f[i] for f in runs]) for i in range(3)] for kind, runs in figures.items()}
    for kind, (wal, cpu, rate) in medians.items():
        lines.append(f"  {kind:18} WAL {wal:6,.0f} bytes/event   PostgreSQL CPU {cpu:5.1f} µs/event   {rate:9,.0f}"
                     " events/s")
    (wal4, cpu4, _), (wal7, cpu7, _) = medians.values()
    lines.append(f"  time-ordered / random: WAL {ratio(wal7, wal4)}, PostgreSQL CPU {ratio(cpu7, cpu4)}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=500_000, help="events in the table before the appends")
    parser.add_argument("--appends", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    where = "DATABASE_URL" if os.environ.get("DATABASE_URL") else "embedded, durable"
    for infra in running_infra(durable=True):
        print(f"event id benchmark — {describe()}\n{asyncio.run(server(infra.database_url))} ({where})")
        for line in asyncio.run(run(infra.database_url, args.rows, args.appends, args.repeats)):
            print(f"  {line}")


if __name__ == "__main__":
    main()
