from __future__ import annotations

import asyncio
import time
import uuid
from contextlib import aclosing

import asyncpg
import pytest
from nats.aio.client import Client

from shared.bus.namespace import Namespace
from shared.bus.wakeups import WakeupPublisher, Wakeups
from shared.eventstore import Checkpoint, EventStore, RecordedEvent, hashing
from shared.eventstore.group_commit import GroupCommit
from tests.infra import RunInfra
from tests.integration.helpers import NotYet, event, new_stream, until

WRITERS = 8
EVENTS_PER_WRITER = 500


async def collect(store: EventStore, category: str, expected: int) -> list[uuid.UUID]:
    seen: list[uuid.UUID] = []

    async def read() -> None:
        async for recorded in store.subscribe(Checkpoint(), batch=200, poll_seconds=0.05):
            if recorded.category == category:
                seen.append(recorded.event_id)
                if len(seen) >= expected:
                    return

    await asyncio.wait_for(read(), 60)
    return seen


async def test_concurrent_writers_one_subscriber_sees_each_event_once_in_a_stable_order(store: EventStore) -> None:
    category = f"glog{uuid.uuid4().hex[:8]}"
    total = WRITERS * EVENTS_PER_WRITER
    reader = asyncio.create_task(collect(store, category, total))

    async def writer(w: int) -> list[uuid.UUID]:
        ids = []
        for i in range(EVENTS_PER_WRITER):
            # Mixed batch sizes and streams, so transactions of different lengths commit out of order.
            stream = f"{category}-w{w}-s{i % 7}"
            new = event(i)
            ids.append(new.event_id)
            await store.append(stream, [new])
        return ids

    written = await asyncio.gather(*(writer(w) for w in range(WRITERS)))
    first = await reader
    all_written = {i for ids in written for i in ids}
    assert len(first) == total
    assert len(set(first)) == total, "an event was delivered twice"
    assert set(first) == all_written, "an event was missed"

    second = await collect(store, category, total)
    assert second == first, "a second subscriber from zero saw another order"


async def test_a_late_committing_transaction_is_not_skipped(store: EventStore, pool: asyncpg.Pool) -> None:
    """The gap the (tx, position) order closes: position N+1 commits before N; a reader must still see N."""
    category = f"late{uuid.uuid4().hex[:8]}"
    async with pool.acquire() as slow:
        tx = slow.transaction()
        await tx.start()
        # Take a transaction id and a position first, commit last.
        slow_id, data, metadata = uuid.uuid4(), b'{"n":0}', b'{"correlation_id":"c"}'
        await slow.fetch("SELECT * FROM append_events($1, -2, $2, $3, $4, $5, $6, $7)",
                         f"{category}-slow", [slow_id], ["test.Happened"], [1], [data], [metadata],
                         [hashing.body(f"{category}-slow", slow_id, "test.Happened", 1, data, metadata)])
        fast = event(1)
        await store.append(f"{category}-fast", [fast])
        before = [e for e in await store.read_all(Checkpoint(), limit=100000) if e.category == category]
        assert before == [], "an event was readable while an older transaction was still open"
        await tx.commit()
    after: list[RecordedEvent] = [e for e in await store.read_all(Checkpoint(), limit=100000)
                                  if e.category == category]
    assert [e.stream_id for e in after] == [f"{category}-slow", f"{category}-fast"]


async def test_read_all_resumes_after_a_checkpoint(store: EventStore) -> None:
    stream = new_stream("resume")
    await store.append(stream, [event(i) for i in range(5)])

    async def readable() -> list[RecordedEvent] | NotYet:
        # The log is read below the oldest transaction running anywhere on the server: on a server shared with
        # another test worker, one of its transactions may hold these events back for a moment.
        mine = [e for e in await store.read_all(Checkpoint(), limit=100000) if e.stream_id == stream]
        return mine if len(mine) == 5 else NotYet(f"{len(mine)} of 5 events readable")

    mine = await until("the stream's events are readable in the global log", readable, timeout=30)
    resumed = await store.read_all(mine[2].checkpoint, limit=100000)
    assert [e.version for e in resumed if e.stream_id == stream] == [4, 5]
    assert all(e.checkpoint > mine[2].checkpoint for e in resumed)


async def test_subscription_catches_up_then_follows_live(store: EventStore, nc: Client, infra: RunInfra) -> None:
    wakeups = await Wakeups.over_nats(nc, infra.namespace)
    publisher = WakeupPublisher(nc, infra.namespace)
    writer = EventStore(store.pool, on_commit=publisher.notify)
    category = f"live{uuid.uuid4().hex[:8]}"
    await store.append(f"{category}-a", [event(i) for i in range(3)])
    received: list[int] = []
    caught_up = asyncio.Event()

    async def follow() -> None:
        # The writers' wake-up over NATS, not polling, must wake it.
        async for recorded in store.subscribe(poll_seconds=30, wakeups=wakeups):
            if recorded.category == category:
                received.append(recorded.version)
                if len(received) == 3:
                    caught_up.set()
                if len(received) == 6:
                    return

    task = asyncio.create_task(follow())
    await asyncio.wait_for(caught_up.wait(), 30)
    await asyncio.sleep(0.2)
    assert received == [1, 2, 3]
    await writer.append(f"{category}-a", [event(i) for i in range(3)])
    await asyncio.wait_for(task, 3)
    assert received == [1, 2, 3, 4, 5, 6]
    await publisher.close()
    await wakeups.close()


