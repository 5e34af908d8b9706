"""Appends that name the head they build on (``head=``): one statement, the same outcomes as any append."""

from __future__ import annotations

import asyncio

import pytest

from shared.eventstore import ConcurrencyError, EventStore, ExpectedVersion, IdempotencyConflict
from shared.eventstore.appending import Item
from shared.eventstore.chained import insert_after_heads
from shared.eventstore.group_commit import GroupCommit
from shared.eventstore.hashing import GENESIS
from tests.integration.helpers import event, new_stream


async def test_a_writer_that_keeps_the_head_chains_its_appends_and_the_chain_verifies(store: EventStore) -> None:
    stream = new_stream("kh")
    first = await store.append(stream, [event(1), event(2)], ExpectedVersion.NO_STREAM, head=GENESIS)
    second = await store.append(stream, [event(3)], first.last_version, head=first.hash)
    stored = await store.read_stream(stream)
    assert [e.version for e in stored] == [1, 2, 3]
    assert first.hash == stored[1].hash and second.hash == stored[2].hash
    assert list(first.positions) + list(second.positions) == [e.position for e in stored]
    assert (await store.verify(stream)).ok


async def test_one_statement_carries_many_streams_and_leaves_out_a_head_that_moved(store: EventStore) -> None:
    moved, fine, new = new_stream("kh"), new_stream("kh"), new_stream("kh")
    await store.append(moved, [event(1)])
    ok = await store.append(fine, [event(1)], ExpectedVersion.NO_STREAM, head=GENESIS)
    stale = ok.hash  # what a writer of `moved` believes its head is (wrong: another stream's)
    async with store.connection() as conn:
        found = await insert_after_heads(conn, [Item.of(moved, [event(2)], 1, stale),
                                                Item.of(fine, [event(2), event(3)], 1, ok.hash),
                                                Item.of(new, [event(1)], ExpectedVersion.NO_STREAM, GENESIS)])
    assert found[0] is None
    assert found[1] is not None and found[1].versions == (2, 3)
    assert found[2] is not None and found[2].versions == (1,)
    assert [e.version for e in await store.read_stream(moved)] == [1]
    for stream in (fine, new):
        assert (await store.verify(stream)).ok


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
