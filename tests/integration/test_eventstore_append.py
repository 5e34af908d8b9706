from __future__ import annotations

import asyncio
import uuid

import msgspec
import pytest

from shared.eventstore import (
    ConcurrencyError,
    EventStore,
    ExpectedVersion,
    IdempotencyConflict,
    InvalidStreamId,
    Metadata,
)
from tests.integration.helpers import event, new_stream


async def test_two_appends_with_the_same_expected_version_one_wins(store: EventStore) -> None:
    for _ in range(20):
        stream = new_stream()
        await store.append(stream, [event(1), event(2)], ExpectedVersion.NO_STREAM)
        results = await asyncio.gather(
            store.append(stream, [event(3)], 2), store.append(stream, [event(4)], 2), return_exceptions=True
        )
        errors = [r for r in results if isinstance(r, Exception)]
        assert len(errors) == 1, results
        assert isinstance(errors[0], ConcurrencyError)
        assert errors[0].expected == 2 and errors[0].actual == 3
        assert "expected version 2, actual version 3" in str(errors[0])
        assert await store.stream_version(stream) == 3


async def test_no_stream_rejects_an_existing_stream(store: EventStore) -> None:
    stream = new_stream()
    await store.append(stream, [event()], ExpectedVersion.NO_STREAM)
    with pytest.raises(ConcurrencyError) as caught:
        await store.append(stream, [event()], ExpectedVersion.NO_STREAM)
    assert caught.value.actual == 1


async def test_exact_version_must_match(store: EventStore) -> None:
    stream = new_stream()
    with pytest.raises(ConcurrencyError):
        await store.append(stream, [event()], 1)
    await store.append(stream, [event()], 0)
    result = await store.append(stream, [event(), event()], 1)
    assert result.versions == (2, 3)


async def test_any_appends_whatever_the_version_even_concurrently(store: EventStore) -> None:
    stream = new_stream()
    await asyncio.gather(*(store.append(stream, [event(i)], ExpectedVersion.ANY) for i in range(30)))
    events = await store.read_stream(stream)
    assert [e.version for e in events] == list(range(1, 31))
    assert sorted(msgspec.json.decode(e.data)["n"] for e in events) == list(range(30))


async def test_reappending_the_same_event_ids_returns_the_original_positions(store: EventStore) -> None:
    stream = new_stream()
    batch = [event(1), event(2), event(3)]
    first = await store.append(stream, batch, ExpectedVersion.NO_STREAM)
    again = await store.append(stream, batch, ExpectedVersion.NO_STREAM)
    concurrent = await asyncio.gather(*(store.append(stream, batch, 0) for _ in range(5)))
    assert not first.duplicate
    assert again.duplicate and again.positions == first.positions and again.versions == (1, 2, 3)
    assert all(r.duplicate and r.positions == first.positions for r in concurrent)
    assert len(await store.read_stream(stream)) == 3


async def test_concurrent_first_appends_of_the_same_ids_store_them_once(store: EventStore) -> None:
    stream = new_stream()
    batch = [event(1), event(2)]
    results = await asyncio.gather(*(store.append(stream, batch, ExpectedVersion.ANY) for _ in range(8)))
    assert len({r.positions for r in results}) == 1
    assert sum(not r.duplicate for r in results) == 1
    assert len(await store.read_stream(stream)) == 2


async def test_partly_known_event_ids_are_refused(store: EventStore) -> None:
    stream = new_stream()
    known = event(1)
    await store.append(stream, [known])
    with pytest.raises(IdempotencyConflict):
        await store.append(stream, [known, event(2)])
    with pytest.raises(IdempotencyConflict):
        await store.append(new_stream(), [known])
    assert len(await store.read_stream(stream)) == 1


async def test_a_batch_is_atomic(store: EventStore) -> None:
    stream = new_stream()
    first = event(1)
    await store.append(stream, [first])
    clash = event(3)
    clash = msgspec.structs.replace(clash, event_id=first.event_id)
    with pytest.raises(IdempotencyConflict):
        await store.append(stream, [event(2), clash])
    assert [e.version for e in await store.read_stream(stream)] == [1]


async def test_read_stream_from_a_version(store: EventStore) -> None:
    stream = new_stream()
    await store.append(stream, [event(i) for i in range(10)])
    tail = await store.read_stream(stream, from_version=7)
    assert [e.version for e in tail] == [7, 8, 9, 10]
    assert [msgspec.json.decode(e.data)["n"] for e in tail] == [6, 7, 8, 9]
    assert [e.version for e in await store.read_stream(stream, 2, limit=2)] == [2, 3]
    assert await store.read_stream(new_stream()) == []


async def test_metadata_is_stored_with_every_event(store: EventStore) -> None:
    stream = new_stream()
    metadata = Metadata(correlation_id="c-1", causation_id="e-0", actor="player:7", command_id="cmd-9",
                        visibility=(1,))
    new = msgspec.structs.replace(event(), metadata=metadata)
    await store.append(stream, [new])
    (stored,) = await store.read_stream(stream)
    assert stored.metadata == metadata
    assert stored.event_id == new.event_id and stored.type == "test.Happened" and stored.schema_version == 1
    assert stored.category == "test"


@pytest.mark.parametrize("bad", ["", "nocategory", "Upper-1", "a-b.c", "a-b c", "a-*", "-x"])
async def test_stream_ids_must_be_category_dash_id(store: EventStore, bad: str) -> None:
    with pytest.raises(InvalidStreamId):
        await store.append(bad, [event()])


async def test_event_ids_are_unique_across_streams(store: EventStore) -> None:
    one = event()
    await store.append(new_stream(), [one])
    other = msgspec.structs.replace(event(), event_id=uuid.UUID(str(one.event_id)))
    with pytest.raises(IdempotencyConflict):
        await store.append(new_stream(), [other])
