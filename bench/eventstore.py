"""Event store throughput against raw asyncpg on the same durable server, in the same run (medians of repeats).

    python -m bench.eventstore [--repeats 5] [--quick]

(a) many games appending at once through GroupCommit vs COPY of the same rows into a copy of the events table, as
rates and as CPU per event (this process and PostgreSQL's, from /proc: the steadier figure on a shared machine);
(b) read_all, decoded into RecordedEvents, vs a raw keyset read of the same table; then the single-stream figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import time
import uuid
from collections.abc import Awaitable, Callable

import asyncpg
import msgspec

from bench.hardware import describe, median
from bench.pg_settings import postmaster_pid
from bench.proc_cpu import all_stats, tree_seconds
from shared.eventstore import Checkpoint, EventStore, ExpectedVersion, Metadata, NewEvent
from shared.eventstore.group_commit import GroupCommit
from shared.eventstore.hashing import GENESIS
from shared.eventstore.migrate import apply_migrations
from shared.eventstore.pool import connect as pg_connect
from shared.eventstore.pool import create_pool
from tests.infra import running_infra

DATA = b'{"seat":2,"card":"troll","round":3,"face_down":true,"values":[1,2,3,4,5,6]}'
METADATA = Metadata(correlation_id="bench", actor="bench", command_id="c")


MAX_STREAMS = 256
SETTINGS = ("fsync", "synchronous_commit", "wal_sync_method", "full_page_writes", "shared_buffers")


class CpuMeter:
    """CPU seconds so far of this process and, when it runs on this machine, of PostgreSQL (the postmaster and every
    live backend: read the total while the connections that did the work are still open). This process is read
    alone (getrusage), not as a /proc tree: the embedded PostgreSQL is its child and would count twice."""

    def __init__(self, postmaster: int | None) -> None:
        self.postmaster = postmaster

    def __call__(self) -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        server = tree_seconds(self.postmaster, all_stats()) if self.postmaster else 0.0
        return usage.ru_utime + usage.ru_stime + server


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


Game = tuple[str, list[list[NewEvent]]]


def games_of(games: int, turns: int) -> list[Game]:
    """``games`` streams of ``turns`` batches of 3-5 events each, made before the clock starts for either side."""
    rng = random.Random(7)
    return [(f"game-{uuid.uuid4().hex}", [[new_event() for _ in range(rng.randint(3, 5))] for _ in range(turns)])
            for _ in range(games)]


async def through_group_commit(store: EventStore, games: list[Game], stats: dict[str, float], *,
                               keep_heads: bool = True, cpu: CpuMeter | None = None) -> float:
    """Events/s: one task per game, each appending its batches in turn at its expected version, naming the head it
    builds on as the engine does (``keep_heads``), or not (each flush then reads the streams' heads first). With
    ``cpu``, ``stats["cpu_us_per_event"]`` too."""
    async with GroupCommit(store, max_streams=MAX_STREAMS) as committer:

        async def play(stream: str, turns: list[list[NewEvent]]) -> None:
            version = 0
            head: bytes | None = GENESIS
            for batch in turns:
                result = await committer.append(stream, batch, version or ExpectedVersion.NO_STREAM,
                                                head=head if keep_heads else None)
                version, head = result.last_version, result.hash

        spent, start = cpu() if cpu else 0.0, time.perf_counter()
        await asyncio.gather(*(play(stream, turns) for stream, turns in games))
        elapsed, spent = time.perf_counter() - start, (cpu() - spent if cpu else 0.0)
    stats["cpu_us_per_event"] = spent * 1e6 / max(committer.appended, 1)
    stats["flushes"] = committer.flushes
    stats["streams per flush"] = sum(len(turns) for _, turns in games) / committer.flushes
    return committer.appended / elapsed


async def by_copy(database_url: str, games: list[Game], *, per_turn: bool = False,
                  cpu: CpuMeter | None = None) -> tuple[float, float]:
    """Events/s and CPU µs per event (0 without ``cpu``): the same rows in one COPY (one commit) into a fresh copy
    of the events table: its columns, defaults, identity and indexes; or ``per_turn``, one COPY (and commit) per
    turn of every game."""
    turns = [[(e.event_id, stream, sum(map(len, batches[:turn])) + n, e.type, e.schema_version, e.data,
               msgspec.json.encode(e.metadata), bytes(32), bytes(32))
              for stream, batches in games for n, e in enumerate(batches[turn], 1)]
             for turn in range(len(games[0][1]))]
    copies = turns if per_turn else [[row for rows in turns for row in rows]]
    conn = await pg_connect(database_url)
    table = f"bench_copy_{uuid.uuid4().hex[:8]}"
    try:
        await conn.execute(f"CREATE TABLE {table} (LIKE events INCLUDING ALL)")
        spent, start = cpu() if cpu else 0.0, time.perf_counter()
        for rows in copies:
            await conn.copy_records_to_table(table, records=rows, columns=[
                "event_id", "stream_id", "version", "type", "schema_version", "data", "metadata", "prev_hash",
                "hash"])
        elapsed, spent = time.perf_counter() - start, (cpu() - spent if cpu else 0.0)
        await conn.execute(f"DROP TABLE {table}")
    finally:
        await conn.close()
    events = sum(map(len, copies))
    return events / elapsed, spent * 1e6 / events


async def read_rates(store: EventStore) -> tuple[float, float, int]:
    async def decoded() -> int:
        count, after = 0, Checkpoint()
        while events := await store.read_all(after, 1000):
            count += len(events)
            after = events[-1].checkpoint
        return count

    async def raw() -> int:
        count, position = 0, 0
        async with store.pool.acquire() as conn:
            while rows := await conn.fetch("SELECT * FROM events WHERE position > $1 ORDER BY position LIMIT 1000",
                                           position):
                count += len(rows)
                position = rows[-1][0]
        return count

    rows = await raw()
    ours, theirs = [], []
    for _ in range(5):  # interleaved, so that both see the same machine
        ours.append(await timed(decoded, 1))
        theirs.append(await timed(raw, 1))
    return median(ours), median(theirs), rows


async def run(database_url: str, repeats: int, quick: bool) -> list[str]:
    await apply_migrations(database_url)
    pool = await create_pool(database_url, role="league_app", max_size=16)
    store = EventStore(pool)
    games, turns = 200, (5 if quick else 15)
    lines = []

    cpu = CpuMeter(await postmaster_pid(database_url))
    stats: dict[str, float] = {}
    groups, headless, copies, turn_copies, group_cpu, copy_cpu = [], [], [], [], [], []
    for _ in range(repeats):  # interleaved, so that all see the same machine (2 cores, shared)
        made = games_of(games, turns)
        groups.append(await through_group_commit(store, made, stats, cpu=cpu))
        group_cpu.append(stats["cpu_us_per_event"])
        headless.append(await through_group_commit(store, games_of(games, turns), {}, keep_heads=False))
        rate, spent = await by_copy(database_url, made, cpu=cpu)
        copies.append(rate)
        copy_cpu.append(spent)
        turn_copies.append((await by_copy(database_url, made, per_turn=True))[0])
    group, copy, turn_copy = median(groups), median(copies), median(turn_copies)
    counted = ("this process and PostgreSQL" if cpu.postmaster
               else "this process only: PostgreSQL is not on this machine")
    lines += [f"(a) {games} games x {turns} turns of 3-5 events, concurrent tasks, GroupCommit ({MAX_STREAMS} streams, "
              f"2 in flight, a batch leaves when a flight is free): {group:,.0f} events/s "
              f"({stats['flushes']:.0f} flushes, {stats['streams per flush']:.0f} streams each in the last run)",
              f"    raw asyncpg COPY of the same rows into a copy of the events table (one COPY, one commit): "
              f"{copy:,.0f} events/s",
              f"    group commit / COPY ratio: {group / copy:.2f}  (target >= 0.5)",
              f"    the same without the writers' heads (each flush reads the heads, COPYs, reads the positions): "
              f"{median(headless):,.0f} events/s, ratio to COPY {median(headless) / copy:.2f}",
              f"    for scale: one COPY (and commit) per turn of all {games} games: {turn_copy:,.0f} events/s, "
              f"group commit / that: {group / turn_copy:.2f}",
              f"    CPU per event ({counted}): group commit {median(group_cpu):.1f} µs, COPY {median(copy_cpu):.1f} µs;"
              f" COPY / group commit: {median(copy_cpu) / max(median(group_cpu), 1e-9):.2f} (steadier than the rates"
              " on a shared machine; the group commit's rate also gains from working on both cores, one COPY's"
              " does not)"]

    decoded, raw, rows = await read_rates(store)
    lines += [f"(b) read_all decoded (1000 a page): {decoded:,.0f} events/s over {rows:,} rows",
              f"    raw asyncpg keyset read of the same table (SELECT * ... WHERE position > $1 ORDER BY position "
              f"LIMIT 1000): {raw:,.0f} rows/s",
              f"    read_all / raw keyset ratio: {decoded / raw:.2f}  (target >= 0.5)"]

    async def single_sequential() -> int:
        stream = f"bench-{uuid.uuid4().hex}"
        for version in range(n_single):
            await store.append(stream, [new_event()], version or ExpectedVersion.NO_STREAM)
        return n_single

    async def single_concurrent() -> int:
        async def writer() -> None:
            stream = f"bench-{uuid.uuid4().hex}"
            for version in range(n_single // 4):
                await store.append(stream, [new_event()], version or ExpectedVersion.NO_STREAM)

        await asyncio.gather(*(writer() for _ in range(8)))
        return n_single * 2

    async def batches() -> int:
        stream = f"bench-{uuid.uuid4().hex}"
        for n in range(n_batches):
            await store.append(stream, [new_event() for _ in range(100)], n * 100 or ExpectedVersion.NO_STREAM)
        return 100 * n_batches

    n_single, n_batches = (200, 20) if quick else (1000, 100)
    single = await timed(single_sequential, repeats)
    insert = await timed(lambda: insert_rate(database_url, n_single), repeats)
    lines += ["(c) as before:",
              f"    single-event appends/s (1 writer): {single:,.0f}",
              f"    single-event appends/s (8 writers): {await timed(single_concurrent, repeats):,.0f}",
              f"    100-event batch appends, events/s: {await timed(batches, repeats):,.0f}",
              f"    raw asyncpg 1-row INSERTs/s (1 writer): {insert:,.0f}",
              f"    single appends / raw INSERT ratio: {single / insert:.2f}"]
    await pool.close()
    return lines


async def insert_rate(database_url: str, count: int = 1000) -> int:
    """One plain INSERT per transaction into a copy of the events table: the floor under a single-event append."""
    conn = await pg_connect(database_url)
    table = f"bench_insert_{uuid.uuid4().hex[:8]}"
    try:
        await conn.execute(f"CREATE TABLE {table} (LIKE events INCLUDING ALL)")
        insert = (f"INSERT INTO {table} (event_id, stream_id, version, type, schema_version, data, metadata,"
                  " prev_hash, hash) VALUES ($1, $2, $3, 'bench.CardPlayed', 1, $4, $5, $6, $6)")
        stream = f"bench-{uuid.uuid4().hex}"
        for version in range(1, count + 1):
            await conn.execute(insert, uuid.uuid4(), stream, version, DATA, b'{"correlation_id":"bench"}', bytes(32))
        await conn.execute(f"DROP TABLE {table}")
    finally:
        await conn.close()
    return count


async def server(url: str) -> str:
    conn = await asyncpg.connect(url)
    try:
        version = await conn.fetchval("SHOW server_version")
        settings = [f"{name}={await conn.fetchval(f'SHOW {name}')}" for name in SETTINGS]
        return f"PostgreSQL {version}: {', '.join(settings)}"
    finally:
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer turns and appends, 3 repeats")
    args = parser.parse_args()
    repeats = min(args.repeats, 3) if args.quick else args.repeats
    where = "DATABASE_URL" if os.environ.get("DATABASE_URL") else "embedded, durable"
    for infra in running_infra(durable=True):
        print(f"event store benchmark — {describe()}\n{asyncio.run(server(infra.database_url))} ({where}); "
              f"medians of {repeats} runs")
        for line in asyncio.run(run(infra.database_url, repeats, args.quick)):
            print(f"  {line}")


if __name__ == "__main__":
    main()
