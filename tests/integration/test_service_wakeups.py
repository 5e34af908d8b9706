"""A service built with use_store + use_nats (+ use_group_commit) wakes the log's readers of another over NATS."""

from __future__ import annotations

import asyncio
from contextlib import aclosing

from aiohttp import web

from shared.config import StoreSettings
from shared.eventstore import Checkpoint
from shared.service.app import base_app, use_group_commit, use_nats, use_store
from shared.service.keys import GROUP_COMMIT, STORE, WAKEUPS
from tests.infra import RunInfra
from tests.integration.helpers import event, new_stream


async def started(infra: RunInfra, name: str, *, group_commit: bool) -> web.AppRunner:
    settings = StoreSettings(nats_url=infra.nats_url, nats_subject_prefix=infra.namespace.prefix,
                             nats_nkey_file=infra.admin_nkey, database_url=infra.database_url)
    app = base_app(name, settings)
    use_store(app, settings)
    use_nats(app, settings)
    if group_commit:
        use_group_commit(app)
    runner = web.AppRunner(app)
    await runner.setup()
    return runner


async def test_a_commit_in_one_service_wakes_a_reader_in_another(migrated: RunInfra) -> None:
    writer = await started(migrated, "writer", group_commit=True)
    reader = await started(migrated, "reader", group_commit=False)
    try:
        store = reader.app[STORE]
        assert store.wakeups is reader.app[WAKEUPS]
        logged = await store.read_all(Checkpoint(), limit=1_000_000)
        after = logged[-1].checkpoint if logged else Checkpoint()
        stream, seen = new_stream("woken"), asyncio.Event()

        async def follow() -> None:
            async with aclosing(store.batches(after, poll_seconds=60)) as batches:
                async for events in batches:
                    if any(e.stream_id == stream for e in events):
                        seen.set()
                        return

        following = asyncio.create_task(follow())
        await asyncio.sleep(0.2)  # it has read the log once and sleeps on its 60 s poll
        await writer.app[GROUP_COMMIT].append(stream, [event(1)])
        # Well before its next poll (60 s): only the wake-up can have brought it. (A second under a loaded machine's
        # commit was once too short a bound.)
        await asyncio.wait_for(seen.wait(), 20)
        await following
        assert reader.app[WAKEUPS].received >= 1
        # The writer reads no log: it never subscribed, so the league's commits (its own too) never woke it.
        assert not writer.app[WAKEUPS].subscribed and writer.app[WAKEUPS].received == 0
        assert reader.app[WAKEUPS].subscribed
    finally:
        await writer.cleanup()
        await reader.cleanup()
