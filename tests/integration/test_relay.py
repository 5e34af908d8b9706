from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import msgspec
import pytest
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

from services.relay.relay import Relay, RelayStalled
from shared.bus.acked_publish import MSG_ID_HEADER, AckedPublisher
from shared.bus.connect import connect
from shared.bus.envelope import BATCH_EVENTS, MAX_PAYLOAD, EventBatch, EventEnvelope
from shared.bus.streams import ensure_events_stream
from shared.eventstore import Checkpoint, EventStore, Metadata, NewEvent, RecordedEvent
from shared.eventstore.checkpoints import save_checkpoint
from shared.infra.embedded_nats import EmbeddedNats
from shared.infra.processes import ServiceProcess
from shared.verify.jetstream_copy import read_copy
from tests.infra import RunInfra
from tests.integration.helpers import event, metric, service_running, until

TRANSACTIONS = 1_000
PER_TRANSACTION = 10
TOTAL = TRANSACTIONS * PER_TRANSACTION


async def published_count(js: JetStreamContext, infra: RunInfra, subject: str) -> int:
    """Messages (each a stream's events of one transaction) JetStream holds on ``subject``."""
    info = await js.stream_info(infra.namespace.events_stream, subjects_filter=subject)
    return sum((info.state.subjects or {}).values())


async def test_relay_killed_mid_publish_and_restarted_delivers_every_event_once(
    store: EventStore, js: JetStreamContext, migrated: RunInfra
) -> None:
    """Restarted with pages of another size, the relay still cuts the same messages (pages end where transactions
    end), so JetStream drops every repeat."""
    category = f"relay{uuid.uuid4().hex[:8]}"
    ids = []
    for n in range(TRANSACTIONS):
        events = [event(i) for i in range(PER_TRANSACTION)]
        ids += [e.event_id for e in events]
        await store.append(f"{category}-{n % 10}", events)
    subject = migrated.namespace.event_subject(category, ">")

    relay = ServiceProcess("relay", {**migrated.env, "RELAY_BATCH": "50", "LOG_LEVEL": "warning"},
                           migrated.tmp / "relay-1.log")
    relay.start()
    try:
        deadline = time.monotonic() + 60
        while (count := await published_count(js, migrated, subject)) < 50:
            assert time.monotonic() < deadline, "the relay published nothing"
            await asyncio.sleep(0.005)
        relay.kill()
        at_kill = await published_count(js, migrated, subject)
        assert count <= at_kill < TRANSACTIONS, f"the relay was not killed mid-publish ({at_kill} of {TRANSACTIONS})"
    finally:
        relay.stop()

    restarted = ServiceProcess("relay", {**migrated.env, "RELAY_BATCH": "73", "LOG_LEVEL": "warning"},
                               migrated.tmp / "relay-2.log")
    restarted.start()
    try:
        received = await consume(js, migrated, subject)
    finally:
        assert restarted.stop() == 0, "the relay did not stop cleanly on SIGTERM"
    assert len(received) == TOTAL
    assert len(set(received)) == TOTAL, "an event reached JetStream twice"
    assert set(received) == set(ids)
    assert await published_count(js, migrated, subject) == TRANSACTIONS, "one message a transaction"


async def consume(js: JetStreamContext, infra: RunInfra, subject: str, total: int = TOTAL) -> list[uuid.UUID]:
    """The ids of the events of every message on ``subject``; each message's id names its first event and count."""
    return [e.event_id for batch in await batches(js, infra, subject, total) for e in batch.events]


async def batches(js: JetStreamContext, infra: RunInfra, subject: str, total: int) -> list[EventBatch]:
    sub = await js.pull_subscribe(
        subject, stream=infra.namespace.events_stream,
        config=ConsumerConfig(deliver_policy=DeliverPolicy.ALL, ack_policy=AckPolicy.NONE),
    )
    received: list[EventBatch] = []
    deadline = time.monotonic() + 60
    decoder = msgspec.json.Decoder(EventBatch)
    while time.monotonic() < deadline:
        try:
            messages = await sub.fetch(1000, timeout=1)
        except TimeoutError:
            if sum(len(b.events) for b in received) >= total:
                break
            continue
        for msg in messages:
            batch = decoder.decode(msg.data)
            assert msg.headers is not None
            assert msg.headers[MSG_ID_HEADER] == f"{batch.events[0].event_id}+{len(batch.events)}"
            assert len({(e.stream_id, e.tx) for e in batch.events}) == 1, "a message holds one stream's transaction"
            received.append(batch)
    await sub.unsubscribe()
    return received


