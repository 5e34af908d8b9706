"""Appends that name the head they build on (``head=``): one statement, or COPY for a big flush, with the same
outcomes as any append."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

import asyncpg
import pytest

from shared.eventstore import AppendResult, ConcurrencyError, EventStore, ExpectedVersion, IdempotencyConflict
from shared.eventstore.appending import Item
from shared.eventstore.chained import COPY_FROM, copy_after_heads, insert_after_heads
from shared.eventstore.group_commit import GroupCommit
from shared.eventstore.hashing import GENESIS
from tests.integration.helpers import event, new_stream

Way = Callable[[asyncpg.Connection, Sequence[Item]], Awaitable[list[AppendResult | None]]]
WAYS = pytest.mark.parametrize("way", [insert_after_heads, copy_after_heads], ids=["one-statement", "copy"])


async def test_a_writer_that_keeps_the_head_chains_its_appends_and_the_chain_verifies(store: EventStore) -> None:
    stream = new_stream("kh")
    first = await store.append(stream, [event(1), event(2)], ExpectedVersion.NO_STREAM, head=GENESIS)
    second = await store.append(stream, [event(3)], first.last_version, head=first.hash)
    stored = await store.read_stream(stream)
    assert [e.version for e in stored] == [1, 2, 3]
    assert first.hash == stored[1].hash and second.hash == stored[2].hash
    assert list(first.positions) + list(second.positions) == [e.position for e in stored]
    assert (await store.verify(stream)).ok


@WAYS
async def test_one_call_carries_many_streams_and_leaves_out_a_head_that_moved(store: EventStore, way: Way) -> None:
    moved, fine, new = new_stream("kh"), new_stream("kh"), new_stream("kh")
    await store.append(moved, [event(1)])
    ok = await store.append(fine, [event(1)], ExpectedVersion.NO_STREAM, head=GENESIS)
    stale = ok.hash  # what a writer of `moved` believes its head is (wrong: another stream's)
    async with store.connection() as conn:
        found = await way(conn, [Item.of(moved, [event(2)], 1, stale),
                                 Item.of(fine, [event(2), event(3)], 1, ok.hash),
                                 Item.of(new, [event(1)], ExpectedVersion.NO_STREAM, GENESIS)])
    assert found[0] is None
    assert found[1] is not None and found[1].versions == (2, 3)
    assert found[2] is not None and found[2].versions == (1,)
    assert [e.version for e in await store.read_stream(moved)] == [1]
    for stream, result in ((fine, found[1]), (new, found[2])):
        stored = await store.read_stream(stream)
        assert result.positions == tuple(e.position for e in stored[-len(result.positions):])
        assert result.hash == stored[-1].hash
        assert (await store.verify(stream)).ok


@WAYS
async def test_a_version_or_an_id_stored_already_fails_the_whole_call(store: EventStore, way: Way) -> None:
    taken, other, first = new_stream("kh"), new_stream("kh"), event(1)
    done = await store.append(taken, [first], ExpectedVersion.NO_STREAM, head=GENESIS)
    for clash in (Item.of(taken, [event(2)], ExpectedVersion.NO_STREAM, GENESIS),  # version 1 is taken
                  Item.of(new_stream("kh"), [first], ExpectedVersion.NO_STREAM, GENESIS)):  # so is this id
        async with store.connection() as conn:
            with pytest.raises(asyncpg.UniqueViolationError):
                await way(conn, [Item.of(other, [event(1)], ExpectedVersion.NO_STREAM, GENESIS), clash])
    assert await store.read_stream(other) == []
    assert [e.event_id for e in await store.read_stream(taken)] == [first.event_id]
    assert done.versions == (1,)


async def test_a_clash_on_a_version_or_an_id_is_decided_the_slow_way_with_its_usual_outcome(store: EventStore) -> None:
    stream, first = new_stream("kh"), event(1)
    done = await store.append(stream, [first], ExpectedVersion.NO_STREAM, head=GENESIS)
    with pytest.raises(ConcurrencyError) as behind:  # another writer took version 1 first: a GENESIS head is stale
        await store.append(stream, [event(2)], ExpectedVersion.NO_STREAM, head=GENESIS)
    assert behind.value.actual == 1
    again = await store.append(stream, [first], ExpectedVersion.NO_STREAM, head=GENESIS)  # a retry: same ids
    assert again.duplicate and again.positions == done.positions
    with pytest.raises(IdempotencyConflict):
        await store.append(new_stream("kh"), [first], ExpectedVersion.NO_STREAM, head=GENESIS)


async def test_a_retry_inside_the_callers_transaction_is_a_duplicate_and_the_transaction_goes_on(
        store: EventStore) -> None:
    stream, other, first = new_stream("kh"), new_stream("kh"), event(1)
    await store.append(stream, [first], ExpectedVersion.NO_STREAM, head=GENESIS)
    async with store.pool.acquire() as conn, conn.transaction():
        held = store.on(conn)
        again = await held.append(stream, [first], ExpectedVersion.NO_STREAM, head=GENESIS)
        await held.append(other, [event(3)], ExpectedVersion.NO_STREAM, head=GENESIS)
    assert again.duplicate
    assert [e.version for e in await store.read_stream(other)] == [1]


async def test_a_big_flush_goes_by_copy_with_every_outcome_a_small_one_has(store: EventStore) -> None:
    """A flush of COPY_FROM events or more, in the caller's transaction: first every stream's next events, then
    with one item a retry (its events stored already), one behind (its version taken), one with a stale head: the
    rest go in, and the transaction goes on."""
    games = [new_stream("kh") for _ in range(COPY_FROM // 2)]
    async with store.pool.acquire() as conn, conn.transaction():
        opened = await store.on(conn).append_items(
            [Item.of(game, [event(1), event(2)], ExpectedVersion.NO_STREAM, GENESIS) for game in games])
    for game, result in zip(games, opened, strict=True):
        stored = await store.read_stream(game)
        assert isinstance(result, AppendResult) and result.versions == (1, 2) and not result.duplicate
        assert result.positions == tuple(e.position for e in stored) and result.hash == stored[-1].hash
    retried, behind, stale, first = new_stream("kh"), new_stream("kh"), new_stream("kh"), event(1)
    done = await store.append(retried, [first], ExpectedVersion.NO_STREAM, head=GENESIS)
    taken = await store.append(behind, [event(1)], ExpectedVersion.NO_STREAM, head=GENESIS)
    await store.append(stale, [event(1)], ExpectedVersion.NO_STREAM, head=GENESIS)
    fresh = [new_stream("kh") for _ in range(COPY_FROM // 4)]
    items = [Item.of(retried, [first], ExpectedVersion.NO_STREAM, GENESIS),
             Item.of(behind, [event(2)], ExpectedVersion.NO_STREAM, GENESIS),
             Item.of(stale, [event(2)], 1, taken.hash),
             *(Item.of(stream, [event(n) for n in range(4)], ExpectedVersion.NO_STREAM, GENESIS) for stream in fresh)]
    assert sum(len(item.ids) for item in items) >= COPY_FROM
    async with store.pool.acquire() as conn, conn.transaction():
        found = await store.on(conn).append_items(items)
        await store.on(conn).append(new_stream("kh"), [event(9)], ExpectedVersion.NO_STREAM, head=GENESIS)
    assert isinstance(found[0], AppendResult) and found[0].duplicate and found[0].positions == done.positions
    assert isinstance(found[1], ConcurrencyError) and found[1].actual == 1
    assert isinstance(found[2], AppendResult) and found[2].versions == (2,)  # decided by its expected version
    for stream, result in zip(fresh, found[3:], strict=True):
        assert isinstance(result, AppendResult) and result.versions == (1, 2, 3, 4)
        stored = await store.read_stream(stream)
        assert result.positions == tuple(e.position for e in stored) and result.hash == stored[-1].hash
        assert (await store.verify(stream)).ok


async def test_the_group_commit_flushes_many_games_with_known_heads_in_one_statement(store: EventStore) -> None:
    games = [new_stream("kh") for _ in range(40)]
    async with GroupCommit(store, max_streams=64, max_delay=0.005) as committer:

        async def play(game: str) -> None:
            version, head = 0, GENESIS
            for turn in range(5):
                result = await committer.append(game, [event(turn), event(turn + 100)],
                                                version or ExpectedVersion.NO_STREAM, head=head)
                assert result.hash is not None
                version, head = result.last_version, result.hash

        await asyncio.gather(*(play(game) for game in games))
    assert committer.flushes < 40 * 5 / 4, "appends were not grouped"
    for game in games:
        stored = await store.read_stream(game)
        assert [e.version for e in stored] == list(range(1, 11))
        assert (await store.verify(game)).ok
