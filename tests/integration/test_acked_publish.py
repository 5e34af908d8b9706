"""The relay's JetStream publisher: a batch framed and written at once, every message acknowledged (or refused) on
one inbox subscription."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from nats.aio.client import Client
from nats.errors import MaxPayloadError, OutboundBufferLimitError
from nats.js import JetStreamContext
from nats.js.errors import NoStreamResponseError

from shared.bus.acked_publish import MSG_ID_HEADER, AckedPublisher, Outgoing, PublishRefused
from shared.bus.connect import connect
from shared.infra.embedded_nats import EmbeddedNats
from tests.infra import RunInfra
from tests.integration.helpers import until


@pytest.fixture
async def publisher(nc: Client) -> AsyncIterator[AckedPublisher]:
    publisher = AckedPublisher(nc)
    await publisher.start()
    yield publisher
    await publisher.close()


async def test_each_message_gets_its_own_ack_in_order_duplicates_are_named_and_refusals_raise(
        publisher: AckedPublisher, js: JetStreamContext, infra: RunInfra) -> None:
    ns = infra.namespace
    subject = ns.event_subject("acked", f"acked-{uuid.uuid4().hex}")
    ids = [str(uuid.uuid4()) for _ in range(20)]
    batch = await publisher.publish_all(
        [Outgoing(subject, f"m{n}".encode(), i, ns.events_stream) for n, i in enumerate(ids)])
    done = await asyncio.wait_for(batch.done, 10)
    assert [a.stream for a in done] == [ns.events_stream] * 20
    assert [a.seq for a in done] == list(range(done[0].seq, done[0].seq + 20))
    assert not any(a.duplicate for a in done) and batch.acked == 20
    stored = await js.get_msg(ns.events_stream, done[7].seq)
    assert stored.data == b"m7" and stored.headers is not None and stored.headers[MSG_ID_HEADER] == ids[7]

    again = await publisher.publish_all([Outgoing(subject, b"m0", ids[0]), Outgoing(subject, b"new")])
    repeat, new = await asyncio.wait_for(again.done, 10)
    assert repeat.duplicate and repeat.seq == done[0].seq
    assert not new.duplicate and new.seq > done[-1].seq

    wrong_stream = await publisher.publish_all([Outgoing(subject, b"x", stream="NOT_THIS_ONE")])
    with pytest.raises(PublishRefused):
        await asyncio.wait_for(wrong_stream.done, 10)
    nowhere = await publisher.publish_all([Outgoing(f"nostream.{uuid.uuid4().hex}", b"x", ids[0])])
    with pytest.raises(NoStreamResponseError):
        await asyncio.wait_for(nowhere.done, 10)

    forgotten = await publisher.publish_all([Outgoing(subject, b"late", str(uuid.uuid4())) for _ in range(3)])
    forgotten.done.cancel()
    await asyncio.sleep(0)  # the cancellation's callback runs; the acks cannot have come back yet
    assert not publisher._waiting  # noqa: SLF001 - a cancelled wait leaves nothing behind
    await asyncio.sleep(0.2)  # and the acks that come later find nothing to resolve


async def test_a_malformed_or_oversized_message_fails_its_batch_before_anything_is_sent(
        publisher: AckedPublisher, nc: Client, js: JetStreamContext, infra: RunInfra) -> None:
    ns = infra.namespace
    subject = ns.event_subject("acked", f"acked-{uuid.uuid4().hex}")
    for bad in (Outgoing(subject, b"x", "an id\r\nPUB evil 1"), Outgoing(f"{subject} evil", b"x"),
                Outgoing(subject, b"x", stream=""), Outgoing(subject, b"x" * (nc.max_payload + 1))):
        with pytest.raises((ValueError, MaxPayloadError)):
            await publisher.publish_all([Outgoing(subject, b"fine", str(uuid.uuid4())), bad])
    assert not publisher._waiting  # noqa: SLF001
    fine = await publisher.publish_all([Outgoing(subject, b"fine", str(uuid.uuid4()))])
    (ack,) = await asyncio.wait_for(fine.done, 10)
    info = await js.stream_info(ns.events_stream, subjects_filter=subject)
    assert info.state.subjects == {subject: 1}  # only the last batch's message: the failed ones sent nothing
    assert (await js.get_msg(ns.events_stream, ack.seq)).data == b"fine"


async def test_while_the_server_is_away_a_batch_buffers_up_to_nats_pys_limit_and_no_further(
        infra: RunInfra, tmp_path: Path) -> None:
    server = EmbeddedNats(tmp_path / "nats-away")
    nc = await connect(server.start(), name="away-test")
    ns = infra.namespace
    publisher = AckedPublisher(nc)
    await publisher.start()
    try:
        server.stop()
        await until("the client sees the server gone", lambda: not nc.is_connected, 10)
        subject = ns.event_subject("acked", "away")
        small = await publisher.publish_all([Outgoing(subject, b"x" * 1000, str(uuid.uuid4()))])
        with pytest.raises(OutboundBufferLimitError):
            await publisher.publish_all([Outgoing(subject, b"x" * 100_000, str(uuid.uuid4())) for _ in range(30)])
        assert list(publisher._waiting) == [str(small.tokens[0])]  # noqa: SLF001 - the refused batch left nothing
        small.done.cancel()
    finally:
        # nats-py's close (and the publisher's, which sends an UNSUB) finds the connection reset: the server is gone.
        with contextlib.suppress(ConnectionResetError):
            await nc.close()
        server.stop()
