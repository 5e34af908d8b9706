"""The relay's JetStream publisher: every message acknowledged (or refused) on one inbox subscription."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.errors import NoStreamResponseError

from shared.bus.acked_publish import AckedPublisher, PublishRefused
from shared.bus.envelope import EXPECTED_STREAM_HEADER, MSG_ID_HEADER
from tests.infra import RunInfra


async def test_each_message_gets_its_own_ack_duplicates_are_named_and_refusals_raise(
        nc: Client, js: JetStreamContext, infra: RunInfra) -> None:
    ns = infra.namespace
    publisher = AckedPublisher(nc)
    await publisher.start()
    try:
        subject = ns.event_subject("acked", f"acked-{uuid.uuid4().hex}")
        ids = [str(uuid.uuid4()) for _ in range(20)]
        headers = [{MSG_ID_HEADER: i, EXPECTED_STREAM_HEADER: ns.events_stream} for i in ids]
        acks = [await publisher.publish(subject, f"m{n}".encode(), h) for n, h in enumerate(headers)]
        done = await asyncio.wait_for(asyncio.gather(*acks), 10)
        assert [a.stream for a in done] == [ns.events_stream] * 20
        assert [a.seq for a in done] == list(range(done[0].seq, done[0].seq + 20))
        assert not any(a.duplicate for a in done)
        again = await asyncio.wait_for(await publisher.publish(subject, b"m0", headers[0]), 10)
        assert again.duplicate and again.seq == done[0].seq
        wrong_stream = await publisher.publish(subject, b"x", {EXPECTED_STREAM_HEADER: "NOT_THIS_ONE"})
        with pytest.raises(PublishRefused):
            await asyncio.wait_for(wrong_stream, 10)
        nowhere = await publisher.publish(f"nostream.{uuid.uuid4().hex}", b"x", {MSG_ID_HEADER: ids[0]})
        with pytest.raises(NoStreamResponseError):
            await asyncio.wait_for(nowhere, 10)
        forgotten = await publisher.publish(subject, b"late", {MSG_ID_HEADER: str(uuid.uuid4())})
        forgotten.cancel()
        await asyncio.sleep(0.2)
        assert not publisher._waiting  # noqa: SLF001 - a cancelled wait leaves nothing behind
    finally:
        await publisher.close()
