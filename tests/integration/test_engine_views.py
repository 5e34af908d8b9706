"""A view asked for with the version the asker has seen is at least that far on, from the engine's cache or the log."""

from __future__ import annotations

import asyncio
import uuid

import msgspec
from nats.aio.client import Client

from shared.bus.engine_requests import ask_engine
from shared.bus.rpc import request
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.engine import CommandResult, CreateGame, GameView, GetView
from shared.play.table import Table
from tests.infra import RunInfra
from tests.integration.helpers import NotYet, metric, until
from tests.integration.play import create, play_moves


async def test_a_view_at_a_seen_version_is_never_older_than_it(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    ns = migrated.namespace
    game_id = await create(nc, ns, "vortex", 2)
    table = await play_moves(nc, ns, store, game_id, 3)
    subject = ns.engine(game_id, "view")
    latest = await request(nc, subject, GetView(game_id=game_id), GameView)
    assert latest.version == table.version
    for seen in (1, table.version, table.version + 5):
        view = await request(nc, subject, GetView(game_id=game_id, at_least_version=seen), GameView)
        assert view == latest, seen


async def test_the_engines_own_bots_do_not_read_a_game_again_at_its_end_but_its_view_comes_from_the_log(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    """The bots' pass that played the last move looks once more: from memory. A view of the ended game is what is
    stored (a stream changed after its end is named: test_corrupted_events)."""
    ns = migrated.namespace
    engine = game_services["engine"].url
    loads = metric(engine, "engine_game_loads")
    game_id = f"hockeydice-{uuid.uuid4().hex[:16]}"
    await ask_engine(nc, ns, game_id, "command", CreateGame(
        game="hockeydice", game_id=game_id, seats=2, bots=("greedy", "greedy"), command_id=str(uuid.uuid4()),
        options=msgspec.Raw(b'{"periods": 1, "shots_per_period": 1}')), CommandResult)

    async def ended() -> Table | NotYet:
        table = Table(game_id).apply_all(await store.read_stream(game_id))
        return table if table.ended is not None else NotYet(f"{game_id} at version {table.version}")

    table = await until("the engine's bots ended the game", ended, timeout=60)
    await asyncio.sleep(0.5)  # the bots' pass looks once more after the last move
    assert metric(engine, "engine_game_loads") == loads + 1  # the creation's look at an empty stream
    view = await request(nc, ns.engine(game_id, "view"), GetView(game_id=game_id), GameView)
    assert view.version == table.version and view.ended
    assert metric(engine, "engine_game_loads") == loads + 2
