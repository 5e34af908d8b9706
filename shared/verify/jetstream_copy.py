"""JetStream's copy of the log: every envelope the relay published (an ``EventBatch`` a stream and transaction),
compared with the events table event by event. An event JetStream holds and the table does not was deleted from the
table; one whose content or hash differs was changed after it was published."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import msgspec
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.errors import ServiceUnavailableError

from shared.bus.envelope import EventBatch, EventEnvelope
from shared.bus.namespace import Namespace
from shared.eventstore import Checkpoint, RecordedEvent, category_of, hashing
from shared.verify.findings import Finding

FETCH = 1000
UNAVAILABLE_SECONDS = 15.0
"""How long a fetch answered "unavailable" is asked again: on a cluster a new consumer (or a stream whose server was
just restarted) has no leader for a moment."""
_batch = msgspec.json.Decoder(EventBatch)
_envelope = msgspec.json.Decoder(EventEnvelope)
_fields = msgspec.json.Decoder(dict[str, msgspec.Raw])
_encoder = msgspec.json.Encoder()


async def read_copy(js: JetStreamContext, ns: Namespace, findings: list[Finding], stream_id: str | None = None
                    ) -> list[EventEnvelope]:
    """Every message of both of the relay's streams (public events, and those private to seats), or only those of
    ``stream_id``: the public stream's first, each in its stream's order."""
    if stream_id is None:
        wanted = [(ns.events_stream, ns.all_events, True), (ns.private_events_stream, ns.all_private_events, True)]
    else:
        category = category_of(stream_id)
        wanted = [(ns.events_stream, ns.event_subject(category, stream_id), False),
                  (ns.private_events_stream, ns.private_event_subject(category, stream_id), False)]
    copies: list[EventEnvelope] = []
    for stream, subject, whole in wanted:
        copies += await _read_stream(js, stream, subject, whole, findings)
    return copies


async def _read_stream(js: JetStreamContext, stream: str, subject: str, whole: bool, findings: list[Finding]
                       ) -> list[EventEnvelope]:
    info = await js.stream_info(stream, subjects_filter=subject)
    total = info.state.messages if whole else sum((info.state.subjects or {}).values())
    if not total:
        return []
    subscription = await js.pull_subscribe(subject, stream=stream, config=ConsumerConfig(
        deliver_policy=DeliverPolicy.ALL, ack_policy=AckPolicy.NONE))
    copies: list[EventEnvelope] = []
    seen = 0
    unavailable_until = time.monotonic() + UNAVAILABLE_SECONDS
    try:
        while seen < total:
            try:
                messages = await subscription.fetch(FETCH, timeout=5)
            except TimeoutError:
                break
            except ServiceUnavailableError:
                if time.monotonic() > unavailable_until:
                    raise
                await asyncio.sleep(0.5)
                continue
            for msg in messages:
                seen += 1
                try:
                    copies += envelopes_of(msg.data)
                except msgspec.DecodeError as error:
                    findings.append(Finding(check="JetStream's copy is readable",
                                            found=f"message {msg.metadata.sequence.stream}: {error}"))
    finally:
        await subscription.unsubscribe()
    if seen < total:
        findings.append(Finding(check="JetStream's copy is read whole", found=f"read {seen} of {total} messages"))
    return copies


def envelopes_of(data: bytes) -> list[EventEnvelope]:
    """A message's events: an ``EventBatch``, or one ``EventEnvelope`` as the relay published before version 2 of
    the contract (a log relayed before the upgrade keeps those)."""
    try:
        return _batch.decode(data).events
    except msgspec.ValidationError as not_a_batch:
        try:
            return [_envelope.decode(data)]
        except msgspec.ValidationError:
            if "events" in _fields.decode(data):  # a batch with a bad event: say what is wrong with that
                raise not_a_batch from None
            raise


def _differs(event: RecordedEvent, copy: EventEnvelope) -> str | None:
    if (copy.stream_id, copy.version) != (event.stream_id, event.version):
        return f"JetStream has it as {copy.stream_id} v{copy.version}"
    if (copy.type, copy.schema_version) != (event.type, event.schema_version):
        return f"type {event.type} v{event.schema_version}, JetStream's copy {copy.type} v{copy.schema_version}"
    if hashing.canonical_json(bytes(copy.data)) != hashing.canonical_json(event.data):
        return "its data differ from JetStream's copy"
    if copy.metadata != event.metadata:
        return f"its metadata differ from JetStream's copy ({_encoder.encode(copy.metadata).decode()})"
    if copy.hash is not None and copy.hash != event.hash.hex():
        return f"hash {event.hash.hex()}, JetStream's copy {copy.hash} (the chain was re-hashed)"
    return None


@dataclass
class Comparison:
    """Fed the table's events in read order (``see``), then ``finish``: findings, at most the first per stream and
    kind (with how many more), so that a re-hashed stream is one finding, not one per event."""

    copies: list[EventEnvelope]
    relayed: Checkpoint
    """The relay's checkpoint: events up to it must be in JetStream."""
    compared: int = 0
    unpublished: int = 0
    _by_id: dict[uuid.UUID, EventEnvelope] = field(default_factory=dict)
    _first: dict[tuple[str, str], Finding] = field(default_factory=dict)
    _more: Counter[tuple[str, str]] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        counts = Counter(c.event_id for c in self.copies)
        for copy in self.copies:
            if counts[copy.event_id] > 1:
                self._note(Finding(check="each event is in JetStream once", stream_id=copy.stream_id,
                                   version=copy.version, event_id=copy.event_id,
                                   found=f"published {counts[copy.event_id]} times"))
            self._by_id[copy.event_id] = copy

    def _note(self, finding: Finding) -> None:
        key = (finding.stream_id or "", finding.check)
        if key in self._first:
            self._more[key] += 1
        else:
            self._first[key] = finding

    def see(self, event: RecordedEvent) -> None:
        copy = self._by_id.pop(event.event_id, None)
        if copy is None:
            if event.checkpoint <= self.relayed:
                self._note(Finding(check="every relayed event is in JetStream", stream_id=event.stream_id,
                                   version=event.version, event_id=event.event_id,
                                   found="in the table, before the relay's checkpoint, but not in JetStream"))
            else:
                self.unpublished += 1
            return
        self.compared += 1
        if (difference := _differs(event, copy)) is not None:
            self._note(Finding(check="the event is the one JetStream holds", stream_id=event.stream_id,
                               version=event.version, event_id=event.event_id, found=difference))

    def finish(self) -> list[Finding]:
        for copy in self._by_id.values():
            self._note(Finding(check="every event JetStream holds is in the table", stream_id=copy.stream_id,
                               version=copy.version, event_id=copy.event_id,
                               found=f"{copy.type} (position {copy.position}) is in JetStream but not in the table: "
                                     "deleted"))
        out = []
        for key, finding in self._first.items():
            more = self._more[key]
            out.append(finding if not more else msgspec.structs.replace(
                finding, found=f"{finding.found} (and {more} more events of this stream)"))
        return out
