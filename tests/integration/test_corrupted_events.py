"""One corrupted event blocks nothing else: two events' data swapped (with the immutability trigger off) is named
by the engine's view, by /audit and by the standings' replay; the standings quarantine the stream (recorded, on
/metrics and in the dashboard's JSON) and fold the rest of the log, live and in ``league rebuild all``."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import asyncpg
import msgspec
import pytest
from nats.aio.client import Client

from shared.eventstore import EventStore, Metadata, RecordedEvent, hashing
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.bots_running import fetch, standings_service
from tests.integration.helpers import metric, until
from tests.integration.play import create, play_to_end
from tests.integration.tamper import rewrite

pytestmark = pytest.mark.usefixtures("gateway")
_encoder = msgspec.json.Encoder()


@pytest.fixture(scope="module")
async def standings(migrated: RunInfra) -> AsyncIterator[ServiceProcess]:
    async with standings_service(migrated, "standings-corrupted") as service:
        yield service


def swapped(game: list[RecordedEvent]) -> tuple[list[RecordedEvent], RecordedEvent]:
    """The first command's data and the next rules event's, swapped: neither fits its type any more."""
    i = next(i for i, e in enumerate(game) if e.type == "engine.CommandAccepted")
    j = next(k for k in range(i + 1, len(game)) if game[k].type.startswith("vortex."))
    game[i], game[j] = (msgspec.structs.replace(game[i], data=game[j].data),
                        msgspec.structs.replace(game[j], data=game[i].data))
    return game, game[i]


async def quarantined(url: str, stream_id: str) -> dict[str, Any] | None:
    status, page = await fetch(f"{url}/v1/quarantine?limit=500")
    assert status == 200, page
    return next((q for q in page["items"] if q["stream_id"] == stream_id), None)


async def board_ended(url: str, game_id: str) -> bool:
    status, board = await fetch(f"{url}/v1/boards/{game_id}")
    return status == 200 and not board["running"]


async def test_a_swapped_game_is_named_everywhere_and_quarantined_while_the_rest_rebuilds(
    nc: Client, store: EventStore, migrated: RunInfra, superuser: asyncpg.Connection, gateway: str,
    session: aiohttp.ClientSession, standings: ServiceProcess
) -> None:
    ns = migrated.namespace
    game_id = await create(nc, ns, "vortex", 2)
    await play_to_end(nc, ns, store, game_id, seed=21)
    await until("the live fold has folded the game (so that the rebuild is the first to meet the damage)",
                lambda: board_ended(standings.url, game_id))
    tampered, first_bad = swapped(list(await store.read_stream(game_id)))
    await rewrite(superuser, game_id, tampered)
    bad = str(first_bad.event_id)

    async with session.get(f"{gateway}/v1/games/{game_id}") as response:
        body = await response.json()
        assert (response.status, body["code"]) == (409, "event.unreadable"), body
        assert bad in body["message"] and f"v{first_bad.version}" in body["message"]
    async with session.get(f"{gateway}/audit/{game_id}") as response:
        report = await response.json()
        assert response.status == 200 and report["verified"] is False, report
        assert report["discrepancy"]["event_id"] == bad, report
    status, replay = await fetch(f"{standings.url}/v1/games/{game_id}/replay")
    assert (status, replay["code"]) == (409, "event.unreadable") and bad in replay["message"], replay

    env = {**os.environ, **migrated.env}  # as the standings login (SECRETS_DIR), the owner of the projections
    rebuilt = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "shared.cli.main", "rebuild", "all"],
                                      env=env, capture_output=True, text=True, timeout=300, check=False)
    assert rebuilt.returncode == 0 and "Traceback" not in rebuilt.stderr, rebuilt.stderr
    assert "rebuilt and swapped in" in rebuilt.stdout and game_id in rebuilt.stdout, rebuilt.stdout

    entry = await until("the standings list the quarantined stream", lambda: quarantined(standings.url, game_id))
    assert (entry["event_id"], entry["from_version"]) == (bad, first_bad.version), entry
    assert "hash" in entry["reason"]
    _, counters = await fetch(f"{standings.url}/v1/counters")
    assert counters["quarantined_streams"] >= 1

    await until("/metrics shows the quarantine", lambda: metric(standings.url, "standings_quarantined_streams") >= 1)
    # The rest of the log goes on: a game played after it is folded as before.
    after = await create(nc, ns, "vortex", 2)
    await play_to_end(nc, ns, store, after, seed=22)

    await until("the next game's board", lambda: board_ended(standings.url, after))


async def test_an_unreadable_event_met_by_the_live_fold_quarantines_its_stream_and_the_fold_goes_on(
    nc: Client, store: EventStore, migrated: RunInfra, superuser: asyncpg.Connection, standings: ServiceProcess
) -> None:
    """Written straight into the table with a valid hash, its data not what its type holds: the live fold records
    it and leaves its stream out, counting it as an event of the log all the same."""
    stream_id = f"vortex-corrupt{uuid.uuid4().hex[:12]}"
    event_id = uuid.uuid4()
    data, metadata = b'{"game": 7}', _encoder.encode(Metadata(correlation_id="tamper", actor="admin"))
    body = hashing.body(stream_id, event_id, "engine.GameOpened", 1, data, metadata)
    await superuser.execute(
        "INSERT INTO events (event_id, stream_id, version, type, schema_version, data, metadata, prev_hash, hash)"
        " VALUES ($1, $2, 1, 'engine.GameOpened', 1, $3, $4, $5, $6)",
        event_id, stream_id, data, metadata, hashing.GENESIS, hashing.chain(hashing.GENESIS, 1, body))
    entry = await until("the live fold quarantines the stream", lambda: quarantined(standings.url, stream_id))
    assert entry["event_id"] == str(event_id) and "engine.GameOpened" in entry["reason"], entry
    game_id = await create(nc, migrated.namespace, "vortex", 2)
    await play_to_end(nc, migrated.namespace, store, game_id, seed=23)

    await until("a game after the unreadable event is folded", lambda: board_ended(standings.url, game_id))
