from __future__ import annotations

import asyncio

import msgspec
import pytest

from shared.eventstore import (
    AppendResult,
    ConcurrencyError,
    EventStore,
    ExpectedVersion,
    IdempotencyConflict,
    InvalidStreamId,
)
from tests.integration.helpers import event, new_stream


async def test_one_streams_wrong_version_does_not_fail_the_others(store: EventStore) -> None:
    behind, fresh, growing = new_stream(), new_stream(), new_stream()
    await store.append(behind, [event(1), event(2)])
    await store.append(growing, [event(1)])
    retried = [event(7), event(8)]
    first = await store.append(new_stream(), [event(0)])
    twice = new_stream()
    done = await store.append(twice, retried, ExpectedVersion.NO_STREAM)

    outcomes = await store.append_many([
        (behind, [event(3)], 1),  # the stream is at 2
        (fresh, [event(1), event(2), event(3)], ExpectedVersion.NO_STREAM),
        (twice, retried, ExpectedVersion.NO_STREAM),  # the same ids again: the original result
        (growing, [event(2)], ExpectedVersion.ANY),
        (new_stream(), [event(9)], 0),
    ])

    wrong, appended, again, any_, zero = outcomes
    assert isinstance(wrong, ConcurrencyError) and wrong.expected == 1 and wrong.actual == 2
    assert isinstance(appended, AppendResult) and appended.versions == (1, 2, 3) and not appended.duplicate
    assert list(appended.positions) == sorted(appended.positions) and appended.positions[0] > first.positions[0]
    assert again == AppendResult(positions=done.positions, versions=(1, 2), duplicate=True)
    assert isinstance(any_, AppendResult) and any_.versions == (2,)
    assert isinstance(zero, AppendResult) and zero.versions == (1,)
    assert [e.version for e in await store.read_stream(behind)] == [1, 2]
    for stream in (behind, fresh, growing, twice):
        assert (await store.verify(stream)).ok


async def test_id_conflicts_are_per_stream(store: EventStore) -> None:
    known = event(1)
    owner, other, clean = new_stream(), new_stream(), new_stream()
    await store.append(owner, [known])
    outcomes = await store.append_many([
        (owner, [known, event(2)], ExpectedVersion.ANY),  # partly known
        (other, [known], ExpectedVersion.ANY),  # known in another stream
        (clean, [event(3)], ExpectedVersion.NO_STREAM),
    ])
    assert isinstance(outcomes[0], IdempotencyConflict)
    assert isinstance(outcomes[1], IdempotencyConflict)
    assert isinstance(outcomes[2], AppendResult)
    assert [e.version for e in await store.read_stream(owner)] == [1]
    assert await store.read_stream(other) == []


async def test_the_same_event_id_in_two_items_fails_only_the_second(store: EventStore) -> None:
    shared = event(1)
    one, two, three = new_stream(), new_stream(), new_stream()
    outcomes = await store.append_many([
        (one, [shared], ExpectedVersion.NO_STREAM),
        (two, [event(2), shared], ExpectedVersion.NO_STREAM),
        (three, [event(3)], ExpectedVersion.NO_STREAM),
    ])
    assert isinstance(outcomes[0], AppendResult) and isinstance(outcomes[2], AppendResult)
    assert isinstance(outcomes[1], IdempotencyConflict)
    assert await store.read_stream(two) == []


async def test_an_item_the_database_refuses_fails_alone(store: EventStore) -> None:
    bad = msgspec.structs.replace(event(1), data=b'{"text":"\\u0000"}')  # valid JSON, but jsonb refuses NUL
    good = new_stream()
    outcomes = await store.append_many([(new_stream(), [bad], ExpectedVersion.ANY), (good, [event(2)], 0)])
    assert isinstance(outcomes[0], Exception) and not isinstance(outcomes[0], AppendResult)
    assert isinstance(outcomes[1], AppendResult) and outcomes[1].versions == (1,)


