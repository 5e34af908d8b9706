from __future__ import annotations

import asyncio
import time
import uuid

import msgspec
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

from shared.bus.envelope import MSG_ID_HEADER, EventEnvelope
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.helpers import event

TOTAL = 10_000


async def published_count(js: JetStreamContext, infra: RunInfra, subject: str) -> int:
    info = await js.stream_info(infra.namespace.events_stream, subjects_filter=subject)
    return sum((info.state.subjects or {}).values())


async def test_relay_killed_mid_publish_and_restarted_delivers_every_event_once(
    store: EventStore, js: JetStreamContext, migrated: RunInfra
) -> None:
    category = f"relay{uuid.uuid4().hex[:8]}"
    ids = []
    for batch in range(TOTAL // 100):
        events = [event(i) for i in range(100)]
        ids += [e.event_id for e in events]
        await store.append(f"{category}-{batch % 10}", events)
    subject = migrated.namespace.event_subject(category, ">")

    env = {**migrated.env, "RELAY_BATCH": "50", "LOG_LEVEL": "warning"}
    relay = ServiceProcess("relay", env, migrated.tmp / "relay-1.log")
    relay.start()
    try:
        deadline = time.monotonic() + 60
        while (count := await published_count(js, migrated, subject)) < 500:
            assert time.monotonic() < deadline, "the relay published nothing"
            await asyncio.sleep(0.005)
        relay.kill()
        at_kill = await published_count(js, migrated, subject)
        assert count <= at_kill < TOTAL, f"the relay was not killed mid-publish ({at_kill} of {TOTAL})"
    finally:
        relay.stop()

    restarted = ServiceProcess("relay", env, migrated.tmp / "relay-2.log")
    restarted.start()
    try:
        received = await consume(js, migrated, subject)
    finally:
        assert restarted.stop() == 0, "the relay did not stop cleanly on SIGTERM"
    assert len(received) == TOTAL
    assert len(set(received)) == TOTAL, "an event reached JetStream twice"
    assert set(received) == set(ids)


async def consume(js: JetStreamContext, infra: RunInfra, subject: str) -> list[uuid.UUID]:
    sub = await js.pull_subscribe(
        subject, stream=infra.namespace.events_stream,
        config=ConsumerConfig(deliver_policy=DeliverPolicy.ALL, ack_policy=AckPolicy.NONE),
    )
    received: list[uuid.UUID] = []
    deadline = time.monotonic() + 60
    decoder = msgspec.json.Decoder(EventEnvelope)
    while time.monotonic() < deadline:
        try:
            messages = await sub.fetch(1000, timeout=1)
        except TimeoutError:
            if len(received) >= TOTAL:
                break
            continue
        for msg in messages:
            envelope = decoder.decode(msg.data)
            assert msg.headers is not None and msg.headers[MSG_ID_HEADER] == str(envelope.event_id)
            received.append(envelope.event_id)
    await sub.unsubscribe()
    return received


async def test_relay_publishes_in_read_order_to_category_subjects(
    store: EventStore, js: JetStreamContext, migrated: RunInfra
) -> None:
    category = f"order{uuid.uuid4().hex[:8]}"
    stream = f"{category}-game1"
    await store.append(stream, [event(i) for i in range(20)])
    relay = ServiceProcess("relay", {**migrated.env, "LOG_LEVEL": "warning"}, migrated.tmp / "relay-order.log")
    relay.start()
    try:
        sub = await js.subscribe(migrated.namespace.event_subject(category, stream),
                                 stream=migrated.namespace.events_stream, ordered_consumer=True)
        versions = []
        for _ in range(20):
            msg = await sub.next_msg(timeout=30)
            envelope = msgspec.json.decode(msg.data, type=EventEnvelope)
            assert envelope.stream_id == stream
            assert msgspec.json.decode(envelope.data)["n"] == envelope.version - 1
            versions.append(envelope.version)
        await sub.unsubscribe()
    finally:
        relay.stop()
    assert versions == list(range(1, 21))
