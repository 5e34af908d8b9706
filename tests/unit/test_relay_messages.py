"""How the relay cuts whole transactions of the log into JetStream messages (``services.relay.relay.messages_of``),
and how the log check reads them back."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import msgspec
import pytest

from services.relay.relay import message_id, messages_of
from shared.bus.envelope import BATCH_BYTES, BATCH_EVENTS, EventBatch, EventEnvelope
from shared.bus.namespace import Namespace
from shared.eventstore import Metadata, RecordedEvent
from shared.verify.jetstream_copy import envelopes_of

NS = Namespace("t")
_position = iter(range(1, 1_000_000))


def recorded(stream_id: str, version: int, tx: int, *, seats: tuple[int, ...] | None = None,
             data: bytes = b'{"n":1}') -> RecordedEvent:
    return RecordedEvent(position=next(_position), tx=tx, event_id=uuid.uuid4(), stream_id=stream_id, version=version,
                         type="test.Happened", schema_version=1, data=data,
                         metadata=Metadata(correlation_id="c", actor="tester", visibility=seats),
                         recorded_at=datetime.now(UTC), prev_hash=b"", hash=bytes(32))


def decoded(payload: bytes) -> list[uuid.UUID]:
    return [e.event_id for e in msgspec.json.decode(payload, type=EventBatch).events]


def test_one_message_a_stream_and_transaction_its_id_its_first_event_and_count_in_the_log_order() -> None:
    a1, b1 = recorded("hockeydice-a", 1, 10), recorded("hockeydice-b", 1, 10)
    a2, b2 = recorded("hockeydice-a", 2, 10), recorded("hockeydice-b", 2, 10)
    a3 = recorded("hockeydice-a", 3, 11)
    out = messages_of([a1, b1, a2, b2, a3], NS)
    assert [(m.subject, m.msg_id, m.stream) for m in out] == [
        (NS.event_subject("hockeydice", "hockeydice-a"), f"{a1.event_id}+2", NS.events_stream),
        (NS.event_subject("hockeydice", "hockeydice-b"), f"{b1.event_id}+2", NS.events_stream),
        (NS.event_subject("hockeydice", "hockeydice-a"), f"{a3.event_id}+1", NS.events_stream)]
    assert [decoded(m.payload) for m in out] == [[a1.event_id, a2.event_id], [b1.event_id, b2.event_id],
                                                 [a3.event_id]]


def test_events_private_to_seats_go_apart_to_the_private_subject() -> None:
    shown, hidden, also_shown = (recorded("phantoms-s", 1, 5), recorded("phantoms-s", 2, 5, seats=(0,)),
                                 recorded("phantoms-s", 3, 5))
    public, private = messages_of([shown, hidden, also_shown], NS)
    assert (public.subject, public.stream) == (NS.event_subject("phantoms", "phantoms-s"), NS.events_stream)
    assert (private.subject, private.stream) == (NS.private_event_subject("phantoms", "phantoms-s"),
                                                 NS.private_events_stream)
    assert decoded(public.payload) == [shown.event_id, also_shown.event_id]
    assert decoded(private.payload) == [hidden.event_id]
    assert private.msg_id == f"{hidden.event_id}+1"


def test_a_long_transaction_fills_messages_of_at_most_so_many_events_and_bytes() -> None:
    many = [recorded("tournament-t", v, 7) for v in range(1, 2 * BATCH_EVENTS + 2)]
    assert [len(decoded(m.payload)) for m in messages_of(many, NS)] == [BATCH_EVENTS, BATCH_EVENTS, 1]

    blob = b'{"deck":"' + b"x" * (BATCH_BYTES // 3) + b'"}'
    heavy = [recorded("phantoms-h", v, 8, data=blob) for v in range(1, 6)]
    out = messages_of(heavy, NS)
    assert [len(decoded(m.payload)) for m in out] == [2, 2, 1]
    assert all(len(m.payload) <= BATCH_BYTES + 64 for m in out)
    assert [m.msg_id for m in out] == [f"{heavy[0].event_id}+2", f"{heavy[2].event_id}+2", f"{heavy[4].event_id}+1"]


def test_a_message_cut_otherwise_never_shares_its_id_with_one_published_before() -> None:
    """JetStream drops a message whose id it holds: were the id only the first event's, a transaction re-cut after
    the relay of contract 1 (one event a message, its id the event's) had published part of it would be dropped
    whole, and its other events lost."""
    events = [recorded("hockeydice-u", v, 9) for v in range(1, 6)]
    (batch,) = messages_of(events, NS)
    assert batch.msg_id not in {str(e.event_id) for e in events}
    assert batch.msg_id != message_id(events[0], 3), "cut after three events, the message would be another"
    (again,) = messages_of(events, NS)
    assert again.msg_id == batch.msg_id, "the same events make the same id: a restarted relay's repeat is dropped"


def test_the_log_check_reads_messages_of_both_contract_versions() -> None:
    first, second = recorded("vortex-v", 1, 3), recorded("vortex-v", 2, 3)
    (batch,) = messages_of([first, second], NS)
    assert [e.event_id for e in envelopes_of(batch.payload)] == [first.event_id, second.event_id]
    one = msgspec.json.encode(EventEnvelope.of(first))  # what version 1 published: one envelope a message
    assert [e.event_id for e in envelopes_of(one)] == [first.event_id]
    with pytest.raises(msgspec.DecodeError):
        envelopes_of(b'{"events": 3}')
    with pytest.raises(msgspec.ValidationError, match=r"\$\.events\[0\]"):  # the batch's fault, not an envelope's
        envelopes_of(b'{"events": [{"event_id": "not an id"}]}')
    with pytest.raises(msgspec.DecodeError):
        envelopes_of(b"not json")