async def test_a_malformed_item_is_refused_before_anything_is_sent(store: EventStore) -> None:
    stream = new_stream()
    with pytest.raises(InvalidStreamId):
        await store.append_many([(stream, [event()], ExpectedVersion.ANY), ("Bad", [event()], ExpectedVersion.ANY)])
    with pytest.raises(ValueError, match="at least one event"):
        await store.append_many([(stream, [], ExpectedVersion.ANY)])
    assert await store.read_stream(stream) == []


async def test_concurrent_calls_on_the_same_streams_one_wins_each_stream(store: EventStore) -> None:
    streams = [new_stream() for _ in range(20)]
    for stream in streams:
        await store.append(stream, [event(0)])
    # Two calls race for every stream at version 1, listing the streams in opposite orders; a third appends
    # anywhere. When the third takes version 2 first, neither of the others may win that stream; else one does.
    calls = await asyncio.gather(
        store.append_many([(s, [event(1), event(2)], 1) for s in streams]),
        store.append_many([(s, [event(3)], 1) for s in reversed(streams)]),
        store.append_many([(s, [event(4)], ExpectedVersion.ANY) for s in streams]),
    )
    first, second = calls[0], list(reversed(calls[1]))
    for stream, a, b, c in zip(streams, first, second, calls[2], strict=True):
        assert isinstance(c, AppendResult)
        winners = 0 if c.versions == (2,) else 1
        assert [isinstance(x, AppendResult) for x in (a, b)].count(True) == winners, (a, b, c)
        assert all(isinstance(x, (AppendResult, ConcurrencyError)) for x in (a, b)), (a, b)
        versions = [e.version for e in await store.read_stream(stream)]
        assert versions == list(range(1, len(versions) + 1))
        won = 2 if isinstance(a, AppendResult) else 1 if isinstance(b, AppendResult) else 0
        assert len(versions) == 1 + won + 1
        assert (await store.verify(stream)).ok


async def test_racing_same_ids_in_many_calls_store_each_once(store: EventStore) -> None:
    streams = [new_stream() for _ in range(10)]
    batches = {s: [event(1), event(2)] for s in streams}
    calls = await asyncio.gather(*(store.append_many([(s, batches[s], ExpectedVersion.ANY) for s in streams])
                                   for _ in range(6)))
    for n, stream in enumerate(streams):
        results = [call[n] for call in calls]
        assert all(isinstance(r, AppendResult) for r in results), results
        assert len({r.positions for r in results if isinstance(r, AppendResult)}) == 1
        assert sum(isinstance(r, AppendResult) and not r.duplicate for r in results) == 1
        assert [e.version for e in await store.read_stream(stream)] == [1, 2]


async def test_on_commit_is_called_after_a_call_that_added_events(store: EventStore) -> None:
    calls: list[int] = []
    hooked = EventStore(store.pool, on_commit=lambda: calls.append(1))
    stream = new_stream()
    batch = [event(1)]
    await hooked.append(stream, batch)
    assert calls == [1]
    await hooked.append(stream, batch)  # a duplicate adds nothing
    with pytest.raises(ConcurrencyError):
        await hooked.append(stream, [event(2)], 5)
    assert calls == [1]
    await hooked.append_many([(stream, [event(2)], 1), (new_stream(), [event(3)], 0)])
    assert calls == [1, 1]


async def test_one_stream_twice_in_a_call_is_appended_as_if_one_after_the_other(store: EventStore) -> None:
    stream, other = new_stream(), new_stream()
    outcomes = await store.append_many([
        (stream, [event(1)], ExpectedVersion.NO_STREAM),
        (other, [event(2)], ExpectedVersion.NO_STREAM),
        (stream, [event(3)], ExpectedVersion.NO_STREAM),  # the first made the stream exist
        (stream, [event(4), event(5)], ExpectedVersion.ANY),
    ])
    first, _, again, any_ = outcomes
    assert isinstance(first, AppendResult) and first.versions == (1,)
    assert isinstance(again, ConcurrencyError) and again.actual >= 1
    assert isinstance(any_, AppendResult) and any_.versions[-1] == 3
    assert [e.version for e in await store.read_stream(stream)] == [1, 2, 3]
    assert (await store.verify(stream)).ok