async def test_relay_publishes_in_read_order_to_category_subjects(
    store: EventStore, js: JetStreamContext, migrated: RunInfra
) -> None:
    category = f"order{uuid.uuid4().hex[:8]}"
    stream = f"{category}-game1"
    for first in range(0, 20, 5):
        await store.append(stream, [event(i) for i in range(first, first + 5)])
    relay = ServiceProcess("relay", {**migrated.env, "LOG_LEVEL": "warning"}, migrated.tmp / "relay-order.log")
    relay.start()
    try:
        sub = await js.subscribe(migrated.namespace.event_subject(category, stream),
                                 stream=migrated.namespace.events_stream, ordered_consumer=True)
        versions = []
        for _ in range(4):
            batch = msgspec.json.decode((await sub.next_msg(timeout=30)).data, type=EventBatch)
            assert len(batch.events) == 5
            for envelope in batch.events:
                assert envelope.stream_id == stream
                assert msgspec.json.decode(envelope.data)["n"] == envelope.version - 1
                versions.append(envelope.version)
        await sub.unsubscribe()
    finally:
        relay.stop()
    assert versions == list(range(1, 21))


async def test_a_long_transaction_of_one_stream_is_cut_in_messages_the_same_way_by_any_page_size(
    store: EventStore, js: JetStreamContext, migrated: RunInfra
) -> None:
    """One append of 250 events, read in pages of 40: still messages of 100, 100 and 50, not cut at the pages."""
    category = f"long{uuid.uuid4().hex[:8]}"
    stream = f"{category}-1"
    await store.append(stream, [event(i) for i in range(2 * BATCH_EVENTS + 50)])
    written = await store.read_stream(stream)
    with service_running("relay", {**migrated.env, "RELAY_BATCH": "40", "LOG_LEVEL": "warning"},
                         migrated.tmp / "relay-long.log"):
        got = await batches(js, migrated, migrated.namespace.event_subject(category, ">"), len(written))
    assert [len(b.events) for b in got] == [BATCH_EVENTS, BATCH_EVENTS, 50]
    assert [e.event_id for b in got for e in b.events] == [e.event_id for e in written]


@asynccontextmanager
async def relay_from(store: EventStore, migrated: RunInfra, after: Checkpoint, name: str) -> AsyncIterator[None]:
    """A relay of its own checkpoint, saved at ``after``, running for the block."""
    checkpoint = f"relay-{name}-{uuid.uuid4().hex[:8]}"
    async with store.pool.acquire() as conn:
        await save_checkpoint(conn, checkpoint, after)
    with service_running("relay", {**migrated.env, "RELAY_CHECKPOINT": checkpoint, "LOG_LEVEL": "warning"},
                         migrated.tmp / f"{checkpoint}.log"):
        yield


def before(first: RecordedEvent) -> Checkpoint:
    """The place in the read order just before ``first``, the first event of its transaction."""
    return Checkpoint(first.tx, first.position - 1)


async def test_a_relay_started_inside_a_transaction_sends_the_rest_of_it_in_one_message(
    store: EventStore, js: JetStreamContext, migrated: RunInfra
) -> None:
    """As after the upgrade from a message per event: that relay's checkpoint may be anywhere in a transaction."""
    category = f"upgrade{uuid.uuid4().hex[:8]}"
    await store.append(f"{category}-1", [event(i) for i in range(10)])
    written = await store.read_stream(f"{category}-1")
    async with relay_from(store, migrated, written[2].checkpoint, "upgrade"):
        got = await batches(js, migrated, migrated.namespace.event_subject(category, ">"), 7)
    assert [[e.version for e in b.events] for b in got] == [list(range(4, 11))]


