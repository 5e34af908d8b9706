"""Publishes the log to JetStream a transaction at a time: one message for each stream a transaction wrote
(``shared.bus.envelope.EventBatch`` on ``events.<category>.<stream_id>``; the events visible only to some seats in
one of their own on ``private.<category>.<stream_id>``), ``Nats-Msg-Id`` naming its events (``message_id``), a page of
the log written at once (``shared.bus.acked_publish``). A Hockey command's events go out in two messages instead of
five: in three interleaved pairs of ``bench.hot_path --quick`` runs, the relay's and nats-server's share of the
league's CPU fell from 15.2–15.6 % to 12.2–12.7 %.

The checkpoint is saved only after JetStream acknowledged the whole page, so a relay killed at any moment
re-publishes at most its last page on restart. Pages end where transactions end (``whole_transactions``), so the
restarted relay cuts the same messages and JetStream's duplicate window drops those repeats. A page whose
acknowledgements do not all arrive within ``ack_timeout`` raises ``RelayStalled``: the batch's future has no
deadline of its own, so without it a lost ack or a hung server would stop the relay for ever while it still
looked alive. The service's supervisor then runs it again from the stored checkpoint.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import aclosing

import msgspec
from nats.errors import MaxPayloadError

from shared.bus.acked_publish import AckedPublisher, Batch, Outgoing
from shared.bus.envelope import BATCH_BYTES, BATCH_EVENTS, MAX_PAYLOAD, EventEnvelope, batch_payload
from shared.bus.namespace import Namespace
from shared.eventstore import EventStore, RecordedEvent
from shared.eventstore.checkpoints import load_checkpoint, save_checkpoint
from shared.logging import get_logger

CHECKPOINT_NAME = "relay"
log = get_logger(__name__)
_encoder = msgspec.json.Encoder()


def message_id(first: RecordedEvent, events: int) -> str:
    """``Nats-Msg-Id``: the message's first event and how many it holds, so the same id always means the same events.
    JetStream drops the repeat of a message (a relay restarted on a page it had published in part); a message cut
    otherwise (by the relay of contract 1, one event a message, or with other limits) is not dropped for sharing its
    first event with one stored before, so an event may then arrive twice but is never lost."""
    return f"{first.event_id}+{events}"


def messages_of(events: list[RecordedEvent], ns: Namespace) -> list[Outgoing]:
    """The messages of whole transactions' events: public events where dashboards read; those visible only to some
    seats (or to none until their game ends) on the private stream, which only auditors may read."""
    groups: dict[tuple[int, str, bool], list[RecordedEvent]] = {}
    for event in events:
        groups.setdefault((event.tx, event.stream_id, event.metadata.visibility is None), []).append(event)
    messages: list[Outgoing] = []
    for (_, stream_id, public), members in groups.items():
        category = members[0].category
        subject, stream = ((ns.event_subject(category, stream_id), ns.events_stream) if public else
                           (ns.private_event_subject(category, stream_id), ns.private_events_stream))
        parts: list[bytes] = []
        first, size = members[0], 0
        for event in members:
            encoded = _encoder.encode(EventEnvelope.of(event))
            if parts and (len(parts) == BATCH_EVENTS or size + len(encoded) > BATCH_BYTES):
                messages.append(Outgoing(subject, batch_payload(parts), message_id(first, len(parts)), stream))
                parts, first, size = [], event, 0
            parts.append(encoded)
            size += len(encoded) + 1
        messages.append(Outgoing(subject, batch_payload(parts), message_id(first, len(parts)), stream))
    return messages


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
        self.messages = 0
        self.duplicates = 0
        self.stalls = 0
        self.last_position = 0
        self.last_published_at = 0.0

    async def run(self) -> None:
        async with self.store.pool.acquire() as conn:
            after = await load_checkpoint(conn, self.checkpoint)
        log.info("relay.start", tx=after.tx, position=after.position)
        if (max_payload := self.publisher.nc.max_payload) < MAX_PAYLOAD:
            log.warning("relay.small-max-payload", max_payload=max_payload, league_sets=MAX_PAYLOAD,
                        reason="an event too big for one message (a tournament of many thousands) would stop the"
                               " relay: set the NATS server's max_payload as the league's configs do")
        async with aclosing(self.store.pages(after, batch=self.batch, whole_transactions=True)) as pages:
            async for page in pages:
                await self.publish(page.events)
                async with self.store.pool.acquire() as conn:
                    await save_checkpoint(conn, self.checkpoint, page.end)

    async def publish(self, events: list[RecordedEvent]) -> None:
        batch: Batch | None = None
        try:
            async with asyncio.timeout(self.ack_timeout):
                messages = messages_of(events, self.ns)
                batch = await self.publisher.publish_all(messages)
                done = await batch.done
        except MaxPayloadError as error:  # one event alone: messages of several stay under BATCH_BYTES
            biggest = max(messages, key=lambda message: len(message.payload))
            raise RelayStalled(f"{error}: event {biggest.msg_id} on {biggest.subject} cannot be published until the"
                               f" NATS server's max_payload is raised (the league's configs set {MAX_PAYLOAD:,})")\
                from error
        except TimeoutError as error:
            self.stalls += 1
            raise RelayStalled(f"JetStream acknowledged {batch.acked if batch else 0} of {batch.size if batch else '?'}"
                               f" messages ({len(events)} events from position {events[0].position}) within"
                               f" {self.ack_timeout}s") from error
        finally:
            if batch is not None:
                batch.done.cancel()  # forgets the acks that never came (a no-op once all came)
        self.duplicates += sum(1 for ack in done if ack.duplicate)
        self.published += len(events)
        self.messages += len(messages)
        self.last_position = events[-1].position
        self.last_published_at = time.time()
        log.debug("relay.published", events=len(events), messages=len(messages), position=self.last_position)
