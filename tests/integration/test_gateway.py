"""The gateway as players and dashboards use it: HTTP and WebSocket against the running league."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict

import aiohttp
import msgspec
import pytest

from shared.client.bot import play_game
from shared.client.http import LeagueClient
from shared.eventstore import EventStore
from shared.games.phantoms.state import Season
from shared.infra.processes import ServiceProcess
from shared.messages.engine import GameView
from shared.play.table import Table
from tests.integration.helpers import players, rejections_written
from tests.integration.play import revealed
from tests.unit.phantoms.test_properties import _strings, hidden_from

GAMES = [
    ("phantoms", 4, {"edition": "poti"}),
    ("phantoms", 4, {"edition": "powerplay", "team_variant": True}),
    ("vortex", 4, {}),
    ("hockeydice", 2, {}),
]


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
async def test_bots_play_a_whole_game_over_the_gateway_and_it_audits_verified(
    game: str, seats: int, options: dict[str, object], gateway: str, session: aiohttp.ClientSession,
    store: EventStore, game_services: dict[str, ServiceProcess],
) -> None:
    clients = await players(session, gateway, seats)
    organiser = clients[0]
    game_id = await organiser.create_game(game, seats, options=options, players=[c.player_id for c in clients])
    seen: list[list[GameView]] = [[] for _ in clients]
    spectator = LeagueClient(session, gateway)
    spectated: list[GameView] = []

    async def spectate() -> None:
        async for view in spectator.views(game_id):
            spectated.append(view)

    watching = asyncio.create_task(spectate())
    finals = await asyncio.gather(*(
        play_game(client, game_id, random.Random(n), on_view=seen[n].append, defer_seconds=30)
        for n, client in enumerate(clients)))
    await asyncio.wait_for(watching, 30)
    assert spectated[-1].ended and all(v.seat is None for v in spectated)
    assert all(f.ended for f in finals)
    assert {f.winners for f in finals} == {finals[0].winners}
    assert all(len(views) > 3 for views in seen)
    commitment = spectated[0].commitment
    assert commitment is not None and all(v.commitment == commitment for v in spectated + finals)
    await revealed(store, game_id)  # the RNG service reveals the seed once it has checked the end: a moment later
    report = await organiser.call("GET", f"/audit/{game_id}?commitment={commitment}")
    assert report["verified"] is True, report["summary"]
    if game == "phantoms":
        await check_no_view_shows_another_hand(store, game_id, seen, spectated)
    # A seat that may act together with a lower one gives it time first (30 s here, so a slow moment of the suite
    # cannot bring the race back): the bots never race into a move only one of them could make (Hockey's roll,
    # which either team may call for both).
    await rejections_written(game_services["engine"])
    refused = await store.pool.fetch("SELECT code, message FROM rejected_commands WHERE game_id = $1", game_id)
    assert refused == [], refused


async def check_no_view_shows_another_hand(store: EventStore, game_id: str, seen: list[list[GameView]],
                                           spectated: list[GameView]) -> None:
    """Every view each manager and a spectator received (HTTP and WebSocket) against the full state then."""
    events = await store.read_stream(game_id)
    viewers: list[int | None] = [*range(len(seen)), None]
    wanted: dict[tuple[int | None, int], list[GameView]] = defaultdict(list)
    for seat, views in zip(viewers, [*seen, spectated], strict=True):
        for view in views:
            wanted[seat, view.version].append(view)
    table = Table(game_id)
    checked = 0
    for recorded in events:
        table.apply(recorded)
        season = table.state
        for seat in viewers:
            for view in wanted.get((seat, table.version), []):
                assert view.seat == seat
                assert isinstance(season, Season)
                leaked = hidden_from(season, seat) & set(_strings(msgspec.json.decode(view.view)))
                assert not leaked, f"seat {seat} saw {leaked} at v{table.version}"
                checked += 1
    assert checked == sum(len(views) for views in [*seen, spectated]) > 20, "a view was not checked"