async def test_events_the_relay_of_contract_1_published_in_part_are_not_lost_to_the_duplicate_window(
    store: EventStore, js: JetStreamContext, migrated: RunInfra
) -> None:
    """The relay of contract 1 published a message per event, its id the event's, and saved its checkpoint a page at
    a time: stopped for the upgrade after publishing part of a page, it leaves events in JetStream past its
    checkpoint. The new relay sends that transaction again in one message, whose id must not be its first event's,
    or JetStream would drop the message whole, the events not yet published with it."""
    category = f"partly{uuid.uuid4().hex[:8]}"
    await store.append(f"{category}-1", [event(i) for i in range(10)])
    written = await store.read_stream(f"{category}-1")
    subject = migrated.namespace.event_subject(category, f"{category}-1")
    for old in written[:3]:
        await js.publish(subject, msgspec.json.encode(EventEnvelope.of(old)), stream=migrated.namespace.events_stream,
                         headers={MSG_ID_HEADER: str(old.event_id)})
    async with relay_from(store, migrated, before(written[0]), "partly"):
        async def batch_arrived() -> bool:
            return await published_count(js, migrated, subject) == 4

        await until("the transaction's message beside the three of contract 1", batch_arrived, timeout=30)
    copies = await read_copy(js, migrated.namespace, [], f"{category}-1")
    assert sorted(copy.version for copy in copies) == [1, 1, 2, 2, 3, 3, *range(4, 11)], \
        "every event is in JetStream; those published before the upgrade twice (league verify names them)"


async def test_an_event_of_megabytes_is_published_whole(
    store: EventStore, js: JetStreamContext, nc: Client, migrated: RunInfra
) -> None:
    """As a tournament of tens of thousands of players starts a round: one event of megabytes, a message of its own."""
    blob = "x" * (2 * 1024 * 1024)
    if nc.max_payload < MAX_PAYLOAD:  # checked before the event is stored: every later relay of the log must send it
        pytest.skip(f"this NATS server takes messages of {nc.max_payload:,} bytes at most, not the league's"
                    f" {MAX_PAYLOAD:,}")
    category = f"big{uuid.uuid4().hex[:8]}"
    await store.append(f"{category}-1", [event(1), event(2, blob=blob), event(3)])
    written = await store.read_stream(f"{category}-1")
    async with relay_from(store, migrated, before(written[0]), "big"):
        got = await batches(js, migrated, migrated.namespace.event_subject(category, ">"), 3)
    assert [[e.version for e in b.events] for b in got] == [[1], [2], [3]]
    assert msgspec.json.decode(got[1].events[0].data)["blob"] == blob


async def test_an_event_larger_than_the_server_takes_stops_the_relay_with_its_name(
    store: EventStore, nc: Client, migrated: RunInfra
) -> None:
    """Not stored (every relay of the log would stop on it): handed to the relay's publishing as a page would."""
    publisher = AckedPublisher(nc)
    await publisher.start()
    try:
        relay = Relay(store, publisher, migrated.namespace, checkpoint=f"relay-huge-{uuid.uuid4().hex[:8]}")
        huge = RecordedEvent(position=1, tx=1, event_id=uuid.uuid4(), stream_id=f"huge{uuid.uuid4().hex[:8]}-1",
                             version=1, type="test.Happened", schema_version=1,
                             data=msgspec.json.encode({"blob": "x" * nc.max_payload}),
                             metadata=Metadata(correlation_id="c", actor="tester"), recorded_at=datetime.now(UTC),
                             prev_hash=bytes(32), hash=bytes(32))
        with pytest.raises(RelayStalled, match=f"event {huge.event_id}\\+1 on .* max_payload is raised"):
            await relay.publish([huge])
        assert relay.published == 0
    finally:
        await publisher.close()


def health(url: str) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


