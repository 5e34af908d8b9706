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


async def test_a_big_flush_goes_by_copy_in_the_callers_transaction_and_leaves_out_a_stale_head(
        store: EventStore) -> None:
    """COPY_FROM events or more, in a caller's transaction that has written already: the fitting items go in by COPY
    (their positions read back among the caller's own rows), the stale head is decided the slow way, the
    transaction goes on."""
    stale = new_stream("kh")
    mine = await store.append(stale, [event(1)], ExpectedVersion.NO_STREAM, head=GENESIS)
    games = [new_stream("kh") for _ in range(COPY_FROM // 2)]
    before, after = new_stream("kh"), new_stream("kh")
    async with store.pool.acquire() as conn, conn.transaction():
        held = store.on(conn)
        await held.append(before, [event(1), event(2)], ExpectedVersion.NO_STREAM, head=GENESIS)
        found = await held.append_items(
            [Item.of(stale, [event(2)], 1, GENESIS),  # a head that is not the stream's
             *(Item.of(game, [event(1), event(2)], ExpectedVersion.NO_STREAM, GENESIS) for game in games)])
        await held.append(after, [event(3)], ExpectedVersion.NO_STREAM, head=GENESIS)
    assert isinstance(found[0], AppendResult) and found[0].versions == (2,)  # decided by its expected version
    assert (await store.read_stream(stale))[0].hash == mine.hash
    for game, result in zip(games, found[1:], strict=True):
        stored = await store.read_stream(game)
        assert isinstance(result, AppendResult) and result.versions == (1, 2) and not result.duplicate
        assert result.positions == tuple(e.position for e in stored) and result.hash == stored[-1].hash
        assert (await store.verify(game)).ok
    assert [len(await store.read_stream(stream)) for stream in (before, after)] == [2, 1]


async def test_a_clash_in_a_big_flush_gives_every_item_the_outcome_it_would_have_alone(store: EventStore) -> None:
    """COPY_FROM events or more, one item a retry (its events stored already) and one behind (its version taken):
    the COPY changes nothing, and the slow way decides every item, in the caller's transaction, which goes on."""
    retried, behind, first = new_stream("kh"), new_stream("kh"), event(1)
    done = await store.append(retried, [first], ExpectedVersion.NO_STREAM, head=GENESIS)
    await store.append(behind, [event(1)], ExpectedVersion.NO_STREAM, head=GENESIS)
    fresh = [new_stream("kh") for _ in range(COPY_FROM // 4)]
    items = [Item.of(retried, [first], ExpectedVersion.NO_STREAM, GENESIS),
             Item.of(behind, [event(2)], ExpectedVersion.NO_STREAM, GENESIS),
             *(Item.of(stream, [event(n) for n in range(4)], ExpectedVersion.NO_STREAM, GENESIS) for stream in fresh)]
    assert sum(len(item.ids) for item in items) >= COPY_FROM
    async with store.pool.acquire() as conn, conn.transaction():
        found = await store.on(conn).append_items(items)
        await store.on(conn).append(new_stream("kh"), [event(9)], ExpectedVersion.NO_STREAM, head=GENESIS)
    assert isinstance(found[0], AppendResult) and found[0].duplicate and found[0].positions == done.positions
    assert isinstance(found[1], ConcurrencyError) and found[1].actual == 1
    for stream, result in zip(fresh, found[2:], strict=True):
        assert isinstance(result, AppendResult) and result.versions == (1, 2, 3, 4)
        assert (await store.verify(stream)).ok


async def test_two_writers_that_deadlock_each_get_the_outcomes_they_would_have_alone(store: EventStore) -> None:
    """Two flushes take the same two new games in opposite orders (a stale owner and the new one): PostgreSQL rolls
    one back whole to break the deadlock; its items are decided the slow way instead of failing the flush."""
    x, y, held_a, held_b = (new_stream("kh") for _ in range(4))
    async with store.pool.acquire() as holder, store.pool.acquire() as watcher:
        hold = holder.transaction()
        await hold.start()
        for stream in (held_a, held_b):  # both flushes stop at these rows after their first, until they are let go
            await store.on(holder).append(stream, [event(0)], ExpectedVersion.NO_STREAM)
        first = asyncio.create_task(store.append_items([Item.of(s, [event(n)], ExpectedVersion.NO_STREAM, GENESIS)
                                                        for n, s in enumerate((x, held_a, y), start=1)]))
        second = asyncio.create_task(store.append_items([Item.of(s, [event(n)], ExpectedVersion.NO_STREAM, GENESIS)
                                                         for n, s in enumerate((y, held_b, x), start=4)]))
        try:
            for _ in range(500):
                waiting = await watcher.fetchval("SELECT count(*) FROM pg_locks WHERE NOT granted"
                                                 " AND $1 = ANY(pg_blocking_pids(pid))", holder.get_server_pid())
                if waiting >= 2:
                    break
                await asyncio.sleep(0.01)
            assert waiting >= 2, "both flushes should wait on the held rows"
        finally:
            await hold.rollback()
        outcomes = await asyncio.wait_for(asyncio.gather(first, second), 30)
    won, lost = sorted(outcomes, key=lambda found: sum(isinstance(o, ConcurrencyError) for o in found))
    assert all(isinstance(o, AppendResult) for o in won)
    assert [type(o) for o in lost] == [ConcurrencyError, AppendResult, ConcurrencyError]
    for stream in (x, y, held_a, held_b):
        assert [e.version for e in await store.read_stream(stream)] == [1]
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