async def test_a_reader_is_woken_over_nats_within_moments(store: EventStore, nc: Client, infra: RunInfra,
                                                          superuser: asyncpg.Connection) -> None:
    assert await superuser.fetchval("SELECT count(*) FROM pg_trigger WHERE tgname = 'events_appended'") == 0
    wakeups = await Wakeups.over_nats(nc, infra.namespace)
    publisher = WakeupPublisher(nc, infra.namespace)
    stream = new_stream("woken")
    tail = (await store.read_all(Checkpoint(), limit=1_000_000))[-1].checkpoint
    arrived = asyncio.Event()
    lags: list[float] = []

    async def follow() -> None:
        async with aclosing(store.batches(tail, poll_seconds=60, wakeups=wakeups)) as batches:
            async for events in batches:
                if any(e.stream_id == stream for e in events):
                    arrived.set()
                    return

    reader = asyncio.create_task(follow())
    await asyncio.sleep(0.2)  # the reader has read once and sleeps on its 60 s poll
    async with GroupCommit(store, on_commit=publisher.notify) as committer:
        began = time.perf_counter()
        await committer.append(stream, [event(1)])
        await asyncio.wait_for(arrived.wait(), 2)
        lags.append(time.perf_counter() - began)
    await reader
    assert lags[0] < 0.5
    assert wakeups.received >= 1 and publisher.sent >= 1
    await publisher.close()
    await wakeups.close()


async def test_a_reader_of_some_types_gets_each_of_them_once_in_log_order_and_pages_past_the_rest(
        store: EventStore) -> None:
    category = f"gtyp{uuid.uuid4().hex[:8]}"
    wanted_type = f"{category}.Wanted"
    start = Checkpoint()
    while (page := await store.read_page(start, 1000)).scanned:
        start = page.end

    async def writer(w: int) -> list[uuid.UUID]:
        ids = []
        for i in range(200):
            new = event(i, type=wanted_type if i % 9 == 0 else "test.Other")
            if i % 9 == 0:
                ids.append(new.event_id)
            await store.append(f"{category}-w{w}", [new])
        return ids

    written = await asyncio.gather(*(writer(w) for w in range(4)))
    last = (await store.read_all(start, 5000))[-1].checkpoint
    seen: list[RecordedEvent] = []
    ends: list[Checkpoint] = []

    async def follow() -> None:
        async with aclosing(store.pages(start, batch=50, poll_seconds=0.01, types=(wanted_type,))) as pages:
            async for page in pages:
                assert all(e.type == wanted_type for e in page.events)
                assert all(e.checkpoint <= page.end for e in page.events)
                seen.extend(page.events)
                ends.append(page.end)
                if page.end >= last:
                    return

    await asyncio.wait_for(follow(), 30)
    assert sorted(e.event_id for e in seen) == sorted(i for ids in written for i in ids)
    assert [e.checkpoint for e in seen] == sorted(e.checkpoint for e in seen), "not in the log's read order"
    assert ends == sorted(ends) and len(ends) >= 800 // 50, "the pages did not walk past the other events"


async def test_a_page_of_whole_transactions_goes_on_to_the_end_of_the_one_its_limit_cut(store: EventStore) -> None:
    stream = new_stream("gwhole")
    await store.append(stream, [event(i) for i in range(7)])
    written = await store.read_stream(stream)
    first = written[0]
    before = Checkpoint(first.tx, first.position - 1)  # the transaction holds only these seven

    cut = await store.read_page(before, 3)
    whole = await store.read_page(before, 3, whole_transactions=True)
    assert [e.event_id for e in cut.events] == [e.event_id for e in written[:3]]
    assert [e.event_id for e in whole.events] == [e.event_id for e in written]
    assert whole.end == written[-1].checkpoint and whole.scanned == 7
    exact = await store.read_page(before, 7, whole_transactions=True)
    assert [e.event_id for e in exact.events] == [e.event_id for e in written]
    with pytest.raises(ValueError, match="whole transactions"):
        await store.read_page(before, 3, types=("test.Happened",), whole_transactions=True)


async def test_a_burst_of_commits_sends_one_wake_up_at_once_and_one_per_interval_after(
        nc: Client, infra: RunInfra) -> None:
    quiet = Namespace(f"{infra.namespace.prefix}burst")  # the run's own services announce their commits too
    wakeups = await Wakeups.over_nats(nc, quiet)
    publisher = WakeupPublisher(nc, quiet, min_interval=0.05)
    first_seen = asyncio.Event()
    with wakeups.waiter() as woken:
        started = time.perf_counter()
        publisher.notify()
        await asyncio.wait_for(woken.wait(), 2)
        assert time.perf_counter() - started < 0.04, "the first commit after a quiet spell waited"
        first_seen.set()
        for _ in range(40):  # 40 commits over about 0.2 s
            publisher.notify()
            await asyncio.sleep(0.005)
        await publisher.close()
        await asyncio.sleep(0.1)
    assert 2 <= publisher.sent <= 2 + 0.25 / 0.05, publisher.sent
    assert wakeups.received == publisher.sent, "the last commits were not announced"
    await wakeups.close()
