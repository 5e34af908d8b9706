"""A reader's lag costs the same however far behind it is: counted exactly below the cap, estimated from positions
from it on. Each case reads a reference in the same snapshot (other tests append to this database meanwhile)."""

from __future__ import annotations

import asyncpg

from shared.eventstore import EventStore, ExpectedVersion
from shared.eventstore.behind import behind
from tests.integration.helpers import event, new_stream

REFERENCE = """
    SELECT (SELECT count(*) FROM events WHERE (tx, position) > ($1::bigint::text::xid8, $2::bigint)),
           (SELECT max(position) FROM events)
"""


async def appended(store: EventStore, count: int) -> tuple[int, int]:
    """The checkpoint of the first of ``count`` new events (so that at least ``count - 1`` follow it)."""
    stream = new_stream("behind")
    await store.append(stream, [event(n) for n in range(count)], ExpectedVersion.NO_STREAM)
    first = (await store.read_stream(stream))[0].checkpoint
    return first.tx, first.position


async def test_below_the_cap_the_events_behind_are_counted_exactly(store: EventStore, pool: asyncpg.Pool) -> None:
    tx, position = await appended(store, 5)
    async with pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
        found = await behind(conn, tx, position, cap=1_000_000)
        exact, _ = await conn.fetchrow(REFERENCE, tx, position)
    assert found.events == exact >= 4
    assert found.oldest_seconds > 0


async def test_from_the_cap_on_they_are_estimated_from_positions(store: EventStore, pool: asyncpg.Pool) -> None:
    tx, position = await appended(store, 20)
    async with pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
        found = await behind(conn, tx, position, cap=5)
        exact, last = await conn.fetchrow(REFERENCE, tx, position)
    assert exact >= 19
    assert found.events == max(5, last - position)
    assert found.events >= 19  # this test's own events hold positions after the checkpoint's


async def test_a_reader_at_the_end_of_the_log_is_not_behind(store: EventStore, pool: asyncpg.Pool) -> None:
    async with pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
        last = await conn.fetchrow("SELECT tx::text::bigint, position FROM events ORDER BY tx DESC, position DESC"
                                   " LIMIT 1")
        assert last is not None
        found = await behind(conn, last[0], last[1])
    assert (found.events, found.oldest_seconds) == (0, 0.0)
