"""A view asked for with the version the asker has seen is at least that far on, from the engine's cache or the log."""

from __future__ import annotations

from nats.aio.client import Client

from shared.bus.rpc import request
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.engine import GameView, GetView
from tests.infra import RunInfra
from tests.integration.helpers import metric
from tests.integration.play import create, play_moves, play_to_end


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


async def test_a_game_that_just_ended_is_answered_from_memory(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    """Its players' last looks (and the bots' and timers' passes) come just after the end: none reads the stream."""
    ns = migrated.namespace
    game_id = await create(nc, ns, "hockeydice", 2, {"periods": 1, "shots_per_period": 1})
    table = await play_to_end(nc, ns, store, game_id)
    engine = game_services["engine"].url
    loads = metric(engine, "engine_game_loads")
    for _ in range(2):
        view = await request(nc, ns.engine(game_id, "view"), GetView(game_id=game_id), GameView)
        assert view.version == table.version and view.ended
    assert metric(engine, "engine_game_loads") == loads
