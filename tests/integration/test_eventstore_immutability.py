from __future__ import annotations

import asyncpg
import pytest

from shared.eventstore import EventStore
from tests.integration.helpers import event, new_stream

CHANGES = [
    "UPDATE events SET data = '{}'::jsonb WHERE stream_id = $1",
    "DELETE FROM events WHERE stream_id = $1",
]


@pytest.mark.parametrize("sql", CHANGES)
async def test_the_services_role_cannot_change_events(store: EventStore, pool: asyncpg.Pool, sql: str) -> None:
    stream = new_stream()
    await store.append(stream, [event()])
    async with pool.acquire() as conn:
        assert await conn.fetchval("SELECT current_user") == "league_app"
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            await conn.execute(sql, stream)
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            await conn.execute("TRUNCATE events")
    assert len(await store.read_stream(stream)) == 1


@pytest.mark.parametrize("sql", CHANGES)
async def test_even_the_owner_cannot_change_events(store: EventStore, superuser: asyncpg.Connection, sql: str) -> None:
    stream = new_stream()
    await store.append(stream, [event()])
    with pytest.raises(asyncpg.PostgresError, match="events are immutable") as caught:
        await superuser.execute(sql, stream)
    assert caught.value.sqlstate == "EV001"
    with pytest.raises(asyncpg.PostgresError, match="events are immutable: TRUNCATE"):
        await superuser.execute("TRUNCATE events")
    assert len(await store.read_stream(stream)) == 1


async def tamper(superuser: asyncpg.Connection, sql: str, *args: object) -> None:
    async with superuser.transaction():
        await superuser.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        await superuser.execute(sql, *args)
        await superuser.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")


async def test_verify_accepts_an_intact_stream(store: EventStore) -> None:
    stream = new_stream()
    await store.append(stream, [event(i) for i in range(5)])
    await store.append(stream, [event(i, nested={"b": [1.0, 2.5], "a": "é"}) for i in range(5)])
    report = await store.verify(stream)
    assert report.ok and report.events == 10
    assert "verified" in str(report)


async def test_verify_names_an_event_altered_with_the_trigger_disabled(
    store: EventStore, superuser: asyncpg.Connection
) -> None:
    stream = new_stream()
    await store.append(stream, [event(i) for i in range(6)])
    victim = (await store.read_stream(stream))[3]
    await tamper(superuser, "UPDATE events SET data = '{\"n\": 99}'::jsonb WHERE event_id = $1", victim.event_id)
    report = await store.verify(stream)
    assert not report.ok
    assert report.first_bad is not None
    assert report.first_bad.version == 4 and report.first_bad.event_id == victim.event_id
    assert "does not match its hash" in report.first_bad.reason
    assert str(victim.event_id) in str(report)


async def test_verify_names_a_changed_metadata_and_a_removed_event(
    store: EventStore, superuser: asyncpg.Connection
) -> None:
    stream = new_stream()
    await store.append(stream, [event(i) for i in range(6)])
    events = await store.read_stream(stream)
    await tamper(superuser, "UPDATE events SET metadata = metadata || '{\"actor\": \"mallory\"}' WHERE event_id = $1",
                 events[1].event_id)
    report = await store.verify(stream)
    assert report.first_bad is not None and report.first_bad.event_id == events[1].event_id

    other = new_stream()
    await store.append(other, [event(i) for i in range(4)])
    removed = (await store.read_stream(other))[2]
    await tamper(superuser, "DELETE FROM events WHERE event_id = $1", removed.event_id)
    report = await store.verify(other)
    assert report.first_bad is not None and report.first_bad.version == 3
    assert "missing" in report.first_bad.reason