async def test_a_relay_whose_acks_never_come_says_so_and_recovers_from_its_checkpoint(
    store: EventStore, migrated: RunInfra
) -> None:
    """A real stall: the relay's own NATS server is frozen (SIGSTOP) with its connection open, so publishes go out
    and no acknowledgement ever comes back. The batch times out, /healthz and /metrics show the lag, and once the
    server thaws the relay, restarted from its stored checkpoint, delivers every event exactly once."""
    server = EmbeddedNats(migrated.tmp / f"nats-stall-{uuid.uuid4().hex[:6]}")
    url = server.start()
    nc = await connect(url, name="stall-test")
    js = nc.jetstream()
    await ensure_events_stream(js, migrated.namespace)
    checkpoint = f"relay-stall-{uuid.uuid4().hex[:8]}"
    async with store.pool.acquire() as conn:  # start at the log's end: only this test's events matter
        head = await conn.fetchrow("SELECT tx::text::bigint, position FROM events ORDER BY tx DESC, position DESC"
                                   " LIMIT 1")
        await save_checkpoint(conn, checkpoint, Checkpoint(head[0], head[1]) if head else Checkpoint())
    env = {**migrated.env, "NATS_URL": url, "RELAY_CHECKPOINT": checkpoint, "RELAY_BATCH": "50",
           "RELAY_ACK_TIMEOUT": "1", "RELAY_STALL_SECONDS": "2"}
    relay = ServiceProcess("relay", env, migrated.tmp / f"{checkpoint}.log")
    category = f"stall{uuid.uuid4().hex[:8]}"
    subject = migrated.namespace.event_subject(category, ">")
    ids: list[uuid.UUID] = []

    async def count_is(n: int) -> bool:
        return await published_count(js, migrated, subject) == n

    try:
        relay.start()
        await asyncio.to_thread(relay.wait_healthy, 60)
        for n, stream in enumerate(("a", "b", "c")):
            events = [event(i) for i in range(100)]
            ids += [e.event_id for e in events]
            if n == 1:
                await until("the first 100 are in JetStream (one message)", lambda: count_is(1))
                server.pause()
            await store.append(f"{category}-{stream}", events)
        try:
            await until("/healthz reports the stall",
                        lambda: "relay-lag" in health(relay.url)[1]["problems"], timeout=30)  # type: ignore[operator]
            status, body = health(relay.url)
            assert status == 503 and "stalled" in str(body["problems"]), body
            assert "not answered a ping" in str(body["problems"]["nats"]), body  # type: ignore[index]
            assert metric(relay.url, "relay_lag_events") >= 200
            assert metric(relay.url, "relay_stalled_seconds") > 2
            assert metric(relay.url, "relay_ack_timeouts") >= 1
            assert "RelayStalled" in relay.log_path.read_text()  # type: ignore[union-attr]
        finally:
            server.resume()
        await until("the relay caught up", lambda: metric(relay.url, "relay_lag_events") == 0, timeout=60)
        await until("/healthz is ok again", lambda: health(relay.url)[0] == 200, timeout=30)
        received = await consume(js, migrated, subject, total=300)
        starts = [line for line in relay.log_path.read_text().splitlines()  # type: ignore[union-attr]
                  if '"relay.start"' in line]
        assert len(starts) >= 2, "the relay should have started again from its stored checkpoint"
    finally:
        server.resume()
        assert relay.stop() == 0, "the relay did not stop cleanly on SIGTERM"
        await nc.close()
        server.stop()
    assert sorted(received) == sorted(ids), "every event exactly once, after the stall as before"


async def test_events_private_to_seats_go_to_the_private_stream_only(
    store: EventStore, js: JetStreamContext, migrated: RunInfra
) -> None:
    """A dashboard reading the public stream never gets a hand or a deck order: those go where only auditors read."""
    ns = migrated.namespace
    category = f"hidden{uuid.uuid4().hex[:8]}"
    hidden = NewEvent(type="test.Dealt", data=b'{"hand": [1, 2, 3]}',
                      metadata=Metadata(correlation_id="c", actor="engine", visibility=(0,)))
    await store.append(f"{category}-1", [event(0), hidden, event(2)])
    public, private = ns.event_subject(category, ">"), ns.private_event_subject(category, ">")

    async def private_count() -> int:
        info = await js.stream_info(ns.private_events_stream, subjects_filter=private)
        return sum((info.state.subjects or {}).values())

    async def relayed() -> bool:
        return await published_count(js, migrated, public) + await private_count() == 2

    with service_running("relay", {**migrated.env, "LOG_LEVEL": "warning"}, migrated.tmp / "relay-private.log"):
        await until("both messages relayed", relayed)
    assert (await published_count(js, migrated, public), await private_count()) == (1, 1)
    sub = await js.subscribe(private, stream=ns.private_events_stream, ordered_consumer=True)
    hidden_batch = msgspec.json.decode((await sub.next_msg(10)).data, type=EventBatch)
    await sub.unsubscribe()
    assert [(e.type, e.version, e.metadata.visibility) for e in hidden_batch.events] == [("test.Dealt", 2, (0,))]
    shown = [e for b in await batches(js, migrated, public, 2) for e in b.events]
    assert [(e.version, e.metadata.visibility) for e in shown] == [(1, None), (3, None)]
