"""Publishes each stored event to ``events.<category>.<stream_id>`` with ``Nats-Msg-Id`` = event id.

The checkpoint is saved only after JetStream acknowledged the whole batch, so a relay killed at any moment
re-publishes at most its last batch on restart, and JetStream's duplicate window drops those repeats.
"""

from __future__ import annotations

import time
from contextlib import aclosing

import msgspec
from nats.js import JetStreamContext

from shared.bus.envelope import MSG_ID_HEADER, EventEnvelope
from shared.bus.namespace import Namespace
from shared.eventstore import EventStore, RecordedEvent
from shared.eventstore.checkpoints import load_checkpoint, save_checkpoint
from shared.logging import get_logger

CHECKPOINT_NAME = "relay"
log = get_logger(__name__)
_encoder = msgspec.json.Encoder()


class Relay:
    def __init__(self, store: EventStore, js: JetStreamContext, ns: Namespace, *, batch: int = 500) -> None:
        self.store = store
        self.js = js
        self.ns = ns
        self.batch = batch
        self.published = 0
        self.duplicates = 0
        self.last_position = 0
        self.last_published_at = 0.0

    async def run(self) -> None:
        async with self.store.pool.acquire() as conn:
            after = await load_checkpoint(conn, CHECKPOINT_NAME)
        log.info("relay.start", tx=after.tx, position=after.position)
        async with aclosing(self.store.batches(after, batch=self.batch)) as batches:
            async for events in batches:
                await self.publish(events)
                async with self.store.pool.acquire() as conn:
                    await save_checkpoint(conn, CHECKPOINT_NAME, events[-1].checkpoint)

    async def publish(self, events: list[RecordedEvent]) -> None:
        acks = []
        for event in events:
            subject = self.ns.event_subject(event.category, event.stream_id)
            acks.append(await self.js.publish_async(
                subject, _encoder.encode(EventEnvelope.of(event)), headers={MSG_ID_HEADER: str(event.event_id)},
                stream=self.ns.events_stream,
            ))
        for ack in acks:
            if (await ack).duplicate:
                self.duplicates += 1
        self.published += len(events)
        self.last_position = events[-1].position
        self.last_published_at = time.time()
        log.debug("relay.published", count=len(events), position=self.last_position)
