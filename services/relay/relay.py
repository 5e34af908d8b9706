"""Publishes each stored event to ``events.<category>.<stream_id>`` (one visible only to some seats to
``private.<category>.<stream_id>``) with ``Nats-Msg-Id`` = event id, a batch of the log written at once
(``shared.bus.acked_publish``).

The checkpoint is saved only after JetStream acknowledged the whole batch, so a relay killed at any moment
re-publishes at most its last batch on restart, and JetStream's duplicate window drops those repeats. A batch
whose acknowledgements do not all arrive within ``ack_timeout`` raises ``RelayStalled``: the batch's future has
no deadline of its own, so without it a lost ack or a hung server would stop the relay for ever while it
still looked alive. The service's supervisor then runs it again from the stored checkpoint.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import aclosing

import msgspec

from shared.bus.acked_publish import AckedPublisher, Batch, Outgoing
from shared.bus.envelope import EventEnvelope
from shared.bus.namespace import Namespace
from shared.eventstore import EventStore, RecordedEvent
from shared.eventstore.checkpoints import load_checkpoint, save_checkpoint
from shared.logging import get_logger

CHECKPOINT_NAME = "relay"
log = get_logger(__name__)
_encoder = msgspec.json.Encoder()


class RelayStalled(Exception):
    pass


class Relay:
    def __init__(self, store: EventStore, publisher: AckedPublisher, ns: Namespace, *, batch: int = 500,
                 ack_timeout: float = 10.0, checkpoint: str = CHECKPOINT_NAME) -> None:
        self.store = store
        self.publisher = publisher
        self.ns = ns
        self.batch = batch
        self.ack_timeout = ack_timeout
        self.checkpoint = checkpoint
        self.published = 0
        self.duplicates = 0
        self.stalls = 0
        self.last_position = 0
        self.last_published_at = 0.0

    async def run(self) -> None:
        async with self.store.pool.acquire() as conn:
            after = await load_checkpoint(conn, self.checkpoint)
        log.info("relay.start", tx=after.tx, position=after.position)
        async with aclosing(self.store.batches(after, batch=self.batch)) as batches:
            async for events in batches:
                await self.publish(events)
                async with self.store.pool.acquire() as conn:
                    await save_checkpoint(conn, self.checkpoint, events[-1].checkpoint)

    def outgoing(self, event: RecordedEvent) -> Outgoing:
        """Public events where dashboards read; an event visible only to some seats (or to none until its game
        ends) on the private stream, which only auditors may read."""
        payload = _encoder.encode(EventEnvelope.of(event))
        if event.metadata.visibility is None:
            return Outgoing(self.ns.event_subject(event.category, event.stream_id), payload, str(event.event_id),
                            self.ns.events_stream)
        return Outgoing(self.ns.private_event_subject(event.category, event.stream_id), payload, str(event.event_id),
                        self.ns.private_events_stream)

    async def publish(self, events: list[RecordedEvent]) -> None:
        batch: Batch | None = None
        try:
            async with asyncio.timeout(self.ack_timeout):
                batch = await self.publisher.publish_all([self.outgoing(event) for event in events])
                done = await batch.done
        except TimeoutError as error:
            self.stalls += 1
            raise RelayStalled(f"JetStream acknowledged {batch.acked if batch else 0} of {len(events)} events (from"
                               f" position {events[0].position}) within {self.ack_timeout}s") from error
        finally:
            if batch is not None:
                batch.done.cancel()  # forgets the acks that never came (a no-op once all came)
        self.duplicates += sum(1 for ack in done if ack.duplicate)
        self.published += len(events)
        self.last_position = events[-1].position
        self.last_published_at = time.time()
        log.debug("relay.published", count=len(events), position=self.last_position)
